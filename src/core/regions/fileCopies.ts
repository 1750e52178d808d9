/**
 * Edited copies of whole files, from the regions found: two documents whose region pairs hold at
 * least `cover` of the tokens of each are one copy of a file (the CLI's located file pairs).
 *
 * The index's postings cap (boilerplate) counts postings: a file copied many times over (a file
 * with its edited copies at several versions) has its own k-grams dropped as boilerplate (ten
 * copies holding a k-gram three times are 30 postings), and the regions of each of its pairs come
 * out in pieces, holding a fraction of the files. So a pair of documents whose regions hold at
 * least `searchCover` of each (but not `cover`) is searched again on its own: the two documents
 * alone in an index, with the anchors whose hash is in more *documents* of the corpus than the
 * cap left out (boilerplate shared by many files — npm's config paragraphs, rxjs's operator
 * docs — stays out; a k-gram of ten copies of one file is back), and judged on those regions —
 * unless the seeds of that search bound what its regions could hold under `cover` (coverBound:
 * then they are not chained nor aligned; the same outcome). A kernel with copySearch (the native
 * addon) makes that whole second search in one call (kernelBuckets.ts copySearchOf): the same
 * regions; the TypeScript here is its fallback and reference. Pure and deterministic.
 */
import { alignChain, kernelAligner, type ChainAligner } from './align';
import { bucketKernelOf, bucketPairsOf, bucketRegions, defaultAnchors, kernelBucketRegions, planRegions, postingCaps, resolveRegionOptions, wantedBuckets, type PlanFrequent, type RegionPair, type RegionPlan, type ResolvedRegionOptions } from './regions';
import { copyKernelOf, copySearchOf, type BucketKernel, type CopyKernel } from './kernelBuckets';
import { withAnchors, type RegionDocument } from './document';
import { pairKeyBase } from '../pairKeys';
import type { CodeKernel } from '../types';

/** Regions holding at least this share of the tokens of both documents make them a copy of a file. */
export const FILE_COVER = 0.6;
/** Pairs of documents whose regions hold at least this share of both (under FILE_COVER) are searched again alone. */
export const SEARCH_COVER = 0.2;
/** The postings cap of the second search (two documents): a k-gram more often in them is local repetition. */
export const SEARCH_MAX_POSTINGS = 8;
/**
 * The second search leaves out anchors whose hash is in more documents of the corpus than this
 * many times the postings cap (bench/quality, code: 1× kept look-alike operators out but also most
 * of ten copies of one file, 3× let npm's shared config paragraphs back in; 2× neither).
 */
const SEARCH_DOCS_FACTOR = 2;

export interface FileCopy {
  /** Documents, docA < docB. */
  docA: number;
  docB: number;
  /** Share of each document's tokens its regions hold (of the regions below). */
  coverA: number;
  coverB: number;
  /** The pair's regions, in the order found; side a in docA. */
  regions: RegionPair[];
  /** The regions come from the pair searched again alone (not those of the whole search). */
  searched: boolean;
}

export interface FileCopyOptions {
  /** Default FILE_COVER. */
  cover?: number;
  /** Default SEARCH_COVER; 1 or more: no second search. */
  searchCover?: number;
  /** Pairs of documents not judged (e.g. those the scan already pairs as files). */
  skipPair?: (docA: number, docB: number) => boolean;
  /** The second search's native kernel (seeds and alignment: the same regions, faster) or aligner; default alignChain. */
  regions?: { kernel?: Pick<CodeKernel, 'anchorSeeds' | 'alignChain' | 'regionBuckets'> & Partial<Pick<CodeKernel, 'copySearch'>>; aligner?: ChainAligner; threads?: number };
  /**
   * The frequent hashes of the search of these documents that found `pairs` (RegionResult.frequent):
   * the documents holding each anchor hash are read from it rather than counted over every anchor
   * again, when it was made with the same minTokens and counts every hash its caps could leave out.
   */
  frequent?: PlanFrequent;
}

