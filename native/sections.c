/*
 * Code sections: codeSections of src/core/sections/codeSections.ts in C, with exactly its results
 * (the same ranges in the same order for every input; compared in
 * test/unit/node/workers/nativeSections.test.ts and over the benchmark trees). The TypeScript stays
 * the reference and the fallback; each function here names the function of src/core/sections/ it
 * mirrors, and keeps its structure, so a change there is easy to carry over.
 *
 * The text is UTF-16 code units, as JavaScript sees it. charCodeAt past the end is NaN in
 * JavaScript, which compares unequal to everything and fails every `<=`: `at` returns -1 there and
 * every predicate below is false for -1.
 *
 * The regular expressions of codeScan.ts (WRAPPER_HEADER, IMPORT_HEADER, CLOSER, HEADER_PREFIX)
 * are hand-written matchers with the same semantics: none of them can backtrack into a different
 * outcome (each repetition is followed by something it cannot match), which the comments show.
 * Without the `u` flag, \w and \b are ASCII ([A-Za-z0-9_]) and the `i` flag folds ASCII letters
 * only (a non-ASCII character never matches an ASCII letter); \s is JavaScript white space plus
 * line terminators, the set trimEnd removes too; `.` is anything but \n \r U+2028 U+2029.
 *
 * Everything is linear in the size of the text, without recursion. Per-line facts the
 * TypeScript recomputes at each use (indentation, and the header regexes tested on a line) are
 * computed once per line here, which changes no result.
 *
 * This file holds the blocks' arrays, their sort, the header matchers, scanIndent and
 * computeCodeSections; scanBraces and the stops it reads are in sectionbraces.c, what both use
 * (the character predicates, the per-line facts) in sectionsparts.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sections.h"
#include "grow.h"
#include "sectionsparts.h"

/* ------------------------------------------------------------------------------- helpers */

int sectionsPushBlock(SecBlocks *b, int start, int end, int level) {
  if (b->len == b->cap && !growArray((void **)&b->data, &b->cap, b->len + 1, sizeof(SecBlock))) return 0;
  SecBlock *x = &b->data[b->len++];
  x->start = start;
  x->end = end;
  x->level = level;
  return 1;
}

/* The per-line arrays, for `need` lines (+1 for the prefix sums). */
int sectionsEnsureLines(Sections *S, size_t need) {
  need += 1;
  if (S->lineCap >= need) return 1;
  size_t n = S->lineCap ? S->lineCap : 1024;
  while (n < need) n *= 2;
  int32_t **ints[] = {&S->starts, &S->ends, &S->indent, &S->firstNonWs, &S->diff, &S->cov0, &S->cov1, &S->stackLine, &S->stackIndent};
  for (size_t j = 0; j < sizeof ints / sizeof ints[0]; j++) {
    int32_t *q = realloc(*ints[j], n * sizeof(int32_t));
    if (!q) return 0;
    *ints[j] = q;
  }
  uint8_t **bytes[] = {&S->structural, &S->inside, &S->memo, &S->stackBody};
  for (size_t j = 0; j < sizeof bytes / sizeof bytes[0]; j++) {
    uint8_t *q = realloc(*bytes[j], n);
    if (!q) return 0;
    *bytes[j] = q;
  }
  S->lineCap = n;
  return 1;
}

void freeSections(Sections *S) {
  free(S->starts);
  free(S->ends);
  free(S->indent);
  free(S->firstNonWs);
  free(S->diff);
  free(S->cov0);
  free(S->cov1);
  free(S->stackLine);
  free(S->stackIndent);
  free(S->structural);
  free(S->inside);
  free(S->memo);
  free(S->stackBody);
  free(S->brace.data);
  free(S->byIndent.data);
  free(S->merged.data);
  free(S->sortTmp.data);
  free(S->stack);
  free(S->paren);
  free(S->stops);
  free(S->ranges);
  memset(S, 0, sizeof *S);
}


/* ------------------------------------------------------------------------------- sort */

