/*
 * NearDup's native fingerprinting kernel: the Node-API glue of the C kernel (native/fingerprint.c,
 * tokenize.c, simhash.c: the code tokeniser, shingle numbering, SimHash and bottom-k sketches of
 * src/core/text/tokenize.ts and src/core/fingerprint/simhash.ts; wasm.c puts the same functions behind WebAssembly exports).
 *
 * It computes exactly what the TypeScript does (the output is compared over the benchmark
 * corpora and in the unit tests); the TypeScript stays the reference and the fallback wherever
 * this module is not built. What depends on the JavaScript engine is handed in by JavaScript at
 * start: which non-ASCII UTF-16 units are word characters (a Unicode property regular expression
 * there) and the natural logarithms of small counts (Math.log), so both paths agree bit for bit.
 *
 * Use, per thread (state lives in the module instance, so worker threads do not share it):
 *   init(wordTable: Uint8Array(65536), logTable: Float64Array)
 *   defineLanguage(lineOpeners: string[], blockOpeners: string[], blockClosers: string[],
 *                  singleQuoteStrings: boolean, lineStartOpeners?: string[],
 *                  lineBlockOpeners?: string[], lineBlockClosers?: string[],
 *                  regexLiterals?: boolean) -> language id
 *                  (comments skipped as native/comments.c skips them), or -1
 *   tokenize(text: string, languageId, normalizeIdentifiers: boolean, region?: boolean) -> token
 *               count; with `region`, keeps what region() needs
 *   region(k, w, salt, counts: Int32Array(3)) -> the region document of the last tokenize made
 *               with `region` (native/regiondoc.c) as one new ArrayBuffer (rawHi rawLo start
 *               lineStarts anchorHash anchorPos, isIdent; counts: tokens, lines, anchors; no
 *               anchors with k < 1; a lean document: the normalised stream follows from the raw
 *               one and isIdent)
 *   fingerprint(k, tf: boolean, fileSketch, sectionSketch, minTokens, sections: boolean,
 *               out: Uint32Array) -> words written to out (or -(words needed))
 *   codeSections(text: string, maxDepth, minLines, out: Int32Array) -> section count (or
 *               -(words needed)): codeSections of src/core/sections/codeSections.ts
 *               (native/sections.c), as startLine endLine startOffset endOffset per section
 *   allPairs(fp: Uint32Array, k, maxCandidates, threads?) -> pairs within distance k (native/allpairs.c,
 *               its tables on threads: allpairsthreads.c; binding in kernelpairs.c)
 *   allPairsVetted(…) -> the same, vetted as matchSectionItems does (kernelpairs.c)
 *   sortPairs(a, b, distance, n) -> whether the pairs were sorted in place (kernelpairs.c)
 *   keepOutermostPairs(a, b, docOf, startOf, endOf) -> which section pairs no wider one holds (kernelpairs.c)
 *   anchors(hi, lo, n, k, w, salt, hash, pos) -> the anchors of a token stream (a prose
 *               document's: anchorsOf of src/core/regions/anchors.ts) into hash / pos: their
 *               count, or -(count) when those are too small
 *   tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array) -> the last tokenize's token
 *               hashes and start offsets copied out: their count, or -(count) when too small
 *   anchorSeeds(hash, doc, pos, n, caps, maxDocs) -> the region finder's seeds, bucketed per
 *               pair of documents (native/seeds.c): AnchorIndex.seeds of src/core/regions
 *   alignChain(…) -> a chain of seeds aligned into a region of two documents (native/align.c):
 *               alignChain of src/core/regions/align.ts
 *   regionBuckets(…) -> the regions of many seed buckets in one call (native/buckets.c):
 *               bucketRegions of src/core/regions/regions.ts, on one thread or several (threads.c)
 *   regionBucketsAsync(…) -> the same as a Promise, searched off this thread
 *   regionPlanAsync(…) -> the seeds of the documents' anchors, the identical documents and the
 *               search of their buckets as one Promise, off this thread (native/regionplan.c)
 *   copySearch(…) -> fileCopies' second search: pairs of documents searched again alone, their
 *               seeds, cover bounds and buckets' regions in one call (native/copysearch.c)
 *   simhashTokens(hi, lo, from, to, k, tf, out) -> the SimHash of tokens [from, to) of a stream
 *               (simhash.c): simhashTokens of src/core/fingerprint/simhash.ts, its bits
 *   hugePages() -> { inUse, verdict, hugeMsPerMb, smallMsPerMb }: whether big arrays are marked
 *               for huge pages now, and the verdict of the region documents' trial of both kinds
 *               of page (-1: none yet) with its CPU ms per MB each way (hugepages.c, regionblocks.c)
 *   textShape(bytes: Uint8Array, out: Uint32Array(4)) -> the control characters, line feeds and
 *               longest line of the UTF-8 text of bytes (textshape.c), read in place
 *   proseTokens(text, out: Uint32Array) -> a prose text's words as tokenizeProse reads them
 *               (tokenize.c kernelProseTokens): kind start end hi lo per entry
 *   fingerprintTokens(hi, lo, alt, n, altIsRaw, ranges, rangeCount, k, tf, fileSketch,
 *               sectionSketch, minTokens, out) -> fingerprint's words of tokens made in
 *               TypeScript, the sections as token ranges (fingerprint.c kernelFingerprintTokens)
 * fingerprint works on the tokens of the last tokenize: the whole file, then, with `sections`,
 * each code section of its text (codeSections with its defaults, maxDepth 2 and minLines 3),
 * written to `out` as
 *   file:    hi lo tokens features rawHi rawLo normHi normLo sketchLength sketch…
 *   section: startLine endLine hi lo tokens features rawHi rawLo normHi normLo sketchLength sketch…
 *            (only sections kept; rawHi… normLo: the clone hashes of src/core/fingerprint/cloneHashes.ts)
 * A section is kept when it holds at least minTokens tokens and less than 95 % of the file's.
 * This file holds the module table and the synchronous bindings; regionBuckets, regionBucketsAsync,
 * regionPlanAsync and copySearch are in kernelbuckets.c, allPairs and allPairsVetted in kernelpairs.c, the
 * argument readers they use in kernelglue.h.
 */
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "allpairs.h"
#include "fingerprint.h"
#include "grow.h"
#include "kernelglue.h"
#include "seeds.h"
#include "textshape.h"

