/*
 * nestedPairsKeep of allpairs.h: which section pairs a report keeps of nested ones, the rule of
 * dropNestedPairs in src/core/report/report.ts in C (the native addon only; kernelpairs.c's
 * keepOutermostPairs). Only pairs of the same two documents can nest, so the pairs are ordered by
 * their two documents (then by index: one radix sort of a 64-bit key), and each run of one
 * document pair is decided alone, widest first (then by index): a pair is dropped when a pair
 * already kept holds it (each side within a kept side of the same document, either way round).
 * A run of up to NESTED_DIRECT pairs compares each with the pairs kept; a longer one (a file of
 * one repeated line) looks up each side's containers — the sections of its document whose lines
 * hold its own, itself included — among the kept pairs (a hash set): the same answer, linear
 * while sections nest a few levels deep, as the TypeScript does.
 */
#include <stdlib.h>
#include <string.h>

#include "allpairs.h"

/* Runs up to this long compare each pair with those kept (report.ts DIRECT_RUN). */
#define NESTED_DIRECT 64

typedef struct {
  const uint32_t *a, *b;
  const int32_t *doc, *start, *end;
} Nest;

static inline int64_t spanOf(const Nest *t, uint32_t p) {
  const uint32_t x = t->a[p], y = t->b[p];
  return ((int64_t)t->end[x] - t->start[x]) + ((int64_t)t->end[y] - t->start[y]);
}

/* Whether item x's range holds item i's (same document). */
static inline int holds(const Nest *t, uint32_t x, uint32_t i) {
  return t->doc[x] == t->doc[i] && t->start[x] <= t->start[i] && t->end[i] <= t->end[x];
}

/* A pair of a run with what orders it: its span (widest first), then its index. */
typedef struct {
  int64_t span;
  uint32_t p;
} Wide;

static int widerFirst(const void *x, const void *y) {
  const Wide *u = x, *v = y;
  if (u->span != v->span) return u->span > v->span ? -1 : 1;
  return u->p < v->p ? -1 : u->p > v->p;
}

/* A run's pairs widest first, then by index (`wide`: room for k; an insertion sort for short runs). */
static void sortRun(const Nest *t, uint32_t *run, size_t k, Wide *wide) {
  for (size_t i = 0; i < k; i++) wide[i] = (Wide){spanOf(t, run[i]), run[i]};
  if (k <= NESTED_DIRECT) {
    for (size_t i = 1; i < k; i++) {
      const Wide x = wide[i];
      size_t j = i;
      for (; j > 0 && widerFirst(&wide[j - 1], &x) > 0; j--) wide[j] = wide[j - 1];
      wide[j] = x;
    }
  } else {
    qsort(wide, k, sizeof *wide, widerFirst);
  }
  for (size_t i = 0; i < k; i++) run[i] = wide[i].p;
}

/* A short run: each pair against the pairs kept so far (`kept`: room for k). */
static void keepDirect(const Nest *t, const uint32_t *run, size_t k, uint32_t *kept, uint8_t *keep) {
  size_t nk = 0;
  for (size_t i = 0; i < k; i++) {
    const uint32_t p = run[i], a = t->a[p], b = t->b[p];
    int nested = 0;
    for (size_t j = 0; j < nk && !nested; j++) {
      const uint32_t u = t->a[kept[j]], v = t->b[kept[j]];
      nested = (holds(t, u, a) && holds(t, v, b)) || (holds(t, v, a) && holds(t, u, b));
    }
    if (!nested) {
      kept[nk++] = p;
      keep[p] = 1;
    }
  }
}

/* An open-addressing set of 64-bit keys (never 0: keys are stored + 1). */
typedef struct {
  uint64_t *slot;
  size_t mask;
} KeySet;

static int keySetInit(KeySet *s, size_t most) {
  size_t cap = 16;
  while (cap < 2 * most) cap <<= 1;
  s->slot = calloc(cap, sizeof(uint64_t));
  s->mask = cap - 1;
  return s->slot != NULL;
}

static inline size_t keyHash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return (size_t)k;
}

static inline int keySetHas(const KeySet *s, uint64_t key) {
  for (size_t i = keyHash(key) & s->mask;; i = (i + 1) & s->mask) {
    if (s->slot[i] == 0) return 0;
    if (s->slot[i] == key + 1) return 1;
  }
}

static inline void keySetAdd(KeySet *s, uint64_t key) {
  size_t i = keyHash(key) & s->mask;
  while (s->slot[i] != 0 && s->slot[i] != key + 1) i = (i + 1) & s->mask;
  s->slot[i] = key + 1;
}

