/*
 * The region finder's bucket search on several threads (bucketRegionsThreaded of threads.h): the
 * buckets are independent (bucketRegionsRange searches a run of them in its own working memory
 * and writes nothing shared), so contiguous runs of them, balanced by seed count, go to libuv's
 * portable threads (uv_thread_create / uv_thread_join: Linux, macOS, Windows) and the calling
 * thread, and their results are joined in bucket order. No Node-API call is made here (kernel.c
 * calls this from its own thread or Node's). The native addon only: wasm.c keeps one thread.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* uv.h's POSIX types (addrinfo, …) under -std=c11 */
#endif
#include "threads.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "hash.h"

typedef struct {
  const RegionDoc *docs;
  const uint8_t *prose;
  const int32_t *seeds;
  const uint32_t *buckets;
  const uint8_t *wanted;
  const BucketOptions *o;
  size_t first, last;
  BucketResult res;
  int status;
  uv_thread_t thread;
  int started;
} Run;

static void runSearch(void *arg) {
  Run *r = arg;
  r->status = bucketRegionsRange(r->docs, r->prose, r->seeds, r->buckets, r->first, r->last, r->wanted, r->o, &r->res);
}

void bucketRuns(const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted, int threads, size_t *cuts) {
  double total = 0;
  for (size_t b = 0, from = 0; b < nBuckets; from = buckets[3 * b + 2], b++)
    if (!wanted || wanted[b]) total += (double)(buckets[3 * b + 2] - from);
  cuts[0] = 0;
  size_t b = 0, from = 0;
  double seen = 0;
  for (int t = 1; t < threads; t++) {
    const double target = total * t / threads;
    while (b < nBuckets && seen < target) {
      if (!wanted || wanted[b]) seen += (double)(buckets[3 * b + 2] - from);
      from = buckets[3 * b + 2];
      b++;
    }
    cuts[t] = b;
  }
  cuts[threads] = nBuckets;
}

int bucketRegionsThreaded(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                          const BucketOptions *o, int threads, int startable, BucketResult *res) {
  if (threads > BUCKET_MAX_THREADS) threads = BUCKET_MAX_THREADS;
  if (threads <= 1 || nBuckets < 2) return bucketRegionsNative(docs, prose, seeds, buckets, nBuckets, wanted, o, res);
  memset(res, 0, sizeof *res);
  size_t cuts[BUCKET_MAX_THREADS + 1];
  bucketRuns(buckets, nBuckets, wanted, threads, cuts);
  Run runs[BUCKET_MAX_THREADS];
  memset(runs, 0, sizeof runs);
  for (int t = 0; t < threads; t++) {
    Run *r = &runs[t];
    r->docs = docs, r->prose = prose, r->seeds = seeds, r->buckets = buckets, r->wanted = wanted, r->o = o;
    r->first = cuts[t], r->last = cuts[t + 1], r->status = 1;
  }
  /* The k-gram hashing's CPU check (a static of regiondoc.c) made here, before any thread reads it. */
  kgramHashesReady();
  for (int t = 1; t < threads; t++) {
    if (runs[t].first == runs[t].last) continue;
    if (startable >= 0 && startable-- == 0) continue; /* refused (tests): searched below */
    runs[t].started = uv_thread_create(&runs[t].thread, runSearch, &runs[t]) == 0;
  }
  runSearch(&runs[0]);
  for (int t = 1; t < threads; t++) {
    if (runs[t].started)
      uv_thread_join(&runs[t].thread);
    else if (runs[t].first < runs[t].last)
      runSearch(&runs[t]); /* its thread did not start: here */
  }
  int ok = 1;
  size_t count = 0;
  for (int t = 0; t < threads; t++) {
    ok = ok && runs[t].status >= 0;
    count += runs[t].res.count;
  }
  if (ok && count) {
    res->ints = malloc(count * BUCKET_PAIR_INTS * sizeof(int32_t));
    res->floats = malloc(count * BUCKET_PAIR_FLOATS * sizeof(double));
    ok = res->ints && res->floats;
    res->intCap = ok ? count * BUCKET_PAIR_INTS : 0;
    res->floatCap = ok ? count * BUCKET_PAIR_FLOATS : 0;
  }
  for (int t = 0; t < threads; t++) {
    const BucketResult *r = &runs[t].res;
    if (ok && r->count) {
      memcpy(res->ints + res->count * BUCKET_PAIR_INTS, r->ints, r->count * BUCKET_PAIR_INTS * sizeof(int32_t));
      memcpy(res->floats + res->count * BUCKET_PAIR_FLOATS, r->floats, r->count * BUCKET_PAIR_FLOATS * sizeof(double));
      res->count += r->count;
    }
    res->chains += r->chains;
    res->aligned += r->aligned;
    bucketResultFree(&runs[t].res);
  }
  if (!ok) {
    bucketResultFree(res);
    return -1;
  }
  return 1;
}
