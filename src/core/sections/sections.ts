/**
 * Splitting a text into sections that are fingerprinted on their own: functions, classes and
 * blocks of source code (any language, no parser), and heading sections or paragraph runs of
 * prose. Pure: no fs, no vscode, no node: modules. Every function here is linear in the size of
 * the text and uses no recursion, so minified files and 100k-line files are safe.
 *
 * Lines are 1-based and inclusive; offsets are 0-based, half-open UTF-16 code unit offsets, a
 * section runs from the start of its first line to the end of its last line (newline excluded).
 */
import type { CodeKernel, TextRange } from '../types';

export interface CodeSectionOptions {
  /** How many levels of nesting to report: 1 = top-level blocks only, 2 = also methods in classes. */
  maxDepth?: number;
  /** Blocks spanning fewer lines are not reported (default 3). */
  minLines?: number;
  /** A kernel with `codeSections` (native/sections.c) finds the same sections faster. */
  kernel?: CodeKernel;
}

export interface ProseSectionOptions {
  /** Target size of a paragraph run, in lines (default 30). */
  maxLines?: number;
  /** Target size of a paragraph run, in characters (default 80 × maxLines). */
  maxChars?: number;
}

// ---------------------------------------------------------------------------------------------
// Lines

interface Lines {
  /** Offset of the first character of each line (entries 0 … count − 1 are valid). */
  starts: Int32Array;
  /** Offset just past the last character of each line, line terminator (\n or \r\n) excluded. */
  ends: Int32Array;
  count: number;
}

/*
 * Reused scratch, grown as needed: the line table and the per-line arrays of one call. Only the
 * entries of the current text are meaningful (nothing here is read past `count`), and nothing
 * is kept between calls: the results are plain objects built at the end.
 */
let lineStarts = new Int32Array(1024);
let lineEnds = new Int32Array(1024);
let structuralScratch = new Uint8Array(1024);
let insideScratch = new Uint8Array(1024);
let diffScratch = new Int32Array(1024);
let coveredScratch = [new Int32Array(1024), new Int32Array(1024)];

function buildLines(text: string): Lines {
  let count = 0;
  let pos = 0;
  for (;;) {
    if (count === lineStarts.length) growLines();
    const nl = text.indexOf('\n', pos);
    lineStarts[count] = pos;
    if (nl < 0) {
      lineEnds[count++] = text.length;
      break;
    }
    lineEnds[count++] = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    pos = nl + 1;
  }
  return { starts: lineStarts, ends: lineEnds, count };
}

function growLines(): void {
  const starts = new Int32Array(lineStarts.length * 2);
  const ends = new Int32Array(lineStarts.length * 2);
  starts.set(lineStarts);
  ends.set(lineEnds);
  lineStarts = starts;
  lineEnds = ends;
}

/** A zeroed per-line flag array of `count` entries (the reused scratch when `which` is given). */
function zeroedFlags(count: number, which: 'structural' | 'inside'): Uint8Array {
  if (structuralScratch.length < count) {
    structuralScratch = new Uint8Array(Math.max(count, structuralScratch.length * 2));
    insideScratch = new Uint8Array(structuralScratch.length);
  }
  const a = which === 'structural' ? structuralScratch : insideScratch;
  a.fill(0, 0, count);
  return a;
}

function isWs(ch: number): boolean {
  return (
    ch <= 32 ||
    ch === 0xa0 ||
    ch === 0x3000 ||
    ch === 0xfeff ||
    ch === 0x1680 ||
    (ch >= 0x2000 && ch <= 0x200b) ||
    ch === 0x2028 ||
    ch === 0x2029 ||
    ch === 0x202f ||
    ch === 0x205f
  );
}

/** Offset of the first non-white-space character of line l, or -1 when the line is blank. */
function firstNonWs(text: string, lines: Lines, l: number): number {
  const end = lines.ends[l];
  for (let k = lines.starts[l]; k < end; k++) if (!isWs(text.charCodeAt(k))) return k;
  return -1;
}

