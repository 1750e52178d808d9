/*
 * The fast path's checks and decoding of a code file's bytes (native/utf8code.c): whether the
 * worker's usual path (src/node/files/decode.ts decodeBuffer, then core's fingerprintDecodedText)
 * would take the bytes as plain UTF-8 text it fingerprints as it is — and if so their UTF-16 text,
 * so the kernel tokenises it without a JavaScript string. Pure C, no I/O (readcode.c reads).
 */
#ifndef NEARDUP_UTF8CODE_H
#define NEARDUP_UTF8CODE_H

#include <stddef.h>
#include <stdint.h>

/* Why plainCodeText said no (the usual path then decides, with its own reasons). */
enum {
  PLAIN_OK = 0,
  PLAIN_NOT_UTF8 = 1,    /* a byte order mark, a NUL byte, or not valid UTF-8 */
  PLAIN_CONTROL = 2,     /* control characters (checkShape may call it binary) */
  PLAIN_HAN = 3,         /* may hold a Han ideograph while the variant fold is on */
  PLAIN_MARKED = 4,      /* holds "neardup-ignore-" */
  PLAIN_MINIFIED = 5,    /* isMinified */
  PLAIN_REPETITIVE = 6,  /* isRepetitive could say yes (not decided here) */
  PLAIN_REASONS = 7
};

/* Words of plainCodeText's info: UTF-16 units, lines (fingerprintDecodedText's `lines`). */
#define PLAIN_INFO_WORDS 2

/* The first code unit the variant fold may change (FIRST_HAN of src/core/text/variantFold.ts). */
#define FOLD_FIRST_HAN 0x3400

/*
 * The n bytes at p decoded into out (room for n units) when decodeText would decode them as
 * strict UTF-8 with no change and fingerprintDecodedText would fingerprint that text as it is
 * (not binary, not minified nor repetitive, no ignore marker; with `fold`, nothing to fold, or
 * `foldTable` given: then folded with it as foldVariants folds, after the checks, which read the
 * text as decoded): PLAIN_OK with info filled; else why not (out and info then mean nothing).
 * foldTable: 65536 entries, each unit's folded form (0: unchanged), or NULL.
 */
int plainCodeText(const uint8_t *p, size_t n, int fold, const uint16_t *foldTable, uint16_t *out, uint32_t info[PLAIN_INFO_WORDS]);

/* Strict UTF-8 (what TextDecoder's fatal mode accepts) to UTF-16 units into out: their count, or -1 when not valid. */
long utf8ToUtf16(const uint8_t *p, size_t n, uint16_t *out);

/*
 * 1 when isRepetitive (src/core/text/decodeText.ts) of the text these valid UTF-8 bytes decode to,
 * with `newlines` line feeds, is surely false; 0 when it may be true (the caller asks it then).
 */
int surelyNotRepetitive(const uint8_t *p, size_t n, uint32_t newlines);

#endif
