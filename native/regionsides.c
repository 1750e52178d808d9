/*
 * The sides of the regions a plan job found (regionSidesOf of regionsides.h), made on the job's
 * threads once its search is over: what src/node/locate/locatedReport.ts and regions.ts
 * bucketPairsOf otherwise compute per region on Node's thread after the job — the sides' starts
 * past leading closers, their lines, the report's lines and the two sides' SimHash distance — the
 * same numbers (test/unit/core/regions/sideFacts.test.ts). The regions are cut into chunks the
 * threads take one after the other (threads.c forEachRun); each thread has its own SimHash
 * working memory. No Node-API call here. The native addon only.
 */
#include "regionsides.h"

#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprintparts.h" /* simhashFreeSeq */
#include "hash.h" /* IDENT_HI, IDENT_LO */
#include "threads.h" /* forEachRun */

/* Regions a thread takes at a time. */
#define SIDE_CHUNK 512
/* A side's shingles: 3 tokens (regionSides.ts SIDE_SHINGLE). */
#define SIDE_SHINGLE 3
/* A notebook's report line: cell * CELL_LINE_STRIDE + line (src/core/containers/cellLines.ts). */
#define CELL_LINE_STRIDE (1 << 20)

/* The 1-based line of an offset (document.ts lineOfOffset). */
static int32_t lineOfOffset(const int32_t *lineStarts, int32_t nLines, int32_t offset) {
  int32_t a = 0, b = nLines;
  while (a < b) {
    const int32_t m = (int32_t)(((uint32_t)a + (uint32_t)b) >> 1);
    if (lineStarts[m] <= offset)
      a = m + 1;
    else
      b = m;
  }
  return a > 1 ? a : 1;
}

/* regionSides.ts trimmedStart: the first token of [start, end) past its leading closers (code only). */
static int32_t trimmedStart(const SideCall *c, const RegionDoc *d, int isProse, int32_t start, int32_t end) {
  if (isProse) return start;
  while (start < end - 1) {
    int closer = 0;
    for (int i = 0; i < c->nClosers && !closer; i++) closer = d->raw.hi[start] == c->closers[2 * i] && d->raw.lo[start] == c->closers[2 * i + 1];
    if (!closer) break;
    start++;
  }
  return start;
}

/* regionSides.ts linesOf: the report's lines of tokens [start, end) (a notebook's cell lines, cut
 * at the end of its first cell), given s and e, the lines of tokens start and end - 1. */
static void linesOf(const DocPlaces *p, int32_t s, int32_t e, int32_t *startLine, int32_t *endLine) {
  const int32_t *cells = p->reportLines;
  if (!cells) {
    *startLine = s;
    *endLine = e;
    return;
  }
  const int32_t first = cells[s - 1];
  const int32_t cell = first / CELL_LINE_STRIDE;
  int32_t last = s;
  while (last < e && cells[last] / CELL_LINE_STRIDE == cell) last++;
  *startLine = first;
  *endLine = cells[last - 1];
}

/* Side SimHashes a thread remembers (a power of two): the same side of a document comes again
 * with each of its copies (about half the sides of the small bench tree's regions are repeats). */
#define SIDE_MEMO 4096

/* A remembered side SimHash: the side (document, from, to; doc 0 with to 0: empty) and its result. */
typedef struct {
  uint32_t doc;
  int32_t from, to, status;
  uint64_t bits;
} SideMemo;

/* One thread's working memory: a kernel's SimHash scratch, a lean document's normalised window and
 * the side SimHashes last computed (direct-mapped by side). */
typedef struct {
  Kernel K;
  uint32_t *hi, *lo;
  size_t cap;
  SideMemo memo[SIDE_MEMO];
} SideScratch;