/** Share of `n` tokens the union of token ranges holds. */
export function coverOf(ranges: ReadonlyArray<readonly [number, number]>, n: number): number {
  const sorted = ranges.slice().sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = 0;
  for (const [s0, e0] of sorted) {
    const s1 = Math.max(s0, end);
    if (e0 > s1) covered += e0 - s1;
    end = Math.max(end, e0);
  }
  return n > 0 ? covered / n : 0;
}

/** Token ranges of up to 2^26 tokens (a document's) as one number: start × 2^26 + end, sorted by start as the numbers sort. */
const RANGE_SHIFT = 0x4000000;

/**
 * coverOf of side `side` of the region pairs `list` (their [start, end) token ranges in one
 * document of `n` tokens): the same share, the ranges packed into numbers in `scratch` (grown when
 * short) and sorted without a comparator instead of an array of pairs sorted with one (the union's
 * length does not depend on the order of ranges that start together).
 */
export function sideCover(list: readonly RegionPair[], side: 'a' | 'b', n: number, scratch: { at: Float64Array }): number {
  if (scratch.at.length < list.length) scratch.at = new Float64Array(Math.max(list.length, 2 * scratch.at.length));
  const ranges = scratch.at.subarray(0, list.length);
  for (let i = 0; i < list.length; i++) {
    const r = list[i][side];
    // (a bound that is no integer in [0, 2^26): coverOf itself)
    if (!((r.start | 0) === r.start && (r.end | 0) === r.end && r.start >= 0 && r.end >= 0 && r.start < RANGE_SHIFT && r.end < RANGE_SHIFT)) return coverOf(list.map((p) => [p[side].start, p[side].end] as const), n);
    ranges[i] = r.start * RANGE_SHIFT + r.end;
  }
  ranges.sort();
  let covered = 0;
  let end = 0;
  for (let i = 0; i < ranges.length; i++) {
    const s0 = Math.floor(ranges[i] / RANGE_SHIFT);
    const e0 = ranges[i] - s0 * RANGE_SHIFT;
    const s1 = Math.max(s0, end);
    if (e0 > s1) covered += e0 - s1;
    end = Math.max(end, e0);
  }
  return n > 0 ? covered / n : 0;
}

/**
 * Whether the region pairs `list` (side a in a document of `lengthA` tokens, b of `lengthB`) hold
 * under `share` of a side by the sum of their lengths: then coverOf of that side is under it too
 * (the union of ranges holds at most their sum). False for an empty document.
 */
export function sumsUnder(list: readonly RegionPair[], lengthA: number, lengthB: number, share: number): boolean {
  if (!(lengthA > 0 && lengthB > 0)) return false;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < list.length; i++) {
    sa += Math.max(0, list[i].a.end - list[i].a.start);
    sb += Math.max(0, list[i].b.end - list[i].b.start);
  }
  return sa / lengthA < share || sb / lengthB < share;
}

/** A region pair with side a in `docA` (swapped when found the other way round). */
const oriented = (r: RegionPair, docA: number): RegionPair => (r.a.doc === docA ? r : { ...r, a: r.b, b: r.a });

/** Region pair `r` into the list of its two documents (keyed x × base + y, pairKeys.ts), side a in the lower one. */
function addByPair(byPair: Map<number, RegionPair[]>, r: RegionPair, base: number): void {
  const x = Math.min(r.a.doc, r.b.doc);
  const k = x * base + Math.max(r.a.doc, r.b.doc);
  const list = byPair.get(k);
  if (list) list.push(oriented(r, x));
  else byPair.set(k, [oriented(r, x)]);
}

