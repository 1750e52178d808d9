/*
 * alignChain of src/core/regions/align.ts in C: from a chain of seeds to a matched region of two
 * documents — every shared coverK-gram near the chain's diagonal marks its tokens, the region is
 * trimmed to the first and last matched token, scored on the tokens as read and on the
 * identifier-normalised tokens, the identifier renames are checked for a bijection, and a region
 * that is one unbroken run is that run. The TypeScript is the reference (read it for the why);
 * this computes exactly what it does, step for step, with the same hashes and the same floating
 * point operations, so both give identical regions (checked by test/unit/core/regions).
 */
#include "align.h"
#include "band.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>


/* kgramHash of anchors.ts with salt 0 of the k-grams at [from, from + grams) (hash.h). */
static void gramHashes(const TokenStream *s, int32_t from, int32_t grams, int32_t k, uint32_t *out) {
  kgramHashes(out, s->lo + from, s->hi + from, grams, k, 0x9747b28cu ^ (uint32_t)k);
}

typedef struct {
  uint8_t *covA, *covB, *startA, *startB;
  int32_t *alignedB;
} Marks;

static inline int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t iabs(int32_t a) { return a < 0 ? -a : a; }

/* Where the nearest seed of mark() changes from seed s to a later one: the first position pa at
 * which |a(s+1) - pa| <= |a(s) - pa| can hold (seeds rising on side a: from the midpoint on);
 * INT64_MIN when it is to be checked at every position (seeds not rising), INT64_MAX after the last. */
static inline int64_t nextSeedAt(const int32_t *seeds, int32_t m, int32_t s) {
  if (s + 1 >= m) return INT64_MAX;
  const int64_t x0 = seeds[2 * s], x1 = seeds[2 * (s + 1)];
  return x1 > x0 ? (x0 + x1 + 1) >> 1 : INT64_MIN;
}

/* mark(): the tokens of windows [a0, a1) x [b0, b1) matched by equal coverK-grams within `band`
 * of the nearest seed's diagonal. ha / hb: scratch for the k-gram hashes (hb readable BAND_LANES
 * past its end: band.h). The streams hold the tokens from oa (sa) and ob (sb) on: 0 for a
 * document's own, the window's start for a window's. The marks come zeroed (alignChainWith). */
static void mark(const TokenStream *sa, int32_t oa, const TokenStream *sb, int32_t ob, int32_t a0, int32_t a1, int32_t b0, int32_t b1, const int32_t *seeds, int32_t m,
                 const AlignOptions *o, int self, Marks *mk, uint32_t *ha, uint32_t *hb) {
  const int32_t kc = o->coverK, band = o->band;
  const int32_t nA = imax(0, a1 - a0);
  /* The marks through local pointers (no aliasing: each its own part of the scratch block), so
   * the loop below keeps them in registers instead of reloading them after every store. */
  uint8_t *restrict covA = mk->covA, *restrict startA = mk->startA, *restrict covB = mk->covB, *restrict startB = mk->startB;
  int32_t *restrict alignedB = mk->alignedB;
  for (int32_t i = 0; i < nA; i++) alignedB[i] = -1;
  const int32_t hbn = imax(0, b1 - b0 - kc + 1);
  const int32_t han = imax(0, a1 - a0 - kc + 1);
  gramHashes(sb, b0 - ob, hbn, kc, hb);
  gramHashes(sa, a0 - oa, han, kc, ha);
  const uint32_t *restrict hA = ha, *restrict hB = hb;
  int32_t s = 0;
  int64_t nextAt = nextSeedAt(seeds, m, 0);
  /* Offsets from i, kept in registers: the nearest seed's diagonal (centre = i + centreOff), the
   * last match's (onLast = i + lastOff; far below 0 before the first match: never in the band) and
   * the self search's lowest start (lo >= i + selfLo; far below 0 when not self). */
  const int32_t FAR = INT32_MIN / 2;
  int32_t centreOff = a0 + (seeds[1] - seeds[0]) - b0, lastOff = FAR;
  const int32_t selfLo = self ? a0 + kc - b0 : FAR;
  int32_t endA = 0, lastB = INT32_MAX, endB = 0;
  for (int32_t i = 0; i < han; i++) {
    const int32_t pa = a0 + i;
    if (pa >= nextAt) {
      while (s + 1 < m && iabs(seeds[2 * (s + 1)] - pa) <= iabs(seeds[2 * s] - pa)) s++;
      nextAt = nextSeedAt(seeds, m, s);
      centreOff = a0 + (seeds[2 * s + 1] - seeds[2 * s]) - b0;
    }
    const uint32_t h = hA[i];
    const int32_t centre = i + centreOff;
    const int32_t lo = imax(imax(0, centre - band), i + selfLo);
    const int32_t hi = imin(hbn - 1, centre + band);
    int32_t best;
    /* The previous match's diagonal costs -1, which nothing beats: look there first. */
    const int32_t onLast = i + lastOff;
    if (onLast >= lo && onLast <= hi && hB[onLast] == h) best = onLast;
    /* onLast is not in [lo, hi] or does not match: every cost is the distance to the centre
     * (the first of equal costs kept). */
    else best = bandNearest(hB, lo, hi, centre, h);
    if (best < 0) continue;
    lastOff = best - i;
    startA[i] = 1;
    startB[best] = 1;
    /* The tokens before endA are covered, with their alignedB set (from an earlier match: i only
     * grows); so are those of B in [best, endB) when best is past the last match's start (runs
     * along a diagonal: one new token each). Only the rest is marked. */
    for (int32_t t = imax(i, endA); t < i + kc; t++) {
      covA[t] = 1;
      alignedB[t] = b0 + best + (t - i);
    }
    endA = i + kc;
    for (int32_t t = best >= lastB ? imax(best, endB) : best; t < best + kc; t++) covB[t] = 1;
    lastB = best;
    endB = best + kc;
  }
}

