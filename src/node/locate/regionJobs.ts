/**
 * The region finder spread over the scan's workers (issue 12, `--locate`): this thread indexes
 * the documents' anchors and cuts the seeds into buckets (core/regions planRegions); the buckets,
 * in runs of about equal seeds, go to the pool's workers, which chain, align and judge them
 * (node/regions/regionJob.ts) on the documents it shares through shared memory; the pairs come
 * back in bucket order, so the result is findRegions' on one thread, pair for pair. This thread
 * takes runs from the same queue once it asks for the result (it is a core too: one worker fewer
 * is sent runs, {@link regionSlots}). A run a worker fails is done on this thread.
 */
import type { RegionDocument } from '../../core/regions/document';
import { groupRegions } from '../../core/regions/groups';
import { alignChain, kernelAligner } from '../../core/regions/align';
import { bucketKernelOf, bucketRegions, planRegions, wantedBucketList, type RegionOptions, type RegionPair, type RegionResult } from '../../core/regions/regions';
import type { SeedBucket } from '../../core/regions/anchorIndex';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import { runBuckets, unpackPairSides, unpackRegionPairs } from '../regions/regionJob';
import type { RegionBucketsResponse } from '../workers/messages';
import type { PairSides, SideOptions } from '../regions/regionSides';
import type { WorkerPool } from '../workers/workerPool';

/** Runs per thread: the work of a bucket varies a lot, so more runs than threads balance it. */
const RUNS_PER_WORKER = 8;

/**
 * The workers of a pool of `size` sent runs: one fewer than the pool (this thread takes runs too;
 * the pool has a worker per core), at least one: each worker taking runs receives the documents
 * and compiles the chaining code again (~0.3 s of CPU on the small bench tree), on a core the
 * others need.
 */
export const regionSlots = (size: number): number => Math.max(1, size - 1);

let nextDocsId = 1;

/** A region search under way on a pool (startRegionsInPool). */
export interface RegionsInPool {
  /**
   * Its result once every run is back; the buckets held back (`defer`) are worked on this thread
   * when `keep` says so — findRegions' result with those buckets' skipPair = !keep. With `sides`,
   * each pair's sides as the workers made them (none for pairs found on this thread).
   */
  result(keep?: (docA: number, docB: number) => boolean): Promise<RegionResult & { sides: Array<PairSides | undefined>; workedHere: number }>;
}

/** findRegions(docs, options) with the buckets' work done by the pool's workers. */
export function findRegionsInPool(docs: RegionDocument[], options: RegionOptions, pool: WorkerPool<WorkerRequest, WorkerResponse>): Promise<RegionResult> {
  return startRegionsInPool(docs, options, pool).result();
}

/**
 * Indexes the documents' anchors and sends their seed buckets to the pool's workers now (this
 * thread is free to do other work while they chain and align); buckets of pairs `defer` names wait
 * for result().
 */
