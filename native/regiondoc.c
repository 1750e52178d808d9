/*
 * The region document of a code text from the tokenize that fingerprinted it (kernelRegion of
 * fingerprint.h): the identifier-normalised token stream, the text's line starts and the winnowed
 * anchors of src/core/regions/document.ts and anchors.ts, computed here so that a file is
 * tokenised once for its fingerprints and its located copies. The same values as the TypeScript,
 * bit for bit (test/unit/node/workers/nativeRegionDocument.test.ts compares them).
 */
#include <stdint.h>
#include <string.h>

#include "fingerprint.h"
#include "grow.h"
#include "hash.h"
#include "simd.h"

static void kgramPasses(uint32_t *restrict g, const uint32_t *lo0, const uint32_t *hi0, int grams, int k, uint32_t seed) { KGRAM_PASSES(g, lo0, hi0, grams, k, seed); }

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define HAVE_AVX2_DISPATCH 1
#include <immintrin.h>
/* The same with AVX2 (eight lanes and a multiply instruction; SSE2 has neither), when the CPU has it. */
__attribute__((target("avx2"))) static void kgramPassesAvx2(uint32_t *restrict g, const uint32_t *lo0, const uint32_t *hi0, int grams, int k, uint32_t seed) {
  KGRAM_PASSES(g, lo0, hi0, grams, k, seed);
}
#endif

#ifdef HAVE_AVX2_DISPATCH
static int avx2 = -1; /* whether the CPU has AVX2: the same answer for every thread (kgramHashesReady) */
#endif

void kgramHashesReady(void) {
#ifdef HAVE_AVX2_DISPATCH
  if (avx2 < 0) {
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
  }
#endif
}

void kgramHashes(uint32_t *out, const uint32_t *lo0, const uint32_t *hi0, int grams, int k, uint32_t seed) {
  kgramHashesReady();
#ifdef HAVE_AVX2_DISPATCH
  if (avx2)
    kgramPassesAvx2(out, lo0, hi0, grams, k, seed);
  else
#endif
    kgramPasses(out, lo0, hi0, grams, k, seed);
  for (int i = 0; i < grams; i++) out[i] = fmix32(out[i]);
}

/* Records line start `at` (the offset after a \n) as K->lines[l]; false out of memory. */
static inline int pushLine(Kernel *K, int l, int at) {
  if ((size_t)l == K->linesCap && !growArray((void **)&K->lines, &K->linesCap, (size_t)l + 1, 4)) return 0;
  K->lines[l] = at;
  return 1;
}

/* Offsets after every \n of t[0, n) into K->lines from index 1 (lineStartsOf; lines[0] = 0 is the
 * caller's): their count + 1, or -1 out of memory. With SSE2 (every x86-64), 32 units at a time
 * (one bit per unit: the four compares packed to bytes), then eight, the \n taken from a compare
 * mask; else four at a time skip a run without \n. */
static int lineStarts(Kernel *K, const uint16_t *t, int n) {
  int l = 1;
  int i = 0;
#ifdef HAVE_SSE2
  const __m128i nl = _mm_set1_epi16(10);
  for (; i + 32 <= n; i += 32) {
    const __m128i *p = (const __m128i *)(const void *)(t + i);
    const __m128i a = _mm_packs_epi16(_mm_cmpeq_epi16(_mm_loadu_si128(p), nl), _mm_cmpeq_epi16(_mm_loadu_si128(p + 1), nl));
    const __m128i b = _mm_packs_epi16(_mm_cmpeq_epi16(_mm_loadu_si128(p + 2), nl), _mm_cmpeq_epi16(_mm_loadu_si128(p + 3), nl));
    unsigned m = (unsigned)_mm_movemask_epi8(a) | (unsigned)_mm_movemask_epi8(b) << 16;
    if (!m) continue;
    if ((size_t)l + 32 > K->linesCap && !growArray((void **)&K->lines, &K->linesCap, (size_t)l + 32, 4)) return -1;
    int32_t *restrict lines = K->lines;
    do { /* one bit per \n */
      lines[l++] = i + ctz32(m) + 1;
      m &= m - 1;
    } while (m);
  }
  for (; i + 8 <= n; i += 8) {
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)(t + i)), nl));
    while (m) { /* two bits per \n (its two bytes) */
      if (!pushLine(K, l++, i + (ctz32(m) >> 1) + 1)) return -1;
      m &= m - 1;
      m &= m - 1;
    }
  }
