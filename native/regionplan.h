/* The region finder's plan and bucket search as one job off Node's thread (native/regionplan.c,
 * the native addon only): what src/node/locate/regionThreads.ts otherwise plans on its own thread. */
#ifndef NEARDUP_REGIONPLAN_H
#define NEARDUP_REGIONPLAN_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"
#include "regiongroups.h"
#include "regionsides.h"
#include "seeds.h"

/* What the job reads: every array must stay unchanged until it is over. */
typedef struct {
  const RegionDoc *docs; /* streams of every document of some length (the others' length 0) */
  const uint8_t *prose;
  uint32_t nDocs;
  /* Each document's anchors (insertion order of the index: document after document), NULL when none. */
  const uint32_t *const *anchorHash;
  const int32_t *const *anchorPos;
  const uint32_t *anchorCount;
  const uint32_t *caps; /* postings cap per document [0, nCaps): AnchorIndex's caps */
  uint32_t nCaps, maxDocs;
  int selfMatches;
  double minBucketSeeds; /* max(minSeeds, minBucketSeeds) */
  int holdIdentical;     /* buckets of two identical documents are held back (not searched) */
  BucketOptions o;
  int threads;
  const SideCall *sides; /* the regions' sides made too (regionsides.c), or NULL */
} PlanCall;

/* Values of PlanResult.wanted: a bucket not searched, searched, held back (identical documents). */
#define PLAN_SKIPPED 0
#define PLAN_SEARCHED 1
#define PLAN_HELD 2

typedef struct {
  SeedResult seeds;
  uint8_t *wanted;  /* per bucket: PLAN_SKIPPED, PLAN_SEARCHED or PLAN_HELD */
  int32_t *classOf; /* per document: the first document holding the same tokens when others do, else -1 */
  size_t anchors;
  BucketResult found;
  int32_t *sides; /* SIDE_INTS per region of found when c->sides, else NULL */
  int32_t *groups; /* with c->sides, the regions' groups (regionGroupsOf), nGroupInts ints; else NULL */
  size_t nGroupInts;
} PlanResult;

/*
 * The documents' anchors into one index (as AnchorIndex.add), its seeds (anchorSeeds, caps[d] the
 * cap of document d), the buckets worth searching (regions.ts wantedBuckets without skipPair; with
 * holdIdentical, those of two different documents of the same tokens held back), the identical
 * documents' classes (src/node/locate/identicalDocs.ts identicalClasses), and the search of the
 * wanted buckets on c->threads threads (bucketRegionsThreaded), then, with c->sides, the sides of
 * the regions found on as many (regionSidesOf) and their groups (regionGroupsOf). Returns 1 (*r malloc'ed:
 * regionPlanFree), -1 out of memory, -2 when an anchor lies outside its document, -3 when a
 * document with anchors has no postings cap.
 */
int regionPlanSearch(const PlanCall *c, PlanResult *r);

void regionPlanFree(PlanResult *r);

#endif