/** The copies of whole files among the documents, given the region pairs found, ordered by (docA, docB). */
export function fileCopies(docs: readonly RegionDocument[], pairs: readonly RegionPair[], options: FileCopyOptions = {}): FileCopy[] {
  // Each region pair into the list of its two documents (keyed x × base + y, x < y: pairKeys.ts),
  // side a in x; the pairs of a seed bucket come together: the last two documents' list (or skip) kept.
  const base = pairKeyBase(docs.length);
  const byPair = new Map<number, RegionPair[]>();
  let lastKey = -1;
  let last: RegionPair[] | null = null;
  for (const r of pairs) {
    if (r.a.doc === r.b.doc) continue;
    const x = Math.min(r.a.doc, r.b.doc);
    const y = Math.max(r.a.doc, r.b.doc);
    const k = x * base + y;
    if (k !== lastKey) {
      lastKey = k;
      if (options.skipPair?.(x, y)) last = null;
      else if (!(last = byPair.get(k) ?? null)) byPair.set(k, (last = []));
    }
    last?.push(oriented(r, x));
  }
  return copiesOfLists(docs, byPair, options);
}

/**
 * fileCopies of the region pairs of each two documents (keyed x × base + y, x < y, with a base
 * above every document's number: pairKeys.ts; side a in x, in the order found); a pair of documents
 * absent has none (fileCopyRows.ts leaves out those whose regions could hold neither share).
 */
