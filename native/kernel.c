/*
 * NearDup's native fingerprinting kernel: the code tokeniser, shingle numbering, SimHash and
 * bottom-k sketches of src/core/text/tokenize.ts and src/core/fingerprint/simhash.ts, in C behind Node-API.
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
 *                  lineBlockOpeners?: string[], lineBlockClosers?: string[]) -> language id
 *                  (comments skipped as native/comments.c skips them), or -1
 *   tokenize(text: string, languageId, normalizeIdentifiers: boolean) -> token count
 *   fingerprint(k, tf: boolean, fileSketch, sectionSketch, minTokens, sections: boolean,
 *               out: Uint32Array) -> words written to out (or -(words needed))
 *   codeSections(text: string, maxDepth, minLines, out: Int32Array) -> section count (or
 *               -(words needed)): codeSections of src/core/sections/codeSections.ts
 *               (native/sections.c), as startLine endLine startOffset endOffset per section
 *   allPairs(fp: Uint32Array, k, maxCandidates) -> pairs within distance k (native/allpairs.c)
 *   tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array) -> the last tokenize's token
 *               hashes and start offsets copied out: their count, or -(count) when too small
 *   anchorSeeds(hash, doc, pos, n, caps, maxDocs) -> the region finder's seeds, bucketed per
 *               pair of documents (native/seeds.c): AnchorIndex.seeds of src/core/regions
 *   alignChain(…) -> a chain of seeds aligned into a region of two documents (native/align.c):
 *               alignChain of src/core/regions/align.ts
 * fingerprint works on the tokens of the last tokenize: the whole file, then, with `sections`,
 * each code section of its text (codeSections with its defaults, maxDepth 2 and minLines 3),
 * written to `out` as
 *   file:    hi lo tokens features sketchLength sketch…
 *   section: startLine endLine hi lo tokens features sketchLength sketch…   (only sections kept)
 * A section is kept when it holds at least minTokens tokens and less than 95 % of the file's.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include "allpairs.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "seeds.h"
#include "comments.h"
#include "sections.h"
#include "grow.h"

/* ------------------------------------------------------------------------------- state */

/* Version of the JavaScript interface: nativeKernel.ts loads only a kernel of its own version. */
#define KERNEL_VERSION 3
/* Languages a kernel takes (one per comment syntax and quote rule: a few dozen in practice). */
#define MAX_LANGS 1024

/* A shingle sequence: per position id and previous equal position; per id hash and count. */
typedef struct {
  int32_t *id, *prev;
  uint32_t *hi, *lo, *count;
  size_t cap;
  int length, distinct, from, k;
} Seq;

typedef struct {
  int ready;
  uint8_t word[65536]; /* non-ASCII UTF-16 unit is a word character */
  double *logs;        /* logs[n] = Math.log(n) for n < nLogs */
  int nLogs;
  Lang *langs;
  size_t langCap;
  int nLangs;
  /* text of the last tokenize */
  uint16_t *text;
  size_t textCap;
  int textLen;
  /* tokens */
  uint32_t *thi, *tlo;
  int32_t *tstart;
  size_t tokCap;
  int ntok;
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
} Kernel;

/* Grows several parallel arrays sharing one capacity. */
static int growSeq(Seq *s, size_t need) {
  if (s->cap >= need) return 1;
  size_t n = s->cap ? s->cap : 1024;
  while (n < need) n *= 2;
  void **arrays[] = {(void **)&s->id, (void **)&s->prev, (void **)&s->hi, (void **)&s->lo, (void **)&s->count};
  for (size_t j = 0; j < sizeof arrays / sizeof arrays[0]; j++) {
    void *q = realloc(*arrays[j], n * 4);
    if (!q) return 0;
    *arrays[j] = q;
  }
  s->cap = n;
  return 1;
}

static void freeSeq(Seq *s) {
  free(s->id);
  free(s->prev);
  free(s->hi);
  free(s->lo);
  free(s->count);
}

static void finalizeKernel(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Kernel *k = data;
  free(k->logs);
  free(k->langs);
  free(k->text);
  free(k->thi);
  free(k->tlo);
  free(k->tstart);
  freeSeq(&k->file);
  freeSeq(&k->spare);
  free(k->table);
  free(k->foldedB);
  free(k->lastSeen);
  free(k->dhi);
  free(k->dlo);
  free(k->dcount);
  free(k->dindex);
  free(k->cand);
  free(k->sorted);
  free(k->buckets);
  freeSections(&k->sections);
  free(k->secText);
  free(k);
}

