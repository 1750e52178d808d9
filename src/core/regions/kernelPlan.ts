/**
 * The plan of a region search made by a kernel's job with the search itself (CodeKernel.
 * regionPlanAsync, native/regionplan.c): the arguments it takes — the documents' stored anchors
 * where they are (no index built here), the postings caps — and, from what it gives, the plan
 * planRegions would have made (the same seeds, buckets, counts and frequent hashes), each
 * bucket's fate (searched, held back) and the identical documents' classes.
 */
import type { CodeKernel, RegionBucketsFound } from '../types';
import { AnchorIndex, fillCaps, frequentHashes, seedsOf } from './anchorIndex';
import type { RegionDocument } from './document';
import { bucketParams, documentStreams } from './kernelBuckets';
import { anchorsStoredFit, postingCaps, resolveRegionOptions, type RegionOptions, type RegionPlan, type RegionStats } from './regions';
import { sideOptionsArray, type SideRequest } from './sideFacts';

/** A kernel that plans and searches in one job off the calling thread: the native addon. */
export type PlanKernel = Required<Pick<CodeKernel, 'regionPlanAsync'>>;

/** A kernel's plan and search (kernelPlanAsync). */
export interface KernelPlanned {
  plan: RegionPlan;
  /** Per bucket: 0 not searched, 1 searched, 2 held back (two identical documents). */
  wanted: Uint8Array;
  /** Per document: its first identical document when it has one, else -1. */
  classOf: Int32Array;
  /** The regions of the buckets searched. */
  found: RegionBucketsFound;
}


/**
 * planRegions(docs, options) and the kernel's search of the wanted buckets, with buckets of two
 * identical documents held back when `holdIdentical`, as one job on `threads` threads off this
 * one; undefined (nothing started) when the kernel would not plan what planRegions does: options
 * other than the stored anchors' (k, w, streams), rescued hashes, a document of minTokens tokens
 * without stored anchors. Options' functions (skipPair, aligner) are not read. With `sides`, the
 * job makes the regions' sides too (found.sides, sideFacts.ts), from the documents' token starts
 * and lines where they are.
 */
export function kernelPlanAsync(
  kernel: PlanKernel,
  docs: readonly RegionDocument[],
  options: RegionOptions,
  threads: number,
  holdIdentical: boolean,
  sides?: SideRequest,
): Promise<KernelPlanned> | undefined {
  const o = resolveRegionOptions(options);
  if (!anchorsStoredFit(o) || o.rescuePostings > 0) return undefined;
  const anchors: Array<Uint32Array | Int32Array | null> = new Array(2 * docs.length).fill(null);
  let tokens = 0;
  let reserve = 0;
  let indexed = 0; // one past the last document with an anchor (AnchorIndex's `docs`)
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    tokens += doc.length;
    if (doc.length < o.minTokens) continue;
    if (!doc.anchors) return undefined;
    const m = doc.anchors.hash.length;
    if (m === 0) continue;
    anchors[2 * d] = doc.anchors.hash;
    anchors[2 * d + 1] = doc.anchors.pos;
    reserve += m;
    indexed = d + 1;
  }
  const { cap, capOf } = postingCaps(docs, o);
  const caps = new Uint32Array(indexed);
  fillCaps(caps, cap, capOf);
  const s = documentStreams(docs);
  const plan = Float64Array.from([o.selfMatches ? 1 : 0, Math.max(o.minSeeds, o.minBucketSeeds), holdIdentical ? 1 : 0]);
  let places: Array<Int32Array | null> | undefined;
  if (sides) {
    places = new Array(3 * docs.length);
    for (let d = 0; d < docs.length; d++) {
      places[3 * d] = docs[d].start;
      places[3 * d + 1] = docs[d].lineStarts;
      places[3 * d + 2] = docs[d].reportLines ?? null;
    }
  }
  const job = sides
    ? kernel.regionPlanAsync(s.streams, s.lengths, s.prose, anchors, caps, o.maxDocs, bucketParams(o), plan, threads, places, sideOptionsArray(sides))
    : kernel.regionPlanAsync(s.streams, s.lengths, s.prose, anchors, caps, o.maxDocs, bucketParams(o), plan, threads);
  return job.then((r) => {
    const frequent = r.frequent && indexed > 0 ? frequentHashes(r.frequent, r.frequentOver) : undefined;
    const seeds = seedsOf(r.pairs, r.buckets, r.dropped, frequent);
    const stats: RegionStats = {
      documents: docs.length,
      tokens,
      anchors: r.anchors,
      indexBytes: AnchorIndex.bytesAfterReserve(reserve),
      droppedHashes: r.dropped,
      seeds: seeds.seeds,
      chains: 0,
      aligned: 0,
      pairs: 0,
    };
    const planned: RegionPlan = {
      options: o,
      get buckets() {
        return seeds.buckets;
      },
      seedPairs: r.pairs,
      bucketCuts: r.buckets,
      stats,
      ...(frequent ? { frequent: { ...frequent, minTokens: o.minTokens } } : {}),
    };
    return { plan: planned, wanted: r.wanted, classOf: r.classOf, found: r.found };
  });
}
