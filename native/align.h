/* Aligning a chain of seeds between two token streams (native/align.c): alignChain of
 * src/core/regions/align.ts, bit for bit. */
#ifndef NEARDUP_ALIGN_H
#define NEARDUP_ALIGN_H
#include <stddef.h>
#include <stdint.h>

#include "hash.h" /* IDENT_HI, IDENT_LO */

/* One stream of 64-bit token hashes, as two halves. */
typedef struct {
  const uint32_t *hi, *lo;
} TokenStream;

/* A region document: tokens as read, identifier-normalised tokens (code; hi NULL for prose) and
 * where identifiers are (code). A code document may come without its normalised tokens (ids.hi
 * NULL, isIdent set: a lean document, core/regions/document.ts documentFromKernel): they are the
 * tokens as read with every identifier the placeholder, made where they are read. */
typedef struct {
  TokenStream raw, ids;
  const uint8_t *isIdent;
  int32_t length;
} RegionDoc;


/* Whether a document has identifier-normalised tokens (stored, or made from isIdent): code. */
static inline int hasNormalized(const RegionDoc *d) { return d->ids.hi != NULL || d->isIdent != NULL; }

/* Token i of a document's normalised stream (code), else as read (prose): its two halves. */
static inline uint32_t normHi(const RegionDoc *d, int32_t i) { return d->ids.hi ? d->ids.hi[i] : d->isIdent && d->isIdent[i] ? IDENT_HI : d->raw.hi[i]; }
static inline uint32_t normLo(const RegionDoc *d, int32_t i) { return d->ids.hi ? d->ids.lo[i] : d->isIdent && d->isIdent[i] ? IDENT_LO : d->raw.lo[i]; }

typedef struct {
  int32_t k, coverK, margin, band, fringeGap;
  double minConsistency;
} AlignOptions;

typedef struct {
  int32_t aStart, aEnd, bStart, bEnd;
  double rawA, rawB, idsA, idsB;
  int32_t identPairs;
  double consistency;
  int32_t renames;
  int32_t exact, sameShape;
} AlignResult;

/* seeds: m (a, b) pairs, flat. Returns 1 with the alignment in *out, 0 when nothing is left
 * (alignChain's null), -1 when out of memory. */
int alignChainNative(const RegionDoc *A, const RegionDoc *B, const int32_t *seeds, int32_t m, const AlignOptions *o, int self, AlignResult *out);

/* Working memory of alignments, kept from one to the next (grown as needed; the caller frees block). */
typedef struct {
  uint8_t *block;
  size_t cap;
} AlignScratch;

/* alignChainNative in `scratch`'s memory: for many alignments in a row. shortOf: 0 (nothing
 * given up), or a length under which a region's side A is not wanted: 0 is returned as soon as
 * its side A cannot reach it (as bucketRegions' judge would reject it). */
int alignChainWith(const RegionDoc *A, const RegionDoc *B, const int32_t *seeds, int32_t m, const AlignOptions *o, int self, double shortOf, AlignScratch *scratch, AlignResult *out);

#endif
