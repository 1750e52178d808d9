/**
 * scanBraces: one pass of a small lexer over source code (no parser, no recursion) that skips
 * strings, comments (line, block and hash comments) and regex literals, finds `{ }` blocks
 * with the line where each block's header starts, and records which lines carry code and which
 * begin inside a string or comment, for the indentation pass of codeSections.ts. Also the header rules both passes share
 * (wrapper, import and prefix lines, closers).
 */
import { indentWidth, isWs, zeroedFlags, type Block, type Lines } from './lines';

const CH_LF = 10;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_SQUOTE = 39;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_STAR = 42;
const CH_COMMA = 44;
const CH_SLASH = 47;
const CH_SEMI = 59;
const CH_LBRACKET = 91;
const CH_BACKSLASH = 92;
const CH_RBRACKET = 93;
const CH_BACKTICK = 96;
const CH_LBRACE = 123;
const CH_RBRACE = 125;

export const IN_STRING = 1;
export const IN_COMMENT = 2;

const FAIL_SQUOTE = 1;
const FAIL_DQUOTE = 2;
const FAIL_REGEX = 4;

function isIdentChar(ch: number): boolean {
  return (
    (ch >= 48 && ch <= 57) ||
    (ch >= 65 && ch <= 90) ||
    (ch >= 97 && ch <= 122) ||
    ch === 95 ||
    ch === 36 ||
    ch > 127
  );
}

/** A 128-entry flag table of the given ASCII characters (looked up instead of a Set). */
function asciiFlags(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let k = 0; k < chars.length; k++) t[chars.charCodeAt(k)] = 1;
  return t;
}
const hasFlag = (t: Uint8Array, c: number): boolean => c < 128 && t[c] === 1;

/** Significant characters after which a new physical line continues the same statement. */
const CONT_END = asciiFlags('=+-*/%&|^!~?.<>,([\\');
/** Characters that, first on a line, mark it as continuing the previous statement. */
const CONT_START = asciiFlags('.?:)],&|=>');
/** Characters after which a `/` starts a regular-expression literal rather than a division. */
const REGEX_AFTER = asciiFlags('(,=:[!&|?{};');

/**
 * What scanBraces does with an ASCII character: B_LF ends a line; B_WS (other controls, space) is
 * skipped; B_SPECIAL may open a comment, string or regex, or is a bracket or separator;
 * B_PLAIN (letters, digits, most operators) only becomes the last significant character, so a
 * run of them is passed over at once.
 */
const B_PLAIN = 0;
const B_WS = 1;
const B_LF = 2;
const B_SPECIAL = 3;
const BRACE_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  BRACE_CLASS[c] = c === CH_LF ? B_LF : c <= 32 ? B_WS : '/#\'"`()[];,{}'.includes(String.fromCharCode(c)) ? B_SPECIAL : B_PLAIN;
}

const REGEX_KEYWORDS = new Set([
  'return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'delete', 'void', 'throw', 'yield', 'await', 'new',
]);

const PREPROCESSOR = new Set([
  'include', 'define', 'undef', 'if', 'ifdef', 'ifndef', 'elif', 'else', 'endif', 'pragma',
  'error', 'warning', 'line', 'region', 'endregion', 'import',
]);

/** Brace blocks whose header matches this do not count as a nesting level (namespaces, modules). */
const WRAPPER_HEADER = /[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:namespace|module|package)\b|[ \t]*extern[ \t]+"C"/y;

/** A line directly above a header that belongs to it: decorator, annotation, (C#/Rust) attribute, export. */
export const HEADER_PREFIX = /^(?:@[\w$]|#\[|\[[A-Za-z_][\w.]*(?:\(.*\))?\]$|export(?:\s+default)?$)/;

/** Headers of import / re-export lists: not what anyone calls a block, and alike in many files. */
export const IMPORT_HEADER = /[ \t]*(?:import\b|from[ \t]+\S+[ \t]+import\b|use[ \t]|export[ \t]+(?:type[ \t]+)?\{)/y;

/** First token of a line that closes an indented block (kept in the block). */
export const CLOSER = /(?:[)\]}]|(?:end|endif|endfor|endwhile|endfunction|endsub|endmodule|fi|done|esac)\b)/iy;

