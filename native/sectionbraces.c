/*
 * The brace scan of the code sections (scanBraces of src/core/sections/codeScan.ts in C, with
 * buildLines done as it goes): the stops of a text (the units the scans test for, found 16 or 32
 * at a time with SSE2, AVX2 or SIMD128) and the scan over them of strings, comments, regex
 * literals, brackets and braces into blocks. sections.c picks among its blocks and scanIndent's.
 */
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "grow.h"
#include "sectionsparts.h"

#include "simd.h"

/* ------------------------------------------------------------------------------- stops */

/*
 * Between the units scanBraces must look at one by one (\n, non-ASCII units and its special
 * characters / # ' " ` ( ) [ ] ; , { }), the text is ASCII white space and plain characters, and a
 * run of those changes only three things: whether the line has a token yet (its first plain
 * character), the statement start, and the last significant character. So scanBraces jumps from
 * one such unit (a "stop") to the next, and looks at a run only at its ends. The backslash is a
 * stop too, so that the scans of strings, comments and regex literals (which look for quotes, \n,
 * / [ ] and escapes) jump as well. The stops are found up front, 16 units at a time where SSE2 is
 * there, into a bitmap; a few other units are stops as well ($ % &, between " and ( in ASCII),
 * which costs nothing but a turn of the main loop: a stop is handled exactly as the TypeScript
 * handles every unit.
 */
static uint8_t STOP[128];

/* The index of the lowest set bit of x (x != 0). */
static inline int ctz64(uint64_t x) {
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long r;
  _BitScanForward64(&r, x);
  return (int)r;
#elif defined(_MSC_VER)
  unsigned long r;
  if (_BitScanForward(&r, (unsigned long)x)) return (int)r;
  _BitScanForward(&r, (unsigned long)(x >> 32));
  return 32 + (int)r;
#else
  return __builtin_ctzll(x);
#endif
}

