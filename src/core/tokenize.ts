/**
 * Tokenisers: source code and prose (with CJK runs segmented by an injected segmenter).
 *
 * Tokens are never materialised as strings in the hot path: each token's 64-bit FNV-1a hash is
 * computed while its characters are scanned, and stored with its start offset in a TokenBuffer.
 */
import { FNV64_OFFSET_HI, FNV64_OFFSET_LO, fnv1a64, out } from './hash';
import type { CommentSyntax, LanguageInfo } from './languages';
import type { CjkSegmenter } from './types';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stopWords';

const TWO_32 = 4294967296;
const PRIME_LO = 0x1b3;

/** Growable parallel arrays of token hashes (two halves) and start offsets. */
export class TokenBuffer {
  hi: Uint32Array;
  lo: Uint32Array;
  start: Int32Array;
  length = 0;

  constructor(capacity = 4096) {
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.start = new Int32Array(capacity);
  }

  reset(): void {
    this.length = 0;
  }

  push(hi: number, lo: number, start: number): void {
    if (this.length === this.hi.length) this.grow();
    const n = this.length++;
    this.hi[n] = hi;
    this.lo[n] = lo;
    this.start[n] = start;
  }

  private grow(): void {
    const cap = this.hi.length * 2;
    const hi = new Uint32Array(cap);
    const lo = new Uint32Array(cap);
    const start = new Int32Array(cap);
    hi.set(this.hi);
    lo.set(this.lo);
    start.set(this.start);
    this.hi = hi;
    this.lo = lo;
    this.start = start;
  }

  /** Index of the first token whose start offset is >= offset (binary search). */
  lowerBound(offset: number): number {
    let a = 0;
    let b = this.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (this.start[m] < offset) a = m + 1;
      else b = m;
    }
    return a;
  }
}

/** A set of 64-bit hashes of words (stop words, keywords), probed without allocating. */
class HashSet64 {
  private readonly map = new Map<number, number[]>();
  constructor(words: Iterable<string>) {
    for (const w of words) {
      fnv1a64(w);
      const list = this.map.get(out.lo);
      if (list) list.push(out.hi);
      else this.map.set(out.lo, [out.hi]);
    }
  }
  has(hi: number, lo: number): boolean {
    const list = this.map.get(lo);
    return list !== undefined && list.includes(hi);
  }
}

const KEYWORDS = new HashSet64(
  (
    'if else for while do switch case default break continue return function class interface ' +
    'enum struct union type typedef extends implements new delete this self super null nil none ' +
    'true false undefined void var let const static public private protected final abstract ' +
    'import export from package module namespace use using include require try catch finally ' +
    'throw throws raise except def lambda fn func fun async await yield in of is not and or as ' +
    'with pass elif end then begin match when where go defer chan select goto int long short ' +
    'char float double bool boolean string byte unsigned signed auto extern inline virtual ' +
    'override template typename operator sizeof instanceof typeof readonly declare get set mut ' +
    'impl trait pub crate mod loop local global nonlocal del assert print echo'
  ).split(' '),
);
const STOP_WORDS = new HashSet64([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS]);

/** Placeholder tokens for normalised identifiers and literals. */
function placeholderHash(s: string): [number, number] {
  fnv1a64(s);
  return [out.hi, out.lo];
}
const [ID_HI, ID_LO] = placeholderHash('\u0001id');
const [NUM_HI, NUM_LO] = placeholderHash('\u0001num');
const [STR_HI, STR_LO] = placeholderHash('\u0001str');

export interface CodeTokenizeOptions {
  /** Replace identifiers (not keywords) and literals by placeholders: catches renamed copies. */
  normalizeIdentifiers?: boolean;
}

export interface ProseTokenizeOptions {
  stopWords?: boolean;
  segmenter?: CjkSegmenter;
}

/** Character classes of ASCII, looked up instead of compared in the hot loops. */
const IDENT_START = 1;
const IDENT_PART = 2;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
  const digit = c >= 48 && c <= 57;
  ASCII_CLASS[c] = (letter ? IDENT_START | IDENT_PART : 0) | (digit ? IDENT_PART : 0);
}

function isAsciiIdentStart(c: number): boolean {
  return c < 128 && (ASCII_CLASS[c] & IDENT_START) !== 0;
}

