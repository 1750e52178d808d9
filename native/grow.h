/* Growable arrays of the native kernel (shared by kernel.c and sections.c). */
#ifndef NEARDUP_GROW_H
#define NEARDUP_GROW_H
#include <stdlib.h>

/* Makes *p hold at least `need` elements of `elem` bytes (capacity doubling, kept in *cap); 0 when out of memory. */
static inline int growArray(void **p, size_t *cap, size_t need, size_t elem) {
  if (*cap >= need) return 1;
  size_t n = *cap ? *cap : 256;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q) return 0;
  *p = q;
  *cap = n;
  return 1;
}

#endif
