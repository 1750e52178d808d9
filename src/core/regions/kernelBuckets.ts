/**
 * The region finder's buckets searched by a kernel in one call (CodeKernel.regionBuckets,
 * native/buckets.c): the documents' streams as the kernel takes them (made once per list of
 * documents), the options as its flat parameters, and the call. regions.ts kernelBucketRegions
 * makes the region pairs of what it returns. Also fileCopies' second search in one call
 * (CodeKernel.copySearch, native/copysearch.c: copySearchOf).
 */
import type { CodeKernel, RegionBucketsFound } from '../types';
import type { AlignOptions } from './align';
import type { Anchors } from './anchors';
import { idsDerived, type RegionDocument } from './document';

/** Most threads one bucket search takes (~0.25 s of CPU on the small bench tree: more threads would mostly add their start and working memory; measured on 2 cores only). */
export const BUCKET_SEARCH_MAX_THREADS = 4;

/** A kernel that searches buckets in one call. */
export type BucketKernel = Required<Pick<CodeKernel, 'regionBuckets'>>;

/** What the kernel reads of findRegions' resolved options: the alignment's and these. */
export interface BucketParamsOptions extends AlignOptions {
  maxGap: number;
  maxDrift: number;
  driftRate: number;
  joinGap: number;
  proseMaxJoinIndel: number;
  minSeeds: number;
  minTokens: number;
  minSimilarity: number;
  shortSimilarity: number;
  longTokens: number;
}

/** The kernel's flat parameters, in the order of native/buckets.h BUCKET_PARAMS. */
export function bucketParams(o: BucketParamsOptions): Float64Array {
  return Float64Array.from([
    o.k,
    o.coverK,
    o.margin,
    o.band,
    o.fringeGap,
    o.minConsistency,
    o.maxGap,
    o.maxDrift,
    o.driftRate,
    o.joinGap,
    o.proseMaxJoinIndel,
    o.minSeeds,
    o.minTokens,
    o.minSimilarity,
    o.shortSimilarity,
    o.longTokens,
  ]);
}

interface DocumentStreams {
  docs: RegionDocument[];
  streams: Array<Uint32Array | Uint8Array | null>;
  lengths: Int32Array;
  prose: Uint8Array;
}

const made = new WeakMap<readonly RegionDocument[], DocumentStreams>();

/**
 * The streams of a list of documents, the same array for the same documents (the WebAssembly
 * kernel keeps its copy of the last array it was given): a list that changed since gets new ones.
 */
export function documentStreams(docs: readonly RegionDocument[]): DocumentStreams {
  const known = made.get(docs);
  if (known && known.docs.length === docs.length && known.docs.every((d, i) => d === docs[i])) return known;
  const streams: Array<Uint32Array | Uint8Array | null> = new Array(5 * docs.length);
  const lengths = new Int32Array(docs.length);
  const prose = new Uint8Array(docs.length);
  docs.forEach((d, i) => {
    streams[5 * i] = d.raw.hi;
    streams[5 * i + 1] = d.raw.lo;
    // A lean document's normalised stream is made by the kernel, window by window, from isIdent.
    const lean = idsDerived(d);
    streams[5 * i + 2] = lean ? null : (d.ids?.hi ?? null);
    streams[5 * i + 3] = lean ? null : (d.ids?.lo ?? null);
    streams[5 * i + 4] = lean || d.ids ? d.isIdent : null;
    lengths[i] = d.length;
    prose[i] = d.kind === 'prose' ? 1 : 0;
  });
  const s = { docs: [...docs], streams, lengths, prose };
  made.set(docs, s);
  return s;
}

/**
 * The kernel's search of the buckets (docA docB end, into `seeds`) that `wanted` marks (null: all),
 * on `threads` threads when the kernel has them (the native addon; default 1).
 */
export function searchBuckets(
  kernel: BucketKernel,
  docs: readonly RegionDocument[],
  seeds: Int32Array,
  buckets: Uint32Array,
  wanted: Uint8Array | null,
  o: BucketParamsOptions,
  threads = 1,
): RegionBucketsFound {
  const s = documentStreams(docs);
  return kernel.regionBuckets(s.streams, s.lengths, s.prose, seeds, buckets, wanted, bucketParams(o), threads);
}

/** A kernel that searches buckets off the calling thread. */
export type AsyncBucketKernel = Required<Pick<CodeKernel, 'regionBucketsAsync'>>;

/**
 * searchBuckets off the calling thread: the arrays given (and the documents' streams) must stay
 * untouched until it settles.
 */
export function searchBucketsAsync(
  kernel: AsyncBucketKernel,
  docs: readonly RegionDocument[],
  seeds: Int32Array,
  buckets: Uint32Array,
  wanted: Uint8Array | null,
  o: BucketParamsOptions,
  threads: number,
): Promise<RegionBucketsFound> {
  const s = documentStreams(docs);
  return kernel.regionBucketsAsync(s.streams, s.lengths, s.prose, seeds, buckets, wanted, bucketParams(o), threads);
}

/** A kernel that makes fileCopies' second search in one call: the native addon. */
export type CopyKernel = Required<Pick<CodeKernel, 'copySearch'>>;

/** The kernel's copySearch when it has one. */
export function copyKernelOf(kernel: Partial<Pick<CodeKernel, 'copySearch'>> | undefined): CopyKernel | undefined {
  return kernel?.copySearch ? (kernel as CopyKernel) : undefined;
}

/** What fileCopies' second search is given besides the documents and pairs. */
export interface CopySearchInput {
  /** A document's anchors (stored, or made: defaultAnchors). */
  anchorsOf: (d: RegionDocument) => Anchors;
  /** Sorted hashes left out of a code document's anchors, and of a prose document's. */
  drop: readonly [Uint32Array, Uint32Array];
  /** The two-document plan's options (its maxPostings, selfMatches off) and its caps of a code and a prose document. */
  options: BucketParamsOptions & { minBucketSeeds: number };
  caps: { code: number; prose: number };
  /** A bucket whose seeds' coverBound is under this on either side is not searched. */
  cover: number;
  threads?: number;
}

/**
 * The kernel's second search of the pairs (x, y; x < y) of fileCopies.ts (searchAllAlone's buckets
 * and regions): `buckets` x y end per bucket searched, in the pairs' order, and what regionBuckets
 * gives of them (regions.ts bucketPairsOf makes the pairs).
 */
export function copySearchOf(kernel: CopyKernel, docs: readonly RegionDocument[], pairs: ReadonlyArray<readonly [number, number]>, input: CopySearchInput): RegionBucketsFound & { buckets: Uint32Array } {
  const s = documentStreams(docs);
  const anchors: Array<Uint32Array | Int32Array | null> = new Array(2 * docs.length).fill(null);
  const flat = new Uint32Array(2 * pairs.length);
  pairs.forEach(([x, y], i) => {
    flat[2 * i] = x;
    flat[2 * i + 1] = y;
    for (const d of [x, y]) {
      if (anchors[2 * d] !== null) continue;
      const a = input.anchorsOf(docs[d]);
      anchors[2 * d] = a.hash;
      anchors[2 * d + 1] = a.pos;
    }
  });
  const o = input.options;
  const caps = Uint32Array.of(input.caps.code, input.caps.prose);
  const search = Float64Array.of(Math.max(o.minSeeds, o.minBucketSeeds), input.cover);
  return kernel.copySearch(s.streams, s.lengths, s.prose, anchors, input.drop, flat, caps, bucketParams(o), search, input.threads ?? 1);
}
