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
 * - `allPairsBatch` (and `SimHashIndex.allPairs`): the tables are never stored; see tableScan.ts.
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
 * Parts: blockLayout.ts (b, masks, keys, canonical tables), keySort.ts (sorting a table by key),
 * allPairs.ts with tableScan.ts and pairSink.ts (the batch all-pairs join), and this file (the live
 * index: add, remove, query) with queryTables.ts (its store and query tables: built, merged,
 * compacted).
 *
 * Pure: no Node or VS Code APIs, no BigInt; fingerprints are (hi, lo) unsigned 32-bit halves.
 */
import { allPairsBatch } from './allPairs';
import { canonicalTable, checkRadius, Layout, mixKey } from './blockLayout';
import { popcount32 } from './hamming';
import { QueryTables } from './queryTables';
import { permutedCost, substringCost, SubstringTables } from './substringIndex';

export type { SimHashIndexOptions } from './queryTables';

/** Fewest items for which the substring tables (4 × 65,537 bucket bounds, 1 MB) are considered. */
const SUBSTRING_MIN_ITEMS = 8192;

/** The live index: add, remove, query, allPairs; its store and query tables kept by QueryTables (queryTables.ts). */
export class SimHashIndex extends QueryTables {
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
    if (this.substringsWin(k)) {
      const sub = this.substringTables();
      for (let q = 0; q < m; q++) {
        const out = outs[q];
        sub.query(fp, his[q], los[q], k, (s, distance) => {
          const id = slotId[s];
          if (id >= 0) out.push({ id, distance });
        });
      }
      from = sub.size;
    } else if (layout !== null) {
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

  /** Whether the substring tables are estimated cheaper than the permuted tables (or a scan) for k. */
  private substringsWin(k: number): boolean {
    const n = this.slots;
    if (n < SUBSTRING_MIN_ITEMS || this.forcedBlocks !== undefined) return false;
    const layout = this.layout;
    let current = n;
    if (layout !== null) {
      const fixed = this.maxDistance - k;
      const F = fixed === 0 ? 0 : ((1 << fixed) - 1) << (layout.blocks - fixed);
      const kept: number[] = [];
      for (let t = 0; t < layout.tables; t++) {
        if ((layout.dropMasks[t] & F) === F) kept.push(popcount32(layout.keptHi[t]) + popcount32(layout.keptLo[t]));
      }
      current = permutedCost(kept, n);
    }
    // A margin of 2: per candidate the substring path costs more (a callback, the canonical
    // check); k = 3 on 100k items was 3.5 → 5.3 µs a query without it (bench/index).
    return 2 * substringCost(k, n) < current;
  }

  /** The substring tables, (re)built when missing or when too many slots were added since. */
  private substringTables(): SubstringTables {
    const sub = this.sub;
    if (sub !== null && this.slots - sub.size <= Math.max(256, Math.sqrt(64 * sub.size))) return sub;
    if (this.dead > 0) this.compact();
    return (this.sub = new SubstringTables(this.fp, this.slots));
  }

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
}
