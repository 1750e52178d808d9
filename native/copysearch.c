/*
 * fileCopies' second search (copySearch of copysearch.h): the pairs of documents whose regions
 * held part of both are searched again alone — each pair's anchors without the corpus's frequent
 * hashes, their two-document seeds (seeds.c, as planRegions with SEARCH_MAX_POSTINGS and no self
 * matches), the bucket kept when it is wanted and its seeds' coverBound reaches the cover on both
 * sides; runs of pairs on c->threads threads (threads.c forEachRun), joined in the pairs' order —
 * and the buckets kept searched in one call (threads.c): the same buckets and regions as
 * src/core/regions/fileCopies.ts searchAllAlone (test/unit/node/workers/nativeCopies.test.ts).
 * No Node-API call here. The native addon only.
 */
#include "copysearch.h"

#include <stdlib.h>
#include <string.h>

#include "seeds.h"
#include "threads.h"

/* Runs of pairs per thread for their seeds (pairs of uneven sizes: many short runs balance them). */
#define COPY_RUNS_PER_THREAD 16

static int inSorted(const uint32_t *a, size_t n, uint32_t h) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = (lo + hi) >> 1;
    if (a[mid] < h) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && a[lo] == h;
}

static int compareInt32(const void *x, const void *y) {
  const int32_t p = *(const int32_t *)x, q = *(const int32_t *)y;
  return (p > q) - (p < q);
}

double copyCoverBound(const int32_t *seeds, size_t n, int side, int32_t length, const BucketOptions *o, int32_t *pos) {
  if (n == 0 || length <= 0) return 0;
  for (size_t i = 0; i < n; i++) pos[i] = seeds[2 * i + side];
  if (side == 1) qsort(pos, n, sizeof *pos, compareInt32);
  const double gap = o->maxGap > o->joinGap ? o->maxGap : o->joinGap;
  const double k = o->align.k, margin = o->align.margin;
  double covered = 0, end = 0;
  size_t from = 0;
  for (size_t i = 1; i <= n; i++) {
    if (i < n && !((double)pos[i] - pos[i - 1] > gap)) continue;
    /* The run [from, i): fewer seeds than a chain needs, or too short to align, holds none. */
    const double first = pos[from], last = pos[i - 1];
    if (!((double)(i - from) < o->minSeeds || last - first + k + 2 * margin < o->minTokens)) {
      double s = first - margin;
      if (s < end) s = end;
      if (s < 0) s = 0;
      const double e = last + k + margin < length ? last + k + margin : length;
      if (e > s) covered += e - s;
      if (e > end) end = e;
    }
    from = i;
  }
  return covered / length;
}

/* Bits of the dropped hashes (their low DROP_BITS bits) of a kind: a hash whose bit is clear is
 * not dropped, found without the binary search (half the search's CPU went to it: a pair's two
 * documents' anchors, each looked up in thousands of hashes). */
#define DROP_BITS 20

static uint64_t *dropBitsOf(const uint32_t *drop, size_t n) {
  if (n == 0) return NULL;
  uint64_t *bits = calloc((size_t)1 << (DROP_BITS - 6), sizeof *bits);
  if (bits)
    for (size_t i = 0; i < n; i++) bits[(drop[i] & ((1u << DROP_BITS) - 1)) >> 6] |= (uint64_t)1 << (drop[i] & 63);
  return bits;
}

/* A document's anchors without the dropped hashes of its kind, into hash/pos; their count.
 * `bits`: dropBitsOf that kind's hashes, or NULL (every hash looked up). */
static uint32_t filtered(const CopyCall *c, uint32_t d, const uint64_t *const *bits, uint32_t *hash, int32_t *pos) {
  if (c->docs[d].length < c->o.minTokens) return 0;
  const int kind = c->prose[d] ? 1 : 0;
  const uint64_t *b = bits[kind];
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->anchorCount[d]; i++) {
    const uint32_t h = c->anchorHash[d][i];
    if (c->nDrop[kind] && (!b || (b[(h & ((1u << DROP_BITS) - 1)) >> 6] >> (h & 63) & 1)) && inSorted(c->drop[kind], c->nDrop[kind], h)) continue;
    hash[n] = h;
    pos[n++] = c->anchorPos[d][i];
  }
  return n;
}