export function startRegionsInPool(
  docs: RegionDocument[],
  options: RegionOptions,
  pool: WorkerPool<WorkerRequest, WorkerResponse>,
  defer?: (docA: number, docB: number) => boolean,
  sides?: SideOptions,
): RegionsInPool {
  const plan = planRegions(docs, options);
  const o = plan.options;
  const stats = plan.stats;
  const wanted = wantedBucketList(plan, options.skipPair); // objects for these only (not every pair of documents)
  const held = new Set<number>();
  if (defer) wanted.forEach((b, i) => defer(b.docA, b.docB) && held.add(i));

  // Runs of consecutive buckets of about equal seeds (the held ones left out).
  let total = 0;
  wanted.forEach((b, i) => {
    if (!held.has(i)) total += b.pairs.length;
  });
  const slots = regionSlots(pool.size);
  const target = Math.max(1, total / Math.max(1, (slots + 1) * RUNS_PER_WORKER));
  const runs: number[][] = [];
  let run: number[] = [];
  let seeds = 0;
  wanted.forEach((b, i) => {
    if (held.has(i)) return;
    run.push(i);
    seeds += b.pairs.length;
    if (seeds >= target) {
      runs.push(run);
      run = [];
      seeds = 0;
    }
  });
  if (run.length > 0) runs.push(run);

  const batch = bucketKernelOf(options);
  const align = options.aligner ?? (options.kernel ? kernelAligner(options.kernel) : alignChain);
  const found: RegionPair[][] = new Array(wanted.length);
  const foundSides: Array<Array<PairSides | undefined>> = new Array(wanted.length);
  /** A run's buckets (docA docB end each: the end of its seed pairs) and their seeds, flat (as a worker takes them). */
  const flat = (r: number[]): { buckets: Uint32Array; seeds: Int32Array } => {
    let seedCount = 0;
    for (const i of r) seedCount += wanted[i].pairs.length;
    const buckets = new Uint32Array(3 * r.length);
    const seeds = new Int32Array(seedCount);
    let at = 0;
    r.forEach((i, j) => {
      const b = wanted[i];
      seeds.set(b.pairs, at);
      at += b.pairs.length;
      buckets.set([b.docA, b.docB, at / 2], 3 * j);
    });
    return { buckets, seeds };
  };
  /** A run's pairs (its buckets' in order) back to their buckets; false when some are left over. */
  const split = (r: number[], pairs: RegionPair[], made: PairSides[] | undefined): boolean => {
    let p = 0;
    for (let j = 0; j < r.length; j++) {
      const b = wanted[r[j]];
      const from = p;
      while (p < pairs.length && pairs[p].a.doc === b.docA && pairs[p].b.doc === b.docB) p++;
      found[r[j]] = pairs.slice(from, p);
      foundSides[r[j]] = made ? made.slice(from, p) : [];
    }
    return p === pairs.length;
  };
  let workedHere = 0;
  const here = (r: number[]) => {
    workedHere += r.length;
    if (batch) {
      const { buckets, seeds } = flat(r);
      split(r, runBuckets(docs, buckets, seeds, o, batch, stats), undefined);
      return;
    }
    for (const i of r) {
      found[i] = bucketRegions(docs, wanted[i], o, align, stats);
      foundSides[i] = [];
    }
  };
  const docsId = nextDocsId++;
  let next = 0;
  // Two lanes per worker (a run in flight while the next waits: the worker is not idle while this
  // thread is busy matching sections); each lane sends the documents with its first run, then
  // only their id.
  const sentTo = new Set<number>(); // the slots sent the documents (a worker handles its messages in order)
  const lanes = Array.from({ length: Math.min(2 * slots, runs.length) }, async (_, lane) => {
    const slot = lane % slots;
    while (next < runs.length) {
      const r = runs[next++];
      const { buckets, seeds: seedArray } = flat(r);
      const ask = (force: boolean) => {
        const withDocs = force || !sentTo.has(slot);
        sentTo.add(slot);
        return pool.run({ type: 'regionBuckets', docsId, ...(withDocs ? { docs } : {}), options: o, buckets, seeds: seedArray, ...(sides ? { sides } : {}) }, undefined, { slot }) as Promise<RegionBucketsResponse>;
      };
      try {
        let res = await ask(false);
        if ('missingDocs' in res) res = await ask(true); // the worker restarted
        if ('missingDocs' in res) throw new Error('the worker lost the documents');
        stats.chains += res.chains;
        stats.aligned += res.aligned;
        // Back to their buckets: a run's pairs are its buckets' in order.
        if (!split(r, unpackRegionPairs(res), unpackPairSides(res))) throw new Error('a worker answered pairs of documents it was not asked about');
      } catch {
        sentTo.delete(slot);
        here(r);
      }
    }
  });
  const done = Promise.all(lanes);
  return {
    async result(keep = () => true) {
      // This thread takes runs too, one at a time (the workers' answers and their next runs go
      // through between two), until none is left; then waits for those in flight.
      while (next < runs.length) {
        here(runs[next++]);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await done;
      here([...held].filter((i) => keep(wanted[i].docA, wanted[i].docB)));
      const pairs: RegionPair[] = [];
      const pairSides: Array<PairSides | undefined> = [];
      found.forEach((list, i) => {
        if (!list) return;
        for (let j = 0; j < list.length; j++) {
          pairs.push(list[j]);
          pairSides.push(foundSides[i][j]);
        }
      });
      stats.pairs = pairs.length;
      return { pairs, groups: groupRegions(pairs), stats, sides: pairSides, workedHere };
    },
  };
}