/* ------------------------------------------------------------------------------- Node-API */

static void finalizeKernel(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  kernelFree(data);
}


static napi_value jsInit(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || argc < 2) return throwError(env, "init(wordTable, logTable)");
  void *word, *logs;
  size_t wordLen, nLogs;
  if (!typedArray(env, argv[0], napi_uint8_array, &word, &wordLen) || wordLen != 65536) return throwError(env, "wordTable: Uint8Array(65536)");
  if (!typedArray(env, argv[1], napi_float64_array, &logs, &nLogs)) return throwError(env, "logTable: Float64Array");
  if (!kernelInit(K, word, logs, nLogs)) return throwError(env, "out of memory");
  return number(env, 1);
}

/* Reads string element i of a JS array into dst (at most MAX_OPENER_LEN units); 0, or -1 when it cannot. */
static int openerAt(napi_env env, napi_value arr, uint32_t i, Opener *dst) {
  napi_value v;
  size_t len = 0;
  if (napi_get_element(env, arr, i, &v) != napi_ok) return -1;
  if (napi_get_value_string_utf16(env, v, NULL, 0, &len) != napi_ok || len == 0 || len > MAX_OPENER_LEN) return -1;
  char16_t buf[MAX_OPENER_LEN + 1];
  if (napi_get_value_string_utf16(env, v, buf, MAX_OPENER_LEN + 1, &len) != napi_ok) return -1;
  for (size_t j = 0; j < len; j++) dst->s[j] = buf[j];
  dst->len = (int)len;
  return 0;
}

static int arrayLength(napi_env env, napi_value arr, uint32_t *len) {
  bool is = false;
  return napi_is_array(env, arr, &is) == napi_ok && is && napi_get_array_length(env, arr, len) == napi_ok;
}

/* Openers from argv[k] into dst (an absent or undefined argument: none); their count, or -1. */
static int openersOf(napi_env env, size_t argc, napi_value *argv, size_t k, Opener *dst) {
  if (k >= argc) return 0;
  napi_valuetype type;
  if (napi_typeof(env, argv[k], &type) != napi_ok) return -1;
  if (type == napi_undefined) return 0;
  uint32_t n;
  if (!arrayLength(env, argv[k], &n) || n > MAX_OPENERS) return -1;
  for (uint32_t j = 0; j < n; j++)
    if (openerAt(env, argv[k], j, &dst[j]) < 0) return -1;
  return (int)n;
}

/* Argument k when it is there and a boolean, else false. */
static bool optionalBool(napi_env env, size_t argc, const napi_value *argv, size_t k) {
  napi_valuetype t;
  bool v = false;
  return argc > k && napi_typeof(env, argv[k], &t) == napi_ok && t == napi_boolean && napi_get_value_bool(env, argv[k], &v) == napi_ok && v;
}

