/*
 * NearDup's fingerprinting kernel as a standalone WebAssembly module: the WebAssembly exports of
 * the same C functions the Node-API addon calls (fingerprint.c, tokenize.c, simhash.c, regiondoc.c, sections.c, sectionbraces.c, allpairs.c,
 * seeds.c, align.c, buckets.c, comments.c, textshape.c), built by scripts/build-wasm.js with Debian's clang + lld + wasi-libc into
 * wasm/neardup_kernel.wasm, with no imports. src/core/wasm/wasmKernel.ts instantiates it from its
 * bytes and offers the CodeKernel interface of src/core/types.ts over these exports.
 *
 * JavaScript and the module share its linear memory: JavaScript writes inputs at addresses it got
 * from nd_alloc (or nd_text_buffer), calls, and reads results at the addresses the calls return.
 * Errors are negative results, never traps: -1 out of memory, -2 bad arguments.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "buckets.h"
#include "allpairs.h"
#include "fingerprint.h"
#include "seeds.h"
#include "textshape.h"

#define EXPORT(name) __attribute__((export_name(name)))

static Kernel *K;

EXPORT("nd_version") int ndVersion(void) { return KERNEL_VERSION; }

EXPORT("nd_alloc") void *ndAlloc(size_t n) { return malloc(n ? n : 1); }

EXPORT("nd_free") void ndFree(void *p) { free(p); }

/* init(wordTable, logTable): 1, or 0 out of memory. */
EXPORT("nd_init") int ndInit(const uint8_t *word, const double *logs, size_t nLogs) {
  if (!K && !(K = kernelNew())) return 0;
  return kernelInit(K, word, logs, nLogs);
}

/* Reads `count` openers (length, units…) from *p into dst; the count, or -1. */
static int readOpeners(const uint16_t **p, Opener *dst) {
  const int n = *(*p)++;
  if (n > MAX_OPENERS) return -1;
  for (int j = 0; j < n; j++) {
    const int len = *(*p)++;
    if (len == 0 || len > MAX_OPENER_LEN) return -1;
    for (int i = 0; i < len; i++) dst[j].s[i] = *(*p)++;
    dst[j].len = len;
  }
  return n;
}

/*
 * defineLanguage: spec holds the six opener lists (line, block open, block close, line start,
 * line block open, line block close), each as a count then per opener its length and units. The
 * language id, or -1.
 */
EXPORT("nd_define_language") int ndDefineLanguage(const uint16_t *spec, int quoteAndRegex) {
  if (!K) return -1;
  Lang L;
  memset(&L, 0, sizeof L);
  const uint16_t *p = spec;
  L.nLine = readOpeners(&p, L.line);
  if (L.nLine < 0 || (L.nBlock = readOpeners(&p, L.open)) < 0) return -1;
  const int nClose = readOpeners(&p, L.close);
  if (nClose != L.nBlock || (L.nLineStart = readOpeners(&p, L.lineStart)) < 0 || (L.nLineBlock = readOpeners(&p, L.lbOpen)) < 0) return -1;
  if (readOpeners(&p, L.lbClose) != L.nLineBlock) return -1;
  L.singleQuote = quoteAndRegex & 1;
  L.regex = (quoteAndRegex >> 1) & 1;
  return kernelDefineLanguage(K, &L);
}

/* Where JavaScript writes a text of len UTF-16 units for nd_tokenize, or 0. */
EXPORT("nd_text_buffer") uint16_t *ndTextBuffer(size_t len) { return K ? kernelTextBuffer(K, len) : NULL; }

/* tokenize of the len units written at nd_text_buffer (flags: 1 normalize, 2 region): the token count, -1, or -2. */
EXPORT("nd_tokenize") int ndTokenize(int len, int langId, int flags) {
  if (!K || !K->ready || langId < 0 || langId >= K->nLangs || len < 0 || (size_t)len >= K->textCap) return -2;
  return kernelTokenize(K, len, &K->langs[langId], flags & 1, (flags & 2) != 0);
}

