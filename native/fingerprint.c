/*
 * NearDup's fingerprinting kernel, its computing half: the code tokeniser, shingle numbering,
 * SimHash and bottom-k sketches of src/core/text/tokenize.ts and src/core/fingerprint/simhash.ts,
 * with the code sections of native/sections.c. Plain C with no host interface: kernel.c puts it
 * behind Node-API (the addon), wasm.c behind WebAssembly exports (the .wasm), so both compile
 * these same functions (one source of truth). See kernel.c for the interface they offer.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "grow.h"
#include "hash.h"

#if defined(__wasm_simd128__)
/* The WebAssembly build (-msimd128): SimHash's bit counts with SIMD128 (the addon's gcc vectorises the SWAR loop itself). */
#include <wasm_simd128.h>
#define TOKEN_SIMD128 1
#define SHINGLE_PASSES 1
#endif

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

void kernelFree(Kernel *k) {
  if (!k) return;
  free(k->logs);
  free(k->langs);
  free(k->text);
  free(k->thi);
  free(k->tlo);
  free(k->talt);
  free(k->tstart);
  free(k->rhi);
  free(k->rlo);
  free(k->rident);
  free(k->ihi);
  free(k->ilo);
  free(k->lines);
  free(k->kgrams);
  free(k->ahash);
  free(k->apos);
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

/* Keywords after which `/` opens a regex: REGEX_KEYWORDS of src/core/text/comments.ts. */
static const char *const REGEX_KEYWORD_LIST[] = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await", "instanceof"};
#define N_REGEX_KEYWORDS (int)(sizeof REGEX_KEYWORD_LIST / sizeof REGEX_KEYWORD_LIST[0])
static uint64_t REGEX_KEYWORDS[N_REGEX_KEYWORDS];

/* The slot multiplier: chosen (by search) so that every keyword of the list has a slot of its own,
 * so a lookup is one load and one compare (KW_PROBE stays 0; a longer list that collides still
 * works, probing the KW_PROBE slots after). */
#define KW_MUL 0x078ccc746a9ae867ULL
static int KW_PROBE;

static inline int isKeyword(uint64_t h) {
  const uint32_t slot = (uint32_t)((h * KW_MUL) >> 54);
  int kw = KEYWORDS[slot] == h;
  for (int k = 1; k <= KW_PROBE; k++) kw |= KEYWORDS[(slot + (uint32_t)k) & (KW_SLOTS - 1)] == h;
  return kw;
}

static void addKeyword(uint64_t h) {
  uint32_t slot = (uint32_t)((h * KW_MUL) >> 54);
  int probe = 0;
  while (KEYWORDS[slot] != 0 && KEYWORDS[slot] != h) {
    slot = (slot + 1) & (KW_SLOTS - 1);
    probe++;
  }
  KEYWORDS[slot] = h;
  if (probe > KW_PROBE) KW_PROBE = probe;
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
  for (int k = 0; k < N_REGEX_KEYWORDS; k++) REGEX_KEYWORDS[k] = fnvAscii(REGEX_KEYWORD_LIST[k]);
  done = 1;
}

/* Whether a `/` may open a regex after token `last` of this tokenize (none when last < 0):
 * regexMayStart of src/core/text/tokenize.ts, from the token's first unit and hash. */
static int regexMayStart(const Kernel *K, const Lang *L, const uint16_t *t, int last) {
  if (last < 0) return 1;
  const uint32_t p = t[K->tstart[last]];
  if (p >= 128) return !K->word[p];
  const uint64_t h = ((uint64_t)K->thi[last] << 32) | K->tlo[last];
  switch (CODE_CLASS[p]) {
    case C_IDENT:
      for (int k = 0; k < N_REGEX_KEYWORDS; k++)
        if (REGEX_KEYWORDS[k] == h) return 1;
      return 0;
    case C_PUNCT:
      /* `/` only as division (a regex token starts with `/` too); not after ) ] } or < (JSX's `</`) */
      return p == 47 ? h == PUNCT_HASH[47] : (p != 41 && p != 93 && p != 125 && p != 60);
    case C_SQUOTE:
      return !L->singleQuote;
    default:
      return 0;
  }
}

/* The end (exclusive) of a regex literal opened by the `/` at i, its flags included, or -1:
 * regexLiteralEnd of src/core/text/comments.ts (never across a line break). */
static int regexLiteralEnd(const uint16_t *t, int n, int i) {
  uint32_t d = i + 1 < n ? t[i + 1] : 0;
  if (d == 47 || d == 42) return -1;
  int inClass = 0;
  for (int j = i + 1; j < n; j++) {
    d = t[j];
    if (d == 10 || d == 13) return -1;
    if (d == 92) {
      if (++j >= n) return -1;
      d = t[j];
      if (d == 10 || d == 13) return -1;
    } else if (d == 91) inClass = 1;
    else if (d == 93) inClass = 0;
    else if (d == 47 && !inClass) {
      j++;
      while (j < n && t[j] < 128 && ASCII_WORD[t[j]]) j++;
      return j;
    }
  }
  return -1;
}

/* The first unit at or after i that is not ASCII white space or a control (> 32), or n. */
static inline int skipAsciiSpace(const uint16_t *t, int n, int i) {
#ifdef TOKEN_SIMD128
  for (; i + 8 <= n; i += 8) {
    const unsigned m = wasm_i16x8_bitmask(wasm_u16x8_gt(wasm_v128_load(t + i), wasm_i16x8_splat(32)));
    if (m) return i + __builtin_ctz(m);
  }
#endif
  while (i < n && t[i] <= 32) i++;
  return i;
}

static inline int isSpaceWide(uint32_t c) { return c == 0xa0 || c == 0xfeff || c == 0x3000 || c == 0x2028 || c == 0x2029; }

/* The tokeniser; with `region` (a constant at each call: the compiler makes two loops, so a
 * fingerprint alone pays nothing for it) also each token's raw hash and whether it is an
 * identifier, for kernelRegion. */
static inline __attribute__((always_inline)) int tokenizeCodeWith(Kernel *K, const Lang *L, int normalize, const int region) {
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
        /* a run of ASCII white space in one go */
        i = skipAsciiSpace(t, n, i + 1);
        continue;
      }
      if (L->first[c]) {
        const int e = skipComment(t, n, i, L);
        if (e >= 0) {
          i = e;
          continue;
        }
        /* c and its class again rather than kept across the call (WebAssembly engines keep
         * what lives across a call on the stack, on every turn) */
        c = t[i];
        cls = CODE_CLASS[c];
      }
      if (cls == C_SQUOTE) cls = L->singleQuote ? C_QUOTE : C_PUNCT;
    } else if (isSpaceWide(c)) {
      i++;
      continue;
    } else {
      cls = word[c] ? C_IDENT : C_PUNCT;
    }
    const int start = i;
    uint64_t h, raw;
    uint32_t alt; /* the other form's low word (TokenBuffer.alt) */
    int ident = 0; /* an identifier, not a keyword (region only) */
    int regexEnd = -1;
    if (c == 47 && cls == C_PUNCT && L->regex && regexMayStart(K, L, t, len - 1)) regexEnd = regexLiteralEnd(t, n, i);
    if (regexEnd >= 0) {
      /* a regular expression: one literal token, as a string */
      h = FNV_OFFSET;
      for (; i < regexEnd; i++) h = fnvStep(h, t[i]);
      raw = h;
      if (normalize) {
        alt = (uint32_t)h;
        h = STR_HASH;
      } else alt = (uint32_t)STR_HASH;
    } else if (cls == C_PUNCT) {
      h = c < 128 ? PUNCT_HASH[c] : fnvStep(FNV_OFFSET, c);
      raw = h;
      alt = (uint32_t)h;
      i++;
    } else if (cls == C_IDENT) {
      h = FNV_OFFSET;
      for (;;) {
        h = fnvStep(h, c);
        if (++i >= n) break;
        c = t[i];
        if (c < 128 ? !ASCII_WORD[c] : !word[c]) break;
      }
      /* A keyword stays itself in the normalised form (branch-free: keywords and other names mix). */
      const int kw = isKeyword(h);
      raw = h;
      ident = !kw;
      if (normalize) {
        alt = (uint32_t)h;
        h = kw ? h : ID_HASH;
      } else alt = kw ? (uint32_t)h : (uint32_t)ID_HASH;
    } else if (cls == C_DIGIT) {
      h = FNV_OFFSET;
      for (;;) {
        h = fnvStep(h, c);
        if (++i >= n) break;
        c = t[i];
        int part = c < 128 ? ASCII_WORD[c] : word[c];
        if (!part && !(c == 46 && i + 1 < n && t[i + 1] >= 48 && t[i + 1] <= 57)) break;
      }
      raw = h;
      if (normalize) {
        alt = (uint32_t)h;
        h = NUM_HASH;
      } else alt = (uint32_t)NUM_HASH;
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
      raw = h;
      if (normalize) {
        alt = (uint32_t)h;
        h = STR_HASH;
      } else alt = (uint32_t)STR_HASH;
    }
    if ((size_t)len == K->tokCap) {
      size_t cap = K->tokCap, cap2 = K->tokCap, cap3 = K->tokCap, cap4 = K->tokCap;
      if (!growArray((void **)&K->thi, &cap, len + 1, 4) || !growArray((void **)&K->tlo, &cap2, len + 1, 4) ||
          !growArray((void **)&K->tstart, &cap3, len + 1, 4) || !growArray((void **)&K->talt, &cap4, len + 1, 4))
        return -1;
      K->tokCap = cap;
    }
    K->thi[len] = (uint32_t)(h >> 32);
    K->tlo[len] = (uint32_t)h;
    K->tstart[len] = start;
    K->talt[len] = alt;
    if (region) {
      if ((size_t)len == K->regionCap) {
        size_t cap = K->regionCap, cap2 = K->regionCap, cap3 = K->regionCap;
        if (!growArray((void **)&K->rhi, &cap, len + 1, 4) || !growArray((void **)&K->rlo, &cap2, len + 1, 4) || !growArray((void **)&K->rident, &cap3, len + 1, 1)) return -1;
        K->regionCap = cap;
      }
      K->rhi[len] = (uint32_t)(raw >> 32);
      K->rlo[len] = (uint32_t)raw;
      K->rident[len] = (uint8_t)ident;
    }
    len++;
  }
  K->ntok = len;
  return len;
}

