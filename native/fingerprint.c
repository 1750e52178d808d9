/*
 * NearDup's fingerprinting kernel, its computing half: a kernel's state made, initialised and
 * freed, its languages and text buffers, and the words of a file and of its sections (SimHash,
 * features, clone hashes, sketch: kernelFingerprint, kernelFingerprintTokens), with the code
 * sections of native/sections.c. The tokens come from tokenize.c (the code tokeniser, prose
 * words), the shingles, SimHash and sketches from simhash.c (src/core/text/tokenize.ts and
 * src/core/fingerprint/simhash.ts in C). Plain C with no host interface: kernel.c puts it
 * behind Node-API (the addon), wasm.c behind WebAssembly exports (the .wasm), so both compile
 * these same functions (one source of truth). See kernel.c for the interface they offer.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprintparts.h"
#include "grow.h"
#include "hash.h"

void kernelFree(Kernel *k) {
  if (!k) return;
  kernelFree(k->spares);
  free(k->foldTable);
  free(k->logs);
  free(k->langs);
  free(k->text);
  free(k->thi);
  free(k->tlo);
  free(k->talt);
  free(k->tstart);
  free(k->rhi);
  free(k->rlo);
  free(k->rident);
  free(k->ihi);
  free(k->ilo);
  free(k->lines);
  free(k->kgrams);
  free(k->ahash);
  free(k->apos);
  simhashFreeSeq(&k->file);
  simhashFreeSeq(&k->spare);
  free(k->table);
  free(k->foldedB);
  free(k->lastSeen);
  free(k->dhi);
  free(k->dlo);
  free(k->dcount);
  free(k->dindex);
  free(k->cand);
  free(k->sorted);
  free(k->buckets);
  free(k->readBuf);
  free(k->batchWords);
  freeSections(&k->sections);
  free(k->secText);
  free(k);
}


#define CLONE_MUL 0x85ebca6bu
#define CLONE_STEP(c, v) \
  do {                   \
    c = (c ^ (v)) * CLONE_MUL; \
    c ^= c >> 15;        \
  } while (0)

/* The token stream items are fingerprinted from: the last tokenize's, or one the caller tokenised
 * (kernelFingerprintTokens). alt: each token's other form (TokenBuffer.alt); altIsRaw: the tokens
 * were normalised as they were read, so alt is the raw stream. */
typedef struct {
  const uint32_t *hi, *lo, *alt;
  int n, altIsRaw;
} Stream;

/* The clone hashes of tokens [from, to): hashStreams of src/core/fingerprint/cloneHashes.ts (four
 * chains a stream, token i into chain i mod 4, folded at the end), raw then normalised, each hi
 * then lo, into dst[0..3]. */
static void itemHashes(const Stream *t, int from, int to, uint32_t *dst) {
  const uint32_t *lo = t->lo, *alt = t->alt;
  uint32_t a0 = 0x811c9dc5u, a1 = 0x9747b28cu, a2 = 0x2545f491u, a3 = 0x6c8e9cf5u;
  uint32_t b0 = a0, b1 = a1, b2 = a2, b3 = a3;
  int i = from;
  for (; i + 4 <= to; i += 4) {
    CLONE_STEP(a0, lo[i]);
    CLONE_STEP(a1, lo[i + 1]);
    CLONE_STEP(a2, lo[i + 2]);
    CLONE_STEP(a3, lo[i + 3]);
    CLONE_STEP(b0, alt[i]);
    CLONE_STEP(b1, alt[i + 1]);
    CLONE_STEP(b2, alt[i + 2]);
    CLONE_STEP(b3, alt[i + 3]);
  }
  if (i < to) {
    CLONE_STEP(a0, lo[i]);
    CLONE_STEP(b0, alt[i]);
    if (i + 1 < to) {
      CLONE_STEP(a1, lo[i + 1]);
      CLONE_STEP(b1, alt[i + 1]);
      if (i + 2 < to) {
        CLONE_STEP(a2, lo[i + 2]);
        CLONE_STEP(b2, alt[i + 2]);
      }
    }
  }
  const uint32_t n = (uint32_t)(to - from);
  const uint32_t aHi = fmix32(a0 ^ (a2 * 0x9e3779b1u) ^ n);
  const uint32_t aLo = fmix32(a1 ^ (a3 * 0xc2b2ae35u) ^ aHi);
  const uint32_t bHi = fmix32(b0 ^ (b2 * 0x9e3779b1u) ^ n);
  const uint32_t bLo = fmix32(b1 ^ (b3 * 0xc2b2ae35u) ^ bHi);
  const int altIsRaw = t->altIsRaw;
  dst[0] = altIsRaw ? bHi : aHi;
  dst[1] = altIsRaw ? bLo : aLo;
  dst[2] = altIsRaw ? aHi : bHi;
  dst[3] = altIsRaw ? aLo : bLo;
}

