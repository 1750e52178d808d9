/**
 * Tokenisers: source code and prose (with CJK runs segmented by an injected segmenter).
 *
 * Tokens are never materialised as strings in the hot path: each token's 64-bit FNV-1a hash is
 * computed while its characters are scanned, and stored with its start offset in a TokenBuffer.
 */
import { FNV64_OFFSET_HI, FNV64_OFFSET_LO, FNV64_PRIME_LO, fnv1a64, fnv1a64Step, fnvHi, out } from './hash';
import { commentFirstChars, REGEX_KEYWORDS, regexLiteralEnd, regexMayFollowPunct, skipComment } from './comments';
import type { LanguageInfo } from './languages';
import type { CjkSegmenter, CodeKernel } from '../types';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stopWords';

/**
 * Growable parallel arrays of token hashes (two halves), start offsets and each token's other
 * form's low half (`alt`): in code, the low half of the token with identifiers and literals
 * replaced by placeholders (or, when the hashes already are normalised, of the token as read); in
 * prose, the low half itself. The clone hashes of items (cloneHashes.ts) are made from lo and alt.
 */
export class TokenBuffer {
  hi: Uint32Array;
  lo: Uint32Array;
  start: Int32Array;
  alt: Uint32Array;
  length = 0;

  constructor(capacity = 4096) {
    capacity = Math.max(1, capacity);
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.start = new Int32Array(capacity);
    this.alt = new Uint32Array(capacity);
  }

  reset(): void {
    this.length = 0;
  }

  push(hi: number, lo: number, start: number, alt: number = lo): void {
    if (this.length === this.hi.length) this.grow();
    const n = this.length++;
    this.hi[n] = hi;
    this.lo[n] = lo;
    this.start[n] = start;
    this.alt[n] = alt;
  }

