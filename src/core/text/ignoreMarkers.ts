/**
 * Markers by which a team says "this duplication is accepted": comments holding
 *
 * - `neardup-ignore-file` on one of the file's first {@link IGNORE_FILE_LINES} lines: the whole
 *   file is left out (the Node layer reports it as skipped, {@link IGNORE_FILE_REASON});
 * - `neardup-ignore-start` … `neardup-ignore-end`: those lines, the markers' own lines included,
 *   are blanked; a start with no end runs to the end of the file;
 * - `neardup-ignore-next`: the marker's line and the next block after it are blanked (see
 *   {@link nextBlockEnd} for exactly what a block is).
 *
 * A marker counts only when nothing but spaces, tabs and one comment opener of the file's
 * language stands before it on its line (`//`, `#`, `--`, `;`, `/*`, `<!--`, …: the line,
 * first-on-line, block and whole-line-block openers of its CommentSyntax, the opener possibly
 * followed by more punctuation: `///`, `/**`, `//!`, `;;`, `##`), and the marker word ends there
 * (`neardup-ignore-startle` is no marker). So a marker inside a string literal, after code, or on
 * a middle line of a block comment does not count. In prose files (Markdown, text…) the only
 * opener is `<!--`, and lines inside fenced code blocks (``` or ~~~) never hold markers.
 *
 * Blanking replaces every code unit of an ignored line by a space and keeps line breaks (`\n` and
 * `\r`), so the text keeps its length, offsets and line numbers (like the variant fold); ignored
 * text then gives no tokens, so it is neither reported nor matched against. Pure functions.
 */
import type { CommentSyntax, LanguageInfo } from './languages';
import { isAsciiWordUnit, REGEX_KEYWORDS, regexLiteralEnd, regexMayFollowPunct, skipComment } from './comments';

/** How many of a file's first lines may hold `neardup-ignore-file`. */
export const IGNORE_FILE_LINES = 10;
/** The reason a file with a `neardup-ignore-file` marker is skipped for. */
export const IGNORE_FILE_REASON = 'ignored by a neardup-ignore-file marker';

/** What every marker starts with: a text without it has no marker. */
export const IGNORE_MARKER_PREFIX = 'neardup-ignore-';
const PREFIX = IGNORE_MARKER_PREFIX;
type MarkerKind = 'file' | 'start' | 'end' | 'next';
const KINDS: MarkerKind[] = ['file', 'start', 'end', 'next'];

/** The markers of prose: HTML comments. */
const PROSE_COMMENTS: CommentSyntax = { line: [], block: [['<!--', '-->']] };

/** Characters that may follow an opener before the marker (`///`, `/**`, `//!`, `##`, `;;`, `---`). */
const OPENER_TAIL = new Set('/*!#;-%'.split(''));

interface Marker {
  kind: MarkerKind;
  /** Offset of the start of the marker's line, and of its end (its `\n`, or the text's length). */
  lineStart: number;
  lineEnd: number;
  /** 0-based line number. */
  line: number;
}

function openersOf(comments: CommentSyntax): string[] {
  const all = [...comments.line, ...(comments.lineStart ?? []), ...comments.block.map((b) => b[0]), ...(comments.lineBlock ?? []).map((b) => b[0])];
  // Longest first, so `///` is not taken as `/` plus a tail when both are openers.
  return all.map((o) => o.trim()).filter((o) => o.length > 0).sort((a, b) => b.length - a.length);
}

