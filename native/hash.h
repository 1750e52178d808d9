/* 32-bit mixing steps shared by the kernel's C files (native/fingerprint.c, native/align.c): the
 * same as fmix32 of src/core/text/hash.ts and the rotations of its k-gram hashes. */
#ifndef NEARDUP_HASH_H
#define NEARDUP_HASH_H
#include <stdint.h>

/* MurmurHash3's 32-bit finaliser. */
static inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

#endif
