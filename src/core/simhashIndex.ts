/**
 * Near-duplicate search over 64-bit SimHash fingerprints with permuted block tables, after
 * Manku, Jain and Das Sarma, "Detecting Near-Duplicates for Web Crawling" (WWW 2007).
 *
 * The 64 bits are cut into b > k contiguous blocks (as even as possible; the first 64 mod b
 * blocks, counted from the top bit, are one bit wider). Two fingerprints within Hamming distance
 * k differ in at most k blocks, so they agree exactly on the b − k blocks of at least one of the
 * C(b, k) choices of k blocks to drop. There is one table per choice; its key is the kept blocks
 * concatenated from the top (truncated to 32 bits, which is more than enough to separate 2^32
 * items). A table sorted by key puts every such pair in one run of equal keys, so:
 *
 * - a query looks up its own key in each table (binary search) and checks the full distance of
 *   the few candidates found;
 * - all pairs are found by sorting each table in turn and comparing within runs of equal keys.
 *
 * Each pair is reported once without any set of seen pairs: tables are ordered by their mask of
 * dropped blocks, and a pair is reported only by the table whose mask is the smallest k-set that
 * contains the pair's mask of differing blocks (D plus the lowest blocks not in D). That table
 * always sees the pair, and the rule needs nothing but the two fingerprints.
 *
 * Choice of b: the estimated work of one lookup is Σ over tables (c + n / 2^prefixBits), the
 * per-table cost plus the expected number of random candidates. `planBlocks` takes the b with
 * the least work among those with at most `maxTables` tables (default 64: the batch path holds
 * one table at a time, so more tables cost time, not memory; the live query index holds them all,
 * 8 bytes per item per table). When even the best b would do more work than comparing with every
 * item (large k on few items, or k near 20), a plain linear scan is used instead.
 *
 * Pure: no Node or VS Code APIs, no BigInt; fingerprints are (hi, lo) unsigned 32-bit halves.
 */
import { popcount32 } from './hamming';

/** Largest supported Hamming radius. */
export const MAX_INDEX_DISTANCE = 20;
/** Default cap on the number of tables C(b, k). */
export const DEFAULT_MAX_TABLES = 64;
/** Blocks are tracked in 32-bit masks. More than 30 blocks never pays for k ≤ 20 anyway. */
const MAX_BLOCKS = 30;
/**
 * Per-entry cost of one table in the batch path (key, radix sort, scan), in units of one
 * candidate comparison. Measured: see the numbers in the engineering notes of this module's
 * benchmark; a lookup in the live index costs about 1.
 */
const BATCH_ENTRY_COST = 2;
const QUERY_ENTRY_COST = 1;

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
 * most `maxTables` tables) minimising Σ_tables (entryCost + n / 2^min(prefixBits, 32)); or a
 * linear scan (blocks = 0) when that is cheaper.
 */
