/**
 * Finding copied regions: anchors of every document (winnowed k-grams of the tokens as read, and
 * for code of the identifier-normalised tokens) into one inverted index; the seeds each pair of
 * documents shares — a document with itself too — chained along near-diagonals; each chain
 * aligned, trimmed, scored and classified (exact, renamed, edited); overlapping results of one
 * pair of documents reduced to the best; the pairs grouped into copies. Pure and deterministic.
 */
import { AnchorIndex, type FrequentHashes, type SeedBucket } from './anchorIndex';
import type { CodeKernel, RegionBucketsFound } from '../types';
import { alignChain, alignsWithKernel, kernelAligner, type Alignment, type ChainAligner } from './align';
import { anchorsOf, mixedAnchorsOf, type Anchors } from './anchors';
import { bucketChains, indelExplains } from './chain';
import { lineOfOffset, type RegionDocument } from './document';
import { SIDE_A_FIRST, SIDE_A_LAST, SIDE_B_FIRST, SIDE_B_LAST, SIDE_INTS } from './sideFacts';
import { groupRegions, groupsOfFlat, type RegionGroup } from './groups';
import { searchBuckets, type BucketKernel } from './kernelBuckets';

export type CloneKind = 'exact' | 'renamed' | 'edited';

export interface RegionOptions {
  /** Tokens per anchor k-gram. Default 5. */
  k?: number;
  /** Winnowing window (k-grams). Default 4: ~2 / (w + 1) = 40 % of the k-grams become anchors. */
  w?: number;
  /** Which code streams are anchored: 'raw', 'ids' (identifier-normalised) or 'both'. Default 'ids' (a raw match is an ids match too). Prose has only 'raw'. */
  streams?: 'raw' | 'ids' | 'both';
  /** Hashes with more postings than this are boilerplate and dropped. Default 24. */
  maxPostings?: number;
  /** The postings cap grows with the corpus: max(maxPostings, maxPostingsShare × documents). Default 0 (fixed cap). */
  maxPostingsShare?: number;
  /**
   * The same for hashes of prose documents only (code keeps maxPostings and maxPostingsShare): a
   * paragraph repeated in dozens of documents of a large docs tree (npm's config pages) is not
   * boilerplate. Default 0.08: 31 postings for 397 documents; 0.15 lets in look-alike prose.
   */
  proseMaxPostingsShare?: number;
  /**
   * The grown caps never exceed this: the seeds of a hash grow with the square of its postings, so
   * a corpus-relative cap alone would not be bounded on a large tree. Default 64.
   */
  maxPostingsCeiling?: number;
  /** Hashes found in more distinct documents than this are dropped too. Default: no limit. */
  maxDocs?: number;
  /** Dropped hashes with at most this many postings still seed the pairs other anchors seeded. Default 0 (none). */
  rescuePostings?: number;
  /** Chaining: largest step between seeds (tokens), drift allowed per step. Defaults 40, 4, 0.25. */
  maxGap?: number;
  maxDrift?: number;
  driftRate?: number;
  /** Chains that follow each other within this many tokens on both sides are joined (any drift). Default 40. */
  joinGap?: number;
  /**
   * Prose only: chains are joined across an insertion or deletion of at most this many tokens. A
   * sentence or paragraph one side holds and the other does not lies between two copies that
   * happen to be neighbours (a paragraph pasted right before one the two files share), not inside
   * one copy; code keeps joining any indel within joinGap (a deleted statement is an edit).
   * Default 12.
   */
  proseMaxJoinIndel?: number;
  /** k-gram size that marks matched tokens inside a region. Default 3. */
  coverK?: number;
  /** Distance from the chain's diagonal a marking match may have. Default 6. */
  band?: number;
  /** Unmatched tokens a region's ends may bridge beyond its first and last seed. Default 2. */
  fringeGap?: number;
  /** Tokens around a chain searched for matches. Default w + k. */
  margin?: number;
  /** Each side must hold at least this many tokens. Default 30. */
  minTokens?: number;
  /**
   * Kept when the similarity (the smaller side's share of matched coverK-grams) reaches this, for
   * regions of longTokens tokens or more. Default 0.5.
   */
  minSimilarity?: number;
  /**
   * The similarity a region of minTokens tokens needs (linear in between): short look-alike code
   * (tables, getters) matches by chance, a pasted block rarely is short. Defaults 0.7 and 100.
   */
  shortSimilarity?: number;
  longTokens?: number;
  /** Normalised matches count only when the identifier renames agree this well. Default 0.9. */
  minConsistency?: number;
  /** Chains with fewer seeds are not aligned. Default 2. */
  minSeeds?: number;
  /**
   * Pairs of documents sharing fewer seeds are not chained. Default 4: on the planted-copy
   * benchmark every copy found with 2 is found with 4 (both seeds), while the small bench tree's
   * 45,000 pairs of two or three seeds cost ~5 % of a `--locate` scan's CPU for 277 short regions.
   */
  minBucketSeeds?: number;
  /** Look for repeats inside one document. Default true. */
  selfMatches?: boolean;
  /** Pairs of documents not searched (e.g. identical files whose region is known). Default none. */
  skipPair?: (docA: number, docB: number) => boolean;
  /** Aligns a chain: alignChain (the default), or a native kernel's (kernelAligner), which gives the same. */
  aligner?: ChainAligner;
  /**
   * A native kernel: seeds (without rescue) and alignments made by it — the same regions, faster;
   * with its regionBuckets, every bucket's whole search in one call (unless `aligner` is not the kernel's).
   */
  kernel?: Pick<CodeKernel, 'anchorSeeds' | 'alignChain' | 'regionBuckets'>;
  /** Threads the kernel's one-call bucket search may use (the native addon's; the same regions). Default 1. */
  threads?: number;
}

