/*
 * The groups of copies of a plan job's regions (regionGroupsOf of regiongroups.h): the sweep of
 * src/core/regions/groups.ts groupRegions over the sides in order of document and start, places
 * and groups joined by two union-finds, written flat for Node's thread to read (regionThreads.ts)
 * — the same groups (test/unit/core/regions/sideFacts.test.ts). No Node-API call here.
 */
#include "regiongroups.h"

#include <stdlib.h>
#include <string.h>

/* A side's place in the order of the sweep: document, start, side. */
typedef struct {
  int32_t doc, start, side;
} SideKey;

static int compareSides(const void *x, const void *y) {
  const SideKey *p = x, *q = y;
  if (p->doc != q->doc) return p->doc < q->doc ? -1 : 1;
  if (p->start != q->start) return p->start < q->start ? -1 : 1;
  return p->side < q->side ? -1 : p->side > q->side;
}

static int32_t findRoot(int32_t *parent, int32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static void joinRoots(int32_t *parent, int32_t x, int32_t y) {
  const int32_t a = findRoot(parent, x), b = findRoot(parent, y);
  if (a != b) parent[a > b ? a : b] = a < b ? a : b;
}

/* A place: its group, document, extent and the side that first made it; sorted by group, document and start. */
typedef struct {
  int32_t group, doc, start, end, side;
} Place;

static int comparePlaces(const void *x, const void *y) {
  const Place *p = x, *q = y;
  if (p->group != q->group) return p->group < q->group ? -1 : 1;
  if (p->doc != q->doc) return p->doc < q->doc ? -1 : 1;
  return p->start < q->start ? -1 : p->start > q->start;
}

int regionGroupsOf(const uint32_t *buckets, const BucketResult *found, int32_t **out, size_t *outLength) {
  const size_t nPairs = found->count, n = 2 * nPairs;
  *out = NULL;
  *outLength = 0;
  const size_t slots = n ? n : 1;
  SideKey *keys = malloc(slots * sizeof *keys);
  int32_t *doc = malloc(slots * 4), *start = malloc(slots * 4), *end = malloc(slots * 4), *links = malloc(slots * 4), *places = malloc(slots * 4),
          *active = malloc(slots * 4), *groupAt = malloc(slots * 4), *placeOf = malloc(slots * 4), *groupPlaces = calloc(slots, 4),
          *groupPairs = calloc(slots, 4), *groupFirst = malloc(slots * 4);
  Place *made = malloc(slots * sizeof *made);
  int status = keys && doc && start && end && links && places && active && groupAt && placeOf && made && groupPlaces && groupPairs && groupFirst ? 1 : -1;
  size_t nGroups = 0, nPlaces = 0;
  if (status > 0) {
    for (size_t p = 0; p < nPairs; p++) {
      const int32_t *r = found->ints + p * BUCKET_PAIR_INTS;
      const uint32_t b = (uint32_t)r[0];
      doc[2 * p] = (int32_t)buckets[3 * b], start[2 * p] = r[1], end[2 * p] = r[2];
      doc[2 * p + 1] = (int32_t)buckets[3 * b + 1], start[2 * p + 1] = r[3], end[2 * p + 1] = r[4];
    }
    for (size_t i = 0; i < n; i++) {
      links[i] = places[i] = (int32_t)i;
      keys[i] = (SideKey){doc[i], start[i], (int32_t)i};
    }
    for (size_t p = 0; p < nPairs; p++) joinRoots(links, (int32_t)(2 * p), (int32_t)(2 * p + 1));
    qsort(keys, n, sizeof *keys, compareSides);
    /* The sweep: each side against the sides of its document still open (groups.ts). */
    size_t open = 0;
    for (size_t o = 0; o < n; o++) {
      const int32_t i = keys[o].side;
      size_t kept = 0;
      for (size_t k = 0; k < open; k++) {
        const int32_t j = active[k];
        if (doc[j] == doc[i] && end[j] > start[i]) active[kept++] = j;
      }
      open = kept;
      for (size_t k = 0; k < open; k++) {
        const int32_t j = active[k];
        const int32_t overlap = (end[j] < end[i] ? end[j] : end[i]) - start[i];
        const int32_t lj = end[j] - start[j], li = end[i] - start[i];
        if (overlap > 0 && (int64_t)overlap * 2 >= (lj < li ? lj : li)) {
          joinRoots(links, i, j);
          joinRoots(places, i, j);
        }
      }
      active[open++] = i;
    }
    /* Groups in the order their first side comes, places likewise: their extents and first sides. */
    for (size_t i = 0; i < n; i++) groupAt[i] = placeOf[i] = -1;
    for (size_t o = 0; o < n; o++) {
      const int32_t i = keys[o].side;
      const int32_t g = findRoot(links, i), p = findRoot(places, i);
      if (groupAt[g] < 0) groupAt[g] = (int32_t)nGroups++;
      const int32_t group = groupAt[g];
      if (placeOf[p] >= 0) {
        Place *q = &made[placeOf[p]];
        if (start[i] < q->start) q->start = start[i];
        if (end[i] > q->end) q->end = end[i];
      } else {
        placeOf[p] = (int32_t)nPlaces;
        made[nPlaces++] = (Place){group, doc[i], start[i], end[i], i};
        groupPlaces[group]++;
      }
      if (i % 2 == 0) groupPairs[group]++;
    }
  }
  /* Written flat: per group its counts, its places (sorted), its regions (ascending). */
  int32_t *w = status > 0 ? malloc((2 * nGroups + 3 * nPlaces + nPairs + 1) * 4) : NULL;
  if (status > 0 && !w) status = -1;
  if (status > 0) {
    /* Each group's offset in w (groupFirst) and a cursor per group for its places and regions. */
    size_t at = 0;
    for (size_t g = 0; g < nGroups; g++) {
      groupFirst[g] = (int32_t)at;
      w[at] = groupPlaces[g], w[at + 1] = groupPairs[g];
      at += 2 + 3 * (size_t)groupPlaces[g] + (size_t)groupPairs[g];
      groupPlaces[g] = groupPairs[g] = 0; /* now: how many written */
    }
    /* Places by group, document and start (no two of one group and document start together: they would be one place). */
    qsort(made, nPlaces, sizeof *made, comparePlaces);
    for (size_t q = 0; q < nPlaces; q++) {
      const int32_t g = made[q].group;
      int32_t *pl = w + groupFirst[g] + 2 + 3 * groupPlaces[g]++;
      pl[0] = made[q].side, pl[1] = made[q].start, pl[2] = made[q].end;
    }
    /* Regions ascending: in pair order, each into its group. */
    for (size_t p = 0; p < nPairs; p++) {
      const int32_t g = groupAt[findRoot(links, (int32_t)(2 * p))];
      w[groupFirst[g] + 2 + 3 * w[groupFirst[g]] + groupPairs[g]++] = (int32_t)p;
    }
    *out = w;
    *outLength = at;
  }
  free(keys), free(doc), free(start), free(end), free(links), free(places), free(active), free(groupAt), free(placeOf);
  free(made), free(groupPlaces), free(groupPairs), free(groupFirst);
  return status;
}
