/**
 * Near-duplicate search over 64-bit SimHash fingerprints with permuted block tables, after
 * Manku, Jain and Das Sarma, "Detecting Near-Duplicates for Web Crawling" (WWW 2007).
 *
 * The 64 bits are cut into b > k contiguous blocks, as even as possible (the first 64 mod b
 * blocks, from the top bit down, are one bit wider). Two fingerprints within Hamming distance k
 * differ in at most k blocks, so they agree exactly on the b − k kept blocks of at least one of
 * the C(b, k) choices of k blocks to drop: one table per choice, keyed on its kept bits.
 *
 * - `SimHashIndex.query`: each table is an array of slots sorted by key, with a directory of the
 *   keys' top bits; a query finds its key's run in each table through the directory and checks
 *   the full distance of the few candidates.
 * - `allPairsBatch` (and `SimHashIndex.allPairs`): the tables are never stored; see TableScan.
 *
 * Keys are a 32-bit hash of the kept bits, not the concatenated prefix: only equality matters,
 * and hashing is branch-free (≈ 8× cheaper in V8 than gathering bit fields), spreads keys evenly
 * whatever the prefix width, and needs no truncation when the prefix exceeds 32 bits. A hash
 * collision only adds a candidate that the checks below reject.
 *
 * Each pair is reported once, with no set of seen pairs: tables are ordered by their mask of
 * dropped blocks, and a pair is reported only by its canonical table, the smallest k-set of
 * blocks containing the blocks where the pair differs (D plus the lowest blocks not in D). That
 * table always sees the pair, and the rule needs only the two fingerprints.
 *
 * Choice of b (`planBlocks`): the estimated work of one lookup is Σ over tables of
 * (c + n / 2^prefixBits), a per-table cost plus the expected number of random candidates; the b
 * with the least work is taken among those with at most `maxTables` tables, or a linear scan when
 * that is cheaper (large k on few items, k ≥ 15 on any number). Caps: 64 tables for the live
 * query index (which holds all tables: about 5 bytes per item per table, built only on the first
 * query), 2048 for the batch path (one table at a time, so tables cost time, not memory; the cost
 * model already weighs that time, and a cap of 128 kept k = 12 at b = 14, 91 tables, about 3×
 * slower on 100k real fingerprints than b = 15–16; see DEFAULT_BATCH_MAX_TABLES). For k = 3 this gives b = 4 (4 tables), then b = 5 (10
 * tables) from ~100k items for queries and ~630k in batch; for k = 6, b = 7 (7 tables) on a few
 * thousand items, then b = 8 (28 tables), and b = 9 (84 tables) in batch from ~930k.
 *
 * Pure: no Node or VS Code APIs, no BigInt; fingerprints are (hi, lo) unsigned 32-bit halves.
 */
import type { CodeKernel } from '../types';
import { popcount32 } from './hamming';

/** Largest supported Hamming radius. */
export const MAX_INDEX_DISTANCE = 20;
/** Default cap on the number of tables C(b, k) of the live query index (≈ 5 bytes/item/table). */
export const DEFAULT_MAX_TABLES = 64;
/**
 * Default cap on the number of tables of the batch all-pairs path (one table at a time, so the
 * cap bounds time, not memory). 2048 admits b = 16 at k = 12 (1820 tables). Measured on 100k
 * real file fingerprints (2-core machine, under load; one run each): k = 12: b = 14 (the plan
 * under the former cap of 128) 29–50 s, b = 15 23 s, b = 16 18 s, b = 17 48 s; k = 10: b = 12
 * 8.3 s, b = 13 6.7 s, b = 14 11.8 s; k = 9: b = 11 4.9 s, b = 12 4.5 s. The plans for k ≤ 6 up to
 * 1M items stay below 128 tables and do not change.
 */
export const DEFAULT_BATCH_MAX_TABLES = 2048;
/** Blocks are tracked in 32-bit masks. More than 30 blocks never pays for k ≤ 20 anyway. */
const MAX_BLOCKS = 30;
/**
 * Cost of one table per item, in units of one candidate comparison: in a query, one binary
 * search (≈ 1); in the batch path, one step of the level-2 chained hash (measured ≈ 3: about
 * 30 ns against 10 ns per comparison on the 2-core test machine, 1M items).
 */
const QUERY_ENTRY_COST = 1;
const BATCH_ENTRY_COST = 3;

// ---------------------------------------------------------------------------------------------
// Block layout

/** The layout chosen for a radius and a number of items. */
export interface BlockPlan {
  /** Number of blocks b (> k); 0 means a linear scan is cheaper than any table layout. */
  blocks: number;
  /** Number of tables, C(b, k); 0 for a linear scan. */
  tables: number;
  /** Estimated work per lookup, in candidate comparisons (n for a linear scan). */
  estimatedWork: number;
}

/**
 * Chooses the number of blocks for radius `k` and `n` items: the b > k (at most 30, and with at
 * most `maxTables` tables) minimising Σ_tables (entryCost + n / 2^prefixBits), the
 * estimated work of one lookup in units of one fingerprint comparison; or a linear scan
 * (blocks = 0, work n) when that is cheaper. With `batch`, the work is per item of an all-pairs
 * run: each candidate pair is compared once (n / 2^(prefixBits+1)), and entryCost defaults to
 * the measured cost of bucketing an item in one table (BATCH_ENTRY_COST).
 */