/* ------------------------------------------------------------------------------- hashing */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static inline uint64_t fnvStep(uint64_t h, uint32_t c) { return (h ^ c) * FNV_PRIME; }

static uint64_t fnvAscii(const char *s) {
  uint64_t h = FNV_OFFSET;
  for (; *s; s++) h = fnvStep(h, (uint8_t)*s);
  return h;
}

static inline uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

/* ------------------------------------------------------------------------------- tokeniser */

enum { C_SPACE = 0, C_IDENT = 1, C_DIGIT = 2, C_QUOTE = 3, C_SQUOTE = 4, C_PUNCT = 5 };
static uint8_t CODE_CLASS[128];
static uint8_t ASCII_WORD[128];
static uint64_t PUNCT_HASH[128];
static uint64_t ID_HASH, NUM_HASH, STR_HASH;

#define KW_SLOTS 1024
static uint64_t KEYWORDS[KW_SLOTS]; /* open addressing on the hash; 0 = empty */

static const char *KEYWORD_LIST =
    "if else for while do switch case default break continue return function class interface "
    "enum struct union type typedef extends implements new delete this self super null nil none "
    "true false undefined void var let const static public private protected final abstract "
    "import export from package module namespace use using include require try catch finally "
    "throw throws raise except def lambda fn func fun async await yield in of is not and or as "
    "with pass elif end then begin match when where go defer chan select goto int long short "
    "char float double bool boolean string byte unsigned signed auto extern inline virtual "
    "override template typename operator sizeof instanceof typeof readonly declare get set mut "
    "impl trait pub crate mod loop local global nonlocal del assert print echo";

static int isKeyword(uint64_t h) {
  uint32_t slot = (uint32_t)((h * 0x9e3779b97f4a7c15ULL) >> 54);
  for (;;) {
    uint64_t v = KEYWORDS[slot];
    if (v == 0) return 0;
    if (v == h) return 1;
    slot = (slot + 1) & (KW_SLOTS - 1);
  }
}

static void addKeyword(uint64_t h) {
  uint32_t slot = (uint32_t)((h * 0x9e3779b97f4a7c15ULL) >> 54);
  while (KEYWORDS[slot] != 0 && KEYWORDS[slot] != h) slot = (slot + 1) & (KW_SLOTS - 1);
  KEYWORDS[slot] = h;
}

static void initTables(void) {
  static int done = 0;
  if (done) return; /* same values from every thread: a benign repeat at worst */
  for (int c = 0; c < 128; c++) {
    int letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95 || c == 36;
    int digit = c >= 48 && c <= 57;
    ASCII_WORD[c] = (letter || digit) ? 1 : 0;
    CODE_CLASS[c] = c <= 32 ? C_SPACE
                    : letter ? C_IDENT
                    : digit ? C_DIGIT
                    : (c == 34 || c == 96) ? C_QUOTE
                    : c == 39 ? C_SQUOTE
                              : C_PUNCT;
    PUNCT_HASH[c] = fnvStep(FNV_OFFSET, (uint32_t)c);
  }
  ID_HASH = fnvAscii("\001id");
  NUM_HASH = fnvAscii("\001num");
  STR_HASH = fnvAscii("\001str");
  char word[32];
  const char *p = KEYWORD_LIST;
  while (*p) {
    int n = 0;
    while (*p && *p != ' ' && n < 31) word[n++] = *p++;
    word[n] = 0;
    if (n) addKeyword(fnvAscii(word));
    while (*p == ' ') p++;
  }
  done = 1;
}

static inline int isSpaceWide(uint32_t c) { return c == 0xa0 || c == 0xfeff || c == 0x3000 || c == 0x2028 || c == 0x2029; }

