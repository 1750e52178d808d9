/**
 * The scan's SimHash section pairs as `--locate` (node/scan/locate.ts) meets them region pair by
 * region pair: listed by their two files (documents, one number), each pair's documents and lines
 * in typed arrays, so that the many regions of two files with many section pairs are judged on
 * numbers (node/regions/regionPlaces.ts's rules: samePlaceLines, withinLines) and no place object is
 * made for a region no section pair holds.
 */
import type { ReportPair } from '../../core/report/report';
import { samePlaceLines, withinLines } from '../regions/regionPlaces';

export class SectionPairsByFiles {
  private readonly byFiles = new Map<number, number[]>();
  /** By the scan's pair index: the documents of its sides, and their lines (NaN when a side has none: no rule holds). */
  private readonly docA: Int32Array;
  private readonly docB: Int32Array;
  private readonly lines: Float64Array;

  /**
   * The section pairs of `scanPairs` whose two files are documents (`docIndex`), listed by
   * `filesKey` of their documents (either order), each list in the scan's order.
   */
  constructor(scanPairs: readonly ReportPair[], docIndex: ReadonlyMap<string, number>, filesKey: (x: number, y: number) => number) {
    const n = scanPairs.length;
    this.docA = new Int32Array(n);
    this.docB = new Int32Array(n);
    this.lines = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const p = scanPairs[i];
      if (p.kind === 'file') continue;
      const x = docIndex.get(p.a.path);
      const y = docIndex.get(p.b.path);
      if (x === undefined || y === undefined) continue;
      this.docA[i] = x;
      this.docB[i] = y;
      this.lines[4 * i] = p.a.startLine ?? NaN;
      this.lines[4 * i + 1] = p.a.endLine ?? NaN;
      this.lines[4 * i + 2] = p.b.startLine ?? NaN;
      this.lines[4 * i + 3] = p.b.endLine ?? NaN;
      const k = filesKey(x, y);
      const list = this.byFiles.get(k);
      if (list) list.push(i);
      else this.byFiles.set(k, [i]);
    }
  }

  /** The section pairs of two files (by their key), or undefined. */
  of(filesKey: number): readonly number[] | undefined {
    return this.byFiles.get(filesKey);
  }

  /**
   * Whether a region (side a: document `da`, lines a0..a1; side b likewise) lies inside section pair
   * `j` on both sides (± 1 line), in either order of its sides: the regions SectionSplits.add lists.
   */
  holds(j: number, da: number, a0: number, a1: number, db: number, b0: number, b1: number): boolean {
    const L = this.lines;
    const s = 4 * j;
    return (
      (this.docA[j] === da && withinLines(L[s], L[s + 1], a0, a1) && withinLines(L[s + 2], L[s + 3], b0, b1)) ||
      (this.docA[j] === db && withinLines(L[s], L[s + 1], b0, b1) && withinLines(L[s + 2], L[s + 3], a0, a1))
    );
  }

  /**
   * The first of `list` that already says a region (its sides' files the region's, samePlaceLines
   * on both sides; the section's side a against the region's a, else against its b), as 2 × its
   * index + 1 when the region spans it (± 1 line at each end of both sides) else 2 × its index; or -1.
   */
  reporting(list: readonly number[], da: number, a0: number, a1: number, db: number, b0: number, b1: number): number {
    const L = this.lines;
    const spans = (x0: number, x1: number, y0: number, y1: number) => Math.abs(x0 - y0) <= 1 && Math.abs(x1 - y1) <= 1;
    for (const j of list) {
      const s = 4 * j;
      if (this.docA[j] === da && this.docB[j] === db && samePlaceLines(L[s], L[s + 1], a0, a1) && samePlaceLines(L[s + 2], L[s + 3], b0, b1)) {
        return 2 * j + (spans(L[s], L[s + 1], a0, a1) && spans(L[s + 2], L[s + 3], b0, b1) ? 1 : 0);
      }
      if (this.docA[j] === db && this.docB[j] === da && samePlaceLines(L[s], L[s + 1], b0, b1) && samePlaceLines(L[s + 2], L[s + 3], a0, a1)) {
        return 2 * j + (spans(L[s], L[s + 1], b0, b1) && spans(L[s + 2], L[s + 3], a0, a1) ? 1 : 0);
      }
    }
    return -1;
  }
}
