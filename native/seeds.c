/*
 * The seeds of the region finder's anchor index in C: AnchorIndex.seeds of
 * src/core/regions/anchorIndex.ts (read it for the why) without its rescue of over-cap hashes.
 * Anchors are grouped by hash (stable: insertion order within a hash), each hash with 2 … cap
 * postings gives every two of its postings as a seed of their pair of documents, and the seeds
 * come out sorted by (docA, docB, a, b) and cut into one bucket per pair of documents: exactly the
 * buckets the TypeScript gives (checked by test/unit/node/workers/nativeRegions.test.ts).
 * The output is fully determined by that order, so the sorts here need not be the TypeScript's:
 * anchors — flat arrays, or read in each document's own (anchorSeedsOfDocuments, no copy) — are
 * split by their hash's top bits (one scatter) and each small part sorted in cache;
 * seeds are counted per docA first, then written straight into their docA's slice as one 64-bit
 * key (docB, a, b) and each slice sorted in cache (Seed structs and qsort when the key is wider).
 * Both sorts are one radix sort (RADIX_SORT) over their element type and key.
 */
#include "seeds.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "seedsparts.h"

static int seedsOf(const AnchorSource *src, size_t n, const uint32_t *caps, uint32_t nDocs, uint32_t maxDocs, SeedResult *res) {
  memset(res, 0, sizeof *res);
  const size_t slots = nDocs ? nDocs : 1;
  Anchor *anchors = sortAnchors(src, n);
  uint32_t *stamp = calloc(slots, sizeof(uint32_t));
  size_t *at = calloc(slots + 1, sizeof(size_t)); /* seeds per docA, then where each docA's slice ends */
  uint32_t *runs = NULL;                          /* start, end of every hash kept */
  size_t runCap = 0, nRuns = 0, ns = 0;
  uint64_t *keys = NULL, *tmp = NULL;
  Seed *wide = NULL;
  uint32_t maxPos = 0;
  int ok = anchors && stamp && at;
  /* The smallest cap: hashes in more documents than it are listed with their count (res->frequent). */
  uint32_t minCap = UINT32_MAX;
  for (uint32_t d = 0; d < nDocs; d++)
    if (caps[d] < minCap) minCap = caps[d];
  res->frequentOver = minCap;
  size_t frequentCap = 0;
  /* Pass 1: the hashes kept and how many seeds each docA gets. */
  uint32_t run = 0;
  for (size_t s = 0; ok && s < n;) {
    size_t e = s + 1;
    while (e < n && anchors[e].hash == anchors[s].hash) e++;
    const size_t postings = e - s;
    const uint32_t d0 = anchors[s].doc, cap = d0 < nDocs ? caps[d0] : 0;
    uint32_t distinct = 0;
    if (runWantsDistinct(postings, cap, maxDocs, minCap)) {
      /* Distinct documents of the run (a stamp per document, one stamp value per run). */
      run++;
      for (size_t i = s; i < e; i++) {
        const uint32_t d = anchors[i].doc;
        if (d < nDocs && stamp[d] != run) {
          stamp[d] = run;
          distinct++;
        }
      }
      if (distinct > minCap) {
        if (!growArray((void **)&res->frequent, &frequentCap, 2 * (res->nFrequent + 1), sizeof(uint32_t))) ok = 0;
        else {
          res->frequent[2 * res->nFrequent] = anchors[s].hash;
          res->frequent[2 * res->nFrequent + 1] = distinct;
          res->nFrequent++;
        }
      }
    }
    if (runDropped(postings, cap, maxDocs, distinct)) {
      res->dropped++;
    } else if (postings > 1) {
      if (!growArray((void **)&runs, &runCap, nRuns + 2, sizeof(uint32_t))) ok = 0;
      else {
        runs[nRuns++] = (uint32_t)s;
        runs[nRuns++] = (uint32_t)e;
        for (size_t i = s; i < e; i++)
          if (anchors[i].pos > maxPos) maxPos = anchors[i].pos;
        EACH_SEED((at[da + 1]++, ns++))
      }
    }
    s = e;
  }
  /* Pass 2: each seed straight into its docA's slice, as a key (docB, a, b) when 63 bits hold it. */
  const int posBits = bitsOf(maxPos), keyBits = bitsOf(nDocs ? nDocs - 1 : 0) + 2 * posBits;
  const int packed = keyBits < 64; /* (and so every shift below under 64) */
  if (ok) {
    for (size_t d = 0; d < slots; d++) at[d + 1] += at[d];
    if (packed) ok = (keys = malloc((ns ? ns : 1) * sizeof(uint64_t))) != NULL;
    else ok = (wide = malloc((ns ? ns : 1) * sizeof(Seed))) != NULL;
    hugePagesHint(packed ? (void *)keys : (void *)wide, ns * (packed ? sizeof(uint64_t) : sizeof(Seed))); /* written whole below */
  }
  for (size_t r = 0; ok && r < nRuns; r += 2) {
    const size_t s = runs[r], e = runs[r + 1];
    if (packed) {
      EACH_SEED((keys[at[da]++] = ((uint64_t)db << 2 * posBits) | ((uint64_t)pa << posBits) | pb))
    } else {
      EACH_SEED((wide[at[da]].docB = db, wide[at[da]].a = pa, wide[at[da]++].b = pb))
    }
  }
  /* at[d] is now the end of docA d's slice: sort each, cut it per docB. */
  size_t bucketCap = 0, nb = 0, longest = 0;
  for (size_t d = 0, s = 0; ok && d < slots; s = at[d++])
    if (at[d] - s > longest) longest = at[d] - s;
  if (ok && packed && longest > INSERTION) ok = (tmp = malloc(longest * sizeof(uint64_t))) != NULL;
  /* The pairs go into the anchors' memory when it holds them (read no more; fewer fresh pages). */
  const int inAnchors = ok && ns && ns * 2 * sizeof(int32_t) <= n * sizeof(Anchor);
  if (inAnchors) {
    res->pairs = (int32_t *)anchors;
    anchors = NULL;
  } else if (ok) {
    ok = (res->pairs = malloc((ns ? ns : 1) * 2 * sizeof(int32_t))) != NULL;
  }
  const uint64_t posMask = posBits ? (((uint64_t)1 << posBits) - 1) : 0;
  for (size_t d = 0, s = 0; ok && d < slots; s = at[d++]) {
    const size_t e = at[d];
    if (packed) sortKeys(keys + s, tmp, e - s, keyBits);
    else qsort(wide + s, e - s, sizeof(Seed), compareSeeds);
    for (size_t i = s; i < e; i++) {
      uint32_t db, a, b;
      if (packed) {
        db = (uint32_t)(keys[i] >> 2 * posBits);
        a = (uint32_t)((keys[i] >> posBits) & posMask);
        b = (uint32_t)(keys[i] & posMask);
      } else {
        db = wide[i].docB;
        a = wide[i].a;
        b = wide[i].b;
      }
      res->pairs[2 * i] = (int32_t)a;
      res->pairs[2 * i + 1] = (int32_t)b;
      const int last = i + 1 == e || (packed ? (uint32_t)(keys[i + 1] >> 2 * posBits) : wide[i + 1].docB) != db;
      if (last) {
        if (!growArray((void **)&res->buckets, &bucketCap, 3 * (nb + 1), sizeof(uint32_t))) {
          ok = 0;
          break;
        }
        res->buckets[3 * nb] = (uint32_t)d;
        res->buckets[3 * nb + 1] = db;
        res->buckets[3 * nb + 2] = (uint32_t)(i + 1);
        nb++;
      }
    }
  }
  free(anchors);
  free(stamp);
  free(at);
  free(runs);
  free(keys);
  free(tmp);
  free(wide);
  if (ok && !res->buckets) ok = (res->buckets = malloc(3 * sizeof(uint32_t))) != NULL;
  if (ok && inAnchors) res->pairs = fittedBlock(res->pairs, ns * 2 * sizeof(int32_t)); /* the anchors' tail given back */
  if (!ok) {
    free(res->pairs);
    free(res->buckets);
    free(res->frequent);
    memset(res, 0, sizeof *res);
    return -1;
  }
  res->seeds = ns;
  res->nBuckets = nb;
  return 1;
}

int anchorSeeds(const uint32_t *hash, const uint32_t *doc, const uint32_t *pos, size_t n, const uint32_t *caps, uint32_t nDocs, uint32_t maxDocs,
                SeedResult *res) {
  const AnchorSource src = {hash, doc, pos, NULL, NULL, NULL, 0};
  return seedsOf(&src, n, caps, nDocs, maxDocs, res);
}

int anchorSeedsOfDocuments(const uint32_t *const *hash, const int32_t *const *pos, const uint32_t *count, uint32_t nDocs, const uint32_t *caps, uint32_t nCaps,
                           uint32_t maxDocs, SeedResult *res) {
  size_t n = 0;
  for (uint32_t d = 0; d < nDocs; d++) n += count[d];
  const AnchorSource src = {NULL, NULL, NULL, hash, pos, count, nDocs};
  return seedsOf(&src, n, caps, nCaps, maxDocs, res);
}
