/* Growable arrays of the native kernel (shared by kernel.c and sections.c), and big arrays' huge pages. */
#ifndef NEARDUP_GROW_H
#define NEARDUP_GROW_H
#include <stdint.h>
#include <stdlib.h>

/*
 * An array of `bytes` at p, written soon and whole, marked for transparent huge pages
 * (hugepages.c; nothing in the WebAssembly kernel): from HUGE_HINT_MIN bytes up, unless this
 * process found 4 KB pages the cheaper (the verdict of regionblocks.c's trial).
 */
#define HUGE_PAGE_BYTES ((size_t)2 << 20) /* x86-64's and arm64's (4 KB base pages) Linux huge page */
#define HUGE_HINT_MIN (2 * HUGE_PAGE_BYTES)
#ifdef __wasm__
static inline void hugePagesHint(void *p, size_t bytes) {
  (void)p;
  (void)bytes;
}
#else
void hugePagesHint(void *p, size_t bytes);
/* NEARDUP_HUGE_PAGES's 0 or 1 (it decides whether arrays are marked), -1 when not given. */
int hugePagesForced(void);
/* Whether hugePagesHint marks arrays now: as forced, else as the verdict, else (no verdict yet) 1. */
int hugePagesInUse(void);
/* The verdict of a measure of both kinds of page (regionblocks.c): the CPU ns a MB first written
 * cost in huge pages and in 4 KB ones; huge pages from then on when they cost no more. */
void hugePagesVerdict(double hugeNsPerMb, double smallNsPerMb);
/* The verdict (-1 none yet, 0 or 1) and its figures (-1 when none). */
int hugePagesState(double *hugeNsPerMb, double *smallNsPerMb);
/* Marks the 2 MB-aligned interior of [p, p + bytes) for huge pages (`huge`) or against them. */
void hugePagesMark(void *p, size_t bytes, int huge);
#endif

/* The block p of more bytes than it now holds cut to `bytes` (its tail given back: a block handed to
 * JavaScript then holds no more than it shows); p itself when it cannot be. */
static inline void *fittedBlock(void *p, size_t bytes) {
  void *q = bytes ? realloc(p, bytes) : NULL;
  return q ? q : p;
}

/* Makes *p hold at least `need` elements of `elem` bytes (capacity doubling, kept in *cap); 0 when out of memory. */
static inline int growArray(void **p, size_t *cap, size_t need, size_t elem) {
  if (*cap >= need) return 1;
  size_t n = *cap ? *cap : 256;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q) return 0;
  *p = q;
  *cap = n;
  if (n * elem >= HUGE_HINT_MIN) hugePagesHint(q, n * elem);
  return 1;
}

#endif
