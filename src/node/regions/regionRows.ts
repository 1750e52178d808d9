/**
 * Region pairs as rows of numbers (issue 12, `--locate`'s single-threaded tail): what a kernel's
 * bucket search found (core/regions/regions.ts bucketPairsOf's values) or a list of RegionPair
 * objects, read by the scan's report (src/node/locate/locatedReport.ts, locateGroups.ts; here
 * fileCopyRows.ts) without an object per pair and per side; their groups flat, a place by its
 * document. Pure.
 */
import type { RegionBucketsFound } from '../../core/types';
import { lineOfOffset, type RegionDocument } from '../../core/regions/document';
import { groupRegions, type RegionGroup } from '../../core/regions/groups';
import type { CloneKind, PlanFrequent, RegionPair, RegionPlan, RegionResult, RegionSide, RegionStats } from '../../core/regions/regions';
import { SIDE_A_FIRST, SIDE_A_LAST, SIDE_B_FIRST, SIDE_B_LAST, SIDE_INTS } from '../../core/regions/sideFacts';

/** A row's ints: side a's document, start, end (tokens [start, end)), first and last line; then side b's (ROW_B + the same). */
export const ROW_DOC = 0;
export const ROW_START = 1;
export const ROW_END = 2;
export const ROW_START_LINE = 3;
export const ROW_END_LINE = 4;
/** Where side b's five begin. */
export const ROW_B = 5;
/** The clone kind (CLONE_KINDS' index) and the renames. */
export const ROW_KIND = 10;
export const ROW_RENAMES = 11;
export const ROW_INTS = 12;
/** A row's floats: similarity, rawSimilarity, consistency. */
export const ROW_FLOATS = 3;

/** The clone kinds by their number (the kernels' order). */
export const CLONE_KINDS: readonly CloneKind[] = ['exact', 'renamed', 'edited'];

/** Region pairs, ROW_INTS ints and ROW_FLOATS floats each, in the order found. */
export interface RegionRows {
  count: number;
  ints: Int32Array;
  floats: Float64Array;
}

/**
 * What the report reads of a search: its pairs as rows; their groups flat (per group its number of
 * places and of pairs, per place its document, start and end, then its pairs), as groupRegions
 * makes them; the plan's counts and frequent hashes, the sides a kernel's plan job made.
 */
export interface RegionRowsResult {
  rows: RegionRows;
  groups: Int32Array;
  stats: RegionStats;
  frequent?: PlanFrequent;
  sideFacts?: Int32Array;
}

/** A side's lines (regions.ts sideOf). */
const firstLine = (d: RegionDocument, start: number): number => lineOfOffset(d.lineStarts, d.start[start]);
const lastLine = (d: RegionDocument, end: number): number => lineOfOffset(d.lineStarts, d.start[end - 1]);

/** The rows of a kernel's bucket search of buckets `cuts` (bucketPairsOf's pairs, in its order). */
export function rowsOfFound(docs: readonly RegionDocument[], cuts: Uint32Array, r: RegionBucketsFound): RegionRows {
  const count = r.ints.length / 7;
  const ints = new Int32Array(ROW_INTS * count);
  const made = r.sides; // the sides' lines, where the kernel's plan job made them
  for (let i = 0; i < count; i++) {
    const t = 7 * i;
    const q = ROW_INTS * i;
    const bucket = r.ints[t];
    const docA = cuts[3 * bucket];
    const docB = cuts[3 * bucket + 1];
    const aStart = r.ints[t + 1];
    const aEnd = r.ints[t + 2];
    const bStart = r.ints[t + 3];
    const bEnd = r.ints[t + 4];
    ints[q + ROW_DOC] = docA;
    ints[q + ROW_START] = aStart;
    ints[q + ROW_END] = aEnd;
    ints[q + ROW_B + ROW_DOC] = docB;
    ints[q + ROW_B + ROW_START] = bStart;
    ints[q + ROW_B + ROW_END] = bEnd;
    const m = SIDE_INTS * i;
    if (made !== undefined && made[m] >= 0) {
      ints[q + ROW_START_LINE] = made[m + SIDE_A_FIRST];
      ints[q + ROW_END_LINE] = made[m + SIDE_A_LAST];
      ints[q + ROW_B + ROW_START_LINE] = made[m + SIDE_B_FIRST];
      ints[q + ROW_B + ROW_END_LINE] = made[m + SIDE_B_LAST];
    } else {
      ints[q + ROW_START_LINE] = firstLine(docs[docA], aStart);
      ints[q + ROW_END_LINE] = lastLine(docs[docA], aEnd);
      ints[q + ROW_B + ROW_START_LINE] = firstLine(docs[docB], bStart);
      ints[q + ROW_B + ROW_END_LINE] = lastLine(docs[docB], bEnd);
    }
    ints[q + ROW_KIND] = r.ints[t + 5];
    ints[q + ROW_RENAMES] = r.ints[t + 6];
  }
  return { count, ints, floats: r.floats.slice(0, ROW_FLOATS * count) };
}