/** Whether `prefix` (the text before a marker on its line) is whitespace, one opener, an optional tail, whitespace. */
function isCommentPrefix(prefix: string, openers: string[]): boolean {
  const s = prefix.trim();
  if (s.length === 0) return false;
  for (const o of openers) {
    if (!s.startsWith(o)) continue;
    let i = o.length;
    while (i < s.length && OPENER_TAIL.has(s[i])) i++;
    if (i === s.length) return true;
  }
  return false;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

/** Whether a line (without its line break) opens or closes a fenced code block of Markdown. */
function fenceOf(line: string): string | null {
  const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  return m ? m[1] : null;
}

/** The (0-based) numbers of the lines of a Markdown text that are fenced code, fences included. */
function fencedLines(text: string): Set<number> {
  const inside = new Set<number>();
  let open: string | null = null;
  let line = 0;
  for (let s = 0; s <= text.length; line++) {
    let e = text.indexOf('\n', s);
    if (e < 0) e = text.length;
    const fence = fenceOf(text.slice(s, e));
    if (open !== null) {
      inside.add(line);
      if (fence !== null && fence[0] === open[0] && fence.length >= open.length && text.slice(s, e).trim() === fence) open = null;
    } else if (fence !== null) {
      inside.add(line);
      open = fence;
    }
    s = e + 1;
  }
  return inside;
}

/** The markers of a text, in order; `limit`: only those starting before this offset. */
function findMarkers(text: string, lang: LanguageInfo, limit = text.length): Marker[] {
  let at = text.indexOf(PREFIX);
  if (at < 0 || at >= limit) return [];
  const prose = lang.kind === 'prose';
  const openers = openersOf(prose ? PROSE_COMMENTS : lang.comments);
  if (openers.length === 0) return [];
  const fenced = prose ? fencedLines(text) : null;
  const markers: Marker[] = [];
  // Line numbers are counted incrementally up to each hit.
  let line = 0;
  let counted = 0;
  for (; at >= 0 && at < limit; at = text.indexOf(PREFIX, at + PREFIX.length)) {
    const rest = at + PREFIX.length;
    const kind = KINDS.find((k) => text.startsWith(k, rest) && !isWordChar(text.charCodeAt(rest + k.length)));
    if (!kind) continue;
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    if (!isCommentPrefix(text.slice(lineStart, at), openers)) continue;
    for (let i = text.indexOf('\n', counted); i >= 0 && i < lineStart; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    if (fenced?.has(line)) continue;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    markers.push({ kind, lineStart, lineEnd, line });
  }
  return markers;
}

/** Offset where the line holding `i` ends (its `\n`, or the text's length). */
function endOfLine(text: string, i: number): number {
  const e = text.indexOf('\n', i);
  return e < 0 ? text.length : e;
}

/** Whether the line [s, e) holds only whitespace. */
function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** Leading spaces and tabs of the line starting at s (a tab counts as one). */
function indentOf(text: string, s: number): number {
  let i = s;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return i - s;
}

/** Start of the first non-blank line at or after offset s (a line start), or −1. */
function nextNonBlankLine(text: string, s: number): number {
  while (s < text.length) {
    const e = endOfLine(text, s);
    if (!isBlank(text, s, e)) return s;
    s = e + 1;
  }
  return -1;
}

/** Offset just after a string literal opened at i (by `"`, `'`, a backtick or a triple quote). */
function skipString(text: string, i: number): number {
  const q = text[i];
  if (q !== '`' && text.startsWith(q + q + q, i)) {
    const e = text.indexOf(q + q + q, i + 3);
    return e < 0 ? text.length : e + 3;
  }
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === q) return j + 1;
    else if (c === '\n' && q !== '`') return j; // an unterminated quote ends with its line
  }
  return text.length;
}

/**
 * The end (offset of the line break, or the text's length) of the block that a
 * `neardup-ignore-next` marker starting at line `from` (a line start, after the marker's line)
 * ignores. The block starts at the first non-blank line L.
 *
 * Prose: L through the line before the next blank line (a paragraph).
 *
 * Code: brackets `{ } ( ) [ ]` are counted from L on, outside comments, string literals
 * (`"…"`, `'…'` where `'` opens strings, backtick strings across lines, triple quotes) and, in
 * JavaScript and TypeScript, regular-expression literals (where the code tokeniser sees one:
 * comments.ts; a quote or bracket inside `/[`'"]/` opens nothing). Walking
 * the lines from L, after each line X where the count is back to zero (or below), let N be the
 * next non-blank line: the block ends at X when there is no N; goes on when N is indented more
 * than L (a Python body, a continuation); else ends at X when a bracket left open on an earlier
 * line closed on X (the `}` of a function, class or object; the `)` of a call over several lines)
 * or a blank line stands between X and N; else goes on. So a braced function or statement ends
 * at its closing bracket, an indented Python block at its last indented line before a line as
 * far left as L, and anything else at the next blank line outside brackets.
 */
