/**
 * The region finder's per-bucket work in a worker (issue 12: the copies located inside files): a
 * job is a run of seed buckets (two documents, or one with itself, and the seeds they share); the
 * worker chains, aligns (native kernel when built: the whole run in one call of its bucket search),
 * judges and reduces each bucket's seeds exactly as findRegions does on one thread
 * (core/regions/regions.ts bucketRegions), and answers the
 * region pairs packed. The documents are the scan's region documents on shared memory: sent with
 * a job the first time a worker sees them (kept by their id), views thereafter — a worker that
 * restarted answers `missingDocs` and the caller sends them again.
 */
import { alignChain, kernelAligner } from '../../core/regions/align';
import type { RegionDocument } from '../../core/regions/document';
import { bucketRegions, kernelBucketRegions, type CloneKind, type RegionPair, type ResolvedRegionOptions } from '../../core/regions/regions';
import type { BucketKernel } from '../../core/regions/kernelBuckets';
import type { CodeKernel } from '../../core/types';
import type { RegionBucketsRequest, RegionBucketsResponse } from '../workers/messages';
import type { PackedRegionPairs } from '../workers/packing';
import { nativeKernel } from '../workers/nativeKernel';
import { pairSides, type PairSides } from './regionSides';

export const PAIR_INTS = 12;
export const PAIR_FLOATS = 3;
const KINDS: CloneKind[] = ['exact', 'renamed', 'edited'];

let held: { id: number; docs: RegionDocument[] } | null = null;

/** Runs a job in this worker. */
export function runRegionBuckets(req: RegionBucketsRequest): RegionBucketsResponse {
  if (req.docs) held = { id: req.docsId, docs: req.docs };
  if (!held || held.id !== req.docsId) return { missingDocs: true };
  const stats = { chains: 0, aligned: 0 };
  const kernel = nativeKernel() ?? undefined;
  const pairs = runBuckets(held.docs, req.buckets, req.seeds, req.options, kernel, stats);
  const packed: PackedRegionPairs = { ...packRegionPairs(pairs), chains: stats.chains, aligned: stats.aligned };
  if (req.sides) {
    packed.sideInts = new Int32Array(3 * pairs.length);
    packed.sideKeys = new Array<string>(2 * pairs.length);
    pairs.forEach((p, i) => {
      const s = pairSides(held!.docs[p.a.doc], held!.docs[p.b.doc], p, req.sides!, kernel);
      packed.sideInts!.set([s.aStart, s.bStart, s.distance], 3 * i);
      packed.sideKeys![2 * i] = s.aKey;
      packed.sideKeys![2 * i + 1] = s.bKey;
    });
  }
  return packed;
}

/**
 * bucketRegions of a run of buckets (docA docB end each: the end of its seed pairs in `seeds`, the
 * cuts of the kernel's bucket search and of planRegions), in order: by the kernel's bucket search
 * in one call when it has one, else bucket by bucket (the kernel's aligner, or the TypeScript's).
 */
export function runBuckets(
  docs: RegionDocument[],
  buckets: Uint32Array,
  seeds: Int32Array,
  options: ResolvedRegionOptions,
  kernel: Partial<Pick<CodeKernel, 'alignChain' | 'regionBuckets'>> | undefined,
  stats: { chains: number; aligned: number },
): RegionPair[] {
  if (kernel?.regionBuckets) return kernelBucketRegions(docs, seeds, buckets, null, options, kernel as BucketKernel, stats);
  const align = kernel?.alignChain ? kernelAligner(kernel as Pick<CodeKernel, 'alignChain'>) : alignChain;
  const pairs: RegionPair[] = [];
  for (let b = 0, from = 0; b < buckets.length; from = buckets[b + 2], b += 3) {
    const bucket = { docA: buckets[b], docB: buckets[b + 1], pairs: seeds.subarray(2 * from, 2 * buckets[b + 2]) };
    for (const p of bucketRegions(docs, bucket, options, align, stats)) pairs.push(p);
  }
  return pairs;
}

/** The sides of {@link runRegionBuckets}' pairs, by pair. */
export function unpackPairSides(p: PackedRegionPairs): PairSides[] | undefined {
  const { sideInts, sideKeys } = p;
  if (!sideInts || !sideKeys) return undefined;
  return Array.from({ length: sideInts.length / 3 }, (_, i) => ({
    aStart: sideInts[3 * i],
    bStart: sideInts[3 * i + 1],
    distance: sideInts[3 * i + 2],
    aKey: sideKeys[2 * i],
    bKey: sideKeys[2 * i + 1],
  }));
}

export function packRegionPairs(pairs: readonly RegionPair[]): Omit<PackedRegionPairs, 'chains' | 'aligned'> {
  const ints = new Int32Array(pairs.length * PAIR_INTS);
  const floats = new Float64Array(pairs.length * PAIR_FLOATS);
  pairs.forEach((p, i) => {
    ints.set([p.a.doc, p.a.start, p.a.end, p.a.startLine, p.a.endLine, p.b.doc, p.b.start, p.b.end, p.b.startLine, p.b.endLine, KINDS.indexOf(p.clone), p.renames], i * PAIR_INTS);
    floats.set([p.similarity, p.rawSimilarity, p.consistency], i * PAIR_FLOATS);
  });
  return { packed: 'regionPairs', ints, floats };
}

export function unpackRegionPairs(p: Pick<PackedRegionPairs, 'ints' | 'floats'>): RegionPair[] {
  const out: RegionPair[] = new Array(p.ints.length / PAIR_INTS);
  for (let i = 0; i < out.length; i++) {
    const x = i * PAIR_INTS;
    const f = i * PAIR_FLOATS;
    const t = p.ints;
    out[i] = {
      a: { doc: t[x], start: t[x + 1], end: t[x + 2], startLine: t[x + 3], endLine: t[x + 4] },
      b: { doc: t[x + 5], start: t[x + 6], end: t[x + 7], startLine: t[x + 8], endLine: t[x + 9] },
      clone: KINDS[t[x + 10]],
      similarity: p.floats[f],
      rawSimilarity: p.floats[f + 1],
      consistency: p.floats[f + 2],
      renames: t[x + 11],
    };
  }
  return out;
}