export interface Scan {
  blocks: Block[];
  /** 1 when a token starts on the line and the line does not begin inside a string or comment. */
  structural: Uint8Array;
  /** IN_STRING / IN_COMMENT when the line begins inside a multi-line string / comment, else 0. */
  inside: Uint8Array;
}

interface BraceEntry {
  header: number;
  open: number;
  headerIndent: number;
  parenBase: number;
  level: number;
  wrapper: boolean;
}

/*
 * Helpers of scanBraces, top-level functions rather than closures over its state: a variable
 * that a closure captures lives in a heap context, and the hot loop's position and line would
 * then be read and written through memory on every character.
 */

/**
 * Marks the lines begun between offsets `from` and `to` as IN_STRING / IN_COMMENT (`mark`);
 * returns the line reached, from `line`, the line at `from`.
 */
function markLines(text: string, from: number, to: number, line: number, inside: Uint8Array, mark: number): number {
  // A loop up to `to`, not indexOf: that would look past `to` for the next newline, to the end
  // of a one-line (minified) text each time.
  for (let k = from; k < to; k++) {
    if (text.charCodeAt(k) === CH_LF) {
      line++;
      inside[line] = mark;
    }
  }
  return line;
}

/** Offset of the end of the line holding `from` (its \n, or the end of the text). */
function eol(text: string, from: number): number {
  const j = text.indexOf('\n', from);
  return j < 0 ? text.length : j;
}

/** End (exclusive) of a one-line string opened by quote q at i, or -1 when not closed on this line. */
function oneLineString(text: string, i: number, q: number): number {
  const n = text.length;
  for (let k = i + 1; k < n; k++) {
    const ch = text.charCodeAt(k);
    if (ch === CH_BACKSLASH) {
      const d = text.charCodeAt(k + 1);
      if (d === CH_LF || d === 13) return -1;
      k++;
    } else if (ch === q) return k + 1;
    else if (ch === CH_LF) return -1;
  }
  return -1;
}

/** End (exclusive) of a regular-expression literal opened by the / at i, or -1 when none. */
function regexEnd(text: string, i: number): number {
  const n = text.length;
  let inClass = false;
  for (let k = i + 1; k < n; k++) {
    const ch = text.charCodeAt(k);
    if (ch === CH_BACKSLASH) {
      const d = text.charCodeAt(k + 1);
      if (d === CH_LF || d === 13) return -1;
      k++;
    } else if (ch === CH_LF) return -1;
    else if (ch === CH_LBRACKET) inClass = true;
    else if (ch === CH_RBRACKET) inClass = false;
    else if (ch === CH_SLASH && !inClass) return k + 1 === i + 2 ? -1 : k + 1;
  }
  return -1;
}

/** Whether the # at i starts a comment (not a#b, this.#x, or a C preprocessor line's first token). */
function isHashComment(text: string, i: number, lineHasTok: boolean): boolean {
  const n = text.length;
  const p = i > 0 ? text.charCodeAt(i - 1) : CH_LF;
  if (!isWs(p)) return false; // a#b, $#, this.#x
  const d = text.charCodeAt(i + 1);
  if (!isIdentChar(d) && d !== CH_LBRACE) return true; // "# x", "#!", "##", "#[", end of text
  if (lineHasTok || !isIdentChar(d)) return false;
  let k = i + 1;
  while (k < n && isIdentChar(text.charCodeAt(k))) k++;
  return PREPROCESSOR.has(text.slice(i + 1, k));
}