static int lowerBound(const Kernel *K, int offset) {
  int a = 0, b = K->ntok;
  while (a < b) {
    const int m = (int)(((unsigned)a + (unsigned)b) >> 1);
    if (K->tstart[m] < offset) a = m + 1;
    else b = m;
  }
  return a;
}

/* ------------------------------------------------------------------------------- entry points */

Kernel *kernelNew(void) {
  tokenizeInitTables();
  return calloc(1, sizeof(Kernel));
}

/* The thread kernels kept for readCodeBatchAsync let go: made with tables now changed. */
static void dropSpares(Kernel *K) {
  kernelFree(K->spares);
  K->spares = NULL;
  K->generation++;
}

int kernelInit(Kernel *K, const uint8_t *word, const double *logs, size_t nLogs) {
  dropSpares(K);
  memcpy(K->word, word, 65536);
  double *copy = malloc((nLogs ? nLogs : 1) * sizeof(double));
  if (!copy) return 0;
  if (nLogs) memcpy(copy, logs, nLogs * sizeof(double));
  free(K->logs);
  K->logs = copy;
  K->nLogs = (int)nLogs;
  K->ready = 1;
  return 1;
}

Kernel *kernelClone(const Kernel *K) {
  Kernel *T = kernelNew();
  if (!T) return NULL;
  if (!kernelInit(T, K->word, K->logs, (size_t)K->nLogs) || (K->nLangs && !growArray((void **)&T->langs, &T->langCap, (size_t)K->nLangs, sizeof(Lang)))) {
    kernelFree(T);
    return NULL;
  }
  if (K->nLangs) memcpy(T->langs, K->langs, (size_t)K->nLangs * sizeof(Lang));
  T->nLangs = K->nLangs;
  if (K->foldTable && !kernelSetFoldTable(T, K->foldTable)) {
    kernelFree(T);
    return NULL;
  }
  T->ready = K->ready;
  T->generation = K->generation;
  T->foldVersion = K->foldVersion;
  return T;
}

void kernelSwapScratch(Kernel *a, Kernel *b) {
  enum { FROM = offsetof(Kernel, text), BYTES = offsetof(Kernel, batchWords) - offsetof(Kernel, text) };
  unsigned char held[BYTES];
  memcpy(held, (unsigned char *)a + FROM, BYTES);
  memcpy((unsigned char *)a + FROM, (unsigned char *)b + FROM, BYTES);
  memcpy((unsigned char *)b + FROM, held, BYTES);
}

int kernelSyncClone(Kernel *T, const Kernel *K) {
  if (T->nLangs < K->nLangs) {
    if (!growArray((void **)&T->langs, &T->langCap, (size_t)K->nLangs, sizeof(Lang))) return 0;
    memcpy(T->langs + T->nLangs, K->langs + T->nLangs, (size_t)(K->nLangs - T->nLangs) * sizeof(Lang));
    T->nLangs = K->nLangs;
  }
  if (T->foldVersion != K->foldVersion) {
    if (!kernelSetFoldTable(T, K->foldTable)) return 0;
    T->foldVersion = K->foldVersion;
  }
  return 1;
}

