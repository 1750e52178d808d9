/*
 * The permuted tables of the all-pairs search (allpairs.h allPairsTables; allpairs.c makes the
 * layout and joins the parts): per table a counting sort of the distinct values by the table's key
 * into coarse buckets, in which the pairs within distance k that are the table's are found by the
 * inner loop (nearBelow: four values a step with AVX2 where the processor has it).
 */
#include "allpairsparts.h"

#include <string.h>

/* A pair found in a coarse bucket by the slot pass of allPairsTables, before it is emitted in order. */
typedef struct {
  uint32_t p, q; /* positions in the coarse bucket, q < p */
  uint8_t d;
} Hit;

static int hitOrder(const void *x, const void *y) {
  const Hit *a = x, *b = y;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  return a->q > b->q ? -1 : a->q < b->q ? 1 : 0; /* q descending: the chain order */
}

/* Whether the pair with bits `diff` apart is this table's: the first t blocks on which the two
 * agree are the table's blocks (comb). */
static inline int tableOwns(uint64_t diff, const uint64_t *blockMask, const int *comb, int b, int t) {
  int seen = 0;
  for (int j = 0; j < b && seen < t; j++) {
    if ((diff & blockMask[j]) == 0) {
      if (comb[seen] != j) return 0;
      seen++;
    }
  }
  return 1;
}

/* Coarse buckets of at most this many items compare every pair of their items (one tight loop);
 * larger ones are first sorted by a finer hash of the key (see allPairsTables). */
#define BUCKET_ALL_PAIRS 128

/* The positions j in [lo, hi), highest first, whose values are within distance k of fx, into out
 * (room for hi − lo); returns how many. The search's inner loop: most values are farther. */
SEARCH_CLONES static uint32_t nearBelowScalar(const uint64_t *e, uint32_t lo, uint32_t hi, uint64_t fx, int k, uint32_t *out) {
  uint32_t c = 0;
  for (uint32_t j = hi; j-- > lo;)
    if (popcount64(fx ^ e[j]) <= k) out[c++] = j;
  return c;
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2_NEAR 1
/* nearBelowScalar four values at a time: bit counts by nibble lookups summed per 64-bit lane. */
__attribute__((target("avx2,popcnt"))) static uint32_t nearBelowAvx2(const uint64_t *e, uint32_t lo, uint32_t hi, uint64_t fx, int k, uint32_t *out) {
  const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low4 = _mm256_set1_epi8(0x0f), x4 = _mm256_set1_epi64x((long long)fx), limit = _mm256_set1_epi64x(k + 1), zero = _mm256_setzero_si256();
  uint32_t c = 0, j = hi;
  while (j - lo >= 4) {
    j -= 4;
    const __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(e + j)), x4);
    const __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x, low4)), _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4)));
    const __m256i counts = _mm256_sad_epu8(bytes, zero);
    const int near = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(limit, counts)));
    if (near) {
      if (near & 8) out[c++] = j + 3;
      if (near & 4) out[c++] = j + 2;
      if (near & 2) out[c++] = j + 1;
      if (near & 1) out[c++] = j;
    }
  }
  while (j-- > lo)
    if (__builtin_popcountll(fx ^ e[j]) <= k) out[c++] = j;
  return c;
}
#endif

typedef uint32_t (*NearBelow)(const uint64_t *, uint32_t, uint32_t, uint64_t, int, uint32_t *);

/* nearBelowAvx2 where the processor has it, else nearBelowScalar: the same answer. */
static NearBelow nearBelowFn(void) {
#ifdef HAVE_AVX2_NEAR
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) return nearBelowAvx2;
#endif
  return nearBelowScalar;
}

/* nearBelowFn's choice, made by allPairsChooseNear (allPairsBegin, on the calling thread) before any table is searched. */
static NearBelow nearChosen = NULL;