/* regionSides.ts sideSimhash of tokens [from, to): 1 with *bits, 0 none, -1 out of memory. */
static int sideSimhash(const SideCall *c, const RegionDoc *d, int32_t from, int32_t to, SideScratch *s, uint64_t *bits) {
  if (!c->normalizeIdentifiers || !hasNormalized(d)) return kernelSimhashTokens(&s->K, d->raw.hi, d->raw.lo, from, to, SIDE_SHINGLE, c->tf, bits);
  if (d->ids.hi) return kernelSimhashTokens(&s->K, d->ids.hi, d->ids.lo, from, to, SIDE_SHINGLE, c->tf, bits);
  /* A lean document: its normalised tokens made from isIdent, for this window only. */
  const size_t n = to > from ? (size_t)(to - from) : 0;
  if (n > s->cap) {
    uint32_t *hi = realloc(s->hi, n * sizeof(uint32_t));
    if (hi) s->hi = hi;
    uint32_t *lo = hi ? realloc(s->lo, n * sizeof(uint32_t)) : NULL;
    if (lo) s->lo = lo;
    if (!hi || !lo) return -1;
    s->cap = n;
  }
  for (size_t i = 0; i < n; i++) {
    const int32_t t = from + (int32_t)i;
    const int ident = d->isIdent[t] != 0;
    s->hi[i] = ident ? IDENT_HI : d->raw.hi[t];
    s->lo[i] = ident ? IDENT_LO : d->raw.lo[t];
  }
  return kernelSimhashTokens(&s->K, s->hi, s->lo, 0, (int32_t)n, SIDE_SHINGLE, c->tf, bits);
}

/* sideSimhash of document doc's tokens [from, to), remembered: a side computed before (the same
 * tokens, the same call) has the same SimHash. */
static int sideSimhashOf(const SideCall *c, const RegionDoc *docs, uint32_t doc, int32_t from, int32_t to, SideScratch *s, uint64_t *bits) {
  const uint32_t slot = (uint32_t)(((doc * 0x9e3779b1u) ^ ((uint32_t)from * 0x85ebca6bu) ^ ((uint32_t)to * 0xc2b2ae35u)) >> 20) & (SIDE_MEMO - 1);
  SideMemo *m = &s->memo[slot];
  if (m->to != 0 && m->doc == doc && m->from == from && m->to == to) {
    *bits = m->bits;
    return m->status;
  }
  const int status = sideSimhash(c, &docs[doc], from, to, s, bits);
  if (status >= 0 && to != 0) *m = (SideMemo){doc, from, to, status, status ? *bits : 0};
  return status;
}