static napi_value jsDefineLanguage(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || argc < 4) return throwError(env, "defineLanguage(line, open, close, singleQuote, lineStart?, lineBlockOpen?, lineBlockClose?, regex?)");
  Lang L;
  memset(&L, 0, sizeof L);
  L.nLine = openersOf(env, argc, argv, 0, L.line);
  L.nBlock = openersOf(env, argc, argv, 1, L.open);
  const int nClose = openersOf(env, argc, argv, 2, L.close);
  L.nLineStart = openersOf(env, argc, argv, 4, L.lineStart);
  L.nLineBlock = openersOf(env, argc, argv, 5, L.lbOpen);
  const int nLbClose = openersOf(env, argc, argv, 6, L.lbClose);
  if (L.nLine < 0 || L.nBlock < 0 || nClose != L.nBlock || L.nLineStart < 0 || L.nLineBlock < 0 || nLbClose != L.nLineBlock) return number(env, -1);
  bool sq = false;
  CALL(napi_get_value_bool(env, argv[3], &sq));
  L.singleQuote = sq ? 1 : 0;
  L.regex = optionalBool(env, argc, argv, 7) ? 1 : 0;
  return number(env, kernelDefineLanguage(K, &L));
}

/* Copies a string's UTF-16 units into the kernel's text buffer (kernelTextBuffer): their count, or
 * -1 with an exception thrown. */
static int textIntoKernel(napi_env env, napi_value str, Kernel *K) {
  size_t len = 0;
  if (napi_get_value_string_utf16(env, str, NULL, 0, &len) != napi_ok) {
    throwError(env, "napi call failed");
    return -1;
  }
  if (len > 0x7ffffff0u) {
    throwError(env, "text too long");
    return -1;
  }
  uint16_t *text = kernelTextBuffer(K, len);
  if (!text) {
    throwError(env, "out of memory");
    return -1;
  }
  size_t got = 0;
  if (napi_get_value_string_utf16(env, str, (char16_t *)text, len + 1, &got) != napi_ok) {
    throwError(env, "napi call failed");
    return -1;
  }
  return (int)got;
}

static napi_value jsTokenize(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 3) return throwError(env, "tokenize(text, languageId, normalize) before init");
  int32_t langId;
  bool normalize;
  CALL(napi_get_value_int32(env, argv[1], &langId));
  CALL(napi_get_value_bool(env, argv[2], &normalize));
  const bool region = optionalBool(env, argc, argv, 3);
  if (langId < 0 || langId >= K->nLangs) return throwError(env, "unknown language id");
  const int got = textIntoKernel(env, argv[0], K);
  if (got < 0) return NULL;
  const int n = kernelTokenize(K, got, &K->langs[langId], normalize, region);
  if (n < 0) return throwError(env, "out of memory");
  return number(env, n);
}

/* proseTokens(text, out: Uint32Array): kernelProseTokens (tokenize.c) of the text, its entries
 * (kind start end hi lo) into out; their count, or minus it when out is too small. */
static napi_value jsProseTokens(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 2) return throwError(env, "proseTokens(text, out) after init");
  void *out;
  size_t outLen;
  if (!typedArray(env, argv[1], napi_uint32_array, &out, &outLen)) return throwError(env, "out: Uint32Array");
  const int got = textIntoKernel(env, argv[0], K);
  if (got < 0) return NULL;
  return number(env, kernelProseTokens(K, got, out, outLen));
}

static napi_value jsFingerprint(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 7) return throwError(env, "fingerprint(k, tf, fileSketch, sectionSketch, minTokens, sections, out)");
  int32_t k, fileSketch, sectionSketch, minTokens;
  bool tf, withSections;
  CALL(napi_get_value_int32(env, argv[0], &k));
  CALL(napi_get_value_bool(env, argv[1], &tf));
  CALL(napi_get_value_int32(env, argv[2], &fileSketch));
  CALL(napi_get_value_int32(env, argv[3], &sectionSketch));
  CALL(napi_get_value_int32(env, argv[4], &minTokens));
  CALL(napi_get_value_bool(env, argv[5], &withSections));
  void *outData;
  size_t outLen;
  if (!typedArray(env, argv[6], napi_uint32_array, &outData, &outLen)) return throwError(env, "out: Uint32Array");
  double result = 0;
  const int status = kernelFingerprint(K, k, tf, fileSketch, sectionSketch, minTokens, withSections, outData, outLen, &result);
  if (status == -2) return throwError(env, "bad fingerprint arguments");
  if (status < 0) return throwError(env, "out of memory");
  return number(env, result);
}

/* codeSections(text, maxDepth, minLines, out: Int32Array): the sections of `text` as
 * startLine endLine startOffset endOffset quadruples; their count, or -(words needed). */