/* nearBelow of `fn`; a short range (a small bucket's first items) in line, without the call. */
static inline uint32_t nearBelow(NearBelow fn, const uint64_t *e, uint32_t lo, uint32_t hi, uint64_t fx, int k, uint32_t *out) {
  if (hi - lo >= 8) return fn(e, lo, hi, fx, k, out);
  uint32_t c = 0;
  for (uint32_t j = hi; j-- > lo;)
    if (popcount64(fx ^ e[j]) <= k) out[c++] = j;
  return c;
}

void allPairsChooseNear(void) {
  if (!nearChosen) nearChosen = nearBelowFn();
}

SEARCH_CLONES void allPairsTables(AllPairsJob *J, size_t from, size_t to, int part) {
  Out *o = &J->parts[part];
  const Distinct *D = &J->D;
  const uint32_t m = J->m;
  const int k = J->k, t = J->t, b = J->b, rbits = J->rbits;
  const uint64_t *blockMask = J->blockMask;
  int status = 1;
  uint64_t *sortedFp = NULL, *subFp = NULL;
  uint32_t *sortedIdx = NULL, *counts = NULL, *subPos = NULL, *subCounts = NULL, *nearOut = NULL;
  const NearBelow near = nearChosen ? nearChosen : nearBelowScalar;
  Hit *hits = NULL;
  size_t hitCap = 0;
  /* Two levels per table, so that no pass scatters items over the whole of memory: a counting
   * sort into at most 2^11 coarse buckets by the top bits of a hash of the key (2^11 write streams
   * stay in cache). Within a coarse bucket (about m / 2^11 items, in cache) the pairs that share
   * the table's key are compared in the order of a chained hash of the key walked newest first —
   * position p ascending, then q < p descending — which fixes the order of the pairs:
   *  - a bucket of at most BUCKET_ALL_PAIRS items compares every pair in that order, one tight
   *    loop over contiguous values (nearBelow: four a step with AVX2); a pair of another key that
   *    is within k is not this table's (tableOwns), so no key test is needed in the loop;
   *  - a larger one is first sorted (counting sort, stable) by a finer hash of the key, then each
   *    run of one hash value compares its pairs; the few pairs found are put back in that order
   *    (hitOrder) before they are emitted.
   * Memory: the sorted copy and the near positions, 16 bytes per distinct value; 12 bytes per item
   * of the largest bucket sorted again, and the pairs found in it. */
  const uint32_t buckets = 1u << rbits;
  sortedFp = malloc(sizeof(uint64_t) * m);
  sortedIdx = malloc(sizeof(uint32_t) * m);
  counts = malloc(sizeof(uint32_t) * (buckets + 1));
  nearOut = malloc(sizeof(uint32_t) * m);
  if (!sortedFp || !sortedIdx || !counts || !nearOut) {
    status = -1;
    goto done;
  }
  size_t subCap = 0;
  int comb[4];
  for (int j = 0; j < t; j++) comb[j] = j;
  /* The tables in lexicographic order of their t blocks; this part's are [from, to). */
  for (size_t table = 0; table < to; table++) {
    if (table >= from) {
      uint64_t keyMask = 0;
      for (int j = 0; j < t; j++) keyMask |= blockMask[comb[j]];
#define KEY_OF(v) ((uint32_t)((((v) & keyMask) * 0x9e3779b97f4a7c15ULL) >> 32))
      memset(counts, 0, sizeof(uint32_t) * (buckets + 1));
      for (uint32_t u = 0; u < m; u++) counts[(KEY_OF(valueOf(D, u)) >> (32 - rbits)) + 1]++;
      for (uint32_t c = 1; c <= buckets; c++) counts[c] += counts[c - 1];
      for (uint32_t u = 0; u < m; u++) {
        const uint64_t v = valueOf(D, u);
        const uint32_t pos = counts[KEY_OF(v) >> (32 - rbits)]++;
        sortedFp[pos] = v;
        sortedIdx[pos] = u;
      }
      uint32_t start = 0;
      for (uint32_t c = 0; c < buckets && status > 0; c++) {
        const uint32_t end = counts[c], size = end - start;
        const uint64_t *e = sortedFp + start;
        const uint32_t *ids = sortedIdx + start;
        if (size >= 2 && size <= BUCKET_ALL_PAIRS) {
          for (uint32_t p = 1; p < size && status > 0; p++) {
            const uint64_t fx = e[p];
            const uint32_t nearCount = nearBelow(near, e, 0, p, fx, k, nearOut);
            for (uint32_t h = 0; h < nearCount; h++) {
              const uint32_t q = nearOut[h];
              const uint64_t diff = fx ^ e[q];
              if (!tableOwns(diff, blockMask, comb, b, t)) continue; /* another key, or an earlier table's pair */
              if ((status = emitCopies(o, D, ids[q], ids[p], (uint8_t)popcount64(diff))) <= 0) break;
            }
          }
        } else if (size > BUCKET_ALL_PAIRS) {
          uint32_t hbits = 1;
          while ((1u << hbits) < size) hbits++;
          const uint32_t hsize = 1u << hbits;
          if (subCap < size || subCap < hsize + 1) {
            const size_t cap = size > hsize + 1 ? size : hsize + 1;
            free(subFp);
            free(subPos);
            free(subCounts);
            subFp = malloc(sizeof(uint64_t) * cap);
            subPos = malloc(sizeof(uint32_t) * cap);
            subCounts = malloc(sizeof(uint32_t) * (cap + 1));
            subCap = cap;
            if (!subFp || !subPos || !subCounts) {
              status = -1;
              break;
            }
          }
#define SLOT_OF(v) ((KEY_OF(v) * 0x85ebca6bu) >> (32 - hbits))
          memset(subCounts, 0, sizeof(uint32_t) * (hsize + 1));
          for (uint32_t p = 0; p < size; p++) subCounts[SLOT_OF(e[p]) + 1]++;
          for (uint32_t s = 1; s <= hsize; s++) subCounts[s] += subCounts[s - 1];
          for (uint32_t p = 0; p < size; p++) {
            const uint32_t at = subCounts[SLOT_OF(e[p])]++;
            subFp[at] = e[p];
            subPos[at] = p;
          }
#undef SLOT_OF
          size_t found = 0;
          uint32_t runStart = 0;
          for (uint32_t s = 0; s < hsize && status > 0; s++) {
            const uint32_t runEnd = subCounts[s];
            for (uint32_t i = runStart + 1; i < runEnd; i++) {
              const uint64_t fx = subFp[i];
              const uint32_t nearCount = nearBelow(near, subFp, runStart, i, fx, k, nearOut);
              for (uint32_t h = 0; h < nearCount; h++) {
                const uint32_t j = nearOut[h];
                const uint64_t diff = fx ^ subFp[j];
                const int d = popcount64(diff);
                if (!tableOwns(diff, blockMask, comb, b, t)) continue;
                if (found == hitCap) {
                  const size_t cap = hitCap ? hitCap * 2 : 256;
                  Hit *grown = realloc(hits, sizeof(Hit) * cap);
                  if (!grown) {
                    status = -1;
                    break;
                  }
                  hits = grown;
                  hitCap = cap;
                }
                hits[found++] = (Hit){subPos[i], subPos[j], (uint8_t)d};
              }
              if (status <= 0) break;
            }
            runStart = runEnd;
          }
          if (status <= 0) break;
          if (found > 1) qsort(hits, found, sizeof(Hit), hitOrder);
          for (size_t h = 0; h < found; h++)
            if ((status = emitCopies(o, D, ids[hits[h].q], ids[hits[h].p], hits[h].d)) <= 0) break;
        }
        start = end;
      }
#undef KEY_OF
      if (status <= 0) break;
    }
    /* Next combination of t of the b blocks, in lexicographic order. */
    int j = t - 1;
    while (j >= 0 && comb[j] == b - t + j) j--;
    if (j < 0) break;
    comb[j]++;
    for (int i = j + 1; i < t; i++) comb[i] = comb[i - 1] + 1;
  }
done:
  free(sortedFp);
  free(sortedIdx);
  free(counts);
  free(subFp);
  free(subPos);
  free(subCounts);
  free(hits);
  free(nearOut);
  J->status[part] = status;
}
