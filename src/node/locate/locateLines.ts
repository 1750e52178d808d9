/**
 * The lines and places of located regions (node/locate/locate.ts): a token range's report lines (a
 * notebook's cell lines), whether a SimHash section already says a region and whether regions split
 * one (node/regions/regionPlaces.ts), a side's key, the content keys of the located sides (made
 * when asked for), and byte counts for notices (a side's trimmed start, content key and SimHash:
 * node/regions/regionSides.ts).
 */
import type { Location } from '../../core/report/report';
import type { RegionDocument } from '../../core/regions/document';
import { contentKey } from '../regions/regionSides';
import { sideKey } from '../regions/regionPlaces';

/** A scanned file and its region document. */
export interface Doc {
  path: string;
  region: RegionDocument;
}

/**
 * The content keys of located sides (ScanResult.locatedSides: a baseline's key of a side) by
 * {@link sideKey}, the first side added with those lines giving it. Only a baseline, SARIF and
 * Code Climate read them: the sides are kept as places (a document's token range, or the key a
 * worker made), and the keys, their SHA-256 and the index by side key are made at the first `get`.
 */
export class LocatedSides {
  private readonly locs: Location[];
  private readonly docs: RegionDocument[];
  /** start, end per side (a worker's key: -1, index into `made`). */
  private ranges: Int32Array;
  private count = 0;
  private readonly made: string[] = [];
  private index: Map<string, number> | null = null;
  private readonly keys: Array<string | undefined> = [];

  /**
   * `capacity`: the sides expected (the report's, twice its region pairs): its lists made that
   * long at once, not grown side by side (tens of thousands on a tree with many copies, in the
   * CLI's serial end: the copies of growing lists were ~600 page faults there).
   */
  constructor(capacity = 0) {
    this.locs = new Array<Location>(capacity);
    this.docs = new Array<RegionDocument>(capacity);
    this.ranges = new Int32Array(2 * Math.max(capacity, 8));
  }

  /** A side at `loc`: tokens [start, end) of `d`, or the content key a worker made of them. */
  add(loc: Location, d: RegionDocument, start: number, end: number, key?: string): void {
    this.index = null;
    const i = this.count++;
    if (i < this.locs.length) {
      this.locs[i] = loc;
      this.docs[i] = d;
    } else {
      this.locs.push(loc);
      this.docs.push(d);
    }
    if (2 * i + 2 > this.ranges.length) {
      const more = new Int32Array(2 * this.ranges.length);
      more.set(this.ranges);
      this.ranges = more;
    }
    this.ranges[2 * i] = key === undefined ? start : -1;
    this.ranges[2 * i + 1] = key === undefined ? end : this.made.push(key) - 1;
  }

  get(at: string): string | undefined {
    if (this.index === null) {
      this.index = new Map();
      for (let i = 0; i < this.count; i++) {
        const k = sideKey(this.locs[i]);
        if (!this.index.has(k)) this.index.set(k, i);
      }
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

/** A byte count for a notice: MB from 1 MB up, else KB or bytes (a limit lowered for tests). */
export function size(bytes: number): string {
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${bytes} bytes`;
}

