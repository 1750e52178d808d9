/**
 * The block layout of the permuted tables (see simhashIndex.ts for the scheme): the radius and
 * table caps, the choice of b (`planBlocks`, a cost model), the per-(b, k) masks of kept bits and
 * blocks (`Layout`), the 32-bit key of a table's kept bits (`mixKey`) and the canonical table that
 * reports a pair. Shared by the live index and the all-pairs join.
 */
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

export function binomial(n: number, k: number): number {
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
export function mixKey(x: number, y: number): number {
  let a = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ y;
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return (a ^ (a >>> 16)) >>> 0;
}

/** Block layout for (b blocks, k dropped per table): kept-bit masks and block masks. */
export class Layout {
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
export function layoutFor(blocks: number, drop: number): Layout {
  const id = blocks * 64 + drop;
  let l = layouts.get(id);
  if (!l) layouts.set(id, (l = new Layout(blocks, drop)));
  return l;
}

/**
 * The table that reports a pair: the numerically smallest mask with `drop` bits that contains
 * `mask` (the pair's differing blocks, plus any blocks every probed table drops).
 */
export function canonicalTable(mask: number, drop: number): number {
  let need = drop - popcount32(mask);
  while (need-- > 0) mask |= ~mask & (mask + 1); // add the lowest block not yet in the mask
  return mask;
}

/** Validates a forced number of blocks for radius k: k < blocks ≤ 30, and C(blocks, k) ≤ 10 000. */
export function checkBlocks(blocks: number, k: number): number {
  if (!Number.isInteger(blocks) || blocks <= k || blocks > MAX_BLOCKS || binomial(blocks, k) > 10_000) {
    throw new RangeError(`blocks must be an integer in ${k + 1}..${MAX_BLOCKS} with at most 10000 tables, got ${blocks}`);
  }
  return blocks;
}

export function checkRadius(k: number, max: number): void {
  if (!Number.isInteger(k) || k < 0 || k > max) {
    throw new RangeError(`Hamming radius must be an integer in 0..${max}, got ${k}`);
  }
}
