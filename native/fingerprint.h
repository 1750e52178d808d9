/*
 * The computing half of NearDup's fingerprinting kernel (the half the Node-API addon, kernel.c,
 * and the WebAssembly module, wasm.c, share): the state of one kernel instance and the plain C
 * entry points both glues call. fingerprint.c, tokenize.c and simhash.c own what they compute.
 */
#ifndef NEARDUP_FINGERPRINT_H
#define NEARDUP_FINGERPRINT_H
#include <stddef.h>
#include <stdint.h>

#include "comments.h"
#include "sections.h"
/* ------------------------------------------------------------------------------- state */

/* Version of the JavaScript interface: nativeKernel.ts loads only a kernel of its own version. */
#define KERNEL_VERSION 11
/* Languages a kernel takes (one per comment syntax and quote rule: a few dozen in practice). */
#define MAX_LANGS 1024

/* A shingle sequence: per position id and previous equal position; per id hash and count. */
typedef struct {
  int32_t *id, *prev;
  uint32_t *hi, *lo, *count;
  size_t cap;
  int length, distinct, from, k;
} Seq;

typedef struct Kernel {
  int ready;
  uint8_t word[65536]; /* non-ASCII UTF-16 unit is a word character */
  double *logs;        /* logs[n] = Math.log(n) for n < nLogs */
  int nLogs;
  Lang *langs;
  size_t langCap;
  int nLangs;
  /* ---- its working memory: from `text` up to `batchWords` (kernelSwapScratch moves it whole;
   * only what a call grows and reads again goes here, never a table) ---- */
  /* text of the last tokenize */
  uint16_t *text;
  size_t textCap;
  int textLen;
  /* tokens; talt: each token's other form's low word (normalised, or raw when normalize), as
   * TokenBuffer.alt of src/core/text/tokenize.ts */
  uint32_t *thi, *tlo, *talt;
  int32_t *tstart;
  size_t tokCap;
  int ntok;
  int normalized; /* the last tokenize normalised identifiers and literals */
  /* With a tokenize asked for the region document (regiondoc.c): each token's hash as read and
   * whether it is an identifier (not a keyword: the tokens the normalised form replaces). */
  uint32_t *rhi, *rlo;
  uint8_t *rident;
  size_t regionCap;
  int regionReady; /* the last tokenize filled rhi, rlo and rident */
  /* kernelRegion's results: the identifier-normalised stream, the text's line starts, anchors */
  uint32_t *ihi, *ilo;
  size_t idsCap;
  int32_t *lines;
  size_t linesCap;
  int nLines;
  uint32_t *kgrams, *ahash;
  int32_t *apos;
  size_t anchorCap;
  int nAnchors;
  /* sequences: the file's, and a spare one for ranges shorter than the shingle size */
  Seq file, spare;
  /* numbering scratch */
  int32_t *table;
  size_t tableCap;
  int32_t *foldedB, *lastSeen;
  size_t idCap;
  /* item scratch */
  uint32_t *dhi, *dlo, *dcount;
  int32_t *dindex;
  size_t itemCap;
  /* sketch scratch */
  uint32_t *cand, *sorted;
  size_t candCap;
  int32_t *buckets;
  size_t bucketCap;
  /* code sections: of the last tokenize's text when sectionsReady, else of codeSections' text */
  Sections sections;
  int sectionsReady;
  uint16_t *secText;
  size_t secTextCap;
  /* readCodeBatch's (readcode.c): the buffer files are read into, the words of the batch */
  uint8_t *readBuf;
  size_t readCap;
  /* ---- end of the working memory ---- */
  uint32_t *batchWords;
  size_t batchCap;
  /* readCodeBatchAsync's kernels for libuv's threads (kernelClone), kept for its next jobs: a list
   * through their own `spares`; `generation` moves on with every init (new tables), and a
   * thread's kernel of an older one is freed, not kept (languages and fold table: kernelSyncClone). */
  struct Kernel *spares;
  unsigned generation;
  unsigned foldVersion; /* moves on with every kernelSetFoldTable (a thread's kernel then takes the new table) */
  /* The variant fold's table (65536 units, each unit's folded form, 0 unchanged) for readCode's
   * plain texts (utf8code.c), or NULL: a text with Han to fold is then left to the caller. */
  uint16_t *foldTable;
} Kernel;

