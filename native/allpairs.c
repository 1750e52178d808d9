/*
 * All pairs of 64-bit fingerprints within Hamming distance k, by permuted block tables (Manku,
 * Jain and Das Sarma 2007), in C: the batch search of src/core/index/allPairs.ts (allPairsBatch)
 * for the native kernel. The TypeScript stays the reference (the tests compare both against
 * brute force) and the fallback.
 *
 * The 64 bits are cut into b = k + t blocks; any two fingerprints within distance k agree on at
 * least t whole blocks, so they meet in the table keyed by those t blocks. Each of the C(b, t)
 * tables is a counting sort of the items by (a hash of) its key, after which items with the same
 * key are compared. A pair is reported by one table only: the one keyed by the first t blocks on
 * which the two agree. Identical fingerprints are merged first, so that hundreds of copies cost
 * their output, not tables × copies²; t is chosen per call from n and k by a cost estimate. Here:
 * the copies, the layout, the runs left to threads (allPairsRun) and the join; the tables are
 * allpairstables.c's, what the two share allpairsparts.h's.
 *
 * Called from JavaScript (see kernel.c): allPairs(fp: Uint32Array of (hi, lo) pairs, k,
 * maxCandidates) -> { a: Uint32Array, b: Uint32Array, distance: Uint8Array } (a < b), or null
 * when more than maxCandidates pairs exist (the caller then falls back to the TypeScript).
 */
#include "allpairsparts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cost model of the layout choice: per item and table (sort passes), per key-equal pair compared. */
#define ITEM_COST 24.0
#define PAIR_COST 4.0
/* The fewest distinct values whose brute force (m² / 2 comparisons) is cut into runs. */
#define BRUTE_RUNS_MIN 2048

/* Binomial coefficient, saturating. */
static double choose(int n, int r) {
  double c = 1;
  for (int i = 1; i <= r; i++) c = c * (n - r + i) / i;
  return c;
}

/*
 * Finds the copies: a hash of the values (4 bytes per slot, at most half full, freed at once).
 * Returns the number of distinct values, or -1 when out of memory.
 */
