/**
 * Turns the bytes of a file into text, or explains why the file is not text.
 *
 * Detection order:
 *   1. empty buffer                      → ok, '' (utf-8)
 *   2. UTF-8 BOM (EF BB BF)              → utf-8 (invalid sequences replaced, reported as such)
 *   3. UTF-16 LE / BE BOM (FF FE / FE FF) → utf-16le / utf-16be
 *   4. UTF-16 without BOM                → heuristic on the first {@link LIMITS.sniffBytes} bytes:
 *      at least 70 % of the code units have a NUL high byte on one side and (almost) none on the
 *      other, i.e. mostly ASCII-range text stored as 16-bit units
 *   5. any NUL byte left                 → binary
 *   6. strict UTF-8                      → utf-8
 *   7. GB18030 (iconv-lite) if the result has no U+FFFD, ≥ 80 % of its non-ASCII characters are
 *      CJK and at least half of those stand next to another CJK character (Latin-1 bytes read
 *      as GB18030 give isolated ideographs) → gb18030
 *   8. otherwise UTF-8 with U+FFFD replacement → 'utf-8 (invalid sequences replaced)'
 * After decoding, a text where more than {@link LIMITS.maxControlShare} of the characters are C0
 * control characters other than TAB, LF, VT, FF, CR and ESC (or DEL) is reported as binary.
 * A leading BOM is always removed from the text. UTF-32 is not supported (reported as binary).
 *
 * Pure (TextDecoder and strings only): the host hands the decoders it has for GB18030 and, when it
 * has a faster one, UTF-16 (Node: iconv-lite and Buffer, src/node/files/decode.ts; the browser:
 * its TextDecoder, src/web). Also the line-shape checks (minified, repetitive) every reader applies.
 */

/** What a host decodes for {@link decodeText}: GB18030 always; UTF-16 LE when it has a faster way. */
export interface HostDecoders {
  gb18030(bytes: Uint8Array): string;
  /** UTF-16 LE units as they are (lone surrogates kept); default: a String.fromCharCode loop. */
  utf16le?(bytes: Uint8Array): string;
  /**
   * The checks of a UTF-8 text read off its bytes, when the host has a faster way (a kernel's
   * textShape, native/textshape.c): what {@link checkText} and {@link lineShape} find in the text
   * valid UTF-8 `bytes` decode to. Called for valid UTF-8 without a byte order mark only.
   */
  utf8Shape?(bytes: Uint8Array): BytesShape;
}

/** What {@link HostDecoders.utf8Shape} reads off a UTF-8 text's bytes. */
export interface BytesShape extends LineShape {
  /** The control characters checkText counts (C0 but NUL, TAB, LF, VT, FF, CR, ESC; DEL). */
  control: number;
  /** False: the text has no Han ideograph (U+3400–U+9FFF, U+F900–U+FAFF); true: it may have. */
  maybeHan: boolean;
  /** Whether the text holds `neardup-ignore-` (the ignore markers' prefix). */
  marked: boolean;
}

/** What decoding found out about a text, read off its bytes (HostDecoders.utf8Shape). */
export interface TextFacts {
  /** Its {@link lineShape}. */
  shape: LineShape;
  /** False: no Han ideograph (the variant fold has nothing to do); true: maybe. */
  maybeHan: boolean;
  /** Whether it holds `neardup-ignore-` (false: it has no ignore marker). */
  marked: boolean;
}

export type DecodeResult =
  | {
      ok: true;
      text: string;
      encoding: string;
      /** When the host's utf8Shape read them. */
      facts?: TextFacts;
    }
  | { ok: false; reason: string };

/** Tunables of decoding and minified-file detection. */
export const LIMITS = {
  /** Bytes inspected by the UTF-16-without-BOM heuristic. */
  sniffBytes: 4096,
  /** Share of 16-bit units that must have a NUL byte on the same side to call it UTF-16. */
  utf16NulShare: 0.7,
  /** Above this share of control characters, the file is binary. */
  maxControlShare: 0.1,
  /** Minimum share of CJK among the non-ASCII characters of a GB18030 candidate. */
  gb18030MinCjkShare: 0.8,
  /** Minimum share of CJK characters of a GB18030 candidate that are adjacent to another one. */
  gb18030MinRunShare: 0.5,
  /** isMinified: average line length (chars, blank lines count) above which a file is minified. */
  minifiedAvgLineLength: 500,
  /** isMinified: a line longer than this in a file of at most `minifiedFewLines` lines. */
  minifiedLongLine: 5000,
  minifiedFewLines: 20,
  /** isRepetitive: files with fewer non-blank lines are never called repetitive. */
  repetitiveMinLines: 50,
  /** isRepetitive: largest share of distinct (trimmed, non-blank) lines. */
  repetitiveMaxDistinctShare: 0.02,
} as const;