#else
  for (; i + 4 <= n; i += 4) {
    uint64_t v;
    memcpy(&v, t + i, 8);
    const uint64_t x = v ^ 0x000a000a000a000aULL; /* a zero lane where a unit is \n */
    if (((x - 0x0001000100010001ULL) & ~x & 0x8000800080008000ULL) == 0) continue;
    for (int j = i; j < i + 4; j++)
      if (t[j] == 10 && !pushLine(K, l++, j + 1)) return -1;
  }
#endif
  for (; i < n; i++)
    if (t[i] == 10 && !pushLine(K, l++, i + 1)) return -1;
  return l;
}

/* Windows up to this wide are winnowed by a minimum made anew at each window, without branches. */
#define WINNOW_DIRECT_MAX 8

/* Narrow windows (the region finder's w is 4): each window's rightmost minimum found by width - 1
 * selects and recorded unconditionally, kept (m advanced) when it differs from the last: the same
 * anchors without the mispredicted branches of random hashes. The windows ending at `end` and
 * after, the anchors so far `m` (the last one's position the last window's minimum): their count. */
static int winnowNarrow(const uint32_t *restrict h, int n, int width, int end, int m, uint32_t *restrict hash, int32_t *restrict pos) {
  int last = m > 0 ? pos[m - 1] : -1;
  for (; end < n; end++) {
    int min = end - width + 1;
    uint32_t v = h[min];
    for (int i = min + 1; i <= end; i++) {
      const int take = h[i] <= v;
      min = take ? i : min;
      v = take ? h[i] : v;
    }
    hash[m] = v;
    pos[m] = min;
    m += min != last;
    last = min;
  }
  return m;
}

#ifdef HAVE_AVX2_DISPATCH
/* winnowNarrow from the first window, eight windows at a time (their minima side by side: the
 * unsigned minimum and an equality say h <= v; later taken on ties, as there), the anchors then
 * kept in order as there; the last windows by winnowNarrow. */
__attribute__((target("avx2"))) static int winnowNarrowAvx2(const uint32_t *restrict h, int n, int width, uint32_t *restrict hash, int32_t *restrict pos) {
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  uint32_t vs[8];
  int32_t ps[8];
  int m = 0, last = -1, end = width - 1;
  for (; end + 8 <= n; end += 8) {
    const int start = end - width + 1;
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(h + start));
    __m256i p = _mm256_add_epi32(lanes, _mm256_set1_epi32(start));
    for (int j = 1; j < width; j++) {
      const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(h + start + j));
      const __m256i take = _mm256_cmpeq_epi32(_mm256_min_epu32(x, v), x);
      v = _mm256_blendv_epi8(v, x, take);
      p = _mm256_blendv_epi8(p, _mm256_add_epi32(lanes, _mm256_set1_epi32(start + j)), take);
    }
    _mm256_storeu_si256((__m256i *)(void *)vs, v);
    _mm256_storeu_si256((__m256i *)(void *)ps, p);
    for (int l = 0; l < 8; l++) {
      hash[m] = vs[l];
      pos[m] = ps[l];
      m += ps[l] != last;
      last = ps[l];
    }
  }
  return winnowNarrow(h, n, width, end, m, hash, pos);
}
#endif

/* winnow of anchors.ts: of each window of w k-gram hashes the minimum (the rightmost on ties),
 * recorded when it changes; fewer than w: their minimum. Into hash / pos (room for n): their count. */