#define ISLAND_GAP 4
#define ISLAND_MIN 12

static void shave(const uint8_t *cov, int32_t *ps, int32_t *pe) {
  int32_t s = *ps, e = *pe;
  for (;;) {
    int32_t covered = 0, gap = 0, next = -1;
    /* (Scanned until ISLAND_MIN are covered at most: from there on, s stays.) */
    for (int32_t i = s; i < e && covered < ISLAND_MIN; i++) {
      if (cov[i]) {
        if (gap >= ISLAND_GAP) {
          next = i;
          break;
        }
        covered++;
        gap = 0;
      } else
        gap++;
    }
    if (next < 0 || covered >= ISLAND_MIN) break;
    s = next;
  }
  for (;;) {
    int32_t covered = 0, gap = 0, prev = -1;
    for (int32_t i = e - 1; i >= s && covered < ISLAND_MIN; i--) {
      if (cov[i]) {
        if (gap >= ISLAND_GAP) {
          prev = i + 1;
          break;
        }
        covered++;
        gap = 0;
      } else
        gap++;
    }
    if (prev < 0 || covered >= ISLAND_MIN) break;
    e = prev;
  }
  *ps = s;
  *pe = e;
}

/* The trimmed and grown part of extent() on the cover cov, or cov | or when `or` is given (a bound:
 * see alignChainWith): 0 when nothing is matched. */
static inline int grownExtent(const uint8_t *cov, const uint8_t *or, int32_t len, int32_t from, int32_t to, int32_t gap, int32_t *ps, int32_t *pe) {
#define COVERED(i) (cov[i] | (or ? or[i] : 0))
  int32_t s = imax(0, from);
  int32_t e = imin(len, to);
  while (s < e && !COVERED(s)) s++;
  while (e > s && !COVERED(e - 1)) e--;
  if (s >= e) return 0;
  for (int grown = 1; grown;) {
    grown = 0;
    for (int32_t j = s - 1; j >= imax(0, s - 1 - gap); j--) {
      if (COVERED(j)) {
        s = j;
        grown = 1;
        break;
      }
    }
  }
  for (int grown = 1; grown;) {
    grown = 0;
    for (int32_t j = e; j < imin(len, e + 1 + gap); j++) {
      if (COVERED(j)) {
        e = j + 1;
        grown = 1;
        break;
      }
    }
  }
#undef COVERED
  *ps = s;
  *pe = e;
  return 1;
}

/* extent(): 0 when nothing is matched. */
static int extent(const uint8_t *cov, int32_t len, int32_t from, int32_t to, int32_t gap, int32_t *ps, int32_t *pe) {
  int32_t s, e;
  if (!grownExtent(cov, NULL, len, from, to, gap, &s, &e)) return 0;
  shave(cov, &s, &e);
  *ps = s;
  *pe = e;
  return 1;
}

