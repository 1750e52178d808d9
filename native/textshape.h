/*
 * The text checks every file gets, in one pass over its UTF-8 bytes (native/textshape.c): what
 * checkText and lineShape of src/core/text/decodeText.ts find in the decoded text, without
 * decoding it or running their regular expression and line loop in JavaScript.
 */
#ifndef NEARDUP_TEXTSHAPE_H
#define NEARDUP_TEXTSHAPE_H

#include <stddef.h>
#include <stdint.h>

/* Words of textShape's out. */
#define TEXT_SHAPE_WORDS 4
/* Bits of out[3]. */
#define TEXT_SHAPE_NUL 1      /* a NUL byte */
#define TEXT_SHAPE_NON_ASCII 2 /* a byte >= 0x80 */
#define TEXT_SHAPE_MAYBE_HAN 4 /* a lead byte 0xE3-0xE9 or 0xEF: a character that may be a Han ideograph
                                  (U+3400-U+9FFF, U+F900-U+FAFF; firstFoldableHan of src/core/text/variantFold.ts) */
#define TEXT_SHAPE_MARKER 8    /* "neardup-ignore-", the prefix of the ignore markers (src/core/text/ignoreMarkers.ts) */

/*
 * For bytes that are valid UTF-8 (the answer is meaningless otherwise), of the text they decode to:
 *   out[0] the control characters checkText counts (C0 but NUL, TAB, LF, VT, FF, CR, ESC; DEL),
 *   out[1] its line feeds, out[2] its longest line in UTF-16 units (lineShape), out[3] the bits above.
 */
void textShape(const uint8_t *p, size_t n, uint32_t out[TEXT_SHAPE_WORDS]);

#endif
