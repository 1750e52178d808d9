/**
 * Tokenisers: source code here (tokenizeCode: its character classes, keywords, placeholders and
 * scanners), prose in tokens/proseTokens.ts (tokenizeProse, with CJK runs segmented by an
 * injected segmenter); this module re-exports it, the TokenBuffer both fill (tokens/tokenBuffer.ts)
 * and the word characters beyond ASCII (tokens/wordChars.ts: isCjk, unicodeWordTable).
 *
 * Tokens are never materialised as strings in the hot path: each token's 64-bit FNV-1a hash is
 * computed while its characters are scanned, and stored with its start offset in a TokenBuffer.
 */
import { FNV64_OFFSET_HI, FNV64_OFFSET_LO, FNV64_PRIME_LO, fnv1a64, fnv1a64Step, fnvHi, out } from './hash';
import { commentFirstChars, REGEX_KEYWORDS, regexLiteralEnd, regexMayFollowPunct, skipComment } from './comments';
import type { LanguageInfo } from './languages';
import { HashSet64 } from './tokens/hashSet64';
import type { TokenBuffer } from './tokens/tokenBuffer';
import { isUnicodeWordChar } from './tokens/wordChars';

export { TokenBuffer } from './tokens/tokenBuffer';
export { isCjk, unicodeWordTable, unicodeWordTableOf } from './tokens/wordChars';
export { bigrams, tokenizeProse, type ProseTokenizeOptions } from './tokens/proseTokens';

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

