/*
 * The fingerprinting kernel's SimHash half (simhash.ts of src/core/fingerprint): the shingles of a
 * token stream numbered into a sequence (simhashBuildSeqOf), the per-bit majority, unweighted or
 * tf-weighted (kernelSimhashTokens), the bottom-k sketch, and one item's SimHash, features and
 * sketch from a sequence (simhashFingerprintRange), for fingerprint.c's files and sections.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprintparts.h"
#include "grow.h"
#include "hash.h"

static int growSeq(Seq *s, size_t need) {
  if (s->cap >= need) return 1;
  size_t n = s->cap ? s->cap : 1024;
  while (n < need) n *= 2;
  void **arrays[] = {(void **)&s->id, (void **)&s->prev, (void **)&s->hi, (void **)&s->lo, (void **)&s->count};
  for (size_t j = 0; j < sizeof arrays / sizeof arrays[0]; j++) {
    void *q = realloc(*arrays[j], n * 4);
    if (!q) return 0;
    *arrays[j] = q;
  }
  s->cap = n;
  return 1;
}

void simhashFreeSeq(Seq *s) {
  free(s->id);
  free(s->prev);
  free(s->hi);
  free(s->lo);
  free(s->count);
}
/* ------------------------------------------------------------------------------- shingles */

#ifdef SHINGLE_PASSES
/* The keys of the shingles of k tokens at from, from + 1, … (positions of them): per shingle a
 * rotate-xor-multiply fold of its tokens' low words into keyA, of their high words into keyB. */
static void shingleKeys(const uint32_t *tlo, const uint32_t *thi, int from, int positions, int k, uint32_t *keyA, uint32_t *keyB) {
  int p = 0;
#ifdef TOKEN_SIMD128
  /* four shingles a vector (the same 32-bit arithmetic lane by lane) */
  const v128_t ma = wasm_i32x4_splat((int32_t)0x9e3779b1u), mb = wasm_i32x4_splat((int32_t)0x85ebca77u);
  for (; p + 4 <= positions; p += 4) {
    const int i = from + p;
    v128_t a = wasm_v128_load(tlo + i), b = wasm_v128_load(thi + i);
    for (int j = 1; j < k; j++) {
      a = wasm_i32x4_mul(wasm_v128_xor(wasm_v128_or(wasm_i32x4_shl(a, 5), wasm_u32x4_shr(a, 27)), wasm_v128_load(tlo + i + j)), ma);
      b = wasm_i32x4_mul(wasm_v128_xor(wasm_v128_or(wasm_i32x4_shl(b, 7), wasm_u32x4_shr(b, 25)), wasm_v128_load(thi + i + j)), mb);
    }
    wasm_v128_store(keyA + p, a);
    wasm_v128_store(keyB + p, b);
  }
#endif
  for (; p < positions; p++) {
    const int i = from + p;
    uint32_t a = tlo[i], b = thi[i];
    for (int j = 1; j < k; j++) {
      a = (rotl32(a, 5) ^ tlo[i + j]) * 0x9e3779b1u;
      b = (rotl32(b, 7) ^ thi[i + j]) * 0x85ebca77u;
    }
    keyA[p] = a;
    keyB[p] = b;
  }
}

