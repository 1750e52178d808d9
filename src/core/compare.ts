/**
 * From fingerprints to reported pairs and groups: candidates within a Hamming radius through the
 * permuted-table index, confirmed by the sketches' Jaccard estimate, then clustered.
 */
import { clusterPairs } from './clusters';
import { similarity } from './hamming';
import { allPairsBatch } from './simhashIndex';
import { estimateJaccard } from './simhash';
import type { ItemFingerprint } from './types';

export interface MatchOptions {
  /** Hamming radius (of 64 bits) within which fingerprints are candidates. */
  maxDistance: number;
  /**
   * Candidates must also have an estimated Jaccard similarity of their shingle sets (from the
   * bottom-k sketches) of at least this much. 0 reports every candidate (plain SimHash).
   */
  minSimilarity: number;
  /** Capacity of the items' bottom-k sketches. */
  sketchSize: number;
  /**
   * Stop looking for candidates after this many (default: no limit). Then `truncated` of
   * `info` is set and the result holds only some of the pairs.
   */
  maxPairs?: number;
}

export interface Candidate {
  a: number;
  b: number;
  distance: number;
}

export interface MatchedPair extends Candidate {
  /** 1 − distance/64. */
  similarity: number;
  /** Estimated Jaccard similarity of the two shingle sets. */
  jaccard: number;
}

/**
 * All pairs of items within `maxDistance` that pass verification, each once with a < b.
 * `accept` may veto a pair (e.g. overlapping sections of one file) before verification.
 */
export function matchPairs(
  items: readonly ItemFingerprint[],
  options: MatchOptions,
  accept?: (a: number, b: number) => boolean,
  info?: { truncated: boolean },
): MatchedPair[] {
  if (items.length < 2) return [];
  // Batch all-pairs over the permuted block tables; fingerprints interleaved as (hi, lo).
  const fp = new Uint32Array(items.length * 2);
  for (let i = 0; i < items.length; i++) {
    fp[2 * i] = items[i].hi;
    fp[2 * i + 1] = items[i].lo;
  }
  // Candidates are vetted and verified as the tables find them, so the pair cap counts only
  // pairs that will be reported.
  const { minSimilarity, sketchSize } = options;
  const candidates = allPairsBatch(fp, options.maxDistance, {
    maxPairs: options.maxPairs,
    accept: (a, b) => {
      if (accept && !accept(a, b)) return false;
      return estimateJaccard(items[a].sketch, items[b].sketch, sketchSize) >= minSimilarity;
    },
  });
  if (info && candidates.truncated) info.truncated = true;
  // Ordered by distance, then a, then b: one numeric key per pair, sorted natively
  // ((distance · n + a) · n + b < 65 · n² stays exact in a double for n up to ~10⁷).
  const n = items.length;
  const count = candidates.length;
  const result: MatchedPair[] = new Array(count);
  if (n <= 10_000_000) {
    const keys = new Float64Array(count);
    for (let p = 0; p < count; p++) keys[p] = (candidates.distance[p] * n + candidates.a[p]) * n + candidates.b[p];
    keys.sort();
    for (let p = 0; p < count; p++) {
      const key = keys[p];
      const b = key % n;
      const rest = (key - b) / n;
      const a = rest % n;
      const distance = (rest - a) / n;
      result[p] = matched(items, a, b, distance, sketchSize);
    }
    return result;
  }
  for (let p = 0; p < count; p++) result[p] = matched(items, candidates.a[p], candidates.b[p], candidates.distance[p], sketchSize);
  result.sort((x, y) => x.distance - y.distance || x.a - y.a || x.b - y.b);
  return result;
}

function matched(items: readonly ItemFingerprint[], a: number, b: number, distance: number, sketchSize: number): MatchedPair {
  // The estimate is computed again (the same value) rather than kept from `accept`: cheaper
  // than a map from pairs to estimates.
  const jaccard = estimateJaccard(items[a].sketch, items[b].sketch, sketchSize);
  return { a, b, distance, similarity: similarity(distance), jaccard };
}

/**
 * Connected components of matched pairs, as groups of item numbers: the same groups, in the same
 * order, as {@link clusterPairs} (members ascending; by largest distance, then larger groups
 * first, then first member), with a union–find over dense arrays when the item numbers allow.
 */
export function groupPairs(pairs: readonly Candidate[]): Array<{ members: number[]; maxDistance: number }> {
  let n = 0;
  for (const p of pairs) {
    if (p.a === p.b) continue;
    if (!(Number.isInteger(p.a) && Number.isInteger(p.b) && p.a >= 0 && p.b >= 0)) return clusterPairs(pairs);
    if (p.a >= n) n = p.a + 1;
    if (p.b >= n) n = p.b + 1;
  }
  if (n > 4 * pairs.length + 1024) return clusterPairs(pairs); // sparse numbers
  const parent = new Int32Array(n).fill(-1); // -1: not in any pair
  const size = new Int32Array(n);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      const grand = parent[parent[i]];
      parent[i] = grand; // path halving
      i = grand;
    }
    return i;
  };
  for (const p of pairs) {
    const { a, b } = p;
    if (a === b) continue;
    if (parent[a] < 0) {
      parent[a] = a;
      size[a] = 1;
    }
    if (parent[b] < 0) {
      parent[b] = b;
      size[b] = 1;
    }
    let ra = root(a);
    let rb = root(b);
    if (ra === rb) continue;
    if (size[ra] < size[rb]) {
      const t = ra;
      ra = rb;
      rb = t;
    }
    parent[rb] = ra;
    size[ra] += size[rb];
  }
  const maxAt = new Int32Array(n);
  for (const p of pairs) {
    if (p.a === p.b) continue;
    const r = root(p.a);
    if (p.distance > maxAt[r]) maxAt[r] = p.distance;
  }
  // Members ascending, groups in order of their smallest member: visit the numbers in order.
  const groupOf = new Int32Array(n).fill(-1);
  const groups: Array<{ members: number[]; maxDistance: number }> = [];
  for (let i = 0; i < n; i++) {
    if (parent[i] < 0) continue;
    const r = root(i);
    let g = groupOf[r];
    if (g < 0) {
      g = groupOf[r] = groups.length;
      groups.push({ members: [], maxDistance: maxAt[r] });
    }
    groups[g].members.push(i);
  }
  groups.sort((x, y) => x.maxDistance - y.maxDistance || y.members.length - x.members.length || x.members[0] - y.members[0]);
  return groups;
}