static inline uint64_t pairKey(uint32_t x, uint32_t y, uint64_t n) { return x < y ? x * n + y : y * n + x; }

/* An item of one document with what orders it: start, then longer first, then its number
 * (ranges.ts forEachContainers). */
typedef struct {
  int32_t start, end;
  uint32_t id;
} Range;

static int byStart(const void *x, const void *y) {
  const Range *u = x, *v = y;
  if (u->start != v->start) return u->start < v->start ? -1 : 1;
  if (u->end != v->end) return u->end > v->end ? -1 : 1;
  return u->id < v->id ? -1 : u->id > v->id;
}

/* What keepByContainers works with, made once per call: the items of each document (`byDoc`,
 * document d's from docAt[d] to docAt[d + 1]) and scratch of one entry per item. */
typedef struct {
  const uint32_t *byDoc;
  const size_t *docAt;
  uint32_t *where; /* an item's place among the run's documents' items (for its containers) */
  uint64_t nItems;
} Docs;

/*
 * A long run of documents (d1, d2): a pair is nested when a kept pair joins a container of its
 * side a and one of its side b. The containers of every item of the two documents come from one
 * sweep of each (ranges.ts forEachContainers). Returns 0 when out of memory.
 */
static int keepByContainers(const Nest *t, const uint32_t *run, size_t k, const Docs *D, uint8_t *keep) {
  const int32_t docs[2] = {t->doc[t->a[run[0]]], t->doc[t->b[run[0]]]};
  const int nd = docs[0] == docs[1] ? 1 : 2;
  size_t total = 0;
  for (int d = 0; d < nd; d++) total += D->docAt[docs[d] + 1] - D->docAt[docs[d]];
  uint32_t *mine = malloc((total ? total : 1) * sizeof(uint32_t));
  size_t *from = malloc((total + 1) * sizeof(size_t));
  uint32_t *active = malloc((total ? total : 1) * sizeof(uint32_t));
  uint32_t *list = NULL;
  size_t listCap = 0, listLen = 0;
  KeySet kept = {NULL, 0};
  int ok = mine && from && active && keySetInit(&kept, k);
  /* Each document's items by start, longer first, then number; then the sweep: ranges that start
   * on one line are active together, and an item's containers are the active ranges around it
   * (from[i] .. from[i + 1] in `list`, i its place in `mine`). */
  for (size_t d = 0, m0 = 0; ok && d < (size_t)nd; d++) {
    const size_t s = D->docAt[docs[d]], len = D->docAt[docs[d] + 1] - s;
    Range *ranges = malloc((len ? len : 1) * sizeof(Range));
    if (!ranges) {
      ok = 0;
      break;
    }
    for (size_t q = 0; q < len; q++) {
      const uint32_t i = D->byDoc[s + q];
      ranges[q] = (Range){t->start[i], t->end[i], i};
    }
    qsort(ranges, len, sizeof(Range), byStart);
    for (size_t q = 0; q < len; q++) mine[m0 + q] = ranges[q].id;
    free(ranges);
    size_t na = 0;
    for (size_t q = 0; ok && q < len;) {
      const int32_t start = t->start[mine[m0 + q]];
      size_t still = 0;
      for (size_t j = 0; j < na; j++)
        if (t->end[active[j]] >= start) active[still++] = active[j];
      na = still;
      size_t end = q;
      while (end < len && t->start[mine[m0 + end]] == start) active[na++] = mine[m0 + end++];
      for (; ok && q < end; q++) {
        const uint32_t i = mine[m0 + q];
        D->where[i] = (uint32_t)(m0 + q);
        from[m0 + q] = listLen;
        for (size_t j = 0; ok && j < na; j++) {
          const uint32_t c = active[j];
          if (!(t->start[c] <= t->start[i] && t->end[i] <= t->end[c])) continue;
          if (listLen == listCap) {
            const size_t cap = listCap ? 2 * listCap : 256;
            uint32_t *grown = realloc(list, cap * sizeof(uint32_t));
            if (!grown) ok = 0;
            else {
              list = grown;
              listCap = cap;
            }
          }
          if (ok) list[listLen++] = c;
        }
      }
    }
    m0 += len;
  }
  if (ok) from[total] = listLen;
  for (size_t r = 0; ok && r < k; r++) {
    const uint32_t p = run[r], a = t->a[p], b = t->b[p];
    const uint32_t wa = D->where[a], wb = D->where[b];
    int nested = 0;
    for (size_t i = from[wa]; i < from[wa + 1] && !nested; i++)
      for (size_t j = from[wb]; j < from[wb + 1]; j++)
        if (keySetHas(&kept, pairKey(list[i], list[j], D->nItems))) {
          nested = 1;
          break;
        }
    if (!nested) {
      keySetAdd(&kept, pairKey(a, b, D->nItems));
      keep[p] = 1;
    }
  }
  free(mine);
  free(from);
  free(active);
  free(list);
  free(kept.slot);
  return ok;
}

