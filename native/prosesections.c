/*
 * proseSections of src/core/sections/proseSections.ts in C (issue 16: the prose files of a scan's
 * batches fingerprinted on the addon's threads, readcode.c): heading sections (ATX and setext,
 * outside fenced code and front matter) and paragraph runs, over a UTF-16 text, with the same
 * ranges. Its regular expressions are spelt out as scans of a line (each deterministic: no
 * backtracking can change a match, see each one). Lines are split at "\n" alone, a "\r" before it
 * left out (buildLines of lines.ts). And a prose file's tokens with these sections for the kernel
 * (kernelTokenizeProseFile: readcode.c's batches; not in the WebAssembly kernel).
 */
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprintparts.h"
#include "sections.h"
#include "sectionsparts.h"

/* Leading spaces of [s, e) when at most 3 (` {0,3}` followed by a character that is no space), else -1. */
static int upToThreeSpaces(const uint16_t *t, int s, int e) {
  int p = s;
  while (p < e && t[p] == 32) p++;
  return p - s <= 3 ? p : -1;
}

/* Whether [p, e) is all [ \t] (`[ \t]*$`). */
static int onlyBlanks(const uint16_t *t, int p, int e) {
  for (; p < e; p++)
    if (!isBlank(t[p])) return 0;
  return 1;
}

/* ATX `^ {0,3}(#{1,6})(?:[ \t]|$)`: the heading's level, or 0. */
static int atxLevel(const uint16_t *t, int s, int e) {
  const int p = upToThreeSpaces(t, s, e);
  if (p < 0) return 0;
  int q = p;
  while (q < e && t[q] == '#') q++;
  const int level = q - p;
  if (level < 1 || level > 6) return 0;
  return q == e || isBlank(t[q]) ? level : 0;
}

/* SETEXT `^ {0,3}(?:={2,}|-{2,})[ \t]*$`: its level (1 for `=`, 2 for `-`), or 0. */
static int setextLevel(const uint16_t *t, int s, int e) {
  const int p = upToThreeSpaces(t, s, e);
  if (p < 0 || p >= e || (t[p] != '=' && t[p] != '-')) return 0;
  const uint16_t c = t[p];
  int q = p;
  while (q < e && t[q] == c) q++;
  if (q - p < 2 || !onlyBlanks(t, q, e)) return 0;
  return c == '=' ? 1 : 2;
}

/* A fence's run at the line's start (` {0,3}(`{3,}|~{3,})`): its length (the char in *ch, the
 * line's rest from *rest), or 0. */
static int fenceRun(const uint16_t *t, int s, int e, uint16_t *ch, int *rest) {
  const int p = upToThreeSpaces(t, s, e);
  if (p < 0 || p >= e || (t[p] != '`' && t[p] != '~')) return 0;
  int q = p;
  while (q < e && t[q] == t[p]) q++;
  if (q - p < 3) return 0;
  *ch = t[p];
  *rest = q;
  return q - p;
}

/* FENCE_OPEN `^ {0,3}(`{3,}|~{3,})(.*)$` with a backtick fence's info string holding no backtick:
 * the fence's length (its char in *ch), or 0. `.` matches no line terminator: a line whose rest
 * holds one (a lone "\r", U+2028) opens nothing. */
static int fenceOpen(const uint16_t *t, int s, int e, uint16_t *ch) {
  int rest = 0;
  const int len = fenceRun(t, s, e, ch, &rest);
  if (!len) return 0;
  for (int q = rest; q < e; q++) {
    if (isLineTerminator(t[q])) return 0;
    if (*ch == '`' && t[q] == '`') return 0;
  }
  return len;
}

/* `^ {0,3}(`{3,}|~{3,})[ \t]*$` of a fence of `ch` at least `len` long: the fence closes. */
static int fenceCloses(const uint16_t *t, int s, int e, uint16_t ch, int len) {
  uint16_t c = 0;
  int rest = 0;
  const int n = fenceRun(t, s, e, &c, &rest);
  return n && onlyBlanks(t, rest, e) && c == ch && n >= len;
}

/* NOT_SETEXT_TEXT `^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)](?:[ \t]|$)|>)`: a list item or a quote. */
static int notSetextText(const uint16_t *t, int s, int e) {
  const int p = upToThreeSpaces(t, s, e);
  if (p < 0 || p >= e) return 0;
  const uint16_t c = t[p];
  if (c == '>') return 1;
  if (c == '-' || c == '*' || c == '+') return p + 1 < e && isBlank(t[p + 1]);
  int q = p;
  while (q < e && t[q] >= '0' && t[q] <= '9') q++;
  if (q - p < 1 || q - p > 9 || q >= e || (t[q] != '.' && t[q] != ')')) return 0;
  return q + 1 == e || isBlank(t[q + 1]);
}