export function planBlocks(
  k: number,
  n: number,
  options: { maxTables?: number; entryCost?: number } = {},
): BlockPlan {
  checkRadius(k, MAX_INDEX_DISTANCE);
  const maxTables = options.maxTables ?? DEFAULT_MAX_TABLES;
  const entryCost = options.entryCost ?? QUERY_ENTRY_COST;
  let best: BlockPlan = { blocks: 0, tables: 0, estimatedWork: Math.max(0, n) };
  for (let b = k + 1; b <= MAX_BLOCKS; b++) {
    const tables = binomial(b, k);
    if (tables > maxTables) break;
    const widths = blockWidths(b);
    let work = 0;
    forEachSubset(b, k, (mask) => {
      let prefix = 64;
      for (let j = 0; j < b; j++) if (mask & (1 << j)) prefix -= widths[j];
      work += entryCost + n / 2 ** Math.min(prefix, 32);
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

/** Block layout for (b blocks, k dropped per table): key extraction and block masks. */
class Layout {
  readonly tables: number;
  /** Per table, the mask of dropped blocks; ascending. */
  readonly dropMasks: Int32Array;
  /** Per table, key segments as [half (0 = hi, 1 = lo), shift, mask, width] repeated. */
  readonly segments: Int32Array[];
  /** Per table, bits in the key (the prefix, truncated to 32). */
  readonly keyBits: Uint8Array;
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
    this.keyBits = new Uint8Array(masks.length);
    this.segments = masks.map((mask, t) => {
      const segs: number[] = [];
      const kept = (p: number) => (mask & (1 << blockOfPos[p])) === 0;
      let total = 0;
      let p = 63;
      while (p >= 0 && total < 32) {
        if (!kept(p)) {
          p--;
          continue;
        }
        const half = p >= 32 ? 0 : 1;
        const top = p;
        let len = 0;
        while (p >= 0 && kept(p) && (p >= 32 ? 0 : 1) === half && total + len < 32) {
          len++;
          p--;
        }
        const low = top - len + 1;
        segs.push(half, low - (half === 0 ? 32 : 0), len === 32 ? -1 : (1 << len) - 1, len);
        total += len;
      }
      this.keyBits[t] = total;
      return Int32Array.from(segs);
    });
  }

  /** Key of (hi, lo) in table t: its kept blocks, top first, at most 32 bits. */
  key(t: number, hi: number, lo: number): number {
    const s = this.segments[t];
    let key = 0;
    for (let i = 0; i < s.length; i += 4) {
      key = (key << s[i + 3]) | (((s[i] === 0 ? hi : lo) >>> s[i + 1]) & s[i + 2]);
    }
    return key >>> 0;
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

function checkRadius(k: number, max: number): void {
  if (!Number.isInteger(k) || k < 0 || k > max) {
    throw new RangeError(`Hamming radius must be an integer in 0..${max}, got ${k}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Sorting

/**
 * LSD radix sort of (keys, vals) by the low `bits` bits of keys, for m entries. Uses tmpK/tmpV
 * as the other buffer; returns whichever pair of buffers holds the result.
 */
function radixSort(
  keys: Uint32Array,
  vals: Uint32Array,
  tmpK: Uint32Array,
  tmpV: Uint32Array,
  m: number,
  bits: number,
): [Uint32Array, Uint32Array] {
  if (m < 48) {
    insertionSort(keys, vals, m);
    return [keys, vals];
  }
  const maxDigit = Math.min(16, Math.max(8, 32 - Math.clz32(m)));
  const passes = Math.ceil(bits / maxDigit);
  const w = Math.ceil(bits / passes);
  const radix = 1 << w;
  const mask = radix - 1;
  const hist = histogram(passes * radix);
  hist.fill(0, 0, passes * radix);
  for (let i = 0; i < m; i++) {
    const key = keys[i];
    for (let p = 0, sh = 0; p < passes; p++, sh += w) hist[p * radix + ((key >>> sh) & mask)]++;
  }
  for (let p = 0; p < passes; p++) {
    let sum = 0;
    for (let d = p * radix, end = d + radix; d < end; d++) {
      const c = hist[d];
      hist[d] = sum;
      sum += c;
    }
  }
  let srcK = keys;
  let srcV = vals;
  let dstK = tmpK;
  let dstV = tmpV;
  for (let p = 0, sh = 0; p < passes; p++, sh += w) {
    const base = p * radix;
    for (let i = 0; i < m; i++) {
      const key = srcK[i];
      const at = hist[base + ((key >>> sh) & mask)]++;
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
  return [srcK, srcV];
}

function insertionSort(keys: Uint32Array, vals: Uint32Array, m: number): void {
  for (let i = 1; i < m; i++) {
    const k = keys[i];
    const v = vals[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      vals[j + 1] = vals[j];
      j--;
    }
    keys[j + 1] = k;
    vals[j + 1] = v;
  }
}

let histBuffer = new Uint32Array(0);
function histogram(size: number): Uint32Array {
  if (histBuffer.length < size) histBuffer = new Uint32Array(size);
  return histBuffer;
}

// ---------------------------------------------------------------------------------------------
// Batch all-pairs

/** Pairs of item numbers (a < b) with their distances, in parallel typed arrays. */
export interface PairList {
  readonly length: number;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly distance: Uint8Array;
}

class PairSink implements PairList {
  length = 0;
  a = new Uint32Array(64);
  b = new Uint32Array(64);
  distance = new Uint8Array(64);

  push(x: number, y: number, d: number): void {
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
    const n = this.a.length * 2;
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
    };
  }
}

/** Groups of identical fingerprints: `next` chains each group from its first item (-1 ends). */
interface Duplicates {
  next: Int32Array;
  isDup: Uint8Array;
  distinct: number;
}

function mix(hi: number, lo: number): number {
  let x = lo ^ Math.imul(hi, 0x9e3779b1);
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

/** Slots in the open-addressing table of `findDuplicates`: a power of two ≥ 1.5 n (< 3 n). */
function dedupeCapacity(n: number): number {
  let cap = 16;
  while (cap < n + (n >>> 1)) cap *= 2;
  return cap;
}

/**
 * Finds identical fingerprints with an open-addressing hash table laid in `arena` (which must
 * hold at least dedupeCapacity(n) 32-bit words; its contents are overwritten).
 */
function findDuplicates(hi: Uint32Array, lo: Uint32Array, n: number, arena: ArrayBuffer): Duplicates | null {
  const cap = dedupeCapacity(n);
  const table = new Int32Array(arena, 0, cap);
  table.fill(0);
  const mask = cap - 1;
  let next: Int32Array | null = null;
  let isDup: Uint8Array | null = null;
  let dups = 0;
  for (let i = 0; i < n; i++) {
    const h = hi[i];
    const l = lo[i];
    let p = mix(h, l) & mask;
    for (;;) {
      const e = table[p];
      if (e === 0) {
        table[p] = i + 1;
        break;
      }
      const r = e - 1;
      if (hi[r] === h && lo[r] === l) {
        if (next === null || isDup === null) {
          next = new Int32Array(n).fill(-1);
          isDup = new Uint8Array(n);
        }
        next[i] = next[r];
        next[r] = i;
        isDup[i] = 1;
        dups++;
        break;
      }
      p = (p + 1) & mask;
    }
  }
  return next && isDup ? { next, isDup, distinct: n - dups } : null;
}

/** Emits (x, y, d) for every member of x's group with every member of y's group. */
function emitGroups(sink: PairSink, next: Int32Array, x: number, y: number, d: number): void {
  for (let p = x; p !== -1; p = next[p]) for (let q = y; q !== -1; q = next[q]) sink.push(p, q, d);
}

/**
 * Every pair of items i < j (indices into `hi`/`lo`) whose fingerprints are within Hamming
 * distance k (0..20), each exactly once, in no particular order.
 *
 * Identical fingerprints are first collapsed to one representative (hash table, ~8 bytes per
 * item, freed before the tables), so hundreds of copies cost only their output. Then one table
 * at a time: compute each representative's key, radix-sort (key, item), compare within runs of
 * equal keys, discard. Working memory beyond the inputs and the output is about 16 bytes per
 * item (+5 when there are duplicates).
 */
export function allPairsBatch(
  hi: Uint32Array,
  lo: Uint32Array,
  k: number,
  options: { maxTables?: number } = {},
): PairList {
  checkRadius(k, MAX_INDEX_DISTANCE);
  if (hi.length !== lo.length) throw new RangeError('hi and lo must have the same length');
  const n = hi.length;
  const sink = new PairSink();
  if (n < 2) return sink.result();

  // One arena serves first as the dedupe hash table, then as the four per-table sort buffers.
  const arena = new ArrayBuffer(Math.max(16 * n, 4 * dedupeCapacity(n)));
  const dups = findDuplicates(hi, lo, n, arena);
  const isDup = dups ? dups.isDup : null;
  const next = dups ? dups.next : null;
  const distinct = dups ? dups.distinct : n;

  if (k > 0 && distinct >= 2) {
    const plan = planBlocks(k, distinct, { maxTables: options.maxTables, entryCost: BATCH_ENTRY_COST });
    if (plan.blocks === 0) {
      for (let x = 0; x < n; x++) {
        if (isDup && isDup[x]) continue;
        const hx = hi[x];
        const lx = lo[x];
        for (let y = x + 1; y < n; y++) {
          if (isDup && isDup[y]) continue;
          const d = popcount32(hx ^ hi[y]) + popcount32(lx ^ lo[y]);
          if (d <= k) {
            if (next) emitGroups(sink, next, x, y, d);
            else sink.push(x, y, d);
          }
        }
      }
    } else {
      tablePairs(hi, lo, n, k, layoutFor(plan.blocks, k), isDup, next, distinct, sink, arena);
    }
  }

  if (next && isDup) {
    // Pairs inside each group of identical fingerprints (distance 0).
    const members: number[] = [];
    for (let r = 0; r < n; r++) {
      if (isDup[r] || next[r] === -1) continue;
      members.length = 0;
      for (let p = r; p !== -1; p = next[p]) members.push(p);
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length; j++) sink.push(members[i], members[j], 0);
      }
    }
  }
  return sink.result();
}

function tablePairs(
  hi: Uint32Array,
  lo: Uint32Array,
  n: number,
  k: number,
  layout: Layout,
  isDup: Uint8Array | null,
  next: Int32Array | null,
  m: number,
  sink: PairSink,
  arena: ArrayBuffer,
): void {
  const keys = new Uint32Array(arena, 0, m);
  const vals = new Uint32Array(arena, 4 * m, m);
  const tmpK = new Uint32Array(arena, 8 * m, m);
  const tmpV = new Uint32Array(arena, 12 * m, m);
  for (let t = 0; t < layout.tables; t++) {
    const segs = layout.segments[t];
    const nseg = segs.length;
    let c = 0;
    for (let i = 0; i < n; i++) {
      if (isDup !== null && isDup[i] === 1) continue;
      const h = hi[i];
      const l = lo[i];
      let key = 0;
      for (let s = 0; s < nseg; s += 4) key = (key << segs[s + 3]) | (((segs[s] === 0 ? h : l) >>> segs[s + 1]) & segs[s + 2]);
      keys[c] = key >>> 0;
      vals[c] = i;
      c++;
    }
    const [sk, sv] = radixSort(keys, vals, tmpK, tmpV, m, layout.keyBits[t]);
    const dropMask = layout.dropMasks[t];
    let i = 0;
    while (i < m) {
      const key = sk[i];
      let j = i + 1;
      while (j < m && sk[j] === key) j++;
      for (let x = i; x < j - 1; x++) {
        const ix = sv[x];
        const hx = hi[ix];
        const lx = lo[ix];
        for (let y = x + 1; y < j; y++) {
          const iy = sv[y];
          const dh = hx ^ hi[iy];
          const dl = lx ^ lo[iy];
          const d = popcount32(dh) + popcount32(dl);
          if (d <= k && canonicalTable(layout.diffMask(dh, dl), k) === dropMask) {
            if (next !== null) emitGroups(sink, next, ix, iy, d);
            else sink.push(ix, iy, d);
          }
        }
      }
      i = j;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Live index

export interface SimHashIndexOptions {
  /** Largest radius that `query` and `allPairs` accept, 0..20. */
  maxDistance: number;
  /** Expected number of items; chooses the table layout (default: the size at first query). */
  expectedSize?: number;
  /** Cap on the number of tables (default 64). */
  maxTables?: number;
}

/**
 * A mutable set of (id, fingerprint) items answering "which items are within distance k of this
 * fingerprint" and "which pairs of items are within distance k".
 *
 * Storage: fingerprints in slot arrays (12 bytes per item) and a Map from id to slot. The query
 * tables (8 bytes per item per table) are built on the first `query`, not before: a caller that
 * only wants `allPairs` never pays for them.
 *
 * Updates: an added item goes to a pending range of slots that every query scans linearly; when
 * it grows past √(items × tables) (≥ 64), the pending items are radix-sorted per table and
 * merged into the sorted tables from the back, in place (O(items) per table per merge, so
 * O(√(items × tables)) amortised per add, and never more than that many extra comparisons per
 * query). When the pending part is over half the tables, or the item count has doubled since the
 * layout was chosen, the tables are rebuilt from scratch (re-choosing b). Removed items are
 * tombstones, skipped by queries and dropped by a compaction once they are a quarter of all slots.
 */
export class SimHashIndex {
  readonly maxDistance: number;
  private readonly expectedSize: number;
  private readonly maxTables: number;

  // Fingerprint store, by slot; slotId[s] = -1 for a removed item.
  private fpHi = new Uint32Array(16);
  private fpLo = new Uint32Array(16);
  private slotId = new Int32Array(16);
  private slots = 0;
  private dead = 0;
  private live = 0;
  private readonly slotOf = new Map<number, number>();

  // Query tables. Slots [0, tabledSlots) are in the tables; [tabledSlots, slots) are pending.
  private built = false;
  private plannedFor = 0;
  private layout: Layout | null = null; // null: linear scan
  private tKeys: Uint32Array[] = [];
  private tSlots: Uint32Array[] = [];
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
  }

  /** Number of items. */
  get size(): number {
    return this.live;
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
    if (this.slots === this.fpHi.length) {
      if (this.dead * 4 >= this.slots) this.compact();
      if (this.slots === this.fpHi.length) this.growStore();
    }
    const s = this.slots++;
    this.fpHi[s] = hi >>> 0;
    this.fpLo[s] = lo >>> 0;
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
   * Every item within Hamming distance k (0..maxDistance) of (hi, lo), each once, sorted by
   * distance then id.
   */
  query(hi: number, lo: number, k: number = this.maxDistance): Array<{ id: number; distance: number }> {
    checkRadius(k, this.maxDistance);
    hi >>>= 0;
    lo >>>= 0;
    const out: Array<{ id: number; distance: number }> = [];
    if (this.live === 0) return out;
    this.maintain();
    const { fpHi, fpLo, slotId } = this;
    const layout = this.layout;
    let from = 0;
    if (layout !== null) {
      // With k < maxDistance, only the tables that drop a fixed set F of (maxDistance − k)
      // blocks are needed: any ≤ k differing blocks plus F fit in one of them.
      const K = this.maxDistance;
      const fixed = K - k;
      const F = fixed === 0 ? 0 : ((1 << fixed) - 1) << (layout.blocks - fixed);
      const len = this.tLen;
      for (let t = 0; t < layout.tables; t++) {
        const drop = layout.dropMasks[t];
        if ((drop & F) !== F) continue;
        const key = layout.key(t, hi, lo);
        const keys = this.tKeys[t];
        const slots = this.tSlots[t];
        let a = 0;
        let b = len;
        while (a < b) {
          const mid = (a + b) >>> 1;
          if (keys[mid] < key) a = mid + 1;
          else b = mid;
        }
        for (let i = a; i < len && keys[i] === key; i++) {
          const s = slots[i];
          const id = slotId[s];
          if (id < 0) continue;
          const dh = hi ^ fpHi[s];
          const dl = lo ^ fpLo[s];
          const d = popcount32(dh) + popcount32(dl);
          if (d <= k && canonicalTable(layout.diffMask(dh, dl) | F, K) === drop) out.push({ id, distance: d });
        }
      }
      from = this.tabledSlots;
    }
    for (let s = from; s < this.slots; s++) {
      const id = slotId[s];
      if (id < 0) continue;
      const d = popcount32(hi ^ fpHi[s]) + popcount32(lo ^ fpLo[s]);
      if (d <= k) out.push({ id, distance: d });
    }
    out.sort((x, y) => x.distance - y.distance || x.id - y.id);
    return out;
  }

  /**
   * Every unordered pair of items within Hamming distance k (0..maxDistance), each once with
   * a < b, sorted by distance, then a, then b. Uses the batch path (`allPairsBatch`): one table
   * at a time, independent of the query tables.
   */
  allPairs(k: number = this.maxDistance): Array<{ a: number; b: number; distance: number }> {
    checkRadius(k, this.maxDistance);
    if (this.live < 2) return [];
    if (this.dead > 0) this.compact();
    const n = this.slots;
    const list = allPairsBatch(this.fpHi.subarray(0, n), this.fpLo.subarray(0, n), k, {
      maxTables: this.maxTables,
    });
    const ids = this.slotId;
    const out = new Array<{ a: number; b: number; distance: number }>(list.length);
    for (let i = 0; i < list.length; i++) {
      const x = ids[list.a[i]];
      const y = ids[list.b[i]];
      out[i] = x < y ? { a: x, b: y, distance: list.distance[i] } : { a: y, b: x, distance: list.distance[i] };
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
    this.tKeys = [];
    this.tSlots = [];
    this.tLen = 0;
    this.tabledSlots = 0;
  }

  private growStore(): void {
    const n = this.fpHi.length * 2;
    const h = new Uint32Array(n);
    h.set(this.fpHi);
    this.fpHi = h;
    const l = new Uint32Array(n);
    l.set(this.fpLo);
    this.fpLo = l;
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
    const { fpHi, fpLo, slotId, slotOf } = this;
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
        fpHi[w] = fpHi[s];
        fpLo[w] = fpLo[s];
        slotId[w] = id;
        slotOf.set(id, w);
      }
      remap[s] = w++;
      if (s < this.tabledSlots) tabled++;
    }
    for (let t = 0; t < this.tKeys.length; t++) {
      const keys = this.tKeys[t];
      const slots = this.tSlots[t];
      let c = 0;
      for (let i = 0; i < this.tLen; i++) {
        const ns = remap[slots[i]];
        if (ns < 0) continue;
        keys[c] = keys[i];
        slots[c] = ns;
        c++;
      }
    }
    if (this.tKeys.length > 0) this.tLen = tabled;
    this.slots = w;
    this.tabledSlots = tabled;
    this.dead = 0;
  }

  /** Re-chooses the layout for the current size and builds every table from scratch. */
  private rebuild(): void {
    this.compact();
    this.built = true;
    this.plannedFor = Math.max(this.expectedSize, this.live);
    const plan = planBlocks(this.maxDistance, this.plannedFor, { maxTables: this.maxTables });
    this.tKeys = [];
    this.tSlots = [];
    if (plan.blocks === 0) {
      this.layout = null;
      this.tLen = 0;
      this.tabledSlots = 0;
      return;
    }
    const layout = layoutFor(plan.blocks, this.maxDistance);
    this.layout = layout;
    const m = this.slots; // all live after compact()
    const cap = m + (m >>> 2) + 16;
    const keys = new Uint32Array(m);
    const vals = new Uint32Array(m);
    for (let t = 0; t < layout.tables; t++) {
      for (let s = 0; s < m; s++) {
        keys[s] = layout.key(t, this.fpHi[s], this.fpLo[s]);
        vals[s] = s;
      }
      const tk = new Uint32Array(cap);
      const tv = new Uint32Array(cap);
      const [sk, sv] = radixSort(keys, vals, tk, tv, m, layout.keyBits[t]);
      if (sk !== tk) {
        tk.set(sk.subarray(0, m));
        tv.set(sv.subarray(0, m));
      }
      this.tKeys.push(tk);
      this.tSlots.push(tv);
    }
    this.tLen = m;
    this.tabledSlots = m;
  }

  /** Sorts the pending items per table and merges them into the tables from the back. */
  private mergePending(): void {
    const layout = this.layout!;
    const pending: number[] = [];
    for (let s = this.tabledSlots; s < this.slots; s++) if (this.slotId[s] >= 0) pending.push(s);
    const p = pending.length;
    const len = this.tLen;
    const newLen = len + p;
    const pk = new Uint32Array(p);
    const pv = new Uint32Array(p);
    const tk = new Uint32Array(p);
    const tv = new Uint32Array(p);
    for (let t = 0; t < layout.tables; t++) {
      for (let i = 0; i < p; i++) {
        const s = pending[i];
        pk[i] = layout.key(t, this.fpHi[s], this.fpLo[s]);
        pv[i] = s;
      }
      const [sk, sv] = radixSort(pk, pv, tk, tv, p, layout.keyBits[t]);
      let keys = this.tKeys[t];
      let slots = this.tSlots[t];
      if (keys.length < newLen) {
        const cap = newLen + (newLen >>> 2) + 16;
        const nk = new Uint32Array(cap);
        nk.set(keys.subarray(0, len));
        const ns = new Uint32Array(cap);
        ns.set(slots.subarray(0, len));
        this.tKeys[t] = keys = nk;
        this.tSlots[t] = slots = ns;
      }
      let i = len - 1;
      let j = p - 1;
      let w = newLen - 1;
      while (j >= 0) {
        if (i >= 0 && keys[i] > sk[j]) {
          keys[w] = keys[i];
          slots[w] = slots[i];
          i--;
        } else {
          keys[w] = sk[j];
          slots[w] = sv[j];
          j--;
        }
        w--;
      }
    }
    this.tLen = newLen;
    this.tabledSlots = this.slots;
  }
}