/* Grows several parallel arrays sharing one capacity. */

/* A new kernel (its tables ready, no languages, not yet initialised), or NULL. */
Kernel *kernelNew(void);
void kernelFree(Kernel *K);
/* The word-character table (65536 entries) and logs[n] = Math.log(n) for n < nLogs: 1, or 0 out of memory. */
int kernelInit(Kernel *K, const uint8_t *word, const double *logs, size_t nLogs);
/* A kernel for another thread: K's word table, logs, languages and fold table copied, scratch of
 * its own (no spares); NULL out of memory. */
Kernel *kernelClone(const Kernel *K);
/* A kernel made by kernelClone(K) brought up to K's languages (defined since: ids are never
 * reused) and fold table: 1, or 0 out of memory. Tables changed by kernelInit are not (see
 * `generation`). */
int kernelSyncClone(Kernel *T, const Kernel *K);
/* Swaps the working memory of two kernels (`text` … `readCap`: the arrays, their capacities and
 * what the last calls left in them); their tables, languages, batch words and spares stay. */
void kernelSwapScratch(Kernel *a, Kernel *b);
/* Sets (a copy of table: 65536 units) or clears (NULL) the kernel's fold table: 1, or 0 out of memory. */
int kernelSetFoldTable(Kernel *K, const uint16_t *table);
/* Registers a language (langFinish is applied here): its id, or -1 (too many, or out of memory). */
int kernelDefineLanguage(Kernel *K, const Lang *L);
/* Room for a text of len UTF-16 units (+1) for kernelTokenize, or NULL out of memory. */
uint16_t *kernelTextBuffer(Kernel *K, size_t len);
/* Tokenises the first len units of kernelTextBuffer: the token count, or -1 out of memory. With
 * `region`, also keeps what kernelRegion needs (each token's raw hash, identifier or not). */
int kernelTokenize(Kernel *K, int len, const Lang *L, int normalize, int region);
/*
 * The region document (src/core/regions/document.ts) of the last tokenize, made with `region`:
 * the identifier-normalised stream into ihi / ilo, the text's line starts into lines (nLines),
 * and, with k >= 1, the anchors of the normalised stream (anchorsOf of src/core/regions/anchors.ts,
 * k-grams of k tokens salted with `salt`, winnowed by w) into ahash / apos (nAnchors; none with
 * k < 1). The raw stream and token starts stay in rhi / rlo / tstart. 0, -1 out of memory, -2 no
 * such tokenize. regiondoc.c.
 */
int kernelRegion(Kernel *K, int k, int w, uint32_t salt);
/* The bytes of the last kernelRegion's document as one buffer, and that buffer written (4-aligned):
 * rawHi rawLo start (n words each), lineStarts, anchorHash anchorPos (words), then isIdent (n
 * bytes), the layout src/core/regions/document.ts regionBufferDocument reads. regiondoc.c. */
size_t kernelRegionBytes(const Kernel *K);
void kernelRegionWrite(const Kernel *K, void *data);
/*
 * The anchors of a token stream of n tokens (hi, lo: the caller's; anchorsOf of
 * src/core/regions/anchors.ts: k-grams of k tokens salted with `salt`, winnowed by w) into ahash /
 * apos: their count (nAnchors), -1 out of memory, -2 bad arguments (k < 1). regiondoc.c; a prose
 * document's anchors (kernelRegion makes a code document's).
 */
int kernelAnchors(Kernel *K, const uint32_t *hi, const uint32_t *lo, int n, int k, int w, uint32_t salt);
/*
 * Fingerprints the tokens of the last tokenize into out (see kernel.c for the layout): 0 with
 * *result the words written, or minus the words needed when outLen is too small; -1 out of
 * memory; -2 bad arguments.
 */