#ifdef HAVE_SSE2
/* Stops among 8 units, as 0xffff lanes. */
static inline __m128i stopLanes(__m128i v) {
  const __m128i ascii = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xff80)), _mm_setzero_si128());
  /* 0x22 <= v <= 0x29, as a signed compare of v - 0x22 - 0x8000 against 8 - 0x8000 */
  const __m128i range = _mm_cmplt_epi16(_mm_add_epi16(v, _mm_set1_epi16(0x7fde)), _mm_set1_epi16((short)0x8008));
  const __m128i lower = _mm_or_si128(v, _mm_set1_epi16(0x20)); /* [ ] as { } */
  __m128i m = _mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16(10)), range);
  m = _mm_or_si128(m, _mm_cmpeq_epi16(v, _mm_set1_epi16(',')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(v, _mm_set1_epi16('/')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(v, _mm_set1_epi16(';')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(v, _mm_set1_epi16('`')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(v, _mm_set1_epi16('\\')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(lower, _mm_set1_epi16('{')));
  m = _mm_or_si128(m, _mm_cmpeq_epi16(lower, _mm_set1_epi16('}')));
  return _mm_or_si128(_mm_andnot_si128(ascii, _mm_set1_epi16(-1)), m);
}

/* Stop bits of t[p, p + 16). */
static inline uint64_t stopBits16(const uint16_t *t, int p) {
  const __m128i a = stopLanes(_mm_loadu_si128((const __m128i *)(t + p)));
  const __m128i b = stopLanes(_mm_loadu_si128((const __m128i *)(t + p + 8)));
  return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_packs_epi16(a, b));
}
#endif

#ifdef HAVE_WASM_SIMD
/*
 * The stops of 16 units with WebAssembly SIMD128, as a table lookup rather than SSE2's ten
 * compares (which V8, with its 16 vector registers, runs mostly from the stack): every unit over
 * 0x7f becomes 0x80 (u16 min) and the units are narrowed to bytes; a byte is a stop when the
 * class bits its high nibble selects (STOP_HI) meet those of its low nibble (STOP_LO). Bits: 0
 * high nibble 0 (\n), 1 high 2 (" # $ % & ' ( ) , /), 2 high 3 (;), 3 high 5 ([ \ ]), 4 high 6
 * (`), 5 high 7 ({ }), 6 high 8 (a non-ASCII unit: every low nibble). The same bits as the
 * SSE2 stopLanes and isStop.
 */
static inline uint64_t stopBits16(const uint16_t *t, int p) {
  const v128_t top = wasm_i16x8_splat(0x80);
  const v128_t a = wasm_u16x8_min(wasm_v128_load(t + p), top);
  const v128_t b = wasm_u16x8_min(wasm_v128_load(t + p + 8), top);
  const v128_t bytes = wasm_u8x16_narrow_i16x8(a, b);
  const v128_t hiTable = wasm_i8x16_const(1, 0, 2, 4, 0, 8, 16, 32, 64, 0, 0, 0, 0, 0, 0, 0);
  const v128_t loTable = wasm_i8x16_const(16 | 64, 64, 2 | 64, 2 | 64, 2 | 64, 2 | 64, 2 | 64, 2 | 64, 2 | 64, 2 | 64, 1 | 64, 4 | 8 | 32 | 64,
                                          2 | 8 | 64, 8 | 32 | 64, 64, 2 | 64);
  const v128_t hi = wasm_i8x16_swizzle(hiTable, wasm_u8x16_shr(bytes, 4));
  const v128_t lo = wasm_i8x16_swizzle(loTable, wasm_v128_and(bytes, wasm_i8x16_splat(0x0f)));
  const v128_t hit = wasm_i8x16_ne(wasm_v128_and(hi, lo), wasm_i8x16_splat(0));
  return (uint64_t)(uint16_t)wasm_i8x16_bitmask(hit);
}
#endif

static inline int isStop(int c) { return c >= 128 || STOP[c]; }

#if defined(HAVE_SSE2) && (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_AVX2_DISPATCH 1
/* stopLanes with AVX2, 16 units at a time (used when the CPU has AVX2). */
__attribute__((target("avx2"))) static inline __m256i stopLanes256(__m256i v) {
  const __m256i ascii = _mm256_cmpeq_epi16(_mm256_and_si256(v, _mm256_set1_epi16((short)0xff80)), _mm256_setzero_si256());
  const __m256i range = _mm256_cmpgt_epi16(_mm256_set1_epi16((short)0x8008), _mm256_add_epi16(v, _mm256_set1_epi16(0x7fde)));
  const __m256i lower = _mm256_or_si256(v, _mm256_set1_epi16(0x20));
  __m256i m = _mm256_or_si256(_mm256_cmpeq_epi16(v, _mm256_set1_epi16(10)), range);
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(v, _mm256_set1_epi16(',')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(v, _mm256_set1_epi16('/')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(v, _mm256_set1_epi16(';')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(v, _mm256_set1_epi16('`')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(v, _mm256_set1_epi16('\\')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(lower, _mm256_set1_epi16('{')));
  m = _mm256_or_si256(m, _mm256_cmpeq_epi16(lower, _mm256_set1_epi16('}')));
  return _mm256_or_si256(_mm256_andnot_si256(ascii, _mm256_set1_epi16(-1)), m);
}

/* Stop bits of t[p, p + 32): the lanes of two vectors packed to bytes, back in order. */
__attribute__((target("avx2"))) static inline uint64_t stopBits32(const uint16_t *t, int p) {
  const __m256i a = stopLanes256(_mm256_loadu_si256((const __m256i *)(t + p)));
  const __m256i b = stopLanes256(_mm256_loadu_si256((const __m256i *)(t + p + 16)));
  const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xd8);
  return (uint32_t)_mm256_movemask_epi8(packed);
}

__attribute__((target("avx2"))) static int stopWordsAvx2(uint64_t *bits, const uint16_t *t, int n) {
  int p = 0;
  for (; p + 64 <= n; p += 64) bits[p >> 6] = stopBits32(t, p) | stopBits32(t, p + 32) << 32;
  return p;
}
#endif

/* The stop bitmap of t[0, n), with a stop at n so that every search ends. */
static int stopBits(Sections *S, const uint16_t *t, int n) {
  const size_t words = (size_t)n / 64 + 1;
  if (!growArray((void **)&S->stops, &S->stopCap, words, sizeof(uint64_t))) return 0;
  uint64_t *bits = S->stops;
  int p = 0;
#ifdef HAVE_AVX2_DISPATCH
  static int avx2 = -1; /* whether the CPU has AVX2: the same answer for every thread */
  if (avx2 < 0) {
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
  }
  if (avx2) p = stopWordsAvx2(bits, t, n);
#endif
#if defined(HAVE_SSE2) || defined(HAVE_WASM_SIMD)
  for (; p + 64 <= n; p += 64) {
    bits[p >> 6] = stopBits16(t, p) | stopBits16(t, p + 16) << 16 | stopBits16(t, p + 32) << 32 | stopBits16(t, p + 48) << 48;
  }
#endif
  for (; p < n; p += 64) {
    uint64_t w = 0;
    const int end = p + 64 < n ? p + 64 : n;
    for (int k = p; k < end; k++) w |= (uint64_t)isStop(t[k]) << (k - p);
    bits[p >> 6] = w;
  }
  if ((n & 63) == 0) bits[n >> 6] = 0;
  bits[n >> 6] |= 1ULL << (n & 63);
  return 1;
}

/* The first unit of t[from, to) that is not a space, or to. */
static inline int skipSpaces(const uint16_t *t, int from, int to) {
  int f = from;
#ifdef HAVE_SSE2
  const __m128i space = _mm_set1_epi16(32);
  for (; f + 8 <= to; f += 8) {
    const unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(t + f)), space));
    if (m != 0xffff) return f + ctz64(~m) / 2;
  }
#elif defined(HAVE_WASM_SIMD)
  const v128_t space = wasm_i16x8_splat(32);
  for (; f + 8 <= to; f += 8) {
    const unsigned m = wasm_i16x8_bitmask(wasm_i16x8_eq(wasm_v128_load(t + f), space));
    if (m != 0xff) return f + ctz64(~m);
  }
#endif
  while (f < to && t[f] == 32) f++;
  return f;
}

/* The first stop at or after i (n when none before the end). */
static inline int nextStop(const uint64_t *bits, int i) {
  size_t w = (size_t)i >> 6;
  uint64_t word = bits[w] & (~0ULL << (i & 63));
  while (!word) word = bits[++w];
  return (int)(w * 64 + (size_t)ctz64(word));
}

/* ------------------------------------------------------------------------------- scanBraces */

enum { FAIL_SQUOTE = 1, FAIL_DQUOTE = 2, FAIL_REGEX = 4 };
enum { B_PLAIN = 0, B_WS = 1, B_LF = 2, B_SPECIAL = 3 };

static uint8_t BRACE_CLASS[128];
static uint8_t CONT_END[128];   /* significant characters after which a new line continues the statement */
static uint8_t CONT_START[128]; /* characters that, first on a line, continue the previous statement */
static uint8_t REGEX_AFTER[128]; /* characters after which / starts a regex literal */

static void flags(uint8_t *table, const char *chars) {
  for (; *chars; chars++) table[(uint8_t)*chars] = 1;
}

void sectionsInitTablesOnce(void) {
  static volatile int done = 0;
  if (done) return; /* same values from every thread: a benign repeat at worst */
  for (int c = 0; c < 128; c++) {
    BRACE_CLASS[c] = c == 10 ? B_LF : c <= 32 ? B_WS : strchr("/#'\"`()[];,{}", c) && c ? B_SPECIAL : B_PLAIN;
  }
  flags(CONT_END, "=+-*/%&|^!~?.<>,([\\");
  flags(CONT_START, ".?:)],&|=>");
  flags(REGEX_AFTER, "(,=:[!&|?{};");
  for (int c = 0; c < 128; c++) STOP[c] = c == 10 || (c >= 0x22 && c <= 0x29) || (c && strchr(",/;`[]{}\\", c));
  done = 1;
}

static inline int hasFlag(const uint8_t *table, int c) { return c >= 0 && c < 128 && table[c]; }

/*
 * The scans below look only at stops (nextStop): every unit they test for (\n, quotes, / * [ ]
 * and the backslash) is one, so the units between are passed over without a look.
 */

/* markLines: marks the lines begun in t[from, to) as `mark`; returns the line reached (-1: no memory). */
static int markLines(Sections *S, const uint16_t *t, int from, int to, int line, int mark) {
  const uint64_t *stops = S->stops;
  for (int k = nextStop(stops, from); k < to; k = nextStop(stops, k + 1)) {
    if (t[k] == 10) {
      if ((line = nextLine(S, t, k, line)) < 0) return -1;
      S->inside[line] = (uint8_t)mark;
    }
  }
  return line;
}

/* eol: offset of the \n ending the line holding `from`, or n. */
static inline int eol(const uint64_t *stops, const uint16_t *t, int n, int from) {
  int k = nextStop(stops, from);
  while (k < n && t[k] != 10) k = nextStop(stops, k + 1);
  return k;
}

/* text.indexOf('*' '/', from): the first / at from + 1 or after with a * before it. */
static int commentEnd(const uint64_t *stops, const uint16_t *t, int n, int from) {
  if (from + 1 >= n) return -1;
  for (int m = nextStop(stops, from + 1); m < n; m = nextStop(stops, m + 1))
    if (t[m] == '/' && t[m - 1] == '*') return m - 1;
  return -1;
}

/* text.indexOf(q q q, from), q a quote (a stop) */
static int indexOf3(const uint64_t *stops, const uint16_t *t, int n, int q, int from) {
  for (int k = nextStop(stops, from); k + 2 < n; k = nextStop(stops, k + 1))
    if (t[k] == q && t[k + 1] == q && t[k + 2] == q) return k;
  return -1;
}

/* oneLineString: end (exclusive) of a one-line string opened by q at i, or -1. */
static int oneLineString(const uint64_t *stops, const uint16_t *t, int n, int i, int q) {
  int k = i + 1;
  while (k < n) {
    k = nextStop(stops, k);
    if (k >= n) break;
    const int ch = t[k];
    if (ch == '\\') {
      const int d = at(t, n, k + 1);
      if (d == 10 || d == 13) return -1;
      k += 2;
    } else if (ch == q) return k + 1;
    else if (ch == 10) return -1;
    else k++;
  }
  return -1;
}

/* regexEnd: end (exclusive) of a regex literal opened by the / at i, or -1. */
static int regexEnd(const uint64_t *stops, const uint16_t *t, int n, int i) {
  int inClass = 0;
  int k = i + 1;
  while (k < n) {
    k = nextStop(stops, k);
    if (k >= n) break;
    const int ch = t[k];
    if (ch == '\\') {
      const int d = at(t, n, k + 1);
      if (d == 10 || d == 13) return -1;
      k += 2;
      continue;
    }
    if (ch == 10) return -1;
    if (ch == '[') inClass = 1;
    else if (ch == ']') inClass = 0;
    else if (ch == '/' && !inClass) return k + 1 == i + 2 ? -1 : k + 1;
    k++;
  }
  return -1;
}

/* The backtick loop of scanBraces: the closing ` of a template opened at i (backslashes escape), or >= n. */
static int templateEnd(const uint64_t *stops, const uint16_t *t, int n, int i) {
  int k = i + 1;
  while (k < n) {
    k = nextStop(stops, k);
    if (k >= n) break;
    const int ch = t[k];
    if (ch == '\\') k += 2;
    else if (ch == '`') return k;
    else k++;
  }
  return n;
}

/* isHashComment: whether the # at i starts a comment (not a#b, this.#x, or a preprocessor line). */
static int isHashComment(const uint16_t *t, int n, int i, int lineHasTok) {
  static const char *const PREPROCESSOR[] = {"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif",
                                             "pragma", "error", "warning", "line", "region", "endregion", "import"};
  const int p = i > 0 ? t[i - 1] : 10;
  if (!isWs(p)) return 0;
  const int d = at(t, n, i + 1);
  if (!isIdentChar(d) && d != '{') return 1;
  if (lineHasTok || !isIdentChar(d)) return 0;
  /* The identifier after #: no name of the set is longer than 9 units, so 10 are enough to tell. */
  int k = i + 1;
  while (k < n && k - (i + 1) <= 9 && isIdentChar(t[k])) k++;
  for (size_t j = 0; j < sizeof PREPROCESSOR / sizeof PREPROCESSOR[0]; j++)
    if (sliceIs(t, i + 1, k, PREPROCESSOR[j])) return 1;
  return 0;
}

/* afterKeyword: whether the token before i is a keyword after which / starts a regex. */
static int afterKeyword(const uint16_t *t, int i, int lastSig) {
  static const char *const REGEX_KEYWORDS[] = {"return", "typeof", "case", "do",    "else",  "in",   "of",
                                               "delete", "void",   "throw", "yield", "await", "new"};
  if (!isIdentChar(lastSig)) return 0;
  int k = i - 1;
  while (k >= 0 && isBlank(t[k])) k--;
  const int end = k + 1;
  while (k >= 0 && end - k <= 10 && isIdentChar(t[k])) k--;
  for (size_t j = 0; j < sizeof REGEX_KEYWORDS / sizeof REGEX_KEYWORDS[0]; j++)
    if (sliceIs(t, k + 1, end, REGEX_KEYWORDS[j])) return 1;
  return 0;
}

/* bodyIndented(open, close, 0): whether the first non-blank line after `open` (within 5, before `close`) is indented. */
static int bodyIndented(Sections *S, const uint16_t *t, int n, int open, int close) {
  for (int l = open + 1; l < close && l <= open + 5; l++) {
    const int w = indentOf(S, t, n, l);
    if (w >= 0) return w > 0;
  }
  return 0;
}

/* The memoised WRAPPER_HEADER test of line l (from its start). */
static int wrapperOfLine(Sections *S, const uint16_t *t, int n, int l) {
  uint8_t m = S->memo[l];
  if (!(m & M_WRAPPER)) {
    m |= M_WRAPPER | (sectionsWrapperHeader(t, n, S->starts[l]) ? M_WRAPPER_YES : 0);
    S->memo[l] = m;
  }
  return (m & M_WRAPPER_YES) != 0;
}

/*
 * scanBraces: one pass of a small lexer over the text, skipping strings, comments and regex
 * literals, tracking { } blocks and the line where each block's header starts (into S->brace),
 * and recording which lines carry code (S->structural) or begin inside a string or comment
 * (S->inside).
 */
int sectionsScanBraces(Sections *S, const uint16_t *t, int n, int maxDepth, int minLines) {
  if (!sectionsEnsureLines(S, 1) || !stopBits(S, t, n)) return 0;
  S->starts[0] = 0;
  clearLine(S, 0);
  S->brace.len = 0;
  int nStack = 0, nParen = 0;

  int i = 0, line = 0, lineHasTok = 0, lineFail = 0;
  int segStart = -1; /* line where the current statement started; -1 = not yet */
  int lastSig = 0;
  int noBlockComment = 0, noBacktick = 0, noTripleS = 0, noTripleD = 0;
  int parenBase = 0;   /* parenBase() of scanBraces: the innermost open block's, or 0 */
  int atLineStart = 1; /* i is where the line begins (after a \n the main loop passed) */

  const uint64_t *stops = S->stops;
  while (i < n) {
    /* A run of ASCII white space (not \n) and plain characters up to the next stop, in one go. */
    const int s = nextStop(stops, i);
    const int lineStart = atLineStart;
    atLineStart = 0;
    if (s > i) {
      int f = -1; /* the run's first significant unit, once known (s: none) */
      if (lineStart) {
        /* At a line start: its indentation and first non-white-space unit (indentOf), here. */
        f = skipSpaces(t, i, s);
        int w = f - i;
        for (; f < s && BRACE_CLASS[t[f]] == B_WS; f++) w = t[f] == 9 ? w + 4 - (w % 4) : w + 1;
        if (f < s || (s < n && t[s] < 128 && t[s] != 10)) {
          S->firstNonWs[line] = f; /* s itself when the stop is the first */
          S->indent[line] = w;
        } else if (s >= n || t[s] == 10) {
          S->firstNonWs[line] = -1;
          S->indent[line] = -1;
        } /* else a non-ASCII stop, white space or not: indentOf will tell */
      }
      int e = s - 1;
      while (e >= i && BRACE_CLASS[t[e]] == B_WS) e--;
      if (e >= i) {
        /* The significant units of the run: the first may start the line's first token. */
        if (!lineHasTok) {
          if (f < 0) {
            f = i;
            while (BRACE_CLASS[t[f]] == B_WS) f++;
          }
          lineHasTok = 1;
          if (!S->inside[line]) S->structural[line] = 1;
          if (nParen - parenBase == 0 && !hasFlag(CONT_END, lastSig) && !hasFlag(CONT_START, t[f])) segStart = line;
        }
        if (segStart < 0) segStart = line;
        lastSig = t[e];
      }
      i = s;
      if (i >= n) break;
    }
    /* A stop: handled as scanBraces handles every unit. */
    const int c = t[i];
    const int cls = c < 128 ? BRACE_CLASS[c] : isWs(c) ? B_WS : B_PLAIN;
    if (cls == B_WS) {
      i++;
      continue;
    }
    if (cls == B_LF) {
      if ((line = nextLine(S, t, i, line)) < 0) return 0;
      lineHasTok = 0;
      lineFail = 0;
      i++;
      atLineStart = 1;
      continue;
    }
    /* Comments. */
    if (c == '/') {
      const int d = at(t, n, i + 1);
      if (d == '/') {
        i = eol(stops, t, n, i);
        continue;
      }
      if (d == '*' && !noBlockComment) {
        const int j = commentEnd(stops, t, n, i + 2);
        if (j >= 0) {
          const int l0 = line;
          if ((line = markLines(S, t, i, j + 2, line, IN_COMMENT)) < 0) return 0;
          i = j + 2;
          if (line != l0) {
            lineFail = 0;
            lineHasTok = 0;
          }
          continue;
        }
        noBlockComment = 1;
      }
    } else if (c == '#' && isHashComment(t, n, i, lineHasTok)) {
      i = eol(stops, t, n, i);
      continue;
    }

    /* A significant character. */
    const int first = !lineHasTok;
    if (first) {
      lineHasTok = 1;
      if (!S->inside[line]) S->structural[line] = 1;
      /* A new physical line starts a new statement unless it visibly continues the last one. */
      if (nParen - parenBase == 0 && c != '{' && !hasFlag(CONT_END, lastSig) && !hasFlag(CONT_START, c)) segStart = line;
    }
    if (segStart < 0) segStart = line;

    if (cls == B_PLAIN) {
      /* (a plain stop: $ % & or a non-ASCII character; the run after it is the next turn's) */
      lastSig = c;
      i++;
      continue;
    }

    switch (c) {
      case '\'':
      case '"': {
        const int triple = at(t, n, i + 1) == c && at(t, n, i + 2) == c;
        if (triple && !(c == '\'' ? noTripleS : noTripleD)) {
          const int j = indexOf3(stops, t, n, c, i + 3);
          if (j >= 0) {
            const int l0 = line;
            if ((line = markLines(S, t, i, j + 3, line, IN_STRING)) < 0) return 0;
            if (line != l0) lineFail = 0;
            i = j + 3;
            lastSig = c;
            continue;
          }
          if (c == '\'') noTripleS = 1;
          else noTripleD = 1;
        }
        const int bit = c == '\'' ? FAIL_SQUOTE : FAIL_DQUOTE;
        if (!(lineFail & bit)) {
          const int j = oneLineString(stops, t, n, i, c);
          if (j >= 0) {
            i = j;
            lastSig = c;
            continue;
          }
          /* Not closed on this line: a plain character, and so is every later one of its kind here. */
          lineFail |= bit;
        }
        break;
      }
      case '`': {
        if (noBacktick) break;
        const int k = templateEnd(stops, t, n, i);
        if (k < n) {
          const int l0 = line;
          if ((line = markLines(S, t, i, k + 1, line, IN_STRING)) < 0) return 0;
          if (line != l0) lineFail = 0;
          i = k + 1;
          lastSig = c;
          continue;
        }
        noBacktick = 1;
        break;
      }
      case '/': {
        if (!(lineFail & FAIL_REGEX) && (lastSig == 0 || hasFlag(REGEX_AFTER, lastSig) || afterKeyword(t, i, lastSig))) {
          const int j = regexEnd(stops, t, n, i);
          if (j >= 0) {
            i = j;
            lastSig = 65; /* like an identifier: what follows is not a regex */
            continue;
          }
          lineFail |= FAIL_REGEX;
        }
        break;
      }
      case '(':
      case '[':
        if ((size_t)nParen == S->parenCap && !growArray((void **)&S->paren, &S->parenCap, (size_t)nParen + 1, sizeof(int32_t))) return 0;
        S->paren[nParen++] = segStart;
        segStart = -1;
        break;
      case ')':
      case ']': {
        if (nParen > parenBase) segStart = S->paren[--nParen];
        break;
      }
      case ';':
      case ',':
        segStart = -1;
        break;
      case '{': {
        if ((size_t)nStack == S->stackCap && !growArray((void **)&S->stack, &S->stackCap, (size_t)nStack + 1, sizeof(SecBrace))) return 0;
        SecBrace *e = &S->stack[nStack];
        const SecBrace *parent = nStack ? &S->stack[nStack - 1] : NULL;
        e->header = segStart;
        e->open = line;
        const int hw = indentOf(S, t, n, segStart);
        e->headerIndent = hw > 0 ? hw : 0;
        e->parenBase = parenBase = nParen;
        e->level = parent ? parent->level + (parent->wrapper ? 0 : 1) : 0;
        e->wrapper = wrapperOfLine(S, t, n, segStart);
        nStack++;
        segStart = -1;
        break;
      }
      case '}': {
        segStart = -1;
        if (!nStack) break; /* unbalanced: ignore */
        const int lw = first ? indentOf(S, t, n, line) : -1;
        const int ind = first ? (lw > 0 ? lw : 0) : -1;
        if (first && S->stack[nStack - 1].headerIndent != ind) {
          /* A closer first on its line that lines up with an outer header: drop the inner ones. */
          for (int k = nStack - 2; k >= 0 && k >= nStack - 9; k--) {
            if (S->stack[k].headerIndent == ind) {
              nStack = k + 1;
              break;
            }
          }
        }
        const SecBrace e = S->stack[--nStack];
        nParen = e.parenBase;
        parenBase = nStack ? S->stack[nStack - 1].parenBase : 0;
        if (e.level < maxDepth && line - e.header + 1 >= minLines) {
          if (!sectionsPushBlock(&S->brace, e.header, line, e.level)) return 0;
        }
        if (ind == 0 && e.headerIndent == 0 && nStack && bodyIndented(S, t, n, e.open, line)) {
          /* Back at column 0 after an indented body: the top level again. */
          nStack = 0;
          nParen = 0;
          parenBase = 0;
        }
        break;
      }
    }
    lastSig = c;
    i++;
  }
  S->ends[line] = n;
  S->lineCount = line + 1;
  return 1;
}
