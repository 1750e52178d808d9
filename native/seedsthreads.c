/*
 * anchorSeedsOfDocumentsThreaded of seeds.h: seeds.c's seeds of documents' anchors on several
 * threads (threads.c forEachRun; the native addon only, for the plan job of regionplan.c), the
 * same result exactly. The anchors are scattered by their hash's top bits as in seeds.c, each
 * part sorted on some thread; the sorted anchors are cut at hash boundaries into chunks, each
 * chunk's hashes counted (pass 1) and its seeds written (pass 2) by one thread into its own slice
 * of each docA's seeds — chunk after chunk in hash order, so each slice holds the seeds in the
 * order seeds.c writes them; then each docA's slice is sorted, its pairs written and its buckets
 * cut, docA ranges on the threads. A hash's distinct documents are counted as changes of
 * document along its run (the anchors come document by document, stable sorts keep that order).
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "seeds.h"
#include "seedsparts.h"
#include "threads.h"

/* Fewer anchors than this: seeds.c alone (threads cost more than they save). */
#define THREADED_MIN_ANCHORS 65536
/* Runs per thread of each parallel step (a thread slowed down by another process takes fewer). */
#define RUNS_PER_THREAD 4

/* One chunk of hashes [s, e) of the sorted anchors: what its pass 1 found. */
typedef struct {
  size_t s, e;
  size_t *at; /* seeds per docA (pass 1), then where this chunk writes each docA's next (pass 2) */
  uint32_t *runs, *frequent;
  size_t nRuns, runCap, nFrequent, frequentCap, seeds;
  uint32_t dropped, maxPos;
} Chunk;

typedef struct {
  const Anchor *anchors;
  const uint32_t *caps;
  uint32_t nDocs, maxDocs, minCap;
  Chunk *chunks;
  /* pass 2 */
  int posBits, packed;
  uint64_t *keys;
  Seed *wide;
  /* the docA ranges of the sorts: [docAt[r], docAt[r + 1]) */
  const size_t *at; /* where each docA's slice ends */
  size_t *docAt, *bucketsBefore;
  int32_t *pairs;
  uint32_t *buckets;
  int keyBits;
  /* the scatter: documents [docFrom[r], docFrom[r + 1]) of run r, its count (then where it writes) per part */
  const AnchorSource *src;
  const size_t *docFrom;
  uint32_t **partCount;
  /* the anchors' parts: [partAt[r], partAt[r + 1]) of `count` (ends) */
  Anchor *sorted;
  const size_t *partEnd; /* where each part ends */
  size_t *partAt;
  int low;
} SeedJob;

/* The documents of run r: their anchors counted per part of the hash's top bits. */
static int countParts(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *job = ctx;
  uint32_t *count = job->partCount[r];
  const int low = job->low;
  for (size_t d = job->docFrom[r]; d < job->docFrom[r + 1]; d++) {
    const uint32_t *hs = job->src->docHash[d];
    for (uint32_t i = 0, m = job->src->docCount[d]; i < m; i++) count[hs[i] >> low]++;
  }
  return 1;
}

/* The documents of run r: their anchors into their parts, after those of the runs before. */
static int scatterParts(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *job = ctx;
  uint32_t *at = job->partCount[r];
  const int low = job->low;
  Anchor *out = job->sorted;
  for (size_t d = job->docFrom[r]; d < job->docFrom[r + 1]; d++) {
    const uint32_t *hs = job->src->docHash[d];
    const int32_t *ps = job->src->docPos[d];
    for (uint32_t i = 0, m = job->src->docCount[d]; i < m; i++) {
      Anchor *x = &out[at[hs[i] >> low]++];
      x->hash = hs[i];
      x->doc = (uint32_t)d;
      x->pos = (uint32_t)ps[i];
    }
  }
  return 1;
}