/** An identifier character: ASCII letters, digits, _ and $, or any Unicode word character. */
function isIdentPart(c: number): boolean {
  return c < 128 ? (ASCII_CLASS[c] & IDENT_PART) !== 0 : isUnicodeWordChar(c);
}

/** First characters of a language's comment openers, as a 128-entry flag table (cached). */
const commentStarts = new WeakMap<CommentSyntax, Uint8Array>();
function commentFirstChars(comments: CommentSyntax): Uint8Array {
  let t = commentStarts.get(comments);
  if (!t) {
    t = new Uint8Array(128);
    for (const o of comments.line) t[o.charCodeAt(0) & 127] = 1;
    for (const [o] of comments.block) t[o.charCodeAt(0) & 127] = 1;
    commentStarts.set(comments, t);
  }
  return t;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/** A non-ASCII code unit that belongs to a word (letters, marks, digits; surrogates too). */
function isUnicodeWordChar(c: number): boolean {
  if (c < 0x80) return false;
  if (c >= 0xd800 && c <= 0xdfff) return true;
  if (c === 0x00a0 || c === 0xfeff || (c >= 0x2000 && c <= 0x206f) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xff0f)) {
    return false;
  }
  return LETTER_OR_DIGIT.test(String.fromCharCode(c));
}

/** CJK ideographs, kana and Hangul: scripts written without spaces between words. */
export function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0x31f0 && c <= 0x31ff)
  );
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || c === 0x3000 || c === 0x2028 || c === 0x2029;
}

function startsWithAt(text: string, i: number, s: string): boolean {
  for (let j = 0; j < s.length; j++) {
    if (text.charCodeAt(i + j) !== s.charCodeAt(j)) return false;
  }
  return true;
}

/** Returns the offset just after a comment starting at i, or -1 when none starts there. */
function skipComment(text: string, i: number, comments: CommentSyntax): number {
  for (const [open, close] of comments.block) {
    if (startsWithAt(text, i, open)) {
      const e = text.indexOf(close, i + open.length);
      return e < 0 ? text.length : e + close.length;
    }
  }
  for (const open of comments.line) {
    if (startsWithAt(text, i, open)) {
      const e = text.indexOf('\n', i + open.length);
      return e < 0 ? text.length : e;
    }
  }
  return -1;
}

/**
 * Code tokens: identifiers, numbers, string literals (one token each) and single punctuation
 * characters. Comments and whitespace are dropped.
 */
export function tokenizeCode(text: string, lang: LanguageInfo, options: CodeTokenizeOptions, buf: TokenBuffer): void {
  const normalize = options.normalizeIdentifiers === true;
  const comments = lang.comments;
  const commentFirst = commentFirstChars(comments);
  const singleQuote = lang.singleQuoteStrings;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c <= 32 || isSpace(c)) {
      i++;
      continue;
    }
    if (c < 128 && commentFirst[c] === 1) {
      const e = skipComment(text, i, comments);
      if (e >= 0) {
        i = e;
        continue;
      }
    }
    const start = i;
    let hi = FNV64_OFFSET_HI;
    let lo = FNV64_OFFSET_LO;
    if (isAsciiIdentStart(c) || isUnicodeWordChar(c)) {
      // Identifier or keyword.
      do {
        const d = text.charCodeAt(i);
        lo = (lo ^ d) >>> 0;
        const p = lo * PRIME_LO;
        hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
        lo = p >>> 0;
        i++;
      } while (i < n && isIdentPart(text.charCodeAt(i)));
      if (normalize && !KEYWORDS.has(hi, lo)) buf.push(ID_HI, ID_LO, start);
      else buf.push(hi, lo, start);
      continue;
    }
    if (c >= 48 && c <= 57) {
      // Number: digits, letters (hex, exponents, suffixes), dots and underscores.
      do {
        const d = text.charCodeAt(i);
        lo = (lo ^ d) >>> 0;
        const p = lo * PRIME_LO;
        hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
        lo = p >>> 0;
        i++;
      } while (i < n && (isIdentPart(text.charCodeAt(i)) || (text.charCodeAt(i) === 46 && i + 1 < n && text.charCodeAt(i + 1) >= 48 && text.charCodeAt(i + 1) <= 57)));
      if (normalize) buf.push(NUM_HI, NUM_LO, start);
      else buf.push(hi, lo, start);
      continue;
    }
    if (c === 34 || c === 96 || (c === 39 && singleQuote)) {
      // String literal: up to the matching unescaped quote; '…' and "…" end at a newline too.
      const multiline = c === 96;
      i++;
      lo = (lo ^ c) >>> 0;
      let p = lo * PRIME_LO;
      hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
      lo = p >>> 0;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 10 && !multiline) break;
        lo = (lo ^ d) >>> 0;
        p = lo * PRIME_LO;
        hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
        lo = p >>> 0;
        i++;
        if (d === 92 && i < n) {
          const e = text.charCodeAt(i);
          lo = (lo ^ e) >>> 0;
          p = lo * PRIME_LO;
          hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
          lo = p >>> 0;
          i++;
        } else if (d === c) {
          break;
        }
      }
      if (normalize) buf.push(STR_HI, STR_LO, start);
      else buf.push(hi, lo, start);
      continue;
    }
    // Punctuation / operator: one character.
    lo = (lo ^ c) >>> 0;
    const p = lo * PRIME_LO;
    hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
    lo = p >>> 0;
    buf.push(hi, lo, start);
    i++;
  }
}

