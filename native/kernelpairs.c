/*
 * The Node-API bindings of the all-pairs search (allpairs.c, its threads allpairsthreads.c) for
 * kernel.c's module table:
 *   allPairs(fp: Uint32Array, k, maxCandidates, threads?) -> { a, b, distance } or null: every
 *               pair within distance k, its tables on `threads` threads, this one included
 *   allPairsVetted(fp, k, maxCandidates, threads, sketches, offsets, sketchSize, minSimilarity,
 *               docOf, startOf, endOf: Int32Array, copyOf: Int32Array | null) -> the same, only
 *               the candidates matchSectionItems would keep (AllPairsVet of allpairs.h), in the
 *               same order; still null past maxCandidates candidates. The sketches: one
 *               Uint32Array, item i's at [offsets[i], offsets[i + 1]) (n + 1 offsets), or the
 *               views they lie in (Uint32Array[], e.g. a scan's batches: nothing copied), item
 *               i's at offsets[3i + 1] of view offsets[3i], offsets[3i + 2] values (3n offsets).
 *               An optional 13th argument, skipPairs: Int32Array of (docA, docB) pairs (or
 *               null): candidates of two such documents are left out too (a report's files
 *               already paired), still counted against maxCandidates
 *   sortPairs(a: Uint32Array, b: Uint32Array, distance: Uint8Array, n) -> boolean: the pairs
 *               sorted in place by distance, then a, then b (allPairsOrder); false: not sorted
 *   keepOutermostPairs(a: Uint32Array, b: Uint32Array, docOf, startOf, endOf: Int32Array) ->
 *               Uint8Array: 1 for each section pair no wider pair of its two documents holds
 *               (nestedPairsKeep, dropnested.c)
 */
#include <stdlib.h>

#include "allpairs.h"
#include "kernelglue.h"

/* { a, b, distance } of a search's result (its arrays freed here), null when over its cap (status 0). */
static napi_value pairsResult(napi_env env, int status, AllPairsResult *r) {
  if (status < 0) return throwError(env, "out of memory");
  napi_value result;
  if (status == 0) {
    CALL(napi_get_null(env, &result));
    return result;
  }
  napi_value a, b, d;
  const size_t n = r->length;
  const int ok = copiedArray(env, napi_uint32_array, r->a, n, 4, &a) && copiedArray(env, napi_uint32_array, r->b, n, 4, &b) && copiedArray(env, napi_uint8_array, r->distance, n, 1, &d);
  free(r->a);
  free(r->b);
  free(r->distance);
  if (!ok) return throwError(env, "out of memory");
  CALL(napi_create_object(env, &result));
  CALL(napi_set_named_property(env, result, "a", a));
  CALL(napi_set_named_property(env, result, "b", b));
  CALL(napi_set_named_property(env, result, "distance", d));
  return result;
}

/* The arguments both bindings begin with: fp, k, maxCandidates, threads (argv[3] optional). */
static int searchArgs(napi_env env, size_t argc, napi_value *argv, const uint32_t **fp, uint32_t *n, int32_t *k, size_t *maxCandidates, int32_t *threads) {
  void *data;
  size_t len;
  if (argc < 3) return throwError(env, "allPairs(fp, k, maxCandidates)"), 0;
  if (!typedArray(env, argv[0], napi_uint32_array, &data, &len) || len % 2 != 0) return throwError(env, "fp: Uint32Array of (hi, lo) pairs"), 0;
  double max;
  if (napi_get_value_int32(env, argv[1], k) != napi_ok || napi_get_value_double(env, argv[2], &max) != napi_ok) return throwError(env, "napi call failed"), 0;
  if (*k < 0 || *k > 63 || !(max >= 0)) return throwError(env, "bad k or maxCandidates"), 0;
  *threads = 1;
  napi_valuetype type = napi_undefined;
  if (argc >= 4 && napi_typeof(env, argv[3], &type) != napi_ok) return throwError(env, "napi call failed"), 0;
  if (type == napi_number && napi_get_value_int32(env, argv[3], threads) != napi_ok) return throwError(env, "napi call failed"), 0;
  *fp = data;
  *n = (uint32_t)(len / 2);
  *maxCandidates = max > 1e12 ? (size_t)1e12 : (size_t)max;
  return 1;
}

/* An Int32Array argument of at least `min` elements. */
static int int32s(napi_env env, napi_value v, size_t min, const int32_t **out) {
  void *data;
  size_t len;
  if (!typedArray(env, v, napi_int32_array, &data, &len) || len < min) return 0;
  *out = data;
  return 1;
}

/*
 * Item i's sketch (a pointer and a length into *ptr, *len: malloc'ed, the caller frees both) of
 * allPairsVetted's sketches and offsets, in either form; 0 with an exception thrown.
 */
