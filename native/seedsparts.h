/*
 * What seeds.c and its threaded twin seedsthreads.c share (static: each file its own copy): the
 * anchor and seed types, the one radix sort (RADIX_SORT) over anchors by hash and over seed keys,
 * where the anchors are read (AnchorSource, EACH_ANCHOR), the anchors sorted by hash
 * (sortAnchors) and every seed of a run of one hash (EACH_SEED).
 */
#ifndef NEARDUP_SEEDSPARTS_H
#define NEARDUP_SEEDSPARTS_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

typedef struct {
  uint32_t hash, doc, pos;
} Anchor;

typedef struct {
  uint32_t docB, a, b;
} Seed;

/*
 * The digit of the anchors' split: 16 top bits, 8 for fewer anchors than SMALL_SORT (a 2-document
 * search again of core/regions/fileCopies.ts: 65,536 counters cleared and summed cost more than
 * its few thousand items).
 */
#define SMALL_SORT 32768
/* Parts up to this many items are insertion-sorted; longer ones radix-sorted by 8-bit digits. */
#define INSERTION 32

static inline int bitsOf(uint64_t v) {
  int b = 0;
  while (v >> b) b++;
  return b;
}

/*
 * Defines `static void NAME(T *a, T *tmp, size_t n, int bits)`: a stable sort of n items of type T
 * by KEY(item), an unsigned key of `bits` bits (tmp: room for n when n > INSERTION). Up to
 * INSERTION items an insertion sort; more, an LSD radix sort, 8 bits a pass, a pass skipped when
 * all items share its digit (already in order).
 */
#define RADIX_SORT(NAME, T, KEY)                                                                \
  static void NAME(T *a, T *tmp, size_t n, int bits) {                                          \
    if (n <= INSERTION) {                                                                       \
      for (size_t i = 1; i < n; i++) {                                                          \
        const T x = a[i];                                                                       \
        size_t j = i;                                                                           \
        for (; j > 0 && KEY(a[j - 1]) > KEY(x); j--) a[j] = a[j - 1];                           \
        a[j] = x;                                                                               \
      }                                                                                         \
      return;                                                                                   \
    }                                                                                           \
    uint32_t count[257];                                                                        \
    T *src = a, *dst = tmp;                                                                     \
    for (int shift = 0; shift < bits; shift += 8) {                                             \
      memset(count, 0, sizeof count);                                                           \
      for (size_t i = 0; i < n; i++) count[((KEY(src[i]) >> shift) & 255) + 1]++;               \
      if (count[((KEY(src[0]) >> shift) & 255) + 1] == n) continue;                             \
      for (int d = 0; d < 256; d++) count[d + 1] += count[d];                                   \
      for (size_t i = 0; i < n; i++) dst[count[(KEY(src[i]) >> shift) & 255]++] = src[i];       \
      T *t = src;                                                                               \
      src = dst;                                                                                \
      dst = t;                                                                                  \
    }                                                                                           \
    if (src != a) memcpy(a, src, n * sizeof(T));                                                \
  }

#define ANCHOR_HASH(x) ((x).hash)
#define SEED_KEY(x) (x)
/* Anchors of one part by their hash's low `bits` bits (the part shares the others). */
RADIX_SORT(sortAnchorsLow, Anchor, ANCHOR_HASH)
/* Seed keys (docB, a, b) of `bits` bits. */
RADIX_SORT(sortKeys, uint64_t, SEED_KEY)

/* Where the anchors are: three flat arrays, or each document's hashes and positions (docs[d]). */
typedef struct {
  const uint32_t *hash, *doc, *pos;
  const uint32_t *const *docHash;
  const int32_t *const *docPos;
  const uint32_t *docCount;
  uint32_t nDocs;
} AnchorSource;

/* Calls EACH(h, d, p) for every anchor of src in insertion order (documents in order); n: the
 * flat arrays' length. */
