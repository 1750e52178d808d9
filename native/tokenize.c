/*
 * The fingerprinting kernel's readers of text: the code tokeniser (tokenize of
 * src/core/text/tokenize.ts: its tables, keywords, regex literals, comments skipped as comments.c
 * does; kernelTokenize, with what the region document needs) and the prose word reader
 * (kernelProseTokens, tokenizeProse's words). simhash.c and fingerprint.c make fingerprints of
 * the tokens it leaves in the kernel.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprintparts.h"
#include "grow.h"
#include "hash.h"

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

void tokenizeInitTables(void) {
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
    if ((size_t)len == K->tokCap && !tokensRoom(K, (size_t)len + 1)) return -1;
    K->thi[len] = (uint32_t)(h >> 32);
    K->tlo[len] = (uint32_t)h;
    K->tstart[len] = start;
    K->talt[len] = alt;
    if (region) {
      if ((size_t)len == K->regionCap && !regionTokensRoom(K, (size_t)len + 1)) return -1;
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

/*
 * The lower case of a non-ASCII unit as String.prototype.toLowerCase gives it, where it is one unit
 * whatever comes around it: Latin-1, Latin Extended-A, Cyrillic's first block, Latin Extended
 * Additional, combining diacritics and variation selectors (a test compares every one with
 * JavaScript's); 0 for any other unit (the caller's JavaScript lower-cases its word; surrogates:
 * nextProseEntry).
 */
static inline uint32_t proseLower(uint32_t u) {
  if (u < 0x100) return u >= 0xc0 && u <= 0xde && u != 0xd7 ? u + 0x20 : u;
  if (u < 0x180) {
    if (u == 0x130) return 0; /* İ: two units */
    if (u == 0x131 || u == 0x138 || u == 0x149 || u == 0x17f) return u;
    if (u == 0x178) return 0xff;
    if ((u >= 0x139 && u <= 0x148) || (u >= 0x179 && u <= 0x17e)) return u & 1 ? u + 1 : u;
    return u & 1 ? u : u + 1;
  }
  if (u >= 0x300 && u <= 0x36f) return u;
  if (u >= 0x400 && u <= 0x45f) return u <= 0x40f ? u + 0x50 : u <= 0x42f ? u + 0x20 : u;
  if (u >= 0x1e00 && u <= 0x1eff) return u >= 0x1e96 && u <= 0x1e9f ? 0 : u & 1 ? u : u + 1;
  if (u >= 0xfe00 && u <= 0xfe0f) return u;
  return 0;
}

/* The next word or CJK run of t[0, n) from *at, as tokenizeProse reads them: its kind (PROSE_*),
 * its start in *start and its end in *at, a word's hash of its units in *h (lower-cased where
 * proseLower knows how: PROSE_WORD's hash); -1 when the text has no more. */
static inline int nextProseEntry(const uint16_t *t, int n, const uint8_t *word, int *at, int *start, uint64_t *h) {
  int i = *at;
  while (i < n) {
    uint32_t c = t[i];
    if (c < 128) {
      if (!isAsciiAlnum(c)) {
        i++;
        continue;
      }
    } else if (isProseCjk(c)) {
      *start = i;
      do i++;
      while (i < n && isProseCjk(t[i]));
      *at = i;
      return PROSE_CJK_RUN;
    } else if (!word[c]) {
      i++;
      continue;
    }
    /* A word: lower-cased on the fly (proseLower); a word with other letters is left to the caller. */
    const int from = i;
    uint64_t hash = FNV_OFFSET;
    int kind = PROSE_WORD;
    while (i < n) {
      uint32_t d = t[i];
      if (d < 128) {
        if (d >= 65 && d <= 90) d |= 32;
        else if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57))) {
          /* inner apostrophe (don't, it's) stays in the word */
          if (!(d == 39 && i + 1 < n && isAsciiLetter(t[i + 1]) && i > from)) break;
        }
      } else if (d == 0x2019 && i + 1 < n && isAsciiLetter(t[i + 1])) {
        d = 39;
      } else if (isProseCjk(d) || !word[d]) {
        break;
      } else {
        uint32_t lower = proseLower(d);
        if (!lower && d >= 0xd800 && d <= 0xdfff) {
          /* A surrogate: a pair from U+1F000 on (emoji, symbols, CJK extensions: no case) or a lone
           * one stays as it is; the pairs below (Deseret, Adlam… have cases) are JavaScript's. */
          if (d <= 0xdbff && i + 1 < n && t[i + 1] >= 0xdc00 && t[i + 1] <= 0xdfff) {
            if (0x10000 + ((d - 0xd800) << 10) + (t[i + 1] - 0xdc00u) >= 0x1f000) lower = d;
          } else lower = d;
        }
        if (lower) d = lower;
        else kind = PROSE_OTHER_WORD;
      }
      hash = fnvStep(hash, d);
      i++;
    }
    *start = from;
    *at = i;
    *h = hash;
    return kind;
  }
  *at = i;
  return -1;
}