export function copiesOfLists(docs: readonly RegionDocument[], byPair: ReadonlyMap<number, RegionPair[]>, options: FileCopyOptions = {}): FileCopy[] {
  const base = pairKeyBase(docs.length);
  const cover = options.cover ?? FILE_COVER;
  const searchCover = options.searchCover ?? SEARCH_COVER;
  const covers = (list: readonly RegionPair[], x: number, y: number): [number, number] => {
    if (list.length === 1) {
      // (one range: coverOf's one term)
      const r = list[0];
      return [docs[x].length > 0 ? Math.max(0, r.a.end - r.a.start) / docs[x].length : 0, docs[y].length > 0 ? Math.max(0, r.b.end - r.b.start) / docs[y].length : 0];
    }
    return [sideCover(list, 'a', docs[x].length, packed), sideCover(list, 'b', docs[y].length, packed)];
  };
  /** sideCover's scratch, grown to the longest list. */
  const packed = { at: new Float64Array(64) };
  // The second search's anchors: a document's without the hashes more than SEARCH_DOCS_FACTOR
  // times the cap of documents hold (counted once, for the hashes of the documents searched again).
  const o = resolveRegionOptions();
  const { cap, proseCap } = postingCaps(docs, o);
  const anchorsOf = (d: RegionDocument) => d.anchors ?? defaultAnchors(d);
  let docsOf = (_hash: number): number => 1; // set before the first search again
  /**
   * With the search's counts: a bit per hash (its low 20 bits) set for each hash in more documents
   * than the smallest limit (factor × cap); a hash whose bit is clear is under every limit, kept
   * without a look-up. Null: every hash looked up.
   */
  let overBits: Int32Array | null = null;
  const filtered = new Map<number, RegionDocument>();
  const withoutBoilerplate = (d: number): RegionDocument => {
    let doc = filtered.get(d);
    if (!doc) {
      const a = anchorsOf(docs[d]);
      const limit = SEARCH_DOCS_FACTOR * (docs[d].kind === 'prose' ? proseCap : cap);
      const hash = new Uint32Array(a.hash.length);
      const pos = new Int32Array(a.hash.length);
      let n = 0;
      for (let i = 0; i < a.hash.length; i++) {
        const h = a.hash[i];
        if ((overBits !== null && (overBits[(h >>> 5) & 0x7fff] & (1 << (h & 31))) === 0) || docsOf(h) <= limit) {
          hash[n] = h;
          pos[n++] = a.pos[i];
        }
      }
      // (none left out: the document itself, its anchors as they are)
      doc = n === a.hash.length && docs[d].anchors === a ? docs[d] : withAnchors(docs[d], n === a.hash.length ? a : { hash: hash.slice(0, n), pos: pos.slice(0, n) });
      filtered.set(d, doc);
    }
    return doc;
  };
  const align = options.regions?.aligner ?? (options.regions?.kernel ? kernelAligner(options.regions.kernel) : alignChain);
  /** The plan of two documents alone (x then y), without the boilerplate. */
  const planAlone = (x: number, y: number): RegionPlan =>
    planRegions([withoutBoilerplate(x), withoutBoilerplate(y)], { maxPostings: SEARCH_MAX_POSTINGS, selfMatches: false, kernel: options.regions?.kernel });
  /**
   * Each bucket of the plan of x and y alone searched (from, end into its seeds; its two documents
   * under the corpus's numbers: the plan's 0 is x, 1 is y): wanted, and its seeds could hold
   * `cover` of both documents (else not searched: the pair is no copy by these regions).
   */
  const searchedBuckets = (plan: RegionPlan, x: number, y: number, each: (from: number, end: number, docA: number, docB: number) => void): void => {
    const cuts = plan.bucketCuts;
    const wanted = wantedBuckets(cuts, plan.options);
    for (let b = 0, from = 0; b < wanted.length; from = cuts[3 * b + 2], b++) {
      const end = cuts[3 * b + 2];
      if (!wanted[b] || cuts[3 * b] === cuts[3 * b + 1]) continue;
      const seeds = plan.seedPairs.subarray(2 * from, 2 * end);
      const docA = cuts[3 * b] === 0 ? x : y;
      const docB = cuts[3 * b + 1] === 0 ? x : y;
      if (coverBound(seeds, 0, docs[docA].length, plan.options) < cover || coverBound(seeds, 1, docs[docB].length, plan.options) < cover) continue;
      each(from, end, docA, docB);
    }
  };
  /** The regions of two documents alone (side a in x), without the boilerplate; none when they could not hold `cover` of both. */
  const searchAlone = (x: number, y: number): RegionPair[] => {
    const plan = planAlone(x, y);
    const found: RegionPair[] = [];
    searchedBuckets(plan, x, y, (from, end, docA, docB) => {
      // Aligned in the corpus's documents under their own numbers (bucketRegions reads no anchors):
      // the regions come out as those of the whole search (side a in x, the same object shapes).
      const bucket = { docA, docB, pairs: plan.seedPairs.subarray(2 * from, 2 * end) };
      for (const r of bucketRegions(docs as RegionDocument[], bucket, plan.options, align, plan.stats)) found.push(oriented(r, x));
    });
    return found;
  };
  /**
   * searchAlone of all the pairs at once, by a kernel's one-call bucket search (the same regions:
   * regions.ts kernelBucketRegions): the buckets searched of every pair's plan, under the corpus's
   * document numbers, in one list. The regions by docsKey of their pair.
   */
  const searchAllAlone = (kernel: BucketKernel, pairs: ReadonlyArray<readonly [number, number]>): Map<number, RegionPair[]> => {
    const chunks: Int32Array[] = [];
    const cuts: number[] = [];
    let seeds = 0;
    let o: ResolvedRegionOptions | undefined;
    for (const [x, y] of pairs) {
      const plan = planAlone(x, y);
      o = plan.options;
      searchedBuckets(plan, x, y, (from, end, docA, docB) => {
        chunks.push(plan.seedPairs.subarray(2 * from, 2 * end));
        seeds += end - from;
        cuts.push(docA, docB, seeds);
      });
    }
    const byPair = new Map<number, RegionPair[]>();
    if (cuts.length === 0 || !o) return byPair;
    const all = new Int32Array(2 * seeds);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    for (const r of kernelBucketRegions(docs as RegionDocument[], all, Uint32Array.from(cuts), null, o, kernel, { chains: 0, aligned: 0 }, options.regions?.threads)) addByPair(byPair, r, base);
    return byPair;
  };
  /**
   * searchAllAlone by a kernel's copySearch (kernelBuckets.ts copySearchOf: the same regions): the documents'
   * anchors as they are, with the hashes withoutBoilerplate leaves out of a code and a prose
   * document (from the search's counts, or looked up for the anchors of the documents searched).
   */
  const searchAllByKernel = (kernel: CopyKernel, pairs: ReadonlyArray<readonly [number, number]>, searched: readonly number[], counts?: ReadonlyMap<number, number>): Map<number, RegionPair[]> => {
    const codeLimit = SEARCH_DOCS_FACTOR * cap;
    const proseLimit = SEARCH_DOCS_FACTOR * proseCap;
    const code: number[] = [];
    const prose: number[] = [];
    if (counts) {
      // (withoutBoilerplate with the counts: a hash is left out when more documents than the limit hold it)
      for (const [h, count] of counts) {
        if (count > codeLimit) code.push(h);
        if (count > proseLimit) prose.push(h);
      }
    } else {
      for (const d of searched) {
        const isProse = docs[d].kind === 'prose';
        const limit = isProse ? proseLimit : codeLimit;
        for (const h of anchorsOf(docs[d]).hash) if (docsOf(h) > limit) (isProse ? prose : code).push(h);
      }
    }
    const two = resolveRegionOptions({ maxPostings: SEARCH_MAX_POSTINGS, selfMatches: false });
    const caps = postingCaps(docs.slice(0, 2), two);
    const r = copySearchOf(kernel, docs, pairs, {
      anchorsOf,
      drop: [Uint32Array.from(code).sort(), Uint32Array.from(prose).sort()],
      options: two,
      caps: { code: caps.cap, prose: caps.capOf ? caps.proseCap : caps.cap },
      cover,
      threads: options.regions?.threads,
    });
    const byPair = new Map<number, RegionPair[]>();
    for (const p of bucketPairsOf(docs as RegionDocument[], r.buckets, r, { chains: 0, aligned: 0 })) addByPair(byPair, p, base);
    return byPair;
  };
  const out: FileCopy[] = [];
  /** Pairs under `cover` but at least `searchCover` on both sides: searched again (in this order). */
  const again: Array<[number, number, number]> = [];
  // The union of a side's ranges holds at most the sum of their lengths: a pair whose sums fall
  // under both shares on a side is neither a copy nor searched again (most pairs: a block two
  // files share), its union not made.
  const least = Math.min(cover, searchCover);
  for (const k of Float64Array.from(byPair.keys()).sort()) {
    const list = byPair.get(k)!;
    const x = list[0].a.doc;
    const y = list[0].b.doc;
    if (list.length > 1 && sumsUnder(list, docs[x].length, docs[y].length, least)) continue;
    const [ca, cb] = covers(list, x, y);
    if (ca >= cover && cb >= cover) out.push({ docA: x, docB: y, coverA: ca, coverB: cb, regions: list, searched: false });
    else if (ca >= searchCover && cb >= searchCover) again.push([out.length, x, y]);
  }
  if (again.length === 0) return out;
  const searched = new Set<number>();
  for (const [, x, y] of again) searched.add(x).add(y);
  const known = options.frequent;
  const counted = known && known.minTokens === o.minTokens && known.over <= SEARCH_DOCS_FACTOR * cap;
  if (counted) {
    // Every hash it leaves out is in at most `over` documents, under every limit here (factor × cap or proseCap).
    docsOf = (hash: number): number => known.counts.get(hash) ?? 1;
    overBits = new Int32Array(1 << 15);
    for (const [h, count] of known.counts) if (count > SEARCH_DOCS_FACTOR * cap) overBits[(h >>> 5) & 0x7fff] |= 1 << (h & 31);
  } else {
    docsOf = documentCounts(docs, o.minTokens, anchorsOf, [...searched].sort((p, q) => p - q));
  }
  // Each copy found again goes where its pair is in the (docA, docB) order, among the copies above.
  const batch = bucketKernelOf({ kernel: options.regions?.kernel, aligner: options.regions?.aligner });
  const copier = batch ? copyKernelOf(options.regions?.kernel) : undefined;
  const againPairs = again.map(([, x, y]) => [x, y] as const);
  const foundAlone = copier
    ? searchAllByKernel(copier, againPairs, [...searched], counted ? known.counts : undefined)
    : batch
      ? searchAllAlone(batch, againPairs)
      : undefined;
  const merged: FileCopy[] = [];
  let next = 0;
  for (const [at, x, y] of again) {
    while (next < at) merged.push(out[next++]);
    const regions = foundAlone ? (foundAlone.get(x * base + y) ?? []) : searchAlone(x, y);
    const [sa, sb] = regions.length > 0 ? covers(regions, x, y) : [0, 0]; // (an empty list: another array shape for covers)
    if (sa >= cover && sb >= cover) merged.push({ docA: x, docB: y, coverA: sa, coverB: sb, regions, searched: true });
  }
  while (next < out.length) merged.push(out[next++]);
  return merged;
}

