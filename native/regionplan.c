/*
 * The region finder's plan and bucket search as one job (regionPlanSearch of regionplan.h), run by
 * kernel.c's regionPlanAsync on a thread of libuv's pool while Node's thread matches sections:
 * the documents' anchors read where they are as one index (AnchorIndex.add's order: no copy),
 * its seeds (seeds.c anchorSeedsOfDocuments, on the job's threads: seedsthreads.c), the buckets wanted and held back, the identical documents' classes, then the
 * bucket search (threads.c). The same plan and regions as src/core/regions planRegions,
 * wantedBuckets and searchBuckets on Node's thread (test/unit/node/locate/regionThreads.test.ts).
 * No Node-API call here. The native addon only (wasm.c has no threads).
 */
#include "regionplan.h"

#include <stdlib.h>
#include <string.h>

#include "threads.h"

/* A document of some length, with what sorts it among its possible twins. */
typedef struct {
  uint32_t length, first, middle, last, index;
} TwinKey;

static int compareTwins(const void *x, const void *y) {
  const TwinKey *p = x, *q = y;
  if (p->length != q->length) return p->length < q->length ? -1 : 1;
  if (p->first != q->first) return p->first < q->first ? -1 : 1;
  if (p->middle != q->middle) return p->middle < q->middle ? -1 : 1;
  if (p->last != q->last) return p->last < q->last ? -1 : 1;
  return p->index < q->index ? -1 : p->index > q->index;
}

static int sameTokens(const RegionDoc *x, const RegionDoc *y) {
  const size_t n = (size_t)x->length * sizeof(uint32_t);
  return x->length == y->length && memcmp(x->raw.lo, y->raw.lo, n) == 0 && memcmp(x->raw.hi, y->raw.hi, n) == 0;
}

/*
 * classOf[d]: the first document holding the same tokens as read as d when another does, else -1
 * (identicalDocs.ts). Documents are compared whole only with those of their length and their
 * first, middle and last tokens. Returns 0 when out of memory.
 */
static int identicalClasses(const RegionDoc *docs, uint32_t nDocs, int32_t *classOf) {
  for (uint32_t d = 0; d < nDocs; d++) classOf[d] = -1;
  TwinKey *keys = malloc((nDocs ? nDocs : 1) * sizeof(TwinKey));
  uint32_t *members = calloc(nDocs ? nDocs : 1, sizeof(uint32_t));
  if (!keys || !members) {
    free(keys);
    free(members);
    return 0;
  }
  size_t n = 0;
  for (uint32_t d = 0; d < nDocs; d++) {
    const RegionDoc *D = &docs[d];
    if (D->length <= 0) continue;
    const int32_t m = D->length >> 1;
    keys[n++] = (TwinKey){(uint32_t)D->length, D->raw.lo[0], D->raw.lo[m], D->raw.lo[D->length - 1], d};
  }
  qsort(keys, n, sizeof(TwinKey), compareTwins);
  for (size_t s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && keys[e].length == keys[s].length && keys[e].first == keys[s].first && keys[e].middle == keys[s].middle && keys[e].last == keys[s].last; e++) {
    }
    if (e - s < 2) continue;
    /* The run in document order: each is the first of its tokens, or the twin of an earlier one. */
    for (size_t i = s; i < e; i++) {
      const uint32_t d = keys[i].index;
      uint32_t first = d;
      for (size_t j = s; j < i; j++) {
        const uint32_t f = keys[j].index;
        if (classOf[f] == (int32_t)f && sameTokens(&docs[f], &docs[d])) {
          first = f;
          break;
        }
      }
      classOf[d] = (int32_t)first; /* (-1 again below when alone) */
      members[first]++;
    }
  }
  for (uint32_t d = 0; d < nDocs; d++)
    if (classOf[d] >= 0 && members[classOf[d]] < 2) classOf[d] = -1;
  free(keys);
  free(members);
  return 1;
}

int regionPlanSearch(const PlanCall *c, PlanResult *r) {
  memset(r, 0, sizeof *r);
  size_t n = 0;
  for (uint32_t d = 0; d < c->nDocs; d++) n += c->anchorCount[d];
  r->anchors = n;
  r->classOf = malloc((c->nDocs ? c->nDocs : 1) * sizeof(int32_t));
  int status = r->classOf ? 1 : -1;
  /* The anchors are read where they are: each inside its document, each document with a cap. */
  for (uint32_t d = 0; status > 0 && d < c->nDocs; d++) {
    const uint32_t m = c->anchorCount[d];
    if (m && d >= c->nCaps) status = -3;
    for (uint32_t i = 0; status > 0 && i < m; i++)
      if (c->anchorPos[d][i] < 0 || c->anchorPos[d][i] >= c->docs[d].length) status = -2;
  }
  if (status > 0 && anchorSeedsOfDocumentsThreaded(c->anchorHash, c->anchorPos, c->anchorCount, c->nDocs, c->caps, c->nCaps, c->maxDocs, c->threads, &r->seeds) < 0) status = -1;
  /* The identical documents only when their buckets are held back (else no one reads them). */
  if (status > 0 && c->holdIdentical && !identicalClasses(c->docs, c->nDocs, r->classOf)) status = -1;
  if (status > 0 && !c->holdIdentical)
    for (uint32_t d = 0; d < c->nDocs; d++) r->classOf[d] = -1;
  const size_t nb = r->seeds.nBuckets;
  if (status > 0 && !(r->wanted = calloc(nb ? nb : 1, 1))) status = -1;
  if (status > 0) {
    for (size_t b = 0, from = 0; b < nb; from = r->seeds.buckets[3 * b + 2], b++) {
      const uint32_t a = r->seeds.buckets[3 * b], bb = r->seeds.buckets[3 * b + 1];
      if (a == bb && !c->selfMatches) continue;
      if ((double)(r->seeds.buckets[3 * b + 2] - from) < c->minBucketSeeds) continue;
      const int held = c->holdIdentical && a != bb && r->classOf[a] >= 0 && r->classOf[a] == r->classOf[bb];
      r->wanted[b] = held ? PLAN_HELD : PLAN_SEARCHED;
    }
    /* The search reads 1 as wanted: held buckets are passed over. */
    uint8_t *searched = malloc(nb ? nb : 1);
    if (!searched) status = -1;
    else {
      for (size_t b = 0; b < nb; b++) searched[b] = r->wanted[b] == PLAN_SEARCHED;
      if (bucketRegionsThreaded(c->docs, c->prose, r->seeds.pairs, r->seeds.buckets, nb, searched, &c->o, c->threads, -1, &r->found) < 0) status = -1;
      free(searched);
    }
  }
  if (status > 0 && c->sides && regionSidesOf(c->docs, c->prose, c->sides, r->seeds.buckets, &r->found, c->threads, &r->sides) < 0) status = -1;
  if (status > 0 && c->sides && regionGroupsOf(r->seeds.buckets, &r->found, &r->groups, &r->nGroupInts) < 0) status = -1;
  if (status < 0) regionPlanFree(r);
  return status;
}

void regionPlanFree(PlanResult *r) {
  free(r->seeds.pairs);
  free(r->seeds.buckets);
  free(r->seeds.frequent);
  free(r->wanted);
  free(r->classOf);
  bucketResultFree(&r->found);
  free(r->sides);
  free(r->groups);
  memset(r, 0, sizeof *r);
}
