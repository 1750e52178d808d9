/* The seeds of the anchor index (native/seeds.c): AnchorIndex.seeds of
 * src/core/regions/anchorIndex.ts without rescued hashes, the same seeds in the same order. */
#ifndef NEARDUP_SEEDS_H
#define NEARDUP_SEEDS_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int32_t *pairs;    /* a, b per seed, sorted by (docA, docB, a, b) */
  uint32_t *buckets; /* docA, docB, end (seeds) per pair of documents, in that order */
  size_t seeds, nBuckets;
  uint32_t dropped;
  /* hash, distinct documents per hash in more documents than the smallest cap (frequentOver), in
   * hash order: every other hash is in at most that many (core/regions/fileCopies.ts' counts). */
  uint32_t *frequent;
  size_t nFrequent;
  uint32_t frequentOver;
} SeedResult;

/* Anchors (hash, doc, pos) in insertion order; caps[doc]: the postings cap of a hash whose first
 * posting is in doc; maxDocs: hashes in more distinct documents (over maxDocs postings) are
 * dropped too (UINT32_MAX: no limit); nDocs bounds doc. Returns 1 with *res (malloc'ed: the caller
 * frees pairs, buckets and frequent), -1 when out of memory. */
int anchorSeeds(const uint32_t *hash, const uint32_t *doc, const uint32_t *pos, size_t n, const uint32_t *caps, uint32_t nDocs, uint32_t maxDocs,
                SeedResult *res);

/* anchorSeeds of the anchors of documents [0, nDocs) in that order, each document d's `count[d]`
 * hashes and positions where they are (no positions negative; every document with anchors below
 * nCaps, the caps' length): no flat copy of them made. */
int anchorSeedsOfDocuments(const uint32_t *const *hash, const int32_t *const *pos, const uint32_t *count, uint32_t nDocs, const uint32_t *caps, uint32_t nCaps,
                           uint32_t maxDocs, SeedResult *res);

/* anchorSeedsOfDocuments on `threads` threads (seedsthreads.c, the native addon only; fewer than 2,
 * or few anchors: seeds.c's here): the same result. */
int anchorSeedsOfDocumentsThreaded(const uint32_t *const *hash, const int32_t *const *pos, const uint32_t *count, uint32_t nDocs, const uint32_t *caps, uint32_t nCaps,
                                   uint32_t maxDocs, int threads, SeedResult *res);

#endif