/* byStart of lines.ts: by start, longer first. */
static inline int byStartAfter(const SecBlock *a, const SecBlock *b) {
  /* a > b in byStart order: a must come after b */
  return a->start != b->start ? a->start > b->start : a->end < b->end;
}

/*
 * Array.prototype.sort(byStart): stable (equal blocks keep their order), here a bottom-up merge
 * sort (insertion-sorted runs of 16, then merges), no recursion.
 */
static int sortBlocks(Sections *S, SecBlocks *b) {
  const size_t n = b->len;
  if (n < 2) return 1;
  SecBlock *a = b->data;
  const size_t RUN = 16;
  for (size_t lo = 0; lo < n; lo += RUN) {
    const size_t hi = lo + RUN < n ? lo + RUN : n;
    for (size_t i = lo + 1; i < hi; i++) {
      const SecBlock v = a[i];
      size_t j = i;
      while (j > lo && byStartAfter(&a[j - 1], &v)) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = v;
    }
  }
  if (n <= RUN) return 1;
  if (!growArray((void **)&S->sortTmp.data, &S->sortTmp.cap, n, sizeof(SecBlock))) return 0;
  SecBlock *src = a, *dst = S->sortTmp.data;
  for (size_t width = RUN; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = lo + width < n ? lo + width : n;
      const size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      /* take from the left run unless the right one's head must come strictly before it */
      while (i < mid && j < hi) dst[k++] = byStartAfter(&src[i], &src[j]) ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    SecBlock *swap = src;
    src = dst;
    dst = swap;
  }
  if (src != a) memcpy(a, src, n * sizeof(SecBlock));
  return 1;
}

int sectionsToRanges(Sections *S, SecBlocks *blocks) {
  /* toRanges: sorted by start, longer first, duplicates dropped */
  if (!sortBlocks(S, blocks)) return -1;
  if (!growArray((void **)&S->ranges, &S->rangeCap, blocks->len > 0 ? blocks->len : 1, sizeof(SectionRange))) return -1;
  int count = 0;
  for (size_t j = 0; j < blocks->len; j++) {
    const SecBlock *b = &blocks->data[j];
    if (j > 0 && b->start == blocks->data[j - 1].start && b->end == blocks->data[j - 1].end) continue;
    SectionRange *r = &S->ranges[count++];
    r->startLine = b->start + 1;
    r->endLine = b->end + 1;
    r->startOffset = S->starts[b->start];
    r->endOffset = S->ends[b->end];
  }
  S->count = count;
  return count;
}

/* ------------------------------------------------------------------------------- regexes */


/*
 * WRAPPER_HEADER at p (sticky):
 *   [ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:namespace|module|package)\b | [ \t]*extern[ \t]+"C"
 * Each [ \t] run is followed by a letter, so it matches its longest run; an optional word is taken
 * when present with its blanks (skipping it leaves a letter that no later part accepts).
 */
int sectionsWrapperHeader(const uint16_t *t, int n, int p) {
  while (p < n && isBlank(t[p])) p++;
  const int q0 = p;
  int q = p;
  if (wordAt(t, n, q, "export", 0) && isBlank(at(t, n, q + 6))) {
    q += 6;
    while (q < n && isBlank(t[q])) q++;
  }
  if (wordAt(t, n, q, "declare", 0) && isBlank(at(t, n, q + 7))) {
    q += 7;
    while (q < n && isBlank(t[q])) q++;
  }
  if (wordBoundaryAt(t, n, q, "namespace", 9, 0) || wordBoundaryAt(t, n, q, "module", 6, 0) || wordBoundaryAt(t, n, q, "package", 7, 0))
    return 1;
  if (wordAt(t, n, q0, "extern", 0) && isBlank(at(t, n, q0 + 6))) {
    int r = q0 + 6;
    while (r < n && isBlank(t[r])) r++;
    return at(t, n, r) == '"' && at(t, n, r + 1) == 'C' && at(t, n, r + 2) == '"';
  }
  return 0;
}

