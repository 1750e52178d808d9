/*
 * All pairs of 64-bit fingerprints within Hamming distance k, by permuted block tables (Manku,
 * Jain and Das Sarma 2007), in C: the batch search of src/core/index/allPairs.ts (allPairsBatch)
 * for the native kernel. The TypeScript stays the reference (the tests compare both against
 * brute force) and the fallback.
 *
 * The 64 bits are cut into b = k + t blocks; any two fingerprints within distance k agree on at
 * least t whole blocks, so they meet in the table keyed by those t blocks. Each of the C(b, t)
 * tables is a counting sort of the items by (a hash of) its key, after which items with the same
 * key are compared. A pair is reported by one table only: the one keyed by the first t blocks on
 * which the two agree. Identical fingerprints are merged first, so that hundreds of copies cost
 * their output, not tables × copies²; t is chosen per call from n and k by a cost estimate.
 *
 * Called from JavaScript (see kernel.c): allPairs(fp: Uint32Array of (hi, lo) pairs, k,
 * maxCandidates) -> { a: Uint32Array, b: Uint32Array, distance: Uint8Array } (a < b), or null
 * when more than maxCandidates pairs exist (the caller then falls back to the TypeScript).
 */
#include "allpairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cost model of the layout choice: per item and table (sort passes), per key-equal pair compared. */
#define ITEM_COST 24.0
#define PAIR_COST 4.0

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
static double estimateJaccard(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, uint32_t size) {
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
static int vetted(const AllPairsVet *v, uint32_t x, uint32_t y) {
  const int32_t a = v->docOf[x], b = v->docOf[y];
  if (a == b) {
    if (!(v->endOf[x] < v->startOf[y] || v->endOf[y] < v->startOf[x])) return 0;
  } else if (v->copyOf && v->copyOf[a] >= 0 && v->copyOf[a] == v->copyOf[b])
    return 0;
  const uint32_t *s = v->sketches, *off = v->offsets;
  return !(estimateJaccard(s + off[x], off[x + 1] - off[x], s + off[y], off[y + 1] - off[y], v->size) < v->minSimilarity);
}

static int push(Out *o, uint32_t a, uint32_t b, uint8_t d) {
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

/* Binomial coefficient, saturating. */
static double choose(int n, int r) {
  double c = 1;
  for (int i = 1; i <= r; i++) c = c * (n - r + i) / i;
  return c;
}

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
static int emitCopies(Out *o, const Distinct *D, uint32_t u, uint32_t v, uint8_t d) {
  if (!D->uniq) return push(o, u, v, d);
  for (int32_t x = (int32_t)D->first[u]; x >= 0; x = D->next[x])
    for (int32_t y = (int32_t)D->first[v]; y >= 0; y = D->next[y]) {
      int r = push(o, (uint32_t)x, (uint32_t)y, d);
      if (r <= 0) return r;
    }
  return 1;
}

/*
 * Finds the copies: a hash of the values (4 bytes per slot, at most half full, freed at once).
 * Returns the number of distinct values, or -1 when out of memory.
 */
static int64_t findCopies(const uint32_t *fp, uint32_t n, Distinct *D) {
  D->fp = fp;
  int bits = 4;
  while ((1u << bits) < n * 2u) bits++;
  const uint32_t mask = (1u << bits) - 1;
  int32_t *slots = malloc(sizeof(int32_t) << bits);
  if (!slots) return -1;
  memset(slots, 0xff, sizeof(int32_t) << bits);
  int32_t *next = NULL;
  uint32_t copies = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint64_t v = ((uint64_t)fp[2 * i] << 32) | fp[2 * i + 1];
    uint32_t s = (uint32_t)((v * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
    for (;;) {
      const int32_t f = slots[s];
      if (f < 0) {
        slots[s] = (int32_t)i;
        break;
      }
      if ((((uint64_t)fp[2 * f] << 32) | fp[2 * f + 1]) == v) {
        if (!next) {
          if (!(next = malloc(sizeof(int32_t) * n))) {
            free(slots);
            return -1;
          }
          memset(next, 0xff, sizeof(int32_t) * n);
        }
        /* A copy: chained right after the first item of its value; marked by next[i] != -2 below. */
        next[i] = next[f];
        next[f] = (int32_t)i;
        copies++;
        break;
      }
      s = (s + 1) & mask;
    }
  }
  if (!next) {
    free(slots);
    D->uniq = NULL;
    return n;
  }
  /* First items are those the hash holds. */
  const uint32_t m = n - copies;
  D->uniq = malloc(sizeof(uint64_t) * (m ? m : 1));
  D->first = malloc(sizeof(uint32_t) * (m ? m : 1));
  if (!D->uniq || !D->first) {
    free(slots);
    free(next);
    return -1;
  }
  uint32_t u = 0;
  for (uint32_t s = 0; s <= mask; s++) {
    const int32_t f = slots[s];
    if (f >= 0) {
      D->first[u] = (uint32_t)f;
      D->uniq[u] = ((uint64_t)fp[2 * f] << 32) | fp[2 * f + 1];
      u++;
    }
  }
  free(slots);
  D->next = next;
  return m;
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
};

static void jobFree(AllPairsJob *J) {
  free(J->D.uniq);
  free(J->D.first);
  free(J->D.next);
  free(J->copies.a);
  free(J->copies.b);
  free(J->copies.d);
  for (int p = 0; p < ALLPAIRS_MAX_PARTS; p++) {
    free(J->parts[p].a);
    free(J->parts[p].b);
    free(J->parts[p].d);
  }
  free(J);
}

/* The pairs of *o as the result (handed over: o's arrays are the result's). */
static void handOver(Out *o, AllPairsResult *res) {
  res->a = o->a;
  res->b = o->b;
  res->distance = o->d;
  res->length = o->n;
  o->a = o->b = NULL;
  o->d = NULL;
}

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

/* nearBelowFn's choice, made by allPairsBegin on the calling thread before any table is searched. */
static NearBelow nearChosen = NULL;

/* nearBelow of `fn`; a short range (a small bucket's first items) in line, without the call. */
static inline uint32_t nearBelow(NearBelow fn, const uint64_t *e, uint32_t lo, uint32_t hi, uint64_t fx, int k, uint32_t *out) {
  if (hi - lo >= 8) return fn(e, lo, hi, fx, k, out);
  uint32_t c = 0;
  for (uint32_t j = hi; j-- > lo;)
    if (popcount64(fx ^ e[j]) <= k) out[c++] = j;
  return c;
}

SEARCH_CLONES int allPairsBegin(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, const AllPairsVet *vet, AllPairsJob **job, AllPairsResult *res) {
  memset(res, 0, sizeof *res);
  *job = NULL;
  if (!nearChosen) nearChosen = nearBelowFn();
  AllPairsJob *J = calloc(1, sizeof *J);
  if (!J) return -1;
  J->k = k;
  J->max = maxCandidates;
  Out *o = &J->copies;
  o->max = maxCandidates;
  o->vet = vet;
  int status = 1;
  if (n < 2) goto finished;

  /* 1. Identical fingerprints: all pairs among the copies of a value, at distance 0. */
  const int64_t distinct = findCopies(fp, n, &J->D);
  if (distinct < 0) {
    status = -1;
    goto finished;
  }
  const uint32_t m = (uint32_t)distinct;
  J->m = m;
  const Distinct *D = &J->D;
  if (D->uniq)
    for (uint32_t u = 0; u < m && status > 0; u++)
      for (int32_t x = (int32_t)D->first[u]; x >= 0 && status > 0; x = D->next[x])
        for (int32_t y = D->next[x]; y >= 0; y = D->next[y])
          if ((status = push(o, (uint32_t)x, (uint32_t)y, 0)) <= 0) break;
  if (status <= 0 || m < 2) goto finished;

  /* 2. Brute force when that is cheaper than any table layout. */
  const double pairsAll = (double)m * (m - 1) / 2;
  int bestT = 0;
  double bestCost = pairsAll * 1.0;
  for (int t = 1; t <= 4 && k + t <= 64; t++) {
    const int b = k + t;
    const double tables = choose(b, t);
    if (tables > 4096) break;
    const double keyBits = 64.0 * t / b;
    const double cost = tables * ((double)m * ITEM_COST + pairsAll / pow(2.0, keyBits) * PAIR_COST);
    if (cost < bestCost) {
      bestCost = cost;
      bestT = t;
    }
  }
  if (bestT == 0) {
    for (uint32_t x = 0; x < m && status > 0; x++) {
      const uint64_t vx = valueOf(D, x);
      for (uint32_t y = x + 1; y < m; y++) {
        const int d = popcount64(vx ^ valueOf(D, y));
        if (d <= k && (status = emitCopies(o, D, x, y, (uint8_t)d)) <= 0) break;
      }
    }
    goto finished;
  }

  /* 3. The tables (allPairsTables). Blocks: b nearly equal runs of bits, from bit 63 down. */
  J->t = bestT;
  J->b = k + bestT;
  J->tables = (size_t)choose(J->b, J->t);
  {
    int pos = 64;
    for (int j = 0; j < J->b; j++) {
      const int w = 64 / J->b + (j < 64 % J->b ? 1 : 0);
      pos -= w;
      J->blockMask[j] = (w == 64 ? ~0ULL : ((1ULL << w) - 1)) << pos;
    }
  }
  /* Coarse buckets: about m / 64 of them, and about as many as the tables' keys have values (a
   * bucket then holds about one key's items, so comparing all its pairs compares few of other
   * keys), at most 2^11. */
  const int keyBits = (64 * J->t + J->b - 1) / J->b;
  J->rbits = 1;
  while (J->rbits < 11 && ((1u << J->rbits) * 64u < m || (J->rbits < keyBits && (1u << J->rbits) < m))) J->rbits++;
  /* Each part may hold what the copies left of the cap. */
  for (int p = 0; p < ALLPAIRS_MAX_PARTS; p++) J->parts[p].max = maxCandidates - o->seen, J->parts[p].vet = vet, J->status[p] = 1;
  *job = J;
  return 2;

finished:
  if (status < 0 || o->over) {
    jobFree(J);
    return status < 0 ? -1 : 0;
  }
  handOver(o, res);
  jobFree(J);
  return 1;
}

size_t allPairsTableCount(const AllPairsJob *J) { return J->tables; }

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

int allPairsEnd(AllPairsJob *J, int parts, AllPairsResult *res) {
  memset(res, 0, sizeof *res);
  size_t total = J->copies.n, seen = J->copies.seen;
  int status = 1;
  for (int p = 0; p < parts; p++) {
    if (J->status[p] < 0) status = -1;
    else if (J->parts[p].over) status = status < 0 ? -1 : 0;
    total += J->parts[p].n;
    seen += J->parts[p].seen;
  }
  if (status > 0 && seen > J->max) status = 0;
  if (status <= 0) {
    jobFree(J);
    return status;
  }
  /* The copies' pairs, then each part's in table order: the one-part search's order (one list
   * alone is handed over as it is). */
  int lists = J->copies.n > 0, only = -1;
  for (int p = 0; p < parts; p++)
    if (J->parts[p].n) lists++, only = p;
  if (lists <= 1) {
    handOver(only >= 0 ? &J->parts[only] : &J->copies, res);
    jobFree(J);
    return 1;
  }
  Out all = {0};
  all.max = total;
  all.a = malloc((total ? total : 1) * 4);
  all.b = malloc((total ? total : 1) * 4);
  all.d = malloc(total ? total : 1);
  if (!all.a || !all.b || !all.d) {
    free(all.a);
    free(all.b);
    free(all.d);
    jobFree(J);
    return -1;
  }
  const Out *from[ALLPAIRS_MAX_PARTS + 1];
  from[0] = &J->copies;
  for (int p = 0; p < parts; p++) from[p + 1] = &J->parts[p];
  for (int p = 0; p <= parts; p++) {
    const Out *x = from[p];
    if (!x->n) continue;
    memcpy(all.a + all.n, x->a, x->n * 4);
    memcpy(all.b + all.n, x->b, x->n * 4);
    memcpy(all.d + all.n, x->d, x->n);
    all.n += x->n;
  }
  handOver(&all, res);
  jobFree(J);
  return 1;
}

int allPairsSearch(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, AllPairsResult *res) {
  AllPairsJob *J;
  const int begun = allPairsBegin(fp, n, k, maxCandidates, NULL, &J, res);
  if (begun != 2) return begun;
  allPairsTables(J, 0, allPairsTableCount(J), 0);
  return allPairsEnd(J, 1, res);
}
