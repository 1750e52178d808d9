/*
 * plainCodeText and its parts (native/utf8code.h): the decoding of src/core/text/decodeText.ts
 * for the common case (valid UTF-8, no byte order mark, no NUL: TextDecoder's strict UTF-8 as it
 * is) and the checks fingerprintDecodedText makes on that text before fingerprinting it, on the
 * bytes: textShape's counts (native/textshape.c) for the control characters, markers, Han lead
 * bytes and line shape (isMinified), and isRepetitive's distinct trimmed lines compared as bytes
 * (equal bytes of valid UTF-8 are equal strings). Whatever it cannot decide it leaves to the
 * usual path (a reason code): it never gives an answer of its own.
 */
#include "utf8code.h"

#include <stdlib.h>
#include <string.h>

#include "simd.h"
#include "textshape.h"

long utf8ToUtf16(const uint8_t *p, size_t n, uint16_t *out) {
  size_t i = 0;
  long o = 0;
  while (i < n) {
#ifdef HAVE_SSE2
    if (i + 16 <= n) {
      const __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
      if (_mm_movemask_epi8(v) == 0) {
        const __m128i z = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)(out + o), _mm_unpacklo_epi8(v, z));
        _mm_storeu_si128((__m128i *)(out + o + 8), _mm_unpackhi_epi8(v, z));
        i += 16;
        o += 16;
        continue;
      }
    }
#endif
    const uint32_t c = p[i];
    if (c < 0x80) {
      out[o++] = (uint16_t)c;
      i++;
      continue;
    }
    /* Well-formed sequences (Unicode table 3-7), as TextDecoder's fatal mode checks them. */
    if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= n || (p[i + 1] & 0xc0) != 0x80) return -1;
      out[o++] = (uint16_t)(((c & 0x1f) << 6) | (p[i + 1] & 0x3f));
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      if (i + 2 >= n) return -1;
      const uint32_t c1 = p[i + 1], c2 = p[i + 2];
      const uint32_t lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
      if (c1 < lo || c1 > hi || (c2 & 0xc0) != 0x80) return -1;
      out[o++] = (uint16_t)(((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f));
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= n) return -1;
      const uint32_t c1 = p[i + 1], c2 = p[i + 2], c3 = p[i + 3];
      const uint32_t lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi || (c2 & 0xc0) != 0x80 || (c3 & 0xc0) != 0x80) return -1;
      const uint32_t cp = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
      out[o++] = (uint16_t)(0xd800 + ((cp - 0x10000) >> 10));
      out[o++] = (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
      i += 4;
    } else {
      return -1;
    }
  }
  return o;
}

/* Bytes of the white space (String.prototype.trim's: WhiteSpace and LineTerminator) starting at p[i], or 0. */
static size_t spaceAt(const uint8_t *p, size_t i, size_t end) {
  const uint8_t c = p[i];
  if (c == ' ' || (c >= 9 && c <= 13)) return 1;
  if (c < 0x80) return 0;
  if (c == 0xc2) return i + 1 < end && p[i + 1] == 0xa0 ? 2 : 0; /* U+00A0 */
  if (i + 2 >= end) return 0;
  const uint8_t c1 = p[i + 1], c2 = p[i + 2];
  if (c == 0xe1) return c1 == 0x9a && c2 == 0x80 ? 3 : 0; /* U+1680 */
  if (c == 0xe2) {
    if (c1 == 0x80) return (c2 >= 0x80 && c2 <= 0x8a) || c2 == 0xa8 || c2 == 0xa9 || c2 == 0xaf ? 3 : 0; /* U+2000-200A, 2028, 2029, 202F */
    return c1 == 0x81 && c2 == 0x9f ? 3 : 0;                                                            /* U+205F */
  }
  if (c == 0xe3) return c1 == 0x80 && c2 == 0x80 ? 3 : 0; /* U+3000 */
  if (c == 0xef) return c1 == 0xbb && c2 == 0xbf ? 3 : 0; /* U+FEFF */
  return 0;
}

/* Bytes of the white space ending just before p[end] (at or after `start`), or 0. */
static size_t spaceBefore(const uint8_t *p, size_t start, size_t end) {
  const uint8_t c = p[end - 1];
  if (c < 0x80) return c == ' ' || (c >= 9 && c <= 13) ? 1 : 0;
  if (end - start >= 2 && spaceAt(p, end - 2, end) == 2) return 2;
  if (end - start >= 3 && spaceAt(p, end - 3, end) == 3) return 3;
  return 0;
}

/* A distinct line of surelyNotRepetitive's: its hash, where it starts and its length + 1 (0: an empty slot). */
typedef struct {
  uint64_t hash;
  size_t at, len1;
} LineSlot;