/** One side of a region: a token range and its 1-based inclusive lines. */
export interface RegionSide {
  doc: number;
  /** Token range [start, end). */
  start: number;
  end: number;
  startLine: number;
  endLine: number;
}

export interface RegionPair {
  a: RegionSide;
  b: RegionSide;
  clone: CloneKind;
  /** The smaller side's matched fraction (normalised matches count when the renames are consistent). */
  similarity: number;
  /** The same on the tokens as read only. */
  rawSimilarity: number;
  /** Consistency of the identifier renames (1 when none are aligned) and distinct names renamed. */
  consistency: number;
  renames: number;
}

export interface RegionStats {
  documents: number;
  tokens: number;
  anchors: number;
  /** Bytes of the index's arrays (capacity). */
  indexBytes: number;
  droppedHashes: number;
  seeds: number;
  chains: number;
  aligned: number;
  pairs: number;
}

export interface RegionResult {
  pairs: RegionPair[];
  groups: RegionGroup[];
  stats: RegionStats;
  /** The index's hashes in many documents (a kernel's seeds, from the documents' stored anchors): what fileCopies' second search counts. */
  frequent?: PlanFrequent;
  /** The pairs' sides as a kernel's plan job made them (sideFacts.ts: SIDE_INTS per pair, a row of −1 not made), when it did. */
  sideFacts?: Int32Array;
}

/** FrequentHashes of a plan's index, which holds the anchors of the documents of `minTokens` tokens and more. */
export type PlanFrequent = FrequentHashes & { minTokens: number };

const DEFAULTS = {
  k: 5,
  w: 4,
  streams: 'ids' as 'raw' | 'ids' | 'both',
  maxPostings: 24,
  maxPostingsShare: 0,
  proseMaxPostingsShare: 0.08,
  maxPostingsCeiling: 64,
  maxDocs: Infinity,
  rescuePostings: 0,
  maxGap: 40,
  maxDrift: 4,
  driftRate: 0.25,
  joinGap: 40,
  proseMaxJoinIndel: 12,
  coverK: 3,
  band: 6,
  fringeGap: 2,
  minTokens: 30,
  minSimilarity: 0.5,
  shortSimilarity: 0.7,
  longTokens: 100,
  minConsistency: 0.9,
  minSeeds: 2,
  minBucketSeeds: 4,
  selfMatches: true,
  skipPair: undefined as ((docA: number, docB: number) => boolean) | undefined,
};

/** The anchor hash salt of the identifier-normalised stream (so the two streams never match each other). */
const IDS_SALT = 0x5bd1e995;

function sideOf(d: RegionDocument, doc: number, start: number, end: number): RegionSide {
  return { doc, start, end, startLine: lineOfOffset(d.lineStarts, d.start[start]), endLine: lineOfOffset(d.lineStarts, d.start[end - 1]) };
}

