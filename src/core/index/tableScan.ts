/**
 * The TypeScript all-pairs search over the permuted tables, without storing them: level-1
 * counting sorts by one block, level-2 chained hashes by a table's key, copies collapsed early.
 * Run by allPairsBatch (allPairs.ts): matchPairList takes the native kernel's candidates instead
 * when it has the kernel and the kernel answers.
 */
import { canonicalTable, Layout, mixKey } from './blockLayout';
import { popcount32 } from './hamming';
import { counters, prefixSums } from './keySort';
import type { PairSink } from './pairSink';

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
export class TableScan {
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