/* Slots on the stack (6 KB: up to 127 distinct lines, files of up to 6,399 lines); more are allocated. */
#define STACK_SLOTS 256

int surelyNotRepetitive(const uint8_t *p, size_t n, uint32_t newlines) {
  /* isRepetitive's steps, with its limits (LIMITS of decodeText.ts: 50 lines, 2 %). */
  if ((double)newlines + 1 < 50) return 1;
  const double maxDistinct = (double)(uint64_t)(((double)newlines + 1) * 0.02); /* Math.floor of a positive number */
  /* The distinct lines, hashed (open addressing, at most half full): any number of lines, each
   * line looked up once (isRepetitive's Set). */
  size_t cap = STACK_SLOTS;
  while ((double)cap < 2 * (maxDistinct + 1)) cap <<= 1;
  LineSlot onStack[STACK_SLOTS];
  LineSlot *seen = cap == STACK_SLOTS ? onStack : calloc(cap, sizeof(LineSlot));
  if (!seen) return 0; /* out of memory: isRepetitive decides */
  if (seen == onStack) memset(onStack, 0, sizeof onStack);
  const size_t mask = cap - 1;
  size_t distinct = 0, lines = 0, start = 0;
  int surely = -1;
  for (;;) {
    const uint8_t *nl = start < n ? memchr(p + start, '\n', n - start) : NULL;
    const size_t end = nl ? (size_t)(nl - p) : n;
    size_t a = start, b = end, w;
    while (a < b && (w = spaceAt(p, a, b)) > 0) a += w;
    while (a < b && (w = spaceBefore(p, a, b)) > 0) b -= w;
    if (a < b) {
      lines++;
      uint64_t h = 1469598103934665603ull;
      for (size_t k = a; k < b; k++) h = (h ^ p[k]) * 1099511628211ull;
      size_t j = (size_t)(h ^ (h >> 32)) & mask;
      while (seen[j].len1 != 0 && !(seen[j].hash == h && seen[j].len1 == b - a + 1 && memcmp(p + seen[j].at, p + a, b - a) == 0)) j = (j + 1) & mask;
      if (seen[j].len1 == 0) {
        seen[j].hash = h, seen[j].at = a, seen[j].len1 = b - a + 1;
        if ((double)++distinct > maxDistinct) {
          surely = 1;
          break;
        }
      }
    }
    if (!nl) break;
    start = end + 1;
  }
  if (seen != onStack) free(seen);
  if (surely == 1) return 1;
  return !((double)lines >= 50 && (double)distinct <= (double)lines * 0.02);
}

int plainCodeText(const uint8_t *p, size_t n, int fold, const uint16_t *foldTable, uint16_t *out, uint32_t info[PLAIN_INFO_WORDS]) {
  /* decodeText: a UTF-8 byte order mark is decoded apart (and removed); NUL bytes: UTF-16 or binary. */
  if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) return PLAIN_NOT_UTF8;
  uint32_t shape[TEXT_SHAPE_WORDS];
  textShape(p, n, shape);
  if (shape[3] & TEXT_SHAPE_NUL) return PLAIN_NOT_UTF8;
  const long units = utf8ToUtf16(p, n, out);
  if (units < 0) return PLAIN_NOT_UTF8;
  const uint32_t control = shape[0], newlines = shape[1], longest = shape[2], bits = shape[3];
  /* checkShape */
  if (control > 0 && (double)control / (double)units > 0.1) return PLAIN_CONTROL;
  /* fingerprintText's fold (facts.maybeHan), its markers (facts.marked) */
  const int folds = fold && (bits & TEXT_SHAPE_MAYBE_HAN);
  if (folds && !foldTable) return PLAIN_HAN;
  if (bits & TEXT_SHAPE_MARKER) return PLAIN_MARKED;
  const int endsWithLf = n > 0 && p[n - 1] == '\n';
  /* isMinified */
  if (units > 0) {
    double lines = (double)newlines + 1;
    if (endsWithLf) lines--;
    if (lines < 1) lines = 1;
    if ((double)units / lines > 500) return PLAIN_MINIFIED;
    if (longest > 5000 && lines <= 20) return PLAIN_MINIFIED;
  }
  if (!surelyNotRepetitive(p, n, newlines)) return PLAIN_REPETITIVE;
  /* fingerprintText's fold (foldVariants: unit for unit, after the checks above) */
  if (folds) {
    for (long i = 0; i < units; i++) {
      const uint16_t c = out[i];
      if (c >= FOLD_FIRST_HAN && foldTable[c]) out[i] = foldTable[c];
    }
  }
  info[0] = (uint32_t)units;
  info[1] = newlines + (units > 0 && !endsWithLf ? 1 : 0);
  return PLAIN_OK;
}
