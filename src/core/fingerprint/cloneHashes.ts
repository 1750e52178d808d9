/**
 * Clone hashes: two 64-bit hashes of an item's token stream, as read and with identifiers and
 * literals normalised (CloneHashes of core/types.ts), and the clone kind of a pair from them.
 * native/fingerprint.c (itemHashes) computes the same values: the kernels stay bit-identical.
 */
import type { CloneHashes, CloneKind } from '../types';

/** Seeds and multipliers of the two 32-bit lanes of a stream hash (the same in native/fingerprint.c). */
const SEED_A = 0x811c9dc5;
const SEED_B = 0x9747b28c;
const MUL_A = 0x85ebca6b;
const MUL_B = 0xc2b2ae35;

/**
 * The clone hashes of tokens [from, to) from their low halves `lo` and their other form's `alt`
 * (TokenBuffer.alt): with `altIsRaw` (the tokens were normalised as they were read) `alt` is the
 * raw stream, else `lo` is. Each stream is folded word by word into two 32-bit lanes (multiply,
 * then xor-shift: every bit of a word reaches every later bit of its lane). Prose's alt is its lo,
 * so its two hashes are equal.
 */
export function cloneHashes(lo: Uint32Array, alt: Uint32Array, from: number, to: number, altIsRaw: boolean): CloneHashes {
  hashStreams(lo, alt, from, to, altIsRaw);
  return { rawHi: hashes.rawHi, rawLo: hashes.rawLo, normHi: hashes.normHi, normLo: hashes.normLo };
}

/** Scratch output of {@link hashStreams} (read right after the call: no allocation per item). */
export const hashes: CloneHashes = { rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 };

/** {@link cloneHashes} into {@link hashes}. */
export function hashStreams(lo: Uint32Array, alt: Uint32Array, from: number, to: number, altIsRaw: boolean): void {
  let a1 = SEED_A;
  let b1 = SEED_B;
  let a2 = SEED_A;
  let b2 = SEED_B;
  for (let i = from; i < to; i++) {
    const v = lo[i];
    const w = alt[i];
    a1 = Math.imul(a1 ^ v, MUL_A);
    a1 ^= a1 >>> 13;
    b1 = Math.imul(b1 ^ v, MUL_B);
    b1 ^= b1 >>> 16;
    a2 = Math.imul(a2 ^ w, MUL_A);
    a2 ^= a2 >>> 13;
    b2 = Math.imul(b2 ^ w, MUL_B);
    b2 ^= b2 >>> 16;
  }
  hashes.rawHi = (altIsRaw ? b2 : b1) >>> 0;
  hashes.rawLo = (altIsRaw ? a2 : a1) >>> 0;
  hashes.normHi = (altIsRaw ? b1 : b2) >>> 0;
  hashes.normLo = (altIsRaw ? a1 : a2) >>> 0;
}

/**
 * The clone kind of two items: `exact` when their tokens are the same (equal raw hashes and
 * token counts), `renamed` when they are the same once identifiers and literals are normalised,
 * else `edited`. Prose never is `renamed` (its two hashes are one).
 */
export function cloneKind(x: CloneHashes & { tokens: number }, y: CloneHashes & { tokens: number }): CloneKind {
  if (x.tokens !== y.tokens) return 'edited';
  if (x.rawHi === y.rawHi && x.rawLo === y.rawLo) return 'exact';
  if (x.normHi === y.normHi && x.normLo === y.normLo) return 'renamed';
  return 'edited';
}