static int tokenizeCode(Kernel *K, const Lang *L, int normalize) {
  const uint16_t *t = K->text;
  const int n = K->textLen;
  const uint8_t *word = K->word;
  int len = 0;
  int i = 0;
  while (i < n) {
    uint32_t c = t[i];
    int cls;
    if (c < 128) {
      cls = CODE_CLASS[c];
      if (cls == C_SPACE) {
        i++;
        continue;
      }
      if (L->first[c]) {
        int e = skipComment(t, n, i, L);
        if (e >= 0) {
          i = e;
          continue;
        }
      }
      if (cls == C_SQUOTE) cls = L->singleQuote ? C_QUOTE : C_PUNCT;
    } else if (isSpaceWide(c)) {
      i++;
      continue;
    } else {
      cls = word[c] ? C_IDENT : C_PUNCT;
    }
    const int start = i;
    uint64_t h;
    if (cls == C_PUNCT) {
      h = c < 128 ? PUNCT_HASH[c] : fnvStep(FNV_OFFSET, c);
      i++;
    } else if (cls == C_IDENT) {
      h = FNV_OFFSET;
      for (;;) {
        h = fnvStep(h, c);
        if (++i >= n) break;
        c = t[i];
        if (c < 128 ? !ASCII_WORD[c] : !word[c]) break;
      }
      if (normalize && !isKeyword(h)) h = ID_HASH;
    } else if (cls == C_DIGIT) {
      h = FNV_OFFSET;
      for (;;) {
        h = fnvStep(h, c);
        if (++i >= n) break;
        c = t[i];
        int part = c < 128 ? ASCII_WORD[c] : word[c];
        if (!part && !(c == 46 && i + 1 < n && t[i + 1] >= 48 && t[i + 1] <= 57)) break;
      }
      if (normalize) h = NUM_HASH;
    } else {
      const uint32_t q = c;
      const int multiline = q == 96;
      h = fnvStep(FNV_OFFSET, q);
      i++;
      while (i < n) {
        uint32_t d = t[i];
        if (d == 10 && !multiline) break;
        h = fnvStep(h, d);
        i++;
        if (d == 92) {
          if (i < n) {
            h = fnvStep(h, t[i]);
            i++;
          }
        } else if (d == q) {
          break;
        }
      }
      if (normalize) h = STR_HASH;
    }
    if ((size_t)len == K->tokCap) {
      size_t cap = K->tokCap, cap2 = K->tokCap, cap3 = K->tokCap;
      if (!growArray((void **)&K->thi, &cap, len + 1, 4) || !growArray((void **)&K->tlo, &cap2, len + 1, 4) ||
          !growArray((void **)&K->tstart, &cap3, len + 1, 4))
        return -1;
      K->tokCap = cap;
    }
    K->thi[len] = (uint32_t)(h >> 32);
    K->tlo[len] = (uint32_t)h;
    K->tstart[len] = start;
    len++;
  }
  K->ntok = len;
  return len;
}

/* ------------------------------------------------------------------------------- shingles */

