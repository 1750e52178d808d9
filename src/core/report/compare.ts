/**
 * From fingerprints to reported pairs and groups: candidates within a Hamming radius through the
 * permuted-table index, confirmed by the sketches' Jaccard estimate, then clustered.
 */
import type { CodeKernel } from '../types';
import { clusterPairs } from './clusters';
import { similarity } from '../index/hamming';
import { allPairsBatch, checkMaxPairs, nativeCandidates, NATIVE_MAX_CANDIDATES } from '../index/allPairs';
import { estimateJaccard } from '../fingerprint/simhash';
import type { ItemFingerprint, SketchPlace } from '../types';

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
  /** The native kernel's pair search (same pairs); not sent between threads. */
  kernel?: Pick<CodeKernel, 'allPairs' | 'allPairsVetted' | 'sortPairs'>;
  /** Threads the kernel's search may take, this one included (default 1; the same pairs). */
  threads?: number;
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

/** Pairs as parallel arrays: pair p is (a[p], b[p]) at distance[p], with a < b. */
export interface PairArrays {
  length: number;
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
}

/** The pairs of {@link matchPairList}, and whether the cap was reached. */
export interface MatchedList extends PairArrays {
  truncated: boolean;
}

/**
 * `accept` as data, for a kernel that vets the candidates itself (CodeKernel.allPairsVetted): two
 * items of one document only when their lines do not overlap, never two documents of one copy
 * class (copyOf per document, -1: none). It must say what `accept` says.
 */
export interface KernelVetting {
  docOf: Int32Array;
  startOf: Int32Array;
  endOf: Int32Array;
  copyOf: Int32Array | null;
  /**
   * Pairs of documents left out besides (two files the report already pairs): asked of the
   * kernel's vetted pairs in their order, before the maxPairs cut, so the same pairs as `accept`'s.
   */
  skipDocs?: (docA: number, docB: number) => boolean;
  /** The same pairs as data ((docA, docB) pairs), left out by the kernel itself as it vets. */
  skipPairs?: Int32Array;
}

/**
 * All pairs of items within `maxDistance` that pass verification, each once with a < b, ordered
 * by distance, then a, then b. `accept` may veto a pair (e.g. overlapping sections of one file)
 * before verification; `vetting`, the same rule as data, lets a kernel that can vet the
 * candidates itself (allPairsVetted) do both. As arrays: no object per pair.
 */
export function matchPairList(
  items: readonly ItemFingerprint[],
  options: MatchOptions,
  accept?: (a: number, b: number) => boolean,
  vetting?: KernelVetting,
): MatchedList {
  const n = items.length;
  if (n < 2) return { length: 0, a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), truncated: false };
  // Batch all-pairs over the permuted block tables; fingerprints interleaved as (hi, lo).
  const fp = new Uint32Array(n * 2);
  for (let i = 0; i < n; i++) {
    fp[2 * i] = items[i].hi;
    fp[2 * i + 1] = items[i].lo;
  }
  // Candidates are vetted and verified as the tables find them, so the pair cap counts only
  // pairs that will be reported.
  const { minSimilarity, sketchSize } = options;
  // Without a rule (e.g. a report's files), the kernel vets by the sketches alone: every item its
  // own document, no copy classes.
  const vet = vetting ?? (accept ? undefined : noRule(n));
  if (vet && options.kernel?.allPairsVetted && n >= 2) {
    const vetted = kernelVetted(items, fp, options, vet);
    if (vetted) return vetted;
  }
  const native = options.kernel ? nativeCandidates(fp, options.maxDistance, options.kernel, options.threads) : null;
  if (native) {
    // The kernel's candidates, vetted and verified in this one loop, in its order (the pairs and
    // the cap's cut of allPairsBatch's filters over them: test/unit/helpers/kernelAllPairs.ts),
    // not through a chain of calls per candidate: in a scan this runs once, mostly before V8 has
    // compiled it.
    const maxPairs = checkMaxPairs(options.maxPairs ?? Infinity);
    const { a: ca, b: cb, distance: cd } = native;
    const keep = new Uint8Array(ca.length);
    let kept = 0;
    let truncated = false;
    for (let p = 0; p < ca.length; p++) {
      const x = ca[p];
      const y = cb[p];
      if ((accept && !accept(x, y)) || estimateJaccard(items[x].sketch, items[y].sketch, sketchSize) < minSimilarity) continue;
      if (kept === maxPairs) {
        truncated = true;
        break;
      }
      keep[p] = 1;
      kept++;
    }
    const a = new Uint32Array(kept);
    const b = new Uint32Array(kept);
    const distance = new Uint8Array(kept);
    for (let p = 0, q = 0; q < kept; p++) {
      if (keep[p] === 0) continue;
      a[q] = ca[p];
      b[q] = cb[p];
      distance[q++] = cd[p];
    }
    return orderPairList({ length: kept, a, b, distance, truncated }, n, options.kernel);
  }
  // No kernel, or it gave up (more candidates than it holds): the TypeScript search.
  const found = allPairsBatch(fp, options.maxDistance, {
    maxPairs: options.maxPairs,
    accept: (a, b) => {
      if (accept && !accept(a, b)) return false;
      return estimateJaccard(items[a].sketch, items[b].sketch, sketchSize) >= minSimilarity;
    },
  });
  return orderPairList(found, n, options.kernel);
}

