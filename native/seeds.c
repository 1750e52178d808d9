/*
 * The seeds of the region finder's anchor index in C: AnchorIndex.seeds of
 * src/core/regions/anchorIndex.ts (read it for the why) without its rescue of over-cap hashes.
 * Anchors are radix-sorted by hash (stable: insertion order within a hash), each hash with 2 … cap
 * postings gives every two of its postings as a seed of their pair of documents, and the seeds
 * are radix-sorted by (docA, docB, a, b) and cut into one bucket per pair of documents: exactly
 * the buckets the TypeScript gives (checked by test/unit/node/workers/nativeRegions.test.ts).
 */
#include "seeds.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

typedef struct {
  uint32_t hash, doc, pos;
} Anchor;

typedef struct {
  uint32_t docA, docB, a, b;
} Seed;

/*
 * The digit of the radix sorts: 16 bits a pass, 8 for fewer items than SMALL_SORT (a 2-document
 * search again of core/regions/fileCopies.ts: 65,536 counters cleared and summed a pass cost more
 * than its few thousand items). Both are stable LSD sorts on the same keys: the same order.
 */
#define SMALL_SORT 32768
static inline int digitBits(size_t n) { return n < SMALL_SORT ? 8 : 16; }

/* Stable LSD radix sort of anchors by hash. */
static int sortAnchors(Anchor **items, size_t n) {
  const int bits = digitBits(n);
  const uint32_t mask = (1u << bits) - 1;
  Anchor *tmp = malloc((n ? n : 1) * sizeof(Anchor));
  uint32_t *count = malloc((mask + 2) * sizeof(uint32_t));
  if (!tmp || !count) {
    free(tmp);
    free(count);
    return 0;
  }
  Anchor *src = *items, *dst = tmp;
  for (int shift = 0; shift < 32; shift += bits) {
    memset(count, 0, (mask + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) count[((src[i].hash >> shift) & mask) + 1]++;
    for (uint32_t d = 0; d <= mask; d++) count[d + 1] += count[d];
    for (size_t i = 0; i < n; i++) dst[count[(src[i].hash >> shift) & mask]++] = src[i];
    Anchor *t = src;
    src = dst;
    dst = t;
  }
  /* An even number of passes: the sorted anchors are back in the first array. */
  free(dst);
  *items = src;
  free(count);
  return 1;
}

static inline uint32_t field(const Seed *s, int f) { return f == 0 ? s->b : f == 1 ? s->a : f == 2 ? s->docB : s->docA; }

/* LSD radix sort of seeds by (docA, docB, a, b); a key's further passes only when it needs them. */
static int sortSeeds(Seed **items, size_t n) {
  const int bits = digitBits(n);
  const uint32_t mask = (1u << bits) - 1;
  Seed *tmp = malloc((n ? n : 1) * sizeof(Seed));
  uint32_t *count = malloc((mask + 2) * sizeof(uint32_t));
  if (!tmp || !count) {
    free(tmp);
    free(count);
    return 0;
  }
  Seed *src = *items, *dst = tmp;
  for (int f = 0; f < 4; f++) {
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++) {
      const uint32_t v = field(&src[i], f);
      if (v > max) max = v;
    }
    for (int shift = 0; shift == 0 || (shift < 32 && (max >> shift) != 0); shift += bits) {
      memset(count, 0, (mask + 2) * sizeof(uint32_t));
      for (size_t i = 0; i < n; i++) count[((field(&src[i], f) >> shift) & mask) + 1]++;
      for (uint32_t d = 0; d <= mask; d++) count[d + 1] += count[d];
      for (size_t i = 0; i < n; i++) dst[count[(field(&src[i], f) >> shift) & mask]++] = src[i];
      Seed *t = src;
      src = dst;
      dst = t;
    }
  }
  free(dst); /* the one of the two arrays that does not hold the result */
  *items = src;
  free(count);
  return 1;
}