static int tokenizeCode(Kernel *K, const Lang *L, int normalize) { return tokenizeCodeWith(K, L, normalize, 0); }
static int tokenizeCodeRegion(Kernel *K, const Lang *L, int normalize) { return tokenizeCodeWith(K, L, normalize, 1); }

/* ------------------------------------------------------------------------------- prose */

/* isCjk of src/core/text/tokenize.ts: ideographs, kana, Hangul (the units a CJK segmenter cuts). */
static inline int isProseCjk(uint32_t c) {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0xac00 && c <= 0xd7af) ||
         (c >= 0x31f0 && c <= 0x31ff);
}

static inline int isAsciiAlnum(uint32_t c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57); }
static inline int isAsciiLetter(uint32_t c) { return (c >= 97 && c <= 122) || (c >= 65 && c <= 90); }

int kernelProseTokens(Kernel *K, int len, uint32_t *out, size_t outLen) {
  /* The text is no tokenize's now: fingerprint has no tokens until the next one. */
  K->textLen = len;
  K->ntok = 0;
  K->sectionsReady = 0;
  K->regionReady = 0;
  const uint16_t *t = K->text;
  const uint8_t *word = K->word;
  const int n = len;
  size_t w = 0;
  int entries = 0;
  int i = 0;
  while (i < n) {
    uint32_t c = t[i];
    int kind;
    if (c < 128) {
      if (!isAsciiAlnum(c)) {
        i++;
        continue;
      }
    } else if (isProseCjk(c)) {
      const int start = i;
      do i++;
      while (i < n && isProseCjk(t[i]));
      if (w + PROSE_ENTRY <= outLen) {
        out[w] = PROSE_CJK_RUN;
        out[w + 1] = (uint32_t)start;
        out[w + 2] = (uint32_t)i;
        out[w + 3] = out[w + 4] = 0;
      }
      w += PROSE_ENTRY;
      entries++;
      continue;
    } else if (!word[c]) {
      i++;
      continue;
    }
    /* A word: ASCII letters lower-cased on the fly; a word with other letters is left to the caller. */
    const int start = i;
    uint64_t h = FNV_OFFSET;
    kind = PROSE_WORD;
    while (i < n) {
      uint32_t d = t[i];
      if (d < 128) {
        if (d >= 65 && d <= 90) d |= 32;
        else if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57))) {
          /* inner apostrophe (don't, it's) stays in the word */
          if (!(d == 39 && i + 1 < n && isAsciiLetter(t[i + 1]) && i > start)) break;
        }
      } else if (d == 0x2019 && i + 1 < n && isAsciiLetter(t[i + 1])) {
        d = 39;
      } else if (isProseCjk(d) || !word[d]) {
        break;
      } else {
        kind = PROSE_OTHER_WORD;
      }
      h = fnvStep(h, d);
      i++;
    }
    if (w + PROSE_ENTRY <= outLen) {
      out[w] = (uint32_t)kind;
      out[w + 1] = (uint32_t)start;
      out[w + 2] = (uint32_t)i;
      out[w + 3] = (uint32_t)(h >> 32);
      out[w + 4] = (uint32_t)h;
    }
    w += PROSE_ENTRY;
    entries++;
  }
  return w <= outLen ? entries : -(int)((w + PROSE_ENTRY - 1) / PROSE_ENTRY);
}