/** A vetting that passes every pair its sketches pass: each item a document of its own. */
function noRule(n: number): KernelVetting {
  const docOf = new Int32Array(n);
  for (let i = 0; i < n; i++) docOf[i] = i;
  const lines = new Int32Array(n);
  return { docOf, startOf: lines, endOf: lines, copyOf: null };
}

/**
 * matchPairList by the kernel's vetted search: the candidates it keeps, in its order, cut at
 * maxPairs (`truncated` when one more was kept); null when it declines (too many candidates).
 */
function kernelVetted(items: readonly ItemFingerprint[], fp: Uint32Array, options: MatchOptions, v: KernelVetting): MatchedList | null {
  const n = items.length;
  const { sketches, offsets } = sketchesOf(items);
  let found = options.kernel!.allPairsVetted!(
    fp,
    options.maxDistance,
    NATIVE_MAX_CANDIDATES,
    options.threads ?? 1,
    sketches,
    offsets,
    options.sketchSize,
    options.minSimilarity,
    v.docOf,
    v.startOf,
    v.endOf,
    v.copyOf,
    v.skipPairs ?? null,
  );
  if (!found) return null;
  if (v.skipDocs && !v.skipPairs) found = keptPairs(found, (x, y) => !v.skipDocs!(v.docOf[x], v.docOf[y]));
  const maxPairs = checkMaxPairs(options.maxPairs ?? Infinity);
  const kept = Math.min(found.a.length, maxPairs);
  const cut = kept < found.a.length;
  return orderPairList({ length: kept, a: cut ? found.a.subarray(0, kept) : found.a, b: cut ? found.b.subarray(0, kept) : found.b, distance: cut ? found.distance.subarray(0, kept) : found.distance, truncated: cut }, n, options.kernel);
}

/**
 * The items' sketches as allPairsVetted takes them: the views of the few buffers they lie in (a
 * scan's items are views of its batches' words: the large tree's 55,000 sections' 13 MB lie in 81
 * buffers, and copying them cost ~50 ms), with each item's (view, offset, length); else (items
 * with sketches of their own) one array they are copied into, with n + 1 offsets.
 */
function sketchesOf(items: readonly ItemFingerprint[]): { sketches: Uint32Array | Uint32Array[]; offsets: Uint32Array } {
  const n = items.length;
  const maxViews = Math.max(64, n >>> 4);
  const views: Uint32Array[] = [];
  const viewOf = new Map<ArrayBufferLike, number>();
  const at = new Uint32Array(3 * n);
  for (let i = 0; i < n; i++) {
    // (an item of a native batch says where its sketch lies: no view made for it)
    const item = items[i] as ItemFingerprint & Partial<SketchPlace>;
    const words = item.sketchWords;
    const s = words ?? item.sketch;
    let v = viewOf.get(s.buffer);
    if (v === undefined) {
      if (views.length === maxViews) return copiedSketches(items);
      viewOf.set(s.buffer, (v = views.length));
      views.push(new Uint32Array(s.buffer, 0, s.buffer.byteLength >>> 2));
    }
    at[3 * i] = v;
    at[3 * i + 1] = (s.byteOffset >>> 2) + (words ? item.sketchAt! : 0);
    at[3 * i + 2] = words ? item.sketchLength! : s.length;
  }
  return { sketches: views, offsets: at };
}

function copiedSketches(items: readonly ItemFingerprint[]): { sketches: Uint32Array; offsets: Uint32Array } {
  const n = items.length;
  const offsets = new Uint32Array(n + 1);
  let words = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = words;
    words += items[i].sketch.length;
  }
  offsets[n] = words;
  const sketches = new Uint32Array(words);
  for (let i = 0; i < n; i++) sketches.set(items[i].sketch, offsets[i]);
  return { sketches, offsets };
}

/** The pairs `keep` keeps, in their order (the same arrays, compacted: the kernel's, ours). */
function keptPairs<T extends { a: Uint32Array; b: Uint32Array; distance: Uint8Array }>(found: T, keep: (a: number, b: number) => boolean): T {
  const { a, b, distance } = found;
  let kept = 0;
  for (let p = 0; p < a.length; p++) {
    if (!keep(a[p], b[p])) continue;
    a[kept] = a[p];
    b[kept] = b[p];
    distance[kept++] = distance[p];
  }
  return kept === a.length ? found : { ...found, a: a.subarray(0, kept), b: b.subarray(0, kept), distance: distance.subarray(0, kept) };
}

