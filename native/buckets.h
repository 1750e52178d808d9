/* The region finder's per-bucket search in C (native/buckets.c): bucketRegions of
 * src/core/regions/regions.ts for many seed buckets in one call, the same regions in the same order. */
#ifndef NEARDUP_BUCKETS_H
#define NEARDUP_BUCKETS_H
#include <stddef.h>
#include <stdint.h>

#include "align.h"

/* The options bucketRegions reads (ResolvedRegionOptions), as findRegions resolves them. */
typedef struct {
  AlignOptions align; /* k coverK margin band fringeGap minConsistency */
  double maxGap, maxDrift, driftRate, joinGap, proseMaxJoinIndel, minSeeds, minTokens, minSimilarity, shortSimilarity, longTokens;
} BucketOptions;

/* Number of BucketOptions values in the flat params (bucketOptionsOf): k coverK margin band
 * fringeGap minConsistency maxGap maxDrift driftRate joinGap proseMaxJoinIndel minSeeds minTokens
 * minSimilarity shortSimilarity longTokens. */
#define BUCKET_PARAMS 16

/* Reads params[BUCKET_PARAMS]; 0 when out of range (k, coverK < 1, negative margin, band, fringeGap). */
int bucketOptionsOf(const double *params, BucketOptions *o);

/* Per region kept: bucket aStart aEnd bStart bEnd clone (0 exact, 1 renamed, 2 edited) renames. */
#define BUCKET_PAIR_INTS 7
/* Per region kept: similarity rawSimilarity consistency. */
#define BUCKET_PAIR_FLOATS 3

typedef struct {
  int32_t *ints;  /* BUCKET_PAIR_INTS per region */
  double *floats; /* BUCKET_PAIR_FLOATS per region */
  size_t count, intCap, floatCap;
  double chains, aligned;
} BucketResult;

/*
 * The regions of the buckets (docA, docB, end: cumulative seed count, as anchorSeeds gives them)
 * with wanted[b] != 0 (every bucket when wanted is NULL), bucket after bucket, each bucket's as
 * bucketRegions orders them. docs[d], prose[d]: document d (prose: its chains join across at most
 * proseMaxJoinIndel tokens of indel). The caller checked that every seed lies in its documents and
 * docA <= docB < nDocs. Returns 1 (res malloc'ed: bucketResultFree), -1 when out of memory.
 */
int bucketRegionsNative(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                        const BucketOptions *o, BucketResult *res);

/* bucketRegionsNative of buckets [first, last) only (their regions name their bucket by its index
 * among all nBuckets): a run of them, on any thread (nothing shared is written). */
int bucketRegionsRange(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t first, size_t last, const uint8_t *wanted,
                       const BucketOptions *o, BucketResult *res);

void bucketResultFree(BucketResult *res);

/* 1 when the buckets are well formed for docs of these lengths (ends rising to at most nSeeds,
 * docA <= docB < nDocs, each seed inside its documents), else 0. */
int bucketsValid(const int32_t *lengths, uint32_t nDocs, const int32_t *seeds, size_t nSeeds, const uint32_t *buckets, size_t nBuckets);

#endif