/* ------------------------------------------------------------------------------- shingles */

#ifdef SHINGLE_PASSES
/* The keys of the shingles of k tokens at from, from + 1, … (positions of them): per shingle a
 * rotate-xor-multiply fold of its tokens' low words into keyA, of their high words into keyB. */
static void shingleKeys(const uint32_t *tlo, const uint32_t *thi, int from, int positions, int k, uint32_t *keyA, uint32_t *keyB) {
  int p = 0;
#ifdef TOKEN_SIMD128
  /* four shingles a vector (the same 32-bit arithmetic lane by lane) */
  const v128_t ma = wasm_i32x4_splat((int32_t)0x9e3779b1u), mb = wasm_i32x4_splat((int32_t)0x85ebca77u);
  for (; p + 4 <= positions; p += 4) {
    const int i = from + p;
    v128_t a = wasm_v128_load(tlo + i), b = wasm_v128_load(thi + i);
    for (int j = 1; j < k; j++) {
      a = wasm_i32x4_mul(wasm_v128_xor(wasm_v128_or(wasm_i32x4_shl(a, 5), wasm_u32x4_shr(a, 27)), wasm_v128_load(tlo + i + j)), ma);
      b = wasm_i32x4_mul(wasm_v128_xor(wasm_v128_or(wasm_i32x4_shl(b, 7), wasm_u32x4_shr(b, 25)), wasm_v128_load(thi + i + j)), mb);
    }
    wasm_v128_store(keyA + p, a);
    wasm_v128_store(keyB + p, b);
  }
#endif
  for (; p < positions; p++) {
    const int i = from + p;
    uint32_t a = tlo[i], b = thi[i];
    for (int j = 1; j < k; j++) {
      a = (rotl32(a, 5) ^ tlo[i + j]) * 0x9e3779b1u;
      b = (rotl32(b, 7) ^ thi[i + j]) * 0x85ebca77u;
    }
    keyA[p] = a;
    keyB[p] = b;
  }
}