/* The parts of run r sorted by the hash's low bits (each part's own scratch). */
static int sortParts(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *j = ctx;
  Anchor *tmp = NULL;
  size_t tmpCap = 0;
  for (size_t d = j->partAt[r]; d < j->partAt[r + 1]; d++) {
    const size_t s = d ? j->partEnd[d - 1] : 0, len = j->partEnd[d] - s;
    if (len < 2) continue;
    if (len > INSERTION && len > tmpCap) {
      free(tmp);
      if (!(tmp = malloc(len * sizeof(Anchor)))) return -1;
      tmpCap = len;
    }
    sortAnchorsLow(j->sorted + s, tmp, len, j->low);
  }
  free(tmp);
  return 1;
}

/* Pass 1 of chunk r: its hashes kept, its seeds per docA, its frequent hashes. */
static int countChunk(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *job = ctx;
  Chunk *c = &job->chunks[r];
  const Anchor *anchors = job->anchors;
  const uint32_t nDocs = job->nDocs;
  size_t *at = c->at;
  for (size_t s = c->s; s < c->e;) {
    size_t e = s + 1;
    while (e < c->e && anchors[e].hash == anchors[s].hash) e++;
    const size_t postings = e - s;
    const uint32_t d0 = anchors[s].doc, cap = d0 < nDocs ? job->caps[d0] : 0;
    uint32_t distinct = 0;
    if (runWantsDistinct(postings, cap, job->maxDocs, job->minCap)) {
      /* Distinct documents of the run: the anchors are in document order within a hash. */
      for (size_t i = s; i < e; i++)
        if (anchors[i].doc < nDocs && (i == s || anchors[i].doc != anchors[i - 1].doc)) distinct++;
      if (distinct > job->minCap) {
        if (!growArray((void **)&c->frequent, &c->frequentCap, 2 * (c->nFrequent + 1), sizeof(uint32_t))) return -1;
        c->frequent[2 * c->nFrequent] = anchors[s].hash;
        c->frequent[2 * c->nFrequent + 1] = distinct;
        c->nFrequent++;
      }
    }
    if (runDropped(postings, cap, job->maxDocs, distinct)) {
      c->dropped++;
    } else if (postings > 1) {
      if (!growArray((void **)&c->runs, &c->runCap, c->nRuns + 2, sizeof(uint32_t))) return -1;
      c->runs[c->nRuns++] = (uint32_t)s;
      c->runs[c->nRuns++] = (uint32_t)e;
      for (size_t i = s; i < e; i++)
        if (anchors[i].pos > c->maxPos) c->maxPos = anchors[i].pos;
      EACH_SEED((at[da]++, c->seeds++))
    }
    s = e;
  }
  return 1;
}

/* Pass 2 of chunk r: its seeds into its place in each docA's slice. */
static int writeChunk(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *job = ctx;
  Chunk *c = &job->chunks[r];
  const Anchor *anchors = job->anchors;
  size_t *at = c->at;
  const int posBits = job->posBits;
  for (size_t q = 0; q < c->nRuns; q += 2) {
    const size_t s = c->runs[q], e = c->runs[q + 1];
    if (job->packed) {
      uint64_t *keys = job->keys;
      EACH_SEED((keys[at[da]++] = ((uint64_t)db << 2 * posBits) | ((uint64_t)pa << posBits) | pb))
    } else {
      Seed *wide = job->wide;
      EACH_SEED((wide[at[da]].docB = db, wide[at[da]].a = pa, wide[at[da]++].b = pb))
    }
  }
  return 1;
}

/* The docB of sorted seed i (after pass 2). */
static inline uint32_t docBOf(const SeedJob *j, size_t i) { return j->packed ? (uint32_t)(j->keys[i] >> 2 * j->posBits) : j->wide[i].docB; }