/* Appends n seeds and their bucket (x, y) to r (grown by doubling); 0 when out of memory. */
static int appendBucket(CopyResult *r, size_t *seedCap, size_t *bucketCap, const int32_t *seeds, size_t n, uint32_t x, uint32_t y) {
  if (r->nSeeds + n > *seedCap) {
    size_t cap = *seedCap ? *seedCap : 1024;
    while (cap < r->nSeeds + n) cap *= 2;
    int32_t *s = realloc(r->seeds, cap * 2 * sizeof *s);
    if (!s) return 0;
    r->seeds = s;
    *seedCap = cap;
  }
  if (r->nBuckets + 1 > *bucketCap) {
    const size_t cap = *bucketCap ? 2 * *bucketCap : 64;
    uint32_t *b = realloc(r->buckets, cap * 3 * sizeof *b);
    if (!b) return 0;
    r->buckets = b;
    *bucketCap = cap;
  }
  memcpy(r->seeds + 2 * r->nSeeds, seeds, n * 2 * sizeof *seeds);
  r->nSeeds += n;
  r->buckets[3 * r->nBuckets] = x;
  r->buckets[3 * r->nBuckets + 1] = y;
  r->buckets[3 * r->nBuckets + 2] = (uint32_t)r->nSeeds;
  r->nBuckets++;
  return 1;
}

/* The buckets kept of pairs [first, last) into *r (its seeds and buckets only; ends counted from
 * 0); `most`: the most anchors of one document. Returns 1, or -1 out of memory. */
static int pairBuckets(const CopyCall *c, const uint64_t *const *bits, size_t first, size_t last, size_t most, CopyResult *r) {
  size_t seedCap = 0, bucketCap = 0, scratchCap = 0;
  uint32_t *hash = malloc((2 * most + 1) * sizeof *hash);
  int32_t *pos = malloc((2 * most + 1) * sizeof *pos);
  int32_t *scratch = NULL;
  int status = hash && pos ? 1 : -1;
  for (size_t p = first; status > 0 && p < last; p++) {
    const uint32_t x = c->pairs[2 * p], y = c->pairs[2 * p + 1];
    const uint32_t nx = filtered(c, x, bits, hash, pos), ny = filtered(c, y, bits, hash + nx, pos + nx);
    const uint32_t *hashes[2] = {hash, hash + nx};
    const int32_t *positions[2] = {pos, pos + nx};
    const uint32_t counts[2] = {nx, ny}, caps[2] = {c->cap[c->prose[x] ? 1 : 0], c->cap[c->prose[y] ? 1 : 0]};
    SeedResult s;
    if (anchorSeedsOfDocuments(hashes, positions, counts, 2, caps, 2, UINT32_MAX, &s) < 0) {
      status = -1;
      break;
    }
    for (size_t b = 0, from = 0; status > 0 && b < s.nBuckets; from = s.buckets[3 * b + 2], b++) {
      if (s.buckets[3 * b] != 0 || s.buckets[3 * b + 1] != 1) continue;
      const size_t n = s.buckets[3 * b + 2] - from;
      if ((double)n < c->minBucketSeeds) continue;
      if (n > scratchCap) {
        free(scratch);
        scratchCap = 2 * n;
        if (!(scratch = malloc(scratchCap * sizeof *scratch))) {
          status = -1;
          break;
        }
      }
      const int32_t *seeds = s.pairs + 2 * from;
      if (copyCoverBound(seeds, n, 0, c->docs[x].length, &c->o, scratch) < c->cover || copyCoverBound(seeds, n, 1, c->docs[y].length, &c->o, scratch) < c->cover) continue;
      if (!appendBucket(r, &seedCap, &bucketCap, seeds, n, x, y)) status = -1;
    }
    free(s.pairs);
    free(s.buckets);
    free(s.frequent);
  }
  free(hash);
  free(pos);
  free(scratch);
  return status;
}