/* kernelRegion (regiondoc.c) of the last tokenize made with region: 0 (the arrays at nd_region_*), -1 or -2. */
EXPORT("nd_region") int ndRegion(int k, int w, uint32_t salt) { return K ? kernelRegion(K, k, w, salt) : -2; }
EXPORT("nd_region_raw_hi") const uint32_t *ndRegionRawHi(void) { return K->rhi; }
EXPORT("nd_region_raw_lo") const uint32_t *ndRegionRawLo(void) { return K->rlo; }
EXPORT("nd_region_is_ident") const uint8_t *ndRegionIsIdent(void) { return K->rident; }
EXPORT("nd_region_line_count") int ndRegionLineCount(void) { return K->nLines; }
EXPORT("nd_region_lines") const int32_t *ndRegionLines(void) { return K->lines; }
EXPORT("nd_region_anchor_count") int ndRegionAnchorCount(void) { return K->nAnchors; }
EXPORT("nd_region_anchor_hash") const uint32_t *ndRegionAnchorHash(void) { return K->ahash; }
EXPORT("nd_region_anchor_pos") const int32_t *ndRegionAnchorPos(void) { return K->apos; }
/* kernelAnchors (regiondoc.c) of the n tokens at hi / lo: their count (at nd_region_anchor_*), -1 or -2. */
EXPORT("nd_anchors") int ndAnchors(const uint32_t *hi, const uint32_t *lo, int n, int k, int w, uint32_t salt) { return K ? kernelAnchors(K, hi, lo, n, k, w, salt) : -2; }

/* fingerprint into out (outLen words): the words written, minus the words needed (≤ -9), -1 or -2. */
EXPORT("nd_fingerprint") double ndFingerprint(int k, int tf, int fileSketch, int sectionSketch, int minTokens, int sections, uint32_t *out, size_t outLen) {
  if (!K || !K->ready) return -2;
  double result = 0;
  const int status = kernelFingerprint(K, k, tf, fileSketch, sectionSketch, minTokens, sections, out, outLen, &result);
  return status < 0 ? status : result;
}

/* kernelProseTokens (tokenize.c) of the len units at nd_text_buffer into out (outLen words): its
 * result, or INT32_MIN (not initialised, or no such text). */
EXPORT("nd_prose_tokens") int ndProseTokens(int len, uint32_t *out, size_t outLen) {
  if (!K || !K->ready || len < 0 || (size_t)len >= K->textCap) return INT32_MIN;
  return kernelProseTokens(K, len, out, outLen);
}

/* kernelFingerprintTokens (fingerprint.c) of the n tokens at hi, lo, alt and the rangeCount ranges
 * (from to startLine endLine) at ranges, into out (outLen words): as nd_fingerprint. */
EXPORT("nd_fingerprint_tokens") double ndFingerprintTokens(const uint32_t *hi, const uint32_t *lo, const uint32_t *alt, int n, int altIsRaw, const int32_t *ranges, int rangeCount, int k,
                                                           int tf, int fileSketch, int sectionSketch, int minTokens, uint32_t *out, size_t outLen) {
  if (!K || !K->ready) return -2;
  double result = 0;
  const int status = kernelFingerprintTokens(K, hi, lo, alt, n, altIsRaw, ranges, rangeCount, k, tf, fileSketch, sectionSketch, minTokens, out, outLen, &result);
  return status < 0 ? status : result;
}

EXPORT("nd_section_text_buffer") uint16_t *ndSectionTextBuffer(size_t len) { return K ? kernelSectionTextBuffer(K, len) : NULL; }

/* codeSections of the len units at nd_section_text_buffer: their count (ranges at nd_sections), -1 or -2. */
EXPORT("nd_code_sections") int ndCodeSections(int len, int maxDepth, int minLines) {
  if (!K || maxDepth < 1 || minLines < 2 || len < 0 || (size_t)len >= K->secTextCap) return -2;
  return kernelCodeSections(K, len, maxDepth, minLines);
}

/* startLine endLine startOffset endOffset per section of the last nd_code_sections. */
EXPORT("nd_sections") const SectionRange *ndSections(void) { return K ? K->sections.ranges : NULL; }

EXPORT("nd_token_count") int ndTokenCount(void) { return K ? K->ntok : 0; }
EXPORT("nd_token_hi") const uint32_t *ndTokenHi(void) { return K ? K->thi : NULL; }
EXPORT("nd_token_lo") const uint32_t *ndTokenLo(void) { return K ? K->tlo : NULL; }
EXPORT("nd_token_start") const int32_t *ndTokenStart(void) { return K ? K->tstart : NULL; }

/* ------------------------------------------------------------------------------- all pairs */

static AllPairsResult pairs;

static void freePairs(void) {
  free(pairs.a);
  free(pairs.b);
  free(pairs.distance);
  memset(&pairs, 0, sizeof pairs);
}