int kernelProseTokens(Kernel *K, int len, uint32_t *out, size_t outLen) {
  /* The text is no tokenize's now: fingerprint has no tokens until the next one. */
  K->textLen = len;
  K->ntok = 0;
  K->sectionsReady = 0;
  K->regionReady = 0;
  size_t w = 0;
  int entries = 0, at = 0, start = 0, kind;
  uint64_t h = 0;
  while ((kind = nextProseEntry(K->text, len, K->word, &at, &start, &h)) >= 0) {
    if (w + PROSE_ENTRY <= outLen) {
      out[w] = (uint32_t)kind;
      out[w + 1] = (uint32_t)start;
      out[w + 2] = (uint32_t)at;
      out[w + 3] = kind == PROSE_CJK_RUN ? 0 : (uint32_t)(h >> 32);
      out[w + 4] = kind == PROSE_CJK_RUN ? 0 : (uint32_t)h;
    }
    w += PROSE_ENTRY;
    entries++;
  }
  return w <= outLen ? entries : -(int)((w + PROSE_ENTRY - 1) / PROSE_ENTRY);
}

int tokensRoom(Kernel *K, size_t need) {
  size_t cap = K->tokCap, cap2 = K->tokCap, cap3 = K->tokCap, cap4 = K->tokCap;
  if (!growArray((void **)&K->thi, &cap, need, 4) || !growArray((void **)&K->tlo, &cap2, need, 4) || !growArray((void **)&K->tstart, &cap3, need, 4) ||
      !growArray((void **)&K->talt, &cap4, need, 4))
    return 0;
  K->tokCap = cap;
  return 1;
}

int regionTokensRoom(Kernel *K, size_t need) {
  size_t cap = K->regionCap, cap2 = K->regionCap, cap3 = K->regionCap;
  if (!growArray((void **)&K->rhi, &cap, need, 4) || !growArray((void **)&K->rlo, &cap2, need, 4) || !growArray((void **)&K->rident, &cap3, need, 1)) return 0;
  K->regionCap = cap;
  return 1;
}

int kernelTokenizeProse(Kernel *K, int len) {
  K->textLen = len;
  K->ntok = 0;
  K->sectionsReady = 0;
  K->normalized = 0;
  K->regionReady = 0;
  int n = 0, at = 0, start = 0, kind;
  uint64_t h = 0;
  while ((kind = nextProseEntry(K->text, len, K->word, &at, &start, &h)) >= 0) {
    if (kind == PROSE_CJK_RUN) return PROSE_LEFT_CJK;
    if (kind != PROSE_WORD) {
      /* Left: with a CJK run further on, said (jieba's: the caller may load it ahead). */
      while ((kind = nextProseEntry(K->text, len, K->word, &at, &start, &h)) >= 0)
        if (kind == PROSE_CJK_RUN) return PROSE_LEFT_CJK;
      return PROSE_LEFT;
    }
    if ((size_t)n == K->tokCap && !tokensRoom(K, (size_t)n + 1)) return -1;
    K->thi[n] = (uint32_t)(h >> 32);
    K->tlo[n] = (uint32_t)h;
    K->tstart[n] = start;
    K->talt[n] = (uint32_t)h; /* TokenBuffer.push's alt: the token's own low word */
    n++;
  }
  K->ntok = n;
  return n;
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