static napi_value jsCodeSections(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || argc < 4) return throwError(env, "codeSections(text, maxDepth, minLines, out)");
  int32_t maxDepth, minLines;
  CALL(napi_get_value_int32(env, argv[1], &maxDepth));
  CALL(napi_get_value_int32(env, argv[2], &minLines));
  void *outData;
  size_t outLen;
  if (!typedArray(env, argv[3], napi_int32_array, &outData, &outLen)) return throwError(env, "out: Int32Array");
  if (maxDepth < 1 || minLines < 2) return throwError(env, "codeSections: maxDepth >= 1, minLines >= 2");
  size_t len = 0;
  CALL(napi_get_value_string_utf16(env, argv[0], NULL, 0, &len));
  if (len > 0x7ffffff0u) return throwError(env, "text too long");
  uint16_t *text = kernelSectionTextBuffer(K, len);
  if (!text) return throwError(env, "out of memory");
  size_t got = 0;
  CALL(napi_get_value_string_utf16(env, argv[0], (char16_t *)text, len + 1, &got));
  const int count = kernelCodeSections(K, (int)got, maxDepth, minLines);
  if (count < 0) return throwError(env, "out of memory");
  if (outLen < (size_t)count * 4) return number(env, -(double)count * 4);
  int32_t *out = outData;
  for (int r = 0; r < count; r++) {
    const SectionRange *x = &K->sections.ranges[r];
    out[4 * r] = x->startLine;
    out[4 * r + 1] = x->endLine;
    out[4 * r + 2] = x->startOffset;
    out[4 * r + 3] = x->endOffset;
  }
  return number(env, count);
}

/* tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array) -> the last tokenize's tokens
 * (hashes and start offsets) copied into the arrays: their count, or -(count) when an array is
 * too small. */
static napi_value jsTokens(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 3) return throwError(env, "tokens(hi, lo, start) after tokenize");
  void *hi, *lo, *start;
  size_t nHi, nLo, nStart;
  if (!typedArray(env, argv[0], napi_uint32_array, &hi, &nHi) || !typedArray(env, argv[1], napi_uint32_array, &lo, &nLo) ||
      !typedArray(env, argv[2], napi_int32_array, &start, &nStart))
    return throwError(env, "tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array)");
  const size_t n = (size_t)K->ntok;
  if (nHi < n || nLo < n || nStart < n) return number(env, -(double)n);
  if (n) {
    memcpy(hi, K->thi, n * 4);
    memcpy(lo, K->tlo, n * 4);
    memcpy(start, K->tstart, n * 4);
  }
  return number(env, (double)n);
}

/* The region document of the kernel's last kernelRegion as one new ArrayBuffer (kernelRegionWrite's
 * layout) into *ab: 0 when it cannot be made. Also readCodeBatch's (readcode.c). */
int kernelRegionBuffer(napi_env env, const Kernel *K, napi_value *ab) {
  void *data;
  if (napi_create_arraybuffer(env, kernelRegionBytes(K), &data, ab) != napi_ok) return 0;
  kernelRegionWrite(K, data);
  return 1;
}

/* region(k, w, salt, counts: Int32Array(3)) -> the region document of the last tokenize made with
 * `region` (regiondoc.c) as one new ArrayBuffer: rawHi rawLo start (n words each), lineStarts,
 * anchorHash anchorPos (words), then isIdent (n bytes); counts <- n, lines, anchors. No views or
 * object made here (core/regions/document.ts regionBufferDocument makes them where they are read;
 * the normalised stream, which follows from rawHi / rawLo and isIdent, is not copied out). */
static napi_value jsRegion(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 4) return throwError(env, "region(k, w, salt, counts) after tokenize");
  int32_t k, w;
  uint32_t salt;
  CALL(napi_get_value_int32(env, argv[0], &k));
  CALL(napi_get_value_int32(env, argv[1], &w));
  CALL(napi_get_value_uint32(env, argv[2], &salt));
  void *countsData;
  size_t countsLen;
  if (!typedArray(env, argv[3], napi_int32_array, &countsData, &countsLen) || countsLen < 3) return throwError(env, "region: counts: Int32Array(3)");
  const int status = kernelRegion(K, k, w, salt);
  if (status == -2) return throwError(env, "region: the last tokenize was not made with region");
  if (status < 0) return throwError(env, "out of memory");
  napi_value ab;
  if (!kernelRegionBuffer(env, K, &ab)) return throwError(env, "napi call failed");
  int32_t *counts = countsData;
  counts[0] = K->ntok;
  counts[1] = K->nLines;
  counts[2] = K->nAnchors;
  return ab;
}

/* anchors(hi, lo: Uint32Array, n, k, w, salt, hash: Uint32Array, pos: Int32Array) -> the anchors of
 * tokens [0, n) (kernelAnchors of regiondoc.c: anchorsOf of src/core/regions/anchors.ts) written to
 * hash / pos: their count, or -(count) when those are too small (nothing written). */
