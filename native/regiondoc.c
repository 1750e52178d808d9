/*
 * The region document of a code text from the tokenize that fingerprinted it (kernelRegion of
 * fingerprint.h): the identifier-normalised token stream, the text's line starts and the winnowed
 * anchors of src/core/regions/document.ts and anchors.ts, computed here so that a file is
 * tokenised once for its fingerprints and its located copies. The same values as the TypeScript,
 * bit for bit (test/unit/node/workers/nativeRegionDocument.test.ts compares them).
 */
#include <stdint.h>
#include <string.h>

#include "fingerprint.h"
#include "grow.h"
#include "hash.h"

/* The placeholder of a normalised identifier: FNV-1a 64 of "\001id" (IDENT_HI / IDENT_LO of document.ts). */
static uint64_t identHash(void) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const char *s = "\001id";
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
  return h;
}

/* winnow of anchors.ts: of each window of w k-gram hashes the minimum (the rightmost on ties),
 * recorded when it changes; fewer than w: their minimum. Into K->ahash / K->apos. */
static void winnow(Kernel *K, const uint32_t *h, int n, int w) {
  int m = 0;
  if (n > 0) {
    const int width = w < 1 ? 1 : w > n ? n : w;
    int last = -1, min = -1;
    for (int end = width - 1; end < n; end++) {
      const int start = end - width + 1;
      if (min < start) {
        min = start;
        for (int i = start + 1; i <= end; i++)
          if (h[i] <= h[min]) min = i;
      } else if (h[end] <= h[min]) {
        min = end;
      }
      if (min != last) {
        K->ahash[m] = h[min];
        K->apos[m] = min;
        m++;
        last = min;
      }
    }
  }
  K->nAnchors = m;
}

int kernelRegion(Kernel *K, int k, int w, uint32_t salt) {
  if (!K->regionReady) return -2;
  const int n = K->ntok;
  /* The normalised stream: identifiers replaced by the placeholder, everything else as read. */
  if (K->idsCap < (size_t)n || !K->ihi) {
    size_t cap = K->idsCap, cap2 = K->idsCap;
    if (!growArray((void **)&K->ihi, &cap, (size_t)n + 1, 4) || !growArray((void **)&K->ilo, &cap2, (size_t)n + 1, 4)) return -1;
    K->idsCap = cap;
  }
  const uint64_t id = identHash();
  const uint32_t idHi = (uint32_t)(id >> 32), idLo = (uint32_t)id;
  for (int i = 0; i < n; i++) {
    const int x = K->rident[i];
    K->ihi[i] = x ? idHi : K->rhi[i];
    K->ilo[i] = x ? idLo : K->rlo[i];
  }
  /* Line starts (lineStartsOf): 0, then after every \n. */
  const uint16_t *t = K->text;
  const int len = K->textLen;
  int lines = 1;
  for (int i = 0; i < len; i++) lines += t[i] == 10;
  if (!growArray((void **)&K->lines, &K->linesCap, (size_t)lines, 4)) return -1;
  K->lines[0] = 0;
  int l = 1;
  for (int i = 0; i < len; i++)
    if (t[i] == 10) K->lines[l++] = i + 1;
  K->nLines = lines;
  K->nAnchors = 0;
  if (k < 1) return 0;
  /* Anchors (anchorsOf): the k-gram hashes of the normalised stream, winnowed. */
  const int grams = n - k + 1 > 0 ? n - k + 1 : 0;
  if (K->anchorCap < (size_t)grams || !K->kgrams) {
    size_t cap = K->anchorCap, cap2 = K->anchorCap, cap3 = K->anchorCap;
    if (!growArray((void **)&K->kgrams, &cap, (size_t)grams + 1, 4) || !growArray((void **)&K->ahash, &cap2, (size_t)grams + 1, 4) ||
        !growArray((void **)&K->apos, &cap3, (size_t)grams + 1, 4))
      return -1;
    K->anchorCap = cap;
  }
  const uint32_t seed = 0x9747b28cu ^ salt ^ (uint32_t)k;
  const uint32_t *hi = K->ihi, *lo = K->ilo;
  for (int i = 0; i < grams; i++) {
    uint32_t x = seed;
    for (int j = i; j < i + k; j++) {
      x = rotl32((x ^ lo[j]) * 0xcc9e2d51u, 15);
      x = rotl32((x ^ hi[j]) * 0x1b873593u, 13);
    }
    K->kgrams[i] = fmix32(x);
  }
  winnow(K, K->kgrams, grams, w);
  return 0;
}
