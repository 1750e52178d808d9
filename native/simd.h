/*
 * Which vector instructions a C file of the kernel may use: SSE2 in the addon on x86-64 (and with
 * MSVC on x64), SIMD128 in the WebAssembly build (scripts/build-wasm.js, -msimd128: where native
 * uses SSE2), none elsewhere (the scalar paths). Defines HAVE_SSE2 or HAVE_WASM_SIMD and includes
 * their intrinsics (and MSVC's bit scans), and ctz32 / highBit32 for the bit masks of their
 * compares. Used by sectionbraces.c, textshape.c, regiondoc.c and band.h.
 */
#ifndef NEARDUP_SIMD_H
#define NEARDUP_SIMD_H

#include <stdint.h>

#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
#include <emmintrin.h>
#define HAVE_SSE2 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define HAVE_WASM_SIMD 1
#endif
#if defined(_MSC_VER)
#include <intrin.h>
#endif

/* The index of the lowest set bit of x (x != 0): of a compare's bit mask. */
static inline int ctz32(uint32_t x) {
#if defined(_MSC_VER)
  unsigned long r;
  _BitScanForward(&r, x);
  return (int)r;
#else
  return __builtin_ctz(x);
#endif
}

/* The index of the highest set bit of x (x != 0). */
static inline int highBit32(uint32_t x) {
#if defined(_MSC_VER)
  unsigned long r;
  _BitScanReverse(&r, x);
  return (int)r;
#else
  return 31 - __builtin_clz(x);
#endif
}

#endif