/* The 64-bit hash (hi, lo) of each of n distinct shingles from its keys (keyA in lo, overwritten). */
static void shingleHashes(const uint32_t *keyB, uint32_t *lo, uint32_t *hi, int n) {
  int d = 0;
#ifdef TOKEN_SIMD128
  /* four a vector: fmix32 lane by lane */
#define FMIX32X4(x) \
  (x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16)), x = wasm_i32x4_mul(x, wasm_i32x4_splat((int32_t)0x85ebca6bu)), \
   x = wasm_v128_xor(x, wasm_u32x4_shr(x, 13)), x = wasm_i32x4_mul(x, wasm_i32x4_splat((int32_t)0xc2b2ae35u)), \
   x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16)))
  for (; d + 4 <= n; d += 4) {
    const v128_t a = wasm_v128_load(lo + d), b = wasm_v128_load(keyB + d);
    v128_t m = wasm_v128_xor(wasm_v128_xor(a, wasm_i32x4_mul(b, wasm_i32x4_splat((int32_t)0x9e3779b1u))), wasm_u32x4_shr(b, 15));
    FMIX32X4(m);
    v128_t h = wasm_v128_xor(wasm_v128_xor(b, wasm_i32x4_mul(m, wasm_i32x4_splat((int32_t)0x27d4eb2fu))), wasm_i32x4_splat(0x165667b1));
    FMIX32X4(h);
    v128_t l = wasm_v128_xor(m, wasm_i32x4_mul(h, wasm_i32x4_splat((int32_t)0x85ebca77u)));
    FMIX32X4(l);
    wasm_v128_store(hi + d, h);
    wasm_v128_store(lo + d, l);
  }
#undef FMIX32X4
#endif
  for (; d < n; d++) {
    const uint32_t a = lo[d], b = keyB[d];
    const uint32_t m = fmix32(a ^ (b * 0x9e3779b1u) ^ (b >> 15));
    const uint32_t h = fmix32(b ^ (m * 0x27d4eb2fu) ^ 0x165667b1u);
    hi[d] = h;
    lo[d] = fmix32(m ^ (h * 0x85ebca77u));
  }
}

#endif

/* Numbers the shingles of tokens [from, to) with k tokens each into s (see simhash.ts). With
 * SHINGLE_PASSES (the .wasm), in three passes: the shingles' keys (shingleKeys), the numbering,
 * the distinct shingles' hashes (shingleHashes); the addon does all three in one loop, which gcc
 * keeps in registers but V8 would run largely from the stack. The same ids and hashes either way. */
