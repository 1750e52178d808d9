/* All pairs within Hamming distance k (native/allpairs.c). */
#ifndef NEARDUP_ALLPAIRS_H
#define NEARDUP_ALLPAIRS_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t *a, *b; /* a < b: item indices */
  uint8_t *distance;
  size_t length;
} AllPairsResult;

/*
 * The vetting of matchSectionItems (src/core/report/report.ts) done by the search itself, each
 * candidate x < y as it is found: two sections of one document only when their lines do not
 * overlap (docOf, startOf, endOf per item), never two documents of one copy class (copyOf per
 * document, -1: none; NULL: no classes), and the estimated Jaccard similarity of their sketches
 * (item i's: sketchLen[i] sorted values at sketchOf[i]; estimateJaccard with `size`) at least
 * minSimilarity. The candidates are still counted against maxCandidates, kept or not.
 */
typedef struct {
  const uint32_t *const *sketchOf;
  const uint32_t *sketchLen;
  uint32_t size;
  double minSimilarity;
  const int32_t *docOf, *startOf, *endOf, *copyOf;
  /* Pairs of documents left out besides (two files a report already pairs): an open-addressed set
   * of (a << 32 | b), a < b, 0 for an empty slot, `pairedMask + 1` slots; NULL: none. */
  const uint64_t *paired;
  uint64_t pairedMask;
} AllPairsVet;

/* The slot of `key` in an open-addressed paired set of `mask + 1` slots: where it is, else the empty slot where it goes. */
static inline uint64_t allPairsPairedSlot(const uint64_t *set, uint64_t mask, uint64_t key) {
  const uint64_t h = key * 0x9E3779B97F4A7C15ull;
  uint64_t i = (h ^ h >> 32) & mask;
  while (set[i] != 0 && set[i] != key) i = (i + 1) & mask;
  return i;
}

/* Whether the documents a < b are in vet's paired set. */
static inline int allPairsPaired(const AllPairsVet *v, uint32_t a, uint32_t b) {
  const uint64_t key = (uint64_t)a << 32 | b;
  return v->paired[allPairsPairedSlot(v->paired, v->pairedMask, key)] == key;
}

/* Most parts one search is cut into (allpairsthreads.c: one per thread). */
#define ALLPAIRS_MAX_PARTS 16

/* fp: n (hi, lo) pairs. Returns 1 with the pairs in *res (malloc'ed: the caller frees a, b and
 * distance), 0 when there are more than maxCandidates pairs, -1 when out of memory. */
int allPairsSearch(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, AllPairsResult *res);

/*
 * allPairsSearch in steps, so that its tables can be searched on several threads (allpairsthreads.c,
 * the native addon only): allPairsBegin (with `vet` or NULL) finds the copies and the layout — 1 with the result when
 * no table is needed (few items: every pair compared), 0 / -1 as allPairsSearch, 2 with *job; then
 * allPairsTables searches tables [from, to) of allPairsTableCount into part `part` (< ALLPAIRS_MAX_PARTS;
 * parts are independent: one thread each), and allPairsEnd joins parts 0 … parts − 1 in that order
 * (the copies' pairs first: allPairsSearch's order exactly when the parts cover the tables in
 * order) and frees the job: 1 with the result, 0 over maxCandidates in all, -1 out of memory.
 */
typedef struct AllPairsJob AllPairsJob;
int allPairsBegin(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, const AllPairsVet *vet, int runs, AllPairsJob **job, AllPairsResult *res);
size_t allPairsTableCount(const AllPairsJob *job);
/* With runs ≥ 2, allPairsBegin leaves the pairs of identical fingerprints (with `vet`, each
 * vetted: most of a search of many copies) and a brute force of many values (no tables: then
 * allPairsTableCount is 0) to allPairsRun's runs [0, allPairsRuns) — about as much work each,
 * independent like the tables' parts (one thread each); allPairsEnd joins the runs' copies first,
 * then the parts (brute force run r's pairs are part r's): the same pairs in the same order.
 * 0 runs: nothing left. */
int allPairsRuns(const AllPairsJob *job);
void allPairsRun(AllPairsJob *job, int run);
void allPairsTables(AllPairsJob *job, size_t from, size_t to, int part);
int allPairsEnd(AllPairsJob *job, int parts, AllPairsResult *res);

/* allPairsSearch with its tables and runs cut among `threads` threads (the calling one and threads − 1
 * started; allpairsthreads.c, not in the WebAssembly kernel): the same result; with `vet` (or
 * NULL), only the candidates it passes, in the same order. */
int allPairsThreaded(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, int threads, const AllPairsVet *vet, AllPairsResult *res);

/* Sorts `count` pairs (a[i], b[i], distance d[i]) in place by distance, then a, then b: the order
 * of matchPairList (orderPairList of src/core/report/compare.ts; pairsort.c, the addon only).
 * Items numbered below n; returns 1, or 0 (nothing changed) when n ≥ 2^28 or memory runs out. */
int allPairsOrder(uint32_t *a, uint32_t *b, uint8_t *d, size_t count, uint32_t n);

/* Of `count` section pairs (items a[p], b[p]; item i in document doc[i], not negative, lines
 * start[i] to end[i]; nItems items), keep[p] = 1 for those no wider pair of the same two documents
 * kept holds, else 0: dropNestedPairs of src/core/report/report.ts (dropnested.c, the addon only).
 * Returns 1, or -1 when out of memory (keep then says nothing). */
int nestedPairsKeep(const uint32_t *a, const uint32_t *b, size_t count, const int32_t *doc, const int32_t *start, const int32_t *end, size_t nItems, uint8_t *keep);

#endif
