/**
 * The marks of one document, as pure data: which lines are near duplicates (from the report's
 * items), how close their nearest twin is, how edits move them until the next report, how they
 * paint the lines (one colour a line: the closest mark covering it) and what share of the lines
 * they cover. No `vscode` here: the unit tests run it in plain Node.
 */
import type { ViewItem } from '../../node/engine/engineProtocol';

/** How close a mark's nearest twin is: identical (distance 0), close (1–3), or further. */
export type Closeness = 'identical' | 'close' | 'distant';
export const CLOSENESS: readonly Closeness[] = ['identical', 'close', 'distant'];
/** Largest Hamming distance still painted as "close". */
export const CLOSE_DISTANCE = 3;

export function closenessOf(distance: number): Closeness {
  return distance <= 0 ? 'identical' : distance <= CLOSE_DISTANCE ? 'close' : 'distant';
}

/** One near-duplicate file or section of a document. */
export interface Mark {
  kind: 'file' | 'section';
  /** 0-based inclusive lines in the document as it is now (a file mark: every line, see {@link spanOf}). */
  start: number;
  end: number;
  /** Distance to the closest twin. */
  distance: number;
  /** The report's item: its twins (the closest first). */
  item: ViewItem;
}

/** A change of the text in line terms: lines `start`..`end` (0-based, inclusive) replaced by text spanning `newLines` + 1 lines. */
export interface LineChange {
  start: number;
  end: number;
  /** Line breaks in the inserted text. */
  newLines: number;
  /** The change starts at the beginning of line `start` (text typed there pushes that line's text down). */
  atLineStart?: boolean;
}

/** The marks of a file's items: sections on their lines, the whole file (if it has a twin) on all. */
export function marksOf(items: readonly ViewItem[]): Mark[] {
  const marks: Mark[] = [];
  for (const item of items) {
    const distance = item.twins.length > 0 ? item.twins[0].distance : 64;
    if (item.kind === 'file' || item.loc.startLine === undefined) marks.push({ kind: 'file', start: 0, end: Number.MAX_SAFE_INTEGER, distance, item });
    else marks.push({ kind: 'section', start: item.loc.startLine - 1, end: (item.loc.endLine ?? item.loc.startLine) - 1, distance, item });
  }
  return marks;
}

/** The lines a mark covers in a document of `lineCount` lines (null: none left). */
export function spanOf(mark: Mark, lineCount: number): { start: number; end: number } | null {
  const start = Math.max(0, mark.start);
  const end = Math.min(lineCount - 1, mark.end);
  return start <= end ? { start, end } : null;
}

/**
 * Moves marks through one edit: lines after the change shift by the lines it added or removed; a
 * mark whose lines were all removed disappears; a mark the change cuts into is cut to what is
 * left. File marks cover every line and do not move. Returns a new list (marks are not modified).
 */
export function shiftMarks(marks: readonly Mark[], change: LineChange): Mark[] {
  const { start, end, newLines, atLineStart = false } = change;
  const delta = newLines - (end - start);
  const after = start + newLines;
  const out: Mark[] = [];
  for (const m of marks) {
    if (m.kind === 'file' || m.end < start) {
      out.push(m);
      continue;
    }
    if (m.start > end) {
      out.push(delta === 0 ? m : { ...m, start: m.start + delta, end: m.end + delta });
      continue;
    }
    // The change touches the mark's lines. The mark keeps its first line if the change starts after
    // the beginning of it; otherwise its text now starts after the inserted text.
    const keepsStart = m.start < start || (m.start === start && !atLineStart);
    const a = keepsStart ? m.start : after;
    const b = m.end > end ? m.end + delta : m.end === end ? after : Math.min(m.end, after);
    // All its lines removed (its end line too, unless the change ends on it).
    if (a > b || (!keepsStart && m.end <= end && newLines === 0 && (m.end < end || m.start > start))) continue;
    out.push({ ...m, start: a, end: b });
  }
  return out;
}

/** A run of lines painted in one colour. */
export interface PaintedRun {
  start: number;
  end: number;
  closeness: Closeness;
}

/**
 * The runs of lines to paint: each line covered by marks takes the closeness of the closest of
 * them (a copied function inside a file that has a more distant twin shows as the copy it is).
 * Sorted, not overlapping; neighbouring runs of the same colour are joined.
 */
export function paint(marks: readonly Mark[], lineCount: number): PaintedRun[] {
  const events: Array<{ line: number; open: boolean; distance: number }> = [];
  for (const m of marks) {
    const span = spanOf(m, lineCount);
    if (!span) continue;
    const d = Math.max(0, Math.min(64, m.distance));
    events.push({ line: span.start, open: true, distance: d }, { line: span.end + 1, open: false, distance: d });
  }
  events.sort((x, y) => x.line - y.line);
  const active = new Array<number>(65).fill(0);
  let open = 0;
  const runs: PaintedRun[] = [];
  let i = 0;
  while (i < events.length) {
    const line = events[i].line;
    while (i < events.length && events[i].line === line) {
      const e = events[i++];
      active[e.distance] += e.open ? 1 : -1;
      open += e.open ? 1 : -1;
    }
    const next = i < events.length ? events[i].line : line;
    if (open === 0 || next <= line) continue;
    const closeness = closenessOf(active.findIndex((n) => n > 0));
    const last = runs[runs.length - 1];
    if (last && last.end === line - 1 && last.closeness === closeness) last.end = next - 1;
    else runs.push({ start: line, end: next - 1, closeness });
  }
  return runs;
}

/** Lines covered by at least one mark. */
export function markedLines(marks: readonly Mark[], lineCount: number): number {
  let n = 0;
  for (const r of paint(marks, lineCount)) n += r.end - r.start + 1;
  return n;
}

/** The marks covering a line, innermost (fewest lines) first; file marks last. */
export function marksAt(marks: readonly Mark[], line: number): Mark[] {
  return marks
    .filter((m) => m.start <= line && line <= m.end)
    .sort((a, b) => a.end - a.start - (b.end - b.start) || a.distance - b.distance);
}

/** A share as a whole percentage, never rounded to 0% or 100% when it is neither. */
export function sharePercent(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0%';
  if (part >= whole) return '100%';
  return `${Math.min(99, Math.max(1, Math.round((100 * part) / whole)))}%`;
}
