/*
 * What sections.c and sectionbraces.c share (internal to them; sections.h is what the kernel
 * sees): `at` and the character predicates of the scans, the per-line facts (nextLine, indentOf),
 * the per-line memo and scan flags, all static inline; and the functions each file lends the other.
 */
#ifndef NEARDUP_SECTIONSPARTS_H
#define NEARDUP_SECTIONSPARTS_H
#include <stdint.h>

#include "sections.h"

/* sections.c: a block appended to b; 0 out of memory. */
int sectionsPushBlock(SecBlocks *b, int start, int end, int level);
/* sections.c: the per-line arrays, for `need` lines (+1 for the prefix sums); 0 out of memory. */
int sectionsEnsureLines(Sections *S, size_t need);
/* sections.c: toRanges of lines.ts: the blocks (of S's line table) sorted by start, longer first (a
 * stable sort), duplicates dropped, into S->ranges; their count, or -1 out of memory. */
int sectionsToRanges(Sections *S, SecBlocks *blocks);
/* sections.c: WRAPPER_HEADER and CLOSER of codeScan.ts at p (see there). */
int sectionsWrapperHeader(const uint16_t *t, int n, int p);
int sectionsCloser(const uint16_t *t, int n, int p);
/* sectionbraces.c: the scan tables, filled once per process (computeCodeSections). */
void sectionsInitTablesOnce(void);
/* sectionbraces.c: scanBraces of codeScan.ts (and buildLines); 0 out of memory. */
int sectionsScanBraces(Sections *S, const uint16_t *t, int n, int maxDepth, int minLines);

/* Line flags (S->inside): a line begun inside a string or a comment (scanBraces, scanIndent). */
enum { IN_STRING = 1, IN_COMMENT = 2 };

/* Per-line memo bits (S->memo): each regex below is tested once per line. */
enum { M_WRAPPER = 1, M_WRAPPER_YES = 2, M_IMPORT = 4, M_IMPORT_YES = 8, M_PREFIX = 16, M_PREFIX_YES = 32 };

/* text.charCodeAt(i), with -1 for NaN (past the end). */
static inline int at(const uint16_t *t, int n, int i) { return i < n ? t[i] : -1; }

/* ------------------------------------------------------------------------------- characters */

/* isWs of lines.ts: controls, space and the Unicode spaces (U+200B included). */
static inline int isWs(int ch) {
  if (ch <= 32) return ch >= 0;
  return ch == 0xa0 || ch == 0x3000 || ch == 0xfeff || ch == 0x1680 || (ch >= 0x2000 && ch <= 0x200b) || ch == 0x2028 ||
         ch == 0x2029 || ch == 0x202f || ch == 0x205f;
}

/* \s of a JavaScript regular expression, and what trimEnd removes: WhiteSpace + LineTerminator. */
static inline int isJsSpace(int ch) {
  if (ch <= 32) return ch == 32 || (ch >= 9 && ch <= 13);
  return ch == 0xa0 || ch == 0x1680 || (ch >= 0x2000 && ch <= 0x200a) || ch == 0x2028 || ch == 0x2029 || ch == 0x202f ||
         ch == 0x205f || ch == 0x3000 || ch == 0xfeff;
}

/* \w without the u flag: [A-Za-z0-9_]. */
static inline int isRegexWord(int ch) {
  return (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122) || ch == 95;
}

/* A line terminator (what `.` does not match). */
static inline int isLineTerminator(int ch) { return ch == 10 || ch == 13 || ch == 0x2028 || ch == 0x2029; }

/* [ \t] */
static inline int isBlank(int ch) { return ch == 32 || ch == 9; }

/* isIdentChar of codeScan.ts. */
static inline int isIdentChar(int ch) {
  return (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122) || ch == 95 || ch == 36 || ch > 127;
}

/* Whether the ASCII word w (lower case) is at t[p…], exactly (caseless = ASCII letters either case). */
static inline int wordAt(const uint16_t *t, int n, int p, const char *w, int caseless) {
  for (; *w; w++, p++) {
    if (p >= n) return 0;
    int c = t[p];
    if (caseless && c >= 65 && c <= 90) c += 32;
    if (c != (uint8_t)*w) return 0;
  }
  return 1;
}

/* The ASCII word w followed by a regex \b (the next unit is not \w, or the text ends). */
static inline int wordBoundaryAt(const uint16_t *t, int n, int p, const char *w, int len, int caseless) {
  return wordAt(t, n, p, w, caseless) && !isRegexWord(at(t, n, p + len));
}

/* t[from, to) == the ASCII word w. */
static inline int sliceIs(const uint16_t *t, int from, int to, const char *w) {
  /* unit by unit, the word's end with the slice's (no strlen: the WebAssembly build would call it) */
  int j = 0;
  for (; from + j < to; j++)
    if (!w[j] || t[from + j] != (uint8_t)w[j]) return 0;
  return w[j] == 0;
}

/* ------------------------------------------------------------------------------- lines */

/*
 * buildLines, done by scanBraces as it goes: every \n of the text is either passed by its main
 * loop or inside a comment or string whose lines markLines marks, and each of them calls
 * nextLine, so the text is read once. A line's flags and memo start cleared.
 */
#define INDENT_UNKNOWN (-2)

static inline void clearLine(Sections *S, int l) {
  S->indent[l] = INDENT_UNKNOWN;
  S->structural[l] = 0;
  S->inside[l] = 0;
  S->memo[l] = 0;
}

/* Ends line `line` at the \n at offset lf and starts the next; returns its number, or -1 (no memory). */
static inline int nextLine(Sections *S, const uint16_t *t, int lf, int line) {
  S->ends[line] = lf > S->starts[line] && t[lf - 1] == 13 ? lf - 1 : lf;
  line++;
  if ((size_t)line + 1 >= S->lineCap && !sectionsEnsureLines(S, (size_t)line + 1)) return -1;
  S->starts[line] = lf + 1;
  clearLine(S, line);
  return line;
}

/*
 * indentWidth and firstNonWs of line l (tab stops of 4; -1 when the line is blank), computed
 * together on first use: both stop at the first non-white-space unit. The scan stops at the \n
 * rather than at the line's end, which may not be known yet; the \r before it is white space.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int indentOf(Sections *S, const uint16_t *t, int n, int l) {
  int w = S->indent[l];
  if (w != INDENT_UNKNOWN) return w;
  int fnw = -1;
  w = 0;
  for (int k = S->starts[l]; k < n; k++) {
    const int ch = t[k];
    if (ch == 32) w++;
    else if (ch == 9) w += 4 - (w % 4);
    else if (ch == 10) break;
    else if (isWs(ch)) w++;
    else {
      fnw = k;
      break;
    }
  }
  S->firstNonWs[l] = fnw;
  S->indent[l] = w = fnw >= 0 ? w : -1;
  return w;
}

static inline int firstNonWsOf(Sections *S, const uint16_t *t, int n, int l) {
  indentOf(S, t, n, l);
  return S->firstNonWs[l];
}
#endif