int anchorSeeds(const uint32_t *hash, const uint32_t *doc, const uint32_t *pos, size_t n, const uint32_t *caps, uint32_t nDocs, uint32_t maxDocs,
                SeedResult *res) {
  memset(res, 0, sizeof *res);
  Anchor *anchors = malloc((n ? n : 1) * sizeof(Anchor));
  uint32_t *stamp = calloc(nDocs ? nDocs : 1, sizeof(uint32_t));
  Seed *seeds = NULL;
  size_t seedCap = 0, ns = 0;
  int ok = anchors && stamp;
  if (ok) {
    for (size_t i = 0; i < n; i++) {
      anchors[i].hash = hash[i];
      anchors[i].doc = doc[i];
      anchors[i].pos = pos[i];
    }
    ok = sortAnchors(&anchors, n);
  }
  uint32_t run = 0;
  for (size_t s = 0; ok && s < n;) {
    size_t e = s + 1;
    while (e < n && anchors[e].hash == anchors[s].hash) e++;
    const size_t postings = e - s;
    const uint32_t d0 = anchors[s].doc;
    int drop = postings > (d0 < nDocs ? caps[d0] : 0);
    if (!drop && maxDocs < postings) {
      /* Distinct documents of the run (a stamp per document, one stamp value per run). */
      run++;
      uint32_t distinct = 0;
      for (size_t i = s; i < e; i++) {
        const uint32_t d = anchors[i].doc;
        if (d < nDocs && stamp[d] != run) {
          stamp[d] = run;
          distinct++;
        }
      }
      drop = distinct > maxDocs;
    }
    if (drop) {
      res->dropped++;
    } else {
      for (size_t i = s; ok && i < e; i++) {
        for (size_t j = i + 1; j < e; j++) {
          uint32_t da = anchors[i].doc, pa = anchors[i].pos, db = anchors[j].doc, pb = anchors[j].pos;
          if (da == db && pa == pb) continue;
          if (da > db || (da == db && pa > pb)) {
            uint32_t t = da;
            da = db;
            db = t;
            t = pa;
            pa = pb;
            pb = t;
          }
          if (!growArray((void **)&seeds, &seedCap, ns + 1, sizeof(Seed))) {
            ok = 0;
            break;
          }
          seeds[ns].docA = da;
          seeds[ns].docB = db;
          seeds[ns].a = pa;
          seeds[ns].b = pb;
          ns++;
        }
      }
    }
    s = e;
  }
  free(anchors);
  free(stamp);
  if (ok) ok = sortSeeds(&seeds, ns);
  size_t nb = 0;
  if (ok) {
    for (size_t i = 0; i < ns; i++)
      if (i == 0 || seeds[i].docA != seeds[i - 1].docA || seeds[i].docB != seeds[i - 1].docB) nb++;
    res->pairs = malloc((ns ? ns : 1) * 2 * sizeof(int32_t));
    res->buckets = malloc((nb ? nb : 1) * 3 * sizeof(uint32_t));
    ok = res->pairs && res->buckets;
  }
  if (!ok) {
    free(seeds);
    free(res->pairs);
    free(res->buckets);
    memset(res, 0, sizeof *res);
    return -1;
  }
  size_t b = 0;
  for (size_t i = 0; i < ns; i++) {
    res->pairs[2 * i] = (int32_t)seeds[i].a;
    res->pairs[2 * i + 1] = (int32_t)seeds[i].b;
    if (i + 1 == ns || seeds[i + 1].docA != seeds[i].docA || seeds[i + 1].docB != seeds[i].docB) {
      res->buckets[3 * b] = seeds[i].docA;
      res->buckets[3 * b + 1] = seeds[i].docB;
      res->buckets[3 * b + 2] = (uint32_t)(i + 1);
      b++;
    }
  }
  res->seeds = ns;
  res->nBuckets = nb;
  free(seeds);
  return 1;
}
