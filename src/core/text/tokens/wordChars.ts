/**
 * Which UTF-16 code units beyond ASCII belong to words (isUnicodeWordChar, its answers kept per
 * unit; unicodeWordTable, the same for every unit, for the kernels; unicodeWordTableOf, from the
 * stored runs when the engine's Unicode version is theirs) and which are CJK (isCjk).
 */
import { WORD_CHAR_RUNS, WORD_CHAR_RUNS_UNICODE, tableOfRuns } from './wordRuns';

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/**
 * Answers of isUnicodeWordChar per UTF-16 code unit, filled on first use (0 = not asked yet,
 * 1 = word, 2 = not): the Unicode property test is a regular expression, too slow to run on every
 * character of non-English text.
 */
const unicodeWord = new Uint8Array(65536);

/** A non-ASCII code unit that belongs to a word (letters, marks, digits; surrogates too). */
export function isUnicodeWordChar(c: number): boolean {
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
 * character), then classifyUnicode's exceptions, once per thread (12–13 ms cold on the
 * development machine, where a test per unit took more: so unicodeWordTableOf reads stored runs
 * where it can; the identity with isUnicodeWordChar is tested unit by unit).
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
  answersOf(t);
  return t;
}

/** This thread's isUnicodeWordChar answers, all known now from `t` (as a test per unit would leave them). */
function answersOf(t: Uint8Array): void {
  for (let c = 0x80; c < 65536; c++) unicodeWord[c] = 2 - t[c];
}

/**
 * {@link unicodeWordTable}, from the stored runs (wordRuns.ts) when `unicodeVersion` — the
 * engine's, as the caller knows it (Node: process.versions.unicode) — is the one they were made
 * with; else made here. The same table either way (a test compares them).
 */
export function unicodeWordTableOf(unicodeVersion: string | undefined): Uint8Array {
  if (unicodeVersion === undefined || unicodeVersion !== WORD_CHAR_RUNS_UNICODE) return unicodeWordTable();
  const t = tableOfRuns(WORD_CHAR_RUNS);
  answersOf(t);
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