/* key() of align.ts: 53 bits of a token hash. */
static inline uint64_t key(const TokenStream *s, int32_t i) { return ((uint64_t)(s->hi[i] & 0x1fffffu) << 32) | s->lo[i]; }

typedef struct {
  uint64_t x, y;
} KeyPair;

static inline int lessXY(const KeyPair *a, const KeyPair *b) { return a->x < b->x || (a->x == b->x && a->y < b->y); }

/* Sorts pairs by (x, y): equal pairs are equal, so any sort gives the same array (qsort's too);
 * this one compares inline (an identifier pair list is short: insertion sort, else quicksort). */
static void sortXY(KeyPair *a, int32_t n) {
  while (n > 16) {
    /* Median of three as the pivot, Hoare partition. */
    const int32_t mid = n / 2;
    KeyPair t;
    if (lessXY(&a[mid], &a[0])) t = a[0], a[0] = a[mid], a[mid] = t;
    if (lessXY(&a[n - 1], &a[0])) t = a[0], a[0] = a[n - 1], a[n - 1] = t;
    if (lessXY(&a[n - 1], &a[mid])) t = a[mid], a[mid] = a[n - 1], a[n - 1] = t;
    const KeyPair pivot = a[mid];
    int32_t i = -1, j = n;
    for (;;) {
      do i++;
      while (lessXY(&a[i], &pivot));
      do j--;
      while (lessXY(&pivot, &a[j]));
      if (i >= j) break;
      t = a[i], a[i] = a[j], a[j] = t;
    }
    /* [0, j] and [j + 1, n): the smaller part by recursion, the larger in this loop. */
    if (j + 1 < n - j - 1) {
      sortXY(a, j + 1);
      a += j + 1;
      n -= j + 1;
    } else {
      sortXY(a + j + 1, n - j - 1);
      n = j + 1;
    }
  }
  for (int32_t i = 1; i < n; i++) {
    const KeyPair v = a[i];
    int32_t j = i - 1;
    while (j >= 0 && lessXY(&v, &a[j])) a[j + 1] = a[j], j--;
    a[j + 1] = v;
  }
}

/* The most frequent partner of each x (ties: the smallest), from pairs sorted by (x, y): written
 * as (x, partner) into tops, its count into counts; returns the number of distinct x and adds the
 * counts to *agree. */
static int32_t topsOf(const KeyPair *sorted, int32_t n, KeyPair *tops, int32_t *counts, int32_t *agree) {
  int32_t t = 0;
  for (int32_t r = 0; r < n;) {
    const uint64_t x = sorted[r].x;
    uint64_t bestY = 0;
    int32_t bestN = 0;
    while (r < n && sorted[r].x == x) {
      const uint64_t y = sorted[r].y;
      int32_t c = 0;
      while (r < n && sorted[r].x == x && sorted[r].y == y) c++, r++;
      if (c > bestN) bestY = y, bestN = c; /* y ascending: the first of equal counts is the smallest */
    }
    tops[t].x = x;
    tops[t].y = bestY;
    counts[t] = bestN;
    *agree += bestN;
    t++;
  }
  return t;
}