export const ENCODING_UTF8_REPLACED = 'utf-8 (invalid sequences replaced)';

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function decodeText(buf: Uint8Array, host: HostDecoders): DecodeResult {
  const n = buf.length;
  if (n === 0) return { ok: true, text: '', encoding: 'utf-8' };

  // 1. Byte order marks.
  if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    const body = buf.subarray(3);
    try {
      return checkText(utf8Strict.decode(body), 'utf-8');
    } catch {
      return checkText(utf8Lenient.decode(body), ENCODING_UTF8_REPLACED);
    }
  }
  if (n >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
    return checkText(decodeUtf16(buf.subarray(2), false, host), 'utf-16le');
  }
  if (n >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    return checkText(decodeUtf16(buf.subarray(2), true, host), 'utf-16be');
  }

  // 2. UTF-16 without BOM, then NUL bytes mean binary.
  const firstNul = buf.indexOf(0);
  if (firstNul >= 0) {
    const order = sniffUtf16(buf);
    if (order === 'le') return checkText(decodeUtf16(buf, false, host), 'utf-16le');
    if (order === 'be') return checkText(decodeUtf16(buf, true, host), 'utf-16be');
    return { ok: false, reason: 'binary file (NUL bytes)' };
  }

  // 3. UTF-8, strictly.
  let text: string | undefined;
  try {
    text = utf8Strict.decode(buf);
  } catch {
    text = undefined;
  }
  if (text !== undefined) return host.utf8Shape ? checkShape(text, host.utf8Shape(buf)) : checkText(text, 'utf-8');

  // 4. GB18030 when plausible, else UTF-8 with replacement characters.
  const gb = host.gb18030(buf);
  if (isPlausibleCjk(gb)) return checkText(gb, 'gb18030');
  return checkText(utf8Lenient.decode(buf), ENCODING_UTF8_REPLACED);
}

/** Number of line feeds of a text and the length of its longest line (without the line feed). */
export interface LineShape {
  newlines: number;
  longest: number;
}

export function lineShape(text: string): LineShape {
  const len = text.length;
  let newlines = 0;
  let longest = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? len : nl;
    if (end - start > longest) longest = end - start;
    if (nl < 0) break;
    newlines++;
    start = nl + 1;
  }
  return { newlines, longest };
}

/**
 * A file is treated as minified/generated when
 *   - its average line length is above 500 characters (blank lines count as lines), or
 *   - it has a line longer than 5,000 characters and at most 20 lines.
 * An empty text is not minified. `shape` is the text's {@link lineShape}, when known.
 */
export function isMinified(text: string, shape: LineShape = lineShape(text)): boolean {
  const len = text.length;
  if (len === 0) return false;
  let lines = shape.newlines + 1;
  // A trailing newline does not start another line.
  if (text.charCodeAt(len - 1) === 10) lines--;
  if (lines < 1) lines = 1;
  if (len / lines > LIMITS.minifiedAvgLineLength) return true;
  return shape.longest > LIMITS.minifiedLongLine && lines <= LIMITS.minifiedFewLines;
}

/**
 * A file is treated as degenerate when it has at least 50 non-blank lines and at most 2 % of them
 * are distinct (after trimming): one line, or a handful of lines, repeated. Such a file has a
 * few features only, and each of its sections is a copy of every other one, so its section pairs
 * grow with the square of its length while saying nothing. `shape` is the text's
 * {@link lineShape}, when known.
 */
