/**
 * Multi-index hashing for the live query index (after Norouzi, Punjani and Fleet, "Fast Search
 * in Hamming Space with Multi-Index Hashing", CVPR 2012): the 64 bits are cut into four 16-bit
 * substrings, each with a bucket table of all 65,536 values (counting sort: slots grouped by the
 * substring's value, 4 bytes per item per substring). Two fingerprints within distance k differ
 * in substring i by at most r_i for some i whenever Σ (r_i + 1) > k (pigeonhole), so a query
 * probes, in each substring, every value within r_i of its own, and checks the full distance.
 *
 * Against the permuted tables (simhashIndex.ts) this wins for large k on many items: k = 10 on
 * 250k sections needs 11 tables keyed on ≈ 6 bits (≈ n / 64 candidates each) under the 64-table
 * cap, but here 428 probes of buckets of ≈ n / 65,536 items. `substringCost` and
 * `permutedCost` estimate both; the index takes the cheaper.
 *
 * Each match is reported once: only by the first substring i whose difference is ≤ r_i.
 *
 * Pure: no Node or VS Code APIs; fingerprints are (hi, lo) unsigned 32-bit halves.
 */
import { binomial } from './blockLayout';
import { popcount32 } from './hamming';

const SUBSTRINGS = 4;
/** Fixed cost of one probe, in candidate checks (reading a bucket's bounds). */
const PROBE_COST = 2;

/** The radii r_0..r_3 for distance k: Σ (r_i + 1) > k, as even as possible. */
export function substringRadii(k: number): number[] {
  const total = Math.max(0, k - SUBSTRINGS + 1);
  const r: number[] = [];
  for (let i = 0; i < SUBSTRINGS; i++) r.push(Math.floor(total / SUBSTRINGS) + (i < total % SUBSTRINGS ? 1 : 0));
  return r;
}

function probesFor(r: number): number {
  let p = 0;
  for (let j = 0; j <= Math.min(16, r); j++) p += binomial(16, j);
  return p;
}

/** Estimated work of one query at distance k over n items. */
export function substringCost(k: number, n: number): number {
  let probes = 0;
  for (const r of substringRadii(k)) probes += probesFor(r);
  return probes * (PROBE_COST + n / 65536);
}

/** Estimated work of one query on permuted tables: per table, a fixed cost plus n / 2^keptBits. */
export function permutedCost(keptBits: ArrayLike<number>, n: number): number {
  let w = 0;
  for (let t = 0; t < keptBits.length; t++) w += PROBE_COST + n / Math.pow(2, keptBits[t]);
  return w;
}

/** The 16-bit masks of popcount ≤ r, by popcount (cached). */
const maskCache: Uint16Array[] = [];
function masksWithin(r: number): Uint16Array {
  let m = maskCache[r];
  if (m === undefined) {
    const list: number[] = [];
    for (let w = 0; w <= r; w++) for (let v = 0; v < 65536; v++) if (popcount32(v) === w) list.push(v);
    m = maskCache[r] = Uint16Array.from(list);
  }
  return m;
}

/** The value of substring i (0: top 16 bits of hi … 3: low 16 bits of lo). */
function part(i: number, hi: number, lo: number): number {
  const w = i < 2 ? hi : lo;
  return (i & 1) === 0 ? w >>> 16 : w & 0xffff;
}

/** Bucket tables over the fingerprints of slots [0, size) of a store fp (fp[2s] = hi, fp[2s+1] = lo). */
export class SubstringTables {
  readonly size: number;
  private readonly starts: Uint32Array[] = [];
  private readonly slots: Uint32Array[] = [];

  constructor(fp: Uint32Array, size: number) {
    this.size = size;
    for (let i = 0; i < SUBSTRINGS; i++) {
      const start = new Uint32Array(65537);
      for (let s = 0; s < size; s++) start[part(i, fp[2 * s], fp[2 * s + 1]) + 1]++;
      for (let v = 0; v < 65536; v++) start[v + 1] += start[v];
      const fill = start.slice(0, 65536);
      const slots = new Uint32Array(size);
      for (let s = 0; s < size; s++) slots[fill[part(i, fp[2 * s], fp[2 * s + 1])]++] = s;
      this.starts.push(start);
      this.slots.push(slots);
    }
  }

  /**
   * Calls found(slot, distance) once for every slot s < size with distance(fp[s], (hi, lo)) ≤ k;
   * fp must be the store the tables were built from (slots may since be marked removed: the
   * caller filters them).
   */
  query(fp: Uint32Array, hi: number, lo: number, k: number, found: (slot: number, distance: number) => void): void {
    const radii = substringRadii(k);
    for (let i = 0; i < SUBSTRINGS; i++) {
      const masks = masksWithin(radii[i]);
      const start = this.starts[i];
      const slots = this.slots[i];
      const v = part(i, hi, lo);
      for (let e = 0; e < masks.length; e++) {
        const b = v ^ masks[e];
        const end = start[b + 1];
        for (let j = start[b]; j < end; j++) {
          const s = slots[j];
          const dh = hi ^ fp[2 * s];
          const dl = lo ^ fp[2 * s + 1];
          const d = popcount32(dh) + popcount32(dl);
          if (d > k) continue;
          // Canonical substring: the first whose difference is within its radius.
          let first = 0;
          while (first < i && popcount32(part(first, dh, dl)) > radii[first]) first++;
          if (first === i) found(s, d);
        }
      }
    }
  }
}