int kernelFingerprint(Kernel *K, int k, int tf, int fileSketch, int sectionSketch, int minTokens, int withSections, uint32_t *out, size_t outLen, double *result);
/*
 * kernelFingerprint of a token stream the caller made (prose, containers, languages tokenised in
 * TypeScript): hi, lo, alt (TokenBuffer of src/core/text/tokenize.ts) of n tokens, altIsRaw as
 * kernelTokenize's normalize; the sections are rangeCount token ranges, from to startLine endLine
 * each (0 <= from <= to <= n), kept and left out as kernelFingerprint keeps them. Same results,
 * same layout; -2 bad arguments. Leaves the last tokenize as it was.
 */
int kernelFingerprintTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, const uint32_t *alt, int n, int altIsRaw, const int32_t *ranges, int rangeCount, int k, int tf,
                            int fileSketch, int sectionSketch, int minTokens, uint32_t *out, size_t outLen, double *result);
/* Entries of kernelProseTokens: kind start end hi lo, one per word or CJK run, in text order. */
#define PROSE_ENTRY 5
/* Kinds: a word of ASCII letters and digits, or of letters whose lower case the kernel knows to
 * be JavaScript's (tokenize.c proseLower: Latin, Cyrillic's first block, diacritics; hi lo its
 * hash, lower-cased); a word with other letters (the caller hashes it: its lower case is
 * JavaScript's); a run of CJK units (the caller's segmenter cuts it). */
#define PROSE_WORD 0
#define PROSE_OTHER_WORD 1
#define PROSE_CJK_RUN 2
/*
 * The words of the first len units of kernelTextBuffer as tokenizeProse of
 * src/core/text/tokenize.ts reads them (letters and digits, inner apostrophes, ’ as '), into out
 * (PROSE_ENTRY words each, outLen words): their count, or minus the count when out is too small.
 * The text is no tokenize's after it (fingerprint has no tokens until the next tokenize).
 */
int kernelProseTokens(Kernel *K, int len, uint32_t *out, size_t outLen);
/* kernelTokenizeProse's answers for a text with a word of other letters (PROSE_OTHER_WORD) and no
 * CJK run, and for one with a CJK run (its tokens are JavaScript's to make; jieba's for the run). */
#define PROSE_LEFT (-4)
#define PROSE_LEFT_CJK (-5)
/*
 * The first len units of kernelTextBuffer tokenised as tokenizeProse tokenises them with no stop
 * word dropped, as kernelTokenize leaves its tokens (each token's alt its own low word, as
 * TokenBuffer.push gives a prose token), when the kernel lower-cases every word (PROSE_WORD): the
 * token count; PROSE_LEFT when a word has other letters, PROSE_LEFT_CJK when the text has a CJK
 * run; -1 out of memory.
 */
int kernelTokenizeProse(Kernel *K, int len);
/*
 * kernelTokenizeProse, then with `withSections` the text's proseSections (prosesections.c, its
 * defaults) as the sections kernelFingerprint reads, with `region` its tokens as a region
 * document's (none an identifier: kernelRegion's then, with salt 0, is documentFromTokens('prose')
 * with its default anchors): the token count, PROSE_LEFT or PROSE_LEFT_CJK, or -1 out of memory. prosesections.c
 * (the addon's alone).
 */
int kernelTokenizeProseFile(Kernel *K, int len, int withSections, int region);
/* The SimHash bits of tokens [from, to) of a stream (hi, lo), shingles of max(1, min(k, tokens)),
 * tf-weighted or not: simhashTokens of src/core/fingerprint/simhash.ts (no sketch). 1, 0 (no
 * tokens) or -1 (out of memory). Uses the spare sequence. */
int kernelSimhashTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, int from, int to, int k, int tf, uint64_t *bits);
/* Room for a text of len units (+1) for kernelCodeSections, or NULL out of memory. */
uint16_t *kernelSectionTextBuffer(Kernel *K, size_t len);
/* The code sections of the first len units of kernelSectionTextBuffer into K->sections: their count, or -1. */
int kernelCodeSections(Kernel *K, int len, int maxDepth, int minLines);

#endif