static inline int bitsOf64(uint64_t v) {
  int b = 0;
  while (b < 64 && (v >> b)) b++;
  return b;
}

int nestedPairsKeep(const uint32_t *a, const uint32_t *b, size_t count, const int32_t *doc, const int32_t *start, const int32_t *end, size_t nItems, uint8_t *keep) {
  memset(keep, 0, count);
  if (count == 0) return 1;
  const Nest t = {a, b, doc, start, end};
  uint64_t nDocs = 0;
  for (size_t i = 0; i < nItems; i++)
    if ((uint64_t)doc[i] >= nDocs) nDocs = (uint64_t)doc[i] + 1;
  /* The pairs by their two documents (da · nDocs + db, da ≤ db), then by index: a stable LSD
   * radix sort, 16 bits a pass, of the pairs in index order. */
  uint64_t *key = malloc(count * sizeof(uint64_t)), *keyTmp = malloc(count * sizeof(uint64_t));
  uint32_t *order = malloc(count * sizeof(uint32_t)), *orderTmp = malloc(count * sizeof(uint32_t));
  uint32_t *scratch = malloc(count * sizeof(uint32_t));
  Wide *wide = malloc(count * sizeof(Wide));
  size_t *counts = malloc(65537 * sizeof(size_t));
  uint32_t *byDoc = NULL, *where = NULL;
  size_t *docAt = NULL;
  int ok = key && keyTmp && order && orderTmp && scratch && wide && counts;
  uint64_t most = 0;
  for (size_t p = 0; ok && p < count; p++) {
    const uint64_t da = (uint64_t)doc[a[p]], db = (uint64_t)doc[b[p]];
    key[p] = da < db ? da * nDocs + db : db * nDocs + da;
    if (key[p] > most) most = key[p];
    order[p] = (uint32_t)p;
  }
  for (int shift = 0; ok && shift < bitsOf64(most); shift += 16) {
    memset(counts, 0, 65537 * sizeof(size_t));
    for (size_t p = 0; p < count; p++) counts[((key[p] >> shift) & 0xffff) + 1]++;
    for (size_t v = 0; v < 65536; v++) counts[v + 1] += counts[v];
    for (size_t p = 0; p < count; p++) {
      const size_t to = counts[(key[p] >> shift) & 0xffff]++;
      keyTmp[to] = key[p];
      orderTmp[to] = order[p];
    }
    uint64_t *k = key;
    key = keyTmp;
    keyTmp = k;
    uint32_t *o = order;
    order = orderTmp;
    orderTmp = o;
  }
  Docs D = {NULL, NULL, NULL, nItems};
  for (size_t i = 0; ok && i < count;) {
    size_t e = i + 1;
    while (e < count && key[e] == key[i]) e++;
    const size_t k = e - i;
    if (k == 1) keep[order[i]] = 1;
    else {
      memcpy(scratch, order + i, k * sizeof(uint32_t));
      sortRun(&t, scratch, k, wide);
      if (k <= NESTED_DIRECT) keepDirect(&t, scratch, k, orderTmp, keep);
      else {
        if (!byDoc) {
          /* The items of each document, made at the first long run. */
          byDoc = malloc((nItems ? nItems : 1) * sizeof(uint32_t));
          where = malloc((nItems ? nItems : 1) * sizeof(uint32_t));
          docAt = calloc(nDocs + 2, sizeof(size_t));
          ok = byDoc && where && docAt;
          for (size_t j = 0; ok && j < nItems; j++) docAt[doc[j] + 1]++;
          for (uint64_t d = 0; ok && d < nDocs; d++) docAt[d + 1] += docAt[d];
          for (size_t j = 0; ok && j < nItems; j++) byDoc[docAt[doc[j]]++] = (uint32_t)j;
          for (uint64_t d = nDocs; ok && d > 0; d--) docAt[d] = docAt[d - 1];
          if (ok) docAt[0] = 0;
          D = (Docs){byDoc, docAt, where, nItems};
        }
        ok = ok && keepByContainers(&t, scratch, k, &D, keep);
      }
    }
    i = e;
  }
  free(key);
  free(keyTmp);
  free(order);
  free(orderTmp);
  free(scratch);
  free(wide);
  free(counts);
  free(byDoc);
  free(where);
  free(docAt);
  return ok ? 1 : -1;
}