/**
 * The anchors findRegions indexes for a document: for code, of its identifier-normalised stream
 * (salted; a Markdown cell's tokens as prose), of its tokens as read, or both; for prose, of its
 * tokens as read. By `kernel` where it makes them (CodeKernel.anchors; the same anchors).
 */
export function documentAnchors(doc: RegionDocument, k: number, w: number, streams: 'raw' | 'ids' | 'both', kernel?: CodeKernel): Anchors[] {
  const out: Anchors[] = [];
  if (doc.ids === null || streams !== 'ids') out.push(anchorsOf(doc.raw, doc.length, k, w, 0, kernel));
  if (doc.ids !== null && streams !== 'raw') {
    out.push(doc.proseTokens ? mixedAnchorsOf(doc.ids, doc.length, k, w, IDS_SALT, doc.proseTokens) : anchorsOf(doc.ids, doc.length, k, w, IDS_SALT, kernel));
  }
  return out;
}

/**
 * The anchors of a document under the default options, made where the document is made (a
 * fingerprint worker) and stored in it (`RegionDocument.anchors`): findRegions with the default
 * k, w and streams indexes them instead of making them again.
 */
export function defaultAnchors(doc: RegionDocument, kernel?: CodeKernel): Anchors {
  return documentAnchors(doc, DEFAULTS.k, DEFAULTS.w, DEFAULTS.streams, kernel)[0];
}

/** defaultAnchors of a code document (a kernel's documentFromKernel makes them with these): its normalised stream's. */
export const DEFAULT_CODE_ANCHORING = { k: DEFAULTS.k, w: DEFAULTS.w, salt: IDS_SALT } as const;

/** Scores an alignment; null when it is too short or too dissimilar. */
function judge(al: Alignment, o: ResolvedRegionOptions): Omit<RegionPair, 'a' | 'b'> | null {
  if (al.aEnd - al.aStart < o.minTokens || al.bEnd - al.bStart < o.minTokens) return null;
  const raw = Math.min(al.rawA, al.rawB);
  const ids = Math.min(al.idsA, al.idsB);
  const consistent = al.consistency >= o.minConsistency;
  const similarity = consistent ? Math.max(raw, ids) : raw;
  const shorter = Math.min(al.aEnd - al.aStart, al.bEnd - al.bStart);
  const t = shorter >= o.longTokens || o.longTokens <= o.minTokens ? 0 : (o.longTokens - shorter) / (o.longTokens - o.minTokens);
  if (similarity < o.minSimilarity + t * Math.max(0, o.shortSimilarity - o.minSimilarity)) return null;
  const clone: CloneKind = al.exact ? 'exact' : al.sameShape && consistent ? 'renamed' : 'edited';
  return { clone, similarity, rawSimilarity: raw, consistency: al.consistency, renames: al.renames };
}

const overlap = (s1: number, e1: number, s2: number, e2: number): boolean => s1 < e2 && s2 < e1;

/** findRegions' options resolved: every default filled in, the margin too (plain data: it crosses to workers). */
export type ResolvedRegionOptions = Omit<typeof DEFAULTS, 'skipPair'> & { margin: number };

/** The options with their defaults (the functions — skipPair, aligner, kernel — left out). */
export function resolveRegionOptions(options: RegionOptions = {}): ResolvedRegionOptions {
  const { skipPair: _skip, aligner: _aligner, kernel: _kernel, threads: _threads, margin, ...given } = options;
  const { skipPair: _none, ...defaults } = DEFAULTS;
  const o = { ...defaults, ...given };
  return { ...o, margin: margin ?? o.w + o.k };
}

/**
 * What findRegions searches: the seed buckets of the documents' anchors, before any chain — flat
 * (seedPairs, and bucketCuts: docA docB end per bucket, end the cumulative seed count) and as
 * SeedBucket objects (made on first use).
 */
export interface RegionPlan {
  options: ResolvedRegionOptions;
  readonly buckets: SeedBucket[];
  seedPairs: Int32Array;
  bucketCuts: Uint32Array;
  stats: RegionStats;
  /** A kernel's count of the hashes in many documents, when every document indexed gave its stored anchors. */
  frequent?: PlanFrequent;
}

