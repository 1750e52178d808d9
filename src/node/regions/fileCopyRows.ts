/**
 * core/regions/fileCopies.ts of region pairs as rows (regionRows.ts; the scan's `--locate`
 * report): the same copies, with a region pair made an object only for the two documents whose
 * regions could hold a share that matters — their lengths' sums, counted on the rows, hold at
 * least the smaller of the cover and the search cover of both (the union holds at most the sum:
 * the others are neither a copy nor searched again).
 */
import { copiesOfLists, FILE_COVER, SEARCH_COVER, type FileCopy, type FileCopyOptions } from '../../core/regions/fileCopies';
import type { RegionDocument } from '../../core/regions/document';
import type { RegionPair } from '../../core/regions/regions';
import { pairKeyBase } from '../../core/pairKeys';
import { pairOfRow, ROW_B, ROW_DOC, ROW_END, ROW_INTS, ROW_START, type RegionRows } from './regionRows';

/** fileCopies(docs, pairsOfRows(rows), options), the same copies. */
export function fileCopiesOfRows(docs: readonly RegionDocument[], rows: RegionRows, options: FileCopyOptions = {}): FileCopy[] {
  const least = Math.min(options.cover ?? FILE_COVER, options.searchCover ?? SEARCH_COVER);
  const x = rows.ints;
  const base = pairKeyBase(docs.length);
  // Per two documents (x < y; a bucket's rows come together: the last two's slot kept): the sums
  // of their regions' lengths on each.
  const slotOf = new Map<number, number>();
  const slot = new Int32Array(rows.count).fill(-1);
  const sumX: number[] = [];
  const sumY: number[] = [];
  let lastKey = -1;
  let last = -1;
  for (let i = 0; i < rows.count; i++) {
    const q = ROW_INTS * i;
    const da = x[q + ROW_DOC];
    const db = x[q + ROW_B + ROW_DOC];
    if (da === db) continue;
    const lo = Math.min(da, db);
    const k = lo * base + Math.max(da, db);
    if (k !== lastKey) {
      lastKey = k;
      if (options.skipPair?.(lo, Math.max(da, db))) last = -1;
      else {
        const s = slotOf.get(k);
        if (s !== undefined) last = s;
        else {
          slotOf.set(k, (last = sumX.length));
          sumX.push(0);
          sumY.push(0);
        }
      }
    }
    if (last < 0) continue;
    slot[i] = last;
    const a = Math.max(0, x[q + ROW_END] - x[q + ROW_START]);
    const b = Math.max(0, x[q + ROW_B + ROW_END] - x[q + ROW_B + ROW_START]);
    sumX[last] += da === lo ? a : b;
    sumY[last] += da === lo ? b : a;
  }
  // The region pairs of the documents that could: objects, side a in the lower document.
  const wanted = new Uint8Array(sumX.length);
  for (const [k, s] of slotOf) {
    const lo = Math.floor(k / base);
    const hi = k - lo * base;
    const lx = docs[lo].length;
    const ly = docs[hi].length;
    // (sumsUnder: an empty document is judged on its union, none)
    wanted[s] = !(lx > 0 && ly > 0) || !(sumX[s] / lx < least || sumY[s] / ly < least) ? 1 : 0;
  }
  const byPair = new Map<number, RegionPair[]>();
  for (let i = 0; i < rows.count; i++) {
    const s = slot[i];
    if (s < 0 || !wanted[s]) continue;
    const q = ROW_INTS * i;
    const da = x[q + ROW_DOC];
    const db = x[q + ROW_B + ROW_DOC];
    const lo = Math.min(da, db);
    const k = lo * base + Math.max(da, db);
    const p = pairOfRow(rows, i, da !== lo);
    const list = byPair.get(k);
    if (list) list.push(p);
    else byPair.set(k, [p]);
  }
  return copiesOfLists(docs, byPair, options);
}
