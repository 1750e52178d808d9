/**
 * Shared types of the pure engine. Nothing here touches the file system, threads or VS Code.
 */

/** A 64-bit fingerprint kept as two unsigned 32-bit halves (no BigInt in the hot path). */
export interface Fp64 {
  hi: number;
  lo: number;
}

/** How a text is tokenised: source code or natural-language prose. */
export type ContentKind = 'code' | 'prose';

/** Feature weighting, as the SimHash literature describes. `none` counts each shingle once. */
export type Weighting = 'none' | 'tf' | 'tfidf';

/** Segments a run of CJK characters into words. Injected by the Node layer (jieba). */
export type CjkSegmenter = (run: string) => string[];

/**
 * Rewrites a text before it is tokenised (e.g. Traditional → Simplified Chinese characters), for
 * the fingerprint only. Must keep the text's length and every character that marks structure
 * (line breaks, brackets, ASCII), so that offsets and line ranges stay those of the original.
 * Injected by the Node layer (src/node/cjk/variants.ts).
 */
export type TextFold = (text: string) => string;

/** A range of a text: 1-based inclusive lines and 0-based half-open UTF-16 offsets. */
export interface TextRange {
  startLine: number;
  endLine: number;
  startOffset: number;
  endOffset: number;
}

/** How a pair of items was copied: the same tokens, the same after identifiers and literals are replaced by placeholders, or neither. */
export type CloneKind = 'exact' | 'renamed' | 'edited';

/**
 * Two 64-bit hashes of an item's token stream (core/fingerprint/cloneHashes.ts), made in the pass
 * that fingerprints it: of its tokens as read (`raw`), and with identifiers and literals replaced
 * by placeholders (`norm`; prose: the same as `raw`). Two items with equal raw hashes are exact
 * copies; with equal normalised ones, renamed copies.
 */
export interface CloneHashes {
  rawHi: number;
  rawLo: number;
  normHi: number;
  normLo: number;
}

/** A SimHash with its sketch (core/fingerprint/simhash.ts): an item's fingerprint without its clone hashes. */
export interface SimHashFingerprint extends Fp64 {
  /** Number of tokens the item had after noise removal. */
  tokens: number;
  /** Number of distinct shingles (features). */
  features: number;
  /**
   * Bottom-k MinHash sketch of the shingle set, ascending unsigned 32-bit values. Used to verify
   * candidates found at a larger Hamming distance (an estimate of Jaccard similarity); when the
   * item has no more than k shingles, it holds all of them and the estimate is exact.
   */
  sketch: Uint32Array;
}

/** The fingerprint of one item (a whole file or one of its sections). */
export interface ItemFingerprint extends SimHashFingerprint, CloneHashes {}

/**
 * Where an item's sketch lies when it is part of a larger array of words (a native batch's items,
 * node/workers/packing.ts): `sketch` is `sketchWords[sketchAt, sketchAt + sketchLength)`, which a
 * reader of many sketches takes without making a view of each (report/compare.ts sketchesOf).
 */
export interface SketchPlace {
  readonly sketchWords: Uint32Array;
  readonly sketchAt: number;
  readonly sketchLength: number;
}

/**
 * Where the rest of such an item lies in the same words: from `headAt` on, hi lo tokens features
 * rawHi rawLo normHi normLo ({@link HeadWord}), which a reader of many pairs takes without a
 * getter call for each (fingerprint/cloneHashes.ts cloneKind).
 */
export interface HeadPlace {
  readonly sketchWords: Uint32Array;
  readonly headAt: number;
}

/** An item's head in its words: the place of each of {@link HeadPlace}'s fields. */
export const enum HeadWord {
  hi = 0,
  lo = 1,
  tokens = 2,
  features = 3,
  rawHi = 4,
  rawLo = 5,
  normHi = 6,
  normLo = 7,
}

export interface SectionFingerprint extends ItemFingerprint {
  startLine: number;
  endLine: number;
}

export interface DocumentFingerprint {
  kind: ContentKind;
  /** Whole-file fingerprint, or null when the file has fewer than minTokens tokens. */
  file: ItemFingerprint | null;
  sections: SectionFingerprint[];
}

/**
 * A compiled implementation of the code path of fingerprintText (tokeniser, shingles, SimHash and
 * sketches) that gives exactly its results; injected by the Node layer (src/node/nativeKernel.ts).
 * Per thread: it holds the tokens of the last `tokenize` for the next `fingerprint`.
 */
