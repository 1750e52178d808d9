/**
 * Comments of code, which the code tokeniser skips: whether one starts at an offset and where it
 * ends, by a language's CommentSyntax (languages.ts). native/comments.c is its twin in C and must
 * give the same offsets (test/unit/node/workers/nativeKernel.test.ts compares them). Also the
 * other piece of code that hides quotes and comment openers from the scanners: JavaScript's
 * regular-expression literals (below).
 */
import type { CommentSyntax } from './languages';

/** First characters of a language's comment openers, as a 128-entry flag table (cached). */
const commentStarts = new WeakMap<CommentSyntax, Uint8Array>();
export function commentFirstChars(comments: CommentSyntax): Uint8Array {
  let t = commentStarts.get(comments);
  if (!t) {
    t = new Uint8Array(128);
    for (const o of comments.line) t[o.charCodeAt(0) & 127] = 1;
    for (const [o] of comments.block) t[o.charCodeAt(0) & 127] = 1;
    for (const o of comments.lineStart ?? []) t[o.charCodeAt(0) & 127] = 1;
    for (const [o] of comments.lineBlock ?? []) t[o.charCodeAt(0) & 127] = 1;
    commentStarts.set(comments, t);
  }
  return t;
}

function startsWithAt(text: string, i: number, s: string): boolean {
  for (let j = 0; j < s.length; j++) {
    if (text.charCodeAt(i + j) !== s.charCodeAt(j)) return false;
  }
  return true;
}

/** Whether only spaces and tabs stand between offset i and the start of its line. */
function firstOnLine(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0) {
    const c = text.charCodeAt(j);
    if (c !== 32 && c !== 9) return c === 10;
    j--;
  }
  return true;
}

/** The offset of the first newline at or after `from`, or the text's length. */
function endOfLine(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

/**
 * Returns the offset just after a comment starting at i, or -1 when none starts there. Tried in
 * this order: blocks of whole lines (only at column 0; up to the end of the first later line that
 * starts with the closer), blocks, line comments, line comments that must come first on their line.
 */
export function skipComment(text: string, i: number, comments: CommentSyntax): number {
  const lineBlock = comments.lineBlock;
  if (lineBlock !== undefined && (i === 0 || text.charCodeAt(i - 1) === 10)) {
    for (const [open, close] of lineBlock) {
      if (!startsWithAt(text, i, open)) continue;
      let e = text.indexOf(close, i + open.length);
      while (e >= 0 && text.charCodeAt(e - 1) !== 10) e = text.indexOf(close, e + 1);
      return e < 0 ? text.length : endOfLine(text, e + close.length);
    }
  }
  for (const [open, close] of comments.block) {
    if (startsWithAt(text, i, open)) {
      const e = text.indexOf(close, i + open.length);
      return e < 0 ? text.length : e + close.length;
    }
  }
  for (const open of comments.line) {
    if (startsWithAt(text, i, open)) return endOfLine(text, i + open.length);
  }
  const lineStart = comments.lineStart;
  if (lineStart !== undefined) {
    for (const open of lineStart) {
      if (startsWithAt(text, i, open) && firstOnLine(text, i)) return endOfLine(text, i + open.length);
    }
  }
  return -1;
}

/*
 * Regular-expression literals of JavaScript and TypeScript (languages whose LanguageInfo has
 * `regexLiterals`), as the code tokeniser (tokenize.ts), its C twin in native/tokenize.c and
 * the ignore-marker scanner (ignoreMarkers.ts) see them: after which tokens a `/` opens one (the
 * classic rule) and where one ends. A regex never spans a line: a `/` with no closing `/` on its
 * line is punctuation after all.
 */

/**
 * Keywords after which a `/` opens a regex (`return /x/`, `typeof /x/`); after any other word,
 * a number, a string, a regex or `)` `]` `}` it divides. native/tokenize.c holds the same list.
 */
export const REGEX_KEYWORDS: readonly string[] = [
  'return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof',
];

/**
 * Whether a `/` after this punctuation character (a code unit that is no word character) may open
 * a regex: any but `)` `]` `}`, which end an expression, and `<`, whose `</` closes a JSX or TSX
 * element (`<p>a</p>`) far more often than it compares with a regex.
 */
export function regexMayFollowPunct(c: number): boolean {
  return c !== 41 && c !== 93 && c !== 125 && c !== 60;
}

/**
 * The end (exclusive) of a regex literal opened by the `/` at i: up to the unescaped `/` outside a
 * `[…]` class, then its flags (ASCII letters, digits, `_`, `$`); −1 when a line break (`\n`, `\r`)
 * or the end of the text comes first, or the `/` is followed by `/` or `*` (a comment's opener:
 * no regex starts so).
 */
export function regexLiteralEnd(text: string, i: number): number {
  const n = text.length;
  let d = text.charCodeAt(i + 1);
  if (d === 47 || d === 42) return -1;
  let inClass = false;
  for (let j = i + 1; j < n; j++) {
    d = text.charCodeAt(j);
    if (d === 10 || d === 13) return -1;
    if (d === 92) {
      j++;
      if (j >= n) return -1;
      d = text.charCodeAt(j);
      if (d === 10 || d === 13) return -1;
    } else if (d === 91) inClass = true;
    else if (d === 93) inClass = false;
    else if (d === 47 && !inClass) {
      j++;
      while (j < n && isAsciiWordUnit(text.charCodeAt(j))) j++;
      return j;
    }
  }
  return -1;
}

/** ASCII letters, digits, `_` and `$`: a regex's flags, and (with any unit beyond ASCII) a word's units for ignoreMarkers.ts. */
export function isAsciiWordUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}
