/**
 * The section groups of `--locate` (node/locate/locate.ts): of each group of copies the region finder
 * made (core/regions/groups.ts), the places the report's located pairs link, as section groups (a
 * place's lines without its leading closers; the largest distance of the pairs linking them). In
 * one pass over each group's pairs and places: numbers in typed arrays (one set for all groups,
 * as long as the largest), no map per group.
 */
import type { Location, ReportGroup, ReportPair } from '../../core/report/report';
import { ROW_B, ROW_DOC, ROW_END, ROW_INTS, ROW_START, type RegionRows } from '../regions/regionRows';
import { linesOf, trimmedStart } from '../regions/regionSides';
import type { Doc } from './locateLines';

/**
 * The section groups of the region groups `groups` (flat: regionRows.ts RegionRowsResult.groups)
 * of the region pairs `found`: the places of each linked by the pairs kept (`kept[i]`: region pair
 * i's report pair, or null when it is not a section pair of the report), in the order the groups
 * come, each group's sets in the order their first linking pair comes, a set's members in the
 * order of their places; sets of one place are left out. A place that is the very range of a side
 * of a kept pair has that side's lines (the report pair's: the same trimmed start and lines),
 * others are found here.
 */
export function locatedSectionGroups(groups: Int32Array, found: RegionRows, kept: ReadonlyArray<ReportPair | null>, docs: readonly Doc[]): ReportGroup[] {
  const out: ReportGroup[] = [];
  // One set of arrays for every group, as long as the largest (a group's first n entries).
  let most = 0;
  for (let at = 0; at < groups.length; at += 2 + 3 * groups[at] + groups[at + 1]) most = Math.max(most, groups[at]);
  const parent = new Int32Array(most);
  const maxDistance = new Int32Array(most);
  const size = new Int32Array(most);
  const rootOf = new Int32Array(most);
  // A place's lines taken from a kept pair's side of its very range (known = 1), else made below.
  const known = new Uint8Array(most);
  const startLine = new Int32Array(most);
  const endLine = new Int32Array(most);
  const ints = found.ints;
  /** Place x (at `p` in groups) from side `q` (its row's ints) of a kept pair whose report side is `lines`. */
  const learn = (x: number, p: number, q: number, lines: Location | undefined): void => {
    if (known[x] || groups[p + 1] !== ints[q + ROW_START] || groups[p + 2] !== ints[q + ROW_END] || lines?.startLine === undefined || lines.endLine === undefined) return;
    known[x] = 1;
    startLine[x] = lines.startLine;
    endLine[x] = lines.endLine;
  };
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r];
    while (parent[x] !== r) {
      const next = parent[x];
      parent[x] = r;
      x = next;
    }
    return r;
  };
  /** The first of the `n` places from `from` (doc, start, end each) holding side `q` (its row's ints), or -1 (the places are by document and start: its document's from the first). */
  const placeOf = (from: number, n: number, q: number): number => {
    const doc = ints[q + ROW_DOC];
    const start = ints[q + ROW_START];
    const end = ints[q + ROW_END];
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (groups[from + 3 * mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < n && groups[from + 3 * i] === doc; i++) if (groups[from + 3 * i + 1] <= start && end <= groups[from + 3 * i + 2]) return i;
    return -1;
  };
  const linkedPlace: number[] = [];
  const linkedDistance: number[] = [];
  const roots: number[] = [];
  for (let at = 0; at < groups.length; ) {
    const n = groups[at];
    const nPairs = groups[at + 1];
    const from = at + 2; // its places: doc, start, end each
    const pairsFrom = from + 3 * n;
    at = pairsFrom + nPairs;
    // The links (a place of each, the pair's distance), then the sets they make.
    let links = 0;
    for (let j = pairsFrom; j < at; j++) {
      const i = groups[j];
      const pair = kept[i];
      if (!pair) continue;
      const qa = ROW_INTS * i;
      const qb = qa + ROW_B;
      const x = placeOf(from, n, qa);
      const y = placeOf(from, n, qb);
      if (x < 0 || y < 0 || x === y) continue;
      if (links === 0) {
        for (let p = 0; p < n; p++) parent[p] = p;
        known.fill(0, 0, n);
      }
      learn(x, from + 3 * x, qa, pair.a);
      learn(y, from + 3 * y, qb, pair.b);
      linkedPlace[links] = x;
      linkedDistance[links++] = pair.distance;
      const rx = find(x);
      const ry = find(y);
      if (rx !== ry) parent[Math.max(rx, ry)] = Math.min(rx, ry);
    }
    if (links === 0) continue;
    // Each set's largest distance, the sets in the order of their first link.
    maxDistance.fill(-1, 0, n);
    roots.length = 0;
    for (let j = 0; j < links; j++) {
      const r = find(linkedPlace[j]);
      if (maxDistance[r] < 0) {
        roots.push(r);
        maxDistance[r] = 0;
      }
      if (linkedDistance[j] > maxDistance[r]) maxDistance[r] = linkedDistance[j];
    }
    // Each set's members, in the order of their places.
    size.fill(0, 0, n);
    for (let i = 0; i < n; i++) size[(rootOf[i] = find(i))]++;
    for (const root of roots) {
      if (size[root] < 2) continue;
      const locations: Location[] = [];
      const members: string[] = [];
      for (let i = root; i < n; i++) {
        if (rootOf[i] !== root) continue;
        const p = from + 3 * i;
        const d = docs[groups[p]];
        const lines = known[i] ? { startLine: startLine[i], endLine: endLine[i] } : linesOf(d.region, trimmedStart(d.region, groups[p + 1], groups[p + 2]), groups[p + 2]);
        locations.push({ path: d.path, startLine: lines.startLine, endLine: lines.endLine });
        members.push(`${d.path}:${lines.startLine}-${lines.endLine}`);
      }
      out.push({ kind: 'section', members, maxDistance: maxDistance[root], locations, located: true });
    }
  }
  return out;
}