/**
 * The pairs of `found` (items numbered below n, a < b) ordered by distance, then a, then b, in new
 * arrays: the order of {@link matchPairList}, whatever order they were found in.
 */
export function orderPairList(found: PairArrays & { truncated: boolean }, n: number, kernel?: Pick<CodeKernel, 'sortPairs'>): MatchedList {
  const count = found.length;
  if (kernel?.sortPairs && count > 1) {
    // In the kernel: a radix sort of one integer key per pair, not a comparison sort of doubles.
    const sorted = { length: count, a: found.a.slice(0, count), b: found.b.slice(0, count), distance: found.distance.slice(0, count), truncated: found.truncated };
    if (kernel.sortPairs(sorted.a, sorted.b, sorted.distance, n)) return sorted;
  }
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const distance = new Uint8Array(count);
  if (n <= 10_000_000) {
    // One numeric key per pair, sorted natively: (distance · n + a) · n + b < 65 · n² stays exact
    // in a double for n up to ~10⁷.
    const keys = new Float64Array(count);
    for (let p = 0; p < count; p++) keys[p] = (found.distance[p] * n + found.a[p]) * n + found.b[p];
    keys.sort();
    for (let p = 0; p < count; p++) {
      const key = keys[p];
      const y = key % n;
      const rest = (key - y) / n;
      const x = rest % n;
      a[p] = x;
      b[p] = y;
      distance[p] = (rest - x) / n;
    }
  } else {
    const order = Array.from({ length: count }, (_, p) => p);
    order.sort((x, y) => found.distance[x] - found.distance[y] || found.a[x] - found.a[y] || found.b[x] - found.b[y]);
    for (let p = 0; p < count; p++) {
      a[p] = found.a[order[p]];
      b[p] = found.b[order[p]];
      distance[p] = found.distance[order[p]];
    }
  }
  return { length: count, a, b, distance, truncated: found.truncated };
}

/**
 * {@link matchPairList} as objects, with each pair's similarity and estimated Jaccard similarity.
 */
export function matchPairs(
  items: readonly ItemFingerprint[],
  options: MatchOptions,
  accept?: (a: number, b: number) => boolean,
  info?: { truncated: boolean },
): MatchedPair[] {
  const list = matchPairList(items, options, accept);
  if (info && list.truncated) info.truncated = true;
  const result: MatchedPair[] = new Array(list.length);
  for (let p = 0; p < list.length; p++) {
    const a = list.a[p];
    const b = list.b[p];
    const distance = list.distance[p];
    const jaccard = estimateJaccard(items[a].sketch, items[b].sketch, options.sketchSize);
    result[p] = { a, b, distance, similarity: similarity(distance), jaccard };
  }
  return result;
}

/**
 * Connected components of matched pairs, as groups of item numbers: the same groups, in the same
 * order, as {@link clusterPairs} (members ascending; by largest distance, then larger groups
 * first, then first member).
 */
export function groupPairs(pairs: readonly Candidate[]): Array<{ members: number[]; maxDistance: number }> {
  const n = pairs.length;
  const list: PairArrays = { length: n, a: new Uint32Array(n), b: new Uint32Array(n), distance: new Uint8Array(n) };
  for (let p = 0; p < n; p++) {
    const { a, b, distance } = pairs[p];
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a <= 0xffffffff && b <= 0xffffffff && Number.isInteger(distance) && distance >= 0 && distance <= 255)) {
      return clusterPairs(pairs);
    }
    list.a[p] = a;
    list.b[p] = b;
    list.distance[p] = distance;
  }
  return groupPairList(list);
}

/** {@link groupPairs} of pairs as arrays, with a union–find over dense arrays when the item numbers allow. */
export function groupPairList(list: PairArrays): Array<{ members: number[]; maxDistance: number }> {
  const { a: as, b: bs, distance: ds, length } = list;
  let n = 0;
  for (let p = 0; p < length; p++) {
    if (as[p] === bs[p]) continue;
    if (as[p] >= n) n = as[p] + 1;
    if (bs[p] >= n) n = bs[p] + 1;
  }
  if (n > 4 * length + 1024) {
    // Sparse numbers: the map-based union–find.
    const pairs: Candidate[] = [];
    for (let p = 0; p < length; p++) pairs.push({ a: as[p], b: bs[p], distance: ds[p] });
    return clusterPairs(pairs);
  }
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
  for (let p = 0; p < length; p++) {
    const a = as[p];
    const b = bs[p];
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
  for (let p = 0; p < length; p++) {
    if (as[p] === bs[p]) continue;
    const r = root(as[p]);
    if (ds[p] > maxAt[r]) maxAt[r] = ds[p];
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
