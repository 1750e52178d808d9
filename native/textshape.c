/*
 * textShape (native/textshape.h): the control characters, line feeds and longest line of a UTF-8
 * text, read off its bytes. In valid UTF-8 a byte below 0x80 is always that ASCII character (lead
 * and continuation bytes are 0x80 and above), so the ASCII counts are the text's; a character of
 * 2 or 3 bytes is one UTF-16 unit and one of 4 bytes two (a surrogate pair): lead bytes 0xC0–0xEF
 * count 1, 0xF0 and above 2, continuation bytes (0x80–0xBF) none. A Han ideograph the variant
 * fold looks for (U+3400–U+9FFF, U+F900–U+FAFF) is led by 0xE3–0xE9 or 0xEF; without such a lead
 * byte the text has none. The markers' prefix is ASCII: in the text exactly when in the bytes.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "textshape.h"

#include <string.h>

#include "simd.h"

/* What a byte is: 0 printable ASCII (and TAB, VT, FF, CR, ESC), 1 a control checkText counts, 2 LF,
 * 3 NUL, 4 a continuation byte, 5 a lead byte of one unit, 6 a lead byte of two. */
static uint8_t byteClass[256];
static int classesMade;

static void makeClasses(void) {
  for (int b = 0; b < 256; b++) {
    uint8_t c;
    if (b == 0) c = 3;
    else if (b == '\n') c = 2;
    else if (b == 9 || b == 11 || b == 12 || b == 13 || b == 27) c = 0;
    else if (b < 0x20 || b == 0x7f) c = 1;
    else if (b < 0x80) c = 0;
    else if (b < 0xc0) c = 4;
    else if (b < 0xf0) c = 5;
    else c = 6;
    byteClass[b] = c;
  }
  classesMade = 1;
}

#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
/* The index of the lowest set bit of x (x != 0). */
static inline int ctz32(uint32_t x) {
#if defined(_MSC_VER)
  unsigned long r;
  _BitScanForward(&r, x);
  return (int)r;
#else
  return __builtin_ctz(x);
#endif
}

/*
 * The 16 bytes at p as two bit masks: *lf their line feeds, and the result the bytes that are
 * neither a line feed nor class 0 of byteClass (a control, NUL or non-ASCII byte).
 */
static inline uint32_t specialBits16(const uint8_t *p, uint32_t *lf) {
#ifdef HAVE_SSE2
  const __m128i v = _mm_loadu_si128((const __m128i *)p);
  /* Signed: below 0x20, or 0x80 and above; and DEL. */
  const __m128i odd = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
  const __m128i nl = _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'));
  __m128i fine = _mm_or_si128(nl, _mm_cmpeq_epi8(v, _mm_set1_epi8(9)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(11)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(12)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(13)));
  fine = _mm_or_si128(fine, _mm_cmpeq_epi8(v, _mm_set1_epi8(27)));
  *lf = (uint32_t)_mm_movemask_epi8(nl);
  return (uint32_t)_mm_movemask_epi8(_mm_andnot_si128(fine, odd));
#else
  const v128_t v = wasm_v128_load(p);
  const v128_t odd = wasm_v128_or(wasm_i8x16_lt(v, wasm_i8x16_splat(0x20)), wasm_i8x16_eq(v, wasm_i8x16_splat(0x7f)));
  const v128_t nl = wasm_i8x16_eq(v, wasm_i8x16_splat('\n'));
  v128_t fine = wasm_v128_or(nl, wasm_i8x16_eq(v, wasm_i8x16_splat(9)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(11)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(12)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(13)));
  fine = wasm_v128_or(fine, wasm_i8x16_eq(v, wasm_i8x16_splat(27)));
  *lf = (uint32_t)wasm_i8x16_bitmask(nl);
  return (uint32_t)wasm_i8x16_bitmask(wasm_v128_andnot(odd, fine));
#endif
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
  if (!classesMade) makeClasses();
  uint32_t control = 0, newlines = 0, longest = 0, line = 0, flags = 0;
  size_t i = 0;
  while (i < n) {
#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
    /* 16 bytes of plain ASCII and line feeds at once; any other byte: those 16 one by one. */
    if (i + 16 <= n) {
      uint32_t lf;
      if (specialBits16(p + i, &lf) == 0) {
        uint32_t from = 0; /* where the current line resumes in these 16 */
        while (lf) {
          const uint32_t j = (uint32_t)ctz32(lf);
          line += j - from;
          if (line > longest) longest = line;
          line = 0;
          newlines++;
          from = j + 1;
          lf &= lf - 1;
        }
        line += 16 - from;
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