/* The 64-bit hash (hi, lo) of each of n distinct shingles from its keys (keyA in lo, overwritten). */
static void shingleHashes(const uint32_t *keyB, uint32_t *lo, uint32_t *hi, int n) {
  int d = 0;
#ifdef TOKEN_SIMD128
  /* four a vector: fmix32 lane by lane */
#define FMIX32X4(x) \
  (x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16)), x = wasm_i32x4_mul(x, wasm_i32x4_splat((int32_t)0x85ebca6bu)), \
   x = wasm_v128_xor(x, wasm_u32x4_shr(x, 13)), x = wasm_i32x4_mul(x, wasm_i32x4_splat((int32_t)0xc2b2ae35u)), \
   x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16)))
  for (; d + 4 <= n; d += 4) {
    const v128_t a = wasm_v128_load(lo + d), b = wasm_v128_load(keyB + d);
    v128_t m = wasm_v128_xor(wasm_v128_xor(a, wasm_i32x4_mul(b, wasm_i32x4_splat((int32_t)0x9e3779b1u))), wasm_u32x4_shr(b, 15));
    FMIX32X4(m);
    v128_t h = wasm_v128_xor(wasm_v128_xor(b, wasm_i32x4_mul(m, wasm_i32x4_splat((int32_t)0x27d4eb2fu))), wasm_i32x4_splat(0x165667b1));
    FMIX32X4(h);
    v128_t l = wasm_v128_xor(m, wasm_i32x4_mul(h, wasm_i32x4_splat((int32_t)0x85ebca77u)));
    FMIX32X4(l);
    wasm_v128_store(hi + d, h);
    wasm_v128_store(lo + d, l);
  }
#undef FMIX32X4
#endif
  for (; d < n; d++) {
    const uint32_t a = lo[d], b = keyB[d];
    const uint32_t m = fmix32(a ^ (b * 0x9e3779b1u) ^ (b >> 15));
    const uint32_t h = fmix32(b ^ (m * 0x27d4eb2fu) ^ 0x165667b1u);
    hi[d] = h;
    lo[d] = fmix32(m ^ (h * 0x85ebca77u));
  }
}

#endif

/* Numbers the shingles of tokens [from, to) with k tokens each into s (see simhash.ts). With
 * SHINGLE_PASSES (the .wasm), in three passes: the shingles' keys (shingleKeys), the numbering,
 * the distinct shingles' hashes (shingleHashes); the addon does all three in one loop, which gcc
 * keeps in registers but V8 would run largely from the stack. The same ids and hashes either way. */
