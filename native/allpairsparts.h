/*
 * What the all-pairs search's two files share (allpairs.c: the copies, the layout, the runs and the
 * join; allpairstables.c: the permuted tables): the pairs found (Out) and their vetting, the
 * distinct values, and a search between its steps (AllPairsJob). Private to those two files.
 */
#ifndef NEARDUP_ALLPAIRSPARTS_H
#define NEARDUP_ALLPAIRSPARTS_H
#include "allpairs.h"

#include <stdlib.h>

/* The pairs found: `seen` candidates (counted against `max`), `n` of them kept (all, or those `vet` passes). */
typedef struct {
  uint32_t *a, *b;
  uint8_t *d;
  size_t n, cap, max, seen;
  int over;
  const AllPairsVet *vet;
} Out;

/* estimateJaccard of src/core/fingerprint/simhash.ts: the share of the two sorted sketches' first
 * `size` distinct values (all, when both are shorter) that both hold; the same arithmetic. */
static inline double estimateJaccard(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, uint32_t size) {
  if (na == 0 && nb == 0) return 1;
  const uint64_t limit = na < size && nb < size ? UINT64_MAX : size;
  uint32_t i = 0, j = 0;
  uint64_t seen = 0, both = 0;
  while (seen < limit && (i < na || j < nb)) {
    if (j >= nb || (i < na && a[i] < b[j])) i++;
    else if (i >= na || b[j] < a[i]) j++;
    else {
      both++;
      i++;
      j++;
    }
    seen++;
  }
  return (double)both / (double)seen;
}

/* Whether the pair x < y passes the vetting (matchSectionItems' accept, then the sketches' estimate). */
static inline int vetted(const AllPairsVet *v, uint32_t x, uint32_t y) {
  const int32_t a = v->docOf[x], b = v->docOf[y];
  if (a == b) {
    if (!(v->endOf[x] < v->startOf[y] || v->endOf[y] < v->startOf[x])) return 0;
  } else if ((v->copyOf && v->copyOf[a] >= 0 && v->copyOf[a] == v->copyOf[b]) || (v->paired && allPairsPaired(v, (uint32_t)(a < b ? a : b), (uint32_t)(a < b ? b : a))))
    return 0;
  return !(estimateJaccard(v->sketchOf[x], v->sketchLen[x], v->sketchOf[y], v->sketchLen[y], v->size) < v->minSimilarity);
}

static inline int push(Out *o, uint32_t a, uint32_t b, uint8_t d) {
  if (o->seen >= o->max) {
    o->over = 1;
    return 0;
  }
  o->seen++;
  if (a > b) {
    const uint32_t t = a;
    a = b;
    b = t;
  }
  if (o->vet && !vetted(o->vet, a, b)) return 1;
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 4096;
    if (cap > o->max) cap = o->max;
    uint32_t *na = realloc(o->a, cap * 4), *nb;
    if (!na) return -1;
    o->a = na;
    if (!(nb = realloc(o->b, cap * 4))) return -1;
    o->b = nb;
    uint8_t *nd = realloc(o->d, cap);
    if (!nd) return -1;
    o->d = nd;
    o->cap = cap;
  }
  o->a[o->n] = a;
  o->b[o->n] = b;
  o->d[o->n] = d;
  o->n++;
  return 1;
}

#if defined(_MSC_VER)
#include <intrin.h>
static inline int popcount64(uint64_t x) { return (int)__popcnt64(x); }
#else
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
#endif

/* On x86-64 with GCC: a copy of the search compiled with the POPCNT instruction, chosen at load
 * time on processors that have it (all since about 2008); the default copy counts bits in software. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SEARCH_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define SEARCH_CLONES
#endif

/*
 * The distinct fingerprints: without copies (the usual case) the input itself, item u being
 * value u; with copies, uniq[u] with first[u] its first item and next[] chaining the others.
 */
typedef struct {
  const uint32_t *fp; /* input, (hi, lo) pairs */
  uint64_t *uniq;     /* NULL: no copies */
  uint32_t *first;
  int32_t *next;
} Distinct;

static inline uint64_t valueOf(const Distinct *D, uint32_t u) {
  return D->uniq ? D->uniq[u] : ((uint64_t)D->fp[2 * u] << 32) | D->fp[2 * u + 1];
}

/* Pairs (expanded to every copy) of distinct values u, v at distance d. */
static inline int emitCopies(Out *o, const Distinct *D, uint32_t u, uint32_t v, uint8_t d) {
  if (!D->uniq) return push(o, u, v, d);
  for (int32_t x = (int32_t)D->first[u]; x >= 0; x = D->next[x])
    for (int32_t y = (int32_t)D->first[v]; y >= 0; y = D->next[y]) {
      int r = push(o, (uint32_t)x, (uint32_t)y, d);
      if (r <= 0) return r;
    }
  return 1;
}

/* A search between its steps (allpairs.h): the distinct values, the layout, the pairs of copies
 * (first in the output) and each part's pairs. */
struct AllPairsJob {
  Distinct D;
  uint32_t m;
  int k, t, b, rbits;
  size_t tables, max;
  uint64_t blockMask[64];
  Out copies;
  Out parts[ALLPAIRS_MAX_PARTS];
  int status[ALLPAIRS_MAX_PARTS];
  /* What allPairsBegin (its runs ≥ 2) left to allPairsRun's `runs` runs: run r's copies'
   * pairs are those of distinct values [copyFrom[r], copyFrom[r + 1]) (into copyOut[r]) and, with
   * no tables (`brute`), its pairs of values compared one by one those of x in
   * [bruteFrom[r], bruteFrom[r + 1]) with every later value (into parts[r]); 0 runs: the copies'
   * pairs are in `copies`. */
  int runs, brute;
  uint32_t copyFrom[ALLPAIRS_MAX_PARTS + 1], bruteFrom[ALLPAIRS_MAX_PARTS + 1];
  Out copyOut[ALLPAIRS_MAX_PARTS];
  int copyStatus[ALLPAIRS_MAX_PARTS];
};

/* allpairstables.c: chooses the tables' inner loop for this processor (once, on the calling thread, before any table is searched). */
void allPairsChooseNear(void);

#endif
