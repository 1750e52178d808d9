/**
 * Clone hashes: two 64-bit hashes of an item's token stream, as read and with identifiers and
 * literals normalised (CloneHashes of core/types.ts), and the clone kind of a pair from them.
 * native/fingerprint.c (itemHashes) computes the same values: the kernels stay bit-identical.
 */
import { HeadWord, type CloneHashes, type CloneKind, type HeadPlace } from '../types';
import { fmix32 } from '../text/hash';

/** Seeds of the four chains of a stream, its multiplier, and the multipliers that fold them (the same in native/fingerprint.c). */
const SEED0 = 0x811c9dc5;
const SEED1 = 0x9747b28c;
const SEED2 = 0x2545f491;
const SEED3 = 0x6c8e9cf5;
const MUL = 0x85ebca6b;
const FOLD_A = 0x9e3779b1;
const FOLD_B = 0xc2b2ae35;

/**
 * The clone hashes of tokens [from, to) from their low halves `lo` and their other form's `alt`
 * (TokenBuffer.alt): with `altIsRaw` (the tokens were normalised as they were read) `alt` is the
 * raw stream, else `lo` is. Prose's alt is its lo, so its two hashes are equal.
 *
 * Each stream is folded by four chains, token i of the range into chain i mod 4 (multiply, then
 * xor-shift: every bit of a word reaches the later bits of its chain), and the chains are folded
 * into 64 bits at the end. Four independent chains rather than one: the pass runs at the
 * processor's throughput instead of waiting on one multiply after another (it runs over every
 * token of the file and of each section, beside the fingerprinting).
 */
export function cloneHashes(lo: Uint32Array, alt: Uint32Array, from: number, to: number, altIsRaw: boolean): CloneHashes {
  hashStreams(lo, alt, from, to, altIsRaw);
  return { rawHi: hashes.rawHi, rawLo: hashes.rawLo, normHi: hashes.normHi, normLo: hashes.normLo };
}

/** Scratch output of {@link hashStreams} (read right after the call: no allocation per item). */
export const hashes: CloneHashes = { rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 };

/** {@link cloneHashes} into {@link hashes}. */
export function hashStreams(lo: Uint32Array, alt: Uint32Array, from: number, to: number, altIsRaw: boolean): void {
  let a0 = SEED0;
  let a1 = SEED1;
  let a2 = SEED2;
  let a3 = SEED3;
  let b0 = SEED0;
  let b1 = SEED1;
  let b2 = SEED2;
  let b3 = SEED3;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    a0 = Math.imul(a0 ^ lo[i], MUL);
    a1 = Math.imul(a1 ^ lo[i + 1], MUL);
    a2 = Math.imul(a2 ^ lo[i + 2], MUL);
    a3 = Math.imul(a3 ^ lo[i + 3], MUL);
    b0 = Math.imul(b0 ^ alt[i], MUL);
    b1 = Math.imul(b1 ^ alt[i + 1], MUL);
    b2 = Math.imul(b2 ^ alt[i + 2], MUL);
    b3 = Math.imul(b3 ^ alt[i + 3], MUL);
    a0 ^= a0 >>> 15;
    a1 ^= a1 >>> 15;
    a2 ^= a2 >>> 15;
    a3 ^= a3 >>> 15;
    b0 ^= b0 >>> 15;
    b1 ^= b1 >>> 15;
    b2 ^= b2 >>> 15;
    b3 ^= b3 >>> 15;
  }
  // The last (to - i) < 4 tokens, into chains 0, 1, 2 in order. The three comparisons run on every
  // call (not nested under each other): an optimised body compiled before a call with 3 tokens
  // left never meets a comparison it has no type feedback for (that cost ~300 deopts a scan).
  const left = to - i;
  const has1 = left > 0;
  const has2 = left > 1;
  const has3 = left > 2;
  if (has1) {
    a0 = Math.imul(a0 ^ lo[i], MUL);
    a0 ^= a0 >>> 15;
    b0 = Math.imul(b0 ^ alt[i], MUL);
    b0 ^= b0 >>> 15;
  }
  if (has2) {
    a1 = Math.imul(a1 ^ lo[i + 1], MUL);
    a1 ^= a1 >>> 15;
    b1 = Math.imul(b1 ^ alt[i + 1], MUL);
    b1 ^= b1 >>> 15;
  }
  if (has3) {
    a2 = Math.imul(a2 ^ lo[i + 2], MUL);
    a2 ^= a2 >>> 15;
    b2 = Math.imul(b2 ^ alt[i + 2], MUL);
    b2 ^= b2 >>> 15;
  }
  const n = to - from;
  const aHi = fmix32((a0 ^ Math.imul(a2, FOLD_A) ^ n) >>> 0);
  const aLo = fmix32((a1 ^ Math.imul(a3, FOLD_B) ^ aHi) >>> 0);
  const bHi = fmix32((b0 ^ Math.imul(b2, FOLD_A) ^ n) >>> 0);
  const bLo = fmix32((b1 ^ Math.imul(b3, FOLD_B) ^ bHi) >>> 0);
  hashes.rawHi = altIsRaw ? bHi : aHi;
  hashes.rawLo = altIsRaw ? bLo : aLo;
  hashes.normHi = altIsRaw ? aHi : bHi;
  hashes.normLo = altIsRaw ? aLo : bLo;
}

/**
 * The clone kind of two items: `exact` when their tokens are the same (equal raw hashes and
 * token counts), `renamed` when they are the same once identifiers and literals are normalised,
 * else `edited`. Prose never is `renamed` (its two hashes are one).
 */
export function cloneKind(x: CloneHashes & { tokens: number }, y: CloneHashes & { tokens: number }): CloneKind {
  // (two items of native batches: their words read here, not through ten getter calls; the
  // report's loops run once, interpreted, over tens of thousands of pairs)
  const xp = x as typeof x & Partial<HeadPlace>;
  const yp = y as typeof y & Partial<HeadPlace>;
  const xw = xp.sketchWords;
  const yw = yp.sketchWords;
  if (xw !== undefined && yw !== undefined) {
    const i = xp.headAt!;
    const j = yp.headAt!;
    if (xw[i + HeadWord.tokens] !== yw[j + HeadWord.tokens]) return 'edited';
    if (xw[i + HeadWord.rawHi] === yw[j + HeadWord.rawHi] && xw[i + HeadWord.rawLo] === yw[j + HeadWord.rawLo]) return 'exact';
    if (xw[i + HeadWord.normHi] === yw[j + HeadWord.normHi] && xw[i + HeadWord.normLo] === yw[j + HeadWord.normLo]) return 'renamed';
    return 'edited';
  }
  if (x.tokens !== y.tokens) return 'edited';
  if (x.rawHi === y.rawHi && x.rawLo === y.rawLo) return 'exact';
  if (x.normHi === y.normHi && x.normLo === y.normLo) return 'renamed';
  return 'edited';
}