static int winnow(const uint32_t *restrict h, int n, int w, uint32_t *restrict hash, int32_t *restrict pos) {
  int m = 0;
  if (n > 0 && (w < 1 ? 1 : w > n ? n : w) <= WINNOW_DIRECT_MAX) {
    const int width = w < 1 ? 1 : w > n ? n : w;
#ifdef HAVE_AVX2_DISPATCH
    if (avx2) return winnowNarrowAvx2(h, n, width, hash, pos); /* avx2 known: kgramHashes ran first */
#endif
    m = winnowNarrow(h, n, width, width - 1, 0, hash, pos);
  } else if (n > 0) {
    const int width = w < 1 ? 1 : w > n ? n : w;
    int last = -1, min = -1;
    for (int end = width - 1; end < n; end++) {
      const int start = end - width + 1;
      if (min < start) {
        min = start;
        for (int i = start + 1; i <= end; i++)
          if (h[i] <= h[min]) min = i;
      } else if (h[end] <= h[min]) {
        min = end;
      }
      if (min != last) {
        hash[m] = h[min];
        pos[m] = min;
        m++;
        last = min;
      }
    }
  }
  return m;
}

/* Room for the k-gram hashes and anchors of `grams` k-grams (K->kgrams, ahash, apos): 0, or -1 out of memory. */
static int anchorRoom(Kernel *K, int grams) {
  if (K->anchorCap < (size_t)grams || !K->kgrams) {
    size_t cap = K->anchorCap, cap2 = K->anchorCap, cap3 = K->anchorCap;
    if (!growArray((void **)&K->kgrams, &cap, (size_t)grams + 1, 4) || !growArray((void **)&K->ahash, &cap2, (size_t)grams + 1, 4) ||
        !growArray((void **)&K->apos, &cap3, (size_t)grams + 1, 4))
      return -1;
    K->anchorCap = cap;
  }
  return 0;
}

int kernelAnchors(Kernel *K, const uint32_t *hi, const uint32_t *lo, int n, int k, int w, uint32_t salt) {
  if (n < 0 || k < 1) return -2;
  const int grams = n - k + 1 > 0 ? n - k + 1 : 0;
  if (anchorRoom(K, grams) < 0) return -1;
  kgramHashes(K->kgrams, lo, hi, grams, k, 0x9747b28cu ^ salt ^ (uint32_t)k);
  return K->nAnchors = winnow(K->kgrams, grams, w, K->ahash, K->apos);
}

int kernelRegion(Kernel *K, int k, int w, uint32_t salt) {
  if (!K->regionReady) return -2;
  const int n = K->ntok;
  /* The normalised stream: identifiers replaced by the placeholder, everything else as read. */
  if (K->idsCap < (size_t)n || !K->ihi) {
    size_t cap = K->idsCap, cap2 = K->idsCap;
    if (!growArray((void **)&K->ihi, &cap, (size_t)n + 1, 4) || !growArray((void **)&K->ilo, &cap2, (size_t)n + 1, 4)) return -1;
    K->idsCap = cap;
  }
  normalizeTokens(K->rhi, K->rlo, K->rident, n, K->ihi, K->ilo);
  /* Line starts (lineStartsOf): 0, then after every \n. */
  if (!growArray((void **)&K->lines, &K->linesCap, 1024, 4)) return -1;
  K->lines[0] = 0;
  const int lines = lineStarts(K, K->text, K->textLen);
  if (lines < 0) return -1;
  K->nLines = lines;
  K->nAnchors = 0;
  if (k < 1) return 0;
  /* Anchors (anchorsOf): the k-gram hashes of the normalised stream, winnowed. */
  const int m = kernelAnchors(K, K->ihi, K->ilo, n, k, w, salt);
  return m < 0 ? m : 0;
}

size_t kernelRegionBytes(const Kernel *K) {
  const size_t n = (size_t)K->ntok;
  return (3 * n + (size_t)K->nLines + 2 * (size_t)K->nAnchors) * 4 + n;
}

void kernelRegionWrite(const Kernel *K, void *data) {
  const size_t n = (size_t)K->ntok, lines = (size_t)K->nLines, anchors = (size_t)K->nAnchors;
  uint32_t *o = data;
  const void *parts[] = {K->rhi, K->rlo, K->tstart};
  for (int p = 0; p < 3; p++)
    if (n) memcpy(o + p * n, parts[p], n * 4);
  if (lines) memcpy(o + 3 * n, K->lines, lines * 4);
  if (anchors) {
    memcpy(o + 3 * n + lines, K->ahash, anchors * 4);
    memcpy(o + 3 * n + lines + anchors, K->apos, anchors * 4);
  }
  if (n) memcpy((uint8_t *)data + (3 * n + lines + 2 * anchors) * 4, K->rident, n);
}
