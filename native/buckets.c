/*
 * The region finder's per-bucket search in C: bucketRegions of src/core/regions/regions.ts (read
 * it and chain.ts for the why) for a run of seed buckets in one call — each bucket's seeds chained
 * along near-diagonals and the chains joined across indels (bucketChains and indelExplains of
 * chain.ts), each chain whose span can hold a region aligned (align.c), judged (regions.ts judge)
 * and the regions overlapping on both sides reduced to the heaviest, the kept ones sorted by
 * place. The same steps in the same order with the same floating point operations as the
 * TypeScript, so both give identical regions (test/unit/node/workers/nativeBuckets.test.ts).
 */
#include "buckets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* Chains of fewer seeds are not joined to (bucketRegions passes 3 to bucketChains). */
#define JOIN_MIN_SEEDS 3

int bucketOptionsOf(const double *p, BucketOptions *o) {
  const AlignOptions a = {(int32_t)p[0], (int32_t)p[1], (int32_t)p[2], (int32_t)p[3], (int32_t)p[4], p[5]};
  if (a.k < 1 || a.coverK < 1 || a.margin < 0 || a.band < 0 || a.fringeGap < 0) return 0;
  o->align = a;
  o->maxGap = p[6];
  o->maxDrift = p[7];
  o->driftRate = p[8];
  o->joinGap = p[9];
  o->proseMaxJoinIndel = p[10];
  o->minSeeds = p[11];
  o->minTokens = p[12];
  o->minSimilarity = p[13];
  o->shortSimilarity = p[14];
  o->longTokens = p[15];
  return 1;
}

int bucketsValid(const int32_t *lengths, uint32_t nDocs, const int32_t *seeds, size_t nSeeds, const uint32_t *buckets, size_t nBuckets) {
  size_t from = 0;
  for (size_t b = 0; b < nBuckets; b++) {
    const uint32_t da = buckets[3 * b], db = buckets[3 * b + 1];
    const size_t end = buckets[3 * b + 2];
    if (da > db || db >= nDocs || end < from || end > nSeeds) return 0;
    for (size_t i = from; i < end; i++)
      if (seeds[2 * i] < 0 || seeds[2 * i] >= lengths[da] || seeds[2 * i + 1] < 0 || seeds[2 * i + 1] >= lengths[db]) return 0;
    from = end;
  }
  return 1;
}

void bucketResultFree(BucketResult *res) {
  free(res->ints);
  free(res->floats);
  memset(res, 0, sizeof *res);
}

/* A chain (or pair) and the place it is sorted by. */
typedef struct Keyed {
  int32_t a, b, id;
} Keyed;

/* A chain still open to seeds, with what the search for a seed's chain reads of it (no lookup). */
typedef struct OpenChain {
  int32_t lastA, lastB, firstB, ch;
} OpenChain;

/* Scratch of one call, grown to the largest bucket (the typed arrays of chain.ts). */
typedef struct {
  size_t cap;
  int32_t *seedA, *seedB, *nextSeed, *head, *tail, *size, *firstA, *firstB, *lastA, *lastB, *out, *cand, *flatEnds, *flatSeeds;
  struct Keyed *keyed;
  struct OpenChain *openChains;
  size_t foundCap;
  struct Found *found;
  AlignScratch align;
} Scratch;

typedef struct Found {
  int32_t aStart, aEnd, bStart, bEnd, clone, renames, index;
  double similarity, rawSimilarity, consistency, weight;
} Found;

