/**
 * The region finder spread over the scan's workers (issue 12, `--locate`): this thread indexes
 * the documents' anchors and cuts the seeds into buckets (core/regions planRegions); the buckets,
 * in runs of about equal seeds, go to every worker of the pool, which chain, align and judge them
 * (node/workers/regionJob.ts) on the documents it shares through shared memory; the pairs come
 * back in bucket order, so the result is findRegions' on one thread, pair for pair. A run a worker
 * fails is done on this thread.
 */
import type { RegionDocument } from '../../core/regions/document';
import { groupRegions } from '../../core/regions/groups';
import { alignChain, kernelAligner } from '../../core/regions/align';
import { bucketRegions, bucketWanted, planRegions, type RegionOptions, type RegionPair, type RegionResult } from '../../core/regions/regions';
import type { SeedBucket } from '../../core/regions/anchorIndex';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import { unpackRegionPairs, type RegionBucketsResponse } from '../workers/regionJob';
import type { WorkerPool } from '../workers/workerPool';

/** Runs per worker: the work of a bucket varies a lot, so more runs than workers balance it. */
const RUNS_PER_WORKER = 6;

let nextDocsId = 1;

/** findRegions(docs, options) with the buckets' work done by the pool's workers. */
export async function findRegionsInPool(docs: RegionDocument[], options: RegionOptions, pool: WorkerPool<WorkerRequest, WorkerResponse>): Promise<RegionResult> {
  const plan = planRegions(docs, options);
  const o = plan.options;
  const stats = plan.stats;
  const wanted = plan.buckets.filter((b) => bucketWanted(b, o, options.skipPair));

  // Runs of consecutive buckets of about equal seeds.
  let total = 0;
  for (const b of wanted) total += b.pairs.length;
  const target = Math.max(1, total / Math.max(1, pool.size * RUNS_PER_WORKER));
  const runs: SeedBucket[][] = [];
  let run: SeedBucket[] = [];
  let seeds = 0;
  for (const b of wanted) {
    run.push(b);
    seeds += b.pairs.length;
    if (seeds >= target) {
      runs.push(run);
      run = [];
      seeds = 0;
    }
  }
  if (run.length > 0) runs.push(run);

  const here = (r: SeedBucket[]): RegionPair[] => {
    const align = options.aligner ?? (options.kernel ? kernelAligner(options.kernel) : alignChain);
    return r.flatMap((b) => bucketRegions(docs, b, o, align, stats));
  };
  const docsId = nextDocsId++;
  const results: RegionPair[][] = new Array(runs.length);
  let next = 0;
  // One lane per worker: each sends the documents with its first run, then only their id.
  const lanes = Array.from({ length: Math.min(pool.size, runs.length) }, async (_, slot) => {
    let sent = false;
    while (next < runs.length) {
      const i = next++;
      const r = runs[i];
      let seedCount = 0;
      for (const b of r) seedCount += b.pairs.length;
      const buckets = new Uint32Array(3 * r.length);
      const seedArray = new Int32Array(seedCount);
      let at = 0;
      r.forEach((b, j) => {
        buckets.set([b.docA, b.docB, b.pairs.length / 2], 3 * j);
        seedArray.set(b.pairs, at);
        at += b.pairs.length;
      });
      const ask = (withDocs: boolean) =>
        pool.run({ type: 'regionBuckets', docsId, ...(withDocs ? { docs } : {}), options: o, buckets, seeds: seedArray }, undefined, { slot }) as Promise<RegionBucketsResponse>;
      try {
        let res = await ask(!sent);
        sent = true;
        if ('missingDocs' in res) res = await ask(true); // the worker restarted
        if ('missingDocs' in res) throw new Error('the worker lost the documents');
        stats.chains += res.chains;
        stats.aligned += res.aligned;
        results[i] = unpackRegionPairs(res);
      } catch {
        sent = false;
        results[i] = here(r);
      }
    }
  });
  await Promise.all(lanes);
  const pairs = results.flat();
  stats.pairs = pairs.length;
  return { pairs, groups: groupRegions(pairs), stats };
}
