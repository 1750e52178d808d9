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

/* fp: n (hi, lo) pairs. Returns 1 with the pairs in *res (malloc'ed: the caller frees a, b and
 * distance), 0 when there are more than maxCandidates pairs, -1 when out of memory. */
int allPairsSearch(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, AllPairsResult *res);

#endif
