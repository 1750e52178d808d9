/*
 * allPairsThreaded of allpairs.h: the permuted tables of one all-pairs search (allpairs.c) cut
 * into contiguous runs of tables, one per thread — each table sorts every item once and compares
 * the items that share its key, so tables cost about the same — and what allPairsBegin left to
 * runs (the pairs of identical fingerprints; a brute force of many values: allPairsRun), one per
 * thread too; searched by the calling thread
 * and threads started here (libuv's portable threads), the runs' pairs joined in table order: the
 * one-thread result exactly. A thread that cannot start leaves its run to the calling thread. The
 * native addon only (wasm.c keeps one thread); no Node-API call here.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* uv.h's POSIX types under -std=c11 */
#endif
#include "allpairs.h"

#include <uv.h>

/* One thread's run of tables. */
typedef struct {
  AllPairsJob *job;
  size_t from, to;
  int part;
} TableRun;

static void searchRun(void *arg) {
  const TableRun *r = arg;
  if (r->part < allPairsRuns(r->job)) allPairsRun(r->job, r->part);
  if (r->from < r->to) allPairsTables(r->job, r->from, r->to, r->part);
}

int allPairsThreaded(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, int threads, const AllPairsVet *vet, AllPairsResult *res) {
  AllPairsJob *job;
  if (threads > ALLPAIRS_MAX_PARTS) threads = ALLPAIRS_MAX_PARTS;
  if (threads < 1) threads = 1;
  const int begun = allPairsBegin(fp, n, k, maxCandidates, vet, threads, &job, res);
  if (begun != 2) return begun;
  const size_t tables = allPairsTableCount(job);
  /* (with runs left, one per thread: allPairsBegin made as many; else no more threads than tables) */
  if (allPairsRuns(job) == 0 && threads > (int)tables) threads = (int)tables;
  TableRun runs[ALLPAIRS_MAX_PARTS];
  for (int t = 0; t < threads; t++) runs[t] = (TableRun){job, tables * (size_t)t / (size_t)threads, tables * (size_t)(t + 1) / (size_t)threads, t};
  uv_thread_t started[ALLPAIRS_MAX_PARTS];
  int ok[ALLPAIRS_MAX_PARTS] = {0};
  for (int t = 1; t < threads; t++) ok[t] = uv_thread_create(&started[t], searchRun, &runs[t]) == 0;
  searchRun(&runs[0]);
  for (int t = 1; t < threads; t++) {
    if (ok[t]) uv_thread_join(&started[t]);
    else searchRun(&runs[t]); /* not started: this thread searches its run */
  }
  return allPairsEnd(job, threads, res);
}
