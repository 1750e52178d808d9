/**
 * 64-bit hashing with two unsigned 32-bit halves: FNV-1a for tokens, then a murmur3-style
 * finaliser so that every output bit is unbiased. No BigInt: 32-bit integer arithmetic only.
 */

/** FNV-1a 64-bit offset basis, high and low halves. */
export const FNV64_OFFSET_HI = 0xcbf29ce4;
export const FNV64_OFFSET_LO = 0x84222325;
/** FNV-1a 64-bit prime is 2^40 + 0x1b3. */
export const FNV64_PRIME_LO = 0x1b3;

/**
 * Scratch output of the 64-bit helpers; callers read `out.hi` / `out.lo` right after a call.
 * Returning through a shared object avoids an allocation per token in the hot path.
 */
export const out = { hi: 0, lo: 0 };

/**
 * High half of one FNV-1a step, h = (h ^ c) * prime (mod 2^64), prime = 2^40 + 435: given the
 * old high half `hi` and x = lo ^ c (the low half after the xor), returns the new high half; the
 * new low half is Math.imul(x, 435). The high half gains hi * 435, x * 2^40 (x << 8, mod 2^32)
 * and the carry out of the low half, floor(x * 435 / 2^32). That carry is computed from x's
 * 16-bit halves in integer arithmetic (every term below 2^26): x * 435 =
 * 2^16 * (xh * 435 + (xl * 435 >>> 16)) + (xl * 435 & 0xffff), and the last term cannot carry.
 * Integer-only, so V8 keeps the whole step in int32 registers (no float multiply and floor).
 * The result is a signed int32 with the same 32 bits; `>>> 0` gives the unsigned half.
 */
export function fnvHi(hi: number, x: number): number {
  const carry = (Math.imul(x >>> 16, FNV64_PRIME_LO) + (Math.imul(x & 0xffff, FNV64_PRIME_LO) >>> 16)) >>> 16;
  return (Math.imul(hi, FNV64_PRIME_LO) + (x << 8) + carry) | 0;
}

/** One FNV-1a step: h = (h ^ c) * prime (mod 2^64); the new halves in `out` (unsigned). */
export function fnv1a64Step(hi: number, lo: number, c: number): void {
  const x = lo ^ c;
  out.hi = fnvHi(hi, x) >>> 0;
  out.lo = Math.imul(x, FNV64_PRIME_LO) >>> 0;
}

/** FNV-1a 64 of a string's UTF-16 code units, without the finaliser. */
export function fnv1a64(s: string): void {
  let hi = FNV64_OFFSET_HI | 0;
  let lo = FNV64_OFFSET_LO | 0;
  for (let i = 0; i < s.length; i++) {
    const x = lo ^ s.charCodeAt(i);
    hi = fnvHi(hi, x);
    lo = Math.imul(x, FNV64_PRIME_LO);
  }
  out.hi = hi >>> 0;
  out.lo = lo >>> 0;
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