/* FRONT_MATTER_OPEN `^---[ \t]*$`, and FRONT_MATTER_CLOSE `^(?:---|\.\.\.)[ \t]*$` with `close`. */
static int frontMatterLine(const uint16_t *t, int s, int e, int close) {
  if (e - s < 3) return 0;
  const uint16_t c = t[s];
  if (!(c == '-' || (close && c == '.')) || t[s + 1] != c || t[s + 2] != c) return 0;
  return onlyBlanks(t, s + 3, e);
}

/* A paragraph run being built (runs of proseSections): first and last line, characters. */
typedef struct {
  int s, e;
  long chars;
} Run;

typedef struct {
  Sections *S;
  int maxLines;
  long maxChars;
  SecBlocks *out;   /* the sections' blocks (S->merged) */
  SecBlocks *found; /* one region's runs, `level` their characters (S->brace: unused by prose) */
  Run cur;
  int hasCur;
  int ok;
} Runs;

static long lineChars(const Sections *S, int l) { return S->ends[l] - S->starts[l]; }

/* The run being built, ended: into R->found, its characters as `level`. */
static void endRun(Runs *R) {
  R->ok &= sectionsPushBlock(R->found, R->cur.s, R->cur.e, (int)(R->cur.chars > 0x7fffffff ? 0x7fffffff : R->cur.chars));
  R->hasCur = 0;
}

static void addUnit(Runs *R, int s, int e, long chars) {
  if (R->hasCur && (e - R->cur.s + 1 > R->maxLines || R->cur.chars + chars > R->maxChars)) endRun(R);
  if (R->hasCur) {
    R->cur.e = e;
    R->cur.chars += chars;
  } else {
    R->cur.s = s;
    R->cur.e = e;
    R->cur.chars = chars;
    R->hasCur = 1;
  }
}

/* runs(a, b) of proseSections: the paragraph runs of lines a..b into R->out. */
static void paragraphRuns(Runs *R, const uint8_t *blank, int a, int b) {
  const Sections *S = R->S;
  R->found->len = 0;
  R->hasCur = 0;
  int l = a;
  while (l <= b) {
    if (blank[l]) {
      l++;
      continue;
    }
    /* A paragraph: consecutive non-blank lines, cut between lines when it is too long. */
    int s = l;
    long chars = 0;
    for (; l <= b && !blank[l]; l++) {
      const long c = lineChars(S, l);
      if (l > s && (l - s + 1 > R->maxLines || chars + c > R->maxChars)) {
        addUnit(R, s, l - 1, chars);
        s = l;
        chars = 0;
      }
      chars += c;
    }
    addUnit(R, s, l - 1, chars);
  }
  if (R->hasCur) endRun(R);
  if (!R->ok) return;
  /* A small tail joins the run before it rather than standing alone (its characters in `level`). */
  SecBlocks *f = R->found;
  if (f->len >= 2) {
    const SecBlock *last = &f->data[f->len - 1];
    if ((long)(last->end - last->start + 1) * 3 < R->maxLines && (long)last->level * 3 < R->maxChars) {
      f->data[f->len - 2].end = last->end;
      f->len--;
    }
  }
  for (size_t j = 0; j < f->len && R->ok; j++) R->ok &= sectionsPushBlock(R->out, f->data[j].start, f->data[j].end, 0);
}

/* region(from, to, always) of proseSections. */
static void region(Runs *R, const uint8_t *blank, const int32_t *prevNonBlank, int from, int to, int always) {
  int a = from;
  while (a <= to && blank[a]) a++;
  if (a > to) return;
  const int b = prevNonBlank[to];
  if (!always) {
    long chars = 0;
    for (int l = a; l <= b && chars <= R->maxChars; l++) chars += lineChars(R->S, l);
    if (b - a + 1 <= R->maxLines && chars <= R->maxChars) return; /* its heading section covers it */
  }
  paragraphRuns(R, blank, a, b);
}