static int sketchesArg(napi_env env, napi_value sketches, napi_value offsetsArg, uint32_t n, const uint32_t ***ptr, uint32_t **len) {
  void *off;
  size_t nOff;
  if (!typedArray(env, offsetsArg, napi_uint32_array, &off, &nOff)) return throwError(env, "offsets: Uint32Array"), 0;
  const uint32_t *offsets = off;
  bool isArray = false;
  if (napi_is_array(env, sketches, &isArray) != napi_ok) return throwError(env, "napi call failed"), 0;
  uint32_t views = 0;
  const uint32_t **base = NULL;
  size_t *size = NULL;
  void *flat = NULL;
  size_t nFlat = 0;
  if (isArray) {
    if (nOff != (size_t)n * 3) return throwError(env, "offsets: three per item (view, offset, length) with sketches as views"), 0;
    if (napi_get_array_length(env, sketches, &views) != napi_ok) return throwError(env, "napi call failed"), 0;
    base = malloc((views ? views : 1) * sizeof *base);
    size = malloc((views ? views : 1) * sizeof *size);
    if (!base || !size) return free(base), free(size), throwError(env, "out of memory"), 0;
    for (uint32_t j = 0; j < views; j++) {
      napi_value view;
      void *data;
      if (napi_get_element(env, sketches, j, &view) != napi_ok || !typedArray(env, view, napi_uint32_array, &data, &size[j]))
        return free(base), free(size), throwError(env, "sketches: Uint32Array views"), 0;
      base[j] = data;
    }
  } else {
    if (!typedArray(env, sketches, napi_uint32_array, &flat, &nFlat)) return throwError(env, "sketches: a Uint32Array, or an array of Uint32Array views"), 0;
    if (nOff != (size_t)n + 1) return throwError(env, "offsets: one more than the items"), 0;
  }
  const uint32_t **p = malloc((n ? n : 1) * sizeof *p);
  uint32_t *l = malloc((n ? n : 1) * sizeof *l);
  const char *bad = p && l ? NULL : "out of memory";
  for (uint32_t i = 0; i < n && !bad; i++) {
    if (isArray) {
      const uint32_t j = offsets[3 * i], at = offsets[3 * i + 1], count = offsets[3 * i + 2];
      if (j >= views) bad = "offsets: a view past the sketches";
      else if ((uint64_t)at + count > size[j]) bad = "offsets: past the end of its view";
      else p[i] = base[j] + at, l[i] = count;
    } else {
      if (offsets[i] > offsets[i + 1]) bad = "offsets: not ascending";
      else if (offsets[i + 1] > nFlat) bad = "offsets: past the sketches";
      else p[i] = (const uint32_t *)flat + offsets[i], l[i] = offsets[i + 1] - offsets[i];
    }
  }
  free(base);
  free(size);
  if (bad) return free(p), free(l), throwError(env, bad), 0;
  *ptr = p;
  *len = l;
  return 1;
}

/*
 * allPairsVetted's skipPairs (argument `v`: (docA, docB) pairs, or null / undefined) as vet's
 * paired set (*set malloc'ed, the caller frees it; NULL with none); 0 with an exception thrown.
 */
static int pairedArg(napi_env env, napi_value v, AllPairsVet *vet, uint64_t **set) {
  *set = NULL;
  vet->paired = NULL;
  vet->pairedMask = 0;
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) return throwError(env, "napi call failed"), 0;
  if (t == napi_null || t == napi_undefined) return 1;
  void *data;
  size_t len;
  if (!typedArray(env, v, napi_int32_array, &data, &len) || len % 2 != 0) return throwError(env, "skipPairs: Int32Array of (docA, docB) pairs"), 0;
  if (len == 0) return 1;
  const int32_t *docs = data;
  size_t slots = 16;
  while (slots < len * 2) slots *= 2; /* at most a quarter full: len / 2 pairs */
  uint64_t *table = calloc(slots, sizeof *table);
  if (!table) return throwError(env, "out of memory"), 0;
  vet->paired = table;
  vet->pairedMask = slots - 1;
  for (size_t p = 0; p < len; p += 2) {
    int32_t a = docs[p], b = docs[p + 1];
    if (a < 0 || b < 0 || a == b) return free(table), vet->paired = NULL, throwError(env, "skipPairs: two different documents, not negative"), 0;
    if (a > b) {
      const int32_t x = a;
      a = b;
      b = x;
    }
    const uint64_t key = (uint64_t)a << 32 | (uint32_t)b;
    table[allPairsPairedSlot(table, vet->pairedMask, key)] = key; /* (a pair given twice: the same slot) */
  }
  *set = table;
  return 1;
}