/* Runs of pairs taken by threads one after the other (threads.c forEachRun), each with its buckets. */
typedef struct {
  const CopyCall *c;
  const uint64_t *dropBits[2];
  size_t most, nRuns;
  CopyResult *parts;
  int *status;
} PairWork;

static int pairRun(void *ctx, void *scratch, size_t k) {
  (void)scratch;
  PairWork *w = ctx;
  const size_t n = w->c->nPairs;
  return w->status[k] = pairBuckets(w->c, w->dropBits, n * k / w->nRuns, n * (k + 1) / w->nRuns, w->most, &w->parts[k]);
}

int copySearch(const CopyCall *c, CopyResult *r) {
  memset(r, 0, sizeof *r);
  size_t most = 0;
  for (size_t p = 0; p < c->nPairs; p++) {
    const uint32_t x = c->pairs[2 * p], y = c->pairs[2 * p + 1];
    if (x >= y || y >= c->nDocs) return -2;
    for (int s = 0; s < 2; s++) {
      const uint32_t d = s ? y : x;
      if (c->anchorCount[d] > most) most = c->anchorCount[d];
      for (uint32_t i = 0; i < c->anchorCount[d]; i++)
        if (c->anchorPos[d][i] < 0 || c->anchorPos[d][i] >= c->docs[d].length) return -2;
    }
  }
  int threads = c->threads < 1 ? 1 : c->threads > BUCKET_MAX_THREADS ? BUCKET_MAX_THREADS : c->threads;
  const size_t nRuns = threads > 1 && c->nPairs > 1 ? (size_t)threads * COPY_RUNS_PER_THREAD : 1;
  /* (no bits, out of memory: every hash looked up, the same anchors) */
  uint64_t *bits[2] = {dropBitsOf(c->drop[0], c->nDrop[0]), dropBitsOf(c->drop[1], c->nDrop[1])};
  PairWork w = {c, {bits[0], bits[1]}, most, nRuns, calloc(nRuns, sizeof(CopyResult)), calloc(nRuns, sizeof(int))};
  int status = w.parts && w.status ? 1 : -1;
  const RunWork work = {NULL, pairRun, NULL};
  if (status > 0 && forEachRun(nRuns, threads, -1, &work, &w) < 0) status = -1;
  free(bits[0]);
  free(bits[1]);
  /* The runs' buckets joined in the pairs' order, their ends counted on. */
  size_t seeds = 0, buckets = 0;
  for (size_t k = 0; status > 0 && k < nRuns; k++) {
    if (w.status[k] < 0) status = -1;
    seeds += w.parts[k].nSeeds, buckets += w.parts[k].nBuckets;
  }
  if (status > 0 && (!(r->seeds = malloc((2 * seeds + 1) * sizeof *r->seeds)) || !(r->buckets = malloc((3 * buckets + 1) * sizeof *r->buckets)))) status = -1;
  for (size_t k = 0; w.parts && k < nRuns; k++) {
    CopyResult *part = &w.parts[k];
    if (status > 0) {
      memcpy(r->seeds + 2 * r->nSeeds, part->seeds, part->nSeeds * 2 * sizeof *r->seeds);
      for (size_t b = 0; b < part->nBuckets; b++) {
        r->buckets[3 * (r->nBuckets + b)] = part->buckets[3 * b];
        r->buckets[3 * (r->nBuckets + b) + 1] = part->buckets[3 * b + 1];
        r->buckets[3 * (r->nBuckets + b) + 2] = part->buckets[3 * b + 2] + (uint32_t)r->nSeeds;
      }
      r->nSeeds += part->nSeeds, r->nBuckets += part->nBuckets;
    }
    copySearchFree(part);
  }
  free(w.parts);
  free(w.status);
  if (status > 0 && bucketRegionsThreaded(c->docs, c->prose, r->seeds, r->buckets, r->nBuckets, NULL, &c->o, c->threads, -1, &r->found) < 0) status = -1;
  if (status < 0) copySearchFree(r);
  return status;
}

void copySearchFree(CopyResult *r) {
  free(r->seeds);
  free(r->buckets);
  bucketResultFree(&r->found);
  memset(r, 0, sizeof *r);
}