static int buildSeqOf(Kernel *K, Seq *s, const uint32_t *thi, const uint32_t *tlo, int from, int to, int k) {
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
#ifdef SHINGLE_PASSES
  /* The shingles' two keys first, into id and prev (each read before it is overwritten below). */
  shingleKeys(tlo, thi, from, positions, k, (uint32_t *)id, (uint32_t *)prev);
#endif
  int ids = 0;
  for (int p = 0; p < positions; p++) {
#ifdef SHINGLE_PASSES
    const uint32_t a = (uint32_t)id[p], b = (uint32_t)prev[p];
#else
    const int i = from + p;
    uint32_t a = tlo[i], b = thi[i];
    for (int j = 1; j < k; j++) {
      a = (rotl32(a, 5) ^ tlo[i + j]) * 0x9e3779b1u;
      b = (rotl32(b, 7) ^ thi[i + j]) * 0x85ebca77u;
    }
#endif
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
#ifdef SHINGLE_PASSES
        outLo[ids] = a; /* the key, until shingleHashes */
#else
        const uint32_t m = fmix32(a ^ (b * 0x9e3779b1u) ^ (b >> 15));
        const uint32_t h = fmix32(b ^ (m * 0x27d4eb2fu) ^ 0x165667b1u);
        outHi[ids] = h;
        outLo[ids] = fmix32(m ^ (h * 0x85ebca77u));
#endif
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
#ifdef SHINGLE_PASSES
  shingleHashes((const uint32_t *)keyB, outLo, outHi, ids);
#endif
  s->distinct = ids;
  return 1;
}


/* ------------------------------------------------------------------------------- SimHash */

/* Adds to bitCounts[b] how many of values [s, count) have bit b set: SWAR counters (4-bit lanes
 * for 15 values, 8-bit lanes for 255). */
static void countBits(const uint32_t *hiArr, const uint32_t *loArr, int s, int count, uint32_t *bitCounts) {
  const uint64_t M1 = 0x1111111111111111ULL, M4 = 0x0f0f0f0f0f0f0f0fULL;
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
}

#ifdef TOKEN_SIMD128
/* Adds the 8-bit counters of acc (byte b of each 32-bit lane counts bit `bit` + 8b) to bitCounts. */
static inline void foldCounters(v128_t acc, uint32_t *bitCounts, int bit) {
  /* the four lanes' byte b summed: 16-bit sums of lanes 0 + 2 and 1 + 3, then of those two */
  const v128_t pairs = wasm_i16x8_add(wasm_u16x8_extend_low_u8x16(acc), wasm_u16x8_extend_high_u8x16(acc));
  const v128_t sums = wasm_i16x8_add(pairs, wasm_i64x2_shuffle(pairs, pairs, 1, 0));
  bitCounts[bit] += wasm_u16x8_extract_lane(sums, 0);
  bitCounts[bit + 8] += wasm_u16x8_extract_lane(sums, 1);
  bitCounts[bit + 16] += wasm_u16x8_extract_lane(sums, 2);
  bitCounts[bit + 24] += wasm_u16x8_extract_lane(sums, 3);
}

/*
 * countBits of values [0, count & ~3) with SIMD128, four at a time: the low words of four values in
 * the 32-bit lanes of one vector, their high words in another, the same SWAR counters lane by lane
 * (4-bit for 15 values a lane, 8-bit for 255). Returns where it stopped.
 */
static int countBitsSimd(const uint32_t *hiArr, const uint32_t *loArr, int count, uint32_t *bitCounts) {
  const v128_t M1 = wasm_i32x4_splat(0x11111111), M4 = wasm_i32x4_splat(0x0f0f0f0f);
  const int end = count & ~3;
  int s = 0;
  while (s < end) {
    const int end255 = end < s + 4 * 255 ? end : s + 4 * 255;
    v128_t eLo[4], oLo[4], eHi[4], oHi[4];
    for (int j = 0; j < 4; j++) eLo[j] = oLo[j] = eHi[j] = oHi[j] = wasm_i32x4_splat(0);
    while (s < end255) {
      const int end15 = end255 < s + 4 * 15 ? end255 : s + 4 * 15;
      v128_t l0 = wasm_i32x4_splat(0), l1 = l0, l2 = l0, l3 = l0, h0 = l0, h1 = l0, h2 = l0, h3 = l0;
      for (; s < end15; s += 4) {
        const v128_t lo = wasm_v128_load(loArr + s), hi = wasm_v128_load(hiArr + s);
        l0 = wasm_i32x4_add(l0, wasm_v128_and(lo, M1));
        l1 = wasm_i32x4_add(l1, wasm_v128_and(wasm_u32x4_shr(lo, 1), M1));
        l2 = wasm_i32x4_add(l2, wasm_v128_and(wasm_u32x4_shr(lo, 2), M1));
        l3 = wasm_i32x4_add(l3, wasm_v128_and(wasm_u32x4_shr(lo, 3), M1));
        h0 = wasm_i32x4_add(h0, wasm_v128_and(hi, M1));
        h1 = wasm_i32x4_add(h1, wasm_v128_and(wasm_u32x4_shr(hi, 1), M1));
        h2 = wasm_i32x4_add(h2, wasm_v128_and(wasm_u32x4_shr(hi, 2), M1));
        h3 = wasm_i32x4_add(h3, wasm_v128_and(wasm_u32x4_shr(hi, 3), M1));
      }
      const v128_t a[8] = {l0, l1, l2, l3, h0, h1, h2, h3};
      for (int j = 0; j < 4; j++) {
        eLo[j] = wasm_i32x4_add(eLo[j], wasm_v128_and(a[j], M4));
        oLo[j] = wasm_i32x4_add(oLo[j], wasm_v128_and(wasm_u32x4_shr(a[j], 4), M4));
        eHi[j] = wasm_i32x4_add(eHi[j], wasm_v128_and(a[4 + j], M4));
        oHi[j] = wasm_i32x4_add(oHi[j], wasm_v128_and(wasm_u32x4_shr(a[4 + j], 4), M4));
      }
    }
    /* eLo[j] byte b counts bit 8b + j, oLo[j] bit 8b + 4 + j; eHi, oHi the same 32 bits higher. */
    for (int j = 0; j < 4; j++) {
      foldCounters(eLo[j], bitCounts, j);
      foldCounters(oLo[j], bitCounts, 4 + j);
      foldCounters(eHi[j], bitCounts, 32 + j);
      foldCounters(oHi[j], bitCounts, 36 + j);
    }
  }
  return end;
}
#endif

/* Per-bit majority of `count` values, each counted once. Returns the 64-bit fingerprint. */
static uint64_t majority(const uint32_t *hiArr, const uint32_t *loArr, int count) {
  uint32_t bitCounts[64];
  memset(bitCounts, 0, sizeof bitCounts);
  int s = 0;
#ifdef TOKEN_SIMD128
  s = countBitsSimd(hiArr, loArr, count, bitCounts);
#endif
  countBits(hiArr, loArr, s, count, bitCounts);
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

/* The SimHash bits of tokens [from, to) of a token stream (hi, lo): shingles of max(1, min(k,
 * to - from)) tokens, tf-weighted or not, in the spare sequence (free between calls). 1, 0 (no
 * tokens) or -1 (out of memory). */
int kernelSimhashTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, int from, int to, int k, int tf, uint64_t *bits) {
  const int n = to - from;
  if (n <= 0) return 0;
  if (k > n) k = n;
  if (k < 1) k = 1;
  if (!buildSeqOf(K, &K->spare, hi, lo, from, to, k)) return -1;
  const Seq *s = &K->spare;
  *bits = tf ? weightedMajority(K, s->hi, s->lo, s->count, s->distinct) : majority(s->hi, s->lo, s->distinct);
  return 1;
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

#define CLONE_MUL 0x85ebca6bu
#define CLONE_STEP(c, v) \
  do {                   \
    c = (c ^ (v)) * CLONE_MUL; \
    c ^= c >> 15;        \
  } while (0)

/* The token stream items are fingerprinted from: the last tokenize's, or one the caller tokenised
 * (kernelFingerprintTokens). alt: each token's other form (TokenBuffer.alt); altIsRaw: the tokens
 * were normalised as they were read, so alt is the raw stream. */
typedef struct {
  const uint32_t *hi, *lo, *alt;
  int n, altIsRaw;
} Stream;

/* The clone hashes of tokens [from, to): hashStreams of src/core/fingerprint/cloneHashes.ts (four
 * chains a stream, token i into chain i mod 4, folded at the end), raw then normalised, each hi
 * then lo, into dst[0..3]. */
static void itemHashes(const Stream *t, int from, int to, uint32_t *dst) {
  const uint32_t *lo = t->lo, *alt = t->alt;
  uint32_t a0 = 0x811c9dc5u, a1 = 0x9747b28cu, a2 = 0x2545f491u, a3 = 0x6c8e9cf5u;
  uint32_t b0 = a0, b1 = a1, b2 = a2, b3 = a3;
  int i = from;
  for (; i + 4 <= to; i += 4) {
    CLONE_STEP(a0, lo[i]);
    CLONE_STEP(a1, lo[i + 1]);
    CLONE_STEP(a2, lo[i + 2]);
    CLONE_STEP(a3, lo[i + 3]);
    CLONE_STEP(b0, alt[i]);
    CLONE_STEP(b1, alt[i + 1]);
    CLONE_STEP(b2, alt[i + 2]);
    CLONE_STEP(b3, alt[i + 3]);
  }
  if (i < to) {
    CLONE_STEP(a0, lo[i]);
    CLONE_STEP(b0, alt[i]);
    if (i + 1 < to) {
      CLONE_STEP(a1, lo[i + 1]);
      CLONE_STEP(b1, alt[i + 1]);
      if (i + 2 < to) {
        CLONE_STEP(a2, lo[i + 2]);
        CLONE_STEP(b2, alt[i + 2]);
      }
    }
  }
  const uint32_t n = (uint32_t)(to - from);
  const uint32_t aHi = fmix32(a0 ^ (a2 * 0x9e3779b1u) ^ n);
  const uint32_t aLo = fmix32(a1 ^ (a3 * 0xc2b2ae35u) ^ aHi);
  const uint32_t bHi = fmix32(b0 ^ (b2 * 0x9e3779b1u) ^ n);
  const uint32_t bLo = fmix32(b1 ^ (b3 * 0xc2b2ae35u) ^ bHi);
  const int altIsRaw = t->altIsRaw;
  dst[0] = altIsRaw ? bHi : aHi;
  dst[1] = altIsRaw ? bLo : aLo;
  dst[2] = altIsRaw ? aHi : bHi;
  dst[3] = altIsRaw ? aLo : bLo;
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

/* ------------------------------------------------------------------------------- entry points */

Kernel *kernelNew(void) {
  initTables();
  return calloc(1, sizeof(Kernel));
}

int kernelInit(Kernel *K, const uint8_t *word, const double *logs, size_t nLogs) {
  memcpy(K->word, word, 65536);
  double *copy = malloc((nLogs ? nLogs : 1) * sizeof(double));
  if (!copy) return 0;
  if (nLogs) memcpy(copy, logs, nLogs * sizeof(double));
  free(K->logs);
  K->logs = copy;
  K->nLogs = (int)nLogs;
  K->ready = 1;
  return 1;
}

int kernelDefineLanguage(Kernel *K, const Lang *L) {
  if (K->nLangs == MAX_LANGS || !growArray((void **)&K->langs, &K->langCap, (size_t)K->nLangs + 1, sizeof(Lang))) return -1;
  K->langs[K->nLangs] = *L;
  langFinish(&K->langs[K->nLangs]);
  return K->nLangs++;
}

uint16_t *kernelTextBuffer(Kernel *K, size_t len) {
  if (len > 0x7ffffff0u || !growArray((void **)&K->text, &K->textCap, len + 1, 2)) return NULL;
  return K->text;
}

int kernelTokenize(Kernel *K, int len, const Lang *L, int normalize, int region) {
  K->textLen = len;
  K->ntok = 0;
  K->sectionsReady = 0;
  K->normalized = normalize != 0;
  K->regionReady = 0;
  if (!region) return tokenizeCode(K, L, normalize);
  const int n = tokenizeCodeRegion(K, L, normalize);
  K->regionReady = n >= 0;
  return n;
}

/* Default options of codeSections (src/core/sections/), for fingerprint's sections. */
#define SECTIONS_MAX_DEPTH 2
#define SECTIONS_MIN_LINES 3

/* Words before an item's sketch: the file's hi lo tokens features rawHi rawLo normHi normLo n, a
 * section's startLine endLine and the same. */
#define FILE_HEAD 9
#define SECTION_HEAD 11

/* The whole stream's words (FILE_HEAD, then its sketch) into out: the words written, or -1 out of memory. */
static long fingerprintWhole(Kernel *K, const Stream *t, int k, int tf, int fileSketch, uint32_t *out) {
  if (!buildSeqOf(K, &K->file, t->hi, t->lo, 0, t->n, k)) return -1;
  Item it;
  if (!fingerprintRange(K, &K->file, 0, t->n, tf, fileSketch, out + FILE_HEAD, &it)) return -1;
  out[0] = (uint32_t)(it.bits >> 32);
  out[1] = (uint32_t)it.bits;
  out[2] = (uint32_t)t->n;
  out[3] = (uint32_t)it.features;
  itemHashes(t, 0, t->n, out + 4);
  out[8] = (uint32_t)it.sketchLen;
  return FILE_HEAD + it.sketchLen;
}

/* A section's words (SECTION_HEAD, then its sketch) of tokens [from, to) into out, after
 * fingerprintWhole (its shingles, in K->file): the words written, 0 when the section is left out
 * (fewer than minTokens tokens, or 95 % of the stream or more), or -1 out of memory. */
static long fingerprintSection(Kernel *K, const Stream *t, int from, int to, int startLine, int endLine, int k, int tf, int sectionSketch, int minTokens, uint32_t *out) {
  if (to - from < minTokens || (double)(to - from) >= t->n * 0.95) return 0;
  const Seq *s = &K->file;
  if (to - from < k) {
    /* Shorter than the shingle size: shingles of its own length (simhashTokens). */
    const int tokens = to - from;
    if (tokens <= 0) return 0;
    if (!buildSeqOf(K, &K->spare, t->hi, t->lo, from, to, tokens)) return -1;
    s = &K->spare;
  }
  Item it;
  if (!fingerprintRange(K, s, from, to, tf, sectionSketch, out + SECTION_HEAD, &it)) return -1;
  out[0] = (uint32_t)startLine;
  out[1] = (uint32_t)endLine;
  out[2] = (uint32_t)(it.bits >> 32);
  out[3] = (uint32_t)it.bits;
  out[4] = (uint32_t)(to - from);
  out[5] = (uint32_t)it.features;
  itemHashes(t, from, to, out + 6);
  out[10] = (uint32_t)it.sketchLen;
  return SECTION_HEAD + it.sketchLen;
}

/* The words out must hold for a stream and `sections` sections: every one kept with a full sketch. */
static size_t wordsNeeded(int fileSketch, int sectionSketch, int sections) {
  return FILE_HEAD + (size_t)fileSketch + (size_t)sections * (SECTION_HEAD + (size_t)sectionSketch);
}

int kernelFingerprint(Kernel *K, int k, int tf, int fileSketch, int sectionSketch, int minTokens, int withSections, uint32_t *out, size_t outLen, double *result) {
  const int total = K->ntok;
  if (total <= 0 || k < 1 || k > total || fileSketch < 0 || sectionSketch < 0) return -2;
  int rangeCount = 0;
  if (withSections) {
    /* Found once per text: a retry with a bigger `out` reuses them. */
    if (!K->sectionsReady) {
      if (computeCodeSections(&K->sections, K->text, K->textLen, SECTIONS_MAX_DEPTH, SECTIONS_MIN_LINES) < 0) return -1;
      K->sectionsReady = 1;
    }
    rangeCount = K->sections.count;
  }
  const SectionRange *sections = K->sections.ranges;
  /* Room check up front: the worst case of every section kept with a full sketch. */
  const size_t need = wordsNeeded(fileSketch, sectionSketch, rangeCount);
  if (outLen < need) {
    *result = -(double)need;
    return 0;
  }
  const Stream t = {K->thi, K->tlo, K->talt, total, K->normalized};
  long w = fingerprintWhole(K, &t, k, tf, fileSketch, out);
  if (w < 0) return -1;
  for (int r = 0; r < rangeCount; r++) {
    const long n = fingerprintSection(K, &t, lowerBound(K, sections[r].startOffset), lowerBound(K, sections[r].endOffset), sections[r].startLine, sections[r].endLine, k, tf,
                                      sectionSketch, minTokens, out + w);
    if (n < 0) return -1;
    w += n;
  }
  *result = (double)w;
  return 0;
}

int kernelFingerprintTokens(Kernel *K, const uint32_t *hi, const uint32_t *lo, const uint32_t *alt, int n, int altIsRaw, const int32_t *ranges, int rangeCount, int k, int tf,
                            int fileSketch, int sectionSketch, int minTokens, uint32_t *out, size_t outLen, double *result) {
  if (n <= 0 || k < 1 || k > n || fileSketch < 0 || sectionSketch < 0 || rangeCount < 0) return -2;
  for (int r = 0; r < rangeCount; r++) {
    const int32_t *q = ranges + 4 * (size_t)r;
    if (q[0] < 0 || q[1] < q[0] || q[1] > n) return -2;
  }
  const size_t need = wordsNeeded(fileSketch, sectionSketch, rangeCount);
  if (outLen < need) {
    *result = -(double)need;
    return 0;
  }
  const Stream t = {hi, lo, alt, n, altIsRaw != 0};
  long w = fingerprintWhole(K, &t, k, tf, fileSketch, out);
  if (w < 0) return -1;
  for (int r = 0; r < rangeCount; r++) {
    const int32_t *q = ranges + 4 * (size_t)r;
    const long m = fingerprintSection(K, &t, q[0], q[1], q[2], q[3], k, tf, sectionSketch, minTokens, out + w);
    if (m < 0) return -1;
    w += m;
  }
  *result = (double)w;
  return 0;
}

uint16_t *kernelSectionTextBuffer(Kernel *K, size_t len) {
  if (len > 0x7ffffff0u || !growArray((void **)&K->secText, &K->secTextCap, len + 1, 2)) return NULL;
  return K->secText;
}

int kernelCodeSections(Kernel *K, int len, int maxDepth, int minLines) {
  /* The scratch now holds these sections, not the last tokenize's. */
  K->sectionsReady = 0;
  return computeCodeSections(&K->sections, K->secText, len, maxDepth, minLines);
}