/* The sides of region i (BUCKET_PAIR_INTS ints at r) into o[SIDE_INTS]: 1, -1 out of memory. */
static int sidesOfRegion(const RegionDoc *docs, const uint8_t *prose, const SideCall *c, const uint32_t *buckets, const int32_t *r, SideScratch *s, int32_t *o) {
  const uint32_t bucket = (uint32_t)r[0];
  const uint32_t da = buckets[3 * bucket], db = buckets[3 * bucket + 1];
  const RegionDoc *A = &docs[da], *B = &docs[db];
  const DocPlaces *pa = &c->places[da], *pb = &c->places[db];
  const int32_t as = r[1], ae = r[2], bs = r[3], be = r[4];
  o[SIDE_A_START] = trimmedStart(c, A, prose[da], as, ae);
  o[SIDE_B_START] = trimmedStart(c, B, prose[db], bs, be);
  o[SIDE_A_FIRST] = lineOfOffset(pa->lineStarts, pa->nLines, pa->start[as]);
  o[SIDE_A_LAST] = lineOfOffset(pa->lineStarts, pa->nLines, pa->start[ae - 1]);
  o[SIDE_B_FIRST] = lineOfOffset(pb->lineStarts, pb->nLines, pb->start[bs]);
  o[SIDE_B_LAST] = lineOfOffset(pb->lineStarts, pb->nLines, pb->start[be - 1]);
  /* The trimmed sides' lines: their last tokens' are the sides' (and so are their first tokens' when no closer is left out). */
  const int32_t ta = o[SIDE_A_START] == as ? o[SIDE_A_FIRST] : lineOfOffset(pa->lineStarts, pa->nLines, pa->start[o[SIDE_A_START]]);
  const int32_t tb = o[SIDE_B_START] == bs ? o[SIDE_B_FIRST] : lineOfOffset(pb->lineStarts, pb->nLines, pb->start[o[SIDE_B_START]]);
  linesOf(pa, ta, o[SIDE_A_LAST], &o[SIDE_A_START_LINE], &o[SIDE_A_END_LINE]);
  linesOf(pb, tb, o[SIDE_B_LAST], &o[SIDE_B_START_LINE], &o[SIDE_B_END_LINE]);
  /* An exact copy (one unbroken run of the same tokens as read) with as many closers left out on
   * both sides: its sides' SimHashes read on those tokens are one (locatedReport.ts). */
  if (r[5] == 0 && o[SIDE_A_START] - as == o[SIDE_B_START] - bs && !(c->normalizeIdentifiers && (hasNormalized(A) || hasNormalized(B)))) {
    o[SIDE_DISTANCE] = 0;
    return 1;
  }
  uint64_t fa = 0, fb = 0;
  const int ha = sideSimhashOf(c, docs, da, o[SIDE_A_START], ae, s, &fa);
  const int hb = ha < 0 ? -1 : sideSimhashOf(c, docs, db, o[SIDE_B_START], be, s, &fb);
  if (ha < 0 || hb < 0) return -1;
  o[SIDE_DISTANCE] = ha && hb ? __builtin_popcountll(fa ^ fb) : 64;
  return 1;
}

/* One stage: its arguments; its runs are chunks of SIDE_CHUNK regions (threads.c forEachRun). */
typedef struct {
  const RegionDoc *docs;
  const uint8_t *prose;
  const SideCall *c;
  const uint32_t *buckets;
  const BucketResult *found;
  int32_t *out;
} Stage;

/* A thread's scratch, with the call's log table. */
static void *sideScratch(void *ctx) {
  const Stage *g = ctx;
  SideScratch *s = calloc(1, sizeof *s);
  if (s) {
    s->K.logs = (double *)g->c->logs;
    s->K.nLogs = g->c->nLogs;
  }
  return s;
}

static int sidesOfChunk(void *ctx, void *scratch, size_t k) {
  const Stage *g = ctx;
  const size_t last = (k + 1) * SIDE_CHUNK < g->found->count ? (k + 1) * SIDE_CHUNK : g->found->count;
  for (size_t i = k * SIDE_CHUNK; i < last; i++)
    if (sidesOfRegion(g->docs, g->prose, g->c, g->buckets, g->found->ints + i * BUCKET_PAIR_INTS, scratch, g->out + i * SIDE_INTS) < 0) return -1;
  return 1;
}

static void freeSideScratch(void *ctx, void *scratch) {
  (void)ctx;
  SideScratch *s = scratch;
  s->K.logs = NULL; /* the call's, not this scratch's */
  simhashFreeSeq(&s->K.spare);
  free(s->K.table);
  free(s->K.foldedB);
  free(s->K.lastSeen);
  free(s->hi);
  free(s->lo);
  free(s);
}

int regionSidesOf(const RegionDoc *docs, const uint8_t *prose, const SideCall *c, const uint32_t *buckets, const BucketResult *found, int threads, int32_t **out) {
  *out = malloc((found->count ? found->count : 1) * SIDE_INTS * sizeof(int32_t));
  if (!*out) return -1;
  Stage g = {docs, prose, c, buckets, found, *out};
  const RunWork work = {sideScratch, sidesOfChunk, freeSideScratch};
  if (forEachRun((found->count + SIDE_CHUNK - 1) / SIDE_CHUNK, threads, -1, &work, &g) < 0) {
    free(*out);
    *out = NULL;
    return -1;
  }
  return 1;
}
