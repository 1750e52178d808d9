/**
 * Hamming distance of 64-bit fingerprints kept as two unsigned 32-bit halves (hi, lo).
 * Pure: no BigInt, no Node or VS Code APIs.
 */

/**
 * Number of set bits in the low 32 bits of `x` (branch-free SWAR popcount). Works for any
 * integer input (signed or unsigned 32-bit): only its low 32 bits count.
 */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance (0..64) of the fingerprints (aHi, aLo) and (bHi, bLo). */
export function hammingDistance(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return popcount32(aHi ^ bHi) + popcount32(aLo ^ bLo);
}

/** Similarity of two 64-bit fingerprints at Hamming distance `distance`: 1 − distance/64. */
export function similarity(distance: number): number {
  return 1 - distance / 64;
}
