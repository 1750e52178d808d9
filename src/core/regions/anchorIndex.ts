/**
 * The inverted index of anchors: every (hash, document, position) in three growable Uint32Arrays
 * (12 bytes an anchor), sorted by hash with a two-pass radix sort (8 bytes an anchor of scratch
 * while sorting), then read run by run. A hash with more than `maxPostings` postings is
 * boilerplate (licence lines, imports, `}); });`) and is dropped. The seeds it gives are position
 * pairs of two documents sharing an anchor, bucketed per pair of documents.
 */
import type { CodeKernel } from '../types';

/** Position pairs (a, b) shared by one pair of documents: `a` in docA, `b` in docB (a < b when docA = docB). */
export interface SeedBucket {
  docA: number;
  docB: number;
  /** Flat pairs: a0, b0, a1, b1, …, sorted by a, then b. */
  pairs: ArrayLike<number>;
}

/**
 * The seeds of an index: flat (a, b per seed, sorted by docA, docB, a, b; docA docB end per pair
 * of documents, end the cumulative seed count) and, made on first use, as one SeedBucket per pair
 * of documents (views into `pairs`): a kernel's bucket search takes the flat arrays (the small
 * bench tree has ~150,000 buckets).
 */
export interface Seeds {
  pairs: Int32Array;
  cuts: Uint32Array;
  readonly buckets: SeedBucket[];
  dropped: number;
  seeds: number;
  /** Made by a kernel's seeds: the hashes of the index in many documents, counted. */
  frequent?: FrequentHashes;
}

/**
 * How many documents of an index hold each hash held by more than `over` of them (the smallest
 * postings cap; `counts` by hash); every other hash of the index is in at most `over`.
 */
export interface FrequentHashes {
  over: number;
  counts: Map<number, number>;
}

/** Seeds of the flat arrays, their buckets made when first read. */
export function seedsOf(pairs: Int32Array, cuts: Uint32Array, dropped: number, frequent?: FrequentHashes): Seeds {
  let buckets: SeedBucket[] | undefined;
  return {
    pairs,
    cuts,
    get buckets() {
      return (buckets ??= bucketsOf(pairs, cuts));
    },
    dropped,
    seeds: pairs.length / 2,
    ...(frequent ? { frequent } : {}),
  };
}

/** Further limits of the seeds: see RegionOptions.maxDocs and rescuePostings. */
export interface SeedLimits {
  /** Hashes found in more distinct documents than this are dropped too. Default: no limit. */
  maxDocs?: number;
  /** Dropped hashes with at most this many postings still seed pairs that other anchors seeded. Default 0 (none). */
  rescuePostings?: number;
  /** The postings cap of a hash by the document of its first posting (instead of maxPostings). */
  capOf?: (doc: number) => number;
  /** A native kernel: the seeds are made by it (the same buckets), unless hashes are rescued. */
  kernel?: Pick<CodeKernel, 'anchorSeeds'>;
}

export class AnchorIndex {
  private hash = new Uint32Array(1024);
  private doc = new Uint32Array(1024);
  private pos = new Uint32Array(1024);
  private n = 0;
  /** One past the highest document with an anchor. */
  private docs = 0;
  private sorted = false;

  get size(): number {
    return this.n;
  }

  /** `bytes` of an index given a reserve of `anchors` (and nothing added past it): its first capacity or the reserve. */
  static bytesAfterReserve(anchors: number): number {
    return 12 * Math.max(anchors, 1024);
  }

  /** Bytes held by the index's arrays (capacity, not only the entries used). */
  get bytes(): number {
    return this.hash.byteLength + this.doc.byteLength + this.pos.byteLength;
  }

  /** Makes room for `n` anchors in all (no copy as the index grows). */
  reserve(n: number): void {
    if (n > this.hash.length) this.grow(n);
  }

  add(doc: number, hashes: Uint32Array, positions: Int32Array): void {
    const m = hashes.length;
    if (this.n + m > this.hash.length) this.grow(this.n + m);
    // Bulk copies (positions are never negative: the same values as Uint32).
    this.hash.set(hashes, this.n);
    this.doc.fill(doc, this.n, this.n + m);
    this.pos.set(positions.length === m ? positions : positions.subarray(0, m), this.n);
    this.n += m;
    if (m > 0 && doc >= this.docs) this.docs = doc + 1;
    this.sorted = false;
  }

  private grow(min: number): void {
    let cap = this.hash.length * 2;
    while (cap < min) cap *= 2;
    if (this.n === 0) cap = Math.max(min, this.hash.length); // a reserve: the size asked
    const widen = (a: Uint32Array): Uint32Array<ArrayBuffer> => {
      const b = new Uint32Array(cap);
      b.set(a.subarray(0, this.n));
      return b;
    };
    this.hash = widen(this.hash);
    this.doc = widen(this.doc);
    this.pos = widen(this.pos);
  }

