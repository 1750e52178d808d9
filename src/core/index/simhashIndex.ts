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
 * index: add, remove, query).
 *
 * Pure: no Node or VS Code APIs, no BigInt; fingerprints are (hi, lo) unsigned 32-bit halves.
 */
import { allPairsBatch } from './allPairs';
import { canonicalTable, checkBlocks, checkRadius, DEFAULT_MAX_TABLES, Layout, layoutFor, MAX_INDEX_DISTANCE, mixKey, planBlocks } from './blockLayout';
import { popcount32 } from './hamming';
import { sortByKey } from './keySort';
import { permutedCost, substringCost, SubstringTables } from './substringIndex';

/** Fewest items for which the substring tables (4 × 65,537 bucket bounds, 1 MB) are considered. */
const SUBSTRING_MIN_ITEMS = 8192;

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
  // Substring tables (substringIndex.ts) over slots [0, sub.size), built on the first query they
  // win (large k on many items); dropped when slots are renumbered.
  private sub: SubstringTables | null = null;

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

  // -------------------------------------------------------------------------------------------

  private reset(): void {
    this.sub = null;
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
    this.sub = null;
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
