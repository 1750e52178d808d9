/**
 * The output of an all-pairs search: pairs (a < b) with their distances in growing typed arrays,
 * filtered by `accept` as they come, stopping the search (PAIR_LIMIT_REACHED) at `maxPairs`.
 */
/** Pairs of item numbers (a < b) with their distances, in parallel typed arrays. */
export interface PairList {
  readonly length: number;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly distance: Uint8Array;
  /** True when the search stopped at `maxPairs`: the list holds some of the pairs, not all. */
  readonly truncated: boolean;
}

/** Thrown by a full PairSink to stop the search; caught by allPairsBatch. */
export const PAIR_LIMIT_REACHED = new Error('pair limit reached');

export class PairSink {
  length = 0;
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  truncated = false;
  private readonly limit: number;
  private readonly accept?: (a: number, b: number, distance: number) => boolean;

  constructor(limit = Infinity, accept?: (a: number, b: number, distance: number) => boolean) {
    this.limit = limit;
    this.accept = accept;
    const capacity = Math.min(64, limit);
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.distance = new Uint8Array(capacity);
  }

  push(x: number, y: number, d: number): void {
    if (this.accept && !this.accept(x < y ? x : y, x < y ? y : x, d)) return;
    if (this.length === this.a.length) this.grow();
    const i = this.length++;
    if (x < y) {
      this.a[i] = x;
      this.b[i] = y;
    } else {
      this.a[i] = y;
      this.b[i] = x;
    }
    this.distance[i] = d;
  }

  private grow(): void {
    // The limit is checked here only, so the hot path pays nothing for it.
    if (this.length >= this.limit) {
      this.truncated = true;
      throw PAIR_LIMIT_REACHED;
    }
    const n = Math.min(this.a.length * 2, Math.max(this.limit, this.length + 1));
    const a = new Uint32Array(n);
    a.set(this.a);
    this.a = a;
    const b = new Uint32Array(n);
    b.set(this.b);
    this.b = b;
    const d = new Uint8Array(n);
    d.set(this.distance);
    this.distance = d;
  }

  result(): PairList {
    return {
      length: this.length,
      a: this.a.subarray(0, this.length),
      b: this.b.subarray(0, this.length),
      distance: this.distance.subarray(0, this.length),
      truncated: this.truncated,
    };
  }
}
