/* fileCopies' second search in C (native/copysearch.c, the native addon only): each pair of
 * documents searched again alone, as src/core/regions/fileCopies.ts searchAllAlone does. */
#ifndef NEARDUP_COPYSEARCH_H
#define NEARDUP_COPYSEARCH_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"

/* What the search reads: every array must stay unchanged until it is over. */
typedef struct {
  const RegionDoc *docs; /* streams of the documents of `pairs` (the others' unread) */
  const uint8_t *prose;
  uint32_t nDocs;
  /* Each document's anchors (stored: defaultAnchors), NULL / 0 when none or not searched. */
  const uint32_t *const *anchorHash;
  const int32_t *const *anchorPos;
  const uint32_t *anchorCount;
  /* Hashes left out of a code (0) and a prose (1) document's anchors, sorted ascending. */
  const uint32_t *drop[2];
  size_t nDrop[2];
  const uint32_t *pairs; /* x y per pair, x < y < nDocs */
  size_t nPairs;
  uint32_t cap[2];       /* the two-document plan's postings cap of a code (0) / prose (1) document */
  double minBucketSeeds; /* max(minSeeds, minBucketSeeds) */
  double cover;          /* a pair whose seeds bound its regions under this share of either is not searched */
  BucketOptions o;
  int threads;
} CopyCall;

typedef struct {
  int32_t *seeds;    /* a, b per seed of the buckets searched */
  uint32_t *buckets; /* x y end per bucket searched (one per pair at most, in the pairs' order) */
  size_t nSeeds, nBuckets;
  BucketResult found; /* the regions of those buckets (bucketRegionsThreaded) */
} CopyResult;

/*
 * For each pair (x, y): the two documents' anchors without the dropped hashes (none for a document
 * under o.minTokens tokens), their seeds as one index of two documents (anchorSeedsOfDocuments,
 * caps by kind), the bucket of x with y when it has minBucketSeeds seeds and its seeds could hold
 * `cover` of both documents (fileCopies.ts coverBound), then the search of those buckets on
 * c->threads threads. Returns 1 (*r malloc'ed: copySearchFree), -1 out of memory, -2 when an
 * anchor lies outside its document or a pair is not x < y < nDocs.
 */
int copySearch(const CopyCall *c, CopyResult *r);

void copySearchFree(CopyResult *r);

/* coverBound of fileCopies.ts: an upper bound of the share of `length` tokens the regions of a
 * bucket's n seeds can hold on one side (0: a, 1: b). `scratch`: room for n positions. */
double copyCoverBound(const int32_t *seeds, size_t n, int side, int32_t length, const BucketOptions *o, int32_t *scratch);

#endif
