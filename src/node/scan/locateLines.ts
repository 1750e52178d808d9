/**
 * The lines and places of located regions (node/scan/locate.ts): a token range's report lines (a
 * notebook's cell lines), whether a SimHash section already says a region, a side's key, the
 * content keys of the located sides (made when asked for), and byte counts for notices (a side's
 * trimmed start, content key and SimHash: node/regions/regionSides.ts).
 */
import type { Location } from '../../core/report/report';
import type { RegionDocument } from '../../core/regions/document';
import { contentKey, linesOf } from '../regions/regionSides';

/** A scanned file and its region document. */
export interface Doc {
  path: string;
  region: RegionDocument;
}

export const sideKey = (loc: Location): string => `${loc.path}\0${loc.startLine}\0${loc.endLine}`;

/**
 * The content keys of located sides (ScanResult.locatedSides: a baseline's key of a side) by
 * {@link sideKey}, the first side added with those lines giving it. Only a baseline, SARIF and
 * Code Climate read them: the sides are kept as places (a document's token range, or the key a
 * worker made), and the keys, their SHA-256 and the index by side key are made at the first `get`.
 */
export class LocatedSides {
  private readonly locs: Location[] = [];
  private readonly docs: RegionDocument[] = [];
  /** start, end per side (a worker's key: -1, index into `made`). */
  private readonly ranges: number[] = [];
  private readonly made: string[] = [];
  private index: Map<string, number> | null = null;
  private readonly keys: Array<string | undefined> = [];

  /** A side at `loc`: tokens [start, end) of `d`, or the content key a worker made of them. */
  add(loc: Location, d: RegionDocument, start: number, end: number, key?: string): void {
    this.index = null;
    this.locs.push(loc);
    this.docs.push(d);
    if (key === undefined) this.ranges.push(start, end);
    else this.ranges.push(-1, this.made.push(key) - 1);
  }

  get(at: string): string | undefined {
    if (this.index === null) {
      this.index = new Map();
      this.locs.forEach((loc, i) => {
        const k = sideKey(loc);
        if (!this.index!.has(k)) this.index!.set(k, i);
      });
    }
    const i = this.index.get(at);
    if (i === undefined) return undefined;
    let key = this.keys[i];
    if (key === undefined) {
      const start = this.ranges[2 * i];
      const end = this.ranges[2 * i + 1];
      key = this.keys[i] = start < 0 ? this.made[end] : contentKey(this.docs[i], start, end);
    }
    return key;
  }
}

export { linesOf };

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

type Lines = { startLine: number; endLine: number };

/** Lines of the union of inclusive ranges. */
function unionLines(ranges: Lines[]): number {
  const sorted = ranges.slice().sort((x, y) => x.startLine - y.startLine);
  let n = 0;
  let end = -Infinity;
  for (const r of sorted) {
    const from = Math.max(r.startLine, end + 1);
    if (r.endLine >= from) n += r.endLine - from + 1;
    end = Math.max(end, r.endLine);
  }
  return n;
}

/**
 * Located regions split a SimHash section pair `x` (side a, side b; the regions in the same
 * order): two or more of them lie inside it on both sides (± 1 line) and together hold at least
 * half of its lines on each side. Separate copies that happen to lie next to each other on both
 * sides (a paragraph pasted before one the two files share) make one look-alike section pair;
 * the regions say where each copy is, the section pair only that the sections are alike.
 */
export function splitsSection(x: { a: Lines; b: Lines }, regions: ReadonlyArray<{ a: Lines; b: Lines }>): boolean {
  const within = (s: Lines, r: Lines) => r.startLine >= s.startLine - 1 && r.endLine <= s.endLine + 1;
  const inside = regions.filter((r) => within(x.a, r.a) && within(x.b, r.b));
  if (inside.length < 2) return false;
  const holds = (s: Lines, side: Lines[]) => 2 * unionLines(side.map((r) => ({ startLine: Math.max(r.startLine, s.startLine), endLine: Math.min(r.endLine, s.endLine) }))) >= s.endLine - s.startLine + 1;
  return holds(x.a, inside.map((r) => r.a)) && holds(x.b, inside.map((r) => r.b));
}

/** A byte count for a notice: MB from 1 MB up, else KB or bytes (a limit lowered for tests). */
export function size(bytes: number): string {
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${bytes} bytes`;
}

