/*
 * What the fingerprinting kernel's computing files share (internal to them; the glues use
 * fingerprint.h): the SIMD128 switches of the WebAssembly build, the tokeniser's tables and token
 * arrays (tokenize.c; prosesections.c grows its region tokens too), and the shingle sequence and one item's fingerprint (simhash.c) that fingerprint.c
 * builds its files' and sections' words from.
 */
#ifndef NEARDUP_FINGERPRINTPARTS_H
#define NEARDUP_FINGERPRINTPARTS_H
#include <stdint.h>

#include "fingerprint.h"

#if defined(__wasm_simd128__)
/* The WebAssembly build (-msimd128): SimHash's bit counts with SIMD128 (the addon's gcc vectorises the SWAR loop itself). */
#include <wasm_simd128.h>
#define TOKEN_SIMD128 1
#define SHINGLE_PASSES 1
#endif

/* tokenize.c: fills the tokeniser's tables (character classes, punctuation and keyword hashes) once
 * per process (kernelNew). */
void tokenizeInitTables(void);
/* tokenize.c: room for `need` tokens (thi, tlo, tstart, talt; tokCap), or for `need` region tokens
 * (rhi, rlo, rident; regionCap): 1, or 0 out of memory. */
int tokensRoom(Kernel *K, size_t need);
int regionTokensRoom(Kernel *K, size_t need);

/* One item's fingerprint (simhashFingerprintRange). */
typedef struct {
  uint64_t bits;
  int features;
  int sketchLen;
} Item;

/* simhash.c: frees a sequence's arrays. */
void simhashFreeSeq(Seq *s);
/* simhash.c: numbers the shingles of tokens [from, to) with k tokens each into s; 0 out of memory. */
int simhashBuildSeqOf(Kernel *K, Seq *s, const uint32_t *thi, const uint32_t *tlo, int from, int to, int k);
/* simhash.c: fingerprints tokens [from, to) from sequence s (built over them or a range around
 * them), the sketch into dst (room for `sketch` values); 0 out of memory. */
int simhashFingerprintRange(Kernel *K, const Seq *s, int from, int to, int tf, int sketch, uint32_t *dst, Item *out);

#endif
