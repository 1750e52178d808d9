/**
 * jieba's dictionary file as bytes (lines `word freq tag`, sorted by the bytes of the word): a
 * check of that shape with the sum of the frequencies (one pass, or a checksum of a dictionary
 * already checked), a binary search for a word, and the words of a run with their lines: with a
 * filler line that carries the rest of the total, jieba cuts the run with them exactly as with
 * the whole dictionary.
 */
import { isUtf8 } from 'node:buffer';
import * as zlib from 'node:zlib';

/**
 * A checked dictionary: its bytes, the sum of its frequencies (jieba's `total`) and its longest
 * word. A line is named by the offset where it starts (with its word, which ends at a space).
 */
export interface JiebaDictionary {
  bytes: Uint8Array;
  total: number;
  /** The longest word, in bytes. */
  maxWordBytes: number;
}

/** What checkJiebaDictionary found in a dictionary file, kept for one whose CRC-32 and size match. */
export interface KnownDictionary {
  size: number;
  crc32: number;
  total: number;
  maxWordBytes: number;
}

/**
 * Dictionaries already checked: @node-rs/jieba 2.0.3's dict.txt (a unit test checks it against
 * the installed file, and fails when another version ships another dictionary: add its figures
 * here, from checkJiebaDictionary). Any other file is checked at load (≈ 25 ms).
 */
export const KNOWN_DICTIONARIES: readonly KnownDictionary[] = [{ size: 5_071_843, crc32: 3_720_414_789, total: 60_101_964, maxWordBytes: 48 }];

/**
 * The filler word of a subset dictionary: a private-use character, in no word of the dictionary
 * and in no CJK run (a run that holds it is cut with the whole dictionary instead).
 */
export const FILLER_WORD = '\uE000';

const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * The dictionary in `bytes`, if it has the shape the subsets rely on: a known one by its size and
 * CRC-32 (Node ≥ 20.15 has zlib.crc32; ≈ 1 ms), else checkJiebaDictionary's pass.
 */
export function readJiebaDictionary(bytes: Uint8Array): JiebaDictionary | undefined {
  const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  if (crc32) {
    const candidates = KNOWN_DICTIONARIES.filter((k) => k.size === bytes.length);
    const sum = candidates.length > 0 ? crc32(bytes) : -1;
    const known = candidates.find((k) => k.crc32 === sum);
    if (known) return { bytes, total: known.total, maxWordBytes: known.maxWordBytes };
  }
  return checkJiebaDictionary(bytes);
}

/**
 * Checks `bytes` and sums its frequencies in one pass. Undefined unless every line is
 * `word freq tag` (one ASCII space between, a decimal freq, a word with no white space), the words
 * strictly ascending by bytes (so unique: jieba's total is then the plain sum) and the text valid
 * UTF-8: a dictionary of another shape is only ever loaded whole.
 */
export function checkJiebaDictionary(bytes: Uint8Array): JiebaDictionary | undefined {
  if (!isUtf8(bytes)) return undefined;
  const n = bytes.length;
  let pos = 0;
  let total = 0;
  let maxWordBytes = 0;
  let prevStart = -1;
  let prevEnd = -1;
  while (pos < n) {
    const wordStart = pos;
    // Bytes past the end read as undefined: every comparison with them is false.
    let c = bytes[pos];
    while (c > SPACE) {
      if (c >= 0xc2 && c <= 0xe3 && isUnicodeSpaceAt(bytes, pos)) return undefined;
      c = bytes[++pos];
    }
    const wordEnd = pos;
    if (c !== SPACE || wordEnd === wordStart) return undefined;
    c = bytes[++pos];
    const freqStart = pos;
    let freq = 0;
    while (c >= 0x30 && c <= 0x39) {
      freq = freq * 10 + (c - 0x30);
      c = bytes[++pos];
    }
    if (pos === freqStart || pos - freqStart > 15) return undefined;
    if (c === SPACE) {
      const tagStart = ++pos;
      c = bytes[pos];
      while (c > SPACE) {
        if (c >= 0xc2 && c <= 0xe3 && isUnicodeSpaceAt(bytes, pos)) return undefined;
        c = bytes[++pos];
      }
      if (pos === tagStart) return undefined;
    }
    if (pos < n && c !== NEWLINE) return undefined;
    pos++;
    if (prevStart >= 0 && compareBytes(bytes, prevStart, prevEnd, bytes, wordStart, wordEnd) >= 0) return undefined;
    prevStart = wordStart;
    prevEnd = wordEnd;
    total += freq;
    if (wordEnd - wordStart > maxWordBytes) maxWordBytes = wordEnd - wordStart;
  }
  if (!Number.isSafeInteger(total) || total === 0) return undefined;
  return { bytes, total, maxWordBytes };
}