/* allPairs of n fingerprints (hi, lo) at fp: 1 (the pairs at nd_pairs_*), 0 (over maxCandidates), -1 or -2. */
EXPORT("nd_all_pairs") int ndAllPairs(const uint32_t *fp, uint32_t n, int k, double maxCandidates) {
  freePairs();
  if (k < 0 || k > 63 || !(maxCandidates >= 0)) return -2;
  return allPairsSearch(fp, n, k, maxCandidates > 1e12 ? (size_t)1e12 : (size_t)maxCandidates, &pairs);
}

EXPORT("nd_pairs_length") size_t ndPairsLength(void) { return pairs.length; }
EXPORT("nd_pairs_a") const uint32_t *ndPairsA(void) { return pairs.a; }
EXPORT("nd_pairs_b") const uint32_t *ndPairsB(void) { return pairs.b; }
EXPORT("nd_pairs_distance") const uint8_t *ndPairsDistance(void) { return pairs.distance; }
EXPORT("nd_pairs_free") void ndPairsFree(void) { freePairs(); }

/* ------------------------------------------------------------------------------- region seeds */

static SeedResult seeds;

static void freeSeeds(void) {
  free(seeds.pairs);
  free(seeds.buckets);
  free(seeds.frequent);
  memset(&seeds, 0, sizeof seeds);
}

/* anchorSeeds (seeds.c): 0 (the result at nd_seed_*), -1 or -2 (a document without a cap). */
EXPORT("nd_anchor_seeds") int ndAnchorSeeds(const uint32_t *hash, const uint32_t *doc, const uint32_t *pos, size_t n, const uint32_t *caps, uint32_t nCaps, uint32_t maxDocs) {
  freeSeeds();
  for (size_t i = 0; i < n; i++)
    if (doc[i] >= nCaps) return -2;
  return anchorSeeds(hash, doc, pos, n, caps, nCaps, maxDocs, &seeds) < 0 ? -1 : 0;
}

EXPORT("nd_seed_count") size_t ndSeedCount(void) { return seeds.seeds; }
EXPORT("nd_seed_pairs") const int32_t *ndSeedPairs(void) { return seeds.pairs; }
EXPORT("nd_seed_bucket_count") size_t ndSeedBucketCount(void) { return seeds.nBuckets; }
EXPORT("nd_seed_buckets") const uint32_t *ndSeedBuckets(void) { return seeds.buckets; }
EXPORT("nd_seed_dropped") uint32_t ndSeedDropped(void) { return seeds.dropped; }
EXPORT("nd_seed_frequent_count") size_t ndSeedFrequentCount(void) { return seeds.nFrequent; }
EXPORT("nd_seed_frequent") const uint32_t *ndSeedFrequent(void) { return seeds.frequent; }
EXPORT("nd_seed_frequent_over") uint32_t ndSeedFrequentOver(void) { return seeds.frequentOver; }
EXPORT("nd_seeds_free") void ndSeedsFree(void) { freeSeeds(); }

/* kernelSimhashTokens (simhash.c) of the n tokens at hi, lo (shingles of k, tf 1 or 0): 1 with
 * out[0] out[1] the SimHash's hi lo, 0 (no tokens), -1 or -2. */
EXPORT("nd_simhash_tokens") int ndSimhashTokens(const uint32_t *hi, const uint32_t *lo, int32_t n, int32_t k, int32_t tf, uint32_t *out) {
  if (!K || !K->ready) return -2;
  uint64_t bits = 0;
  const int status = kernelSimhashTokens(K, hi, lo, 0, n, k, tf, &bits);
  if (status <= 0) return status;
  out[0] = (uint32_t)(bits >> 32);
  out[1] = (uint32_t)bits;
  return 1;
}

/* ------------------------------------------------------------------------------- alignment */

/*
 * alignChain (align.c): streams[10] the addresses of aRawHi aRawLo aIdsHi aIdsLo aIsIdent bRawHi
 * bRawLo bIdsHi bIdsLo bIsIdent (0 for absent ids), m seeds (a, b) at seedPairs, params [k coverK
 * margin band fringeGap minConsistency self]; 1 with out[13] written, 0 (no region), -1 or -2.
 */
