/*
 * The band search of align.c's mark(): among the k-gram hashes hb[lo, hi] equal to h, the one
 * nearest to `centre` (the lowest of two as near), as the scalar loop finds it, with SSE2 (the
 * addon on x86-64) or SIMD128 (the WebAssembly build) for a band of up to BAND_LANES hashes:
 * the equal ones as a bit mask, the nearest below and above the centre by bit scans. hb must be
 * readable BAND_LANES hashes past hi (align.c pads its scratch).
 */
#ifndef NEARDUP_BAND_H
#define NEARDUP_BAND_H
#include <stdint.h>

#include "simd.h"

/* Hashes one vector search covers; a wider band is searched by the scalar loop. */
#define BAND_LANES 32

/* The scalar search: every cost the distance to the centre, the first of equal costs kept. */
static inline int32_t bandNearestScalar(const uint32_t *hb, int32_t lo, int32_t hi, int32_t centre, uint32_t h) {
  int32_t best = -1, bestOff = INT32_MAX;
  for (int32_t j = lo; j <= hi; j++) {
    if (hb[j] != h) continue;
    const int32_t cost = j < centre ? centre - j : j - centre;
    if (cost < bestOff) {
      bestOff = cost;
      best = j;
    }
  }
  return best;
}

#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
/* Bit i set when p[i] == h, for i in [0, lanes) (lanes 16 or 32; p readable that far). */
static inline uint32_t equalMask(const uint32_t *p, uint32_t h, int lanes) {
  uint32_t m = 0;
#ifdef HAVE_SSE2
  const __m128i v = _mm_set1_epi32((int)h);
  for (int q = 0; q < lanes; q += 4) m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + q)), v))) << q;
#else
  const v128_t v = wasm_i32x4_splat((int32_t)h);
  for (int q = 0; q < lanes; q += 4) m |= (uint32_t)wasm_i32x4_bitmask(wasm_i32x4_eq(wasm_v128_load(p + q), v)) << q;
#endif
  return m;
}
#endif

/* hb[j] == h for j in [lo, hi] nearest to centre (lowest of equals); -1 when none. */
static inline int32_t bandNearest(const uint32_t *hb, int32_t lo, int32_t hi, int32_t centre, uint32_t h) {
  if (hi < lo) return -1;
#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
  const int32_t width = hi - lo + 1;
  if (width <= BAND_LANES) {
    uint32_t mask = equalMask(hb + lo, h, width <= 16 ? 16 : 32);
    if (width < 32) mask &= (1u << width) - 1;
    if (!mask) return -1;
    const int32_t c = centre - lo; /* the centre's bit: may lie outside [0, width) */
    if (c <= 0) return lo + ctz32(mask);
    if (c >= 31) return lo + highBit32(mask);
    const uint32_t below = mask & ((2u << c) - 1), above = mask >> c;
    const int32_t db = below ? c - highBit32(below) : INT32_MAX, da = above ? ctz32(above) : INT32_MAX;
    return db <= da ? centre - db : centre + da;
  }
#endif
  return bandNearestScalar(hb, lo, hi, centre, h);
}

#endif
