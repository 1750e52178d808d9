/**
 * The region finder's buckets searched on the native kernel's threads (issue 12, `--locate`): the
 * plan — the documents' anchors into one index, its seeds cut into buckets, the identical
 * documents — and the search of every wanted bucket are one job of the kernel off this thread
 * (regionPlanAsync, native/regionplan.c: a thread of libuv's pool, then threads of its own for the
 * search, native/threads.c) while this one matches sections and makes the report. A kernel
 * without that job, a `defer` function, a `skipPair`, or a plan the job declines (kernelPlan.ts
 * kernelPlanAsync: options other than the stored anchors', a document without them) has the plan
 * made here (core/regions planRegions) and the buckets searched off this thread
 * (regionBucketsAsync). The buckets held
 * back wait for result() and are searched then, when `keep` says so. The result is findRegions',
 * pair for pair.
 */
import type { RegionDocument } from '../../core/regions/document';
import { searchBuckets, searchBucketsAsync, type AsyncBucketKernel, type BucketKernel } from '../../core/regions/kernelBuckets';
import { kernelPlanAsync, type PlanKernel } from '../../core/regions/kernelPlan';
import { bucketPairsOf, planRegions, searchedResult, wantedBuckets, type RegionOptions, type RegionPlan, type RegionResult } from '../../core/regions/regions';
import type { CodeKernel, RegionBucketsFound } from '../../core/types';
import { SIDE_INTS, type SideRequest } from '../../core/regions/sideFacts';
import { searchedRows, type RegionRowsResult } from '../regions/regionRows';
import { identicalClasses } from './identicalDocs';

/** A kernel that searches buckets on threads, off the calling one: the native addon. */
export type ThreadedBucketKernel = BucketKernel & AsyncBucketKernel & Partial<PlanKernel> & Pick<CodeKernel, 'regionGroups'>;

/** The kernel's threaded bucket search, when it has one. */
export function threadedKernelOf<K extends Partial<ThreadedBucketKernel>>(kernel: K | null | undefined): (K & ThreadedBucketKernel) | undefined {
  return kernel?.regionBuckets && kernel.regionBucketsAsync ? (kernel as K & ThreadedBucketKernel) : undefined;
}

/** A region search under way on the kernel's threads (startRegionsOnThreads). */
export interface RegionsOnThreads {
  /** Its result once the kernel is done; the buckets held back (`defer`) searched now when `keep` says so (findRegions' with skipPair = !keep for those). */
  result(keep?: (docA: number, docB: number) => boolean): Promise<RegionResult>;
  /** result() as rows (node/regions/regionRows.ts: the same pairs and groups, no object per pair). */
  rows(keep?: (docA: number, docB: number) => boolean): Promise<RegionRowsResult>;
  /** With `defer` 'identical': per document, its first identical document, else -1 (identicalDocs.ts identicalClasses). */
  classes(): Promise<Int32Array | undefined>;
}

/** The region finder's options for a search on the kernel's threads: its kernel one that has them (no aligner: the kernel aligns). */
type ThreadedRegionOptions = Omit<RegionOptions, 'kernel' | 'aligner'> & { kernel: ThreadedBucketKernel & RegionOptions['kernel'] };

/** Which pairs of documents wait for result(): those a function names, or two different identical documents. */
export type DeferredPairs = ((docA: number, docB: number) => boolean) | 'identical';

/**
 * Starts the plan and the kernel's search of its seed buckets on `threads` threads off this one;
 * buckets of pairs `defer` names wait for result(). With `sides`, a plan job makes the regions'
 * sides too (RegionResult.sideFacts). The documents and their streams must not change until
 * result() settles.
 */
export function startRegionsOnThreads(
  docs: RegionDocument[],
  options: ThreadedRegionOptions,
  threads: number,
  defer?: DeferredPairs,
  sides?: SideRequest,
): RegionsOnThreads {
  const kernel = options.kernel;
  const job = kernel.regionPlanAsync && !options.skipPair && (defer === undefined || defer === 'identical')
    ? kernelPlanAsync(kernel as PlanKernel, docs, options, threads, defer === 'identical', sides)
    : undefined;
  if (job) {
    job.catch(() => undefined); // a failure is result()'s to report, not an unhandled rejection meanwhile
    return {
      async result(keep = () => true) {
        const { plan, wanted, found } = await job;
        return resultOf(docs, plan, finished(kernel, docs, plan, found, heldOf(wanted), keep, threads));
      },
      async rows(keep = () => true) {
        const { plan, wanted, found } = await job;
        return searchedRows(docs, plan, finished(kernel, docs, plan, found, heldOf(wanted), keep, threads));
      },
      async classes() {
        return defer === 'identical' ? (await job).classOf : undefined;
      },
    };
  }
  return startPlannedHere(docs, options, threads, defer);
}

