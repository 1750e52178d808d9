/**
 * The store of a SimHashIndex and its query tables (QueryTables, the class SimHashIndex extends):
 * fingerprints by slot, removed items compacted away, and the permuted tables built, merged with
 * the items added since and kept up to date before a query (simhashIndex.ts has the scheme, the
 * queries and the public API).
 */
import { checkBlocks, checkRadius, DEFAULT_MAX_TABLES, Layout, layoutFor, MAX_INDEX_DISTANCE, mixKey, planBlocks } from './blockLayout';
import { sortByKey } from './keySort';
import type { SubstringTables } from './substringIndex';

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

/** The store and the query tables of a SimHashIndex (simhashIndex.ts): its fields, and the upkeep of both. */
export abstract class QueryTables {
  readonly maxDistance: number;
  private readonly expectedSize: number;
  private readonly maxTables: number;
  private readonly maxTableBytes: number;
  protected readonly forcedBlocks: number | undefined;

  // Fingerprint store by slot: fp[2s] = hi, fp[2s+1] = lo; slotId[s] = -1 for a removed item.
  protected fp = new Uint32Array(32);
  protected slotId = new Int32Array(16);
  protected slots = 0;
  protected dead = 0;
  protected live = 0;
  protected readonly slotOf = new Map<number, number>();

  // Query tables. Slots [0, tabledSlots) are in the tables; [tabledSlots, slots) are pending.
  private built = false;
  private plannedFor = 0;
  protected layout: Layout | null = null; // null: linear scan
  protected tSlots: Uint32Array[] = [];
  protected tDirs: Uint32Array[] = [];
  protected dirBits = 1;
  private tLen = 0;
  protected tabledSlots = 0;
  // Substring tables (substringIndex.ts) over slots [0, sub.size), built on the first query they
  // win (large k on many items); dropped when slots are renumbered.
  protected sub: SubstringTables | null = null;

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

  protected reset(): void {
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

  protected growStore(): void {
    const n = this.slotId.length * 2;
    const fp = new Uint32Array(2 * n);
    fp.set(this.fp);
    this.fp = fp;
    const ids = new Int32Array(n);
    ids.set(this.slotId);
    this.slotId = ids;
  }

  /** Brings the tables up to date before a query. */
  protected maintain(): void {
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
  protected compact(): void {
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
