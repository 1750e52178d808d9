/**
 * The tokens of a text as the tokenisers leave them (TokenBuffer): each token's 64-bit hash, its
 * start offset and its other form's low half, in growable parallel arrays.
 */

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