/*
 * IMPORT_HEADER at p (sticky):
 *   [ \t]*(?:import\b|from[ \t]+\S+[ \t]+import\b|use[ \t]|export[ \t]+(?:type[ \t]+)?\{)
 * \S+ takes its longest run (a shorter one leaves a non-space where [ \t]+ must start).
 */
static int importHeader(const uint16_t *t, int n, int p) {
  while (p < n && isBlank(t[p])) p++;
  if (wordBoundaryAt(t, n, p, "import", 6, 0)) return 1;
  if (wordAt(t, n, p, "from", 0)) {
    int q = p + 4, r = q;
    while (r < n && isBlank(t[r])) r++;
    if (r > q) {
      int s = r;
      while (s < n && !isJsSpace(t[s])) s++;
      if (s > r) {
        int u = s;
        while (u < n && isBlank(t[u])) u++;
        if (u > s && wordBoundaryAt(t, n, u, "import", 6, 0)) return 1;
      }
    }
  }
  if (wordAt(t, n, p, "use", 0) && isBlank(at(t, n, p + 3))) return 1;
  if (wordAt(t, n, p, "export", 0)) {
    int q = p + 6, r = q;
    while (r < n && isBlank(t[r])) r++;
    if (r > q) {
      if (at(t, n, r) == '{') return 1;
      if (wordAt(t, n, r, "type", 0)) {
        int u = r + 4, v = u;
        while (v < n && isBlank(t[v])) v++;
        if (v > u && at(t, n, v) == '{') return 1;
      }
    }
  }
  return 0;
}

/*
 * CLOSER at p (sticky, case-insensitive):
 *   [)\]}] | (?:end|endif|endfor|endwhile|endfunction|endsub|endmodule|fi|done|esac)\b
 */
int sectionsCloser(const uint16_t *t, int n, int p) {
#define CLOSER_WORD(w) {w, sizeof w - 1}
  static const struct {
    const char *w;
    int len;
  } WORDS[] = {CLOSER_WORD("end"),    CLOSER_WORD("endif"),     CLOSER_WORD("endfor"), CLOSER_WORD("endwhile"), CLOSER_WORD("endfunction"),
               CLOSER_WORD("endsub"), CLOSER_WORD("endmodule"), CLOSER_WORD("fi"),     CLOSER_WORD("done"),     CLOSER_WORD("esac")};
#undef CLOSER_WORD
  const int c = at(t, n, p);
  if (c == ')' || c == ']' || c == '}') return 1;
  for (size_t j = 0; j < sizeof WORDS / sizeof WORDS[0]; j++)
    if (wordBoundaryAt(t, n, p, WORDS[j].w, WORDS[j].len, 1)) return 1;
  return 0;
}

/*
 * HEADER_PREFIX on s = t[from, to) (anchored at both ends where the regex says $):
 *   ^(?:@[\w$]|#\[|\[[A-Za-z_][\w.]*(?:\(.*\))?\]$|export(?:\s+default)?$)
 * [\w.]* stops at the first unit outside it, which must be ( or ]; \(.*\) then needs the text to
 * end in )] with no line terminator between the ( and that ).
 */
static int headerPrefix(const uint16_t *t, int from, int to) {
  const int len = to - from;
  const uint16_t *s = t + from;
  if (len >= 2 && s[0] == '@' && (isRegexWord(s[1]) || s[1] == '$')) return 1;
  if (len >= 2 && s[0] == '#' && s[1] == '[') return 1;
  if (len >= 2 && s[0] == '[' && ((s[1] >= 65 && s[1] <= 90) || (s[1] >= 97 && s[1] <= 122) || s[1] == 95)) {
    int p = 2;
    while (p < len && (isRegexWord(s[p]) || s[p] == '.')) p++;
    if (p == len - 1 && s[p] == ']') return 1;
    if (p < len && s[p] == '(' && len - 2 >= p + 1 && s[len - 1] == ']' && s[len - 2] == ')') {
      int q = p + 1;
      while (q < len - 2 && !isLineTerminator(s[q])) q++;
      if (q == len - 2) return 1;
    }
    return 0;
  }
  if (len >= 6 && sliceIs(t, from, from + 6, "export")) {
    if (len == 6) return 1;
    int p = 6;
    while (p < len && isJsSpace(s[p])) p++;
    return p > 6 && len - p == 7 && sliceIs(t, from + p, to, "default");
  }
  return 0;
}


