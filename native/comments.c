/*
 * Comments of code in C: skipComment of src/core/text/comments.ts, giving the same offsets for
 * every language's syntax (line comments, blocks, line comments that count only first on their
 * line, and blocks of whole lines that open and close at column 0).
 */
#include "comments.h"

#ifdef __wasm_simd128__
/* The WebAssembly build (-msimd128): the searches for a comment's end, 8 units at a time. */
#include <wasm_simd128.h>

/* The first i in [from, to) with t[i] == c, or to. */
static inline int findUnit(const uint16_t *t, int from, int to, uint16_t c) {
  const v128_t key = wasm_i16x8_splat((int16_t)c);
  int i = from;
  for (; i + 8 <= to; i += 8) {
    const unsigned m = wasm_i16x8_bitmask(wasm_i16x8_eq(wasm_v128_load(t + i), key));
    if (m) return i + __builtin_ctz(m);
  }
  while (i < to && t[i] != c) i++;
  return i;
}
#else
static inline int findUnit(const uint16_t *t, int from, int to, uint16_t c) {
  int i = from;
  while (i < to && t[i] != c) i++;
  return i;
}
#endif

static int startsWithAt(const uint16_t *t, int n, int i, const Opener *o) {
  if (i + o->len > n) return 0;
  for (int j = 0; j < o->len; j++)
    if (t[i + j] != o->s[j]) return 0;
  return 1;
}

static int indexOf(const uint16_t *t, int n, const Opener *o, int from) {
  const int last = n - o->len + 1; /* the first unit of a match is before it */
  for (int i = from; i < last; i++) {
    i = findUnit(t, i, last, o->s[0]);
    if (i >= last) break;
    int j = 1;
    while (j < o->len && t[i + j] == o->s[j]) j++;
    if (j == o->len) return i;
  }
  return -1;
}

static int indexOfChar(const uint16_t *t, int n, uint16_t c, int from) {
  const int i = findUnit(t, from, n, c);
  return i < n ? i : -1;
}

/* Only spaces and tabs between offset i and the start of its line. */
static int firstOnLine(const uint16_t *t, int i) {
  int j = i - 1;
  while (j >= 0 && (t[j] == 32 || t[j] == 9)) j--;
  return j < 0 || t[j] == 10;
}

static int endOfLine(const uint16_t *t, int n, int from) {
  int e = indexOfChar(t, n, 10, from);
  return e < 0 ? n : e;
}

void langFinish(Lang *L) {
  for (int j = 0; j < 128; j++) L->first[j] = 0;
  for (int j = 0; j < L->nLine; j++) L->first[L->line[j].s[0] & 127] = 1;
  for (int j = 0; j < L->nBlock; j++) L->first[L->open[j].s[0] & 127] = 1;
  for (int j = 0; j < L->nLineStart; j++) L->first[L->lineStart[j].s[0] & 127] = 1;
  for (int j = 0; j < L->nLineBlock; j++) L->first[L->lbOpen[j].s[0] & 127] = 1;
}

int skipComment(const uint16_t *t, int n, int i, const Lang *L) {
  if (L->nLineBlock && (i == 0 || t[i - 1] == 10)) {
    for (int b = 0; b < L->nLineBlock; b++) {
      if (!startsWithAt(t, n, i, &L->lbOpen[b])) continue;
      const Opener *close = &L->lbClose[b];
      int e = indexOf(t, n, close, i + L->lbOpen[b].len);
      while (e >= 0 && t[e - 1] != 10) e = indexOf(t, n, close, e + 1);
      return e < 0 ? n : endOfLine(t, n, e + close->len);
    }
  }
  for (int b = 0; b < L->nBlock; b++) {
    if (startsWithAt(t, n, i, &L->open[b])) {
      int e = indexOf(t, n, &L->close[b], i + L->open[b].len);
      return e < 0 ? n : e + L->close[b].len;
    }
  }
  for (int l = 0; l < L->nLine; l++) {
    if (startsWithAt(t, n, i, &L->line[l])) return endOfLine(t, n, i + L->line[l].len);
  }
  for (int l = 0; l < L->nLineStart; l++) {
    if (startsWithAt(t, n, i, &L->lineStart[l]) && firstOnLine(t, i)) return endOfLine(t, n, i + L->lineStart[l].len);
  }
  return -1;
}