  /** {@link seeds} by the kernel (no rescue): the same buckets in the same order. */
  private nativeSeeds(maxPostings: number, limits: SeedLimits, kernel: Pick<CodeKernel, 'anchorSeeds'>): Seeds {
    const docs = this.docs;
    const caps = new Uint32Array(docs);
    fillCaps(caps, maxPostings, limits.capOf);
    const r = kernel.anchorSeeds(this.hash, this.doc, this.pos, this.n, caps, limits.maxDocs ?? Infinity);
    return seedsOf(r.pairs, r.buckets, r.dropped, r.frequent && docs > 0 ? frequentHashes(r.frequent, r.frequentOver) : undefined);
  }

  /** Sorts the entries by hash (stable: documents and positions stay in insertion order). */
  private sort(): void {
    if (this.sorted) return;
    const n = this.n;
    let order = new Uint32Array(n);
    let next = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const bits = digitBits(n);
    const mask = (1 << bits) - 1;
    const count = new Uint32Array(mask + 2);
    for (let shift = 0; shift < 32; shift += bits) {
      count.fill(0);
      for (let i = 0; i < n; i++) count[((this.hash[order[i]] >>> shift) & mask) + 1]++;
      for (let d = 0; d <= mask; d++) count[d + 1] += count[d];
      for (let i = 0; i < n; i++) next[count[(this.hash[order[i]] >>> shift) & mask]++] = order[i];
      [order, next] = [next, order];
    }
    const hash = new Uint32Array(n);
    const doc = new Uint32Array(n);
    const pos = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const j = order[i];
      hash[i] = this.hash[j];
      doc[i] = this.doc[j];
      pos[i] = this.pos[j];
    }
    this.hash = hash;
    this.doc = doc;
    this.pos = pos;
    this.sorted = true;
  }

  /**
   * Seeds per pair of documents: for every hash with 2 … maxPostings postings, every two of its
   * postings (never a posting with itself). Returns the buckets (by docA, then docB; each one's
   * pairs sorted by a, then b) and how many hashes were dropped. The seeds are written into flat
   * arrays and radix-sorted by (docA, docB, a, b) — no map lookup per seed.
   */
  seeds(maxPostings: number, limits: SeedLimits = {}): Seeds {
    if (limits.kernel && !(limits.rescuePostings! > 0)) return this.nativeSeeds(maxPostings, limits, limits.kernel);
    this.sort();
    let dropped = 0;
    const { hash, doc, pos } = this;
    const maxDocs = limits.maxDocs ?? Infinity;
    const rescue = limits.rescuePostings ?? 0;
    const over: number[] = [];
    const distinctDocs = (s: number, e: number): number => {
      let k = 0;
      const seen = new Set<number>();
      for (let i = s; i < e; i++) if (!seen.has(doc[i])) (seen.add(doc[i]), k++);
      return k;
    };
    const out = new SeedArrays();
    /**
     * Every two postings of [s, e) as a seed of their pair of documents (ordered so that docA ≤ docB
     * and, within one document, the earlier position first). With `only`, just the pairs it holds.
     */
    const seedRange = (s: number, e: number, only?: Set<number>): void => {
      for (let i = s; i < e; i++) {
        for (let j = i + 1; j < e; j++) {
          let da = doc[i];
          let pa = pos[i];
          let db = doc[j];
          let pb = pos[j];
          if (da === db && pa === pb) continue;
          if (da > db || (da === db && pa > pb)) {
            [da, db] = [db, da];
            [pa, pb] = [pb, pa];
          }
          if (only && !only.has(da * 0x4000000 + db)) continue;
          out.push(da, db, pa, pb);
        }
      }
    };
    for (let s = 0; s < this.n; ) {
      let e = s + 1;
      while (e < this.n && hash[e] === hash[s]) e++;
      const cap = limits.capOf ? limits.capOf(doc[s]) : maxPostings;
      if (e - s > cap || (maxDocs < e - s && distinctDocs(s, e) > maxDocs)) {
        dropped++;
        if (e - s <= rescue) over.push(s, e);
      } else {
        seedRange(s, e);
      }
      s = e;
    }
    // Over-cap hashes (up to rescuePostings postings) seed only the pairs rare anchors already seeded.
    if (over.length) {
      const seeded = new Set<number>();
      for (let i = 0; i < out.n; i++) seeded.add(out.docA[i] * 0x4000000 + out.docB[i]);
      for (let x = 0; x < over.length; x += 2) seedRange(over[x], over[x + 1], seeded);
    }
    return out.seeds(dropped);
  }
}