static int ensure(Scratch *s, size_t m) {
  if (m <= s->cap) return 1;
  size_t cap = s->cap * 2 > m ? s->cap * 2 : m;
  if (cap < 1024) cap = 1024;
  int32_t **arrays[] = {&s->seedA, &s->seedB, &s->nextSeed, &s->head, &s->tail, &s->size, &s->firstA, &s->firstB, &s->lastA, &s->lastB, &s->out, &s->cand, &s->flatEnds};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    free(*arrays[i]);
    *arrays[i] = malloc(cap * sizeof(int32_t));
    if (!*arrays[i]) return 0;
  }
  free(s->flatSeeds);
  free(s->keyed);
  free(s->openChains);
  s->flatSeeds = malloc(2 * cap * sizeof(int32_t));
  s->keyed = malloc(cap * sizeof(struct Keyed));
  s->openChains = malloc(cap * sizeof(OpenChain));
  if (!s->flatSeeds || !s->keyed || !s->openChains) return 0;
  s->cap = cap;
  return 1;
}

static void scratchFree(Scratch *s) {
  int32_t *arrays[] = {s->seedA, s->seedB, s->nextSeed, s->head, s->tail, s->size, s->firstA, s->firstB, s->lastA, s->lastB, s->out, s->cand, s->flatEnds, s->flatSeeds};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
  free(s->keyed);
  free(s->openChains);
  free(s->found);
  free(s->align.block);
}


static int byPlaceKey(const void *p, const void *q) {
  const Keyed *x = p, *y = q;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  if (x->b != y->b) return x->b < y->b ? -1 : 1;
  return 0;
}

/* Whether token i of A equals token j of B in the stream chain joins compare (regions.ts `same`):
 * the normalised tokens of a document that has them (normHi / normLo of align.h), else as read. */
static inline int sameToken(const RegionDoc *A, int32_t i, const RegionDoc *B, int32_t j) {
  return normHi(A, i) == normHi(B, j) && normLo(A, i) == normLo(B, j);
}

/* indelExplains of chain.ts with bucketRegions' `explains` around it. */
static int explains(const RegionDoc *sa, const RegionDoc *sb, double maxIndel, int32_t la, int32_t lb, int32_t a, int32_t b) {
  if (!(fabs((double)(a - la - (b - lb))) <= maxIndel)) return 0;
  const int32_t ga = a - la, gb = b - lb;
  const int32_t shorter = ga < gb ? ga : gb;
  const double slack = 2 + floor(0.15 * (double)shorter);
  int32_t p = 0;
  while (p < shorter && sameToken(sa, la + p, sb, lb + p)) p++;
  int32_t q = 0;
  while (q < shorter - p && sameToken(sa, a - 1 - q, sb, b - 1 - q)) q++;
  return (double)(p + q) + slack >= (double)shorter;
}