  /** Doubles the capacity, keeping the tokens. */
  grow(): void {
    const cap = this.hi.length * 2;
    const hi = new Uint32Array(cap);
    const lo = new Uint32Array(cap);
    const start = new Int32Array(cap);
    const alt = new Uint32Array(cap);
    hi.set(this.hi);
    lo.set(this.lo);
    start.set(this.start);
    alt.set(this.alt);
    this.hi = hi;
    this.lo = lo;
    this.start = start;
    this.alt = alt;
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

const KEYWORD_LIST = (
    'if else for while do switch case default break continue return function class interface ' +
    'enum struct union type typedef extends implements new delete this self super null nil none ' +
    'true false undefined void var let const static public private protected final abstract ' +
    'import export from package module namespace use using include require try catch finally ' +
    'throw throws raise except def lambda fn func fun async await yield in of is not and or as ' +
    'with pass elif end then begin match when where go defer chan select goto int long short ' +
    'char float double bool boolean string byte unsigned signed auto extern inline virtual ' +
    'override template typename operator sizeof instanceof typeof readonly declare get set mut ' +
    'impl trait pub crate mod loop local global nonlocal del assert print echo'
  ).split(' ');
const STOP_WORDS = new HashSet64([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS]);

/**
 * The keywords again as an open-addressing table on the low half (1024 slots, as native/
 * tokenize.c's): probed for every identifier (a keyword stays itself in the normalised form),
 * so one load and compare rather than a Map lookup: KW_MUL was chosen (by search) so that every
 * keyword of the list has a slot of its own (KW_PROBE stays 0; a longer list that collides still
 * works, probing the KW_PROBE slots after).
 */
const KW_SLOTS = 1024;
const KW_MUL = 0x816da9bd;
const KW_HI = new Uint32Array(KW_SLOTS);
const KW_LO = new Uint32Array(KW_SLOTS);
let KW_PROBE = 0;
for (const w of KEYWORD_LIST) {
  fnv1a64(w);
  let slot = Math.imul(out.lo, KW_MUL) >>> 22;
  let probe = 0;
  while ((KW_HI[slot] !== 0 || KW_LO[slot] !== 0) && !(KW_HI[slot] === out.hi && KW_LO[slot] === out.lo)) {
    slot = (slot + 1) & (KW_SLOTS - 1);
    probe++;
  }
  KW_HI[slot] = out.hi;
  KW_LO[slot] = out.lo;
  KW_PROBE = Math.max(KW_PROBE, probe);
}

/** Whether an identifier's hash (unsigned halves) is a keyword's. */
function isKeyword(hi: number, lo: number): boolean {
  const slot = Math.imul(lo, KW_MUL) >>> 22;
  if (KW_LO[slot] === lo && KW_HI[slot] === hi) return true;
  for (let k = 1; k <= KW_PROBE; k++) {
    const s = (slot + k) & (KW_SLOTS - 1);
    if (KW_LO[s] === lo && KW_HI[s] === hi) return true;
  }
  return false;
}

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
  /** A kernel that finds the words (CodeKernel.proseTokens): the same tokens. */
  kernel?: Pick<CodeKernel, 'proseTokens'>;
}

/**
 * Classes of ASCII characters for the code tokeniser, looked up instead of compared: one load
 * decides what a character starts. (Comment openers depend on the language and are checked
 * separately, with `commentFirstChars` and `skipComment` of comments.ts.)
 */
const CODE_SPACE = 0; // controls and space: skipped
const CODE_IDENT = 1; // letters, _ and $: start an identifier
const CODE_DIGIT = 2; // 0-9: start a number
const CODE_QUOTE = 3; // " and `: always start a string
const CODE_SQUOTE = 4; // ': starts a string where the language says so
const CODE_PUNCT = 5; // anything else: a one-character token
const CODE_CLASS = new Uint8Array(128);
/** Flag table: the ASCII characters that continue an identifier or number (letters, digits, _, $). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
  const digit = c >= 48 && c <= 57;
  ASCII_WORD[c] = letter || digit ? 1 : 0;
  CODE_CLASS[c] =
    c <= 32 ? CODE_SPACE
    : letter ? CODE_IDENT
    : digit ? CODE_DIGIT
    : c === 34 || c === 96 ? CODE_QUOTE
    : c === 39 ? CODE_SQUOTE
    : CODE_PUNCT;
}

/**
 * FNV-1a 64 of each one-character token below 128 (punctuation), precomputed: the commonest
 * tokens of code cost one load each instead of a hash step.
 */
const PUNCT_HI = new Uint32Array(128);
const PUNCT_LO = new Uint32Array(128);
for (let c = 0; c < 128; c++) {
  fnv1a64(String.fromCharCode(c));
  PUNCT_HI[c] = out.hi;
  PUNCT_LO[c] = out.lo;
}

/** An identifier character: ASCII letters, digits, _ and $, or any Unicode word character. */
function isIdentPart(c: number): boolean {
  return c < 128 ? ASCII_WORD[c] === 1 : isUnicodeWordChar(c);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/**
 * Answers of isUnicodeWordChar per UTF-16 code unit, filled on first use (0 = not asked yet,
 * 1 = word, 2 = not): the Unicode property test is a regular expression, too slow to run on every
 * character of non-English text.
 */
const unicodeWord = new Uint8Array(65536);

/** A non-ASCII code unit that belongs to a word (letters, marks, digits; surrogates too). */
function isUnicodeWordChar(c: number): boolean {
  if (c < 0x80) return false;
  const known = unicodeWord[c];
  if (known !== 0) return known === 1;
  const word = classifyUnicode(c);
  unicodeWord[c] = word ? 1 : 2;
  return word;
}

function classifyUnicode(c: number): boolean {
  // Every comparison made on every call (none under another's answer): unicodeWordTable's loop,
  // optimised early, meets no comparison without type feedback as c passes each range's start.
  const fromD800 = c >= 0xd800;
  const toDfff = c <= 0xdfff;
  const nbsp = c === 0x00a0;
  const bom = c === 0xfeff;
  const from2000 = c >= 0x2000;
  const to206f = c <= 0x206f;
  const from3000 = c >= 0x3000;
  const to303f = c <= 0x303f;
  const fromFf00 = c >= 0xff00;
  const toFf0f = c <= 0xff0f;
  if (fromD800 && toDfff) return true; // a surrogate
  if (nbsp || bom || (from2000 && to206f) || (from3000 && to303f) || (fromFf00 && toFf0f)) return false;
  return LETTER_OR_DIGIT.test(String.fromCharCode(c));
}

/** Runs of word characters, for {@link unicodeWordTable}: LETTER_OR_DIGIT's class, repeated. */
const WORD_RUNS = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * isUnicodeWordChar for every UTF-16 code unit (1 = word character; ASCII entries 0): what a
 * compiled tokeniser needs to split words exactly as this one does. Made by one pass of a regular
 * expression over a string of every unit from U+0080 (surrogates as spaces: a pair would be one
 * character), then classifyUnicode's exceptions: ~2 ms once per thread where a test per unit took
 * ~10 (a scan's start-up; the identity with isUnicodeWordChar is tested unit by unit).
 */
export function unicodeWordTable(): Uint8Array {
  const t = new Uint8Array(65536);
  const units = new Uint16Array(65536 - 0x80);
  for (let i = 0; i < units.length; i++) units[i] = i + 0x80;
  units.fill(0x20, 0xd800 - 0x80, 0xe000 - 0x80);
  let text = '';
  for (let at = 0; at < units.length; at += 8192) text += String.fromCharCode.apply(null, units.subarray(at, at + 8192) as unknown as number[]);
  WORD_RUNS.lastIndex = 0;
  for (let m = WORD_RUNS.exec(text); m !== null; m = WORD_RUNS.exec(text)) t.fill(1, 0x80 + m.index, 0x80 + m.index + m[0].length);
  t.fill(1, 0xd800, 0xe000);
  t[0x00a0] = 0;
  t[0xfeff] = 0;
  t.fill(0, 0x2000, 0x2070);
  t.fill(0, 0x3000, 0x3040);
  t.fill(0, 0xff00, 0xff10);
  // And this thread's isUnicodeWordChar answers, all known now (as a test per unit left them).
  for (let c = 0x80; c < 65536; c++) unicodeWord[c] = 2 - t[c];
  return t;
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

/** White space beyond ASCII (ASCII controls and space are class CODE_SPACE). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || c === 0x3000 || c === 0x2028 || c === 0x2029;
}

/*
 * The scanners below hash each token's characters as they pass (FNV-1a 64 in two int32 halves:
 * lo' = imul(lo ^ c, 435), hi' = fnvHi(hi, lo ^ c)) and return the token's end; the halves are
 * left in `out` (as int32: the buffer's Uint32Array stores take the same 32 bits).
 */

/** An identifier (or keyword) from i: word characters. */
function scanIdentifier(text: string, i: number, n: number): number {
  let hi = FNV64_OFFSET_HI | 0;
  let lo = FNV64_OFFSET_LO | 0;
  let c = text.charCodeAt(i);
  for (;;) {
    const x = lo ^ c;
    hi = fnvHi(hi, x);
    lo = Math.imul(x, FNV64_PRIME_LO);
    if (++i >= n) break;
    c = text.charCodeAt(i);
    if (c < 128 ? ASCII_WORD[c] === 0 : !isUnicodeWordChar(c)) break;
  }
  out.hi = hi;
  out.lo = lo;
  return i;
}

/** A number from i: digits, letters (hex, exponents, suffixes), underscores, and dots before a digit. */
function scanNumber(text: string, i: number, n: number): number {
  let hi = FNV64_OFFSET_HI | 0;
  let lo = FNV64_OFFSET_LO | 0;
  let c = text.charCodeAt(i);
  for (;;) {
    const x = lo ^ c;
    hi = fnvHi(hi, x);
    lo = Math.imul(x, FNV64_PRIME_LO);
    if (++i >= n) break;
    c = text.charCodeAt(i);
    if (!isIdentPart(c) && !(c === 46 && i + 1 < n && isDigit(text.charCodeAt(i + 1)))) break;
  }
  out.hi = hi;
  out.lo = lo;
  return i;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A string literal from its opening quote q at i: up to the matching unescaped quote (a
 * backslash takes the next character with it); '…' and "…" also end before a newline.
 */
function scanString(text: string, i: number, n: number, q: number): number {
  const multiline = q === 96;
  let x = (FNV64_OFFSET_LO | 0) ^ q;
  let hi = fnvHi(FNV64_OFFSET_HI | 0, x);
  let lo = Math.imul(x, FNV64_PRIME_LO);
  i++;
  while (i < n) {
    const d = text.charCodeAt(i);
    if (d === 10 && !multiline) break;
    x = lo ^ d;
    hi = fnvHi(hi, x);
    lo = Math.imul(x, FNV64_PRIME_LO);
    i++;
    if (d === 92) {
      if (i < n) {
        x = lo ^ text.charCodeAt(i);
        hi = fnvHi(hi, x);
        lo = Math.imul(x, FNV64_PRIME_LO);
        i++;
      }
    } else if (d === q) {
      break;
    }
  }
  out.hi = hi;
  out.lo = lo;
  return i;
}

/** REGEX_KEYWORDS by hash. */
const REGEX_KEYWORD_SET = new HashSet64(REGEX_KEYWORDS);

/** The FNV-1a 64 of text[i, e) (a regex literal), left in `out`. */
function hashRange(text: string, i: number, e: number): void {
  let hi = FNV64_OFFSET_HI | 0;
  let lo = FNV64_OFFSET_LO | 0;
  for (; i < e; i++) {
    const x = lo ^ text.charCodeAt(i);
    hi = fnvHi(hi, x);
    lo = Math.imul(x, FNV64_PRIME_LO);
  }
  out.hi = hi;
  out.lo = lo;
}

/**
 * Whether a `/` may open a regex after the last token buffered (index `last`, or none when
 * last < first): the text's first token, a keyword of REGEX_KEYWORDS, or punctuation that
 * regexMayFollowPunct allows; `/` itself only as division (a regex token begins with `/` too,
 * but its hash is not the one-character `/`'s). Read from the token's first character and hash,
 * which native/tokenize.c has as well.
 */
function regexMayStart(text: string, buf: TokenBuffer, first: number, last: number, singleQuote: boolean): boolean {
  if (last < first) return true;
  const p = text.charCodeAt(buf.start[last]);
  if (p >= 128) return !isUnicodeWordChar(p);
  const cls = CODE_CLASS[p];
  if (cls === CODE_IDENT) return REGEX_KEYWORD_SET.has(buf.hi[last], buf.lo[last]);
  if (cls === CODE_PUNCT) return p === 47 ? buf.hi[last] === PUNCT_HI[47] && buf.lo[last] === PUNCT_LO[47] : regexMayFollowPunct(p);
  return cls === CODE_SQUOTE && !singleQuote;
}

/**
 * Code tokens: identifiers, numbers, string literals and (where the language has them) regular
 * expression literals, one token each, and single punctuation characters. Comments and
 * whitespace are dropped. A regex becomes a literal like a string: `\u0001str` when identifiers
 * are normalised.
 */
export function tokenizeCode(text: string, lang: LanguageInfo, options: CodeTokenizeOptions, buf: TokenBuffer): void {
  const normalize = options.normalizeIdentifiers === true;
  const comments = lang.comments;
  const commentFirst = commentFirstChars(comments);
  const singleQuote = lang.singleQuoteStrings;
  const regex = lang.regexLiterals;
  const n = text.length;
  const first = buf.length;
  // The buffer's arrays and length, held in locals while tokenising (one store site below).
  let hiArr = buf.hi;
  let loArr = buf.lo;
  let startArr = buf.start;
  let altArr = buf.alt;
  let len = buf.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let cls: number;
    if (c < 128) {
      cls = CODE_CLASS[c];
      if (cls === CODE_SPACE) {
        i++;
        continue;
      }
      if (commentFirst[c] === 1) {
        const e = skipComment(text, i, comments);
        if (e >= 0) {
          i = e;
          continue;
        }
      }
      if (cls === CODE_SQUOTE) cls = singleQuote ? CODE_QUOTE : CODE_PUNCT;
    } else if (isSpace(c)) {
      i++;
      continue;
    } else {
      cls = isUnicodeWordChar(c) ? CODE_IDENT : CODE_PUNCT;
    }
    const start = i;
    let hi: number;
    let lo: number;
    // The other form's low half (TokenBuffer.alt): normalised when the hashes are not, and back.
    let alt: number;
    let regexEnd: number;
    if (cls === CODE_PUNCT && c === 47 && regex) {
      regexEnd = regexMayStart(text, buf, first, len - 1, singleQuote) ? regexLiteralEnd(text, i) : -1;
    } else regexEnd = -1;
    if (regexEnd >= 0) {
      // A regular expression: one literal token, as a string.
      hashRange(text, i, regexEnd);
      i = regexEnd;
      hi = normalize ? STR_HI : out.hi;
      lo = normalize ? STR_LO : out.lo;
      alt = normalize ? out.lo : STR_LO;
    } else if (cls === CODE_PUNCT) {
      // One character: a table entry below 128, one hash step above.
      if (c < 128) {
        hi = PUNCT_HI[c];
        lo = PUNCT_LO[c];
      } else {
        fnv1a64Step(FNV64_OFFSET_HI, FNV64_OFFSET_LO, c);
        hi = out.hi;
        lo = out.lo;
      }
      alt = lo;
      i++;
    } else if (cls === CODE_IDENT) {
      i = scanIdentifier(text, i, n);
      hi = out.hi;
      lo = out.lo;
      if (isKeyword(hi >>> 0, lo >>> 0)) alt = lo;
      else if (normalize) {
        alt = lo;
        hi = ID_HI;
        lo = ID_LO;
      } else alt = ID_LO;
    } else if (cls === CODE_DIGIT) {
      i = scanNumber(text, i, n);
      hi = normalize ? NUM_HI : out.hi;
      lo = normalize ? NUM_LO : out.lo;
      alt = normalize ? out.lo : NUM_LO;
    } else {
      i = scanString(text, i, n, c);
      hi = normalize ? STR_HI : out.hi;
      lo = normalize ? STR_LO : out.lo;
      alt = normalize ? out.lo : STR_LO;
    }
    if (len === hiArr.length) {
      buf.length = len;
      buf.grow();
      hiArr = buf.hi;
      loArr = buf.lo;
      startArr = buf.start;
      altArr = buf.alt;
    }
    hiArr[len] = hi;
    loArr[len] = lo;
    startArr[len] = start;
    altArr[len] = alt;
    len++;
  }
  buf.length = len;
}

/**
 * Prose tokens: lower-cased words (letters, digits, inner apostrophes); CJK runs go through the
 * segmenter (one token per word). Punctuation and Markdown syntax are dropped; stop words too
 * when asked. Returns the number of CJK runs met (none: the segmenter made no token).
 */
export function tokenizeProse(text: string, options: ProseTokenizeOptions, buf: TokenBuffer): number {
  const kernel = options.kernel;
  if (kernel?.proseTokens && text.length <= KERNEL_PROSE_UNITS) return proseTokensByKernel(kernel as Required<typeof kernel>, text, options.stopWords === true, options.segmenter, buf);
  return proseTokens(text, text.length, options.stopWords === true, options.segmenter, buf);
}

/**
 * Longest text whose words a kernel finds: its entries (20 bytes a word) and its copy of the text
 * stay small; a bigger text (rare for prose) is read here, with no more memory than the tokens'.
 */
const KERNEL_PROSE_UNITS = 1 << 21;
/** Words of an entry of CodeKernel.proseTokens (kind start end hi lo), and its kinds. */
const PROSE_ENTRY = 5;
const PROSE_OTHER_WORD = 1;
const PROSE_CJK_RUN = 2;
/** Scratch of proseTokensByKernel: the kernel's entries (grown on demand, let go past PROSE_ENTRIES_KEEP). */
const PROSE_ENTRIES_KEEP = PROSE_ENTRY * 4096;
let proseEntries = new Uint32Array(PROSE_ENTRIES_KEEP);

/**
 * proseTokens through a kernel: it finds the words and CJK runs and hashes the words of ASCII
 * letters and digits; a word with other letters is hashed here (JavaScript's lower case), a CJK
 * run cut here, stop words dropped here.
 */
function proseTokensByKernel(kernel: Required<Pick<CodeKernel, 'proseTokens'>>, text: string, stop: boolean, segmenter: CjkSegmenter | undefined, buf: TokenBuffer): number {
  let n = kernel.proseTokens(text, proseEntries);
  if (n < 0) {
    proseEntries = new Uint32Array(-n * PROSE_ENTRY);
    n = kernel.proseTokens(text, proseEntries);
  }
  const e = proseEntries;
  let runs = 0;
  for (let w = 0; w < n * PROSE_ENTRY; w += PROSE_ENTRY) {
    const kind = e[w];
    const start = e[w + 1];
    let hi: number;
    let lo: number;
    if (kind === PROSE_CJK_RUN) {
      pushCjkRun(text.slice(start, e[w + 2]), start, segmenter, stop, buf);
      runs++;
      continue;
    }
    if (kind === PROSE_OTHER_WORD) {
      fnv1a64(text.slice(start, e[w + 2]).toLowerCase().replace(/\u2019/g, "'"));
      hi = out.hi;
      lo = out.lo;
    } else {
      hi = e[w + 3];
      lo = e[w + 4];
    }
    if (stop && STOP_WORDS.has(hi, lo)) continue;
    buf.push(hi, lo, start);
  }
  if (proseEntries.length > PROSE_ENTRIES_KEEP) proseEntries = new Uint32Array(PROSE_ENTRIES_KEEP); // a long text's entries are not kept
  return runs;
}

/**
 * tokenizeProse's loop over text[0, n), in a function of its own that reads nothing before it:
 * when V8 first optimises it in the middle of a long text (its type feedback allocated there),
 * the options' reads and the length are not left without feedback (a deoptimisation and a
 * recompile on the next text).
 */
function proseTokens(text: string, n: number, stop: boolean, segmenter: CjkSegmenter | undefined, buf: TokenBuffer): number {
  let runs = 0;
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
      runs++;
      continue;
    } else if (!isUnicodeWordChar(c)) {
      i++;
      continue;
    }
    // A word: ASCII letters are lower-cased on the fly; other letters through toLowerCase.
    const start = i;
    let hi = FNV64_OFFSET_HI | 0;
    let lo = FNV64_OFFSET_LO | 0;
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
      const x = lo ^ d;
      hi = fnvHi(hi, x);
      lo = Math.imul(x, FNV64_PRIME_LO);
      i++;
    }
    if (!ascii) {
      fnv1a64(text.slice(start, i).toLowerCase().replace(/\u2019/g, "'"));
      hi = out.hi;
      lo = out.lo;
    }
    if (stop && STOP_WORDS.has(hi >>> 0, lo >>> 0)) continue;
    buf.push(hi, lo, start);
  }
  return runs;
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