/**
 * The digit of the radix sorts: 16 bits a pass, 8 for fewer items than 32,768 (a 2-document search
 * again of fileCopies.ts: 65,536 counters cleared and summed a pass cost more than its few thousand
 * items). Both are stable sorts on the same keys: the same order (native/seeds.c does the same).
 */
const digitBits = (n: number): number => (n < 32768 ? 8 : 16);

/** A kernel's list of frequent hashes (hash, documents per hash in more than `over`) as FrequentHashes. */
export function frequentHashes(frequent: Uint32Array, over: number): FrequentHashes {
  const counts = new Map<number, number>();
  for (let i = 0; i < frequent.length; i += 2) counts.set(frequent[i], frequent[i + 1]);
  return { over, counts };
}

/**
 * nativeSeeds' caps: each document's cap on postings (capOf's, else maxPostings), clamped to 32
 * bits. The loop alone in a function: when V8 optimises it during the loop (thousands of
 * documents, one call a scan), nothing after it is left without type feedback (nativeSeeds' own
 * code after the loop was: ~40 deoptimisations a scan with --locate).
 */
export function fillCaps(caps: Uint32Array, maxPostings: number, capOf: ((doc: number) => number) | undefined): void {
  for (let d = 0; d < caps.length; d++) caps[d] = Math.min(0xffffffff, Math.max(0, capOf ? capOf(d) : maxPostings));
}

/** AnchorIndex.seeds made by a native kernel: its seeds and buckets, as views into its arrays. */
function bucketsOf(pairs: Int32Array, cuts: Uint32Array): SeedBucket[] {
  const buckets: SeedBucket[] = new Array(cuts.length / 3);
  let from = 0;
  for (let b = 0; b < buckets.length; b++) {
    const end = cuts[3 * b + 2];
    buckets[b] = { docA: cuts[3 * b], docB: cuts[3 * b + 1], pairs: pairs.subarray(2 * from, 2 * end) };
    from = end;
  }
  return buckets;
}

/** Seeds as four growable columns (docA, docB, a, b), sorted and cut into buckets at the end. */
class SeedArrays {
  docA = new Uint32Array(1024);
  docB = new Uint32Array(1024);
  a = new Uint32Array(1024);
  b = new Uint32Array(1024);
  n = 0;

  push(da: number, db: number, pa: number, pb: number): void {
    if (this.n === this.a.length) {
      const widen = (x: Uint32Array): Uint32Array<ArrayBuffer> => {
        const y = new Uint32Array(x.length * 2);
        y.set(x);
        return y;
      };
      this.docA = widen(this.docA);
      this.docB = widen(this.docB);
      this.a = widen(this.a);
      this.b = widen(this.b);
    }
    const n = this.n++;
    this.docA[n] = da;
    this.docB[n] = db;
    this.a[n] = pa;
    this.b[n] = pb;
  }

  /** The seeds in (docA, docB, a, b) order, cut per pair of documents. */
  seeds(dropped: number): Seeds {
    const n = this.n;
    let order = new Uint32Array(n);
    let next = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // LSD radix sort, least significant key first, a digit a pass (further passes only when needed).
    const bits = digitBits(n);
    const mask = (1 << bits) - 1;
    const count = new Uint32Array(mask + 2);
    for (const col of [this.b, this.a, this.docB, this.docA]) {
      let max = 0;
      for (let i = 0; i < n; i++) if (col[i] > max) max = col[i];
      for (let shift = 0; shift === 0 || (shift < 32 && max >>> shift !== 0); shift += bits) {
        count.fill(0);
        for (let i = 0; i < n; i++) count[((col[order[i]] >>> shift) & mask) + 1]++;
        for (let d = 0; d <= mask; d++) count[d + 1] += count[d];
        for (let i = 0; i < n; i++) next[count[(col[order[i]] >>> shift) & mask]++] = order[i];
        [order, next] = [next, order];
      }
    }
    const pairs = new Int32Array(2 * n);
    const cuts: number[] = [];
    for (let r = 0; r < n; r++) {
      const i = order[r];
      pairs[2 * r] = this.a[i];
      pairs[2 * r + 1] = this.b[i];
      const j = r + 1 < n ? order[r + 1] : -1;
      if (j < 0 || this.docA[j] !== this.docA[i] || this.docB[j] !== this.docB[i]) cuts.push(this.docA[i], this.docB[i], r + 1);
    }
    return seedsOf(pairs, Uint32Array.from(cuts), dropped);
  }
}