/** Whether the anchors stored in the documents (defaultAnchors) are those the options index. */
export function anchorsStoredFit(o: ResolvedRegionOptions): boolean {
  return o.k === DEFAULTS.k && o.w === DEFAULTS.w && o.streams === DEFAULTS.streams;
}

/** The postings cap of a hash (grown with the corpus), and by the document of its first posting when prose's differs. */
export function postingCaps(docs: readonly RegionDocument[], o: ResolvedRegionOptions): { cap: number; proseCap: number; capOf?: (doc: number) => number } {
  const grown = (share: number): number => Math.max(o.maxPostings, Math.min(o.maxPostingsCeiling, Math.floor(share * docs.length)));
  const cap = grown(o.maxPostingsShare);
  const proseCap = Math.max(cap, grown(o.proseMaxPostingsShare));
  return { cap, proseCap, capOf: proseCap > cap ? (d: number): number => (docs[d].kind === 'prose' ? proseCap : cap) : undefined };
}

/** The anchors of the documents into one index, and the seed buckets of its hashes under the caps. */
export function planRegions(docs: RegionDocument[], options: RegionOptions = {}): RegionPlan {
  const o = resolveRegionOptions(options);
  const index = new AnchorIndex();
  const stored = anchorsStoredFit(o);
  let reserve = 0;
  if (stored) for (const doc of docs) if (doc.anchors && doc.length >= o.minTokens) reserve += doc.anchors.hash.length;
  index.reserve(reserve);
  let tokens = 0;
  let allStored = stored;
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    tokens += doc.length;
    if (doc.length < o.minTokens) continue;
    if (doc.anchors && stored) {
      index.add(d, doc.anchors.hash, doc.anchors.pos); // made with the document (defaultAnchors)
      continue;
    }
    allStored = false;
    for (const a of documentAnchors(doc, o.k, o.w, o.streams)) index.add(d, a.hash, a.pos);
  }
  const { cap, capOf } = postingCaps(docs, o);
  const found = index.seeds(cap, { maxDocs: o.maxDocs, rescuePostings: o.rescuePostings, capOf, kernel: options.kernel });
  const stats: RegionStats = { documents: docs.length, tokens, anchors: index.size, indexBytes: index.bytes, droppedHashes: found.dropped, seeds: found.seeds, chains: 0, aligned: 0, pairs: 0 };
  return {
    options: o,
    get buckets() {
      return found.buckets;
    },
    seedPairs: found.pairs,
    bucketCuts: found.cuts,
    stats,
    ...(found.frequent && allStored ? { frequent: { ...found.frequent, minTokens: o.minTokens } } : {}),
  };
}

/** bucketWanted of every bucket of flat cuts (docA docB end), as 1 / 0. */
export function wantedBuckets(cuts: Uint32Array, o: ResolvedRegionOptions, skipPair?: (docA: number, docB: number) => boolean): Uint8Array {
  const n = cuts.length / 3;
  const wanted = new Uint8Array(n);
  for (let b = 0, from = 0; b < n; from = cuts[3 * b + 2], b++) {
    if (wants(cuts[3 * b], cuts[3 * b + 1], cuts[3 * b + 2] - from, o, skipPair)) wanted[b] = 1;
  }
  return wanted;
}

/** The wanted buckets of a plan (bucketWanted), as SeedBucket objects made for those only. */
export function wantedBucketList(plan: RegionPlan, skipPair?: (docA: number, docB: number) => boolean): SeedBucket[] {
  const cuts = plan.bucketCuts;
  const wanted = wantedBuckets(cuts, plan.options, skipPair);
  const out: SeedBucket[] = [];
  for (let b = 0, from = 0; b < wanted.length; from = cuts[3 * b + 2], b++) {
    if (wanted[b]) out.push({ docA: cuts[3 * b], docB: cuts[3 * b + 1], pairs: plan.seedPairs.subarray(2 * from, 2 * cuts[3 * b + 2]) });
  }
  return out;
}

const KINDS: CloneKind[] = ['exact', 'renamed', 'edited'];

/**
 * bucketRegions of the buckets (flat: docA docB end per bucket, into `seeds`) that `wanted` marks
 * (null: all), bucket after bucket, searched by a kernel in one call: the same pairs in the same
 * order. Counts the chains and alignments into `stats`.
 */
