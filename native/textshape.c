/*
 * textShape (native/textshape.h): the control characters, line feeds and longest line of a UTF-8
 * text, read off its bytes. In valid UTF-8 a byte below 0x80 is always that ASCII character (lead
 * and continuation bytes are 0x80 and above), so the ASCII counts are the text's; a character of
 * 2 or 3 bytes is one UTF-16 unit and one of 4 bytes two (a surrogate pair): lead bytes 0xC0–0xEF
 * count 1, 0xF0 and above 2, continuation bytes (0x80–0xBF) none. A Han ideograph the variant
 * fold looks for (U+3400–U+9FFF, U+F900–U+FAFF) is led by 0xE3–0xE9 or 0xEF; without such a lead
 * byte the text has none. The markers' prefix is ASCII: in the text exactly when in the bytes.
 * Blocks of 16 bytes without a control or NUL byte are counted at once (SSE2, SIMD128: bit masks of
 * line feeds, continuation bytes, lead bytes of 4), any other byte by its class.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "textshape.h"

#include <string.h>

#include "simd.h"

/* What a byte is: 0 printable ASCII (and TAB, VT, FF, CR, ESC), 1 a control checkText counts, 2 LF,
 * 3 NUL, 4 a continuation byte (0x80-0xBF), 5 a lead byte of one unit (0xC0-0xEF), 6 a lead byte of
 * two (0xF0-0xFF). A constant table: the addon's threads share it, nothing fills it at run time. */
static const uint8_t byteClass[256] = {
    3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0, 0, 0, 1, 1, /* 0x00 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, /* 0x10 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x50 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, /* 0x70 */
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 0x80 */
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 0x90 */
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 0xA0 */
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, /* 0xB0 */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 0xC0 */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 0xD0 */
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, /* 0xE0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, /* 0xF0 */
};

#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)

/* The number of set bits of x. */
static inline uint32_t popcount32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
#endif
}

/* The bytes of a 16-byte block, as bit masks (bit i: byte i). */
typedef struct {
  uint32_t lf;      /* line feeds */
  uint32_t special; /* a control or NUL byte (neither class 0 of byteClass, nor LF, nor 0x80 and above) */
  uint32_t high;    /* 0x80 and above */
  uint32_t cont;    /* continuation bytes, 0x80-0xBF: no UTF-16 unit */
  uint32_t four;    /* lead bytes of 4, 0xF0 and above: two units */
  uint32_t han;     /* lead bytes 0xE3-0xE9 and 0xEF (TEXT_SHAPE_MAYBE_HAN) */
} Block16;

static inline void block16(const uint8_t *p, Block16 *b) {
#ifdef HAVE_SSE2
  const __m128i v = _mm_loadu_si128((const __m128i *)p);
  const __m128i neg = _mm_cmplt_epi8(v, _mm_setzero_si128()); /* signed: 0x80 and above */
  /* Below 0x20 (not 0x80 and above), and DEL. */
  const __m128i odd = _mm_or_si128(_mm_andnot_si128(neg, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
  const __m128i nl = _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'));
  __m128i fine = _mm_or_si128(nl, _mm_cmpeq_epi8(v, _mm_set1_epi8(9)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(11)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(12)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(13)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(27)));
  b->lf = (uint32_t)_mm_movemask_epi8(nl);
  b->special = (uint32_t)_mm_movemask_epi8(_mm_andnot_si128(fine, odd));
  b->high = (uint32_t)_mm_movemask_epi8(neg);
  if (!b->high) return;
  b->cont = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8((char)0xc0)));
  b->four = (uint32_t)_mm_movemask_epi8(_mm_and_si128(neg, _mm_cmpgt_epi8(v, _mm_set1_epi8((char)0xef))));
  const __m128i e3e9 = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8((char)0xe2)), _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xea)));
  b->han = (uint32_t)_mm_movemask_epi8(_mm_or_si128(e3e9, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xef))));