export function nextBlockEnd(text: string, from: number, lang: LanguageInfo): number {
  const first = nextNonBlankLine(text, from);
  if (first < 0) return text.length;
  if (lang.kind === 'prose') {
    let s = first;
    for (;;) {
      const e = endOfLine(text, s);
      if (e >= text.length) return text.length;
      const n = e + 1;
      if (isBlank(text, n, endOfLine(text, n))) return e;
      s = n;
    }
  }
  const comments = lang.comments;
  const regex = lang.regexLiterals;
  // Whether a `/` here would open a regex (by the token before it, as the code tokeniser decides).
  let regexMayStart = true;
  const baseIndent = indentOf(text, first);
  let depth = 0;
  let depthAtLineStart = 0;
  let i = first;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      // The end of a line X (a comment or string over several lines is skipped whole).
      if (depth <= 0) {
        const next = nextNonBlankLine(text, i + 1);
        if (next < 0) return i;
        if (indentOf(text, next) <= baseIndent && (depthAtLineStart > 0 || next > i + 1)) return i;
      }
      depthAtLineStart = depth;
      i++;
      continue;
    }
    if (c === '"' || c === '`' || (c === "'" && lang.singleQuoteStrings)) {
      i = skipString(text, i);
      regexMayStart = false;
      continue;
    }
    const e = skipComment(text, i, comments);
    if (e > i) {
      i = e;
      continue;
    }
    if (regex) {
      const code = text.charCodeAt(i);
      const r = code === 47 && regexMayStart ? regexLiteralEnd(text, i) : -1;
      if (r >= 0) {
        i = r;
        regexMayStart = false;
        continue;
      }
      if (isIdentUnit(code)) {
        // A word (any non-ASCII unit counts as a word's): a regex may follow only a keyword of REGEX_KEYWORDS.
        const s = i;
        while (i < text.length && isIdentUnit(text.charCodeAt(i))) i++;
        regexMayStart = REGEX_KEYWORDS.includes(text.slice(s, i));
        continue;
      }
      if (code > 32) regexMayStart = regexMayFollowPunct(code);
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    i++;
  }
  return text.length;
}

/** Letters, digits, `_`, `$` and any unit beyond ASCII. */
function isIdentUnit(c: number): boolean {
  return c >= 128 || isAsciiWordUnit(c);
}

function blank(chars: string[], text: string, s: number, e: number): void {
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) chars[i] = ' ';
  }
}

/** Whether one of the first {@link IGNORE_FILE_LINES} lines of a text holds `neardup-ignore-file`. */
export function hasIgnoreFileMarker(text: string, lang: LanguageInfo): boolean {
  let limit = -1;
  for (let n = 0; n < IGNORE_FILE_LINES; n++) {
    limit = text.indexOf('\n', limit + 1);
    if (limit < 0) break;
  }
  if (limit < 0) limit = text.length;
  return findMarkers(text, lang, limit).some((m) => m.kind === 'file');
}

/**
 * The text with the regions of its `neardup-ignore-start`/`-end` and `neardup-ignore-next`
 * markers blanked (same length, same line breaks); the text itself when it has none.
 * (`neardup-ignore-file` is {@link hasIgnoreFileMarker}'s.)
 */
export function blankIgnoredRegions(text: string, lang: LanguageInfo): string {
  const markers = findMarkers(text, lang);
  if (markers.length === 0) return text;
  let chars: string[] | null = null;
  let covered = -1; // offset up to which the text is already blanked
  for (let k = 0; k < markers.length; k++) {
    const m = markers[k];
    if (m.lineStart <= covered) continue;
    let end: number;
    if (m.kind === 'start') {
      const close = markers.slice(k + 1).find((n) => n.kind === 'end');
      end = close ? close.lineEnd : text.length;
    } else if (m.kind === 'next') {
      end = m.lineEnd >= text.length ? m.lineEnd : Math.max(m.lineEnd, nextBlockEnd(text, m.lineEnd + 1, lang));
    } else {
      continue; // a stray end, or a file marker (not a region)
    }
    chars ??= text.split('');
    blank(chars, text, m.lineStart, end);
    covered = end;
  }
  return chars ? chars.join('') : text;
}

/**
 * What the markers of a text leave to fingerprint: `null` when the whole file is ignored
 * (`neardup-ignore-file`), else the text with its ignored regions blanked.
 */
export function applyIgnoreMarkers(text: string, lang: LanguageInfo): string | null {
  if (text.indexOf(PREFIX) < 0) return text;
  if (hasIgnoreFileMarker(text, lang)) return null;
  return blankIgnoredRegions(text, lang);
}