/** startRegionsOnThreads with the plan made on this thread (planRegions), the search off it. */
function startPlannedHere(
  docs: RegionDocument[],
  options: ThreadedRegionOptions,
  threads: number,
  defer?: DeferredPairs,
): RegionsOnThreads {
  const kernel = options.kernel;
  const classOf = defer === 'identical' ? identicalClasses(docs) : undefined;
  const held = classOf ? (a: number, b: number) => a !== b && classOf[a] >= 0 && classOf[a] === classOf[b] : (defer as Exclude<DeferredPairs, 'identical'>);
  const plan = planRegions(docs, options);
  const o = plan.options;
  const cuts = plan.bucketCuts;
  const wanted = wantedBuckets(cuts, o, options.skipPair);
  const heldBuckets: number[] = [];
  if (held) {
    for (let b = 0; b < wanted.length; b++) {
      if (wanted[b] && held(cuts[3 * b], cuts[3 * b + 1])) {
        wanted[b] = 0;
        heldBuckets.push(b);
      }
    }
  }
  const search = searchBucketsAsync(kernel, docs, plan.seedPairs, cuts, wanted, o, threads);
  search.catch(() => undefined); // a failure is result()'s to report, not an unhandled rejection meanwhile
  return {
    async result(keep = () => true) {
      return resultOf(docs, plan, finished(kernel, docs, plan, await search, heldBuckets, keep, threads));
    },
    async rows(keep = () => true) {
      return searchedRows(docs, plan, finished(kernel, docs, plan, await search, heldBuckets, keep, threads));
    },
    classes: () => Promise.resolve(classOf),
  };
}

/** The buckets a plan job held back (wanted 2). */
function heldOf(wanted: Uint8Array): number[] {
  const held: number[] = [];
  for (let b = 0; b < wanted.length; b++) if (wanted[b] === 2) held.push(b);
  return held;
}

/** A plan's result from its whole search (finished). */
const resultOf = (docs: RegionDocument[], plan: RegionPlan, found: RegionBucketsFound): RegionResult => searchedResult(plan, bucketPairsOf(docs, plan.bucketCuts, found, plan.stats), found);

/** A plan's search with the buckets held back that `keep` keeps searched now (on this thread), the two in bucket order (their groups made again). */
function finished(
  kernel: BucketKernel & Pick<CodeKernel, 'regionGroups'>,
  docs: RegionDocument[],
  plan: RegionPlan,
  found: RegionBucketsFound,
  held: readonly number[],
  keep: (docA: number, docB: number) => boolean,
  threads: number,
): RegionBucketsFound {
  const cuts = plan.bucketCuts;
  const later = new Uint8Array(cuts.length / 3);
  let any = false;
  for (const b of held) {
    if (!keep(cuts[3 * b], cuts[3 * b + 1])) continue;
    later[b] = 1;
    any = true;
  }
  // (the job's groups are of its regions alone: with more searched here, the kernel groups them
  // all again, else groupRegions does)
  if (any) {
    found = inBucketOrder(found, searchBuckets(kernel, docs, plan.seedPairs, cuts, later, plan.options, threads));
    const groups = kernel.regionGroups?.(cuts, found.ints);
    if (groups) found.groups = groups;
  }
  return found;
}

/**
 * Two searches of the same buckets (different ones searched in each) as one: their regions in
 * bucket order, their counts summed; the sides one of them made (sideFacts.ts) kept, rows of −1
 * for the other's regions.
 */
export function inBucketOrder(x: RegionBucketsFound, y: RegionBucketsFound): RegionBucketsFound {
  const n = x.ints.length / 7;
  const m = y.ints.length / 7;
  const ints = new Int32Array(x.ints.length + y.ints.length);
  const floats = new Float64Array(x.floats.length + y.floats.length);
  const sides = x.sides || y.sides ? new Int32Array(SIDE_INTS * (n + m)).fill(-1) : undefined;
  // Each search's regions are in bucket order and a bucket is in one of them: runs of rows taken
  // from one, then the other, each copied at once.
  let i = 0;
  let j = 0;
  let k = 0;
  const take = (src: RegionBucketsFound, from: number, to: number) => {
    ints.set(src.ints.subarray(7 * from, 7 * to), 7 * k);
    floats.set(src.floats.subarray(3 * from, 3 * to), 3 * k);
    if (sides && src.sides) sides.set(src.sides.subarray(SIDE_INTS * from, SIDE_INTS * to), SIDE_INTS * k);
    k += to - from;
  };
  while (i < n || j < m) {
    if (j >= m || (i < n && x.ints[7 * i] < y.ints[7 * j])) {
      const end = j < m ? y.ints[7 * j] : Infinity;
      let e = i + 1;
      while (e < n && x.ints[7 * e] < end) e++;
      take(x, i, e);
      i = e;
    } else {
      const end = i < n ? x.ints[7 * i] : Infinity;
      let e = j + 1;
      while (e < m && y.ints[7 * e] < end) e++;
      take(y, j, e);
      j = e;
    }
  }
  return { ints, floats, chains: x.chains + y.chains, aligned: x.aligned + y.aligned, ...(sides ? { sides } : {}) };
}