#else
  const v128_t v = wasm_v128_load(p);
  const v128_t neg = wasm_i8x16_lt(v, wasm_i8x16_splat(0));
  const v128_t odd = wasm_v128_or(wasm_v128_andnot(wasm_i8x16_lt(v, wasm_i8x16_splat(0x20)), neg), wasm_i8x16_eq(v, wasm_i8x16_splat(0x7f)));
  const v128_t nl = wasm_i8x16_eq(v, wasm_i8x16_splat('\n'));
  v128_t fine = wasm_v128_or(nl, wasm_i8x16_eq(v, wasm_i8x16_splat(9)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(11)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(12)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(13)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(27)));
  b->lf = (uint32_t)wasm_i8x16_bitmask(nl);
  b->special = (uint32_t)wasm_i8x16_bitmask(wasm_v128_andnot(odd, fine));
  b->high = (uint32_t)wasm_i8x16_bitmask(neg);
  if (!b->high) return;
  b->cont = (uint32_t)wasm_i8x16_bitmask(wasm_i8x16_lt(v, wasm_i8x16_splat((int8_t)0xc0)));
  b->four = (uint32_t)wasm_i8x16_bitmask(wasm_v128_and(neg, wasm_i8x16_gt(v, wasm_i8x16_splat((int8_t)0xef))));
  const v128_t e3e9 = wasm_v128_and(wasm_i8x16_gt(v, wasm_i8x16_splat((int8_t)0xe2)), wasm_i8x16_lt(v, wasm_i8x16_splat((int8_t)0xea)));
  b->han = (uint32_t)wasm_i8x16_bitmask(wasm_v128_or(e3e9, wasm_i8x16_eq(v, wasm_i8x16_splat((int8_t)0xef))));
#endif
}

/* UTF-16 units of the bytes of a block that `mask` selects: a byte each, less continuation bytes, plus lead bytes of 4. */
static inline uint32_t units16(const Block16 *b, uint32_t mask) {
  return b->high ? popcount32(mask) - popcount32(b->cont & mask) + popcount32(b->four & mask) : popcount32(mask);
}
#endif

/* Whether the bytes hold "neardup-ignore-": the C library's memmem where there is one (glibc, macOS, wasi-libc), else memchr and memcmp. */
static int hasMarkerPrefix(const uint8_t *p, size_t n) {
  static const char prefix[] = "neardup-ignore-";
  const size_t len = sizeof prefix - 1;
#if defined(_WIN32)
  for (const uint8_t *at = p, *end = p + n; (size_t)(end - at) >= len; at++) {
    at = memchr(at, prefix[0], (size_t)(end - at) - len + 1);
    if (!at) return 0;
    if (memcmp(at, prefix, len) == 0) return 1;
  }
  return 0;
#else
  return memmem(p, n, prefix, len) != NULL;
#endif
}

void textShape(const uint8_t *p, size_t n, uint32_t out[TEXT_SHAPE_WORDS]) {
  uint32_t control = 0, newlines = 0, longest = 0, line = 0, flags = 0;
  size_t i = 0;
  while (i < n) {
#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
    /* 16 bytes without a control or NUL byte at once; with one: those 16 one by one. */
    if (i + 16 <= n) {
      Block16 b;
      block16(p + i, &b);
      if (b.special == 0) {
        if (b.high) flags |= TEXT_SHAPE_NON_ASCII | (b.han ? TEXT_SHAPE_MAYBE_HAN : 0);
        uint32_t lf = b.lf;
        uint32_t from = 0; /* where the current line resumes in these 16 */
        while (lf) {
          const uint32_t j = (uint32_t)ctz32(lf);
          line += b.high ? units16(&b, ((1u << j) - 1) & ~((1u << from) - 1)) : j - from;
          if (line > longest) longest = line;
          line = 0;
          newlines++;
          from = j + 1;
          lf &= lf - 1;
        }
        line += b.high ? units16(&b, 0xffffu & ~((1u << from) - 1)) : 16 - from;
        i += 16;
        continue;
      }
    }
    const size_t end = i + 16 < n ? i + 16 : n;
#else
    const size_t end = n;
#endif
    for (; i < end; i++) {
      switch (byteClass[p[i]]) {
        case 0: line++; break;
        case 1: control++; line++; break;
        case 2:
          if (line > longest) longest = line;
          line = 0;
          newlines++;
          break;
        case 3: flags |= TEXT_SHAPE_NUL; line++; break;
        case 4: flags |= TEXT_SHAPE_NON_ASCII; break;
        case 5:
          flags |= TEXT_SHAPE_NON_ASCII | (p[i] >= 0xe3 && p[i] != 0xea && p[i] != 0xeb && p[i] != 0xec && p[i] != 0xed && p[i] != 0xee ? TEXT_SHAPE_MAYBE_HAN : 0);
          line++;
          break;
        default: flags |= TEXT_SHAPE_NON_ASCII; line += 2; break;
      }
    }
  }
  if (line > longest) longest = line;
  out[0] = control;
  out[1] = newlines;
  out[2] = longest;
  if (hasMarkerPrefix(p, n)) flags |= TEXT_SHAPE_MARKER;
  out[3] = flags;
}