/**
 * How many documents hold each anchor hash of the documents `wanted` (documents under minTokens are
 * not indexed; a hash in none or one: 1): those hashes in an open-addressing table, every indexed
 * document's anchors looked up in it, a document counted once per hash (the last document seen).
 */
function documentCounts(
  docs: readonly RegionDocument[],
  minTokens: number,
  anchorsOf: (d: RegionDocument) => { hash: Uint32Array },
  wanted: readonly number[],
): (hash: number) => number {
  let size = 0;
  for (const d of wanted) size += anchorsOf(docs[d]).hash.length;
  let bits = 4;
  while (1 << bits < 2 * size) bits++;
  const mask = (1 << bits) - 1;
  const keys = new Uint32Array(1 << bits);
  const used = new Uint8Array(1 << bits);
  const count = new Uint32Array(1 << bits);
  const last = new Int32Array(1 << bits).fill(-1);
  const slotOf = (h: number): number => {
    let i = Math.imul(h, 0x9e3779b1) >>> (32 - bits);
    while (used[i] && keys[i] !== h) i = (i + 1) & mask;
    return i;
  };
  for (const d of wanted) {
    const h = anchorsOf(docs[d]).hash;
    for (let i = 0; i < h.length; i++) {
      const s = slotOf(h[i]);
      used[s] = 1;
      keys[s] = h[i];
    }
  }
  for (let d = 0; d < docs.length; d++) {
    if (docs[d].length < minTokens) continue;
    const h = anchorsOf(docs[d]).hash;
    for (let i = 0; i < h.length; i++) {
      const s = slotOf(h[i]);
      if (used[s] && last[s] !== d) {
        last[s] = d;
        count[s]++;
      }
    }
  }
  return (hash: number): number => {
    const s = slotOf(hash);
    return used[s] ? Math.max(1, count[s]) : 1;
  };
}