/* Numbers the shingles of tokens [from, to) with k tokens each into s (see simhash.ts). */
static int buildSeq(Kernel *K, Seq *s, int from, int to, int k) {
  const int positions = to - from - k + 1;
  if (!growSeq(s, positions)) return 0;
  s->length = positions;
  s->from = from;
  s->k = k;
  int bits = 8;
  while ((1 << bits) < positions * 2) bits++;
  if (!growArray((void **)&K->table, &K->tableCap, (size_t)2 << bits, 4)) return 0;
  memset(K->table, 0, ((size_t)2 << bits) * 4);
  if (K->idCap < (size_t)positions) {
    size_t cap = K->idCap, cap2 = K->idCap;
    if (!growArray((void **)&K->foldedB, &cap, positions, 4) || !growArray((void **)&K->lastSeen, &cap2, positions, 4)) return 0;
    K->idCap = cap;
  }
  const uint32_t mask = (1u << bits) - 1;
  const int shift = 32 - bits;
  int32_t *tab = K->table;
  int32_t *last = K->lastSeen;
  int32_t *keyB = K->foldedB;
  int32_t *id = s->id, *prev = s->prev;
  uint32_t *outHi = s->hi, *outLo = s->lo, *count = s->count;
  const uint32_t *thi = K->thi, *tlo = K->tlo;
  int ids = 0;
  for (int p = 0; p < positions; p++) {
    const int i = from + p;
    uint32_t a = tlo[i], b = thi[i];
    for (int j = 1; j < k; j++) {
      a = (rotl32(a, 5) ^ tlo[i + j]) * 0x9e3779b1u;
      b = (rotl32(b, 7) ^ thi[i + j]) * 0x85ebca77u;
    }
    uint32_t slot = ((a ^ (b * 0x27d4eb2fu)) * 0x9e3779b1u) >> shift;
    for (;;) {
      const uint32_t w = slot << 1;
      const int32_t entry = tab[w + 1];
      if (entry == 0) {
        tab[w] = (int32_t)a;
        tab[w + 1] = ids + 1;
        keyB[ids] = (int32_t)b;
        id[p] = ids;
        prev[p] = -1;
        last[ids] = p;
        count[ids] = 1;
        const uint32_t m = fmix32(a ^ (b * 0x9e3779b1u) ^ (b >> 15));
        const uint32_t h = fmix32(b ^ (m * 0x27d4eb2fu) ^ 0x165667b1u);
        outHi[ids] = h;
        outLo[ids] = fmix32(m ^ (h * 0x85ebca77u));
        ids++;
        break;
      }
      if (tab[w] == (int32_t)a && keyB[entry - 1] == (int32_t)b) {
        const int d = entry - 1;
        id[p] = d;
        prev[p] = last[d];
        last[d] = p;
        count[d]++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  s->distinct = ids;
  return 1;
}

/* ------------------------------------------------------------------------------- SimHash */

/* Per-bit majority of `count` values, each counted once: SWAR counters (4-bit lanes for 15
 * values, 8-bit lanes for 255). Returns the 64-bit fingerprint. */
static uint64_t majority(const uint32_t *hiArr, const uint32_t *loArr, int count) {
  uint32_t bitCounts[64];
  memset(bitCounts, 0, sizeof bitCounts);
  const uint64_t M1 = 0x1111111111111111ULL, M4 = 0x0f0f0f0f0f0f0f0fULL;
  int s = 0;
  while (s < count) {
    const int end255 = count < s + 255 ? count : s + 255;
    uint64_t e[4] = {0, 0, 0, 0}, o[4] = {0, 0, 0, 0};
    while (s < end255) {
      const int end15 = end255 < s + 15 ? end255 : s + 15;
      uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (; s < end15; s++) {
        const uint64_t v = ((uint64_t)hiArr[s] << 32) | loArr[s];
        a0 += v & M1;
        a1 += (v >> 1) & M1;
        a2 += (v >> 2) & M1;
        a3 += (v >> 3) & M1;
      }
      e[0] += a0 & M4;
      o[0] += (a0 >> 4) & M4;
      e[1] += a1 & M4;
      o[1] += (a1 >> 4) & M4;
      e[2] += a2 & M4;
      o[2] += (a2 >> 4) & M4;
      e[3] += a3 & M4;
      o[3] += (a3 >> 4) & M4;
    }
    /* e[j] byte b counts bit 8b + j; o[j] byte b counts bit 8b + 4 + j. */
    for (int j = 0; j < 4; j++) {
      for (int b = 0; b < 8; b++) {
        bitCounts[8 * b + j] += (uint32_t)((e[j] >> (8 * b)) & 0xff);
        bitCounts[8 * b + 4 + j] += (uint32_t)((o[j] >> (8 * b)) & 0xff);
      }
    }
  }
  uint64_t bits = 0;
  for (int b = 0; b < 64; b++)
    if ((uint64_t)bitCounts[b] * 2 > (uint64_t)count) bits |= 1ULL << b;
  return bits;
}

static inline double logOf(const Kernel *K, uint32_t n) { return n < (uint32_t)K->nLogs ? K->logs[n] : log((double)n); }

/* tf weighting: 1 + ln(count) per distinct shingle, summed in order (as Math.log does in JS). */
static uint64_t weightedMajority(const Kernel *K, const uint32_t *hiArr, const uint32_t *loArr, const uint32_t *countArr, int count) {
  double counters[64];
  for (int b = 0; b < 64; b++) counters[b] = 0;
  for (int s = 0; s < count; s++) {
    const uint32_t hi = hiArr[s], lo = loArr[s];
    const double w = 1 + logOf(K, countArr[s]);
    for (int bit = 0; bit < 32; bit++) {
      counters[bit] += ((lo >> bit) & 1) ? w : -w;
      counters[32 + bit] += ((hi >> bit) & 1) ? w : -w;
    }
  }
  uint64_t bits = 0;
  for (int b = 0; b < 64; b++)
    if (counters[b] > 0) bits |= 1ULL << b;
  return bits;
}

/* ------------------------------------------------------------------------------- sketch */

#define TWO_32 4294967296.0

/* The k smallest of values[0, count) with repeats, ascending, then without repeats, into dst;
 * returns how many (see bottomK in simhash.ts: a threshold, a bucket sort, an insertion sort). */
static int bottomK(Kernel *K, const uint32_t *values, int count, int k, uint32_t *dst) {
  if (k <= 0) return 0;
  if (K->candCap < (size_t)count) {
    size_t cap = K->candCap, cap2 = K->candCap;
    if (!growArray((void **)&K->cand, &cap, count, 4) || !growArray((void **)&K->sorted, &cap2, count, 4)) return -1;
    K->candCap = cap;
  }
  double limit = count <= k ? TWO_32 : fmin(TWO_32, ceil(((k * 1.25 + 8) / count) * TWO_32));
  int m;
  uint32_t *cand = K->cand;
  for (;;) {
    m = 0;
    /* limit is a whole number up to 2^32: the same test in integers */
    const uint64_t below = (uint64_t)limit;
    for (int s = 0; s < count; s++) {
      const uint32_t v = values[s];
      cand[m] = v; /* kept when below (branch-free: which values are is a coin toss) */
      m += v < below;
    }
    if (m >= k || m == count) break;
    limit = fmin(TWO_32, limit * 2);
  }
  int nb = 16;
  while (nb < m) nb *= 2;
  /* nb + 2 entries: a value whose bucket rounds up to nb counts into start[nb + 1], never read. */
  if (!growArray((void **)&K->buckets, &K->bucketCap, (size_t)nb + 2, 4)) return -1;
  int32_t *start = K->buckets;
  memset(start, 0, ((size_t)nb + 2) * 4);
  const double scale = nb / limit;
  /* (int) of a non-negative product is its floor */
  for (int s = 0; s < m; s++) start[(int)(cand[s] * scale) + 1]++;
  for (int b = 1; b <= nb; b++) start[b] += start[b - 1];
  uint32_t *to = K->sorted;
  for (int s = 0; s < m; s++) {
    const uint32_t v = cand[s];
    to[start[(int)(v * scale)]++] = v;
  }
  for (int s = 1; s < m; s++) {
    const uint32_t v = to[s];
    int j = s - 1;
    while (j >= 0 && to[j] > v) {
      to[j + 1] = to[j];
      j--;
    }
    to[j + 1] = v;
  }
  const int take = k < m ? k : m;
  int w = 0;
  for (int r = 0; r < take; r++)
    if (r == 0 || to[r] != to[r - 1]) dst[w++] = to[r];
  return w;
}

/* ------------------------------------------------------------------------------- ranges */

static int ensureItem(Kernel *K, size_t n) {
  if (K->itemCap >= n) return 1;
  size_t c1 = K->itemCap, c2 = K->itemCap, c3 = K->itemCap, c4 = K->itemCap;
  if (!growArray((void **)&K->dhi, &c1, n, 4) || !growArray((void **)&K->dlo, &c2, n, 4) || !growArray((void **)&K->dcount, &c3, n, 4) ||
      !growArray((void **)&K->dindex, &c4, n, 4))
    return 0;
  K->itemCap = c1;
  return 1;
}

typedef struct {
  uint64_t bits;
  int features;
  int sketchLen;
} Item;

/* Fingerprints tokens [from, to) from sequence s (built over them or a range around them);
 * the sketch goes to dst (room for `sketch` values). Returns 0 on allocation failure. */
static int fingerprintRange(Kernel *K, const Seq *s, int from, int to, int tf, int sketch, uint32_t *dst, Item *out) {
  const int first = from - s->from;
  const int end = to - s->from - s->k + 1;
  const uint32_t *hiArr, *loArr, *countArr;
  int distinct;
  if (first == 0 && end == s->length) {
    hiArr = s->hi;
    loArr = s->lo;
    countArr = s->count;
    distinct = s->distinct;
  } else {
    if (!ensureItem(K, (size_t)(end - first))) return 0;
    const int32_t *id = s->id, *prev = s->prev;
    uint32_t *dhi = K->dhi, *dlo = K->dlo, *dcount = K->dcount;
    int32_t *dindex = K->dindex;
    distinct = 0;
    if (!tf) {
      /* Each position's shingle is written, and kept when its first in the range (branch-free). */
      for (int p = first; p < end; p++) {
        const int d = id[p];
        dhi[distinct] = s->hi[d];
        dlo[distinct] = s->lo[d];
        distinct += prev[p] < first;
      }
    } else {
      for (int p = first; p < end; p++) {
        const int q = prev[p];
        if (q < first) {
          const int d = id[p];
          dhi[distinct] = s->hi[d];
          dlo[distinct] = s->lo[d];
          dcount[distinct] = 1;
          dindex[p - first] = distinct++;
        } else {
          const int d = dindex[q - first];
          dcount[d]++;
          dindex[p - first] = d;
        }
      }
    }
    hiArr = dhi;
    loArr = dlo;
    countArr = dcount;
  }
  out->bits = tf ? weightedMajority(K, hiArr, loArr, countArr, distinct) : majority(hiArr, loArr, distinct);
  out->features = distinct;
  const int n = bottomK(K, hiArr, distinct, sketch, dst);
  if (n < 0) return 0;
  out->sketchLen = n;
  return 1;
}

static int lowerBound(const Kernel *K, int offset) {
  int a = 0, b = K->ntok;
  while (a < b) {
    const int m = (int)(((unsigned)a + (unsigned)b) >> 1);
    if (K->tstart[m] < offset) a = m + 1;
    else b = m;
  }
  return a;
}

/* ------------------------------------------------------------------------------- Node-API */

#define CALL(e)                                                    \
  do {                                                             \
    if ((e) != napi_ok) return throwError(env, "napi call failed"); \
  } while (0)

static napi_value throwError(napi_env env, const char *msg) {
  napi_throw_error(env, NULL, msg);
  return NULL;
}

static Kernel *kernelOf(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok) return NULL;
  return data;
}

static napi_value number(napi_env env, double v) {
  napi_value r;
  napi_create_double(env, v, &r);
  return r;
}

static int typedArray(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &type, length, data, &ab, &off) != napi_ok) return 0;
  return type == want;
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
  memcpy(K->word, word, 65536);
  double *copy = malloc((nLogs ? nLogs : 1) * sizeof(double));
  if (!copy) return throwError(env, "out of memory");
  memcpy(copy, logs, nLogs * sizeof(double));
  free(K->logs);
  K->logs = copy;
  K->nLogs = (int)nLogs;
  K->ready = 1;
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

static napi_value jsDefineLanguage(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || argc < 4) return throwError(env, "defineLanguage(line, open, close, singleQuote, lineStart?, lineBlockOpen?, lineBlockClose?)");
  if (K->nLangs == MAX_LANGS || !growArray((void **)&K->langs, &K->langCap, (size_t)K->nLangs + 1, sizeof(Lang))) return number(env, -1);
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
  langFinish(&L);
  K->langs[K->nLangs] = L;
  return number(env, K->nLangs++);
}

