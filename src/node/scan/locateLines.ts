/**
 * The lines and places of located regions (node/scan/locate.ts): a token range's report lines (a
 * notebook's cell lines), whether a SimHash section already says a region and whether regions split
 * one (node/regions/regionPlaces.ts), a side's key, and byte counts for notices (a side's trimmed start, content key and SimHash: node/regions/regionSides.ts).
 */
import type { Location } from '../../core/report/report';
import type { RegionDocument } from '../../core/regions/document';
import { linesOf } from '../regions/regionSides';
import { samePlace, splitsSection } from '../regions/regionPlaces';

/** A scanned file and its region document. */
export interface Doc {
  path: string;
  region: RegionDocument;
}

export const sideKey = (loc: Location): string => `${loc.path}\0${loc.startLine}\0${loc.endLine}`;

export { linesOf, samePlace, splitsSection };

/** A byte count for a notice: MB from 1 MB up, else KB or bytes (a limit lowered for tests). */
export function size(bytes: number): string {
  if (bytes >= 1048576) return `${(bytes / 1048576).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${bytes} bytes`;
}