/**
 * Unicode white space beyond ASCII at `i` (U+0085, U+00A0, U+1680, U+2000–200A, U+2028/9, U+202F,
 * U+205F, U+3000): jieba splits a line on any of them.
 */
function isUnicodeSpaceAt(b: Uint8Array, i: number): boolean {
  const c = b[i];
  if (c < 0xc2 || c > 0xe3) return false;
  const d = b[i + 1];
  if (c === 0xc2) return d === 0x85 || d === 0xa0;
  if (c === 0xe1) return d === 0x9a && b[i + 2] === 0x80;
  if (c === 0xe2) {
    const e = b[i + 2];
    return (d === 0x80 && (e <= 0x8a || e === 0xa8 || e === 0xa9 || e === 0xaf)) || (d === 0x81 && e === 0x9f);
  }
  return c === 0xe3 && d === 0x80 && b[i + 2] === 0x80;
}

/** Byte order of a[aStart, aEnd) and b[bStart, bEnd): negative, 0 or positive. */
function compareBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const la = aEnd - aStart;
  const lb = bEnd - bStart;
  const m = la < lb ? la : lb;
  for (let i = 0; i < m; i++) {
    const d = a[aStart + i] - b[bStart + i];
    if (d !== 0) return d;
  }
  return la - lb;
}

/**
 * Binary search for the word `w[wStart, wEnd)` (UTF-8) among the lines from offset `from` on (a
 * line start): its line (-1 if none), and whether some word of the dictionary starts with it and
 * is longer (when not, no longer substring from the same start can be a word). Packed in one
 * number: `(line + 1) * 2 + (longer ? 1 : 0)` (wordLine and extendsWord read it); `from` may be
 * the line found for a prefix of w.
 */
export function searchWord(dict: JiebaDictionary, w: Uint8Array, wStart: number, wEnd: number, from = 0): number {
  const bytes = dict.bytes;
  const n = bytes.length;
  // lo and hi are line starts (or n); find the first line whose word is >= w.
  let lo = from;
  let hi = n;
  while (lo < hi) {
    let mid = (lo + hi) >>> 1;
    while (mid > lo && bytes[mid - 1] !== NEWLINE) mid--;
    if (compareWord(bytes, mid, w, wStart, wEnd) < 0) lo = lineEnd(bytes, mid);
    else hi = mid;
  }
  let line = -1;
  let next = lo;
  if (next < n && compareWord(bytes, next, w, wStart, wEnd) === 0) {
    line = next;
    next = lineEnd(bytes, next);
  }
  // The next line's word is longer and starts with w: w is a proper prefix of it.
  const longer = next < n && compareWord(bytes, next, w, wStart, wEnd) === PREFIX_OF_WORD;
  return (line + 1) * 2 + (longer ? 1 : 0);
}

/** compareWord's answer when w is a proper prefix of the line's word. */
const PREFIX_OF_WORD = 2;

/**
 * Byte order of the word of the line at `start` (ended by its space, which sorts before every byte
 * of a word) against w[wStart, wEnd): negative, 0, or positive (PREFIX_OF_WORD when w is a proper
 * prefix of the line's word).
 */