static napi_value jsAnchors(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  int32_t n, k, w;
  uint32_t salt;
  if (!K || argc < 8 || napi_get_value_int32(env, argv[2], &n) != napi_ok || napi_get_value_int32(env, argv[3], &k) != napi_ok ||
      napi_get_value_int32(env, argv[4], &w) != napi_ok || napi_get_value_uint32(env, argv[5], &salt) != napi_ok)
    return throwError(env, "anchors(hi, lo, n, k, w, salt, hash, pos)");
  const uint32_t *hi, *lo;
  void *hash, *pos;
  size_t hashLen, posLen;
  if (n < 0 || k < 1 || !streamArg(env, argv[0], 0, n, &hi) || !streamArg(env, argv[1], 0, n, &lo) || !typedArray(env, argv[6], napi_uint32_array, &hash, &hashLen) ||
      !typedArray(env, argv[7], napi_int32_array, &pos, &posLen))
    return throwError(env, "anchors: hi, lo: Uint32Array of n tokens; k >= 1; hash: Uint32Array, pos: Int32Array");
  const int m = kernelAnchors(K, hi, lo, n, k, w, salt);
  if (m < 0) return throwError(env, "out of memory");
  if (hashLen < (size_t)m || posLen < (size_t)m) return number(env, -(double)m);
  if (m) {
    memcpy(hash, K->ahash, (size_t)m * 4);
    memcpy(pos, K->apos, (size_t)m * 4);
  }
  return number(env, m);
}

/* anchorSeeds(hash, doc, pos: Uint32Array, n, caps: Uint32Array, maxDocs) -> { pairs: Int32Array,
 * buckets: Uint32Array, dropped, frequent: Uint32Array, frequentOver }: AnchorIndex.seeds of
 * src/core/regions/anchorIndex.ts without rescue (native/seeds.c): the seeds (a, b) sorted by
 * (docA, docB, a, b), and (docA, docB, end) per pair of documents. caps[d]: the postings cap of a
 * hash whose first posting is in d. frequent: hash, documents of every hash in more documents
 * than frequentOver (the smallest cap). */
static napi_value jsAnchorSeeds(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 6) return throwError(env, "anchorSeeds(hash, doc, pos, n, caps, maxDocs)");
  void *h, *d, *p, *c;
  size_t nh, nd, np, nc;
  if (!typedArray(env, argv[0], napi_uint32_array, &h, &nh) || !typedArray(env, argv[1], napi_uint32_array, &d, &nd) ||
      !typedArray(env, argv[2], napi_uint32_array, &p, &np) || !typedArray(env, argv[4], napi_uint32_array, &c, &nc))
    return throwError(env, "anchorSeeds: hash, doc, pos and caps are Uint32Arrays");
  double nv, maxDocsV;
  CALL(napi_get_value_double(env, argv[3], &nv));
  CALL(napi_get_value_double(env, argv[5], &maxDocsV));
  if (!(nv >= 0) || nv > (double)nh || nv > (double)nd || nv > (double)np) return throwError(env, "anchorSeeds: n is over the arrays' length");
  const size_t n = (size_t)nv;
  const uint32_t *docs = d;
  for (size_t i = 0; i < n; i++)
    if (docs[i] >= nc) return throwError(env, "anchorSeeds: a document without a cap");
  const uint32_t maxDocs = maxDocsV >= 4294967295.0 || maxDocsV != maxDocsV ? UINT32_MAX : maxDocsV < 0 ? 0 : (uint32_t)maxDocsV;
  SeedResult r;
  if (anchorSeeds(h, d, p, n, c, (uint32_t)nc, maxDocs, &r) < 0) return throwError(env, "out of memory");
  napi_value result;
  const int ok = napi_create_object(env, &result) == napi_ok && setSeedsFound(env, result, &r); /* (its pairs and buckets handed over: NULL in r) */
  free(r.pairs);
  free(r.buckets);
  free(r.frequent);
  if (!ok) return throwError(env, "out of memory");
  return result;
}


/* alignChain(aRawHi, aRawLo, aIdsHi, aIdsLo, aIsIdent, bRawHi, bRawLo, bIdsHi, bIdsLo, bIsIdent,
 *            aLength, bLength, seeds: Int32Array, params: Float64Array [k coverK margin band
 *            fringeGap minConsistency self], out: Float64Array(13)) -> 1 (out: aStart aEnd bStart
 *            bEnd rawA rawB idsA idsB identPairs consistency renames exact sameShape) or 0 (none):
 *            alignChain of src/core/regions/align.ts (native/align.c). Ids streams and isIdent
 *            may be null (prose). */