export function kernelBucketRegions(
  docs: RegionDocument[],
  seeds: Int32Array,
  cuts: Uint32Array,
  wanted: Uint8Array | null,
  o: ResolvedRegionOptions,
  kernel: BucketKernel,
  stats: Pick<RegionStats, 'chains' | 'aligned'>,
  threads = 1,
): RegionPair[] {
  return bucketPairsOf(docs, cuts, searchBuckets(kernel, docs, seeds, cuts, wanted, o, threads), stats);
}

/** The region pairs of a kernel's bucket search (of buckets `cuts`), in its order; its chains and alignments counted into `stats`. */
export function bucketPairsOf(docs: RegionDocument[], cuts: Uint32Array, r: RegionBucketsFound, stats: Pick<RegionStats, 'chains' | 'aligned'>): RegionPair[] {
  stats.chains += r.chains;
  stats.aligned += r.aligned;
  const pairs: RegionPair[] = new Array(r.ints.length / 7);
  const made = r.sides; // the sides' lines, where the kernel's plan job made them
  for (let i = 0; i < pairs.length; i++) {
    const t = 7 * i;
    const f = 3 * i;
    const bucket = r.ints[t];
    const docA = cuts[3 * bucket];
    const docB = cuts[3 * bucket + 1];
    const m = SIDE_INTS * i;
    const lines = made !== undefined && made[m] >= 0;
    pairs[i] = {
      a: lines
        ? { doc: docA, start: r.ints[t + 1], end: r.ints[t + 2], startLine: made[m + SIDE_A_FIRST], endLine: made[m + SIDE_A_LAST] }
        : sideOf(docs[docA], docA, r.ints[t + 1], r.ints[t + 2]),
      b: lines
        ? { doc: docB, start: r.ints[t + 3], end: r.ints[t + 4], startLine: made[m + SIDE_B_FIRST], endLine: made[m + SIDE_B_LAST] }
        : sideOf(docs[docB], docB, r.ints[t + 3], r.ints[t + 4]),
      clone: KINDS[r.ints[t + 5]],
      similarity: r.floats[f],
      rawSimilarity: r.floats[f + 1],
      consistency: r.floats[f + 2],
      renames: r.ints[t + 6],
    };
  }
  return pairs;
}

/** The kernel's one-call bucket search, when it has one and the chains are to be aligned by that kernel. */
export function bucketKernelOf(options: Pick<RegionOptions, 'kernel' | 'aligner'>): BucketKernel | undefined {
  const k = options.kernel;
  if (!k?.regionBuckets || (options.aligner && !alignsWithKernel(options.aligner, k))) return undefined;
  return k as BucketKernel;
}

/** A bucket of `seeds` seeds worth chaining: not a self bucket when those are off, not skipped, with enough seeds (minBucketSeeds). */
function wants(docA: number, docB: number, seeds: number, o: ResolvedRegionOptions, skipPair?: (docA: number, docB: number) => boolean): boolean {
  if (docA === docB && !o.selfMatches) return false;
  if (skipPair?.(docA, docB)) return false;
  return seeds >= Math.max(o.minSeeds, o.minBucketSeeds);
}

/** A bucket worth chaining (see wants). */
export function bucketWanted(bucket: SeedBucket, o: ResolvedRegionOptions, skipPair?: (docA: number, docB: number) => boolean): boolean {
  return wants(bucket.docA, bucket.docB, bucket.pairs.length >> 1, o, skipPair);
}

/**
 * The regions of one seed bucket (two documents, or one with itself): its seeds chained, each
 * chain aligned, judged and classified; of regions overlapping on both sides, the one with the
 * most matched tokens. Counts its chains and alignments into `stats`.
 */