export function isRepetitive(text: string, shape?: LineShape): boolean {
  let newlines = 0;
  if (shape) newlines = shape.newlines;
  else for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
  if (newlines + 1 < LIMITS.repetitiveMinLines) return false;
  // Lines (blank ones included) bound the non-blank ones: stop once too many distinct are seen.
  const maxDistinct = Math.floor((newlines + 1) * LIMITS.repetitiveMaxDistinctShare);
  const distinct = new Set<string>();
  let lines = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const line = text.slice(start, nl < 0 ? text.length : nl).trim();
    if (line !== '') {
      lines++;
      distinct.add(line);
      if (distinct.size > maxDistinct) return false;
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  return lines >= LIMITS.repetitiveMinLines && distinct.size <= lines * LIMITS.repetitiveMaxDistinctShare;
}

// ---------------------------------------------------------------------------------------------

function decodeUtf16(bytes: Uint8Array, bigEndian: boolean, host: HostDecoders): string {
  const even = bytes.length & ~1; // an odd trailing byte cannot be a code unit
  if (even === 0) return '';
  if (!bigEndian && host.utf16le) return host.utf16le(bytes.subarray(0, even));
  const hi = bigEndian ? 0 : 1;
  const parts: string[] = [];
  const units = new Array<number>(Math.min(even / 2, 8192));
  for (let at = 0; at < even; ) {
    const n = Math.min(units.length, (even - at) / 2);
    units.length = n;
    for (let i = 0; i < n; i++, at += 2) units[i] = (bytes[at + hi] << 8) | bytes[at + 1 - hi];
    parts.push(String.fromCharCode(...units));
  }
  return parts.join('');
}

function sniffUtf16(buf: Uint8Array): 'le' | 'be' | null {
  const len = Math.min(buf.length, LIMITS.sniffBytes) & ~1;
  const units = len / 2;
  if (units < 2) return null;
  let nulEven = 0; // NUL in the first byte of a unit (high byte of a BE unit)
  let nulOdd = 0; // NUL in the second byte of a unit (high byte of a LE unit)
  for (let i = 0; i < len; i += 2) {
    if (buf[i] === 0) nulEven++;
    if (buf[i + 1] === 0) nulOdd++;
  }
  const need = LIMITS.utf16NulShare * units;
  const few = 0.05 * units + 1;
  if (nulOdd >= need && nulEven <= few) return 'le';
  if (nulEven >= need && nulOdd <= few) return 'be';
  return null;
}

/** The characters {@link checkText} counts (C0 controls but TAB, LF, VT, FF, CR, ESC; DEL) or refuses (NUL). */
// Written as the complement of what is allowed (TAB–CR, ESC, printable ASCII, everything from
// U+0080 on): V8 scans a negated class faster.
const CONTROL_CHAR = /[^\x09-\x0d\x1b\x20-\x7e\x80-\uffff]/;

/** Rejects decoded texts that are mostly control characters (or contain NUL characters). */
function checkText(text: string, encoding: string): DecodeResult {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // Most texts have none: one regular-expression scan (native) instead of a loop in JS.
  if (!CONTROL_CHAR.test(text)) return { ok: true, text, encoding };
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      if (c === 0) return { ok: false, reason: 'binary file (NUL bytes)' };
      // TAB, LF, VT, FF, CR, ESC (ANSI colours in logs) are normal in text files.
      if (c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 27) control++;
    } else if (c === 0x7f) {
      control++;
    }
  }
  if (text.length > 0 && control / text.length > LIMITS.maxControlShare) {
    return { ok: false, reason: 'binary file (control characters)' };
  }
  return { ok: true, text, encoding };
}

/**
 * checkText of a valid UTF-8 text without NUL or byte order mark, with the counts its bytes gave
 * (HostDecoders.utf8Shape): the same answer, and what the bytes told of the text (TextFacts).
 */
function checkShape(text: string, shape: BytesShape): DecodeResult {
  if (shape.control > 0 && shape.control / text.length > LIMITS.maxControlShare) return { ok: false, reason: 'binary file (control characters)' };
  return { ok: true, text, encoding: 'utf-8', facts: { shape: { newlines: shape.newlines, longest: shape.longest }, maybeHan: shape.maybeHan, marked: shape.marked } };
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0x3400 && c <= 0x4dbf) || // extension A
    (c >= 0x3000 && c <= 0x303f) || // CJK symbols and punctuation
    (c >= 0xff00 && c <= 0xffef) || // full-width forms
    (c >= 0x3040 && c <= 0x30ff) || // kana (in GB18030 too)
    (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
    (c >= 0xd800 && c <= 0xdbff) // astral (extension B+) via a high surrogate
  );
}

function isPlausibleCjk(text: string): boolean {
  let nonAscii = 0;
  let cjk = 0;
  let inRun = 0;
  let prevCjk = false;
  let prevCounted = false; // whether the previous CJK char was already counted as in a run
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) return false;
    if (c < 0x80) {
      prevCjk = false;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) continue; // low surrogate: counted with its high half
    nonAscii++;
    if (isCjk(c)) {
      cjk++;
      if (prevCjk) {
        inRun += prevCounted ? 1 : 2;
        prevCounted = true;
      } else {
        prevCounted = false;
      }
      prevCjk = true;
    } else {
      prevCjk = false;
    }
  }
  if (nonAscii === 0 || cjk === 0) return false;
  return cjk / nonAscii >= LIMITS.gb18030MinCjkShare && inRun / cjk >= LIMITS.gb18030MinRunShare;
}