/** Whether the token before i (last significant character lastSig) is a keyword after which `/` starts a regex (`return /x/`). */
function afterKeyword(text: string, i: number, lastSig: number): boolean {
  if (!isIdentChar(lastSig)) return false;
  let k = i - 1;
  while (k >= 0 && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k--;
  const end = k + 1;
  while (k >= 0 && end - k <= 10 && isIdentChar(text.charCodeAt(k))) k--;
  return REGEX_KEYWORDS.has(text.slice(k + 1, end));
}

/**
 * One pass of a small lexer over the text: skips strings, comments and regex literals, tracks
 * `{ }` blocks and, for each block, the line where its header (the statement the `{` belongs to)
 * starts. Also records which lines carry code, for the indentation pass.
 */
export function scanBraces(text: string, lines: Lines, maxDepth: number, minLines: number): Scan {
  const n = text.length;
  const lineCount = lines.count;
  const structural = zeroedFlags(lineCount, 'structural');
  const inside = zeroedFlags(lineCount, 'inside');
  const blocks: Block[] = [];
  const stack: BraceEntry[] = [];
  /** For each open ( or [: the statement start to restore when it closes. */
  const parenSaved: number[] = [];

  let i = 0;
  let line = 0;
  let lineHasTok = false;
  let lineFail = 0;
  /** Line where the current statement (segment) started; -1 = not yet. */
  let segStart = -1;
  let lastSig = 0;
  let noBlockComment = false;
  let noBacktick = false;
  let noTripleS = false;
  let noTripleD = false;

  /** The position of the current statement's start to restore at a closing ) or ]. */
  const parenBase = (): number => (stack.length ? stack[stack.length - 1].parenBase : 0);

  while (i < n) {
    const c = text.charCodeAt(i);
    const cls = c < 128 ? BRACE_CLASS[c] : isWs(c) ? B_WS : B_PLAIN;
    if (cls === B_WS) {
      i++;
      continue;
    }
    if (cls === B_LF) {
      line++;
      lineHasTok = false;
      lineFail = 0;
      i++;
      continue;
    }
    // Comments.
    if (c === CH_SLASH) {
      const d = text.charCodeAt(i + 1);
      if (d === CH_SLASH) {
        i = eol(text, i);
        continue;
      }
      if (d === CH_STAR && !noBlockComment) {
        const j = text.indexOf('*/', i + 2);
        if (j >= 0) {
          const l0 = line;
          line = markLines(text, i, j + 2, line, inside, IN_COMMENT);
          i = j + 2;
          if (line !== l0) {
            lineFail = 0;
            lineHasTok = false;
          }
          continue;
        }
        noBlockComment = true;
      }
    } else if (c === CH_HASH && isHashComment(text, i, lineHasTok)) {
      i = eol(text, i);
      continue;
    }

    // A significant character.
    const first = !lineHasTok;
    if (first) {
      lineHasTok = true;
      if (!inside[line]) structural[line] = 1;
      // A new physical line starts a new statement unless it visibly continues the last one.
      if (
        parenSaved.length - parenBase() === 0 &&
        c !== CH_LBRACE &&
        !hasFlag(CONT_END, lastSig) &&
        !hasFlag(CONT_START, c)
      ) {
        segStart = line;
      }
    }
    if (segStart < 0) segStart = line;

    if (cls === B_PLAIN) {
      // The rest of a run of plain ASCII characters changes nothing but lastSig: skip it.
      let last = c;
      while (++i < n) {
        const d = text.charCodeAt(i);
        if (d >= 128 || BRACE_CLASS[d] !== B_PLAIN) break;
        last = d;
      }
      lastSig = last;
      continue;
    }

    switch (c) {
      case CH_SQUOTE:
      case CH_DQUOTE: {
        const triple = text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c;
        if (triple && !(c === CH_SQUOTE ? noTripleS : noTripleD)) {
          const j = text.indexOf(c === CH_SQUOTE ? "'''" : '"""', i + 3);
          if (j >= 0) {
            const l0 = line;
            line = markLines(text, i, j + 3, line, inside, IN_STRING);
            if (line !== l0) lineFail = 0;
            i = j + 3;
            lastSig = c;
            continue;
          }
          if (c === CH_SQUOTE) noTripleS = true;
          else noTripleD = true;
        }
        const bit = c === CH_SQUOTE ? FAIL_SQUOTE : FAIL_DQUOTE;
        if (!(lineFail & bit)) {
          const j = oneLineString(text, i, c);
          if (j >= 0) {
            i = j;
            lastSig = c;
            continue;
          }
          // Not closed on this line (an apostrophe, a Rust lifetime…): a plain character, and
          // no later quote of this kind on this line can be closed either.
          lineFail |= bit;
        }
        break;
      }
      case CH_BACKTICK: {
        if (noBacktick) break;
        let k = i + 1;
        for (; k < n; k++) {
          const ch = text.charCodeAt(k);
          if (ch === CH_BACKSLASH) k++;
          else if (ch === CH_BACKTICK) break;
        }
        if (k < n) {
          const l0 = line;
          line = markLines(text, i, k + 1, line, inside, IN_STRING);
          if (line !== l0) lineFail = 0;
          i = k + 1;
          lastSig = c;
          continue;
        }
        noBacktick = true;
        break;
      }
      case CH_SLASH: {
        if (!(lineFail & FAIL_REGEX) && (lastSig === 0 || hasFlag(REGEX_AFTER, lastSig) || afterKeyword(text, i, lastSig))) {
          const j = regexEnd(text, i);
          if (j >= 0) {
            i = j;
            lastSig = 65; // like an identifier: what follows is not a regex
            continue;
          }
          lineFail |= FAIL_REGEX;
        }
        break;
      }
      case CH_LPAREN:
      case CH_LBRACKET:
        parenSaved.push(segStart);
        segStart = -1;
        break;
      case CH_RPAREN:
      case CH_RBRACKET:
        if (parenSaved.length > parenBase()) segStart = parenSaved.pop()!;
        break;
      case CH_SEMI:
      case CH_COMMA:
        segStart = -1;
        break;
      case CH_LBRACE: {
        const parent = stack.length ? stack[stack.length - 1] : undefined;
        WRAPPER_HEADER.lastIndex = lines.starts[segStart];
        stack.push({
          header: segStart,
          open: line,
          headerIndent: Math.max(0, indentWidth(text, lines, segStart)),
          parenBase: parenSaved.length,
          level: parent ? parent.level + (parent.wrapper ? 0 : 1) : 0,
          wrapper: WRAPPER_HEADER.test(text),
        });
        segStart = -1;
        break;
      }
      case CH_RBRACE: {
        segStart = -1;
        if (!stack.length) break; // unbalanced: ignore
        const ind = first ? Math.max(0, indentWidth(text, lines, line)) : -1;
        if (first && stack[stack.length - 1].headerIndent !== ind) {
          // A closer first on its line that lines up with an outer header, not the innermost
          // one: the inner `{` were never closed (a brace we mis-lexed); drop them.
          for (let k = stack.length - 2; k >= 0 && k >= stack.length - 9; k--) {
            if (stack[k].headerIndent === ind) {
              stack.length = k + 1;
              break;
            }
          }
        }
        const e = stack.pop()!;
        parenSaved.length = e.parenBase;
        if (e.level < maxDepth && line - e.header + 1 >= minLines) {
          blocks.push({ start: e.header, end: line, level: e.level });
        }
        if (ind === 0 && e.headerIndent === 0 && stack.length && bodyIndented(text, lines, e.open, line, 0)) {
          // Back at column 0 after an indented body: we are at the top level again, whatever
          // is left open (a stray `{`, or an unindented namespace / IIFE wrapper).
          stack.length = 0;
          parenSaved.length = 0;
        }
        break;
      }
    }
    lastSig = c;
    i++;
  }
  return { blocks, structural, inside };
}

/** Whether the first non-blank line after `open` (within a few lines, before `close`) is indented. */
function bodyIndented(text: string, lines: Lines, open: number, close: number, indent: number): boolean {
  for (let l = open + 1; l < close && l <= open + 5; l++) {
    const w = indentWidth(text, lines, l);
    if (w >= 0) return w > indent;
  }
  return false;
}