static napi_value jsTokenize(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  if (!K || !K->ready || argc < 3) return throwError(env, "tokenize(text, languageId, normalize) before init");
  int32_t langId;
  bool normalize;
  CALL(napi_get_value_int32(env, argv[1], &langId));
  CALL(napi_get_value_bool(env, argv[2], &normalize));
  if (langId < 0 || langId >= K->nLangs) return throwError(env, "unknown language id");
  size_t len = 0;
  CALL(napi_get_value_string_utf16(env, argv[0], NULL, 0, &len));
  if (len > 0x7ffffff0u) return throwError(env, "text too long");
  if (!growArray((void **)&K->text, &K->textCap, len + 1, 2)) return throwError(env, "out of memory");
  size_t got = 0;
  CALL(napi_get_value_string_utf16(env, argv[0], (char16_t *)K->text, len + 1, &got));
  K->textLen = (int)got;
  K->ntok = 0;
  K->sectionsReady = 0;
  const int n = tokenizeCode(K, &K->langs[langId], normalize);
  if (n < 0) return throwError(env, "out of memory");
  return number(env, n);
}

/* Default options of codeSections (src/core/sections/), for fingerprint's sections. */
#define SECTIONS_MAX_DEPTH 2
#define SECTIONS_MIN_LINES 3

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
  const int total = K->ntok;
  if (total <= 0 || k < 1 || k > total || fileSketch < 0 || sectionSketch < 0) return throwError(env, "bad fingerprint arguments");
  int rangeCount = 0;
  if (withSections) {
    /* Found once per text: a retry with a bigger `out` reuses them. */
    if (!K->sectionsReady) {
      if (computeCodeSections(&K->sections, K->text, K->textLen, SECTIONS_MAX_DEPTH, SECTIONS_MIN_LINES) < 0) return throwError(env, "out of memory");
      K->sectionsReady = 1;
    }
    rangeCount = K->sections.count;
  }
  const SectionRange *sections = K->sections.ranges;
  const size_t head = 7; /* words before a section's sketch: startLine endLine hi lo tokens features n */
  uint32_t *out = outData;
  /* Room check up front: the worst case of every section kept with a full sketch. */
  const size_t need = 5 + (size_t)fileSketch + (size_t)rangeCount * (head + (size_t)sectionSketch);
  if (outLen < need) return number(env, -(double)need);
  if (!buildSeq(K, &K->file, 0, total, k)) return throwError(env, "out of memory");
  Item it;
  if (!fingerprintRange(K, &K->file, 0, total, tf, fileSketch, out + 5, &it)) return throwError(env, "out of memory");
  out[0] = (uint32_t)(it.bits >> 32);
  out[1] = (uint32_t)it.bits;
  out[2] = (uint32_t)total;
  out[3] = (uint32_t)it.features;
  out[4] = (uint32_t)it.sketchLen;
  size_t w = 5 + (size_t)it.sketchLen;
  for (int r = 0; r < rangeCount; r++) {
    const int from = lowerBound(K, sections[r].startOffset);
    const int to = lowerBound(K, sections[r].endOffset);
    if (to - from < minTokens || (double)(to - from) >= total * 0.95) continue;
    const Seq *s = &K->file;
    if (to - from < k) {
      /* Shorter than the shingle size: shingles of its own length (simhashTokens). */
      const int tokens = to - from;
      if (tokens <= 0) continue;
      if (!buildSeq(K, &K->spare, from, to, tokens)) return throwError(env, "out of memory");
      s = &K->spare;
    }
    if (!fingerprintRange(K, s, from, to, tf, sectionSketch, out + w + head, &it)) return throwError(env, "out of memory");
    out[w] = (uint32_t)sections[r].startLine;
    out[w + 1] = (uint32_t)sections[r].endLine;
    out[w + 2] = (uint32_t)(it.bits >> 32);
    out[w + 3] = (uint32_t)it.bits;
    out[w + 4] = (uint32_t)(to - from);
    out[w + 5] = (uint32_t)it.features;
    out[w + 6] = (uint32_t)it.sketchLen;
    w += head + (size_t)it.sketchLen;
  }
  return number(env, (double)w);
}