/** What {@link CodeKernel.anchorSeeds} gives. */
export interface AnchorSeedsFound {
  pairs: Int32Array;
  buckets: Uint32Array;
  dropped: number;
  /**
   * Hash, distinct documents, of every hash in more documents than `frequentOver` (the smallest of
   * the caps): every other hash is in at most that many (core/regions/fileCopies.ts reads them).
   */
  frequent: Uint32Array;
  frequentOver: number;
}

export interface CodeKernel {
  /**
   * Registers a language's comments and quotes (the fields of CommentSyntax in
   * core/text/languages.ts); its id, or −1 when the kernel cannot take it.
   */
  defineLanguage(
    lineOpeners: string[],
    blockOpeners: string[],
    blockClosers: string[],
    singleQuoteStrings: boolean,
    lineStartOpeners?: string[],
    lineBlockOpeners?: string[],
    lineBlockClosers?: string[],
    /** Whether `/` may open a regular-expression literal (core/text/comments.ts). */
    regexLiterals?: boolean,
  ): number;
  /**
   * Tokenises a code text; returns the number of tokens. With `region`, also keeps what
   * {@link CodeKernel.region} needs (the same tokens; the fingerprints do not change).
   */
  tokenize(text: string, languageId: number, normalizeIdentifiers: boolean, region?: boolean): number;
  /**
   * The region document (core/regions/document.ts) of the last tokenize, made with `region`: the
   * tokens as read, which are identifiers, their start offsets, the text's line starts and, with
   * k ≥ 1, the anchors of the identifier-normalised stream (anchorsOf of core/regions/anchors.ts
   * with k, w and salt; that stream itself is not returned), in one new ArrayBuffer holding
   * nothing else (the caller keeps it): rawHi rawLo start lineStarts anchorHash anchorPos (32-bit
   * words), then isIdent (bytes); `counts` ← tokens, lines, anchors (document.ts RegionBuffer).
   * Throws when the last tokenize was not made with `region`.
   */
  region(k: number, w: number, salt: number, counts: Int32Array): ArrayBuffer;
  /**
   * The anchors of tokens [0, n) of a stream (anchorsOf of core/regions/anchors.ts with k ≥ 1, w
   * and salt; a prose document's, native/regiondoc.c kernelAnchors) written to `hash` / `pos`:
   * their count, or −(count) when those are too small (nothing written). Leaves the last tokenize
   * as it was.
   */
  anchors?(hi: Uint32Array, lo: Uint32Array, n: number, k: number, w: number, salt: number, hash: Uint32Array, pos: Int32Array): number;
  /**
   * Fingerprints the tokens of the last tokenize with shingle size k into `out`: the whole file
   * (hi lo tokens features rawHi rawLo normHi normLo n sketch[n]), then, with `sections`, each
   * code section of the last tokenize's text (found as codeSections(text) finds them, default
   * options) that holds at least `minTokens` tokens and under 95 % of the file's: startLine endLine
   * hi lo tokens features rawHi rawLo normHi normLo n sketch[n] (the clone hashes of
   * core/fingerprint/cloneHashes.ts). Returns the words written, or minus the words needed when
   * `out` is too small.
   */
  fingerprint(k: number, tf: boolean, fileSketch: number, sectionSketch: number, minTokens: number, sections: boolean, out: Uint32Array): number;
  /**
   * {@link CodeKernel.fingerprint} of a token stream tokenised in TypeScript (prose, containers,
   * tf-idf aside): tokens [0, n) of `hi`, `lo`, `alt` (TokenBuffer of core/text/tokenize.ts),
   * `altIsRaw` as tokenize's normalizeIdentifiers; the sections are `rangeCount` token ranges in
   * `ranges`, from to startLine endLine each (0 ≤ from ≤ to ≤ n), kept and left out as fingerprint
   * keeps them. The same words in `out` as fingerprint writes, the same result. Leaves the last
   * tokenize as it was. Absent from a kernel built before it (the caller then hashes in TypeScript).
   */
  fingerprintTokens?(
    hi: Uint32Array,
    lo: Uint32Array,
    alt: Uint32Array,
    n: number,
    altIsRaw: boolean,
    ranges: Int32Array,
    rangeCount: number,
    k: number,
    tf: boolean,
    fileSketch: number,
    sectionSketch: number,
    minTokens: number,
    out: Uint32Array,
  ): number;
  /**
   * The words of a prose text as tokenizeProse (core/text/tokenize.ts) reads them, into `out`, five
   * words an entry in text order: kind start end hi lo. Kind 0: a word of ASCII letters and digits
   * (hi lo: its FNV-1a 64, lower-cased, ’ as '); 1: a word with other letters (the caller hashes
   * text[start, end) in JavaScript's lower case); 2: a run of CJK units (the caller's segmenter
   * cuts it). Returns the entries, or minus their count when `out` is too small. Afterwards the
   * last tokenize is gone (fingerprint has no tokens until the next). Absent from a kernel built
   * before it (the caller then tokenises in TypeScript).
   */
  proseTokens?(text: string, out: Uint32Array): number;
  /**
   * Every pair i < j of the fingerprints `fp` (interleaved hi, lo) within Hamming distance k, in
   * no particular order; null when there are more than `maxCandidates` (the caller then searches
   * itself). The same pairs as allPairsBatch without a cap. `threads` (the native addon; default 1):
   * its tables searched on that many threads, this one included, the same pairs in the same order.
   */
  allPairs(fp: Uint32Array, k: number, maxCandidates: number, threads?: number): { a: Uint32Array; b: Uint32Array; distance: Uint8Array } | null;
  /**
   * allPairs' candidates vetted as they are found (the native addon; matchPairList with a
   * KernelVetting, core/report/compare.ts): two items of one document only when their lines
   * [startOf, endOf] do not overlap, never two documents of one copy class (copyOf per document,
   * -1: none), and the estimated Jaccard similarity of their sketches at least minSimilarity —
   * in allPairs' order; still null past maxCandidates candidates, kept or not. Item i's sketch:
   * sketches[offsets[i] … offsets[i + 1]) of one array (n + 1 offsets), or, with the views the
   * sketches lie in (nothing copied), offsets[3i + 2] values from offsets[3i + 1] of view
   * sketches[offsets[3i]] (3n offsets). With skipPairs ((docA, docB) pairs), two items of such
   * documents are left out too (still counted against maxCandidates).
   */
  allPairsVetted?(
    fp: Uint32Array,
    k: number,
    maxCandidates: number,
    threads: number,
    sketches: Uint32Array | readonly Uint32Array[],
    offsets: Uint32Array,
    sketchSize: number,
    minSimilarity: number,
    docOf: Int32Array,
    startOf: Int32Array,
    endOf: Int32Array,
    copyOf: Int32Array | null,
    skipPairs?: Int32Array | null,
  ): { a: Uint32Array; b: Uint32Array; distance: Uint8Array } | null;
  /**
   * Sorts the pairs (a[i], b[i], distance[i]), items numbered below n, in place by distance, then
   * a, then b (orderPairList's order, core/report/compare.ts; the native addon); false when it
   * did not (n too large), the arrays then unchanged.
   */
  sortPairs?(a: Uint32Array, b: Uint32Array, distance: Uint8Array, n: number): boolean;
  /**
   * Of the section pairs (items a[p], b[p]; item i of document docOf[i], lines startOf[i] to
   * endOf[i]): 1 for each pair that no wider pair of the same two documents kept holds, else 0 —
   * the rule of core/report/report.ts dropNestedPairs (the native addon).
   */
  keepOutermostPairs?(a: Uint32Array, b: Uint32Array, docOf: Int32Array, startOf: Int32Array, endOf: Int32Array): Uint8Array;
  /**
   * codeSections of src/core/sections/codeSections.ts, same ranges in the same order, into `out` as
   * startLine endLine startOffset endOffset per section, with maxDepth ≥ 1 and minLines ≥ 2
   * already normalised (integers); returns the number of sections, or minus the words needed when
   * `out` is too small.
   */
  codeSections(text: string, maxDepth: number, minLines: number, out: Int32Array): number;
  /**
   * The tokens of the last tokenize (64-bit hashes as hi / lo halves, UTF-16 start offsets), the
   * same as tokenizeCode's, copied into the arrays; returns their count, or minus it when an
   * array is too small.
   */
  tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array): number;
  /**
   * AnchorIndex.seeds of src/core/regions/anchorIndex.ts without rescued hashes (native/seeds.c):
   * anchors (hash, doc, pos) [0, n) in insertion order, `caps[d]` the postings cap of a hash whose
   * first posting is in document d, hashes in more than `maxDocs` distinct documents dropped too.
   * The seeds (a, b) sorted by (docA, docB, a, b), (docA, docB, end) per pair of documents, and
   * how many hashes were dropped.
   */
  anchorSeeds(hash: Uint32Array, doc: Uint32Array, pos: Uint32Array, n: number, caps: Uint32Array, maxDocs: number): AnchorSeedsFound;
  /**
   * alignChain of src/core/regions/align.ts (native/align.c): the same region from the same
   * documents (token streams as Uint32Arrays of at least aLength / bLength tokens; the ids streams
   * and isIdent null for prose), seeds, and params [k, coverK, margin, band, fringeGap,
   * minConsistency, self 0/1]. Writes aStart aEnd bStart bEnd rawA rawB idsA idsB identPairs
   * consistency renames exact sameShape into `out` and returns 1, or returns 0 (no region).
   * A stream must not change between calls that pass the same array (the WebAssembly kernel
   * keeps its copy of the last two documents' streams).
   */
  alignChain(
    aRawHi: Uint32Array,
    aRawLo: Uint32Array,
    aIdsHi: Uint32Array | null,
    aIdsLo: Uint32Array | null,
    aIsIdent: Uint8Array | null,
    bRawHi: Uint32Array,
    bRawLo: Uint32Array,
    bIdsHi: Uint32Array | null,
    bIdsLo: Uint32Array | null,
    bIsIdent: Uint8Array | null,
    aLength: number,
    bLength: number,
    seeds: Int32Array,
    params: Float64Array,
    out: Float64Array,
  ): number;
  /**
   * The SimHash of tokens [from, to) of a token stream (hi, lo): simhashTokens of
   * src/core/fingerprint/simhash.ts with shingles of `k` (fewer in a shorter range), tf-weighted
   * or not, its bits only. Writes hi, lo into `out` and returns 1, or returns 0 (no tokens).
   * Absent from a kernel built before it (the caller then uses simhashTokens).
   */
  simhashTokens?(hi: Uint32Array, lo: Uint32Array, from: number, to: number, k: number, tf: boolean, out: Uint32Array): number;
  /**
   * The text checks of src/core/text/decodeText.ts on a UTF-8 text, read off its bytes in one
   * pass (native/textshape.c), into `out`: the control characters checkText counts, the line
   * feeds and the longest line in UTF-16 units (lineShape), and bits (1: a NUL byte, 2: a byte
   * of 0x80 or above, 4: a character that may be a Han ideograph, 8: the ignore markers' prefix
   * `neardup-ignore-`; native/textshape.h). Meaningful for valid UTF-8 only.
   */
  textShape?(bytes: Uint8Array, out: Uint32Array): void;
  /**
   * bucketRegions of src/core/regions/regions.ts for many seed buckets in one call
   * (native/buckets.c): `streams` holds five per document (raw hi, raw lo, ids hi, ids lo,
   * isIdent; the last three null for prose), `lengths` and `prose` (1: a prose document) one per
   * document; `buckets` is docA docB end per bucket (end: cumulative seed count into `seeds`, as
   * anchorSeeds gives them), `wanted` 1 per bucket searched (null: all), `params` the options
   * (src/core/regions/kernelBuckets.ts bucketParams). The regions kept, bucket after bucket in
   * bucketRegions' order: `ints` bucket aStart aEnd bStart bEnd clone (0 exact, 1 renamed, 2
   * edited) renames, `floats` similarity rawSimilarity consistency per region; and the chains
   * made and aligned. Absent from a kernel built before it. The streams of one `streams` array
   * must not change between calls (the WebAssembly kernel keeps its copy of the last one).
   * `threads` (the native addon; default 1): the buckets cut into that many runs of about equal
   * seeds, searched at once (native/threads.c), the same result; `startable` limits the threads
   * that start (tests: a run whose thread does not start is searched on the calling one).
   */
  regionBuckets?(
    streams: ReadonlyArray<Uint32Array | Uint8Array | null>,
    lengths: Int32Array,
    prose: Uint8Array,
    seeds: Int32Array,
    buckets: Uint32Array,
    wanted: Uint8Array | null,
    params: Float64Array,
    threads?: number,
    startable?: number,
  ): RegionBucketsFound;
  /**
   * regionBuckets searched off the calling thread (the native addon: libuv's pool and `threads` − 1
   * threads more), settled once done; the caller runs on meanwhile and must leave every array it
   * passed (and the streams array) untouched until then. Absent from the WebAssembly kernel.
   */
  regionBucketsAsync?(...args: Parameters<NonNullable<CodeKernel['regionBuckets']>>): Promise<RegionBucketsFound>;
  /**
   * The plan of a region search and its search as one job off the calling thread (the native
   * addon, native/regionplan.c; src/core/regions/kernelPlan.ts): the documents' anchors (`anchors`:
   * hash, pos per document, or nulls: none) into one index as AnchorIndex.add would, its seeds
   * (anchorSeeds with `caps`, `maxDocs`), the buckets wanted (`plan`: selfMatches 0/1,
   * max(minSeeds, minBucketSeeds), holdIdentical 0/1 — the buckets of two different documents of
   * the same tokens held back), the identical documents' classes (`classOf`: each document's first
   * twin, or -1) and the search of the wanted buckets on `threads` threads. `streams`, `lengths`,
   * `prose`, `params` as regionBuckets takes them. With `places` ([start, lineStarts, reportLines
   * | null] per document) and `sideOptions` (normalizeIdentifiers 0/1, tf 0/1, then each closer's
   * hi, lo), the regions' sides too, on as many threads (`found.sides`: sideFacts.ts), and their groups (`found.groups`).
   * Absent from the WebAssembly kernel.
   */
  regionPlanAsync?(
    streams: ReadonlyArray<Uint32Array | Uint8Array | null>,
    lengths: Int32Array,
    prose: Uint8Array,
    anchors: ReadonlyArray<Uint32Array | Int32Array | null>,
    caps: Uint32Array,
    maxDocs: number,
    params: Float64Array,
    plan: Float64Array,
    threads: number,
    places?: ReadonlyArray<Int32Array | null>,
    sideOptions?: Uint32Array,
  ): Promise<RegionPlanFound>;
  /**
   * fileCopies' second search in one call (the native addon, native/copysearch.c;
   * src/core/regions/kernelBuckets.ts copySearchOf): for each pair (`pairs`: x y, x < y) the two documents'
   * anchors (`anchors` as regionPlanAsync takes them) without the hashes of `drop` ([code, prose]:
   * sorted hashes left out of a code / a prose document's), their seeds as one index of the two
   * (`caps`: [code, prose] postings caps), the bucket of x with y when it has `search[0]` seeds and
   * coverBound reaches `search[1]` on both sides, and those buckets searched as regionBuckets does
   * on `threads` threads. `buckets`: x y end per bucket searched. Absent from the WebAssembly kernel.
   */
  copySearch?(
    streams: ReadonlyArray<Uint32Array | Uint8Array | null>,
    lengths: Int32Array,
    prose: Uint8Array,
    anchors: ReadonlyArray<Uint32Array | Int32Array | null>,
    drop: readonly [Uint32Array, Uint32Array],
    pairs: Uint32Array,
    caps: Uint32Array,
    params: Float64Array,
    search: Float64Array,
    threads?: number,
  ): RegionBucketsFound & { buckets: Uint32Array };
  /**
   * The groups of regions (`ints` as regionBuckets gives them, in bucket order) of the buckets
   * `buckets` (docA docB end each), flat as regionPlanAsync's `groups` (groups.ts groupsOfFlat):
   * groupRegions of their pairs (native/regiongroups.c). Absent from the WebAssembly kernel.
   */
  regionGroups?(buckets: Uint32Array, ints: Int32Array): Int32Array;
}

/** What CodeKernel.regionPlanAsync gives: anchorSeeds' seeds, each bucket's fate (0 not searched, 1 searched, 2 held back), the identical documents' classes, the anchors indexed and the search's regions. */
export interface RegionPlanFound extends AnchorSeedsFound {
  wanted: Uint8Array;
  classOf: Int32Array;
  anchors: number;
  found: RegionBucketsFound;
}

/** What CodeKernel.regionBuckets returns: the regions kept, packed, and the chains made and aligned. */
export interface RegionBucketsFound {
  ints: Int32Array;
  floats: Float64Array;
  chains: number;
  aligned: number;
  /** regionPlanAsync with places: each region's sides (sideFacts.ts SIDE_INTS per region; a row of −1: not made). */
  sides?: Int32Array;
  /** regionPlanAsync with places: the regions' groups, flat (groups.ts groupsOfFlat). */
  groups?: Int32Array;
}
