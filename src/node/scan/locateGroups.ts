/**
 * The section groups of `--locate` (node/scan/locate.ts): of each group of copies the region finder
 * made (core/regions/groups.ts), the places the report's located pairs link, as section groups (a
 * place's lines without its leading closers; the largest distance of the pairs linking them). In
 * one pass over each group's pairs and places: numbers in typed arrays (one set for all groups,
 * as long as the largest), no map per group.
 */
import type { Location, ReportGroup, ReportPair } from '../../core/report/report';
import type { PlaceRange, RegionGroup } from '../../core/regions/groups';
import type { RegionPair } from '../../core/regions/regions';
import { linesOf, trimmedStart } from '../regions/regionSides';
import type { Doc } from './locateLines';

/**
 * The section groups of the region groups `groups`: the places of each linked by the pairs kept
 * (`kept[i]`: region pair i's report pair, or null when it is not a section pair of the report),
 * in the order the groups come, each group's sets in the order their first linking pair comes,
 * a set's members in the order of their places; sets of one place are left out. A place that is
 * the very range of a side of a kept pair has that side's lines (the report pair's: the same
 * trimmed start and lines), others are found here.
 */
export function locatedSectionGroups(groups: readonly RegionGroup[], found: readonly RegionPair[], kept: ReadonlyArray<ReportPair | null>, docs: readonly Doc[]): ReportGroup[] {
  const out: ReportGroup[] = [];
  // One set of arrays for every group, as long as the largest (a group's first n entries).
  let most = 0;
  for (const g of groups) most = Math.max(most, g.places.length);
  const parent = new Int32Array(most);
  const maxDistance = new Int32Array(most);
  const size = new Int32Array(most);
  const rootOf = new Int32Array(most);
  // A place's lines taken from a kept pair's side of its very range (known = 1), else made below.
  const known = new Uint8Array(most);
  const startLine = new Int32Array(most);
  const endLine = new Int32Array(most);
  const learn = (x: number, place: PlaceRange, side: PlaceRange, lines: Location | undefined): void => {
    if (known[x] || place.start !== side.start || place.end !== side.end || lines?.startLine === undefined || lines.endLine === undefined) return;
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
  /** The first of `places` holding a side, or -1 (the places are by document and start: its document's from the first). */
  const placeOf = (places: readonly PlaceRange[], s: { doc: number; start: number; end: number }): number => {
    const n = places.length;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (places[mid].doc < s.doc) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < n && places[i].doc === s.doc; i++) if (places[i].start <= s.start && s.end <= places[i].end) return i;
    return -1;
  };
  const linkedPlace: number[] = [];
  const linkedDistance: number[] = [];
  const roots: number[] = [];
  for (const g of groups) {
    const places = g.places;
    const n = places.length;
    // The links (a place of each, the pair's distance), then the sets they make.
    let links = 0;
    for (const i of g.pairs) {
      const pair = kept[i];
      if (!pair) continue;
      const x = placeOf(places, found[i].a);
      const y = placeOf(places, found[i].b);
      if (x < 0 || y < 0 || x === y) continue;
      if (links === 0) {
        for (let p = 0; p < n; p++) parent[p] = p;
        known.fill(0, 0, n);
      }
      learn(x, places[x], found[i].a, pair.a);
      learn(y, places[y], found[i].b, pair.b);
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
        const p = places[i];
        const d = docs[p.doc];
        const lines = known[i] ? { startLine: startLine[i], endLine: endLine[i] } : linesOf(d.region, trimmedStart(d.region, p.start, p.end), p.end);
        locations.push({ path: d.path, startLine: lines.startLine, endLine: lines.endLine });
        members.push(`${d.path}:${lines.startLine}-${lines.endLine}`);
      }
      out.push({ kind: 'section', members, maxDistance: maxDistance[root], locations, located: true });
    }
  }
  return out;
}