/**
 * Prose tokens: lower-cased words (letters, digits, inner apostrophes); CJK runs go through the
 * segmenter (one token per word). Punctuation and Markdown syntax are dropped; stop words too
 * when asked.
 */
export function tokenizeProse(text: string, options: ProseTokenizeOptions, buf: TokenBuffer): void {
  const stop = options.stopWords === true;
  const segmenter = options.segmenter;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) {
        i++;
        continue;
      }
    } else if (isCjk(c)) {
      const start = i;
      do i++;
      while (i < n && isCjk(text.charCodeAt(i)));
      pushCjkRun(text.slice(start, i), start, segmenter, stop, buf);
      continue;
    } else if (!isUnicodeWordChar(c)) {
      i++;
      continue;
    }
    // A word: ASCII letters are lower-cased on the fly; other letters through toLowerCase.
    const start = i;
    let hi = FNV64_OFFSET_HI;
    let lo = FNV64_OFFSET_LO;
    let ascii = true;
    while (i < n) {
      let d = text.charCodeAt(i);
      if (d < 128) {
        if (d >= 65 && d <= 90) d |= 32;
        else if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57))) {
          // Inner apostrophe (don't, it's) stays in the word.
          if (d === 39 && i + 1 < n && isAsciiLetter(text.charCodeAt(i + 1)) && i > start) {
            // fall through and hash it
          } else break;
        }
      } else if (d === 0x2019 && i + 1 < n && isAsciiLetter(text.charCodeAt(i + 1))) {
        d = 39;
      } else if (isCjk(d) || !isUnicodeWordChar(d)) {
        break;
      } else {
        ascii = false;
      }
      lo = (lo ^ d) >>> 0;
      const p = lo * PRIME_LO;
      hi = (Math.imul(hi, PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
      lo = p >>> 0;
      i++;
    }
    if (!ascii) {
      fnv1a64(text.slice(start, i).toLowerCase().replace(/\u2019/g, "'"));
      hi = out.hi;
      lo = out.lo;
    }
    if (stop && STOP_WORDS.has(hi, lo)) continue;
    buf.push(hi, lo, start);
  }
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function pushCjkRun(run: string, start: number, segmenter: CjkSegmenter | undefined, stop: boolean, buf: TokenBuffer): void {
  const words = segmenter ? segmenter(run) : bigrams(run);
  let offset = start;
  for (const w of words) {
    if (w.length === 0) continue;
    fnv1a64(w);
    const at = run.indexOf(w, offset - start);
    const pos = at >= 0 ? start + at : offset;
    offset = at >= 0 ? pos + (segmenter ? w.length : 1) : offset;
    if (stop && STOP_WORDS.has(out.hi, out.lo)) continue;
    buf.push(out.hi, out.lo, pos);
  }
}

/** Character bigrams of a CJK run: the segmenter-free fallback ("abcd" → ab, bc, cd). */
export function bigrams(run: string): string[] {
  if (run.length <= 1) return run.length === 1 ? [run] : [];
  const result: string[] = new Array(run.length - 1);
  for (let i = 0; i + 1 < run.length; i++) result[i] = run.slice(i, i + 2);
  return result;
}
