/* The region finder's bucket search on several threads (native/threads.c, the native addon only:
 * the WebAssembly kernel keeps the one-thread bucketRegionsNative). */
#ifndef NEARDUP_THREADS_H
#define NEARDUP_THREADS_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"

/* Most threads one search takes (runs beyond are not made). */
#define BUCKET_MAX_THREADS 16

/*
 * bucketRegionsNative on `threads` threads (the calling one and threads - 1 started here; 1 or
 * less: this thread alone): the buckets cut into contiguous runs of about equal seeds of the
 * wanted buckets, one per thread, each searched in its own working memory, the results joined in
 * bucket order with the chains and alignments summed — the same result exactly. A run whose
 * thread cannot start is searched on the calling thread. `startable`: how many threads may start
 * (a test's way to make starts fail; negative: no limit). Returns 1, or -1 out of memory.
 */
int bucketRegionsThreaded(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                          const BucketOptions *o, int threads, int startable, BucketResult *res);

/* Where the runs of `threads` threads begin: cuts[0] = 0 ≤ cuts[1] ≤ … ≤ cuts[threads] = nBuckets,
 * about equal seeds of the wanted buckets in each (test/unit checks the balance through the result). */
void bucketRuns(const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted, int threads, size_t *cuts);

#endif