export function planBlocks(
  k: number,
  n: number,
  options: { maxTables?: number; entryCost?: number; batch?: boolean } = {},
): BlockPlan {
  checkRadius(k, MAX_INDEX_DISTANCE);
  const batch = options.batch ?? false;
  const maxTables = options.maxTables ?? (batch ? DEFAULT_BATCH_MAX_TABLES : DEFAULT_MAX_TABLES);
  const entryCost = options.entryCost ?? (batch ? BATCH_ENTRY_COST : QUERY_ENTRY_COST);
  const scale = batch ? n / 2 : n;
  let best: BlockPlan = { blocks: 0, tables: 0, estimatedWork: Math.max(0, scale) };
  for (let b = k + 1; b <= MAX_BLOCKS; b++) {
    const tables = binomial(b, k);
    if (tables > maxTables) break;
    const widths = blockWidths(b);
    let work = 0;
    forEachSubset(b, k, (mask) => {
      let prefix = 64;
      for (let j = 0; j < b; j++) if (mask & (1 << j)) prefix -= widths[j];
      work += entryCost + scale / 2 ** prefix;
    });
    if (work < best.estimatedWork) best = { blocks: b, tables, estimatedWork: work };
    if (k === 0) break; // one table keeping all 64 bits whatever b is
  }
  return best;
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

function blockWidths(b: number): number[] {
  const base = Math.floor(64 / b);
  const extra = 64 % b;
  const widths: number[] = [];
  for (let j = 0; j < b; j++) widths.push(base + (j < extra ? 1 : 0));
  return widths;
}

/** Calls `fn` with every k-subset of {0..b−1} as a bit mask, in ascending numeric order. */
function forEachSubset(b: number, k: number, fn: (mask: number) => void): void {
  if (k === 0) {
    fn(0);
    return;
  }
  const limit = 1 << b;
  let m = (1 << k) - 1;
  while (m < limit) {
    fn(m);
    const c = m & -m; // Gosper's hack: next larger number with the same popcount
    const r = m + c;
    m = (((r ^ m) >>> 2) / c) | r;
  }
}

/**
 * The key of kept bits (x = hi & keptHi, y = lo & keptLo) in a table: a 32-bit hash (see the
 * header). For a fixed x the map y → key is a bijection, and vice versa.
 */
function mixKey(x: number, y: number): number {
  let a = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ y;
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return (a ^ (a >>> 16)) >>> 0;
}

/** Block layout for (b blocks, k dropped per table): kept-bit masks and block masks. */
class Layout {
  readonly tables: number;
  /** Per table, the mask of dropped blocks; ascending. */
  readonly dropMasks: Int32Array;
  /** Per table, the bits of the hi / lo half that the table keeps. */
  readonly keptHi: Int32Array;
  readonly keptLo: Int32Array;
  /** Per table, its first (lowest-numbered) kept block. */
  readonly firstKept: Uint8Array;
  /** Per block, its bits in the hi / lo half. */
  readonly blockHi: Int32Array;
  readonly blockLo: Int32Array;
  /** 1 << block, for each bit of the hi / lo half. */
  private readonly hiBlock = new Int32Array(32);
  private readonly loBlock = new Int32Array(32);

  constructor(
    readonly blocks: number,
    readonly drop: number,
  ) {
    const widths = blockWidths(blocks);
    const blockOfPos = new Int8Array(64); // bit position 63 = top bit of hi, 0 = low bit of lo
    let pos = 63;
    for (let j = 0; j < blocks; j++) for (let q = 0; q < widths[j]; q++) blockOfPos[pos--] = j;
    for (let i = 0; i < 32; i++) {
      this.hiBlock[i] = 1 << blockOfPos[32 + i];
      this.loBlock[i] = 1 << blockOfPos[i];
    }
    const masks: number[] = [];
    forEachSubset(blocks, drop, (m) => masks.push(m));
    this.tables = masks.length;
    this.dropMasks = Int32Array.from(masks);
    this.keptHi = new Int32Array(masks.length);
    this.keptLo = new Int32Array(masks.length);
    this.firstKept = new Uint8Array(masks.length);
    this.blockHi = new Int32Array(blocks);
    this.blockLo = new Int32Array(blocks);
    for (let i = 0; i < 32; i++) {
      this.blockHi[blockOfPos[32 + i]] |= 1 << i;
      this.blockLo[blockOfPos[i]] |= 1 << i;
    }
    masks.forEach((mask, t) => {
      let f = 0;
      while (mask & (1 << f)) f++;
      this.firstKept[t] = f;
      let h = 0;
      let l = 0;
      for (let i = 0; i < 32; i++) {
        if ((mask & this.hiBlock[i]) === 0) h |= 1 << i;
        if ((mask & this.loBlock[i]) === 0) l |= 1 << i;
      }
      this.keptHi[t] = h;
      this.keptLo[t] = l;
    });
  }

  /** Mask of the blocks in which two fingerprints differ, from their XOR halves (x, y). */
  diffMask(x: number, y: number): number {
    let d = 0;
    while (x !== 0) {
      const low = x & -x;
      d |= this.hiBlock[31 - Math.clz32(low)];
      x ^= low;
    }
    while (y !== 0) {
      const low = y & -y;
      d |= this.loBlock[31 - Math.clz32(low)];
      y ^= low;
    }
    return d;
  }
}

const layouts = new Map<number, Layout>();
function layoutFor(blocks: number, drop: number): Layout {
  const id = blocks * 64 + drop;
  let l = layouts.get(id);
  if (!l) layouts.set(id, (l = new Layout(blocks, drop)));
  return l;
}

/**
 * The table that reports a pair: the numerically smallest mask with `drop` bits that contains
 * `mask` (the pair's differing blocks, plus any blocks every probed table drops).
 */
function canonicalTable(mask: number, drop: number): number {
  let need = drop - popcount32(mask);
  while (need-- > 0) mask |= ~mask & (mask + 1); // add the lowest block not yet in the mask
  return mask;
}

/** Validates a forced number of blocks for radius k: k < blocks ≤ 30, and C(blocks, k) ≤ 10 000. */
function checkBlocks(blocks: number, k: number): number {
  if (!Number.isInteger(blocks) || blocks <= k || blocks > MAX_BLOCKS || binomial(blocks, k) > 10_000) {
    throw new RangeError(`blocks must be an integer in ${k + 1}..${MAX_BLOCKS} with at most 10000 tables, got ${blocks}`);
  }
  return blocks;
}

function checkRadius(k: number, max: number): void {
  if (!Number.isInteger(k) || k < 0 || k > max) {
    throw new RangeError(`Hamming radius must be an integer in 0..${max}, got ${k}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Sorting the query tables by key, carrying the slot (MSD): one counting pass on the top
// ≈ log2(m) bits of the key (at most 16, so the 256 KiB of counters stay in cache), then each
// bucket, about one entry plus the equal keys, finished by insertion sort, or by LSD passes when
// many equal keys make a bucket large. One pass over the data in the normal case: measured about
// 3× faster than a two-pass LSD sort of 1M keys.

/** Bits of the counting pass for m entries. */
function topBitsFor(m: number): number {
  return Math.min(16, Math.max(4, 32 - Math.clz32(m)));
}

let counterBuffer = new Uint32Array(0);
/** Shared scratch counters (the engine is single-threaded and never re-enters a sort). */
function counters(size: number): Uint32Array {
  if (counterBuffer.length < size) counterBuffer = new Uint32Array(size);
  return counterBuffer;
}

/** Turns counts into exclusive prefix sums (bucket starts). */
function prefixSums(count: Uint32Array, buckets: number): void {
  let sum = 0;
  for (let b = 0; b < buckets; b++) {
    const c = count[b];
    count[b] = sum;
    sum += c;
  }
}

/** Sorts (keys, vals)[0, m) by key into (outK, outV)[0, m). */
function sortByKey(keys: Uint32Array, vals: Uint32Array, outK: Uint32Array, outV: Uint32Array, m: number): void {
  const top = topBitsFor(m);
  const low = 32 - top;
  const buckets = 1 << top;
  const count = counters(buckets);
  count.fill(0, 0, buckets);
  for (let i = 0; i < m; i++) count[keys[i] >>> low]++;
  prefixSums(count, buckets);
  for (let i = 0; i < m; i++) {
    const key = keys[i];
    const at = count[key >>> low]++;
    outK[at] = key;
    outV[at] = vals[i];
  }
  finishBuckets(outK, outV, count, buckets, low);
}

/**
 * After a counting pass on the top bits (count[b] = end of bucket b), sorts each bucket by the
 * `low` remaining bits.
 */
function finishBuckets(keys: Uint32Array, vals: Uint32Array, count: Uint32Array, buckets: number, low: number): void {
  let start = 0;
  for (let b = 0; b < buckets; b++) {
    const end = count[b];
    const size = end - start;
    if (size > 32) lsdRange(keys, vals, start, end, low);
    else if (size > 1) insertionSort(keys, vals, start, end);
    start = end;
  }
}

function insertionSort(keys: Uint32Array, vals: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const k = keys[i];
    const v = vals[i];
    let j = i - 1;
    while (j >= from && keys[j] > k) {
      keys[j + 1] = keys[j];
      vals[j + 1] = vals[j];
      j--;
    }
    keys[j + 1] = k;
    vals[j + 1] = v;
  }
}

/** LSD radix sort (8-bit digits) of keys[from, to) by their low `bits` bits; rare path. */
function lsdRange(keys: Uint32Array, vals: Uint32Array, from: number, to: number, bits: number): void {
  const size = to - from;
  let srcK: Uint32Array = keys.subarray(from, to);
  let srcV: Uint32Array = vals.subarray(from, to);
  let dstK: Uint32Array = new Uint32Array(size);
  let dstV: Uint32Array = new Uint32Array(size);
  const hist = new Uint32Array(256);
  for (let sh = 0; sh < bits; sh += 8) {
    hist.fill(0);
    for (let i = 0; i < size; i++) hist[(srcK[i] >>> sh) & 255]++;
    prefixSums(hist, 256);
    for (let i = 0; i < size; i++) {
      const key = srcK[i];
      const at = hist[(key >>> sh) & 255]++;
      dstK[at] = key;
      dstV[at] = srcV[i];
    }
    const tk = srcK;
    const tv = srcV;
    srcK = dstK;
    srcV = dstV;
    dstK = tk;
    dstV = tv;
  }
  if (srcK.buffer !== keys.buffer || srcK.byteOffset !== keys.byteOffset + from * 4) {
    keys.set(srcK, from);
    vals.set(srcV, from);
  }
}

// ---------------------------------------------------------------------------------------------
// Batch all-pairs

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
const PAIR_LIMIT_REACHED = new Error('pair limit reached');

/**
 * Above this many candidate pairs the native search gives up (it holds them all, 9 bytes each,
 * before accept and maxPairs filter them) and the TypeScript search, which filters as it goes, runs.
 */
const NATIVE_MAX_CANDIDATES = 4_000_000;

class PairSink {
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

/**
 * Every pair of items i < j whose fingerprints are within Hamming distance k (0..20), each
 * exactly once, in no particular order. `fp` holds the fingerprints interleaved: item i is
 * (fp[2i], fp[2i+1]) = (hi, lo), so one fingerprint is one memory access.
 *
 * The tables are never stored: see TableScan. Memory beyond the input (8 bytes per item) and
 * the output (9 bytes per pair): 12 bytes per item (items regrouped with their fingerprints),
 * 256 KiB of counters, scratch for the largest level-1 group (≤ 20 bytes per member; groups hold
 * n / 2^blockWidth items on random data), and 5 bytes per item once a duplicate is seen.
 * When no layout beats comparing all pairs (a few dozen items, or k ≥ 15), it does that.
 * `options.maxTables` caps the tables (default 2048); `options.blocks` forces b, for tests.
 * `options.maxPairs` stops the search once that many pairs are found (then `truncated` is set and
 * which pairs are kept depends only on the input): a cluster of m near-identical items has
 * m(m − 1)/2 pairs, so without a cap a few thousand copies exhaust memory.
 * `options.accept(a, b, distance)` (a < b) filters candidates as they are found: only accepted
 * pairs are kept and count towards `maxPairs`.
 */
export function allPairsBatch(
  fp: Uint32Array,
  k: number,
  options: {
    maxTables?: number;
    blocks?: number;
    maxPairs?: number;
    accept?: (a: number, b: number, distance: number) => boolean;
    /** The native kernel: its search gives the candidates (the same pairs), then accept and maxPairs apply as here. */
    kernel?: Pick<CodeKernel, 'allPairs'>;
  } = {},
): PairList {
  checkRadius(k, MAX_INDEX_DISTANCE);
  if (fp.length % 2 !== 0) throw new RangeError('fp must hold (hi, lo) pairs');
  const maxPairs = options.maxPairs ?? Infinity;
  if (!(maxPairs >= 0) || (maxPairs !== Infinity && !Number.isInteger(maxPairs))) {
    throw new RangeError(`maxPairs must be a non-negative integer, got ${maxPairs}`);
  }
  const n = fp.length >>> 1;
  const sink = new PairSink(maxPairs, options.accept);
  const native = options.kernel && options.blocks === undefined && n >= 2 ? options.kernel.allPairs(fp, k, NATIVE_MAX_CANDIDATES) : null;
  try {
    if (native) {
      const { a, b, distance } = native;
      for (let p = 0; p < a.length; p++) sink.push(a[p], b[p], distance[p]);
    } else {
      findPairs(fp, n, k, options, sink);
    }
  } catch (e) {
    if (e !== PAIR_LIMIT_REACHED) throw e;
  }
  return sink.result();
}

function findPairs(fp: Uint32Array, n: number, k: number, options: { maxTables?: number; blocks?: number }, sink: PairSink): void {
  if (n < 2) return;
  const blocks =
    options.blocks !== undefined
      ? checkBlocks(options.blocks, k)
      : planBlocks(k, n, { maxTables: options.maxTables ?? DEFAULT_BATCH_MAX_TABLES, batch: true }).blocks;
  if (blocks === 0) {
    for (let x = 0; x < n; x++) {
      const hx = fp[2 * x];
      const lx = fp[2 * x + 1];
      for (let y = x + 1; y < n; y++) {
        const d = popcount32(hx ^ fp[2 * y]) + popcount32(lx ^ fp[2 * y + 1]);
        if (d <= k) sink.push(x, y, d);
      }
    }
    return;
  }
  new TableScan(fp, n, k, layoutFor(blocks, k), sink).run();
}

/** Level-1 groups of at most this many items are compared pairwise, without the level-2 hash. */
const SMALL_GROUP = 8;
/** Level-1 groups of at most this many items are not split by a second block (scanFamily). */
const SPLIT_MIN = 256;
/** Bits of scanFamily's counting sort (at most 2^bits parts). */
const SPLIT_BITS = 12;

/**
 * The state of one `allPairsBatch` run. Two levels, so that the passes over all items, which
 * are memory-bound (random writes over n items), number k + 1 instead of C(b, k):
 *
 * 1. For each block f = k, k−1, …, 0: a counting sort of the active items (with their
 *    fingerprints) into groups by (a hash of) block f.
 * 2. Within each group, for each table whose first kept block is f: a chained hash of the group
 *    by the table's whole key, in cache, comparing each item with the earlier ones of its chain
 *    that agree on the table's kept bits.
 *
 * With three or more kept blocks, the tables whose first two kept blocks are the same (f, g) form
 * a family: a large level-1 group is split once by block g (a counting sort, in cache), and each
 * table of the family hashes the parts, tens of items, by its remaining kept blocks
 * (scanFamily): cheaper than hashing the whole group once per table (≈ 15 % at 1M, k = 6).
 *
 * Block f = k comes first: its only table is table 0 (kept blocks k..b−1), canonical for every
 * identical pair, which reports them all and links each copy of a fingerprint to the first item
 * of its group. Copies then leave the active set, and a pair reported by a later table is
 * expanded to all copies on both sides. Hundreds of copies thus cost their output (table 0's
 * comparisons), not tables × copies².
 */
class TableScan {
  // Level 1: the active items, grouped by one block, with their fingerprints.
  private readonly item: Uint32Array;
  private readonly fhi: Uint32Array;
  private readonly flo: Uint32Array;
  // Level 2 scratch: chained hash of one level-1 group by a table's key (positions in the group).
  private head = new Int32Array(64);
  private link = new Int32Array(64);
  /** Set once a duplicate is seen: isDup[i] = 1 for every copy but the first of its group. */
  private isDup: Uint8Array | null = null;
  /** Chains each group of identical fingerprints from its first item; -1 ends a chain. */
  private next: Int32Array | null = null;
  /** Items taking part (n minus the copies found so far). */
  private active: number;
  /** Per table, its kept blocks in ascending order, and its kept bits beyond the first two. */
  private readonly keptBlocks: number[][] = [];
  private readonly restHi: Int32Array;
  private readonly restLo: Int32Array;
  private readonly blockWidth: number[] = [];
  // Scratch of scanFamily: one level-1 group split by a block.
  private pItem = new Uint32Array(64);
  private pHi = new Uint32Array(64);
  private pLo = new Uint32Array(64);
  private readonly pCount = new Uint32Array(1 << SPLIT_BITS);

  constructor(
    private readonly fp: Uint32Array,
    private readonly n: number,
    private readonly k: number,
    private readonly layout: Layout,
    private readonly sink: PairSink,
  ) {
    this.item = new Uint32Array(n);
    this.fhi = new Uint32Array(n);
    this.flo = new Uint32Array(n);
    this.active = n;
    this.restHi = new Int32Array(layout.tables);
    this.restLo = new Int32Array(layout.tables);
    for (let t = 0; t < layout.tables; t++) {
      const blocks: number[] = [];
      for (let j = 0; j < layout.blocks; j++) if ((layout.dropMasks[t] & (1 << j)) === 0) blocks.push(j);
      this.keptBlocks.push(blocks);
      for (let j = 2; j < blocks.length; j++) {
        this.restHi[t] |= layout.blockHi[blocks[j]];
        this.restLo[t] |= layout.blockLo[blocks[j]];
      }
    }
    for (let j = 0; j < layout.blocks; j++) this.blockWidth.push(popcount32(layout.blockHi[j]) + popcount32(layout.blockLo[j]));
  }

  run(): void {
    const { layout, k } = this;
    const kept = this.keptBlocks;
    for (let f = k; f >= 0; f--) {
      const tables: number[] = [];
      for (let t = 0; t < layout.tables; t++) if (layout.firstKept[t] === f) tables.push(t);
      // Families: the tables sharing their second kept block (lexicographic order of the kept
      // blocks puts them side by side). A family of several tables splits each large group by
      // that block once, and its tables then hash the small parts (see scanFamily).
      tables.sort((x, y) => {
        for (let j = 1; j < kept[x].length; j++) if (kept[x][j] !== kept[y][j]) return kept[x][j] - kept[y][j];
        return 0;
      });
      const families: number[] = [0];
      for (let i = 1; i < tables.length; i++) if (kept[tables[i]][1] !== kept[tables[i - 1]][1]) families.push(i);
      families.push(tables.length);
      const bits = Math.min(16, Math.max(4, 32 - Math.clz32(this.active - 1)));
      const count = this.groupBy(layout.blockHi[f], layout.blockLo[f], bits);
      const groups = 1 << bits;
      let start = 0;
      for (let g = 0; g < groups; g++) {
        const end = count[g];
        if (end - start >= 2) {
          for (let i = 0; i + 1 < families.length; i++) {
            const from = families[i];
            const to = families[i + 1];
            if (to - from === 1 || end - start <= SPLIT_MIN) for (let j = from; j < to; j++) this.scanGroup(tables[j], start, end);
            else this.scanFamily(tables, from, to, start, end);
          }
        }
        start = end;
      }
    }
  }

  /**
   * Tables tables[from, to), which share their first two kept blocks f and g, over level-1 group
   * [start, end) (one value of block f): a counting sort of the group by block g into scratch,
   * then each part scanned by each table (scanPart). The parts hold tens of items, so a table's
   * chained hash stays in the first-level cache and hashes one block, where scanGroup would hash
   * the whole group by all kept blocks, once per table.
   */
  private scanFamily(tables: readonly number[], from: number, to: number, start: number, end: number): void {
    const { layout, item, fhi, flo } = this;
    const g = this.keptBlocks[tables[from]][1];
    const bh = layout.blockHi[g];
    const bl = layout.blockLo[g];
    const size = end - start;
    if (this.pItem.length < size) {
      const cap = Math.max(size, 2 * this.pItem.length);
      this.pItem = new Uint32Array(cap);
      this.pHi = new Uint32Array(cap);
      this.pLo = new Uint32Array(cap);
    }
    const { pItem, pHi, pLo } = this;
    // (h & bh) | (l & bl) is one-to-one on the block's bits (a block is contiguous and < 33 bits
    // wide, so its hi and lo parts never overlap), hence equal blocks land in the same part.
    const bits = Math.min(SPLIT_BITS, this.blockWidth[g], 31 - Math.clz32(size));
    const shift = 32 - bits;
    const parts = 1 << bits;
    const count = this.pCount;
    count.fill(0, 0, parts);
    for (let x = start; x < end; x++) count[Math.imul((fhi[x] & bh) | (flo[x] & bl), 0x9e3779b1) >>> shift]++;
    prefixSums(count, parts);
    for (let x = start; x < end; x++) {
      const h = fhi[x];
      const l = flo[x];
      const at = count[Math.imul((h & bh) | (l & bl), 0x9e3779b1) >>> shift]++;
      pItem[at] = item[x];
      pHi[at] = h;
      pLo[at] = l;
    }
    let a = 0;
    for (let p = 0; p < parts; p++) {
      const b = count[p];
      if (b - a >= 2) for (let i = from; i < to; i++) this.scanPart(tables[i], a, b);
      a = b;
    }
  }

  /**
   * Table t's canonical pairs in part [start, end) of the scratch (items agreeing on t's first
   * two kept blocks, up to hash collisions): pairwise when small, else a chained hash by the
   * remaining kept bits (one block: one multiplication). Never table 0 (its family is alone).
   */
  private scanPart(t: number, start: number, end: number): void {
    const { pItem: item, pHi: fhi, pLo: flo, k, layout } = this;
    const mh = layout.keptHi[t];
    const ml = layout.keptLo[t];
    const size = end - start;
    if (size <= SMALL_GROUP) {
      for (let y = start + 1; y < end; y++) {
        const hy = fhi[y];
        const ly = flo[y];
        for (let x = start; x < y; x++) {
          const dh = hy ^ fhi[x];
          const dl = ly ^ flo[x];
          if (((dh & mh) | (dl & ml)) !== 0) continue; // not the same key
          const d1 = popcount32(dh);
          if (d1 > k) continue;
          const d = d1 + popcount32(dl);
          if (d <= k) this.report(t, item[x], item[y], dh, dl, d);
        }
      }
      return;
    }
    const rh = this.restHi[t];
    const rl = this.restLo[t];
    const low = this.resetChains(size);
    const { head, link } = this;
    for (let y = 0; y < size; y++) {
      const iy = start + y;
      const hy = fhi[iy];
      const ly = flo[iy];
      const b = Math.imul((hy & rh) ^ Math.imul(ly & rl, 0x85ebca6b), 0x9e3779b1) >>> low;
      for (let x = head[b]; x !== -1; x = link[x]) {
        const ix = start + x;
        const dh = hy ^ fhi[ix];
        const dl = ly ^ flo[ix];
        if (((dh & mh) | (dl & ml)) !== 0) continue; // not the same key
        const d1 = popcount32(dh);
        if (d1 > k) continue;
        const d = d1 + popcount32(dl);
        if (d <= k) this.report(t, item[ix], item[iy], dh, dl, d);
      }
      link[y] = head[b];
      head[b] = y;
    }
  }

  /**
   * Level 1: counting sort of the active items into 2^bits groups by the top bits of a hash of
   * their bits under (mh, ml). Returns the counters: group g ends at count[g].
   */
  private groupBy(mh: number, ml: number, bits: number): Uint32Array {
    const { fp, n, item, fhi, flo } = this;
    const isDup = this.isDup;
    const low = 32 - bits;
    const groups = 1 << bits;
    const count = counters(groups);
    count.fill(0, 0, groups);
    for (let i = 0; i < n; i++) {
      if (isDup !== null && isDup[i] === 1) continue;
      count[mixKey(fp[2 * i] & mh, fp[2 * i + 1] & ml) >>> low]++;
    }
    prefixSums(count, groups);
    for (let i = 0; i < n; i++) {
      if (isDup !== null && isDup[i] === 1) continue;
      const h = fp[2 * i];
      const l = fp[2 * i + 1];
      const at = count[mixKey(h & mh, l & ml) >>> low]++;
      item[at] = i;
      fhi[at] = h;
      flo[at] = l;
    }
    return count;
  }

  /**
   * Sizes and empties the chained-hash scratch for a group of `size` items: 2^bits buckets
   * (bits = ⌈log2 size⌉) in `head`, one link per item. Returns the shift that keeps a hash's top bits.
   */
  private resetChains(size: number): number {
    const bits = 32 - Math.clz32(size - 1);
    const buckets = 1 << bits;
    if (this.head.length < buckets) this.head = new Int32Array(buckets);
    if (this.link.length < size) this.link = new Int32Array(Math.max(size, this.link.length * 2));
    this.head.fill(-1, 0, buckets);
    return 32 - bits;
  }

  /**
   * Level 2: the pairs of level-1 group [start, end) that table t is canonical for. Small groups
   * are compared pairwise; larger ones go through a chained hash on the table's key (one pass:
   * each item is compared with the earlier items of its chain, then joins it).
   */
  private scanGroup(t: number, start: number, end: number): void {
    const { item, fhi, flo, k, layout } = this;
    const mh = layout.keptHi[t];
    const ml = layout.keptLo[t];
    const first = t === 0;
    const size = end - start;
    if (size <= SMALL_GROUP) {
      for (let y = start + 1; y < end; y++) {
        const hy = fhi[y];
        const ly = flo[y];
        let identical = -1;
        for (let x = start; x < y; x++) {
          const dh = hy ^ fhi[x];
          const dl = ly ^ flo[x];
          if (((dh & mh) | (dl & ml)) !== 0) continue; // not the same key
          const d1 = popcount32(dh);
          if (d1 > k) continue;
          const d = d1 + popcount32(dl);
          if (d > k) continue;
          if (first && d === 0) {
            this.sink.push(item[x], item[y], 0);
            if (identical < 0) identical = x;
          } else this.report(t, item[x], item[y], dh, dl, d);
        }
        if (identical >= 0) this.linkCopy(item[identical], item[y]);
      }
      return;
    }
    const low = this.resetChains(size);
    const { head, link } = this;
    for (let y = 0; y < size; y++) {
      const iy = start + y;
      const hy = fhi[iy];
      const ly = flo[iy];
      const b = mixKey(hy & mh, ly & ml) >>> low;
      let identical = -1;
      for (let x = head[b]; x !== -1; x = link[x]) {
        const ix = start + x;
        const dh = hy ^ fhi[ix];
        const dl = ly ^ flo[ix];
        if (((dh & mh) | (dl & ml)) !== 0) continue; // not the same key
        const d1 = popcount32(dh);
        if (d1 > k) continue;
        const d = d1 + popcount32(dl);
        if (d > k) continue;
        if (first && d === 0) {
          this.sink.push(item[ix], item[iy], 0);
          identical = ix; // the chain runs newest first: this ends on the earliest
        } else this.report(t, item[ix], item[iy], dh, dl, d);
      }
      if (identical >= 0) this.linkCopy(item[identical], item[iy]);
      link[y] = head[b];
      head[b] = y;
    }
  }

  /**
   * A pair within distance k that agrees on table t's kept bits: reported when t is its
   * canonical table, expanded to all copies outside table 0 (which holds every copy itself).
   * In table 0 the earliest identical item is never a copy itself, so copies link to it.
   */
  private report(t: number, ix: number, iy: number, dh: number, dl: number, d: number): void {
    const layout = this.layout;
    if (canonicalTable(layout.diffMask(dh, dl), this.k) !== layout.dropMasks[t]) return;
    const next = this.next;
    if (t === 0 || next === null) this.sink.push(ix, iy, d);
    else for (let p = ix; p !== -1; p = next[p]) for (let q = iy; q !== -1; q = next[q]) this.sink.push(p, q, d);
  }

  private linkCopy(first: number, copy: number): void {
    if (this.next === null || this.isDup === null) {
      this.next = new Int32Array(this.n).fill(-1);
      this.isDup = new Uint8Array(this.n);
    }
    this.next[copy] = this.next[first];
    this.next[first] = copy;
    this.isDup[copy] = 1;
    this.active--;
  }
}

// ---------------------------------------------------------------------------------------------
// Live index

/**
 * A query table: slots sorted by the key of their fingerprint (fp[2s], fp[2s+1]) under the
 * table's kept masks (mh, ml), 4 bytes per entry, and a directory: dir[h] = the first position
 * whose key's top `bits` bits are ≥ h (2^bits + 1 entries, about one per 2–4 entries). A lookup
 * reads the directory, then the few entries of its bucket, instead of the log2(n) scattered
 * probes of a binary search (cache misses, with dozens of tables). Keys are not stored: they are
 * recomputed from the fingerprints where needed, which costs less than the memory.
 */

/** Memory of a query table per item: the slot (4 bytes) and its share of the directory (≤ 2). */
const TABLE_BYTES_PER_ENTRY = 5;

/** Directory bits for a table of m entries: 2–4 entries per bucket. */
function dirBitsFor(m: number): number {
  return Math.max(1, Math.min(22, 30 - Math.clz32(Math.max(1, m))));
}

/** Fills dir (2^bits + 1 entries) from the sorted keys of a table of len entries. */
function fillDirFromKeys(dir: Uint32Array, bits: number, keys: Uint32Array, len: number): void {
  const shift = 32 - bits;
  let h = 0;
  for (let i = 0; i < len; i++) {
    const top = keys[i] >>> shift;
    while (h <= top) dir[h++] = i;
  }
  while (h < dir.length) dir[h++] = len;
}

/** Fills dir from a table's slots, recomputing the keys from the fingerprints. */
function fillDir(dir: Uint32Array, bits: number, slots: Uint32Array, fp: Uint32Array, mh: number, ml: number, len: number): void {
  const shift = 32 - bits;
  let h = 0;
  for (let i = 0; i < len; i++) {
    const s = slots[i];
    const top = mixKey(fp[2 * s] & mh, fp[2 * s + 1] & ml) >>> shift;
    while (h <= top) dir[h++] = i;
  }
  while (h < dir.length) dir[h++] = len;
}

/** keys[i] = the key of slot vals[i] under kept masks (mh, ml). */
function fillKeys(fp: Uint32Array, mh: number, ml: number, vals: Uint32Array, keys: Uint32Array, m: number): void {
  for (let i = 0; i < m; i++) {
    const s = vals[i];
    keys[i] = mixKey(fp[2 * s] & mh, fp[2 * s + 1] & ml);
  }
}

export interface SimHashIndexOptions {
  /** Largest radius that `query` and `allPairs` accept, 0..20. */
  maxDistance: number;
  /** Expected number of items: chooses the query tables' layout (default: the size at the first query). */
  expectedSize?: number;
  /** Cap on the number of query tables (default 64; about 5 bytes per item per table). */
  maxTables?: number;
  /**
   * Cap on the memory of the query tables, in bytes (default: none). The layout is chosen, when
   * the tables are built, among those whose tables fit (about 5 bytes per item per table); the
   * smallest layout (maxDistance + 1 tables) is always allowed.
   */
  maxTableBytes?: number;
  /** Forces the number of blocks of the query tables (maxDistance < blocks ≤ 30); for tests and tuning. */
  blocks?: number;
}

export class SimHashIndex {
  readonly maxDistance: number;
  private readonly expectedSize: number;
  private readonly maxTables: number;
  private readonly maxTableBytes: number;
  private readonly forcedBlocks: number | undefined;

  // Fingerprint store by slot: fp[2s] = hi, fp[2s+1] = lo; slotId[s] = -1 for a removed item.
  private fp = new Uint32Array(32);
  private slotId = new Int32Array(16);
  private slots = 0;
  private dead = 0;
  private live = 0;
  private readonly slotOf = new Map<number, number>();

  // Query tables. Slots [0, tabledSlots) are in the tables; [tabledSlots, slots) are pending.
  private built = false;
  private plannedFor = 0;
  private layout: Layout | null = null; // null: linear scan
  private tSlots: Uint32Array[] = [];
  private tDirs: Uint32Array[] = [];
  private dirBits = 1;
  private tLen = 0;
  private tabledSlots = 0;

  constructor(options: SimHashIndexOptions) {
    checkRadius(options.maxDistance, MAX_INDEX_DISTANCE);
    this.maxDistance = options.maxDistance;
    const expected = options.expectedSize ?? 0;
    if (!Number.isInteger(expected) || expected < 0) {
      throw new RangeError(`expectedSize must be a non-negative integer, got ${expected}`);
    }
    this.expectedSize = expected;
    const maxTables = options.maxTables ?? DEFAULT_MAX_TABLES;
    if (!Number.isInteger(maxTables) || maxTables < 1) {
      throw new RangeError(`maxTables must be a positive integer, got ${maxTables}`);
    }
    this.maxTables = maxTables;
    const maxTableBytes = options.maxTableBytes ?? Infinity;
    if (!(maxTableBytes > 0)) throw new RangeError(`maxTableBytes must be positive, got ${maxTableBytes}`);
    this.maxTableBytes = maxTableBytes;
    this.forcedBlocks = options.blocks === undefined ? undefined : checkBlocks(options.blocks, options.maxDistance);
  }

  /** Number of items. */
  get size(): number {
    return this.live;
  }

  /**
   * The layout of the query tables (blocks, tables), as chosen when they were last built; null
   * before the first query (or `prepare`), or when a linear scan is cheaper.
   */
  get queryLayout(): { blocks: number; tables: number } | null {
    return this.layout === null ? null : { blocks: this.layout.blocks, tables: this.layout.tables };
  }

  /** Whether an item with this id is stored. */
  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /**
   * Adds an item; an existing item with the same id is replaced. `id` must be an integer in
   * 0..2^31−1; `hi` and `lo` are taken as unsigned 32-bit (`>>> 0`).
   */
  add(id: number, hi: number, lo: number): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      throw new RangeError(`id must be an integer in 0..2^31-1, got ${id}`);
    }
    this.remove(id);
    if (this.slots === this.slotId.length) {
      if (this.dead * 4 >= this.slots) this.compact();
      if (this.slots === this.slotId.length) this.growStore();
    }
    const s = this.slots++;
    this.fp[2 * s] = hi;
    this.fp[2 * s + 1] = lo;
    this.slotId[s] = id;
    this.slotOf.set(id, s);
    this.live++;
  }

  /** Removes the item with this id; false when there was none. */
  remove(id: number): boolean {
    const s = this.slotOf.get(id);
    if (s === undefined) return false;
    this.slotOf.delete(id);
    this.slotId[s] = -1;
    this.dead++;
    this.live--;
    if (this.live === 0) this.reset();
    return true;
  }

  /**
   * Builds the query tables now (or brings them up to date), so that the next query does not pay
   * for it: e.g. after loading many items, before the first interactive query.
   */
  prepare(): void {
    if (this.live > 0) this.maintain();
  }

  /**
   * Every item within Hamming distance k (0..maxDistance) of (hi, lo), each once, sorted by
   * distance then id.
   */
  query(hi: number, lo: number, k: number = this.maxDistance): Array<{ id: number; distance: number }> {
    return this.queryMany([hi, lo], k)[0];
  }

  /**
   * `query` for several fingerprints at once, `fps` interleaved (hi, lo, hi, lo, …): one result
   * list per fingerprint. The tables are visited one at a time for all the fingerprints, so each
   * table's memory is brought into the cache once, not once per fingerprint (a document's dozens
   * of sections against tens of tables).
   */
  queryMany(fps: ArrayLike<number>, k: number = this.maxDistance): Array<Array<{ id: number; distance: number }>> {
    checkRadius(k, this.maxDistance);
    if (fps.length % 2 !== 0) throw new RangeError('fps must hold (hi, lo) pairs');
    const m = fps.length >>> 1;
    const outs: Array<Array<{ id: number; distance: number }>> = [];
    for (let q = 0; q < m; q++) outs.push([]);
    if (this.live === 0 || m === 0) return outs;
    this.maintain();
    const { fp, slotId } = this;
    const his = new Uint32Array(m);
    const los = new Uint32Array(m);
    for (let q = 0; q < m; q++) {
      his[q] = fps[2 * q];
      los[q] = fps[2 * q + 1];
    }
    const layout = this.layout;
    let from = 0;
    if (layout !== null) {
      // With k < maxDistance only the tables that drop a fixed set F of (maxDistance − k)
      // blocks are needed: the ≤ k blocks in which a match differs, plus F, fit in one of them.
      const K = this.maxDistance;
      const fixed = K - k;
      const F = fixed === 0 ? 0 : ((1 << fixed) - 1) << (layout.blocks - fixed);
      for (let t = 0; t < layout.tables; t++) {
        if ((layout.dropMasks[t] & F) !== F) continue;
        for (let q = 0; q < m; q++) this.scanTable(layout, t, his[q], los[q], k, F, outs[q]);
      }
      from = this.tabledSlots;
    }
    for (let s = from; s < this.slots; s++) {
      const id = slotId[s];
      if (id < 0) continue;
      const h = fp[2 * s];
      const l = fp[2 * s + 1];
      for (let q = 0; q < m; q++) {
        const d = popcount32(his[q] ^ h) + popcount32(los[q] ^ l);
        if (d <= k) outs[q].push({ id, distance: d });
      }
    }
    for (const out of outs) if (out.length > 1) out.sort((x, y) => x.distance - y.distance || x.id - y.id);
    return outs;
  }

  // -------------------------------------------------------------------------------------------

  /** The items of table t within distance k of (hi, lo) that t is canonical for, into `out`. */
  private scanTable(layout: Layout, t: number, hi: number, lo: number, k: number, F: number, out: Array<{ id: number; distance: number }>): void {
    const { fp, slotId } = this;
    const K = this.maxDistance;
    const drop = layout.dropMasks[t];
    const mh = layout.keptHi[t];
    const ml = layout.keptLo[t];
    const key = mixKey(hi & mh, lo & ml);
    const slots = this.tSlots[t];
    const dir = this.tDirs[t];
    const top = key >>> (32 - this.dirBits);
    let i = dir[top];
    const end = dir[top + 1];
    if (end - i > 16) {
      // A crowded bucket (many copies of one fingerprint): binary search for the key.
      let b = end;
      while (i < b) {
        const mid = (i + b) >>> 1;
        const s = slots[mid];
        if (mixKey(fp[2 * s] & mh, fp[2 * s + 1] & ml) < key) i = mid + 1;
        else b = mid;
      }
    }
    // The bucket's entries up to the end of the run with the query's key: those that agree on
    // the kept bits are candidates; the others (smaller keys, or different kept bits hashing to
    // the same key) are skipped.
    for (; i < end; i++) {
      const s = slots[i];
      const h = fp[2 * s];
      const l = fp[2 * s + 1];
      const dh = hi ^ h;
      const dl = lo ^ l;
      if (((dh & mh) | (dl & ml)) !== 0) {
        if (mixKey(h & mh, l & ml) > key) break; // past the run
        continue;
      }
      const d1 = popcount32(dh);
      if (d1 > k) continue;
      const d = d1 + popcount32(dl);
      if (d > k || canonicalTable(layout.diffMask(dh, dl) | F, K) !== drop) continue;
      const id = slotId[s];
      if (id >= 0) out.push({ id, distance: d });
    }
  }

  /**
   * Every unordered pair of items within Hamming distance k (0..maxDistance), each once with
   * a < b, sorted by distance, then a, then b. Runs the batch path (`allPairsBatch`, one table
   * at a time) over the store; the query tables play no part.
   */
  allPairs(k: number = this.maxDistance): Array<{ a: number; b: number; distance: number }> {
    checkRadius(k, this.maxDistance);
    if (this.live < 2) return [];
    if (this.dead > 0) this.compact();
    const list = allPairsBatch(this.fp.subarray(0, 2 * this.slots), k);
    const ids = this.slotId;
    const out = new Array<{ a: number; b: number; distance: number }>(list.length);
    for (let i = 0; i < list.length; i++) {
      const x = ids[list.a[i]];
      const y = ids[list.b[i]];
      const distance = list.distance[i];
      out[i] = x < y ? { a: x, b: y, distance } : { a: y, b: x, distance };
    }
    out.sort((p, q) => p.distance - q.distance || p.a - q.a || p.b - q.b);
    return out;
  }

  // -------------------------------------------------------------------------------------------

  private reset(): void {
    this.slots = 0;
    this.dead = 0;
    this.built = false;
    this.layout = null;
    this.tSlots = [];
    this.tDirs = [];
    this.tLen = 0;
    this.tabledSlots = 0;
  }

  private growStore(): void {
    const n = this.slotId.length * 2;
    const fp = new Uint32Array(2 * n);
    fp.set(this.fp);
    this.fp = fp;
    const ids = new Int32Array(n);
    ids.set(this.slotId);
    this.slotId = ids;
  }

  /** Brings the tables up to date before a query. */
  private maintain(): void {
    if (!this.built || this.live > 2 * this.plannedFor) {
      this.rebuild();
      return;
    }
    if (this.dead > 64 && this.dead * 4 > this.slots) this.compact();
    if (this.layout === null) return;
    const pending = this.slots - this.tabledSlots;
    const limit = Math.max(64, Math.sqrt(this.tLen * this.layout.tables));
    if (pending > limit) {
      if (pending * 2 > this.tLen) this.rebuild();
      else this.mergePending();
    }
  }

  /** Drops removed items from the store and the tables, renumbering slots in order. */
  private compact(): void {
    if (this.dead === 0) return;
    const { fp, slotId, slotOf } = this;
    const remap = new Int32Array(this.slots);
    let w = 0;
    let tabled = 0;
    for (let s = 0; s < this.slots; s++) {
      const id = slotId[s];
      if (id < 0) {
        remap[s] = -1;
        continue;
      }
      if (w !== s) {
        fp[2 * w] = fp[2 * s];
        fp[2 * w + 1] = fp[2 * s + 1];
        slotId[w] = id;
        slotOf.set(id, w);
      }
      remap[s] = w++;
      if (s < this.tabledSlots) tabled++;
    }
    for (let t = 0; t < this.tSlots.length; t++) {
      const slots = this.tSlots[t];
      let c = 0;
      for (let i = 0; i < this.tLen; i++) {
        const ns = remap[slots[i]];
        if (ns >= 0) slots[c++] = ns;
      }
      const layout = this.layout!;
      fillDir(this.tDirs[t], this.dirBits, slots, fp, layout.keptHi[t], layout.keptLo[t], c);
    }
    if (this.tSlots.length > 0) this.tLen = tabled;
    this.slots = w;
    this.tabledSlots = tabled;
    this.dead = 0;
  }

  /** Re-chooses the layout for the current size and builds every table from scratch. */
  private rebuild(): void {
    this.compact();
    this.built = true;
    this.plannedFor = Math.max(this.expectedSize, this.live);
    let maxTables = this.maxTables;
    if (this.maxTableBytes !== Infinity) {
      const affordable = Math.floor(this.maxTableBytes / (TABLE_BYTES_PER_ENTRY * Math.max(1, this.plannedFor)));
      maxTables = Math.min(maxTables, Math.max(this.maxDistance + 1, affordable));
    }
    const blocks = this.forcedBlocks ?? planBlocks(this.maxDistance, this.plannedFor, { maxTables }).blocks;
    this.tSlots = [];
    this.tDirs = [];
    this.tLen = 0;
    this.tabledSlots = 0;
    if (blocks === 0) {
      this.layout = null;
      return;
    }
    const layout = layoutFor(blocks, this.maxDistance);
    this.layout = layout;
    const m = this.slots; // all live after compact()
    const cap = m + (m >>> 2) + 16;
    const keys = new Uint32Array(m);
    const vals = new Uint32Array(m);
    const sortedKeys = new Uint32Array(m); // scratch: the tables keep only the slots
    for (let s = 0; s < m; s++) vals[s] = s;
    this.dirBits = dirBitsFor(m);
    const fp = this.fp;
    for (let t = 0; t < layout.tables; t++) {
      const mh = layout.keptHi[t];
      const ml = layout.keptLo[t];
      for (let s = 0; s < m; s++) keys[s] = mixKey(fp[2 * s] & mh, fp[2 * s + 1] & ml);
      const tv = new Uint32Array(cap);
      sortByKey(keys, vals, sortedKeys, tv, m);
      const dir = new Uint32Array((1 << this.dirBits) + 1);
      fillDirFromKeys(dir, this.dirBits, sortedKeys, m);
      this.tSlots.push(tv);
      this.tDirs.push(dir);
    }
    this.tLen = m;
    this.tabledSlots = m;
  }

  /** Sorts the pending items per table and merges them into the tables from the back. */
  private mergePending(): void {
    const layout = this.layout!;
    const fp = this.fp;
    const pending: number[] = [];
    for (let s = this.tabledSlots; s < this.slots; s++) if (this.slotId[s] >= 0) pending.push(s);
    const p = pending.length;
    const len = this.tLen;
    const newLen = len + p;
    const pk = new Uint32Array(p);
    const pv = Uint32Array.from(pending);
    const sk = new Uint32Array(p);
    const sv = new Uint32Array(p);
    for (let t = 0; t < layout.tables; t++) {
      const mh = layout.keptHi[t];
      const ml = layout.keptLo[t];
      fillKeys(fp, mh, ml, pv, pk, p);
      sortByKey(pk, pv, sk, sv, p);
      let slots = this.tSlots[t];
      if (slots.length < newLen) {
        const ns = new Uint32Array(newLen + (newLen >>> 2) + 16);
        ns.set(slots.subarray(0, len));
        this.tSlots[t] = slots = ns;
      }
      let i = len - 1;
      let j = p - 1;
      let w = newLen - 1;
      let si = i >= 0 ? slots[i] : 0;
      let ki = i >= 0 ? mixKey(fp[2 * si] & mh, fp[2 * si + 1] & ml) : 0;
      while (j >= 0) {
        if (i >= 0 && ki > sk[j]) {
          slots[w] = si;
          i--;
          if (i >= 0) {
            si = slots[i];
            ki = mixKey(fp[2 * si] & mh, fp[2 * si + 1] & ml);
          }
        } else {
          slots[w] = sv[j];
          j--;
        }
        w--;
      }
      fillDir(this.tDirs[t], this.dirBits, slots, fp, mh, ml, newLen);
    }
    this.tLen = newLen;
    this.tabledSlots = this.slots;
  }
}
