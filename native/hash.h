/* 32-bit mixing steps shared by the kernel's C files (native/fingerprint.c, native/align.c): the
 * same as fmix32 of src/core/text/hash.ts and the rotations of its k-gram hashes, and those
 * k-gram hashes in vectorisable passes (kgramHashes); the identifier placeholder of the
 * normalised streams and the normalisation itself. */
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

/* The k-gram hashes before their finaliser (kgramHash of anchors.ts; regiondoc.c, align.c): k
 * passes over all the k-grams at once, token j of each in pass j — the same steps in the same order, but each pass a
 * loop of independent lanes the compiler vectorises (one k-gram at a time is a chain of 2k
 * dependent multiplications). */
#define KGRAM_PASSES(g, lo0, hi0, grams, k, seed)                       \
  do {                                                                  \
    for (int i = 0; i < grams; i++) g[i] = seed;                        \
    for (int j = 0; j < k; j++) {                                       \
      const uint32_t *restrict lo = lo0 + j, *restrict hi = hi0 + j;    \
      for (int i = 0; i < grams; i++) {                                 \
        const uint32_t x = rotl32((g[i] ^ lo[i]) * 0xcc9e2d51u, 15);    \
        g[i] = rotl32((x ^ hi[i]) * 0x1b873593u, 13);                   \
      }                                                                 \
    }                                                                   \
  } while (0)

/* The k-gram hashes (kgramHash of anchors.ts) of the `grams` k-grams starting at lo0 / hi0, with
 * their seed (0x9747b28c ^ salt ^ k), finalised: KGRAM_PASSES with AVX2 when the CPU has it
 * (regiondoc.c; used by regiondoc.c's anchors and align.c's marks). */
void kgramHashes(uint32_t *out, const uint32_t *lo0, const uint32_t *hi0, int grams, int k, uint32_t seed);

/* Makes kgramHashes' one-time CPU check now: a caller starting threads that hash calls it first
 * (native/threads.c), so that they only read it. */
void kgramHashesReady(void);

/* The placeholder of a normalised identifier: FNV-1a 64 of "\001id" (IDENT_HI / IDENT_LO of document.ts). */
#define IDENT_HI 0xd0f8a918u
#define IDENT_LO 0x676f8fa1u

/* Tokens [0, n) as read (rhi / rlo) with every identifier (ident[i] != 0) the placeholder, into hi / lo. */
static inline void normalizeTokens(const uint32_t *rhi, const uint32_t *rlo, const uint8_t *ident, int n, uint32_t *restrict hi, uint32_t *restrict lo) {
  for (int i = 0; i < n; i++) {
    const uint32_t m = 0u - (uint32_t)(ident[i] != 0); /* all ones at an identifier */
    hi[i] = (IDENT_HI & m) | (rhi[i] & ~m);
    lo[i] = (IDENT_LO & m) | (rlo[i] & ~m);
  }
}

#endif
