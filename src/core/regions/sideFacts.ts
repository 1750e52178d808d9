/**
 * The sides of the regions a kernel's plan job makes with its search (native/regionsides.c,
 * kernelPlan.ts `sides`): the layout of its Int32Array, SIDE_INTS per region, and what the job is
 * asked to make them with. The report reads them instead of computing them (src/node/scan/
 * locatedReport.ts); a row of −1 is a region whose sides were not made (searched later).
 */

/** Side a's first token past its leading closers (src/node/regions/regionSides.ts trimmedStart); side b's. */
export const SIDE_A_START = 0;
export const SIDE_B_START = 1;
/** The lines of side a's token range (RegionSide.startLine, endLine); side b's. */
export const SIDE_A_FIRST = 2;
export const SIDE_A_LAST = 3;
export const SIDE_B_FIRST = 4;
export const SIDE_B_LAST = 5;
/** The report's lines of side a from its trimmed start (regionSides.ts linesOf: a notebook's cell lines); side b's. */
export const SIDE_A_START_LINE = 6;
export const SIDE_A_END_LINE = 7;
export const SIDE_B_START_LINE = 8;
export const SIDE_B_END_LINE = 9;
/** The Hamming distance of the two trimmed sides' SimHashes (64 when one has none). */
export const SIDE_DISTANCE = 10;
/** Ints per region (native/regionsides.h SIDE_INTS). */
export const SIDE_INTS = 11;

/** What the sides are made with: the SimHash's options and the tokens a side does not begin with. */
export interface SideRequest {
  normalizeIdentifiers: boolean;
  /** tf weighting (else each shingle once). */
  tf: boolean;
  /** hi, lo of each closer token. */
  closers: Uint32Array;
}

/** The kernel's side options: normalizeIdentifiers, tf, then the closers' hi, lo. */
export function sideOptionsArray(r: SideRequest): Uint32Array {
  const o = new Uint32Array(2 + r.closers.length);
  o[0] = r.normalizeIdentifiers ? 1 : 0;
  o[1] = r.tf ? 1 : 0;
  o.set(r.closers, 2);
  return o;
}
