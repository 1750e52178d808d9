/*
 * allPairsOrder of allpairs.h: the pairs of a search ordered by distance, then a, then b (the
 * order of orderPairList in src/core/report/compare.ts), by a radix sort of one 64-bit key per
 * pair. The native addon only (kernelpairs.c's sortPairs).
 */
#include <stdlib.h>
#include <string.h>

#include "allpairs.h"

int allPairsOrder(uint32_t *a, uint32_t *b, uint8_t *d, size_t count, uint32_t n) {
  if (n >= (1u << 28)) return 0;
  if (count < 2) return 1;
  /* One key per pair, distance · 2^56 + a · 2^28 + b, sorted by four stable passes of 16 bits
   * (a pass whose digit is the same for every key is skipped). */
  uint64_t *keys = malloc(sizeof(uint64_t) * count), *other = malloc(sizeof(uint64_t) * count);
  uint32_t *counts = malloc(sizeof(uint32_t) * 65536);
  if (!keys || !other || !counts) {
    free(keys);
    free(other);
    free(counts);
    return 0;
  }
  for (size_t i = 0; i < count; i++) keys[i] = (uint64_t)d[i] << 56 | (uint64_t)a[i] << 28 | b[i];
  for (int shift = 0; shift < 64; shift += 16) {
    memset(counts, 0, sizeof(uint32_t) * 65536);
    for (size_t i = 0; i < count; i++) counts[(keys[i] >> shift) & 0xffff]++;
    if (counts[(keys[0] >> shift) & 0xffff] == count) continue;
    uint32_t sum = 0;
    for (uint32_t v = 0; v < 65536; v++) {
      const uint32_t c = counts[v];
      counts[v] = sum;
      sum += c;
    }
    for (size_t i = 0; i < count; i++) other[counts[(keys[i] >> shift) & 0xffff]++] = keys[i];
    uint64_t *t = keys;
    keys = other;
    other = t;
  }
  for (size_t i = 0; i < count; i++) {
    const uint64_t key = keys[i];
    d[i] = (uint8_t)(key >> 56);
    a[i] = (uint32_t)(key >> 28) & 0xfffffffu;
    b[i] = (uint32_t)key & 0xfffffffu;
  }
  free(keys);
  free(other);
  free(counts);
  return 1;
}
