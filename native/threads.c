/*
 * The region finder's bucket search on several threads (bucketRegionsThreaded of threads.h): the
 * buckets are independent (bucketRegionsRange searches a run of them in its own working memory
 * and writes nothing shared), so they are cut into contiguous runs of about equal seeds, many
 * per thread, which libuv's portable threads (uv_thread_create / uv_thread_join, uv_mutex: Linux,
 * macOS, Windows) and the calling thread take one after the other from a shared counter, the runs
 * with most seeds first (a thread that gets less of the CPU takes fewer; the last runs taken are
 * short, so the threads end together), and the runs' results are joined in bucket order. No
 * Node-API call is made here (kernel.c calls this from a thread of libuv's pool or from Node's
 * thread). The taking of runs from a shared counter is forEachRun, which the plan job's sides
 * (regionsides.c) and fileCopies' search (copysearch.c) use too. The native addon only: wasm.c
 * keeps one thread.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* uv.h's POSIX types (addrinfo, …) under -std=c11 */
#endif
#include "threads.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "hash.h"

/* A run of buckets [first, last), its seeds (of wanted buckets) and what its search found. */
typedef struct {
  size_t first, last;
  double seeds;
  BucketResult res;
  int status;
} Run;

/* forEachRun's state: the work, its runs, the next run not yet taken and whether one failed (under `lock`). */
typedef struct {
  const RunWork *work;
  void *ctx;
  size_t nRuns, next;
  int failed;
  uv_mutex_t lock;
} Pool;

/* One thread's part of forEachRun: runs taken until none is left or one failed. */
static void takeRuns(void *arg) {
  Pool *p = arg;
  const RunWork *w = p->work;
  void *scratch = w->begin ? w->begin(p->ctx) : NULL;
  int ok = !w->begin || scratch != NULL;
  for (;;) {
    uv_mutex_lock(&p->lock);
    if (!ok) p->failed = 1;
    const size_t r = p->next < p->nRuns && !p->failed ? p->next++ : p->nRuns;
    uv_mutex_unlock(&p->lock);
    if (r == p->nRuns) break;
    ok = w->run(p->ctx, scratch, r) >= 0;
  }
  if (scratch && w->end) w->end(p->ctx, scratch);
}

int forEachRun(size_t nRuns, int threads, int startable, const RunWork *work, void *ctx) {
  Pool p = {work, ctx, nRuns, 0, 0, {0}};
  if (uv_mutex_init(&p.lock) != 0) {
    /* No lock: every run on this thread, in order. */
    void *scratch = work->begin ? work->begin(ctx) : NULL;
    int status = !work->begin || scratch != NULL ? 1 : -1;
    for (size_t r = 0; status > 0 && r < nRuns; r++)
      if (work->run(ctx, scratch, r) < 0) status = -1;
    if (scratch && work->end) work->end(ctx, scratch);
    return status;
  }
  if (threads > BUCKET_MAX_THREADS) threads = BUCKET_MAX_THREADS;
  if ((size_t)threads > nRuns) threads = (int)nRuns;
  uv_thread_t started[BUCKET_MAX_THREADS];
  int nStarted = 0;
  for (int t = 1; t < threads; t++) {
    if (startable >= 0 && startable-- == 0) break; /* refused (tests): the others take its runs */
    if (uv_thread_create(&started[nStarted], takeRuns, &p) == 0) nStarted++;
  }
  takeRuns(&p); /* this thread too; with no thread started, every run */
  for (int t = 0; t < nStarted; t++) uv_thread_join(&started[t]);
  uv_mutex_destroy(&p.lock);
  return p.failed ? -1 : 1;
}

/* One search: its arguments and its runs, taken most seeds first (`order`). */
typedef struct {
  const RegionDoc *docs;
  const uint8_t *prose;
  const int32_t *seeds;
  const uint32_t *buckets;
  const uint8_t *wanted;
  const BucketOptions *o;
  Run *runs;
  const size_t *order;
} Search;

static int searchRun(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  Search *s = ctx;
  Run *run = &s->runs[s->order[r]];
  return run->status = bucketRegionsRange(s->docs, s->prose, s->seeds, s->buckets, run->first, run->last, s->wanted, s->o, &run->res);
}