/**
 * An upper bound of the share of a document's tokens the regions of a seed bucket can hold on one
 * side (0: a, 1: b): a chain's seeds advance by at most max(maxGap, joinGap) tokens on each side
 * (chain.ts), so each lies in one run of the bucket's seeds without a wider gap, and its alignment
 * stays within the chain's first and last seeds and a margin (align.ts: k + margin past the last).
 */
export function coverBound(pairs: ArrayLike<number>, side: 0 | 1, length: number, o: { maxGap: number; joinGap: number; k: number; margin: number; minSeeds: number; minTokens: number }): number {
  const n = pairs.length >> 1;
  if (n === 0 || length <= 0) return 0;
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) pos[i] = pairs[2 * i + side];
  if (side === 1) pos.sort();
  const gap = Math.max(o.maxGap, o.joinGap);
  let covered = 0;
  let runStart = pos[0];
  let end = 0; // covered up to here
  const close = (first: number, last: number, seeds: number) => {
    // A run of fewer seeds than a chain needs, or too short to align (regions.ts bucketRegions), holds none.
    if (seeds < o.minSeeds || last - first + o.k + 2 * o.margin < o.minTokens) return;
    const s = Math.max(end, first - o.margin, 0);
    const e = Math.min(length, last + o.k + o.margin);
    if (e > s) covered += e - s;
    end = Math.max(end, e);
  };
  let from = 0;
  for (let i = 1; i < n; i++) {
    if (pos[i] - pos[i - 1] > gap) {
      close(runStart, pos[i - 1], i - from);
      runStart = pos[i];
      from = i;
    }
  }
  close(runStart, pos[n - 1], n - from);
  return covered / length;
}