static napi_value jsAlignChain(napi_env env, napi_callback_info info) {
  size_t argc = 15;
  napi_value argv[15];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 15) return throwError(env, "alignChain: 15 arguments");
  int32_t aLength, bLength;
  CALL(napi_get_value_int32(env, argv[10], &aLength));
  CALL(napi_get_value_int32(env, argv[11], &bLength));
  if (aLength < 0 || bLength < 0) return throwError(env, "alignChain: lengths");
  RegionDoc A = {{0}}, B = {{0}};
  A.length = aLength;
  B.length = bLength;
  if (!streamArg(env, argv[0], 0, aLength, &A.raw.hi) || !streamArg(env, argv[1], 0, aLength, &A.raw.lo) || !streamArg(env, argv[2], 1, aLength, &A.ids.hi) ||
      !streamArg(env, argv[3], 1, aLength, &A.ids.lo) || !streamArg(env, argv[5], 0, bLength, &B.raw.hi) || !streamArg(env, argv[6], 0, bLength, &B.raw.lo) ||
      !streamArg(env, argv[7], 1, bLength, &B.ids.hi) || !streamArg(env, argv[8], 1, bLength, &B.ids.lo))
    return throwError(env, "alignChain: token streams are Uint32Arrays of the documents' lengths");
  void *data;
  size_t len;
  if (A.ids.hi) {
    if (!A.ids.lo || !typedArray(env, argv[4], napi_uint8_array, &data, &len) || len < (size_t)aLength) return throwError(env, "alignChain: aIsIdent");
    A.isIdent = data;
  }
  if (B.ids.hi) {
    if (!B.ids.lo || !typedArray(env, argv[9], napi_uint8_array, &data, &len) || len < (size_t)bLength) return throwError(env, "alignChain: bIsIdent");
    B.isIdent = data;
  }
  if (!typedArray(env, argv[12], napi_int32_array, &data, &len) || len < 2 || len % 2) return throwError(env, "alignChain: seeds");
  const int32_t *seeds = data;
  const int32_t m = (int32_t)(len / 2);
  for (int32_t i = 0; i < m; i++)
    if (seeds[2 * i] < 0 || seeds[2 * i] >= aLength || seeds[2 * i + 1] < 0 || seeds[2 * i + 1] >= bLength) return throwError(env, "alignChain: a seed is outside its document");
  if (!typedArray(env, argv[13], napi_float64_array, &data, &len) || len < 7) return throwError(env, "alignChain: params");
  const double *pr = data;
  AlignOptions o = {(int32_t)pr[0], (int32_t)pr[1], (int32_t)pr[2], (int32_t)pr[3], (int32_t)pr[4], pr[5]};
  if (o.k < 1 || o.coverK < 1 || o.margin < 0 || o.band < 0 || o.fringeGap < 0) return throwError(env, "alignChain: params out of range");
  const int self = pr[6] != 0;
  if (self && (A.raw.hi != B.raw.hi || aLength != bLength)) return throwError(env, "alignChain: self needs one document");
  if (!typedArray(env, argv[14], napi_float64_array, &data, &len) || len < 13) return throwError(env, "alignChain: out: Float64Array(13)");
  double *out = data;
  AlignResult r;
  const int status = alignChainNative(&A, &B, seeds, m, &o, self, &r);
  if (status < 0) return throwError(env, "out of memory");
  if (status == 0) return number(env, 0);
  const double v[13] = {r.aStart, r.aEnd, r.bStart, r.bEnd, r.rawA, r.rawB, r.idsA, r.idsB, r.identPairs, r.consistency, r.renames, r.exact, r.sameShape};
  memcpy(out, v, sizeof v);
  return number(env, 1);
}

/* simhashTokens(hi, lo: Uint32Array, from, to, k, tf: boolean, out: Uint32Array(2)) -> 1 (out: the
 * SimHash's hi lo) or 0 (no tokens): kernelSimhashTokens of tokens [from, to) (simhash.c). */
static napi_value jsSimhashTokens(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 7) return throwError(env, "simhashTokens(hi, lo, from, to, k, tf, out) after init");
  void *hi, *lo, *out;
  size_t hiLen, loLen, outLen;
  int32_t from, to, k;
  CALL(napi_get_value_int32(env, argv[2], &from));
  CALL(napi_get_value_int32(env, argv[3], &to));
  CALL(napi_get_value_int32(env, argv[4], &k));
  if (!typedArray(env, argv[0], napi_uint32_array, &hi, &hiLen) || !typedArray(env, argv[1], napi_uint32_array, &lo, &loLen) || from < 0 || to > (int64_t)hiLen ||
      to > (int64_t)loLen)
    return throwError(env, "simhashTokens: hi and lo are Uint32Arrays holding tokens [from, to)");
  if (!typedArray(env, argv[6], napi_uint32_array, &out, &outLen) || outLen < 2) return throwError(env, "simhashTokens: out: Uint32Array(2)");
  uint64_t bits = 0;
  const int status = kernelSimhashTokens(K, hi, lo, from, to, k, optionalBool(env, argc, argv, 5), &bits);
  if (status < 0) return throwError(env, "out of memory");
  if (status == 0) return number(env, 0);
  ((uint32_t *)out)[0] = (uint32_t)(bits >> 32);
  ((uint32_t *)out)[1] = (uint32_t)bits;
  return number(env, 1);
}

