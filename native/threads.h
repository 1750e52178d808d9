/* The region finder's bucket search on several threads (native/threads.c, the native addon only:
 * the WebAssembly kernel keeps the one-thread bucketRegionsNative). */
#ifndef NEARDUP_THREADS_H
#define NEARDUP_THREADS_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"

/* Most threads one search takes. */
#define BUCKET_MAX_THREADS 16
/* Runs of buckets per thread: more runs than threads balance buckets of uneven work (taken with
 * most seeds first; the small bench tree's search on two threads: their ends 0.1 % apart, against
 * 15–20 % with 8 runs a thread taken in bucket order). */
#define BUCKET_RUNS_PER_THREAD 32

/*
 * bucketRegionsNative on `threads` threads (the calling one and threads - 1 started here; 1 or
 * less: this thread alone): the buckets cut into BUCKET_RUNS_PER_THREAD × threads contiguous runs
 * of about equal seeds of the wanted buckets, taken by the threads one after the other (most
 * seeds first), each searched in its own working memory, the results joined in bucket order with
 * the chains and alignments summed — the same result exactly. Threads that cannot start leave their runs to the
 * others (to the calling thread alone when none starts). `startable`: how many threads may start
 * (a test's way to make starts fail; negative: no limit). Returns 1, or -1 out of memory.
 */
int bucketRegionsThreaded(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                          const BucketOptions *o, int threads, int startable, BucketResult *res);

/*
 * Work cut into runs taken one after the other from a shared counter (a thread slowed down by
 * another process on its core takes fewer) by the calling thread and threads - 1 started here
 * (libuv's portable threads; `startable`: how many may start, negative: no limit — a test's way to
 * make starts fail; a thread that does not start leaves its runs to the others). Each thread makes
 * its scratch with begin(ctx) (NULL for none; `begin` NULL: no scratch), calls run(ctx, scratch, r)
 * for each run r it takes, then end(ctx, scratch). A run that returns a negative status, or a
 * begin that fails (returns NULL while `begin` is set), stops the taking of runs: forEachRun then
 * returns -1, else 1. Used by the bucket search here, regionsides.c and copysearch.c.
 */
typedef struct {
  void *(*begin)(void *ctx);
  int (*run)(void *ctx, void *scratch, size_t r);
  void (*end)(void *ctx, void *scratch);
} RunWork;
int forEachRun(size_t nRuns, int threads, int startable, const RunWork *work, void *ctx);

/* Where nRuns runs of the buckets begin: cuts[0] = 0 ≤ cuts[1] ≤ … ≤ cuts[nRuns] = nBuckets, about
 * equal seeds of the wanted buckets in each (empty runs when a bucket holds more than a run's share). */
void bucketRuns(const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted, size_t nRuns, size_t *cuts);

#endif
