/**
 * The line table shared by the section finders: line starts and ends of a text in reused typed
 * arrays (grown, never reallocated per call), per-line flags, indentation, and the blocks (first
 * and last line, nesting level) that become sections. Lines are 0-based here; ranges 1-based.
 */
import type { TextRange } from '../types';

export interface Lines {
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

export function buildLines(text: string): Lines {
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
export function zeroedFlags(count: number, which: 'structural' | 'inside'): Uint8Array {
  if (structuralScratch.length < count) {
    structuralScratch = new Uint8Array(Math.max(count, structuralScratch.length * 2));
    insideScratch = new Uint8Array(structuralScratch.length);
  }
  const a = which === 'structural' ? structuralScratch : insideScratch;
  a.fill(0, 0, count);
  return a;
}

export function isWs(ch: number): boolean {
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
export function firstNonWs(text: string, lines: Lines, l: number): number {
  const end = lines.ends[l];
  for (let k = lines.starts[l]; k < end; k++) if (!isWs(text.charCodeAt(k))) return k;
  return -1;
}

/** Visual indentation of line l (tab stops of 4), or -1 when the line is blank. */
export function indentWidth(text: string, lines: Lines, l: number): number {
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

export interface Block {
  /** 0-based first and last line. */
  start: number;
  end: number;
  /** Nesting level: 0 = top level. */
  level?: number;
}

export const byStart = (a: Block, b: Block): number => a.start - b.start || b.end - a.end;

/** Sorts by start, longer first; drops duplicates; converts to ranges. */
export function toRanges(blocks: Block[], lines: Lines): TextRange[] {
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
