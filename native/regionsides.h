/* What the report says of each region side, made by the plan job (native/regionsides.c, the native
 * addon only) on its threads once the search is over, instead of on Node's thread after it. */
#ifndef NEARDUP_REGIONSIDES_H
#define NEARDUP_REGIONSIDES_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"

/* Where a document's tokens are in its text (src/core/regions/document.ts RegionDocument). */
typedef struct {
  const int32_t *start;       /* each token's start offset */
  const int32_t *lineStarts;  /* offset of each line's first character */
  const int32_t *reportLines; /* per line of the text: the line a report gives (a notebook's cell lines); NULL: the text's own */
  int32_t nLines;
} DocPlaces;

/* What the sides are made with: every document's places, the SimHash's options, the closers. */
typedef struct {
  const DocPlaces *places; /* per document (those of some length filled in) */
  int normalizeIdentifiers, tf;
  const uint32_t *closers; /* hi, lo of each token a side does not begin with */
  int nClosers;
  const double *logs; /* logs[n] = Math.log(n) for n < nLogs (the SimHash's tf weights) */
  int nLogs;
} SideCall;

/*
 * Ints per region (SIDE_*): each side's first token past its leading closers (regionSides.ts
 * trimmedStart), the lines of its token range (regions.ts sideOf), the report's lines of its
 * trimmed range (regionSides.ts linesOf: a notebook's cell lines), and the Hamming distance of the
 * two trimmed sides' SimHashes (locatedReport.ts: 0 for an exact copy with as many closers left out
 * on both sides unless identifiers are normalised in code; 64 when a side has none).
 */
#define SIDE_A_START 0
#define SIDE_B_START 1
#define SIDE_A_FIRST 2
#define SIDE_A_LAST 3
#define SIDE_B_FIRST 4
#define SIDE_B_LAST 5
#define SIDE_A_START_LINE 6
#define SIDE_A_END_LINE 7
#define SIDE_B_START_LINE 8
#define SIDE_B_END_LINE 9
#define SIDE_DISTANCE 10
#define SIDE_INTS 11

/*
 * The sides of every region of `found` (a search of buckets `buckets`: docA docB end each) into
 * *out (malloc'ed, SIDE_INTS per region), on `threads` threads (the calling one and threads - 1
 * started here). Returns 1, -1 out of memory.
 */
int regionSidesOf(const RegionDoc *docs, const uint8_t *prose, const SideCall *c, const uint32_t *buckets, const BucketResult *found, int threads, int32_t **out);

#endif
