/**
 * 64-bit hashing with two unsigned 32-bit halves: FNV-1a for tokens, then a murmur3-style
 * finaliser so that every output bit is unbiased. No BigInt: Math.imul and float arithmetic that
 * stays below 2^53.
 */

/** FNV-1a 64-bit offset basis, high and low halves. */
export const FNV64_OFFSET_HI = 0xcbf29ce4;
export const FNV64_OFFSET_LO = 0x84222325;
/** FNV-1a 64-bit prime is 2^40 + 0x1b3. */
const FNV64_PRIME_LO = 0x1b3;
const TWO_32 = 4294967296;

/**
 * Scratch output of the 64-bit helpers; callers read `out.hi` / `out.lo` right after a call.
 * Returning through a shared object avoids an allocation per token in the hot path.
 */
export const out = { hi: 0, lo: 0 };

/**
 * One FNV-1a step: h = (h ^ c) * prime (mod 2^64), with the prime 2^40 + 435.
 * lo * 435 < 2^41 is exact in a double; lo << 8 is the 2^40 term's contribution to the high half.
 */
export function fnv1a64Step(hi: number, lo: number, c: number): void {
  lo = (lo ^ c) >>> 0;
  const p = lo * FNV64_PRIME_LO;
  out.lo = p >>> 0;
  out.hi = (Math.imul(hi, FNV64_PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
}

/** FNV-1a 64 of a string's UTF-16 code units, without the finaliser. */
export function fnv1a64(s: string): void {
  let hi = FNV64_OFFSET_HI;
  let lo = FNV64_OFFSET_LO;
  for (let i = 0; i < s.length; i++) {
    lo = (lo ^ s.charCodeAt(i)) >>> 0;
    const p = lo * FNV64_PRIME_LO;
    hi = (Math.imul(hi, FNV64_PRIME_LO) + (lo << 8) + Math.floor(p / TWO_32)) >>> 0;
    lo = p >>> 0;
  }
  out.hi = hi;
  out.lo = lo;
}

/** murmur3's 32-bit finaliser. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Mixes a 64-bit value (two halves) so that each output bit depends on every input bit:
 * fmix32 on each half with the other half folded in, in both directions.
 */
export function mix64(hi: number, lo: number): void {
  const a = fmix32((lo ^ Math.imul(hi, 0x9e3779b1) ^ (hi >>> 15)) >>> 0);
  const b = fmix32((hi ^ Math.imul(a, 0x27d4eb2f) ^ 0x165667b1) >>> 0);
  out.lo = fmix32((a ^ Math.imul(b, 0x85ebca77)) >>> 0);
  out.hi = b;
}

/** FNV-1a 64 of a string, finalised with mix64. The feature hash of a single token. */
export function hashString64(s: string): void {
  fnv1a64(s);
  mix64(out.hi, out.lo);
}