int simhashBuildSeqOf(Kernel *K, Seq *s, const uint32_t *thi, const uint32_t *tlo, int from, int to, int k) {
  const int positions = to - from - k + 1;
  if (!growSeq(s, positions)) return 0;
  s->length = positions;
  s->from = from;
  s->k = k;
  int bits = 8;
  while ((1 << bits) < positions * 2) bits++;
  if (!growArray((void **)&K->table, &K->tableCap, (size_t)2 << bits, 4)) return 0;
  memset(K->table, 0, ((size_t)2 << bits) * 4);
  if (K->idCap < (size_t)positions) {
    size_t cap = K->idCap, cap2 = K->idCap;
    if (!growArray((void **)&K->foldedB, &cap, positions, 4) || !growArray((void **)&K->lastSeen, &cap2, positions, 4)) return 0;
    K->idCap = cap;
  }
  const uint32_t mask = (1u << bits) - 1;
  const int shift = 32 - bits;
  int32_t *tab = K->table;
  int32_t *last = K->lastSeen;
  int32_t *keyB = K->foldedB;
  int32_t *id = s->id, *prev = s->prev;
  uint32_t *outHi = s->hi, *outLo = s->lo, *count = s->count;
#ifdef SHINGLE_PASSES
  /* The shingles' two keys first, into id and prev (each read before it is overwritten below). */
  shingleKeys(tlo, thi, from, positions, k, (uint32_t *)id, (uint32_t *)prev);
#endif
  int ids = 0;
  for (int p = 0; p < positions; p++) {
#ifdef SHINGLE_PASSES
    const uint32_t a = (uint32_t)id[p], b = (uint32_t)prev[p];
#else
    const int i = from + p;
    uint32_t a = tlo[i], b = thi[i];
    for (int j = 1; j < k; j++) {
      a = (rotl32(a, 5) ^ tlo[i + j]) * 0x9e3779b1u;
      b = (rotl32(b, 7) ^ thi[i + j]) * 0x85ebca77u;
    }
#endif
    uint32_t slot = ((a ^ (b * 0x27d4eb2fu)) * 0x9e3779b1u) >> shift;
    for (;;) {
      const uint32_t w = slot << 1;
      const int32_t entry = tab[w + 1];
      if (entry == 0) {
        tab[w] = (int32_t)a;
        tab[w + 1] = ids + 1;
        keyB[ids] = (int32_t)b;
        id[p] = ids;
        prev[p] = -1;
        last[ids] = p;
        count[ids] = 1;
#ifdef SHINGLE_PASSES
        outLo[ids] = a; /* the key, until shingleHashes */
#else
        const uint32_t m = fmix32(a ^ (b * 0x9e3779b1u) ^ (b >> 15));
        const uint32_t h = fmix32(b ^ (m * 0x27d4eb2fu) ^ 0x165667b1u);
        outHi[ids] = h;
        outLo[ids] = fmix32(m ^ (h * 0x85ebca77u));
#endif
        ids++;
        break;
      }
      if (tab[w] == (int32_t)a && keyB[entry - 1] == (int32_t)b) {
        const int d = entry - 1;
        id[p] = d;
        prev[p] = last[d];
        last[d] = p;
        count[d]++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
#ifdef SHINGLE_PASSES
  shingleHashes((const uint32_t *)keyB, outLo, outHi, ids);
#endif
  s->distinct = ids;
  return 1;
}


/* ------------------------------------------------------------------------------- SimHash */

/* Adds to bitCounts[b] how many of values [s, count) have bit b set: SWAR counters (4-bit lanes
 * for 15 values, 8-bit lanes for 255). */
static void countBits(const uint32_t *hiArr, const uint32_t *loArr, int s, int count, uint32_t *bitCounts) {
  const uint64_t M1 = 0x1111111111111111ULL, M4 = 0x0f0f0f0f0f0f0f0fULL;
  while (s < count) {
    const int end255 = count < s + 255 ? count : s + 255;
    uint64_t e[4] = {0, 0, 0, 0}, o[4] = {0, 0, 0, 0};
    while (s < end255) {
      const int end15 = end255 < s + 15 ? end255 : s + 15;
      uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (; s < end15; s++) {
        const uint64_t v = ((uint64_t)hiArr[s] << 32) | loArr[s];
        a0 += v & M1;
        a1 += (v >> 1) & M1;
        a2 += (v >> 2) & M1;
        a3 += (v >> 3) & M1;
      }
      e[0] += a0 & M4;
      o[0] += (a0 >> 4) & M4;
      e[1] += a1 & M4;
      o[1] += (a1 >> 4) & M4;
      e[2] += a2 & M4;
      o[2] += (a2 >> 4) & M4;
      e[3] += a3 & M4;
      o[3] += (a3 >> 4) & M4;
    }
    /* e[j] byte b counts bit 8b + j; o[j] byte b counts bit 8b + 4 + j. */
    for (int j = 0; j < 4; j++) {
      for (int b = 0; b < 8; b++) {
        bitCounts[8 * b + j] += (uint32_t)((e[j] >> (8 * b)) & 0xff);
        bitCounts[8 * b + 4 + j] += (uint32_t)((o[j] >> (8 * b)) & 0xff);
      }
    }
  }
}

#ifdef TOKEN_SIMD128
/* Adds the 8-bit counters of acc (byte b of each 32-bit lane counts bit `bit` + 8b) to bitCounts. */
static inline void foldCounters(v128_t acc, uint32_t *bitCounts, int bit) {
  /* the four lanes' byte b summed: 16-bit sums of lanes 0 + 2 and 1 + 3, then of those two */
  const v128_t pairs = wasm_i16x8_add(wasm_u16x8_extend_low_u8x16(acc), wasm_u16x8_extend_high_u8x16(acc));
  const v128_t sums = wasm_i16x8_add(pairs, wasm_i64x2_shuffle(pairs, pairs, 1, 0));
  bitCounts[bit] += wasm_u16x8_extract_lane(sums, 0);
  bitCounts[bit + 8] += wasm_u16x8_extract_lane(sums, 1);
  bitCounts[bit + 16] += wasm_u16x8_extract_lane(sums, 2);
  bitCounts[bit + 24] += wasm_u16x8_extract_lane(sums, 3);
}

/*
 * countBits of values [0, count & ~3) with SIMD128, four at a time: the low words of four values in
 * the 32-bit lanes of one vector, their high words in another, the same SWAR counters lane by lane
 * (4-bit for 15 values a lane, 8-bit for 255). Returns where it stopped.
 */
static int countBitsSimd(const uint32_t *hiArr, const uint32_t *loArr, int count, uint32_t *bitCounts) {
  const v128_t M1 = wasm_i32x4_splat(0x11111111), M4 = wasm_i32x4_splat(0x0f0f0f0f);
  const int end = count & ~3;
  int s = 0;
  while (s < end) {
    const int end255 = end < s + 4 * 255 ? end : s + 4 * 255;
    v128_t eLo[4], oLo[4], eHi[4], oHi[4];
    for (int j = 0; j < 4; j++) eLo[j] = oLo[j] = eHi[j] = oHi[j] = wasm_i32x4_splat(0);
    while (s < end255) {
      const int end15 = end255 < s + 4 * 15 ? end255 : s + 4 * 15;
      v128_t l0 = wasm_i32x4_splat(0), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
      for (; s < end15; s += 4) {
        const v128_t lo = wasm_v128_load(loArr + s), hi = wasm_v128_load(hiArr + s);
        l0 = wasm_i32x4_add(l0, wasm_v128_and(lo, M1));
        l1 = wasm_i32x4_add(l1, wasm_v128_and(wasm_u32x4_shr(lo, 1), M1));
        l2 = wasm_i32x4_add(l2, wasm_v128_and(wasm_u32x4_shr(lo, 2), M1));
        l3 = wasm_i32x4_add(l3, wasm_v128_and(wasm_u32x4_shr(lo, 3), M1));
        h0 = wasm_i32x4_add(h0, wasm_v128_and(hi, M1));
        h1 = wasm_i32x4_add(h1, wasm_v128_and(wasm_u32x4_shr(hi, 1), M1));
        h2 = wasm_i32x4_add(h2, wasm_v128_and(wasm_u32x4_shr(hi, 2), M1));
        h3 = wasm_i32x4_add(h3, wasm_v128_and(wasm_u32x4_shr(hi, 3), M1));
      }
      const v128_t a[8] = {l0, l1, l2, l3, h0, h1, h2, h3};
      for (int j = 0; j < 4; j++) {
        eLo[j] = wasm_i32x4_add(eLo[j], wasm_v128_and(a[j], M4));
        oLo[j] = wasm_i32x4_add(oLo[j], wasm_v128_and(wasm_u32x4_shr(a[j], 4), M4));
        eHi[j] = wasm_i32x4_add(eHi[j], wasm_v128_and(a[4 + j], M4));
        oHi[j] = wasm_i32x4_add(oHi[j], wasm_v128_and(wasm_u32x4_shr(a[4 + j], 4), M4));
      }
    }
    /* eLo[j] byte b counts bit 8b + j, oLo[j] bit 8b + 4 + j; eHi, oHi the same 32 bits higher. */
    for (int j = 0; j < 4; j++) {
      foldCounters(eLo[j], bitCounts, j);
      foldCounters(oLo[j], bitCounts, 4 + j);
      foldCounters(eHi[j], bitCounts, 32 + j);
      foldCounters(oHi[j], bitCounts, 36 + j);
    }
  }
  return end;
}
#endif

/* Per-bit majority of `count` values, each counted once. Returns the 64-bit fingerprint. */
static uint64_t majority(const uint32_t *hiArr, const uint32_t *loArr, int count) {
  uint32_t bitCounts[64];
  memset(bitCounts, 0, sizeof bitCounts);
  int s = 0;
#ifdef TOKEN_SIMD128
  s = countBitsSimd(hiArr, loArr, count, bitCounts);
#endif
  countBits(hiArr, loArr, s, count, bitCounts);
  uint64_t bits = 0;
  for (int b = 0; b < 64; b++)
    if ((uint64_t)bitCounts[b] * 2 > (uint64_t)count) bits |= 1ULL << b;
  return bits;
}

static inline double logOf(const Kernel *K, uint32_t n) { return n < (uint32_t)K->nLogs ? K->logs[n] : log((double)n); }

/* tf weighting: 1 + ln(count) per distinct shingle, summed in order (as Math.log does in JS). */
static uint64_t weightedMajority(const Kernel *K, const uint32_t *hiArr, const uint32_t *loArr, const uint32_t *countArr, int count) {
  double counters[64];
  for (int b = 0; b < 64; b++) counters[b] = 0;
  for (int s = 0; s < count; s++) {
    const uint32_t hi = hiArr[s], lo = loArr[s];
    const double w = 1 + logOf(K, countArr[s]);
    for (int bit = 0; bit < 32; bit++) {
      counters[bit] += ((lo >> bit) & 1) ? w : -w;
      counters[32 + bit] += ((hi >> bit) & 1) ? w : -w;
    }
  }
  uint64_t bits = 0;
  for (int b = 0; b < 64; b++)
    if (counters[b] > 0) bits |= 1ULL << b;
  return bits;
}

/* The SimHash bits of tokens [from, to) of a token stream (hi, lo): shingles of max(1, min(k,
 * to - from)) tokens, tf-weighted or not, in the spare sequence (free between calls). 1, 0 (no
 * tokens) or -1 (out of memory). */
int kernelSimhashTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, int from, int to, int k, int tf, uint64_t *bits) {
  const int n = to - from;
  if (n <= 0) return 0;
  if (k > n) k = n;
  if (k < 1) k = 1;
  if (!simhashBuildSeqOf(K, &K->spare, hi, lo, from, to, k)) return -1;
  const Seq *s = &K->spare;
  *bits = tf ? weightedMajority(K, s->hi, s->lo, s->count, s->distinct) : majority(s->hi, s->lo, s->distinct);
  return 1;
}

/* ------------------------------------------------------------------------------- sketch */

#define TWO_32 4294967296.0

/* The k smallest of values[0, count) with repeats, ascending, then without repeats, into dst;
 * returns how many (see bottomK in simhash.ts: a threshold, a bucket sort, an insertion sort). */
static int bottomK(Kernel *K, const uint32_t *values, int count, int k, uint32_t *dst) {
  if (k <= 0) return 0;
  if (K->candCap < (size_t)count) {
    size_t cap = K->candCap, cap2 = K->candCap;
    if (!growArray((void **)&K->cand, &cap, count, 4) || !growArray((void **)&K->sorted, &cap2, count, 4)) return -1;
    K->candCap = cap;
  }
  double limit = count <= k ? TWO_32 : fmin(TWO_32, ceil(((k * 1.25 + 8) / count) * TWO_32));
  int m;
  uint32_t *cand = K->cand;
  for (;;) {
    m = 0;
    /* limit is a whole number up to 2^32: the same test in integers */
    const uint64_t below = (uint64_t)limit;
    for (int s = 0; s < count; s++) {
      const uint32_t v = values[s];
      cand[m] = v; /* kept when below (branch-free: which values are is a coin toss) */
      m += v < below;
    }
    if (m >= k || m == count) break;
    limit = fmin(TWO_32, limit * 2);
  }
  int nb = 16;
  while (nb < m) nb *= 2;
  /* nb + 2 entries: a value whose bucket rounds up to nb counts into start[nb + 1], never read. */
  if (!growArray((void **)&K->buckets, &K->bucketCap, (size_t)nb + 2, 4)) return -1;
  int32_t *start = K->buckets;
  memset(start, 0, ((size_t)nb + 2) * 4);
  const double scale = nb / limit;
  /* (int) of a non-negative product is its floor */
  for (int s = 0; s < m; s++) start[(int)(cand[s] * scale) + 1]++;
  for (int b = 1; b <= nb; b++) start[b] += start[b - 1];
  uint32_t *to = K->sorted;
  for (int s = 0; s < m; s++) {
    const uint32_t v = cand[s];
    to[start[(int)(v * scale)]++] = v;
  }
  for (int s = 1; s < m; s++) {
    const uint32_t v = to[s];
    int j = s - 1;
    while (j >= 0 && to[j] > v) {
      to[j + 1] = to[j];
      j--;
    }
    to[j + 1] = v;
  }
  const int take = k < m ? k : m;
  int w = 0;
  for (int r = 0; r < take; r++)
    if (r == 0 || to[r] != to[r - 1]) dst[w++] = to[r];
  return w;
}

/* ------------------------------------------------------------------------------- ranges */

static int ensureItem(Kernel *K, size_t n) {
  if (K->itemCap >= n) return 1;
  size_t c1 = K->itemCap, c2 = K->itemCap, c3 = K->itemCap, c4 = K->itemCap;
  if (!growArray((void **)&K->dhi, &c1, n, 4) || !growArray((void **)&K->dlo, &c2, n, 4) || !growArray((void **)&K->dcount, &c3, n, 4) ||
      !growArray((void **)&K->dindex, &c4, n, 4))
    return 0;
  K->itemCap = c1;
  return 1;
}

/* Fingerprints tokens [from, to) from sequence s (built over them or a range around them);
 * the sketch goes to dst (room for `sketch` values). Returns 0 on allocation failure. */
int simhashFingerprintRange(Kernel *K, const Seq *s, int from, int to, int tf, int sketch, uint32_t *dst, Item *out) {
  const int first = from - s->from;
  const int end = to - s->from - s->k + 1;
  const uint32_t *hiArr, *loArr, *countArr;
  int distinct;
  if (first == 0 && end == s->length) {
    hiArr = s->hi;
    loArr = s->lo;
    countArr = s->count;
    distinct = s->distinct;
  } else {
    if (!ensureItem(K, (size_t)(end - first))) return 0;
    const int32_t *id = s->id, *prev = s->prev;
    uint32_t *dhi = K->dhi, *dlo = K->dlo, *dcount = K->dcount;
    int32_t *dindex = K->dindex;
    distinct = 0;
    if (!tf) {
      /* Each position's shingle is written, and kept when its first in the range (branch-free). */
      for (int p = first; p < end; p++) {
        const int d = id[p];
        dhi[distinct] = s->hi[d];
        dlo[distinct] = s->lo[d];
        distinct += prev[p] < first;
      }
    } else {
      for (int p = first; p < end; p++) {
        const int q = prev[p];
        if (q < first) {
          const int d = id[p];
          dhi[distinct] = s->hi[d];
          dlo[distinct] = s->lo[d];
          dcount[distinct] = 1;
          dindex[p - first] = distinct++;
        } else {
          const int d = dindex[q - first];
          dcount[d]++;
          dindex[p - first] = d;
        }
      }
    }
    hiArr = dhi;
    loArr = dlo;
    countArr = dcount;
  }
  out->bits = tf ? weightedMajority(K, hiArr, loArr, countArr, distinct) : majority(hiArr, loArr, distinct);
  out->features = distinct;
  const int n = bottomK(K, hiArr, distinct, sketch, dst);
  if (n < 0) return 0;
  out->sketchLen = n;
  return 1;
}