int kernelSetFoldTable(Kernel *K, const uint16_t *table) {
  K->foldVersion++;
  if (!table) {
    free(K->foldTable);
    K->foldTable = NULL;
    return 1;
  }
  if (!K->foldTable && !(K->foldTable = malloc(65536 * sizeof(uint16_t)))) return 0;
  memcpy(K->foldTable, table, 65536 * sizeof(uint16_t));
  return 1;
}

int kernelDefineLanguage(Kernel *K, const Lang *L) {
  if (K->nLangs == MAX_LANGS || !growArray((void **)&K->langs, &K->langCap, (size_t)K->nLangs + 1, sizeof(Lang))) return -1;
  K->langs[K->nLangs] = *L;
  langFinish(&K->langs[K->nLangs]);
  return K->nLangs++;
}

uint16_t *kernelTextBuffer(Kernel *K, size_t len) {
  if (len > 0x7ffffff0u || !growArray((void **)&K->text, &K->textCap, len + 1, 2)) return NULL;
  return K->text;
}


/* Default options of codeSections (src/core/sections/), for fingerprint's sections. */
#define SECTIONS_MAX_DEPTH 2
#define SECTIONS_MIN_LINES 3

/* Words before an item's sketch: the file's hi lo tokens features rawHi rawLo normHi normLo n, a
 * section's startLine endLine and the same. */
#define FILE_HEAD 9
#define SECTION_HEAD 11

/* The whole stream's words (FILE_HEAD, then its sketch) into out: the words written, or -1 out of memory. */
static long fingerprintWhole(Kernel *K, const Stream *t, int k, int tf, int fileSketch, uint32_t *out) {
  if (!simhashBuildSeqOf(K, &K->file, t->hi, t->lo, 0, t->n, k)) return -1;
  Item it;
  if (!simhashFingerprintRange(K, &K->file, 0, t->n, tf, fileSketch, out + FILE_HEAD, &it)) return -1;
  out[0] = (uint32_t)(it.bits >> 32);
  out[1] = (uint32_t)it.bits;
  out[2] = (uint32_t)t->n;
  out[3] = (uint32_t)it.features;
  itemHashes(t, 0, t->n, out + 4);
  out[8] = (uint32_t)it.sketchLen;
  return FILE_HEAD + it.sketchLen;
}

/* A section's words (SECTION_HEAD, then its sketch) of tokens [from, to) into out, after
 * fingerprintWhole (its shingles, in K->file): the words written, 0 when the section is left out
 * (fewer than minTokens tokens, or 95 % of the stream or more), or -1 out of memory. */
static long fingerprintSection(Kernel *K, const Stream *t, int from, int to, int startLine, int endLine, int k, int tf, int sectionSketch, int minTokens, uint32_t *out) {
  if (to - from < minTokens || (double)(to - from) >= t->n * 0.95) return 0;
  const Seq *s = &K->file;
  if (to - from < k) {
    /* Shorter than the shingle size: shingles of its own length (simhashTokens). */
    const int tokens = to - from;
    if (tokens <= 0) return 0;
    if (!simhashBuildSeqOf(K, &K->spare, t->hi, t->lo, from, to, tokens)) return -1;
    s = &K->spare;
  }
  Item it;
  if (!simhashFingerprintRange(K, s, from, to, tf, sectionSketch, out + SECTION_HEAD, &it)) return -1;
  out[0] = (uint32_t)startLine;
  out[1] = (uint32_t)endLine;
  out[2] = (uint32_t)(it.bits >> 32);
  out[3] = (uint32_t)it.bits;
  out[4] = (uint32_t)(to - from);
  out[5] = (uint32_t)it.features;
  itemHashes(t, from, to, out + 6);
  out[10] = (uint32_t)it.sketchLen;
  return SECTION_HEAD + it.sketchLen;
}

