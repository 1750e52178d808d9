/*
 * Comments of code in C: a language's comment syntax (CommentSyntax of src/core/text/languages.ts)
 * and skipComment of src/core/text/comments.ts, unit for unit (see native/comments.c). The
 * Node-API glue of native/kernel.c fills a Lang from defineLanguage's arrays.
 */
#ifndef NEARDUP_COMMENTS_H
#define NEARDUP_COMMENTS_H

#include <stdint.h>

#define MAX_OPENERS 8
#define MAX_OPENER_LEN 16

typedef struct {
  int len;
  uint16_t s[MAX_OPENER_LEN];
} Opener;

typedef struct {
  int singleQuote;
  int regex; /* `/` may open a regular-expression literal (src/core/text/comments.ts) */
  int nLine, nBlock, nLineStart, nLineBlock;
  Opener line[MAX_OPENERS];                        /* line comments: to the end of the line */
  Opener open[MAX_OPENERS], close[MAX_OPENERS];    /* block comments */
  Opener lineStart[MAX_OPENERS];                   /* line comments only first on their line */
  Opener lbOpen[MAX_OPENERS], lbClose[MAX_OPENERS]; /* blocks of whole lines, both ends at column 0 */
  uint8_t first[128];                              /* first characters of every opener */
} Lang;

/* Fills L->first from the openers. */
void langFinish(Lang *L);

/* The offset just after a comment starting at i, or -1 when none starts there. */
int skipComment(const uint16_t *t, int n, int i, const Lang *L);

#endif