/* The docAs of range r: each slice sorted, its pairs written, its buckets counted. */
static int sortRange(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *j = ctx;
  const int posBits = j->posBits;
  const uint64_t posMask = posBits ? (((uint64_t)1 << posBits) - 1) : 0;
  size_t longest = 0, nb = 0;
  for (size_t d = j->docAt[r]; d < j->docAt[r + 1]; d++) {
    const size_t s = d ? j->at[d - 1] : 0;
    if (j->at[d] - s > longest) longest = j->at[d] - s;
  }
  uint64_t *tmp = NULL;
  if (j->packed && longest > INSERTION && !(tmp = malloc(longest * sizeof(uint64_t)))) return -1;
  for (size_t d = j->docAt[r]; d < j->docAt[r + 1]; d++) {
    const size_t s = d ? j->at[d - 1] : 0, e = j->at[d];
    if (j->packed) sortKeys(j->keys + s, tmp, e - s, j->keyBits);
    else qsort(j->wide + s, e - s, sizeof(Seed), compareSeeds);
    for (size_t i = s; i < e; i++) {
      if (j->packed) {
        j->pairs[2 * i] = (int32_t)((j->keys[i] >> posBits) & posMask);
        j->pairs[2 * i + 1] = (int32_t)(j->keys[i] & posMask);
      } else {
        j->pairs[2 * i] = (int32_t)j->wide[i].a;
        j->pairs[2 * i + 1] = (int32_t)j->wide[i].b;
      }
      if (i + 1 == e || docBOf(j, i + 1) != docBOf(j, i)) nb++;
    }
  }
  free(tmp);
  j->bucketsBefore[r + 1] = nb;
  return 1;
}

/* The buckets of range r (docA, docB, end) from its place on. */
static int bucketRange(void *ctx, void *scratch, size_t r) {
  (void)scratch;
  SeedJob *j = ctx;
  size_t nb = j->bucketsBefore[r];
  for (size_t d = j->docAt[r]; d < j->docAt[r + 1]; d++) {
    const size_t s = d ? j->at[d - 1] : 0, e = j->at[d];
    for (size_t i = s; i < e; i++) {
      if (i + 1 == e || docBOf(j, i + 1) != docBOf(j, i)) {
        j->buckets[3 * nb] = (uint32_t)d;
        j->buckets[3 * nb + 1] = docBOf(j, i);
        j->buckets[3 * nb + 2] = (uint32_t)(i + 1);
        nb++;
      }
    }
  }
  return 1;
}

static int onThreads(size_t nRuns, int threads, int (*run)(void *, void *, size_t), void *ctx) {
  const RunWork work = {NULL, run, NULL};
  return forEachRun(nRuns, threads, -1, &work, ctx);
}

/* Cuts [0, total) of `weight` (running ends, n of them) into `parts` ranges of about equal weight: cut[0..parts]. */
static void cutByWeight(const size_t *end, size_t n, size_t parts, size_t *cut) {
  const size_t total = n ? end[n - 1] : 0;
  cut[0] = 0;
  size_t d = 0;
  for (size_t p = 1; p < parts; p++) {
    const size_t want = total / parts * p + (total % parts) * p / parts;
    while (d < n && end[d] <= want) d++;
    cut[p] = d;
  }
  cut[parts] = n;
  for (size_t p = 1; p <= parts; p++)
    if (cut[p] < cut[p - 1]) cut[p] = cut[p - 1];
}