EXPORT("nd_align_chain") int ndAlignChain(const uint32_t *const *streams, int32_t aLength, int32_t bLength, const int32_t *seedPairs, int32_t m, const double *pr, double *out) {
  RegionDoc A = {{0}}, B = {{0}};
  A.length = aLength;
  B.length = bLength;
  A.raw.hi = streams[0];
  A.raw.lo = streams[1];
  A.ids.hi = streams[2];
  A.ids.lo = streams[3];
  A.isIdent = A.ids.hi ? (const uint8_t *)streams[4] : NULL; /* as kernel.c: only with the ids */
  B.raw.hi = streams[5];
  B.raw.lo = streams[6];
  B.ids.hi = streams[7];
  B.ids.lo = streams[8];
  B.isIdent = B.ids.hi ? (const uint8_t *)streams[9] : NULL;
  if (aLength < 0 || bLength < 0 || m < 1) return -2;
  for (int32_t i = 0; i < m; i++)
    if (seedPairs[2 * i] < 0 || seedPairs[2 * i] >= aLength || seedPairs[2 * i + 1] < 0 || seedPairs[2 * i + 1] >= bLength) return -2;
  AlignOptions o = {(int32_t)pr[0], (int32_t)pr[1], (int32_t)pr[2], (int32_t)pr[3], (int32_t)pr[4], pr[5]};
  if (o.k < 1 || o.coverK < 1 || o.margin < 0 || o.band < 0 || o.fringeGap < 0) return -2;
  const int self = pr[6] != 0;
  AlignResult r;
  const int status = alignChainNative(&A, &B, seedPairs, m, &o, self, &r);
  if (status <= 0) return status;
  const double v[13] = {r.aStart, r.aEnd, r.bStart, r.bEnd, r.rawA, r.rawB, r.idsA, r.idsB, r.identPairs, r.consistency, r.renames, r.exact, r.sameShape};
  memcpy(out, v, sizeof v);
  return 1;
}

/* ------------------------------------------------------------------------------- bucket search */

static BucketResult bucketsOut;

/*
 * bucketRegionsNative (buckets.c): streams[5 * nDocs] the addresses of each document's raw hi, raw
 * lo, ids hi, ids lo and isIdent (0 for absent ids; ids 0 and isIdent given: a lean code document), lengths and prose per document, nSeeds seeds
 * (a, b), nBuckets buckets (docA docB end), wanted (0: all), params[BUCKET_PARAMS]; 1 (the result
 * at nd_buckets_*), -1 or -2 (a bucket outside its documents, params out of range).
 */
EXPORT("nd_region_buckets") int ndRegionBuckets(const uint32_t *const *streams, const int32_t *lengths, const uint8_t *prose, uint32_t nDocs, const int32_t *seeds, size_t nSeeds,
                                                const uint32_t *buckets, size_t nBuckets, const uint8_t *wanted, const double *params) {
  bucketResultFree(&bucketsOut);
  BucketOptions o;
  if (!bucketOptionsOf(params, &o)) return -2;
  for (uint32_t d = 0; d < nDocs; d++)
    if (lengths[d] < 0) return -2;
  if (!bucketsValid(lengths, nDocs, seeds, nSeeds, buckets, nBuckets)) return -2;
  RegionDoc *docs = calloc(nDocs ? nDocs : 1, sizeof(RegionDoc));
  if (!docs) return -1;
  for (uint32_t d = 0; d < nDocs; d++) {
    const uint32_t *const *s = streams + 5 * d;
    docs[d].raw.hi = s[0];
    docs[d].raw.lo = s[1];
    docs[d].ids.hi = s[2];
    docs[d].ids.lo = s[3];
    docs[d].isIdent = (const uint8_t *)s[4]; /* with the ids, or alone: a lean code document */
    if ((s[2] == NULL) != (s[3] == NULL) || (s[2] && !s[4])) {
      free(docs);
      return -2;
    }
    docs[d].length = lengths[d];
  }
  const int status = bucketRegionsNative(docs, prose, seeds, buckets, nBuckets, wanted, &o, &bucketsOut);
  free(docs);
  return status;
}

EXPORT("nd_buckets_count") size_t ndBucketsCount(void) { return bucketsOut.count; }
EXPORT("nd_buckets_ints") const int32_t *ndBucketsInts(void) { return bucketsOut.ints; }
EXPORT("nd_buckets_floats") const double *ndBucketsFloats(void) { return bucketsOut.floats; }
EXPORT("nd_buckets_chains") double ndBucketsChains(void) { return bucketsOut.chains; }
EXPORT("nd_buckets_aligned") double ndBucketsAligned(void) { return bucketsOut.aligned; }
EXPORT("nd_buckets_free") void ndBucketsFree(void) { bucketResultFree(&bucketsOut); }

/* textShape (textshape.c) of the n bytes at p, into the 4 words at out (needs no init). */
EXPORT("nd_text_shape") void ndTextShape(const uint8_t *p, size_t n, uint32_t *out) { textShape(p, n, out); }
