/**
 * Sections of source code, any language, no parser: functions, classes and blocks, from brace
 * blocks (codeScan.ts) and indentation blocks, each with its header lines (decorators, comments,
 * attributes) and at most `maxDepth` levels deep. The native kernel (native/sections.c) finds the
 * same sections faster; test/unit/node/workers/nativeSections.test.ts holds them to be equal.
 * Linear in the text, no recursion: minified and 100k-line files are safe. Lines are 1-based and
 * inclusive; offsets 0-based, half-open UTF-16 code units, newline excluded.
 */
import type { CodeKernel, TextRange } from '../types';
import { buildLines, byStart, firstNonWs, indentWidth, toRanges, type Block, type Lines } from './lines';
import { CLOSER, HEADER_PREFIX, IMPORT_HEADER, IN_STRING, scanBraces, type Scan } from './codeScan';

export interface CodeSectionOptions {
  /** How many levels of nesting to report: 1 = top-level blocks only, 2 = also methods in classes. */
  maxDepth?: number;
  /** Blocks spanning fewer lines are not reported (default 3). */
  minLines?: number;
  /** A kernel with `codeSections` (native/sections.c) finds the same sections faster. */
  kernel?: CodeKernel;
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

/** coveredPrefix's scratch, grown as needed; only the current text's entries are meaningful. */
let diffScratch = new Int32Array(1024);
let coveredScratch = [new Int32Array(1024), new Int32Array(1024)];

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