static int32_t findTop(const KeyPair *tops, int32_t n, uint64_t x) {
  int32_t a = 0, b = n;
  while (a < b) {
    const int32_t mid = (a + b) >> 1;
    if (tops[mid].x < x) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* Keeps (in order, in place) the pairs of p[0, n) whose x is the x of some renamed pair (x != y);
 * returns how many. keys: room for n (their x sorted there, once each). */
static int32_t pairsOfRenamed(KeyPair *p, int32_t n, KeyPair *keys) {
  int32_t k = 0;
  for (int32_t i = 0; i < n; i++)
    if (p[i].x != p[i].y) keys[k].x = p[i].x, keys[k].y = 0, k++;
  sortXY(keys, k);
  int32_t u = 0;
  for (int32_t i = 0; i < k; i++)
    if (u == 0 || keys[i].x != keys[u - 1].x) keys[u++] = keys[i];
  /* A bit per x's low 10 bits first (a token hash's: spread): most other x are told by it. */
  uint64_t seen[16] = {0};
  for (int32_t i = 0; i < u; i++) seen[(keys[i].x >> 6) & 15] |= (uint64_t)1 << (keys[i].x & 63);
  int32_t w = 0;
  for (int32_t i = 0; i < n; i++) {
    const uint64_t x = p[i].x;
    if (!(seen[(x >> 6) & 15] >> (x & 63) & 1)) continue;
    const int32_t f = findTop(keys, u, x);
    if (f < u && keys[f].x == x) p[w++] = p[i];
  }
  return w;
}

typedef struct {
  int32_t pairs;
  double consistency;
  int32_t renames;
} Renames;

/* The last renameConsistency computed in an alignment: its identifier pairs' count and result,
 * whether it marked any token unsupported, and (pre, when `prefixed`) the identifier pairs of the
 * window's first i tokens as pre[i]: counted as the whole window is computed. */
typedef struct {
  int valid, unsupported, prefixed;
  Renames r;
  int32_t *pre;
} RenameMemo;

/* renameConsistency(): unsupportedA / unsupportedB (window-relative; zeroed here when a pair is renamed, else left as they are and memo->unsupported 0) marked.
 * scratch: 4 * nA KeyPairs and 3 * nA int32. Returns 0 when out of memory.
 * An alignment asks for nested ranges (the window, the region in it, a cut of the region): a range
 * inside the last one computed (`memo`) with as many identifier pairs has the same pairs, so the
 * same result and the same unsupported marks, which are still in place: taken as they are. */
static int renameConsistency(const RegionDoc *A, const RegionDoc *B, const int32_t *alignedB, int32_t nA, int32_t a0, int32_t b0, int32_t nB,
                             int32_t from, int32_t to, uint8_t *unsupportedA, uint8_t *unsupportedB, KeyPair *scratch, int32_t *counts, RenameMemo *memo, Renames *out) {
  if (memo->valid) {
    int32_t n = 0;
    if (memo->prefixed) n = memo->pre[to - a0] - memo->pre[from - a0];
    else
      for (int32_t i = from; i < to; i++) {
        const int32_t j = alignedB[i - a0];
        n += j >= 0 && A->isIdent[i] && B->isIdent[j];
      }
    if (n == memo->r.pairs) {
      *out = memo->r;
      return 1;
    }
  }
  KeyPair *fwd = scratch, *bwd = scratch + nA, *topF = scratch + 2 * nA, *topB = scratch + 3 * nA;
  int32_t *countF = counts, *countB = counts + nA, *at = counts + 2 * nA; /* at: each pair's token of A */
  int32_t pairs = 0, renamed = 0;
  int32_t *restrict pre = memo->pre && from == a0 && to == a0 + nA ? memo->pre : NULL;
  if (pre) pre[0] = 0;
  for (int32_t i = from; i < to; i++) {
    const int32_t j = alignedB[i - a0];
    if (j < 0) {
      if (pre) pre[i - a0 + 1] = pairs;
      continue;
    }
    /* Written whether a pair or not, counted when one (identifiers and others alternate: no branch). */
    const int ident = (A->isIdent[i] != 0) & (B->isIdent[j] != 0);
    if (pre) pre[i - a0 + 1] = pairs + ident;
    const uint64_t x = key(&A->raw, i), y = key(&B->raw, j);
    fwd[pairs].x = x;
    fwd[pairs].y = y;
    bwd[pairs].x = y;
    bwd[pairs].y = x;
    at[pairs] = i;
    renamed += ident & (x != y);
    pairs += ident;
  }
  out->pairs = pairs;
  if (pre) memo->prefixed = 1;
  memo->unsupported = 0;
  /* No pair renamed (none, or every identifier kept: most copies): each x's top partner is itself
   * with all its pairs, both ways, so every pair agrees (consistency pairs / pairs = 1), no top is
   * a rename and no token is unsupported (only renamed pairs are checked): no sort needed. */
  if (renamed == 0) {
    out->consistency = 1;
    out->renames = 0;
    memo->valid = 1;
    memo->r = *out;
    return 1;
  }
  /* (Read only when some token is marked: cleared here, not when no pair is renamed.) */
  memset(unsupportedA, 0, nA);
  memset(unsupportedB, 0, nB);
  /* Each side's pairs sorted and counted (topsOf). Few pairs renamed (the usual): only the pairs of
   * an x (of fwd; a y of bwd) that some renamed pair has are, as every pair of any other x is
   * (x, x): its top is x with all of them, which agree, no rename and read by no findTop. */
  int32_t nFwd = pairs, nBwd = pairs;
  if (2 * renamed <= pairs) {
    nFwd = pairsOfRenamed(fwd, pairs, topF);
    nBwd = pairsOfRenamed(bwd, pairs, topB);
  }
  sortXY(fwd, nFwd);
  sortXY(bwd, nBwd);
  int32_t agreeF = pairs - nFwd, agreeB = pairs - nBwd;
  const int32_t nF = topsOf(fwd, nFwd, topF, countF, &agreeF);
  const int32_t nBw = topsOf(bwd, nBwd, topB, countB, &agreeB);
  int32_t renames = 0;
  for (int32_t t = 0; t < nF; t++)
    if (topF[t].y != topF[t].x) renames++;
  for (int32_t p = 0; p < pairs; p++) {
    const int32_t i = at[p], j = alignedB[i - a0];
    const uint64_t x = key(&A->raw, i), y = key(&B->raw, j);
    if (x == y) continue;
    const int32_t f = findTop(topF, nF, x), b = findTop(topB, nBw, y);
    if (topF[f].y != y || topB[b].y != x || countF[f] < 2) {
      unsupportedA[i - a0] = 1;
      unsupportedB[j - b0] = 1;
      memo->unsupported = 1;
    }
  }
  out->consistency = (double)(agreeF < agreeB ? agreeF : agreeB) / (double)pairs;
  out->renames = renames;
  memo->valid = 1;
  memo->r = *out;
  return 1;
}

/* The raw cover, and the tokens [i, i + k) (within len) of every identifier k-gram start i with
 * no unsupported token among them: in one pass, the last unsupported token read k - 1 ahead and
 * the end of the last such k-gram carried along. */
static void goodCover(const uint8_t *rawCov, const uint8_t *idsStart, const uint8_t *unsupported, int32_t len, int32_t k, uint8_t *good) {
  int32_t lastUnsupported = -1, read = 0, until = 0;
  for (int32_t i = 0; i < len; i++) {
    const int32_t end = imin(i + k, len);
    for (; read < end; read++)
      if (unsupported[read]) lastUnsupported = read;
    if (idsStart[i] && lastUnsupported < i) until = end;
    good[i] = rawCov[i] | (i < until);
  }
}

static double shingleShare(const uint8_t *start, const uint8_t *unsupported, int32_t from, int32_t to, int32_t k) {
  const int32_t last = imax(from, to - k);
  int32_t n = 0;
  if (!unsupported) {
    for (int32_t i = from; i <= last; i++) n += start[i]; /* (start: 0 or 1) */
    return (double)n / (double)(last - from + 1);
  }
  for (int32_t i = from; i <= last; i++) {
    if (!start[i]) continue;
    int ok = 1;
    if (unsupported)
      for (int32_t t = i; t < i + k && t < to; t++)
        if (unsupported[t]) ok = 0;
    if (ok) n++;
  }
  return (double)n / (double)(last - from + 1);
}

/* The longest run of [from, to): tokens the same as read, each aligned one further along B than
 * the one before (the first longest). Each run is followed to its end in one tight loop along its
 * diagonal. The streams hold the tokens from oa (sa) and ob (sb) on, as in mark(). */
static void longestRun(const TokenStream *sa, int32_t oa, const TokenStream *sb, int32_t ob, const int32_t *alignedB, int32_t a0, int32_t from, int32_t to, int32_t *rs, int32_t *re) {
  int32_t bs = from, be = from;
  const uint32_t *restrict ahi = sa->hi - oa, *restrict alo = sa->lo - oa, *restrict bhi = sb->hi - ob, *restrict blo = sb->lo - ob;
  const int32_t *restrict al = alignedB - a0;
  for (int32_t i = from; i < to;) {
    int32_t j = al[i];
    if (j < 0 || ahi[i] != bhi[j] || alo[i] != blo[j]) {
      i++;
      continue;
    }
    int32_t e = i + 1;
    for (j++; e < to && al[e] == j && ahi[e] == bhi[j] && alo[e] == blo[j]; e++, j++) {
    }
    if (e - i > be - bs) bs = i, be = e;
    i = e;
  }
  *rs = bs;
  *re = be;
}

#define EXACT_SHARE 0.9
#define CUT_MIN_RUN 30
#define CUT_RUN_SHARE 0.4
#define CUT_SHARE 0.5

/* score of align.ts: the region [aStart, aEnd) x [bStart, bEnd) scored (shares and renames). */
static void score(const RegionDoc *A, const RegionDoc *B, const Marks *raw, const Marks *ids, int hasIds, int32_t nA, int32_t a0, int32_t b0, int32_t nB, int32_t aStart, int32_t aEnd, int32_t bStart, int32_t bEnd, int32_t kc,
                  uint8_t *unsA, uint8_t *unsB, KeyPair *pairsScratch, int32_t *counts, RenameMemo *memo, AlignResult *al) {
  const double rawA = shingleShare(raw->startA, NULL, aStart - a0, aEnd - a0, kc);
  const double rawB = shingleShare(raw->startB, NULL, bStart - b0, bEnd - b0, kc);
  double idsA = rawA, idsB = rawB;
  Renames r = {0, 1, 0};
  if (hasIds) {
    renameConsistency(A, B, ids->alignedB, nA, a0, b0, nB, aStart, aEnd, unsA, unsB, pairsScratch, counts, memo, &r);
    /* (No token unsupported: nothing to check.) */
    const double sa = shingleShare(ids->startA, memo->unsupported ? unsA : NULL, aStart - a0, aEnd - a0, kc);
    const double sb = shingleShare(ids->startB, memo->unsupported ? unsB : NULL, bStart - b0, bEnd - b0, kc);
    idsA = rawA > sa ? rawA : sa;
    idsB = rawB > sb ? rawB : sb;
  }
  const AlignResult res = {aStart, aEnd, bStart, bEnd, rawA, rawB, idsA, idsB, r.pairs, r.consistency, r.renames, 0, 0};
  *al = res;
}

/* The coverK-grams starting in [from, to) (a range shorter than k: its one short k-gram), and how many of them match. */
static int32_t grams(int32_t from, int32_t to, int32_t kc) { return to > from ? imax(from, to - kc) - from + 1 : 0; }
static int32_t matched(const uint8_t *start, int32_t from, int32_t to, int32_t kc) {
  int32_t n = 0;
  for (int32_t i = from, last = from + grams(from, to, kc); i < last; i++) n += start[i];
  return n;
}

/* A stretch is sparse when few of its coverK-grams match, both sides' pooled. */
static int sparse(const Marks *raw, int32_t a0, int32_t b0, int32_t fa, int32_t ta, int32_t fb, int32_t tb, int32_t kc) {
  return (ta > fa || tb > fb) &&
         (double)(matched(raw->startA, fa - a0, ta - a0, kc) + matched(raw->startB, fb - b0, tb - b0, kc)) < CUT_SHARE * (double)(grams(fa, ta, kc) + grams(fb, tb, kc));
}

/* cutAtRun of align.ts: the region cut at the ends of its longest run where the stretch beyond is sparse; 0 when neither end goes. */
static int cutAtRun(const Marks *raw, int32_t rs, int32_t re, const AlignResult *al, int32_t a0, int32_t b0, int32_t kc, int32_t cut[4]) {
  const int32_t n = re - rs;
  const int32_t la = al->aEnd - al->aStart, lb = al->bEnd - al->bStart;
  if (n < CUT_MIN_RUN || (double)n < CUT_RUN_SHARE * (double)(la > lb ? la : lb)) return 0;
  const int32_t bs = raw->alignedB[rs - a0], be = bs + n;
  if (bs < al->bStart || be > al->bEnd) return 0;
  const int left = sparse(raw, a0, b0, al->aStart, rs, al->bStart, bs, kc);
  const int right = sparse(raw, a0, b0, re, al->aEnd, be, al->bEnd, kc);
  if (!left && !right) return 0;
  cut[0] = left ? rs : al->aStart;
  cut[1] = right ? re : al->aEnd;
  cut[2] = left ? bs : al->bStart;
  cut[3] = right ? be : al->bEnd;
  return 1;
}

/* The normalised tokens [from, from + n) of a lean document (identifiers the placeholder) into
 * out (2n words: hi, then lo), as a stream holding the tokens from `from` on. */
static TokenStream normalizedWindow(const RegionDoc *d, int32_t from, int32_t n, uint32_t *out) {
  normalizeTokens(d->raw.hi + from, d->raw.lo + from, d->isIdent + from, n, out, out + n);
  const TokenStream s = {out, out + n};
  return s;
}

int alignChainNative(const RegionDoc *A, const RegionDoc *B, const int32_t *seeds, int32_t m, const AlignOptions *o, int self, AlignResult *out) {
  AlignScratch scratch = {NULL, 0};
  const int status = alignChainWith(A, B, seeds, m, o, self, 0, &scratch, out);
  free(scratch.block);
  return status;
}

int alignChainWith(const RegionDoc *A, const RegionDoc *B, const int32_t *seeds, int32_t m, const AlignOptions *o, int self, double shortOf, AlignScratch *scratch, AlignResult *out) {
  const int32_t firstA = seeds[0], lastA = seeds[2 * m - 2], firstB = seeds[1], lastB = seeds[2 * m - 1];
  const int32_t a0 = imax(0, firstA - o->margin);
  int32_t a1 = imin(A->length, lastA + o->k + o->margin);
  int32_t b0 = imax(0, firstB - o->margin);
  const int32_t b1 = imin(B->length, lastB + o->k + o->margin);
  if (self) {
    if (lastA + o->k > firstB) return 0;
    a1 = imin(a1, firstB);
    b0 = imax(b0, lastA + o->k);
  }
  const int32_t nA = imax(0, a1 - a0), nB = imax(0, b1 - b0);
  const int hasIds = hasNormalized(A) && hasNormalized(B);
  /* One block: marks (raw, ids), hashes, good covers, unsupported flags, rename scratch, the
   * windows' normalised tokens (of a lean document). */
  const size_t bytes = (size_t)nA * 4 * sizeof(KeyPair) + (size_t)(4 * nA + 1) * sizeof(int32_t) + (size_t)nA * 2 * sizeof(int32_t) + (size_t)nA * sizeof(uint32_t) +
                       (size_t)(nB + BAND_LANES) * sizeof(uint32_t) + (size_t)(nA + nB) * 2 * sizeof(uint32_t) + (size_t)nA * 7 + (size_t)nB * 7 + 16;
  if (bytes > scratch->cap) {
    free(scratch->block);
    scratch->cap = bytes > 2 * scratch->cap ? bytes : 2 * scratch->cap;
    scratch->block = malloc(scratch->cap);
    if (!scratch->block) {
      scratch->cap = 0;
      return -1;
    }
  }
  uint8_t *p = scratch->block;
#define TAKE(T, n) ((T *)(p += (size_t)(n) * sizeof(T), p - (size_t)(n) * sizeof(T)))
  KeyPair *pairsScratch = TAKE(KeyPair, (size_t)nA * 4);
  int32_t *counts = TAKE(int32_t, (size_t)nA * 3);
  int32_t *identPre = TAKE(int32_t, (size_t)nA + 1);
  Marks raw = {0}, ids = {0};
  raw.alignedB = TAKE(int32_t, nA);
  ids.alignedB = TAKE(int32_t, nA);
  uint32_t *ha = TAKE(uint32_t, nA);
  uint32_t *hb = TAKE(uint32_t, (size_t)nB + BAND_LANES); /* read past hbn by the band search */
  uint32_t *winA = TAKE(uint32_t, (size_t)nA * 2);
  uint32_t *winB = TAKE(uint32_t, (size_t)nB * 2);
  raw.covA = TAKE(uint8_t, nA);
  raw.startA = TAKE(uint8_t, nA);
  ids.covA = TAKE(uint8_t, nA);
  ids.startA = TAKE(uint8_t, nA);
  raw.covB = TAKE(uint8_t, nB);
  raw.startB = TAKE(uint8_t, nB);
  ids.covB = TAKE(uint8_t, nB);
  ids.startB = TAKE(uint8_t, nB);
  uint8_t *goodA = TAKE(uint8_t, nA);
  uint8_t *goodB = TAKE(uint8_t, nB);
  uint8_t *unsA = TAKE(uint8_t, nA);
  uint8_t *unsB = TAKE(uint8_t, nB);
#undef TAKE
  /* The marks of both streams at once: covA, startA of raw then ids (as taken above), the same of B. */
  memset(raw.covA, 0, (size_t)nA * (hasIds ? 4 : 2));
  memset(raw.covB, 0, (size_t)nB * (hasIds ? 4 : 2));
  const int32_t kc = o->coverK;
  /* The normalised streams: a document's own, or the window's made from its tokens (lean). */
  TokenStream idsA = A->ids, idsB = B->ids;
  int32_t oa = 0, ob = 0;
  if (hasIds && !A->ids.hi) idsA = normalizedWindow(A, a0, nA, winA), oa = a0;
  if (hasIds && !B->ids.hi) idsB = normalizedWindow(B, b0, nB, winB), ob = b0;
  mark(&A->raw, 0, &B->raw, 0, a0, a1, b0, b1, seeds, m, o, self, &raw, ha, hb);
  if (hasIds) mark(&idsA, oa, &idsB, ob, a0, a1, b0, b1, seeds, m, o, self, &ids, ha, hb);
  /* Side A's extent (below) is read on a cover inside raw.covA | ids.covA (goodA): on that union,
   * it grows at least as far (trimmed from no later, each gap crossed), and shave() only narrows
   * it. So a union's grown extent shorter than shortOf leaves the region too short: given up
   * before the renames are weighed. */
  int32_t u0, u1;
  if (shortOf > 0 && (!grownExtent(raw.covA, hasIds ? ids.covA : NULL, nA, firstA - a0, lastA + o->k - a0, o->fringeGap, &u0, &u1) || (double)(u1 - u0) < shortOf)) return 0;
  Renames ren;
  RenameMemo memo = {0, 0, 0, {0, 1, 0}, identPre};
  if (hasIds) {
    renameConsistency(A, B, ids.alignedB, nA, a0, b0, nB, a0, a1, unsA, unsB, pairsScratch, counts, &memo, &ren);
    if (memo.unsupported) {
      goodCover(raw.covA, ids.startA, unsA, nA, kc, goodA);
      goodCover(raw.covB, ids.startB, unsB, nB, kc, goodB);
    } else {
      /* Every matched identifier k-gram good: what it covers (mark()'s cover), with the raw cover. */
      for (int32_t i = 0; i < nA; i++) goodA[i] = raw.covA[i] | ids.covA[i];
      for (int32_t i = 0; i < nB; i++) goodB[i] = raw.covB[i] | ids.covB[i];
    }
  } else {
    memcpy(goodA, raw.covA, nA);
    memcpy(goodB, raw.covB, nB);
  }
  int32_t ea0, ea1, eb0, eb1;
  if (!extent(goodA, nA, firstA - a0, lastA + o->k - a0, o->fringeGap, &ea0, &ea1) || !extent(goodB, nB, firstB - b0, lastB + o->k - b0, o->fringeGap, &eb0, &eb1)) {
    return 0;
  }
  /* What follows only narrows side A (a cut, a run: inside [ea0, ea1)) and makes side B no longer
   * than it (a run's two sides are as long): too short a side A stays too short. */
  if ((double)(ea1 - ea0) < shortOf) return 0;
  AlignResult al;
  score(A, B, &raw, &ids, hasIds, nA, a0, b0, nB, a0 + ea0, a0 + ea1, b0 + eb0, b0 + eb1, kc, unsA, unsB, pairsScratch, counts, &memo, &al);
  /* A verbatim copy next to look-alike code: the sparse stretch beyond its run goes (align.ts; code only). */
  int32_t rs, re, cut[4];
  longestRun(&A->raw, 0, &B->raw, 0, raw.alignedB, a0, al.aStart, al.aEnd, &rs, &re);
  if (hasIds && cutAtRun(&raw, rs, re, &al, a0, b0, kc, cut)) score(A, B, &raw, &ids, hasIds, nA, a0, b0, nB, cut[0], cut[1], cut[2], cut[3], kc, unsA, unsB, pairsScratch, counts, &memo, &al);
  const int32_t la = al.aEnd - al.aStart, lb = al.bEnd - al.bStart;
  const double longer = (double)(la > lb ? la : lb);
  if ((double)(re - rs) >= EXACT_SHARE * longer) {
    const int32_t b = raw.alignedB[rs - a0];
    al.aStart = rs, al.aEnd = re, al.bStart = b, al.bEnd = b + (re - rs);
    al.rawA = 1, al.rawB = 1, al.idsA = 1, al.idsB = 1, al.exact = 1, al.sameShape = 1;
  } else if (hasIds && al.consistency >= o->minConsistency) {
    longestRun(&idsA, oa, &idsB, ob, ids.alignedB, a0, al.aStart, al.aEnd, &rs, &re);
    if ((double)(re - rs) >= EXACT_SHARE * longer) {
      const int32_t b = ids.alignedB[rs - a0];
      al.aStart = rs, al.aEnd = re, al.bStart = b, al.bEnd = b + (re - rs);
      al.idsA = 1, al.idsB = 1, al.exact = 0, al.sameShape = 1;
    }
  }
  *out = al;
  return 1;
}