/* ------------------------------------------------------------------------------- scanIndent */

/* emitBlock */
static int emitBlock(SecBlocks *blocks, int header, int end, int level, int maxDepth, int minLines) {
  if (level < maxDepth && end > header && end - header + 1 >= minLines) return sectionsPushBlock(blocks, header, end, level);
  return 1;
}

/* blockEnd: the last line of code, or a later comment-only line (of the last 64) indented deeper than `indent`. */
static int blockEnd(int lastContent, int comments, int indent, const int32_t *commentLine, const int32_t *commentIndent) {
  int end = lastContent;
  for (int k = comments - 1; k >= 0 && k >= comments - 64; k--) {
    if (commentIndent[k & 63] > indent) {
      if (commentLine[k & 63] > end) end = commentLine[k & 63];
      break;
    }
  }
  return end;
}

/*
 * scanIndent: blocks by indentation (into S->byIndent). A line followed by more-indented lines of
 * code heads a block; a closer at the header's indentation is kept in the block; lines without
 * code do not end blocks.
 */
static int scanIndent(Sections *S, const uint16_t *t, int n, int maxDepth, int minLines) {
  const uint8_t *structural = S->structural, *inside = S->inside;
  int32_t *stackLine = S->stackLine, *stackIndent = S->stackIndent;
  uint8_t *stackBody = S->stackBody;
  SecBlocks *blocks = &S->byIndent;
  blocks->len = 0;
  int32_t commentLine[64], commentIndent[64];
  int depth = 0, comments = 0, lastContent = -1;
  const int lineCount = S->lineCount;
  for (int l = 0; l < lineCount; l++) {
    const int d = indentOf(S, t, n, l);
    if (d < 0) continue;
    if (!structural[l]) {
      if (inside[l] == IN_STRING) {
        lastContent = l;
        comments = 0;
      } else {
        commentLine[comments & 63] = l;
        commentIndent[comments & 63] = d;
        comments++;
      }
      continue;
    }
    while (depth > 0 && stackIndent[depth - 1] >= d) {
      depth--;
      const int line = stackLine[depth];
      const int ind = stackIndent[depth];
      int end = blockEnd(lastContent, comments, ind, commentLine, commentIndent);
      if (ind == d && end > line && sectionsCloser(t, n, S->firstNonWs[l] /* computed with d */)) end = l;
      if (stackBody[depth] && !emitBlock(blocks, line, end, depth, maxDepth, minLines)) return 0;
    }
    if (depth > 0) stackBody[depth - 1] = 1;
    stackLine[depth] = l;
    stackIndent[depth] = d;
    stackBody[depth] = 0;
    depth++;
    lastContent = l;
    comments = 0;
  }
  while (depth > 0) {
    depth--;
    if (stackBody[depth] &&
        !emitBlock(blocks, stackLine[depth], blockEnd(lastContent, comments, stackIndent[depth], commentLine, commentIndent), depth, maxDepth,
                   minLines))
      return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------------- codeSections */

/* coveredPrefix: covered[l] = how many of lines 0..l-1 lie in at least one block. */
static void coveredPrefix(Sections *S, const SecBlocks *blocks, int32_t *covered) {
  const int lineCount = S->lineCount;
  int32_t *diff = S->diff;
  memset(diff, 0, ((size_t)lineCount + 1) * sizeof(int32_t));
  for (size_t j = 0; j < blocks->len; j++) {
    diff[blocks->data[j].start]++;
    diff[blocks->data[j].end + 1]--;
  }
  covered[0] = 0;
  int run = 0;
  for (int l = 0; l < lineCount; l++) {
    run += diff[l];
    covered[l + 1] = covered[l] + (run > 0 ? 1 : 0);
  }
}

/* Whether line l is one extendHeader moves over: HEADER_PREFIX on the trimmed line, not ending in {. */
static int prefixLine(Sections *S, const uint16_t *t, int n, int l) {
  uint8_t m = S->memo[l];
  if (!(m & M_PREFIX)) {
    const int k = firstNonWsOf(S, t, n, l);
    int yes = 0;
    if (k >= 0) {
      int e = S->ends[l];
      while (e > k && isJsSpace(t[e - 1])) e--; /* trimEnd; t[k] is not white space */
      yes = headerPrefix(t, k, e) && t[e - 1] != '{';
    }
    m |= M_PREFIX | (yes ? M_PREFIX_YES : 0);
    S->memo[l] = m;
  }
  return (m & M_PREFIX_YES) != 0;
}

/* extendHeader: moves a block's start up over decorator / annotation / attribute / export lines. */
static int extendHeader(Sections *S, const uint16_t *t, int n, int start) {
  int s = start;
  for (int steps = 0; s > 0 && steps < 16; steps++) {
    if (firstNonWsOf(S, t, n, s - 1) < 0) break; /* a blank line */
    if (!prefixLine(S, t, n, s - 1)) break;
    s--;
  }
  return s;
}

int computeCodeSections(Sections *S, const uint16_t *t, int n, int maxDepth, int minLines) {
  sectionsInitTablesOnce();
  S->count = 0;
  if (n <= 0 || maxDepth < 1) return 0;
  if (!sectionsScanBraces(S, t, n, maxDepth, minLines)) return -1; /* and buildLines */
  const int lineCount = S->lineCount;
  if (!scanIndent(S, t, n, maxDepth, minLines)) return -1;
  /* Braces win when they explain a fair part of the structure indentation shows; top-level
   * blocks of the other kind that overlap nothing chosen are added, with their children. */
  if (!sortBlocks(S, &S->brace) || !sortBlocks(S, &S->byIndent)) return -1;
  coveredPrefix(S, &S->brace, S->cov0);
  coveredPrefix(S, &S->byIndent, S->cov1);
  const int braceFirst = (int64_t)S->cov0[lineCount] * 2 >= S->cov1[lineCount] && S->brace.len > 0;
  const SecBlocks *primary = braceFirst ? &S->brace : &S->byIndent;
  const SecBlocks *secondary = braceFirst ? &S->byIndent : &S->brace;
  const int32_t *cov = braceFirst ? S->cov0 : S->cov1;
  SecBlocks *blocks = &S->merged;
  blocks->len = 0;
  if (!growArray((void **)&blocks->data, &blocks->cap, primary->len + secondary->len, sizeof(SecBlock))) return -1;
  memcpy(blocks->data, primary->data, primary->len * sizeof(SecBlock));
  blocks->len = primary->len;
  int acceptedEnd = -1;
  for (size_t j = 0; j < secondary->len; j++) {
    const SecBlock *b = &secondary->data[j];
    if (b->level == 0) {
      if (cov[b->end + 1] - cov[b->start] > 0) continue;
      acceptedEnd = b->end;
      blocks->data[blocks->len++] = *b;
    } else if (b->end <= acceptedEnd) blocks->data[blocks->len++] = *b;
  }
  /* kept: not an import list; start moved up over decorators */
  size_t kept = 0;
  for (size_t j = 0; j < blocks->len; j++) {
    SecBlock b = blocks->data[j];
    uint8_t m = S->memo[b.start];
    if (!(m & M_IMPORT)) {
      m |= M_IMPORT | (importHeader(t, n, S->starts[b.start]) ? M_IMPORT_YES : 0);
      S->memo[b.start] = m;
    }
    if (m & M_IMPORT_YES) continue;
    b.start = extendHeader(S, t, n, b.start);
    blocks->data[kept++] = b;
  }
  blocks->len = kept;
  return sectionsToRanges(S, blocks);
}