/** The rows of region pairs. */
export function rowsOfPairs(pairs: readonly RegionPair[]): RegionRows {
  const count = pairs.length;
  const ints = new Int32Array(ROW_INTS * count);
  const floats = new Float64Array(ROW_FLOATS * count);
  const put = (q: number, s: RegionSide) => {
    ints[q + ROW_DOC] = s.doc;
    ints[q + ROW_START] = s.start;
    ints[q + ROW_END] = s.end;
    ints[q + ROW_START_LINE] = s.startLine;
    ints[q + ROW_END_LINE] = s.endLine;
  };
  for (let i = 0; i < count; i++) {
    const p = pairs[i];
    const q = ROW_INTS * i;
    put(q, p.a);
    put(q + ROW_B, p.b);
    ints[q + ROW_KIND] = CLONE_KINDS.indexOf(p.clone);
    ints[q + ROW_RENAMES] = p.renames;
    floats[ROW_FLOATS * i] = p.similarity;
    floats[ROW_FLOATS * i + 1] = p.rawSimilarity;
    floats[ROW_FLOATS * i + 2] = p.consistency;
  }
  return { count, ints, floats };
}

/** Side a (`b` false) or b of row i. */
export function sideOfRow(rows: RegionRows, i: number, b: boolean): RegionSide {
  const q = ROW_INTS * i + (b ? ROW_B : 0);
  const x = rows.ints;
  return { doc: x[q + ROW_DOC], start: x[q + ROW_START], end: x[q + ROW_END], startLine: x[q + ROW_START_LINE], endLine: x[q + ROW_END_LINE] };
}

/** Row i as a region pair; `swapped`: its sides the other way round. */
export function pairOfRow(rows: RegionRows, i: number, swapped = false): RegionPair {
  const q = ROW_INTS * i;
  const f = ROW_FLOATS * i;
  return {
    a: sideOfRow(rows, i, swapped),
    b: sideOfRow(rows, i, !swapped),
    clone: CLONE_KINDS[rows.ints[q + ROW_KIND]],
    similarity: rows.floats[f],
    rawSimilarity: rows.floats[f + 1],
    consistency: rows.floats[f + 2],
    renames: rows.ints[q + ROW_RENAMES],
  };
}

/** The region pairs of rows. */
export function pairsOfRows(rows: RegionRows): RegionPair[] {
  const out: RegionPair[] = new Array(rows.count);
  for (let i = 0; i < rows.count; i++) out[i] = pairOfRow(rows, i);
  return out;
}

/** A kernel's flat groups (groups.ts groupsOfFlat: a place by the side that first made it, 2p + 0 for pair p's a, + 1 for its b) with each place's document instead. */
export function groupRowsOfFlat(flat: Int32Array, rows: RegionRows): Int32Array {
  const out = flat.slice();
  for (let at = 0; at < out.length; ) {
    const nPlaces = out[at];
    const nPairs = out[at + 1];
    at += 2;
    for (let q = 0; q < nPlaces; q++, at += 3) {
      const side = out[at];
      out[at] = rows.ints[ROW_INTS * (side >> 1) + (side % 2 === 0 ? 0 : ROW_B) + ROW_DOC];
    }
    at += nPairs;
  }
  return out;
}

/** Groups flat (RegionRowsResult.groups) of RegionGroup objects. */
export function groupRowsOf(groups: readonly RegionGroup[]): Int32Array {
  let size = 0;
  for (const g of groups) size += 2 + 3 * g.places.length + g.pairs.length;
  const out = new Int32Array(size);
  let at = 0;
  for (const g of groups) {
    out[at++] = g.places.length;
    out[at++] = g.pairs.length;
    for (const p of g.places) {
      out[at++] = p.doc;
      out[at++] = p.start;
      out[at++] = p.end;
    }
    for (const i of g.pairs) out[at++] = i;
  }
  return out;
}

/** The rows and flat groups of a search's result. */
export function rowsResultOf(result: RegionResult): RegionRowsResult {
  return {
    rows: rowsOfPairs(result.pairs),
    groups: groupRowsOf(result.groups),
    stats: result.stats,
    ...(result.frequent ? { frequent: result.frequent } : {}),
    ...(result.sideFacts ? { sideFacts: result.sideFacts } : {}),
  };
}

/** regions.ts searchedResult as rows: a plan's result from a kernel's bucket search of its buckets (its chains and alignments counted into the plan's). */
export function searchedRows(docs: readonly RegionDocument[], plan: RegionPlan, found: RegionBucketsFound): RegionRowsResult {
  const stats = plan.stats;
  stats.chains += found.chains;
  stats.aligned += found.aligned;
  const rows = rowsOfFound(docs, plan.bucketCuts, found);
  stats.pairs = rows.count;
  const groups = found.groups ? groupRowsOfFlat(found.groups, rows) : groupRowsOf(groupRegions(sidesOfRows(rows)));
  return { rows, groups, stats, ...(plan.frequent ? { frequent: plan.frequent } : {}), ...(found.sides ? { sideFacts: found.sides } : {}) };
}

/** Each row's two sides' places (what groupRegions reads). */
function sidesOfRows(rows: RegionRows): Array<{ a: { doc: number; start: number; end: number }; b: { doc: number; start: number; end: number } }> {
  const x = rows.ints;
  const out = new Array(rows.count);
  for (let i = 0; i < rows.count; i++) {
    const q = ROW_INTS * i;
    out[i] = { a: { doc: x[q + ROW_DOC], start: x[q + ROW_START], end: x[q + ROW_END] }, b: { doc: x[q + ROW_B + ROW_DOC], start: x[q + ROW_B + ROW_START], end: x[q + ROW_B + ROW_END] } };
  }
  return out;
}