/* fingerprintTokens(hi, lo, alt, n, altIsRaw, ranges: Int32Array, rangeCount, k, tf, fileSketch,
 * sectionSketch, minTokens, out): kernelFingerprintTokens (fingerprint.c) on the arrays in place;
 * fingerprint's result (the words written, or minus the words needed). */
static napi_value jsFingerprintTokens(napi_env env, napi_callback_info info) {
  size_t argc = 13;
  napi_value argv[13];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 13) return throwError(env, "fingerprintTokens(hi, lo, alt, n, altIsRaw, ranges, rangeCount, k, tf, fileSketch, sectionSketch, minTokens, out) after init");
  void *hi, *lo, *alt, *ranges, *out;
  size_t hiLen, loLen, altLen, rangesLen, outLen;
  int32_t n, rangeCount, k, fileSketch, sectionSketch, minTokens;
  CALL(napi_get_value_int32(env, argv[3], &n));
  CALL(napi_get_value_int32(env, argv[6], &rangeCount));
  CALL(napi_get_value_int32(env, argv[7], &k));
  CALL(napi_get_value_int32(env, argv[9], &fileSketch));
  CALL(napi_get_value_int32(env, argv[10], &sectionSketch));
  CALL(napi_get_value_int32(env, argv[11], &minTokens));
  if (!typedArray(env, argv[0], napi_uint32_array, &hi, &hiLen) || !typedArray(env, argv[1], napi_uint32_array, &lo, &loLen) ||
      !typedArray(env, argv[2], napi_uint32_array, &alt, &altLen) || n < 0 || (size_t)n > hiLen || (size_t)n > loLen || (size_t)n > altLen)
    return throwError(env, "fingerprintTokens: hi, lo and alt are Uint32Arrays holding n tokens");
  if (!typedArray(env, argv[5], napi_int32_array, &ranges, &rangesLen) || rangeCount < 0 || (size_t)rangeCount > rangesLen / 4)
    return throwError(env, "fingerprintTokens: ranges is an Int32Array of rangeCount (from, to, startLine, endLine)");
  if (!typedArray(env, argv[12], napi_uint32_array, &out, &outLen)) return throwError(env, "out: Uint32Array");
  double result = 0;
  const int status = kernelFingerprintTokens(K, hi, lo, alt, n, optionalBool(env, argc, argv, 4), ranges, rangeCount, k, optionalBool(env, argc, argv, 8), fileSketch, sectionSketch,
                                             minTokens, out, outLen, &result);
  if (status == -2) return throwError(env, "bad fingerprintTokens arguments");
  if (status < 0) return throwError(env, "out of memory");
  return number(env, result);
}

/* setFoldTable(table: Uint16Array(65536) | null): the variant fold's table for readCode and
 * readCodeBatch (a copy; null: none, a text with Han to fold is left to the caller). */
static napi_value jsSetFoldTable(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  napi_valuetype t = napi_undefined;
  void *table = NULL;
  size_t n = 0;
  if (!K || argc < 1 || napi_typeof(env, argv[0], &t) != napi_ok || (t != napi_null && (!typedArray(env, argv[0], napi_uint16_array, &table, &n) || n != 65536)))
    return throwError(env, "setFoldTable(table: Uint16Array(65536) | null)");
  if (!kernelSetFoldTable(K, table)) return throwError(env, "out of memory");
  return NULL;
}

/* hugePages(): hugePagesInUse and hugePagesState of grow.h as { inUse, verdict, hugeMsPerMb, smallMsPerMb }. */
static napi_value jsHugePages(napi_env env, napi_callback_info info) {
  (void)info;
  double huge, small;
  const int verdict = hugePagesState(&huge, &small);
  napi_value out, v;
  CALL(napi_create_object(env, &out));
  CALL(napi_get_boolean(env, hugePagesInUse(), &v));
  CALL(napi_set_named_property(env, out, "inUse", v));
  CALL(napi_create_int32(env, verdict, &v));
  CALL(napi_set_named_property(env, out, "verdict", v));
  CALL(napi_create_double(env, huge < 0 ? -1 : huge / 1e6, &v));
  CALL(napi_set_named_property(env, out, "hugeMsPerMb", v));
  CALL(napi_create_double(env, small < 0 ? -1 : small / 1e6, &v));
  CALL(napi_set_named_property(env, out, "smallMsPerMb", v));
  return out;
}

