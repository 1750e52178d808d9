/**
 * The region finder's buckets searched on the native kernel's threads (issue 12, `--locate`):
 * this thread indexes the documents' anchors and cuts the seeds into buckets (core/regions
 * planRegions), then the kernel searches every wanted bucket off this thread (regionBucketsAsync:
 * a thread of libuv's pool and threads of its own, native/threads.c) while this one matches
 * sections and makes the report. The buckets of pairs `defer` names wait for result() and are
 * searched then, when `keep` says so. The result is findRegions', pair for pair.
 */
import type { RegionDocument } from '../../core/regions/document';
import { searchBuckets, searchBucketsAsync, type AsyncBucketKernel, type BucketKernel } from '../../core/regions/kernelBuckets';
import { bucketPairsOf, planRegions, searchedResult, wantedBuckets, type RegionOptions, type RegionResult } from '../../core/regions/regions';
import type { RegionBucketsFound } from '../../core/types';

/** A kernel that searches buckets on threads, off the calling one: the native addon. */
export type ThreadedBucketKernel = BucketKernel & AsyncBucketKernel;

/** The kernel's threaded bucket search, when it has one. */
export function threadedKernelOf<K extends Partial<ThreadedBucketKernel>>(kernel: K | null | undefined): (K & ThreadedBucketKernel) | undefined {
  return kernel?.regionBuckets && kernel.regionBucketsAsync ? (kernel as K & ThreadedBucketKernel) : undefined;
}

/** A region search under way on the kernel's threads (startRegionsOnThreads). */
export interface RegionsOnThreads {
  /** Its result once the kernel is done; the buckets held back (`defer`) searched now when `keep` says so (findRegions' with skipPair = !keep for those). */
  result(keep?: (docA: number, docB: number) => boolean): Promise<RegionResult>;
}

/**
 * Indexes the documents' anchors (on this thread) and starts the kernel's search of their seed
 * buckets on `threads` threads; buckets of pairs `defer` names wait for result(). The documents and
 * their streams must not change until result() settles.
 */
export function startRegionsOnThreads(
  docs: RegionDocument[],
  options: Omit<RegionOptions, 'kernel' | 'aligner'> & { kernel: ThreadedBucketKernel & RegionOptions['kernel'] },
  threads: number,
  defer?: (docA: number, docB: number) => boolean,
): RegionsOnThreads {
  const kernel = options.kernel;
  const plan = planRegions(docs, options);
  const o = plan.options;
  const cuts = plan.bucketCuts;
  const seeds = plan.seedPairs;
  const wanted = wantedBuckets(cuts, o, options.skipPair);
  const held: number[] = [];
  if (defer) {
    for (let b = 0; b < wanted.length; b++) {
      if (wanted[b] && defer(cuts[3 * b], cuts[3 * b + 1])) {
        wanted[b] = 0;
        held.push(b);
      }
    }
  }
  const search = searchBucketsAsync(kernel, docs, seeds, cuts, wanted, o, threads);
  search.catch(() => undefined); // a failure is result()'s to report, not an unhandled rejection meanwhile
  return {
    async result(keep = () => true) {
      let found = await search;
      const later = new Uint8Array(wanted.length);
      let any = false;
      for (const b of held) {
        if (!keep(cuts[3 * b], cuts[3 * b + 1])) continue;
        later[b] = 1;
        any = true;
      }
      if (any) found = inBucketOrder(found, searchBuckets(kernel, docs, seeds, cuts, later, o, threads));
      return searchedResult(plan, bucketPairsOf(docs, cuts, found, plan.stats));
    },
  };
}

/** Two searches of the same buckets (different ones searched in each) as one: their regions in bucket order, their counts summed. */
export function inBucketOrder(x: RegionBucketsFound, y: RegionBucketsFound): RegionBucketsFound {
  const n = x.ints.length / 7;
  const m = y.ints.length / 7;
  const ints = new Int32Array(x.ints.length + y.ints.length);
  const floats = new Float64Array(x.floats.length + y.floats.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < n + m; k++) {
    // Each search's regions are in bucket order; a bucket is in one of them.
    const fromX = j >= m || (i < n && x.ints[7 * i] < y.ints[7 * j]);
    const src = fromX ? x : y;
    const at = fromX ? i++ : j++;
    ints.set(src.ints.subarray(7 * at, 7 * at + 7), 7 * k);
    floats.set(src.floats.subarray(3 * at, 3 * at + 3), 3 * k);
  }
  return { ints, floats, chains: x.chains + y.chains, aligned: x.aligned + y.aligned };
}