/* allPairs, or with `vetted` allPairsVetted: the search of the arguments. */
static napi_value search(napi_env env, napi_callback_info info, int vetted) {
  size_t argc = 13;
  napi_value argv[13];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const uint32_t *fp;
  uint32_t n;
  int32_t k, threads;
  size_t max;
  if (vetted && argc < 12) return throwError(env, "allPairsVetted(fp, k, maxCandidates, threads, sketches, offsets, sketchSize, minSimilarity, docOf, startOf, endOf, copyOf)");
  if (!searchArgs(env, argc, argv, &fp, &n, &k, &max, &threads)) return NULL;
  AllPairsResult r;
  if (!vetted) return pairsResult(env, allPairsThreaded(fp, n, k, max, threads, NULL, &r), &r);
  AllPairsVet vet;
  int32_t size;
  CALL(napi_get_value_int32(env, argv[6], &size));
  CALL(napi_get_value_double(env, argv[7], &vet.minSimilarity));
  if (size < 1) return throwError(env, "sketchSize: at least 1");
  const int32_t *docOf, *startOf, *endOf, *copyOf = NULL;
  if (!int32s(env, argv[8], n, &docOf) || !int32s(env, argv[9], n, &startOf) || !int32s(env, argv[10], n, &endOf)) return throwError(env, "docOf, startOf, endOf: Int32Array, one per item");
  napi_valuetype t;
  CALL(napi_typeof(env, argv[11], &t));
  if (t != napi_null && t != napi_undefined) {
    int32_t docs = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (docOf[i] < 0) return throwError(env, "docOf: a negative document");
      if (docOf[i] + 1 > docs) docs = docOf[i] + 1;
    }
    if (!int32s(env, argv[11], (size_t)docs, &copyOf)) return throwError(env, "copyOf: Int32Array, one per document, or null");
  }
  uint64_t *paired = NULL;
  if (argc >= 13 && !pairedArg(env, argv[12], &vet, &paired)) return NULL;
  if (argc < 13) vet.paired = NULL, vet.pairedMask = 0;
  const uint32_t **sketchOf;
  uint32_t *sketchLen;
  if (!sketchesArg(env, argv[4], argv[5], n, &sketchOf, &sketchLen)) return free(paired), NULL;
  vet.sketchOf = sketchOf;
  vet.sketchLen = sketchLen;
  vet.size = (uint32_t)size;
  vet.docOf = docOf;
  vet.startOf = startOf;
  vet.endOf = endOf;
  vet.copyOf = copyOf;
  const int status = allPairsThreaded(fp, n, k, max, threads, &vet, &r);
  free(sketchOf);
  free(sketchLen);
  free(paired);
  return pairsResult(env, status, &r);
}

napi_value jsAllPairs(napi_env env, napi_callback_info info) { return search(env, info, 0); }

napi_value jsAllPairsVetted(napi_env env, napi_callback_info info) { return search(env, info, 1); }

napi_value jsSortPairs(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *a, *b, *d;
  size_t na, nb, nd;
  double n;
  if (argc < 4 || !typedArray(env, argv[0], napi_uint32_array, &a, &na) || !typedArray(env, argv[1], napi_uint32_array, &b, &nb) ||
      !typedArray(env, argv[2], napi_uint8_array, &d, &nd) || na != nb || na != nd || napi_get_value_double(env, argv[3], &n) != napi_ok || !(n >= 0))
    return throwError(env, "sortPairs(a: Uint32Array, b: Uint32Array, distance: Uint8Array of one length, n)");
  const uint32_t *pa = a, *pb = b;
  for (size_t i = 0; i < na; i++)
    if (pa[i] >= n || pb[i] >= n) return throwError(env, "sortPairs: an item not below n");
  napi_value result;
  CALL(napi_get_boolean(env, n < 268435456.0 && allPairsOrder(a, b, d, na, (uint32_t)n) == 1, &result));
  return result;
}

napi_value jsKeepOutermostPairs(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  static const char USAGE[] = "keepOutermostPairs(a: Uint32Array, b: Uint32Array of one length, docOf, startOf, endOf: Int32Array of one length)";
  void *a, *b, *doc, *start, *end;
  size_t na, nb, nd, ns, ne;
  if (argc < 5 || !typedArray(env, argv[0], napi_uint32_array, &a, &na) || !typedArray(env, argv[1], napi_uint32_array, &b, &nb) ||
      !typedArray(env, argv[2], napi_int32_array, &doc, &nd) || !typedArray(env, argv[3], napi_int32_array, &start, &ns) ||
      !typedArray(env, argv[4], napi_int32_array, &end, &ne) || na != nb || nd != ns || nd != ne)
    return throwError(env, USAGE);
  const uint32_t *pa = a, *pb = b;
  const int32_t *pd = doc;
  for (size_t i = 0; i < na; i++)
    if (pa[i] >= nd || pb[i] >= nd || pa[i] == pb[i]) return throwError(env, "keepOutermostPairs: a pair of an item not below the items' count, or of one item");
  for (size_t i = 0; i < nd; i++)
    if (pd[i] < 0) return throwError(env, "keepOutermostPairs: a negative document");
  napi_value buffer, result;
  void *keep;
  CALL(napi_create_arraybuffer(env, na ? na : 1, &keep, &buffer));
  if (nestedPairsKeep(a, b, na, doc, start, end, nd, keep) < 0) return throwError(env, "out of memory");
  CALL(napi_create_typedarray(env, napi_uint8_array, na, buffer, 0, &result));
  return result;
}
