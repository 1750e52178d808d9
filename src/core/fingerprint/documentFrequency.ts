/**
 * Document frequencies of shingles for TF-IDF weighting: a hashed table of counters (one per
 * bucket of the shingle hash's low bits) over a corpus. Collisions only add to a count, so the
 * IDF of a rare shingle may be slightly underestimated, never overestimated. The table's buffer
 * may be a SharedArrayBuffer so that worker threads count into one table (with Atomics).
 */
export const DF_TABLE_BITS = 20;

export class DocumentFrequencyTable {
  readonly counts: Uint32Array;
  private readonly mask: number;

  /** `buffer` of 4 × 2^bits bytes, shared or not; `documents` counted so far. */
  constructor(
    readonly buffer: ArrayBufferLike = new ArrayBuffer(4 << DF_TABLE_BITS),
    public documents = 0,
  ) {
    this.counts = new Uint32Array(buffer);
    if (this.counts.length === 0 || (this.counts.length & (this.counts.length - 1)) !== 0) {
      throw new RangeError('document frequency table size must be a power of two');
    }
    this.mask = this.counts.length - 1;
  }

  /** Counts one occurrence of a shingle in a document (atomic, so threads may share the table). */
  add(lo: number): void {
    Atomics.add(this.counts, lo & this.mask, 1);
  }

  frequency(lo: number): number {
    return this.counts[lo & this.mask];
  }

  /** Smoothed inverse document frequency: ln((1 + N) / (1 + df)) + 1, always ≥ 1 for df ≤ N. */
  idf = (_hi: number, lo: number): number => Math.log((1 + this.documents) / (1 + this.frequency(lo))) + 1;
}