/* allPairs(fp: Uint32Array, k, maxCandidates) -> { a, b, distance } or null (see allpairs.c). */
static napi_value jsAllPairs(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 3) return throwError(env, "allPairs(fp, k, maxCandidates)");
  void *data;
  size_t len;
  if (!typedArray(env, argv[0], napi_uint32_array, &data, &len) || len % 2 != 0) return throwError(env, "fp: Uint32Array of (hi, lo) pairs");
  int32_t k;
  double maxCandidates;
  CALL(napi_get_value_int32(env, argv[1], &k));
  CALL(napi_get_value_double(env, argv[2], &maxCandidates));
  if (k < 0 || k > 63 || !(maxCandidates >= 0)) return throwError(env, "bad k or maxCandidates");
  AllPairsResult r;
  const int status = allPairsSearch(data, (uint32_t)(len / 2), k, maxCandidates > 1e12 ? (size_t)1e12 : (size_t)maxCandidates, &r);
  if (status < 0) return throwError(env, "out of memory");
  napi_value result;
  if (status == 0) {
    CALL(napi_get_null(env, &result));
    return result;
  }
  napi_value abA, abB, abD, a, b, d;
  void *pa, *pb, *pd;
  const size_t n = r.length;
  int ok = napi_create_arraybuffer(env, n * 4, &pa, &abA) == napi_ok && napi_create_arraybuffer(env, n * 4, &pb, &abB) == napi_ok &&
           napi_create_arraybuffer(env, n, &pd, &abD) == napi_ok;
  if (ok && n) {
    memcpy(pa, r.a, n * 4);
    memcpy(pb, r.b, n * 4);
    memcpy(pd, r.distance, n);
  }
  free(r.a);
  free(r.b);
  free(r.distance);
  if (!ok) return throwError(env, "out of memory");
  CALL(napi_create_typedarray(env, napi_uint32_array, n, abA, 0, &a));
  CALL(napi_create_typedarray(env, napi_uint32_array, n, abB, 0, &b));
  CALL(napi_create_typedarray(env, napi_uint8_array, n, abD, 0, &d));
  CALL(napi_create_object(env, &result));
  CALL(napi_set_named_property(env, result, "a", a));
  CALL(napi_set_named_property(env, result, "b", b));
  CALL(napi_set_named_property(env, result, "distance", d));
  return result;
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
  if (!growArray((void **)&K->secText, &K->secTextCap, len + 1, 2)) return throwError(env, "out of memory");
  size_t got = 0;
  CALL(napi_get_value_string_utf16(env, argv[0], (char16_t *)K->secText, len + 1, &got));
  /* The scratch now holds these sections, not the last tokenize's. */
  K->sectionsReady = 0;
  const int count = computeCodeSections(&K->sections, K->secText, (int)got, maxDepth, minLines);
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