static int64_t findCopies(const uint32_t *fp, uint32_t n, Distinct *D) {
  D->fp = fp;
  int bits = 4;
  while ((1u << bits) < n * 2u) bits++;
  const uint32_t mask = (1u << bits) - 1;
  int32_t *slots = malloc(sizeof(int32_t) << bits);
  if (!slots) return -1;
  memset(slots, 0xff, sizeof(int32_t) << bits);
  int32_t *next = NULL;
  uint32_t copies = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint64_t v = ((uint64_t)fp[2 * i] << 32) | fp[2 * i + 1];
    uint32_t s = (uint32_t)((v * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
    for (;;) {
      const int32_t f = slots[s];
      if (f < 0) {
        slots[s] = (int32_t)i;
        break;
      }
      if ((((uint64_t)fp[2 * f] << 32) | fp[2 * f + 1]) == v) {
        if (!next) {
          if (!(next = malloc(sizeof(int32_t) * n))) {
            free(slots);
            return -1;
          }
          memset(next, 0xff, sizeof(int32_t) * n);
        }
        /* A copy: chained right after the first item of its value; marked by next[i] != -2 below. */
        next[i] = next[f];
        next[f] = (int32_t)i;
        copies++;
        break;
      }
      s = (s + 1) & mask;
    }
  }
  if (!next) {
    free(slots);
    D->uniq = NULL;
    return n;
  }
  /* First items are those the hash holds. */
  const uint32_t m = n - copies;
  D->uniq = malloc(sizeof(uint64_t) * (m ? m : 1));
  D->first = malloc(sizeof(uint32_t) * (m ? m : 1));
  if (!D->uniq || !D->first) {
    free(slots);
    free(next);
    return -1;
  }
  uint32_t u = 0;
  for (uint32_t s = 0; s <= mask; s++) {
    const int32_t f = slots[s];
    if (f >= 0) {
      D->first[u] = (uint32_t)f;
      D->uniq[u] = ((uint64_t)fp[2 * f] << 32) | fp[2 * f + 1];
      u++;
    }
  }
  free(slots);
  D->next = next;
  return m;
}

static void jobFree(AllPairsJob *J) {
  free(J->D.uniq);
  free(J->D.first);
  free(J->D.next);
  free(J->copies.a);
  free(J->copies.b);
  free(J->copies.d);
  for (int p = 0; p < ALLPAIRS_MAX_PARTS; p++) {
    free(J->parts[p].a);
    free(J->parts[p].b);
    free(J->parts[p].d);
    free(J->copyOut[p].a);
    free(J->copyOut[p].b);
    free(J->copyOut[p].d);
  }
  free(J);
}

/* The copies' pairs of distinct values [from, to): all pairs among the items of each value, at distance 0, in that order. */
static int copiesOf(Out *o, const Distinct *D, uint32_t from, uint32_t to) {
  int status = 1;
  for (uint32_t u = from; u < to && status > 0; u++)
    for (int32_t x = (int32_t)D->first[u]; x >= 0 && status > 0; x = D->next[x])
      for (int32_t y = D->next[x]; y >= 0; y = D->next[y])
        if ((status = push(o, (uint32_t)x, (uint32_t)y, 0)) <= 0) break;
  return status;
}

/* The pairs of distinct values x in [from, to) and every later value within distance k, compared
 * one by one (the brute force; copies expanded), in that order. */
SEARCH_CLONES static int bruteOf(Out *o, const Distinct *D, uint32_t m, int k, uint32_t from, uint32_t to) {
  int status = 1;
  for (uint32_t x = from; x < to && status > 0; x++) {
    const uint64_t vx = valueOf(D, x);
    for (uint32_t y = x + 1; y < m; y++) {
      const int d = popcount64(vx ^ valueOf(D, y));
      if (d <= k && (status = emitCopies(o, D, x, y, (uint8_t)d)) <= 0) break;
    }
  }
  return status;
}

/* Cuts [0, to) into `runs` runs of about the same weight (weight(J, u): u's cost): from[0 … runs]. */
static void cutByWeight(uint32_t *from, int runs, uint32_t to, double (*weight)(const AllPairsJob *, uint32_t), const AllPairsJob *J) {
  double total = 0;
  for (uint32_t u = 0; u < to; u++) total += weight(J, u);
  from[0] = 0;
  double sum = 0;
  int r = 1;
  for (uint32_t u = 0; u < to && r < runs; u++) {
    sum += weight(J, u);
    while (r < runs && sum >= total * r / runs) from[r++] = u + 1;
  }
  while (r <= runs) from[r++] = to;
}

/* The pairs among the items of distinct value u; the values a brute force compares with value x. */
static double copyPairsOf(const AllPairsJob *J, uint32_t u) {
  double s = 0;
  for (int32_t x = (int32_t)J->D.first[u]; x >= 0; x = J->D.next[x]) s++;
  return s * (s - 1) / 2;
}
static double laterValuesOf(const AllPairsJob *J, uint32_t x) { return (double)(J->m - 1 - x); }

/* The pairs of *o as the result (handed over: o's arrays are the result's). */
static void handOver(Out *o, AllPairsResult *res) {
  res->a = o->a;
  res->b = o->b;
  res->distance = o->d;
  res->length = o->n;
  o->a = o->b = NULL;
  o->d = NULL;
}

SEARCH_CLONES int allPairsBegin(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, const AllPairsVet *vet, int runs, AllPairsJob **job, AllPairsResult *res) {
  memset(res, 0, sizeof *res);
  *job = NULL;
  allPairsChooseNear();
  AllPairsJob *J = calloc(1, sizeof *J);
  if (!J) return -1;
  J->k = k;
  J->max = maxCandidates;
  Out *o = &J->copies;
  o->max = maxCandidates;
  o->vet = vet;
  int status = 1;
  if (n < 2) goto finished;

  /* 1. Identical fingerprints: all pairs among the copies of a value, at distance 0. */
  const int64_t distinct = findCopies(fp, n, &J->D);
  if (distinct < 0) {
    status = -1;
    goto finished;
  }
  const uint32_t m = (uint32_t)distinct;
  J->m = m;
  const Distinct *D = &J->D;
  /* (the layout first: the copies' pairs may be left to runs, with the brute force or the tables) */
  const double pairsAll = (double)m * (m - 1) / 2;
  int bestT = 0;
  double bestCost = pairsAll * 1.0;
  for (int t = 1; t <= 4 && k + t <= 64; t++) {
    const int b = k + t;
    const double tables = choose(b, t);
    if (tables > 4096) break;
    const double keyBits = 64.0 * t / b;
    const double cost = tables * ((double)m * ITEM_COST + pairsAll / pow(2.0, keyBits) * PAIR_COST);
    if (cost < bestCost) {
      bestCost = cost;
      bestT = t;
    }
  }
  /* Left to runs (allPairsRun): the copies' pairs, and a brute force worth cutting. */
  if (runs > ALLPAIRS_MAX_PARTS) runs = ALLPAIRS_MAX_PARTS;
  if (runs >= 2 && m >= 2 && (bestT > 0 || m >= BRUTE_RUNS_MIN)) {
    J->runs = runs;
    J->brute = bestT == 0;
    if (D->uniq) cutByWeight(J->copyFrom, runs, m, copyPairsOf, J);
    if (J->brute) cutByWeight(J->bruteFrom, runs, m, laterValuesOf, J);
  } else if (D->uniq) {
    status = copiesOf(o, D, 0, m);
  }
  if (status <= 0 || m < 2) goto finished;
  /* Each part may hold what the copies left of the cap, a run of copies all of it (allPairsEnd checks the total). */
  for (int p = 0; p < ALLPAIRS_MAX_PARTS; p++) {
    J->parts[p].max = maxCandidates - o->seen, J->parts[p].vet = vet, J->status[p] = 1;
    J->copyOut[p].max = maxCandidates, J->copyOut[p].vet = vet, J->copyStatus[p] = 1;
  }
  if (J->brute) {
    *job = J; /* no tables */
    return 2;
  }

  /* 2. Brute force when that is cheaper than any table layout. */
  if (bestT == 0) {
    status = bruteOf(o, D, m, k, 0, m);
    goto finished;
  }

  /* 3. The tables (allPairsTables). Blocks: b nearly equal runs of bits, from bit 63 down. */
  J->t = bestT;
  J->b = k + bestT;
  J->tables = (size_t)choose(J->b, J->t);
  {
    int pos = 64;
    for (int j = 0; j < J->b; j++) {
      const int w = 64 / J->b + (j < 64 % J->b ? 1 : 0);
      pos -= w;
      J->blockMask[j] = (w == 64 ? ~0ULL : ((1ULL << w) - 1)) << pos;
    }
  }
  /* Coarse buckets: about m / 64 of them, and about as many as the tables' keys have values (a
   * bucket then holds about one key's items, so comparing all its pairs compares few of other
   * keys), at most 2^11. */
  const int keyBits = (64 * J->t + J->b - 1) / J->b;
  J->rbits = 1;
  while (J->rbits < 11 && ((1u << J->rbits) * 64u < m || (J->rbits < keyBits && (1u << J->rbits) < m))) J->rbits++;
  *job = J;
  return 2;

finished:
  if (status < 0 || o->over) {
    jobFree(J);
    return status < 0 ? -1 : 0;
  }
  handOver(o, res);
  jobFree(J);
  return 1;
}

size_t allPairsTableCount(const AllPairsJob *J) { return J->tables; }

int allPairsRuns(const AllPairsJob *J) { return J->runs; }

void allPairsRun(AllPairsJob *J, int run) {
  const Distinct *D = &J->D;
  if (D->uniq) J->copyStatus[run] = copiesOf(&J->copyOut[run], D, J->copyFrom[run], J->copyFrom[run + 1]);
  if (J->brute) J->status[run] = bruteOf(&J->parts[run], D, J->m, J->k, J->bruteFrom[run], J->bruteFrom[run + 1]);
}

int allPairsEnd(AllPairsJob *J, int parts, AllPairsResult *res) {
  memset(res, 0, sizeof *res);
  size_t total = J->copies.n, seen = J->copies.seen;
  int status = 1;
  for (int p = 0; p < parts; p++) {
    if (J->status[p] < 0) status = -1;
    else if (J->parts[p].over) status = status < 0 ? -1 : 0;
    total += J->parts[p].n;
    seen += J->parts[p].seen;
  }
  for (int r = 0; r < J->runs; r++) {
    if (J->copyStatus[r] < 0) status = -1;
    else if (J->copyOut[r].over) status = status < 0 ? -1 : 0;
    total += J->copyOut[r].n;
    seen += J->copyOut[r].seen;
  }
  if (status > 0 && seen > J->max) status = 0;
  if (status <= 0) {
    jobFree(J);
    return status;
  }
  /* The copies' pairs, then each part's in table order: the one-part search's order (one list
   * alone is handed over as it is). */
  const Out *from[2 * ALLPAIRS_MAX_PARTS + 1];
  int nFrom = 0;
  from[nFrom++] = &J->copies;
  for (int r = 0; r < J->runs; r++) from[nFrom++] = &J->copyOut[r];
  for (int p = 0; p < parts; p++) from[nFrom++] = &J->parts[p];
  int lists = 0, only = 0;
  for (int f = 0; f < nFrom; f++)
    if (from[f]->n) lists++, only = f;
  if (lists <= 1) {
    handOver((Out *)from[only], res);
    jobFree(J);
    return 1;
  }
  Out all = {0};
  all.max = total;
  all.a = malloc((total ? total : 1) * 4);
  all.b = malloc((total ? total : 1) * 4);
  all.d = malloc(total ? total : 1);
  if (!all.a || !all.b || !all.d) {
    free(all.a);
    free(all.b);
    free(all.d);
    jobFree(J);
    return -1;
  }
  for (int f = 0; f < nFrom; f++) {
    const Out *x = from[f];
    if (!x->n) continue;
    memcpy(all.a + all.n, x->a, x->n * 4);
    memcpy(all.b + all.n, x->b, x->n * 4);
    memcpy(all.d + all.n, x->d, x->n);
    all.n += x->n;
  }
  handOver(&all, res);
  jobFree(J);
  return 1;
}

int allPairsSearch(const uint32_t *fp, uint32_t n, int k, size_t maxCandidates, AllPairsResult *res) {
  AllPairsJob *J;
  const int begun = allPairsBegin(fp, n, k, maxCandidates, NULL, 1, &J, res);
  if (begun != 2) return begun;
  allPairsTables(J, 0, allPairsTableCount(J), 0);
  return allPairsEnd(J, 1, res);
}