/** Visual indentation of line l (tab stops of 4), or -1 when the line is blank. */
function indentWidth(text: string, lines: Lines, l: number): number {
  const end = lines.ends[l];
  let w = 0;
  for (let k = lines.starts[l]; k < end; k++) {
    const ch = text.charCodeAt(k);
    if (ch === 32) w++;
    else if (ch === 9) w += 4 - (w % 4);
    else if (isWs(ch)) w++;
    else return w;
  }
  return -1;
}

interface Block {
  /** 0-based first and last line. */
  start: number;
  end: number;
  /** Nesting level: 0 = top level. */
  level?: number;
}

const byStart = (a: Block, b: Block): number => a.start - b.start || b.end - a.end;

/** Sorts by start, longer first; drops duplicates; converts to ranges. */
function toRanges(blocks: Block[], lines: Lines): TextRange[] {
  blocks.sort(byStart);
  const out: TextRange[] = [];
  let prev: Block | undefined;
  for (const b of blocks) {
    if (prev && prev.start === b.start && prev.end === b.end) continue;
    prev = b;
    out.push({
      startLine: b.start + 1,
      endLine: b.end + 1,
      startOffset: lines.starts[b.start],
      endOffset: lines.ends[b.end],
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Code

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

const IN_STRING = 1;
const IN_COMMENT = 2;

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
const HEADER_PREFIX = /^(?:@[\w$]|#\[|\[[A-Za-z_][\w.]*(?:\(.*\))?\]$|export(?:\s+default)?$)/;

/** Headers of import / re-export lists: not what anyone calls a block, and alike in many files. */
const IMPORT_HEADER = /[ \t]*(?:import\b|from[ \t]+\S+[ \t]+import\b|use[ \t]|export[ \t]+(?:type[ \t]+)?\{)/y;

/** First token of a line that closes an indented block (kept in the block). */
const CLOSER = /(?:[)\]}]|(?:end|endif|endfor|endwhile|endfunction|endsub|endmodule|fi|done|esac)\b)/iy;

interface Scan {
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
function scanBraces(text: string, lines: Lines, maxDepth: number, minLines: number): Scan {
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

/**
 * Blocks by indentation: a line followed by more-indented lines of code heads a block that runs to the
 * last line before the next line indented no deeper than it. A closer at the header's indentation
 * (`}`, `)`, `end`, `fi`…) is kept in the block. Lines that carry no code (blank, comment-only,
 * inside a multi-line string) do not end blocks.
 */
function scanIndent(text: string, lines: Lines, scan: Scan, maxDepth: number, minLines: number): Block[] {
  const { structural, inside } = scan;
  const blocks: Block[] = [];
  const stack = indentStack(lines.count);
  let depth = 0;
  /**
   * Comment-only lines since the last line of code (`comments` of them): kept by a block only
   * when indented deeper. Only the last 64 are ever looked at, so a ring of 64 holds them.
   */
  let comments = 0;
  const lineCount = lines.count;
  let lastContent = -1;
  for (let l = 0; l < lineCount; l++) {
    const d = indentWidth(text, lines, l);
    if (d < 0) continue;
    if (!structural[l]) {
      if (inside[l] === IN_STRING) {
        lastContent = l;
        comments = 0;
      } else {
        commentLine[comments & 63] = l;
        commentIndent[comments & 63] = d;
        comments++;
      }
      continue;
    }
    while (depth > 0 && stack.indent[depth - 1] >= d) {
      depth--;
      const line = stack.line[depth];
      const indent = stack.indent[depth];
      let end = blockEnd(lastContent, comments, indent);
      if (indent === d && end > line) {
        CLOSER.lastIndex = firstNonWs(text, lines, l);
        if (CLOSER.test(text)) end = l;
      }
      if (stack.body[depth]) emitBlock(blocks, line, end, depth, maxDepth, minLines);
    }
    if (depth > 0) stack.body[depth - 1] = 1;
    stack.line[depth] = l;
    stack.indent[depth] = d;
    stack.body[depth] = 0;
    depth++;
    lastContent = l;
    comments = 0;
  }
  while (depth > 0) {
    depth--;
    if (stack.body[depth]) emitBlock(blocks, stack.line[depth], blockEnd(lastContent, comments, stack.indent[depth]), depth, maxDepth, minLines);
  }
  return blocks;
}

/**
 * Last line of an indented block whose header is indented `indent`: the last line of code, or a
 * later comment-only line indented deeper than the header (the last of the ring that is).
 * (Top-level helpers of scanIndent rather than closures: see the note above scanBraces's helpers.)
 */
function blockEnd(lastContent: number, comments: number, indent: number): number {
  let end = lastContent;
  for (let k = comments - 1; k >= 0 && k >= comments - 64; k--) {
    if (commentIndent[k & 63] > indent) {
      end = Math.max(end, commentLine[k & 63]);
      break;
    }
  }
  return end;
}

function emitBlock(blocks: Block[], header: number, end: number, level: number, maxDepth: number, minLines: number): void {
  if (level < maxDepth && end > header && end - header + 1 >= minLines) {
    blocks.push({ start: header, end, level });
  }
}

/** Ring of the last 64 comment-only lines of scanIndent: line and indentation. */
const commentLine = new Int32Array(64);
const commentIndent = new Int32Array(64);

/** scanIndent's stack of open headers (line, indentation, whether a body line followed), reused. */
let indentStackScratch = { line: new Int32Array(256), indent: new Int32Array(256), body: new Uint8Array(256) };
function indentStack(lineCount: number): typeof indentStackScratch {
  if (indentStackScratch.line.length < lineCount) {
    const n = Math.max(lineCount, indentStackScratch.line.length * 2);
    indentStackScratch = { line: new Int32Array(n), indent: new Int32Array(n), body: new Uint8Array(n) };
  }
  return indentStackScratch;
}

/** covered[l] = how many of lines 0..l-1 lie in at least one block. */
function coveredPrefix(blocks: Block[], lineCount: number, which: 0 | 1): Int32Array {
  if (diffScratch.length < lineCount + 1) {
    diffScratch = new Int32Array(Math.max(lineCount + 1, diffScratch.length * 2));
    coveredScratch = [new Int32Array(diffScratch.length), new Int32Array(diffScratch.length)];
  }
  const diff = diffScratch;
  diff.fill(0, 0, lineCount + 1);
  for (const b of blocks) {
    diff[b.start]++;
    diff[b.end + 1]--;
  }
  const covered = coveredScratch[which];
  covered[0] = 0;
  let run = 0;
  for (let l = 0; l < lineCount; l++) {
    run += diff[l];
    covered[l + 1] = covered[l] + (run > 0 ? 1 : 0);
  }
  return covered;
}

/** Moves a block's start up over decorator / annotation / attribute / `export` lines. */
function extendHeader(text: string, lines: Lines, start: number): number {
  let s = start;
  for (let steps = 0; s > 0 && steps < 16; steps++) {
    const k = firstNonWs(text, lines, s - 1);
    if (k < 0) break;
    const t = text.slice(k, lines.ends[s - 1]).trimEnd();
    if (!HEADER_PREFIX.test(t) || t.endsWith('{')) break;
    s--;
  }
  return s;
}

/**
 * Functions, classes, methods and other blocks of source code in any language, found from the
 * brace structure (`{ }` outside strings, comments and regex literals) or, when braces do not
 * describe the file (Python, YAML, CoffeeScript…), from its indentation. Each section runs from
 * its header line (plus decorator / annotation lines directly above) through its closing line.
 * Blocks nested up to `maxDepth` levels (default 2: top level and one level inside) spanning at
 * least `minLines` lines (default 3) are reported, sorted by start, longer first.
 */
export function codeSections(text: string, options: CodeSectionOptions = {}): TextRange[] {
  if (!text) return [];
  const maxDepth = Math.floor(options.maxDepth ?? 2);
  const minLines = Math.max(2, Math.floor(options.minLines ?? 3));
  if (!(maxDepth >= 1)) return [];
  const kernel = options.kernel;
  if (kernel) return kernelCodeSections(kernel, text, maxDepth, minLines);
  const lines = buildLines(text);
  const scan = scanBraces(text, lines, maxDepth, minLines);
  const byIndent = scanIndent(text, lines, scan, maxDepth, minLines);
  // Braces win when they explain a fair part of the structure indentation shows; a Python file
  // whose only braces are a few dict literals goes by indentation. Top-level blocks of the other
  // kind that overlap nothing chosen (defs beside a big dict, say) are added, with their children.
  const lineCount = lines.count;
  const byBrace = scan.blocks.sort(byStart);
  byIndent.sort(byStart);
  const braceCov = coveredPrefix(byBrace, lineCount, 0);
  const indentCov = coveredPrefix(byIndent, lineCount, 1);
  const braceFirst = braceCov[lineCount] * 2 >= indentCov[lineCount] && byBrace.length > 0;
  const [primary, secondary, cov] = braceFirst ? [byBrace, byIndent, braceCov] : [byIndent, byBrace, indentCov];
  const blocks = primary.slice();
  let acceptedEnd = -1;
  for (const b of secondary) {
    if (b.level === 0) {
      if (cov[b.end + 1] - cov[b.start] > 0) continue;
      acceptedEnd = b.end;
      blocks.push(b);
    } else if (b.end <= acceptedEnd) blocks.push(b);
  }
  const kept: Block[] = [];
  for (const b of blocks) {
    IMPORT_HEADER.lastIndex = lines.starts[b.start];
    if (IMPORT_HEADER.test(text)) continue;
    b.start = extendHeader(text, lines, b.start);
    kept.push(b);
  }
  return toRanges(kept, lines);
}

/** The kernel's out scratch: four words per section (grown on demand). */
let kernelSections = new Int32Array(1024);

/** codeSections through a kernel's copy of it: the same ranges. */
function kernelCodeSections(kernel: CodeKernel, text: string, maxDepth: number, minLines: number): TextRange[] {
  // int32 arguments: no level or line span reaches 2^31 − 1, so larger limits (and a NaN
  // minLines, which no block passes) mean the same there.
  const depth = Math.min(maxDepth, 0x7fffffff);
  const span = minLines <= 0x7fffffff ? minLines : 0x7fffffff;
  let count = kernel.codeSections(text, depth, span, kernelSections);
  if (count < 0) {
    kernelSections = new Int32Array(-count * 2);
    count = kernel.codeSections(text, depth, span, kernelSections);
  }
  const out: TextRange[] = new Array<TextRange>(count);
  const s = kernelSections;
  for (let r = 0; r < count; r++) {
    out[r] = { startLine: s[4 * r], endLine: s[4 * r + 1], startOffset: s[4 * r + 2], endOffset: s[4 * r + 3] };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Prose

const ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(?:={2,}|-{2,})[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const NOT_SETEXT_TEXT = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)](?:[ \t]|$)|>)/;
const FRONT_MATTER_OPEN = /^---[ \t]*$/;
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

interface Heading {
  line: number;
  /** Last line of the heading (the underline of a setext heading). */
  end: number;
  level: number;
}

/**
 * Sections of Markdown or plain text: one per heading (ATX `#` and setext `===` / `---`; outside
 * fenced code), running to just before the next heading of the same or a higher level; and
 * paragraph runs — consecutive paragraphs merged up to about `maxLines` lines / `maxChars`
 * characters — for text before the first heading, text without headings, and heading bodies too
 * long to compare as one piece. A paragraph longer than the limits (e.g. Chinese text with one
 * paragraph per line and no blank lines) is cut between lines.
 */
export function proseSections(text: string, options: ProseSectionOptions = {}): TextRange[] {
  if (!text) return [];
  const maxLines = Math.max(1, Math.floor(options.maxLines ?? 30));
  const maxChars = Math.max(1, Math.floor(options.maxChars ?? maxLines * 80));
  const lines = buildLines(text);
  const lineCount = lines.count;
  const lineText = (l: number): string => text.slice(lines.starts[l], lines.ends[l]);
  const blank = new Uint8Array(lineCount);
  for (let l = 0; l < lineCount; l++) if (firstNonWs(text, lines, l) < 0) blank[l] = 1;

  // YAML front matter is neither a heading nor text.
  let first = 0;
  if (lineCount > 1 && FRONT_MATTER_OPEN.test(lineText(0))) {
    for (let l = 1; l < lineCount; l++) {
      if (FRONT_MATTER_CLOSE.test(lineText(l))) {
        first = l + 1;
        break;
      }
    }
  }

  const headings: Heading[] = [];
  let fenceChar = '';
  let fenceLen = 0;
  let prevPara = false;
  for (let l = first; l < lineCount; l++) {
    if (blank[l]) {
      prevPara = false;
      continue;
    }
    const t = lineText(l);
    if (fenceLen) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(t);
      if (m && m[1][0] === fenceChar && m[1].length >= fenceLen) fenceLen = 0;
      continue;
    }
    const f = FENCE_OPEN.exec(t);
    if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
      fenceChar = f[1][0];
      fenceLen = f[1].length;
      prevPara = false;
      continue;
    }
    const atx = ATX.exec(t);
    if (atx) {
      headings.push({ line: l, end: l, level: atx[1].length });
      prevPara = false;
      continue;
    }
    if (prevPara && SETEXT.test(t)) {
      headings.push({ line: l - 1, end: l, level: t.trimStart()[0] === '=' ? 1 : 2 });
      prevPara = false;
      continue;
    }
    prevPara = !NOT_SETEXT_TEXT.test(t);
  }

  // prevNonBlank[l]: the last non-blank line at or before l, or -1.
  const prevNonBlank = new Int32Array(lineCount);
  for (let l = 0, last = -1; l < lineCount; l++) {
    if (!blank[l]) last = l;
    prevNonBlank[l] = last;
  }
  const lineChars = (l: number): number => lines.ends[l] - lines.starts[l];

  const out: Block[] = [];

  // One section per heading.
  const open: Heading[] = [];
  const close = (h: Heading, before: number): void => {
    const end = prevNonBlank[before];
    if (end > h.end) out.push({ start: h.line, end });
  };
  for (const h of headings) {
    while (open.length && open[open.length - 1].level >= h.level) close(open.pop()!, h.line - 1);
    open.push(h);
  }
  while (open.length) close(open.pop()!, lineCount - 1);

  // Paragraph runs.
  const runs = (a: number, b: number): void => {
    const found: { s: number; e: number; chars: number }[] = [];
    let cur: { s: number; e: number; chars: number } | null = null;
    const addUnit = (s: number, e: number, chars: number): void => {
      if (cur && (e - cur.s + 1 > maxLines || cur.chars + chars > maxChars)) {
        found.push(cur);
        cur = null;
      }
      if (cur) {
        cur.e = e;
        cur.chars += chars;
      } else cur = { s, e, chars };
    };
    let l = a;
    while (l <= b) {
      if (blank[l]) {
        l++;
        continue;
      }
      // A paragraph: consecutive non-blank lines, cut between lines when it is too long.
      let s = l;
      let chars = 0;
      for (; l <= b && !blank[l]; l++) {
        const c = lineChars(l);
        if (l > s && (l - s + 1 > maxLines || chars + c > maxChars)) {
          addUnit(s, l - 1, chars);
          s = l;
          chars = 0;
        }
        chars += c;
      }
      addUnit(s, l - 1, chars);
    }
    if (cur) found.push(cur);
    // A small tail joins the run before it rather than standing alone.
    if (found.length >= 2) {
      const last = found[found.length - 1];
      if ((last.e - last.s + 1) * 3 < maxLines && last.chars * 3 < maxChars) {
        found[found.length - 2].e = last.e;
        found.pop();
      }
    }
    for (const r of found) out.push({ start: r.s, end: r.e });
  };
  const region = (from: number, to: number, always: boolean): void => {
    let a = from;
    while (a <= to && blank[a]) a++;
    if (a > to) return;
    const b = prevNonBlank[to];
    if (!always) {
      let chars = 0;
      for (let l = a; l <= b && chars <= maxChars; l++) chars += lineChars(l);
      if (b - a + 1 <= maxLines && chars <= maxChars) return; // its heading section covers it
    }
    runs(a, b);
  };
  // Text before the first heading (or the whole text) always gets runs; heading bodies only
  // when too long to compare as one piece.
  region(first, headings.length ? headings[0].line - 1 : lineCount - 1, true);
  for (let k = 0; k < headings.length; k++) {
    region(headings[k].end + 1, k + 1 < headings.length ? headings[k + 1].line - 1 : lineCount - 1, false);
  }
  return toRanges(out, lines);
}