function compareWord(bytes: Uint8Array, start: number, w: Uint8Array, wStart: number, wEnd: number): number {
  const len = wEnd - wStart;
  for (let i = 0; i < len; i++) {
    const c = bytes[start + i];
    const d = w[wStart + i];
    // The line's word ended (at its space) before w did: it is a prefix of w.
    if (c === SPACE) return -1;
    if (c !== d) return c < d ? -1 : 1;
  }
  return bytes[start + len] === SPACE ? 0 : PREFIX_OF_WORD;
}

/** End of the line starting at `start`, past its newline (or the end of the bytes). */
function lineEnd(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length && bytes[i] !== NEWLINE) i++;
  return i < bytes.length ? i + 1 : i;
}

/** The line of a searchWord result, -1 if the word is not in the dictionary. */
export function wordLine(found: number): number {
  return Math.floor(found / 2) - 1;
}

/** Whether a searchWord result says that longer words start with the word. */
export function extendsWord(found: number): boolean {
  return found % 2 === 1;
}

/** Frequency of the line at `line`. */
function freqOf(dict: JiebaDictionary, line: number): number {
  const bytes = dict.bytes;
  let i = line;
  while (bytes[i] !== SPACE) i++;
  let f = 0;
  for (let c = bytes[++i]; c >= 0x30 && c <= 0x39; c = bytes[++i]) f = f * 10 + (c - 0x30);
  return f;
}

/**
 * The lines of the dictionary words that are substrings of `run` (from a code point to a code
 * point, up to the longest word), each once: with the same total, these are all the words jieba
 * can meet when it cuts the run, so a jieba holding them (and any other words) cuts it as the whole
 * dictionary does.
 */
export function wordsOfRun(dict: JiebaDictionary, run: string): Set<number> {
  const utf8 = utf8Of(run);
  const n = utf8Length;
  const found = new Set<number>();
  for (let s = 0; s < n; s++) {
    if ((utf8[s] & 0xc0) === 0x80) continue;
    const last = Math.min(n, s + dict.maxWordBytes);
    let from = 0;
    for (let e = s + 1; e <= last; e++) {
      if (e < n && (utf8[e] & 0xc0) === 0x80) continue;
      const hit = searchWord(dict, utf8, s, e, from);
      const line = wordLine(hit);
      if (line >= 0) found.add(line);
      if (!extendsWord(hit)) break;
      // Longer words from s sort after this one.
      if (line >= 0) from = line;
    }
  }
  return found;
}

/** utf8Of's encoder and buffer (reused), and the length of its last answer. */
const utf8Encoder = new TextEncoder();
let utf8Scratch = new Uint8Array(256);
let utf8Length = 0;

/**
 * UTF-8 of `text` in a reused buffer (valid until the next call; its length in utf8Length), as
 * Buffer.from would write it (a lone surrogate as U+FFFD).
 */
function utf8Of(text: string): Uint8Array {
  if (utf8Scratch.length < text.length * 3) utf8Scratch = new Uint8Array(text.length * 3);
  utf8Length = utf8Encoder.encodeInto(text, utf8Scratch).written;
  return utf8Scratch;
}

/** Sum of the frequencies of `lines`. */
export function freqSum(dict: JiebaDictionary, lines: Iterable<number>): number {
  let sum = 0;
  for (const line of lines) sum += freqOf(dict, line);
  return sum;
}

/** Dictionary text of `lines` (as in the dictionary) and, last, the filler word with frequency `fillerFreq`. */
export function dictionaryText(dict: JiebaDictionary, lines: Iterable<number>, fillerFreq: number): Uint8Array {
  const bytes = dict.bytes;
  const filler = Buffer.from(`${FILLER_WORD} ${fillerFreq} x\n`, 'utf8');
  let size = filler.length;
  for (const line of lines) size += lineEnd(bytes, line) - line + 1;
  const out = new Uint8Array(size);
  let at = 0;
  for (const line of lines) {
    const end = lineEnd(bytes, line);
    for (let i = line; i < end; i++) out[at++] = bytes[i];
    // The dictionary's last line may have no newline.
    if (bytes[end - 1] !== NEWLINE) out[at++] = NEWLINE;
  }
  out.set(filler, at);
  return out.subarray(0, at + filler.length);
}