/* textShape(bytes: Uint8Array, out: Uint32Array(4)): textShape of textshape.c on the bytes in place (needs no init). */
static napi_value jsTextShape(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *bytes, *out;
  size_t n, outLen;
  if (argc < 2 || !typedArray(env, argv[0], napi_uint8_array, &bytes, &n) || !typedArray(env, argv[1], napi_uint32_array, &out, &outLen) || outLen < TEXT_SHAPE_WORDS)
    return throwError(env, "textShape(bytes: Uint8Array, out: Uint32Array(4))");
  textShape(bytes, n, out);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value version;
  if (napi_create_int32(env, KERNEL_VERSION, &version) != napi_ok) return NULL;
  Kernel *K = kernelNew();
  if (!K || napi_set_instance_data(env, K, finalizeKernel, NULL) != napi_ok) {
    kernelFree(K);
    napi_throw_error(env, NULL, "neardup kernel: cannot allocate its state");
    return NULL;
  }
  napi_property_descriptor props[] = {
      {"init", NULL, jsInit, NULL, NULL, NULL, napi_default, NULL},
      {"defineLanguage", NULL, jsDefineLanguage, NULL, NULL, NULL, napi_default, NULL},
      {"tokenize", NULL, jsTokenize, NULL, NULL, NULL, napi_default, NULL},
      {"fingerprint", NULL, jsFingerprint, NULL, NULL, NULL, napi_default, NULL},
      {"allPairs", NULL, jsAllPairs, NULL, NULL, NULL, napi_default, NULL},
      {"allPairsVetted", NULL, jsAllPairsVetted, NULL, NULL, NULL, napi_default, NULL},
      {"sortPairs", NULL, jsSortPairs, NULL, NULL, NULL, napi_default, NULL},
      {"keepOutermostPairs", NULL, jsKeepOutermostPairs, NULL, NULL, NULL, napi_default, NULL},
      {"codeSections", NULL, jsCodeSections, NULL, NULL, NULL, napi_default, NULL},
      {"alignChain", NULL, jsAlignChain, NULL, NULL, NULL, napi_default, NULL},
      {"tokens", NULL, jsTokens, NULL, NULL, NULL, napi_default, NULL},
      {"region", NULL, jsRegion, NULL, NULL, NULL, napi_default, NULL},
      {"anchors", NULL, jsAnchors, NULL, NULL, NULL, napi_default, NULL},
      {"anchorSeeds", NULL, jsAnchorSeeds, NULL, NULL, NULL, napi_default, NULL},
      {"regionBuckets", NULL, jsRegionBuckets, NULL, NULL, NULL, napi_default, NULL},
      {"regionBucketsAsync", NULL, jsRegionBucketsAsync, NULL, NULL, NULL, napi_default, NULL},
      {"regionPlanAsync", NULL, jsRegionPlanAsync, NULL, NULL, NULL, napi_default, NULL},
      {"copySearch", NULL, jsCopySearch, NULL, NULL, NULL, napi_default, NULL},
      {"regionGroups", NULL, jsRegionGroups, NULL, NULL, NULL, napi_default, NULL},
#ifndef _WIN32
      {"listDir", NULL, jsListDir, NULL, NULL, NULL, napi_default, NULL},
      {"readCode", NULL, jsReadCode, NULL, NULL, NULL, napi_default, NULL},
      {"readCodeBatch", NULL, jsReadCodeBatch, NULL, NULL, NULL, napi_default, NULL},
      {"readCodeBatchAsync", NULL, jsReadCodeBatchAsync, NULL, NULL, NULL, napi_default, NULL},
      {"releaseBuffer", NULL, jsReleaseBuffer, NULL, NULL, NULL, napi_default, NULL},
#endif
      {"simhashTokens", NULL, jsSimhashTokens, NULL, NULL, NULL, napi_default, NULL},
      {"hugePages", NULL, jsHugePages, NULL, NULL, NULL, napi_default, NULL},
      {"textShape", NULL, jsTextShape, NULL, NULL, NULL, napi_default, NULL},
      {"setFoldTable", NULL, jsSetFoldTable, NULL, NULL, NULL, napi_default, NULL},
      {"fingerprintTokens", NULL, jsFingerprintTokens, NULL, NULL, NULL, napi_default, NULL},
      {"proseTokens", NULL, jsProseTokens, NULL, NULL, NULL, napi_default, NULL},
      {"version", NULL, NULL, NULL, NULL, version, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