/* The words out must hold for a stream and `sections` sections: every one kept with a full sketch. */
static size_t wordsNeeded(int fileSketch, int sectionSketch, int sections) {
  return FILE_HEAD + (size_t)fileSketch + (size_t)sections * (SECTION_HEAD + (size_t)sectionSketch);
}

int kernelFingerprint(Kernel *K, int k, int tf, int fileSketch, int sectionSketch, int minTokens, int withSections, uint32_t *out, size_t outLen, double *result) {
  const int total = K->ntok;
  if (total <= 0 || k < 1 || k > total || fileSketch < 0 || sectionSketch < 0) return -2;
  int rangeCount = 0;
  if (withSections) {
    /* Found once per text: a retry with a bigger `out` reuses them. */
    if (!K->sectionsReady) {
      if (computeCodeSections(&K->sections, K->text, K->textLen, SECTIONS_MAX_DEPTH, SECTIONS_MIN_LINES) < 0) return -1;
      K->sectionsReady = 1;
    }
    rangeCount = K->sections.count;
  }
  const SectionRange *sections = K->sections.ranges;
  /* Room check up front: the worst case of every section kept with a full sketch. */
  const size_t need = wordsNeeded(fileSketch, sectionSketch, rangeCount);
  if (outLen < need) {
    *result = -(double)need;
    return 0;
  }
  const Stream t = {K->thi, K->tlo, K->talt, total, K->normalized};
  long w = fingerprintWhole(K, &t, k, tf, fileSketch, out);
  if (w < 0) return -1;
  for (int r = 0; r < rangeCount; r++) {
    const long n = fingerprintSection(K, &t, lowerBound(K, sections[r].startOffset), lowerBound(K, sections[r].endOffset), sections[r].startLine, sections[r].endLine, k, tf,
                                      sectionSketch, minTokens, out + w);
    if (n < 0) return -1;
    w += n;
  }
  *result = (double)w;
  return 0;
}

int kernelFingerprintTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, const uint32_t *alt, int n, int altIsRaw, const int32_t *ranges, int rangeCount, int k, int tf,
                            int fileSketch, int sectionSketch, int minTokens, uint32_t *out, size_t outLen, double *result) {
  if (n <= 0 || k < 1 || k > n || fileSketch < 0 || sectionSketch < 0 || rangeCount < 0) return -2;
  for (int r = 0; r < rangeCount; r++) {
    const int32_t *q = ranges + 4 * (size_t)r;
    if (q[0] < 0 || q[1] < q[0] || q[1] > n) return -2;
  }
  const size_t need = wordsNeeded(fileSketch, sectionSketch, rangeCount);
  if (outLen < need) {
    *result = -(double)need;
    return 0;
  }
  const Stream t = {hi, lo, alt, n, altIsRaw != 0};
  long w = fingerprintWhole(K, &t, k, tf, fileSketch, out);
  if (w < 0) return -1;
  for (int r = 0; r < rangeCount; r++) {
    const int32_t *q = ranges + 4 * (size_t)r;
    const long m = fingerprintSection(K, &t, q[0], q[1], q[2], q[3], k, tf, sectionSketch, minTokens, out + w);
    if (m < 0) return -1;
    w += m;
  }
  *result = (double)w;
  return 0;
}

uint16_t *kernelSectionTextBuffer(Kernel *K, size_t len) {
  if (len > 0x7ffffff0u || !growArray((void **)&K->secText, &K->secTextCap, len + 1, 2)) return NULL;
  return K->secText;
}

int kernelCodeSections(Kernel *K, int len, int maxDepth, int minLines) {
  /* The scratch now holds these sections, not the last tokenize's. */
  K->sectionsReady = 0;
  return computeCodeSections(&K->sections, K->secText, len, maxDepth, minLines);
}