int computeProseSections(Sections *S, const uint16_t *t, int n, int maxLines, long maxChars) {
  S->count = 0;
  if (n <= 0) return 0;
  if (maxLines < 1) maxLines = 1;
  if (maxChars < 1) maxChars = 1;
  /* buildLines: at each "\n", a "\r" before it not in the line */
  int lineCount = 1;
  for (int i = 0; i < n; i++) lineCount += t[i] == '\n';
  if (!sectionsEnsureLines(S, (size_t)lineCount)) return -1;
  {
    int l = 0, pos = 0;
    for (int i = 0; i < n; i++) {
      if (t[i] != '\n') continue;
      S->starts[l] = pos;
      S->ends[l++] = i > pos && t[i - 1] == '\r' ? i - 1 : i;
      pos = i + 1;
    }
    S->starts[l] = pos;
    S->ends[l] = n;
  }
  S->lineCount = lineCount;
  uint8_t *blank = S->structural;
  int32_t *prevNonBlank = S->indent;
  for (int l = 0, last = -1; l < lineCount; l++) {
    int b = 1;
    for (int k = S->starts[l]; k < S->ends[l]; k++)
      if (!isWs(t[k])) {
        b = 0;
        break;
      }
    blank[l] = (uint8_t)b;
    if (!b) last = l;
    prevNonBlank[l] = last;
  }

  /* YAML front matter is neither a heading nor text. */
  int first = 0;
  if (lineCount > 1 && frontMatterLine(t, S->starts[0], S->ends[0], 0)) {
    for (int l = 1; l < lineCount; l++)
      if (frontMatterLine(t, S->starts[l], S->ends[l], 1)) {
        first = l + 1;
        break;
      }
  }

  /* The headings (line, end, level) in S->byIndent. */
  SecBlocks *headings = &S->byIndent;
  headings->len = 0;
  uint16_t fenceChar = 0;
  int fenceLen = 0, prevPara = 0;
  for (int l = first; l < lineCount; l++) {
    if (blank[l]) {
      prevPara = 0;
      continue;
    }
    const int s = S->starts[l], e = S->ends[l];
    if (fenceLen) {
      if (fenceCloses(t, s, e, fenceChar, fenceLen)) fenceLen = 0;
      continue;
    }
    uint16_t ch = 0;
    const int fence = fenceOpen(t, s, e, &ch);
    if (fence) {
      fenceChar = ch;
      fenceLen = fence;
      prevPara = 0;
      continue;
    }
    const int atx = atxLevel(t, s, e);
    if (atx) {
      if (!sectionsPushBlock(headings, l, l, atx)) return -1;
      prevPara = 0;
      continue;
    }
    if (prevPara) {
      const int level = setextLevel(t, s, e);
      if (level) {
        if (!sectionsPushBlock(headings, l - 1, l, level)) return -1;
        prevPara = 0;
        continue;
      }
    }
    prevPara = !notSetextText(t, s, e);
  }

  SecBlocks *out = &S->merged;
  out->len = 0;
  /* One section per heading: `open` a stack of heading indexes (S->stackLine). */
  int32_t *open = S->stackLine;
  int depth = 0;
  const SecBlock *h = headings->data;
  for (size_t k = 0; k < headings->len; k++) {
    while (depth > 0 && h[open[depth - 1]].level >= h[k].level) {
      const SecBlock *o = &h[open[--depth]];
      const int end = prevNonBlank[h[k].start - 1];
      if (end > o->end && !sectionsPushBlock(out, o->start, end, 0)) return -1;
    }
    if ((size_t)depth >= S->lineCap) return -1; /* never: a heading per line at most */
    open[depth++] = (int32_t)k;
  }
  while (depth > 0) {
    const SecBlock *o = &h[open[--depth]];
    const int end = prevNonBlank[lineCount - 1];
    if (end > o->end && !sectionsPushBlock(out, o->start, end, 0)) return -1;
  }

  /* Paragraph runs: text before the first heading (or the whole text) always; heading bodies
   * only when too long to compare as one piece. */
  Runs R = {S, maxLines, maxChars, out, &S->brace, {0, 0, 0}, 0, 1};
  const size_t nh = headings->len;
  region(&R, blank, prevNonBlank, first, nh ? h[0].start - 1 : lineCount - 1, 1);
  for (size_t k = 0; k < nh && R.ok; k++) region(&R, blank, prevNonBlank, h[k].end + 1, k + 1 < nh ? h[k + 1].start - 1 : lineCount - 1, 0);
  if (!R.ok) return -1;

  return sectionsToRanges(S, out);
}

/* proseSections' defaults (fingerprintText calls it with none): lines and characters of a paragraph run. */
#define PROSE_MAX_LINES 30
#define PROSE_MAX_CHARS (80L * PROSE_MAX_LINES)

int kernelTokenizeProseFile(Kernel *K, int len, int withSections, int region) {
  const int tokens = kernelTokenizeProse(K, len);
  if (tokens < 0) return tokens;
  if (withSections) {
    if (computeProseSections(&K->sections, K->text, K->textLen, PROSE_MAX_LINES, PROSE_MAX_CHARS) < 0) return -1;
    K->sectionsReady = 1;
  }
  if (region) {
    /* The region document's tokens: the words as read, none an identifier (documentFromTokens('prose', …)). */
    if (!regionTokensRoom(K, (size_t)tokens + 1)) return -1;
    if (tokens) {
      memcpy(K->rhi, K->thi, (size_t)tokens * 4);
      memcpy(K->rlo, K->tlo, (size_t)tokens * 4);
      memset(K->rident, 0, (size_t)tokens);
    }
    K->regionReady = 1;
  }
  return tokens;
}
