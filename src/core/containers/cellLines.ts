/**
 * Lines inside a notebook's cells, as one number: a section of a notebook lies in one cell, and
 * its lines travel through the fingerprints, the cache, the engine and the report as
 * `cell × CELL_LINE_STRIDE + line in the cell` (both 1-based), so that nothing between the
 * fingerprint and the reader needs to know about cells. The readers (the CLI's formats, the
 * extension) turn them back into a cell and lines with {@link cellRange}. Imports nothing.
 */

/** Lines per cell that a cell line can name (2^20); a u32 holds cells up to {@link MAX_CELL}. */
export const CELL_LINE_STRIDE = 1 << 20;
/** The last cell whose lines can be named (cells after it get no sections of their own). */
export const MAX_CELL = 4095;

/** The cell line of line `line` (1-based) of cell `cell` (1-based), or −1 when out of range. */
export function cellLine(cell: number, line: number): number {
  if (cell < 1 || cell > MAX_CELL || line < 1 || line >= CELL_LINE_STRIDE) return -1;
  return cell * CELL_LINE_STRIDE + line;
}

/** Whether a path names a Jupyter notebook (`.ipynb`, any letter case). */
export function isNotebookPath(path: string): boolean {
  return /\.ipynb$/i.test(path);
}

/** A location as the reader shows it: the cell (1-based) when it is in a notebook's cell. */
export interface CellRange {
  cell?: number;
  startLine?: number;
  endLine?: number;
}

/**
 * A location's lines as its reader shows them: in a notebook, a range of cell lines becomes
 * `{ cell, startLine, endLine }` with the lines inside that cell; anything else is returned as is
 * (only its `startLine` and `endLine`).
 */
export function cellRange(loc: { path: string; startLine?: number; endLine?: number }): CellRange {
  const { startLine, endLine } = loc;
  if (startLine === undefined || startLine < CELL_LINE_STRIDE || !isNotebookPath(loc.path)) return { startLine, endLine };
  const cell = Math.floor(startLine / CELL_LINE_STRIDE);
  const end = endLine === undefined ? startLine : endLine;
  // A range never spans cells; were it to, it is cut at the end of its first cell.
  const endInCell = Math.floor(end / CELL_LINE_STRIDE) === cell ? end % CELL_LINE_STRIDE : CELL_LINE_STRIDE - 1;
  return { cell, startLine: startLine % CELL_LINE_STRIDE, endLine: endInCell };
}

/** "cell 3, lines 2–10" / "cell 3, line 2" / "lines 2–10" / "line 2" (en dash), or '' for a whole file. */
export function describeLines(r: CellRange): string {
  if (r.startLine === undefined) return '';
  const lines = r.endLine === undefined || r.endLine === r.startLine ? `line ${r.startLine}` : `lines ${r.startLine}–${r.endLine}`;
  return r.cell === undefined ? lines : `cell ${r.cell}, ${lines}`;
}

/**
 * A location as readers are given it: a notebook section's `{ path, startLine, endLine }` in cell
 * lines becomes `{ path, startLine, endLine, cell }` with the lines inside the cell (the JSON
 * report's shape); any other location is returned as it is.
 */
export function withCell<T extends { path: string; startLine?: number; endLine?: number }>(loc: T): T | (T & { cell: number }) {
  const r = cellRange(loc);
  if (r.cell === undefined) return loc;
  return { ...loc, startLine: r.startLine, endLine: r.endLine, cell: r.cell };
}

/** A section's name in a report's group members: `path:10-40`, in a notebook `path:cell3:2-10`. */
export function memberLabel(loc: { path: string; startLine?: number; endLine?: number }): string {
  const r = cellRange(loc);
  if (r.startLine === undefined) return loc.path;
  return r.cell === undefined ? `${loc.path}:${r.startLine}-${r.endLine}` : `${loc.path}:cell${r.cell}:${r.startLine}-${r.endLine}`;
}