void bucketRuns(const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted, size_t nRuns, size_t *cuts) {
  double total = 0;
  for (size_t b = 0, from = 0; b < nBuckets; from = buckets[3 * b + 2], b++)
    if (!wanted || wanted[b]) total += (double)(buckets[3 * b + 2] - from);
  cuts[0] = 0;
  size_t b = 0, from = 0;
  double seen = 0;
  for (size_t t = 1; t < nRuns; t++) {
    const double target = total * (double)t / (double)nRuns;
    while (b < nBuckets && seen < target) {
      if (!wanted || wanted[b]) seen += (double)(buckets[3 * b + 2] - from);
      from = buckets[3 * b + 2];
      b++;
    }
    cuts[t] = b;
  }
  cuts[nRuns] = nBuckets;
}

/* A run's place in the order the runs are taken: more seeds first (the longest ones early, so
 * that the last ones taken are short and the threads end together), equal ones in bucket order. */
typedef struct {
  double seeds;
  size_t run;
} Turn;

static int moreSeeds(const void *x, const void *y) {
  const Turn *p = x, *q = y;
  if (p->seeds != q->seeds) return p->seeds > q->seeds ? -1 : 1;
  return p->run < q->run ? -1 : p->run > q->run;
}

int bucketRegionsThreaded(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                          const BucketOptions *o, int threads, int startable, BucketResult *res) {
  if (threads > BUCKET_MAX_THREADS) threads = BUCKET_MAX_THREADS;
  if (threads <= 1 || nBuckets < 2) return bucketRegionsNative(docs, prose, seeds, buckets, nBuckets, wanted, o, res);
  memset(res, 0, sizeof *res);
  const size_t nRuns = (size_t)threads * BUCKET_RUNS_PER_THREAD;
  size_t *cuts = malloc((nRuns + 1) * sizeof(size_t));
  Run *runs = calloc(nRuns, sizeof(Run));
  Turn *turns = malloc(nRuns * sizeof(Turn));
  Search s = {docs, prose, seeds, buckets, wanted, o, runs, NULL};
  if (!cuts || !runs || !turns) {
    free(cuts);
    free(runs);
    free(turns);
    return bucketRegionsNative(docs, prose, seeds, buckets, nBuckets, wanted, o, res);
  }
  bucketRuns(buckets, nBuckets, wanted, nRuns, cuts);
  for (size_t r = 0; r < nRuns; r++) {
    Run *run = &runs[r];
    run->first = cuts[r], run->last = cuts[r + 1], run->status = 1;
    for (size_t b = run->first, from = b > 0 ? buckets[3 * b - 1] : 0; b < run->last; from = buckets[3 * b + 2], b++)
      if (!wanted || wanted[b]) run->seeds += (double)(buckets[3 * b + 2] - from);
    turns[r].seeds = run->seeds, turns[r].run = r;
  }
  qsort(turns, nRuns, sizeof(Turn), moreSeeds);
  size_t *order = cuts; /* (the cuts are read no more: their memory holds the order) */
  for (size_t r = 0; r < nRuns; r++) order[r] = turns[r].run;
  free(turns);
  s.order = order;
  /* The k-gram hashing's CPU check (a static of regiondoc.c) made here, before any thread reads it. */
  kgramHashesReady();
  const RunWork work = {NULL, searchRun, NULL};
  int ok = forEachRun(nRuns, threads, startable, &work, &s) > 0;
  free(order);
  size_t count = 0;
  for (size_t r = 0; r < nRuns; r++) {
    ok = ok && runs[r].status >= 0;
    count += runs[r].res.count;
  }
  if (ok && count) {
    res->ints = malloc(count * BUCKET_PAIR_INTS * sizeof(int32_t));
    res->floats = malloc(count * BUCKET_PAIR_FLOATS * sizeof(double));
    ok = res->ints && res->floats;
    res->intCap = ok ? count * BUCKET_PAIR_INTS : 0;
    res->floatCap = ok ? count * BUCKET_PAIR_FLOATS : 0;
  }
  for (size_t r = 0; r < nRuns; r++) {
    const BucketResult *x = &runs[r].res;
    if (ok && x->count) {
      memcpy(res->ints + res->count * BUCKET_PAIR_INTS, x->ints, x->count * BUCKET_PAIR_INTS * sizeof(int32_t));
      memcpy(res->floats + res->count * BUCKET_PAIR_FLOATS, x->floats, x->count * BUCKET_PAIR_FLOATS * sizeof(double));
      res->count += x->count;
    }
    res->chains += x->chains;
    res->aligned += x->aligned;
    bucketResultFree(&runs[r].res);
  }
  free(runs);
  if (!ok) {
    bucketResultFree(res);
    return -1;
  }
  return 1;
}