/* bucketChains of chain.ts: the chains of m pairs, flat into s->flatSeeds / s->flatEnds; their count. */
static int32_t chainBucket(Scratch *s, const int32_t *pairs, int32_t m, const BucketOptions *o, int self, const RegionDoc *sa, const RegionDoc *sb, double maxIndel) {
  int sorted = 1;
  for (int32_t i = 1; i < m && sorted; i++) sorted = pairs[2 * i - 2] < pairs[2 * i] || (pairs[2 * i - 2] == pairs[2 * i] && pairs[2 * i - 1] <= pairs[2 * i + 1]);
  Keyed *ord = NULL;
  if (!sorted) {
    /* Equal pairs are the same seed (dropped below): any sort of the pairs gives chain.ts' order. */
    ord = s->keyed;
    for (int32_t i = 0; i < m; i++) ord[i].a = pairs[2 * i], ord[i].b = pairs[2 * i + 1], ord[i].id = i;
    qsort(ord, m, sizeof(Keyed), byPlaceKey);
  }
  /* ---- chainSeeds */
  int32_t kept = 0, chains = 0, openLen = 0, prevA = -1, prevB = -1;
  int32_t *seedA = s->seedA, *seedB = s->seedB, *nextSeed = s->nextSeed, *head = s->head, *tail = s->tail, *size = s->size;
  int32_t *firstA = s->firstA, *firstB = s->firstB, *lastA = s->lastA, *lastB = s->lastB;
  OpenChain *open = s->openChains;
  /* A whole maxGap (the usual): its tests in integers, exactly the double ones (no rounding below 2^53). */
  const int wholeGap = o->maxGap == floor(o->maxGap) && fabs(o->maxGap) < 2147483648.0;
  const int64_t gap = wholeGap ? (int64_t)o->maxGap : 0;
  /* The options in locals: the stores to open[] below could alias *o, which would be read again for every chain. */
  const double maxGap = o->maxGap, maxDrift = o->maxDrift, driftRate = o->driftRate;
  for (int32_t r = 0; r < m; r++) {
    const int32_t i = ord ? ord[r].id : r;
    const int32_t a = pairs[2 * i], b = pairs[2 * i + 1];
    if (a == prevA && b == prevB) continue;
    prevA = a;
    prevB = b;
    int32_t best = -1;
    double bestCost = INFINITY;
    const int64_t closed = (int64_t)a - gap; /* (wholeGap) a chain ending before this is closed */
    for (int32_t c = 0; c < openLen; c++) {
      const OpenChain x = open[c];
      if (wholeGap ? x.lastA < closed : (double)x.lastA + maxGap < (double)a) {
        open[c] = open[--openLen];
        c--;
        continue;
      }
      const int32_t da = a - x.lastA, db = b - x.lastB;
      if (da <= 0 || db <= 0 || (wholeGap ? db > gap : (double)db > maxGap)) continue;
      const int32_t drift = db > da ? db - da : da - db;
      if ((double)drift > maxDrift + driftRate * (double)(da > db ? da : db)) continue;
      if (self && a >= x.firstB) continue;
      const double cost = (double)drift * 4 + (double)da;
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    const int32_t sd = kept++;
    seedA[sd] = a;
    seedB[sd] = b;
    nextSeed[sd] = -1;
    if (best >= 0) {
      const int32_t ch = open[best].ch;
      nextSeed[tail[ch]] = sd;
      tail[ch] = sd;
      size[ch]++;
      lastA[ch] = open[best].lastA = a;
      lastB[ch] = open[best].lastB = b;
    } else {
      const int32_t ch = chains++;
      head[ch] = tail[ch] = sd;
      size[ch] = 1;
      firstA[ch] = lastA[ch] = a;
      firstB[ch] = lastB[ch] = b;
      open[openLen++] = (OpenChain){a, b, b, ch};
    }
  }
  /* The chains by their first seeds (chainSeeds' order): the order they were made in, the seeds
   * being read in (a, b) order, each once: chain c's first seed comes before chain c + 1's. */

  /* ---- joinChains */
  int32_t outLen = 0, candLen = 0;
  int32_t *out = s->out, *cand = s->cand;
  for (int32_t c = 0; c < chains; c++) {
    const int32_t a = firstA[c], b = firstB[c];
    int32_t best = -1;
    double bestGap = INFINITY;
    if (size[c] >= JOIN_MIN_SEEDS) {
      int32_t w = 0;
      for (int32_t j = 0; j < candLen; j++) {
        const int32_t x = cand[j];
        const int32_t la = lastA[x];
        const int32_t ga = a - la;
        if ((double)ga > o->joinGap) continue;
        cand[w++] = x;
        const int32_t gb = b - lastB[x];
        if (ga <= 0 || gb <= 0 || (double)gb > o->joinGap) continue;
        if (self && lastA[c] >= firstB[x]) continue;
        if (!explains(sa, sb, maxIndel, la, lastB[x], a, b)) continue;
        if ((double)(ga + gb) < bestGap) {
          bestGap = (double)(ga + gb);
          best = x;
        }
      }
      candLen = w;
    }
    if (best >= 0) {
      nextSeed[tail[best]] = head[c];
      tail[best] = tail[c];
      size[best] += size[c];
      lastA[best] = lastA[c];
      lastB[best] = lastB[c];
    } else {
      out[outLen++] = c;
      if (size[c] >= JOIN_MIN_SEEDS) cand[candLen++] = c;
    }
  }
  int32_t at = 0;
  for (int32_t j = 0; j < outLen; j++) {
    for (int32_t sd = head[out[j]]; sd >= 0; sd = nextSeed[sd]) {
      s->flatSeeds[2 * at] = seedA[sd];
      s->flatSeeds[2 * at + 1] = seedB[sd];
      at++;
    }
    s->flatEnds[j] = at;
  }
  return outLen;
}

/* judge of regions.ts: 1 with the scores in *f, 0 when too short or too dissimilar. */
static int judge(const AlignResult *al, const BucketOptions *o, Found *f) {
  if ((double)(al->aEnd - al->aStart) < o->minTokens || (double)(al->bEnd - al->bStart) < o->minTokens) return 0;
  const double raw = al->rawA < al->rawB ? al->rawA : al->rawB;
  const double ids = al->idsA < al->idsB ? al->idsA : al->idsB;
  const int consistent = al->consistency >= o->align.minConsistency;
  const double similarity = consistent ? (raw > ids ? raw : ids) : raw;
  const int32_t la = al->aEnd - al->aStart, lb = al->bEnd - al->bStart;
  const double shorter = (double)(la < lb ? la : lb);
  const double t = shorter >= o->longTokens || o->longTokens <= o->minTokens ? 0 : (o->longTokens - shorter) / (o->longTokens - o->minTokens);
  const double extra = o->shortSimilarity - o->minSimilarity;
  if (similarity < o->minSimilarity + t * (extra > 0 ? extra : 0)) return 0;
  f->clone = al->exact ? 0 : al->sameShape && consistent ? 1 : 2;
  f->similarity = similarity;
  f->rawSimilarity = raw;
  f->consistency = al->consistency;
  f->renames = al->renames;
  return 1;
}

/* The reduction's order: heaviest first, then by place, then as found (a stable sort). */
static int byWeight(const void *p, const void *q) {
  const Found *x = p, *y = q;
  if (y->weight != x->weight) return y->weight > x->weight ? 1 : -1;
  if (x->aStart != y->aStart) return x->aStart < y->aStart ? -1 : 1;
  if (x->bStart != y->bStart) return x->bStart < y->bStart ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The kept regions' order: by place, then as kept (a stable sort). */
static int byPlace(const void *p, const void *q) {
  const Found *x = p, *y = q;
  if (x->aStart != y->aStart) return x->aStart < y->aStart ? -1 : 1;
  if (x->bStart != y->bStart) return x->bStart < y->bStart ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static inline int overlap(int32_t s1, int32_t e1, int32_t s2, int32_t e2) { return s1 < e2 && s2 < e1; }

int bucketRegionsNative(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted,
                        const BucketOptions *o, BucketResult *res) {
  return bucketRegionsRange(docs, prose, seeds, buckets, 0, nBuckets, wanted, o, res);
}

int bucketRegionsRange(const RegionDoc *docs, const uint8_t *prose, const int32_t *seeds, const uint32_t *buckets, size_t first, size_t last, const uint8_t *wanted,
                       const BucketOptions *o, BucketResult *res) {
  memset(res, 0, sizeof *res);
  Scratch s; /* this call's own: calls on other threads share nothing they write */
  memset(&s, 0, sizeof s);
  int ok = 1;
  const double reach = (double)o->align.k + 2 * (double)o->align.margin;
  size_t from = first > 0 ? buckets[3 * first - 1] : 0;
  for (size_t bi = first; ok && bi < last; from = buckets[3 * bi + 2], bi++) {
    if (wanted && !wanted[bi]) continue;
    const uint32_t da = buckets[3 * bi], db = buckets[3 * bi + 1];
    const int32_t m = (int32_t)(buckets[3 * bi + 2] - from);
    const int self = da == db;
    const RegionDoc *A = &docs[da], *B = &docs[db];
    if (!ensure(&s, (size_t)m)) {
      ok = 0;
      break;
    }
    const double maxIndel = prose[da] || prose[db] ? o->proseMaxJoinIndel : INFINITY;
    const int32_t chains = chainBucket(&s, seeds + 2 * from, m, o, self, A, B, maxIndel);
    size_t found = 0;
    for (int32_t c = 0, first = 0; c < chains; first = s.flatEnds[c++]) {
      res->chains++;
      const int32_t end = s.flatEnds[c];
      if ((double)(end - first) < o->minSeeds) continue;
      const int32_t *cs = s.flatSeeds + 2 * first;
      const int32_t last = 2 * (end - first) - 2;
      if ((double)(cs[last] - cs[0]) + reach < o->minTokens || (double)(cs[last + 1] - cs[1]) + reach < o->minTokens) continue;
      AlignResult al;
      const int status = alignChainWith(A, B, cs, end - first, &o->align, self, o->minTokens, &s.align, &al); /* (judge's first test, early) */
      res->aligned++;
      if (status < 0) {
        ok = 0;
        break;
      }
      if (status == 0) continue;
      Found f;
      if (!judge(&al, o, &f)) continue;
      f.aStart = al.aStart, f.aEnd = al.aEnd, f.bStart = al.bStart, f.bEnd = al.bEnd;
      f.weight = f.similarity * (double)(f.aEnd - f.aStart + f.bEnd - f.bStart);
      f.index = (int32_t)found;
      if (!growArray((void **)&s.found, &s.foundCap, found + 1, sizeof(Found))) {
        ok = 0;
        break;
      }
      s.found[found++] = f;
    }
    if (!ok || found == 0) continue;
    /* One result per place pair: of regions overlapping on both sides, the heaviest. */
    qsort(s.found, found, sizeof(Found), byWeight);
    size_t nKept = 0;
    for (size_t i = 0; i < found; i++) {
      const Found *p = &s.found[i];
      int drop = 0;
      for (size_t j = 0; j < nKept && !drop; j++) drop = overlap(p->aStart, p->aEnd, s.found[j].aStart, s.found[j].aEnd) && overlap(p->bStart, p->bEnd, s.found[j].bStart, s.found[j].bEnd);
      if (self)
        for (size_t j = 0; j < nKept && !drop; j++) drop = overlap(p->aStart, p->aEnd, s.found[j].bStart, s.found[j].bEnd) && overlap(p->bStart, p->bEnd, s.found[j].aStart, s.found[j].aEnd);
      if (!drop) {
        s.found[nKept] = *p; /* nKept <= i: compacted in place, in kept order */
        s.found[nKept].index = (int32_t)nKept;
        nKept++;
      }
    }
    qsort(s.found, nKept, sizeof(Found), byPlace);
    const size_t need = res->count + nKept;
    if (!growArray((void **)&res->ints, &res->intCap, need * BUCKET_PAIR_INTS, sizeof(int32_t)) ||
        !growArray((void **)&res->floats, &res->floatCap, need * BUCKET_PAIR_FLOATS, sizeof(double))) {
      ok = 0;
      break;
    }
    for (size_t i = 0; i < nKept; i++) {
      const Found *p = &s.found[i];
      int32_t *t = res->ints + BUCKET_PAIR_INTS * res->count;
      double *f = res->floats + BUCKET_PAIR_FLOATS * res->count;
      t[0] = (int32_t)bi, t[1] = p->aStart, t[2] = p->aEnd, t[3] = p->bStart, t[4] = p->bEnd, t[5] = p->clone, t[6] = p->renames;
      f[0] = p->similarity, f[1] = p->rawSimilarity, f[2] = p->consistency;
      res->count++;
    }
  }
  scratchFree(&s);
  if (!ok) {
    bucketResultFree(res);
    return -1;
  }
  return 1;
}