/* anchorSeeds(hash, doc, pos: Uint32Array, n, caps: Uint32Array, maxDocs) -> { pairs: Int32Array,
 * buckets: Uint32Array, dropped }: AnchorIndex.seeds of src/core/regions/anchorIndex.ts without
 * rescue (native/seeds.c): the seeds (a, b) sorted by (docA, docB, a, b), and (docA, docB, end)
 * per pair of documents. caps[d]: the postings cap of a hash whose first posting is in d. */
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
  napi_value abP, abB, pairs, buckets, result;
  void *pp, *pb;
  const int ok = napi_create_arraybuffer(env, r.seeds * 8, &pp, &abP) == napi_ok && napi_create_arraybuffer(env, r.nBuckets * 12, &pb, &abB) == napi_ok;
  if (ok) {
    if (r.seeds) memcpy(pp, r.pairs, r.seeds * 8);
    if (r.nBuckets) memcpy(pb, r.buckets, r.nBuckets * 12);
  }
  free(r.pairs);
  free(r.buckets);
  if (!ok) return throwError(env, "out of memory");
  CALL(napi_create_typedarray(env, napi_int32_array, r.seeds * 2, abP, 0, &pairs));
  CALL(napi_create_typedarray(env, napi_uint32_array, r.nBuckets * 3, abB, 0, &buckets));
  CALL(napi_create_object(env, &result));
  CALL(napi_set_named_property(env, result, "pairs", pairs));
  CALL(napi_set_named_property(env, result, "buckets", buckets));
  CALL(napi_set_named_property(env, result, "dropped", number(env, r.dropped)));
  return result;
}

