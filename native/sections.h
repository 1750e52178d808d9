/*
 * Code sections in C: codeSections of src/core/sections.ts (see native/sections.c), shared by the
 * Node-API glue of native/kernel.c.
 */
#ifndef NEARDUP_SECTIONS_H
#define NEARDUP_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

/* A TextRange of src/core/types.ts: 1-based inclusive lines, 0-based half-open UTF-16 offsets. */
typedef struct {
  int32_t startLine, endLine, startOffset, endOffset;
} SectionRange;

/* A Block of sections.ts: 0-based first and last line, nesting level. */
typedef struct {
  int32_t start, end, level;
} SecBlock;

typedef struct {
  SecBlock *data;
  size_t len, cap;
} SecBlocks;

/* A BraceEntry of scanBraces. */
typedef struct {
  int32_t header, open, headerIndent, parenBase, level, wrapper;
} SecBrace;

/*
 * The scratch of one thread's calls (grown as needed, reused): the line table, per-line flags,
 * the block lists and the result. Zero-initialise before the first call; free with
 * freeSections.
 */
typedef struct {
  /* per line (lineCap entries; the prefix sums use lineCount + 1) */
  int32_t *starts, *ends, *indent, *firstNonWs, *diff, *cov0, *cov1, *stackLine, *stackIndent;
  uint8_t *structural, *inside, *memo, *stackBody;
  size_t lineCap;
  int lineCount;
  SecBlocks brace, byIndent, merged, sortTmp;
  SecBrace *stack;
  size_t stackCap;
  int32_t *paren;
  size_t parenCap;
  /* one bit per unit of the text: where scanBraces must look (see stopBits) */
  uint64_t *stops;
  size_t stopCap;
  /* the result of the last call */
  SectionRange *ranges;
  size_t rangeCap;
  int count;
} Sections;

/*
 * codeSections(text, { maxDepth, minLines }) of src/core/sections.ts over the UTF-16 text t of n
 * units, with maxDepth and minLines already normalised as codeSections does (maxDepth >= 1,
 * minLines >= 2). The ranges go to S->ranges; returns their count, or -1 when out of memory.
 */
int computeCodeSections(Sections *S, const uint16_t *t, int n, int maxDepth, int minLines);

/*
 * proseSections(text, { maxLines, maxChars }) of src/core/sections/proseSections.ts over the
 * UTF-16 text t of n units (prosesections.c): the ranges to S->ranges; their count, or -1 when out
 * of memory.
 */
int computeProseSections(Sections *S, const uint16_t *t, int n, int maxLines, long maxChars);

void freeSections(Sections *S);

#endif