export function bucketRegions(docs: RegionDocument[], bucket: SeedBucket, o: ResolvedRegionOptions, align: ChainAligner, stats: Pick<RegionStats, 'chains' | 'aligned'>): RegionPair[] {
  const self = bucket.docA === bucket.docB;
  const margin = o.margin;
  const alignOptions = { k: o.k, coverK: o.coverK, margin, band: o.band, fringeGap: o.fringeGap, minConsistency: o.minConsistency };
  const A = docs[bucket.docA];
  const B = docs[bucket.docB];
  const found: RegionPair[] = [];
  const sa = A.ids ?? A.raw;
  const sb = B.ids ?? B.raw;
  const same = (i: number, j: number): boolean => sa.hi[i] === sb.hi[j] && sa.lo[i] === sb.lo[j];
  const maxIndel = A.kind === 'prose' || B.kind === 'prose' ? o.proseMaxJoinIndel : Infinity;
  const explains = (la: number, lb: number, a: number, b: number): boolean =>
    Math.abs(a - la - (b - lb)) <= maxIndel && indelExplains(la, lb, a, b, same, 2 + Math.floor(0.15 * Math.min(a - la, b - lb)));
  const chains = bucketChains(bucket.pairs, o, self, o.joinGap, 3, explains);
  const reach = o.k + 2 * margin;
  for (let c = 0, from = 0; c < chains.count; from = chains.ends[c++]) {
    stats.chains++;
    const seeds = chains.seeds;
    const end = chains.ends[c];
    if (end - from < o.minSeeds) continue;
    // The alignment stays within the seeds' span and a margin on each side: a chain whose span
    // cannot hold minTokens on both sides is not aligned (most chains of two close seeds).
    const last = 2 * end - 2;
    if (seeds[last] - seeds[2 * from] + reach < o.minTokens || seeds[last + 1] - seeds[2 * from + 1] + reach < o.minTokens) continue;
    const al = align(A, B, seeds.subarray(2 * from, 2 * end), alignOptions, self);
    stats.aligned++;
    if (!al) continue;
    const j = judge(al, o);
    if (!j) continue;
    found.push({ a: sideOf(A, bucket.docA, al.aStart, al.aEnd), b: sideOf(B, bucket.docB, al.bStart, al.bEnd), ...j });
  }
  // One result per place pair: of regions overlapping on both sides, the one with the most matched tokens.
  const weight = (p: RegionPair): number => p.similarity * (p.a.end - p.a.start + p.b.end - p.b.start);
  found.sort((x, y) => weight(y) - weight(x) || x.a.start - y.a.start || x.b.start - y.b.start);
  const kept: RegionPair[] = [];
  for (const p of found) {
    if (kept.some((q) => overlap(p.a.start, p.a.end, q.a.start, q.a.end) && overlap(p.b.start, p.b.end, q.b.start, q.b.end))) continue;
    if (self && kept.some((q) => overlap(p.a.start, p.a.end, q.b.start, q.b.end) && overlap(p.b.start, p.b.end, q.a.start, q.a.end))) continue;
    kept.push(p);
  }
  kept.sort((x, y) => x.a.start - y.a.start || x.b.start - y.b.start);
  return kept;
}

/** A plan's result from the region pairs a kernel's bucket search found: their groups, the plan's counts and frequent hashes. */
export function searchedResult(plan: RegionPlan, pairs: RegionPair[], made?: Pick<RegionBucketsFound, 'sides' | 'groups'>): RegionResult {
  plan.stats.pairs = pairs.length;
  const groups = made?.groups ? groupsOfFlat(made.groups, pairs) : groupRegions(pairs);
  return { pairs, groups, stats: plan.stats, ...(plan.frequent ? { frequent: plan.frequent } : {}), ...(made?.sides ? { sideFacts: made.sides } : {}) };
}

/** Finds the copied regions among documents (indices into `docs` in the results). */
export function findRegions(docs: RegionDocument[], options: RegionOptions = {}): RegionResult {
  const plan = planRegions(docs, options);
  const o = plan.options;
  const batch = bucketKernelOf(options);
  if (batch) {
    const wanted = wantedBuckets(plan.bucketCuts, o, options.skipPair);
    return searchedResult(plan, kernelBucketRegions(docs, plan.seedPairs, plan.bucketCuts, wanted, o, batch, plan.stats, options.threads));
  }
  const align = options.aligner ?? (options.kernel ? kernelAligner(options.kernel) : alignChain);
  const stats = plan.stats;
  const pairs: RegionPair[] = [];
  for (const bucket of plan.buckets) {
    if (!bucketWanted(bucket, o, options.skipPair)) continue;
    pairs.push(...bucketRegions(docs, bucket, o, align, stats));
  }
  stats.pairs = pairs.length;
  return { pairs, groups: groupRegions(pairs), stats };
}