/* A stream argument: a Uint32Array of `length` tokens, or (optional) null / undefined. */
static int streamArg(napi_env env, napi_value v, int optional, int32_t length, const uint32_t **out) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) return 0;
  if (optional && (t == napi_null || t == napi_undefined)) {
    *out = NULL;
    return 1;
  }
  void *data;
  size_t len;
  if (!typedArray(env, v, napi_uint32_array, &data, &len) || len < (size_t)length) return 0;
  *out = data;
  return 1;
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

NAPI_MODULE_INIT() {
  initTables();
  napi_value version;
  if (napi_create_int32(env, KERNEL_VERSION, &version) != napi_ok) return NULL;
  Kernel *K = calloc(1, sizeof(Kernel));
  if (!K || napi_set_instance_data(env, K, finalizeKernel, NULL) != napi_ok) {
    free(K);
    napi_throw_error(env, NULL, "neardup kernel: cannot allocate its state");
    return NULL;
  }
  napi_property_descriptor props[] = {
      {"init", NULL, jsInit, NULL, NULL, NULL, napi_default, NULL},
      {"defineLanguage", NULL, jsDefineLanguage, NULL, NULL, NULL, napi_default, NULL},
      {"tokenize", NULL, jsTokenize, NULL, NULL, NULL, napi_default, NULL},
      {"fingerprint", NULL, jsFingerprint, NULL, NULL, NULL, napi_default, NULL},
      {"allPairs", NULL, jsAllPairs, NULL, NULL, NULL, napi_default, NULL},
      {"codeSections", NULL, jsCodeSections, NULL, NULL, NULL, napi_default, NULL},
      {"alignChain", NULL, jsAlignChain, NULL, NULL, NULL, napi_default, NULL},
      {"tokens", NULL, jsTokens, NULL, NULL, NULL, napi_default, NULL},
      {"anchorSeeds", NULL, jsAnchorSeeds, NULL, NULL, NULL, napi_default, NULL},
      {"version", NULL, NULL, NULL, NULL, version, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
