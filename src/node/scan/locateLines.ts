/**
 * The lines and places of located regions (node/scan/locate.ts): a token range's report lines (a
 * notebook's cell lines), whether a SimHash section already says a region, a side's key, and byte
 * counts for notices (a side's trimmed start, content key and SimHash: node/regions/regionSides.ts).
 */
import { CELL_LINE_STRIDE } from '../../core/containers/cellLines';
import type { Location } from '../../core/report/report';
import { lineOfOffset, type RegionDocument } from '../../core/regions/document';

/** A scanned file and its region document. */
export interface Doc {
  path: string;
  region: RegionDocument;
}

export const sideKey = (loc: Location): string => `${loc.path}\0${loc.startLine}\0${loc.endLine}`;

/**
 * Lines of a token range [start, end) of a document, as a report gives them: a notebook's as cell
 * lines (core/containers/cellLines.ts), a range cut at the end of its first cell.
 */
export function linesOf(d: RegionDocument, start: number, end: number): { startLine: number; endLine: number } {
  const startLine = lineOfOffset(d.lineStarts, d.start[start]);
  const endLine = lineOfOffset(d.lineStarts, d.start[end - 1]);
  const cells = d.reportLines;
  if (!cells) return { startLine, endLine };
  const first = cells[startLine - 1];
  const cell = Math.floor(first / CELL_LINE_STRIDE);
  let last = startLine;
  while (last < endLine && Math.floor(cells[last] / CELL_LINE_STRIDE) === cell) last++;
  return { startLine: first, endLine: cells[last - 1] };
}

/** Lines two inclusive ranges share. */
const shared = (s1: number, e1: number, s2: number, e2: number): number => Math.max(0, Math.min(e1, e2) - Math.max(s1, s2) + 1);

/**
 * A section `x` already says region `y`: it holds at least 80 % of the region's lines, and the
 * region at least half of the section's (a region much tighter than its section is kept).
 */
export function samePlace(x: { startLine: number; endLine: number }, y: { startLine: number; endLine: number }): boolean {
  const s = shared(x.startLine, x.endLine, y.startLine, y.endLine);
  return s >= 0.8 * (y.endLine - y.startLine + 1) && 2 * s >= x.endLine - x.startLine + 1;
}

/** A byte count for a notice: MB from 1 MB up, else KB or bytes (a limit lowered for tests). */
export function size(bytes: number): string {
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${bytes} bytes`;
}