#define EACH_ANCHOR(src, n, EACH)                                              \
  if ((src)->hash) {                                                           \
    for (size_t i_ = 0; i_ < (n); i_++) {                                      \
      const uint32_t h = (src)->hash[i_], d = (src)->doc[i_], p = (src)->pos[i_]; \
      (void)p;                                                                 \
      EACH;                                                                    \
    }                                                                          \
  } else {                                                                     \
    for (uint32_t d = 0; d < (src)->nDocs; d++) {                              \
      const uint32_t *hs_ = (src)->docHash[d];                                 \
      const int32_t *ps_ = (src)->docPos[d];                                   \
      for (uint32_t i_ = 0, m_ = (src)->docCount[d]; i_ < m_; i_++) {          \
        const uint32_t h = hs_[i_], p = (uint32_t)ps_[i_];                     \
        (void)p;                                                               \
        EACH;                                                                  \
      }                                                                        \
    }                                                                          \
  }

/* The anchors sorted by hash, stable (insertion order within a hash); NULL when out of memory. */
static inline Anchor *sortAnchors(const AnchorSource *src, size_t n) {
  const int top = n < SMALL_SORT ? 8 : 16, low = 32 - top;
  const size_t parts = (size_t)1 << top;
  Anchor *out = malloc((n ? n : 1) * sizeof(Anchor));
  uint32_t *count = calloc(parts + 1, sizeof(uint32_t));
  Anchor *tmp = NULL;
  if (!out || !count) goto fail;
  hugePagesHint(out, n * sizeof(Anchor)); /* written whole below (grow.h) */
  EACH_ANCHOR(src, n, (void)d; count[(h >> low) + 1]++)
  uint32_t longest = 0;
  for (size_t d = 0; d < parts; d++) {
    if (count[d + 1] > longest) longest = count[d + 1];
    count[d + 1] += count[d];
  }
  EACH_ANCHOR(src, n, {
    Anchor *x = &out[count[h >> low]++];
    x->hash = h;
    x->doc = d;
    x->pos = p;
  })
  /* count[d] is now the end of part d. */
  if (longest > INSERTION && !(tmp = malloc(longest * sizeof(Anchor)))) goto fail;
  for (size_t d = 0, s = 0; d < parts; s = count[d++])
    if (count[d] - s > 1) sortAnchorsLow(out + s, tmp, count[d] - s, low); /* (most parts of a small search: 0 or 1) */
  free(tmp);
  free(count);
  return out;
fail:
  free(out);
  free(count);
  free(tmp);
  return NULL;
}

static int compareSeeds(const void *x, const void *y) {
  const Seed *p = x, *q = y;
  if (p->docB != q->docB) return p->docB < q->docB ? -1 : 1;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : p->b > q->b;
}

/* Calls SEED(da, db, pa, pb) for every two postings of anchors[s, e) (docA ≤ docB; a < b in one document). */
#define EACH_SEED(SEED)                                                                             \
  for (size_t i = s; i < e; i++) {                                                                  \
    for (size_t j = i + 1; j < e; j++) {                                                            \
      uint32_t da = anchors[i].doc, pa = anchors[i].pos, db = anchors[j].doc, pb = anchors[j].pos; \
      if (da == db && pa == pb) continue;                                                           \
      if (da > db || (da == db && pa > pb)) {                                                       \
        uint32_t t = da;                                                                            \
        da = db;                                                                                    \
        db = t;                                                                                     \
        t = pa;                                                                                     \
        pa = pb;                                                                                    \
        pb = t;                                                                                     \
      }                                                                                             \
      SEED;                                                                                         \
    }                                                                                               \
  }

/* A hash of `postings` whose first posting's document has postings cap `cap`: whether its distinct
 * documents are to be counted (against maxDocs, or for the frequent hashes, over minCap), and then
 * whether it is dropped (over the cap, or in more than maxDocs documents; `distinct` read only
 * when counted). */
static inline int runWantsDistinct(size_t postings, uint32_t cap, uint32_t maxDocs, uint32_t minCap) {
  return (postings <= cap && maxDocs < postings) || postings > minCap;
}
static inline int runDropped(size_t postings, uint32_t cap, uint32_t maxDocs, uint32_t distinct) {
  return postings > cap || (maxDocs < postings && distinct > maxDocs);
}

#endif