int anchorSeedsOfDocumentsThreaded(const uint32_t *const *hash, const int32_t *const *pos, const uint32_t *count, uint32_t nDocs, const uint32_t *caps, uint32_t nCaps,
                                   uint32_t maxDocs, int threads, SeedResult *res) {
  size_t n = 0;
  for (uint32_t d = 0; d < nDocs; d++) n += count[d];
  if (threads < 2 || n < THREADED_MIN_ANCHORS) return anchorSeedsOfDocuments(hash, pos, count, nDocs, caps, nCaps, maxDocs, res);
  if (threads > BUCKET_MAX_THREADS) threads = BUCKET_MAX_THREADS;
  memset(res, 0, sizeof *res);
  const AnchorSource src = {NULL, NULL, NULL, hash, pos, count, nDocs};
  const size_t slots = nCaps ? nCaps : 1, nChunks = (size_t)threads * RUNS_PER_THREAD;
  SeedJob j;
  memset(&j, 0, sizeof j);
  j.caps = caps;
  j.nDocs = nCaps;
  j.maxDocs = maxDocs;
  j.minCap = UINT32_MAX;
  for (uint32_t d = 0; d < nCaps; d++)
    if (caps[d] < j.minCap) j.minCap = caps[d];
  res->frequentOver = j.minCap;
  /* The anchors by hash: scattered by the top 16 bits here, the parts sorted on the threads. */
  const int top = 16;
  j.low = 32 - top;
  const size_t parts = (size_t)1 << top;
  size_t *partEnd = calloc(parts + 1, sizeof(size_t));
  Anchor *anchors = malloc(n * sizeof(Anchor));
  j.chunks = calloc(nChunks, sizeof(Chunk));
  size_t *cuts = malloc((nChunks + 1) * sizeof(size_t));
  int ok = partEnd && anchors && j.chunks && cuts;
  hugePagesHint(anchors, n * sizeof(Anchor)); /* written whole by scatterParts */
  /* The scatter: runs of documents of about equal anchors, each counted and written on some
   * thread, run after run within each part (the documents' order, as seeds.c's one pass). */
  size_t *docEnd = ok ? malloc((nDocs ? nDocs : 1) * sizeof(size_t)) : NULL;
  size_t *docFrom = ok ? malloc((nChunks + 1) * sizeof(size_t)) : NULL;
  uint32_t **partCount = ok ? calloc(nChunks, sizeof(uint32_t *)) : NULL;
  ok = ok && docEnd && docFrom && partCount;
  for (size_t r = 0; ok && r < nChunks; r++) ok = (partCount[r] = calloc(parts, sizeof(uint32_t))) != NULL;
  if (ok) {
    for (uint32_t d = 0, sum = 0; d < nDocs; d++) docEnd[d] = sum += count[d];
    cutByWeight(docEnd, nDocs, nChunks, docFrom);
    j.src = &src;
    j.docFrom = docFrom;
    j.partCount = partCount;
    j.sorted = anchors;
    ok = onThreads(nChunks, threads, countParts, &j) > 0;
  }
  if (ok) {
    /* partEnd[d]: the end of part d; partCount[r][d]: where run r writes its first of part d. */
    size_t sum = 0;
    for (size_t d = 0; d < parts; d++) {
      for (size_t r = 0; r < nChunks; r++) {
        const uint32_t k = partCount[r][d];
        partCount[r][d] = (uint32_t)sum;
        sum += k;
      }
      partEnd[d] = sum;
    }
    ok = onThreads(nChunks, threads, scatterParts, &j) > 0;
  }
  for (size_t r = 0; partCount && r < nChunks; r++) free(partCount[r]);
  free(partCount);
  free(docFrom);
  free(docEnd);
  if (ok) ok = (j.partAt = malloc((nChunks + 1) * sizeof(size_t))) != NULL;
  if (ok) {
    cutByWeight(partEnd, parts, nChunks, j.partAt);
    j.partEnd = partEnd;
    ok = onThreads(nChunks, threads, sortParts, &j) > 0;
  }
  /* Chunks of about equal anchors, each starting at a hash's first posting. */
  j.anchors = anchors;
  for (size_t c = 0; ok && c <= nChunks; c++) {
    size_t at = c == nChunks ? n : n / nChunks * c;
    while (at > 0 && at < n && anchors[at].hash == anchors[at - 1].hash) at++;
    cuts[c] = c ? (at < cuts[c - 1] ? cuts[c - 1] : at) : 0;
  }
  for (size_t c = 0; ok && c < nChunks; c++) {
    j.chunks[c].s = cuts[c];
    j.chunks[c].e = cuts[c + 1];
    ok = (j.chunks[c].at = calloc(slots, sizeof(size_t))) != NULL;
  }
  if (ok) ok = onThreads(nChunks, threads, countChunk, &j) > 0;
  /* Where each chunk writes each docA's seeds: the chunks in order within each docA's slice. */
  size_t ns = 0;
  uint32_t maxPos = 0;
  size_t *at = ok ? malloc(slots * sizeof(size_t)) : NULL;
  ok = ok && at;
  for (size_t d = 0; ok && d < slots; d++) {
    for (size_t c = 0; c < nChunks; c++) {
      const size_t k = j.chunks[c].at[d];
      j.chunks[c].at[d] = ns;
      ns += k;
    }
    at[d] = ns;
  }
  for (size_t c = 0; ok && c < nChunks; c++) {
    if (j.chunks[c].maxPos > maxPos) maxPos = j.chunks[c].maxPos;
    res->dropped += j.chunks[c].dropped;
    res->nFrequent += j.chunks[c].nFrequent;
  }
  if (ok && res->nFrequent) {
    ok = (res->frequent = malloc(2 * res->nFrequent * sizeof(uint32_t))) != NULL;
    for (size_t c = 0, f = 0; ok && c < nChunks; f += 2 * j.chunks[c].nFrequent, c++)
      if (j.chunks[c].nFrequent) memcpy(res->frequent + f, j.chunks[c].frequent, 2 * j.chunks[c].nFrequent * sizeof(uint32_t));
  }
  const int posBits = bitsOf(maxPos);
  j.posBits = posBits;
  j.keyBits = bitsOf(nCaps ? nCaps - 1 : 0) + 2 * posBits;
  j.packed = j.keyBits < 64;
  if (ok) {
    if (j.packed) ok = (j.keys = malloc((ns ? ns : 1) * sizeof(uint64_t))) != NULL;
    else ok = (j.wide = malloc((ns ? ns : 1) * sizeof(Seed))) != NULL;
    hugePagesHint(j.packed ? (void *)j.keys : (void *)j.wide, ns * (j.packed ? sizeof(uint64_t) : sizeof(Seed))); /* written whole by writeChunk */
  }
  if (ok) ok = onThreads(nChunks, threads, writeChunk, &j) > 0;
  /* The pairs go into the anchors' memory when it holds them (as seeds.c). */
  const int inAnchors = ok && ns && ns * 2 * sizeof(int32_t) <= n * sizeof(Anchor);
  if (inAnchors) {
    j.pairs = (int32_t *)anchors;
    anchors = NULL;
  } else if (ok) {
    ok = (j.pairs = malloc((ns ? ns : 1) * 2 * sizeof(int32_t))) != NULL;
  }
  j.at = at;
  j.docAt = ok ? malloc((nChunks + 1) * sizeof(size_t)) : NULL;
  j.bucketsBefore = ok ? calloc(nChunks + 1, sizeof(size_t)) : NULL;
  ok = ok && j.docAt && j.bucketsBefore;
  if (ok) {
    cutByWeight(at, slots, nChunks, j.docAt);
    ok = onThreads(nChunks, threads, sortRange, &j) > 0;
  }
  size_t nb = 0;
  for (size_t r = 0; ok && r < nChunks; r++) {
    const size_t k = j.bucketsBefore[r + 1];
    j.bucketsBefore[r] = nb;
    nb += k;
  }
  if (ok) ok = (j.buckets = malloc((nb ? 3 * nb : 3) * sizeof(uint32_t))) != NULL;
  if (ok && nb) ok = onThreads(nChunks, threads, bucketRange, &j) > 0;
  for (size_t c = 0; j.chunks && c < nChunks; c++) {
    free(j.chunks[c].at);
    free(j.chunks[c].runs);
    free(j.chunks[c].frequent);
  }
  free(j.chunks);
  free(cuts);
  free(partEnd);
  free(j.partAt);
  free(anchors);
  free(at);
  free(j.keys);
  free(j.wide);
  free(j.docAt);
  free(j.bucketsBefore);
  if (!ok) {
    free(j.pairs); /* (the anchors' memory when it holds them: `anchors` is NULL then) */
    free(j.buckets);
    free(res->frequent);
    memset(res, 0, sizeof *res);
    return -1;
  }
  res->pairs = inAnchors ? fittedBlock(j.pairs, ns * 2 * sizeof(int32_t)) : j.pairs; /* the anchors' tail given back */
  res->buckets = j.buckets;
  res->seeds = ns;
  res->nBuckets = nb;
  return 1;
}
