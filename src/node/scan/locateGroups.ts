/**
 * The section groups of `--locate` (node/scan/locate.ts): of each group of copies the region finder
 * made (core/regions/groups.ts), the places the report's located pairs link, as section groups (a
 * place's lines without its leading closers; the largest distance of the pairs linking them). In
 * one pass over each group's pairs and places: numbers in typed arrays, no map per group.
 */
import type { Location, ReportGroup, ReportPair } from '../../core/report/report';
import type { RegionGroup } from '../../core/regions/groups';
import type { RegionPair } from '../../core/regions/regions';
import { linesOf, trimmedStart } from '../regions/regionSides';
import type { Doc } from './locateLines';

/**
 * The section groups of the region groups `groups`: the places of each linked by the pairs kept
 * (`kept[i]`: region pair i's report pair, or null when it is not a section pair of the report),
 * in the order the groups come, each group's sets in the order their first linking pair comes,
 * a set's members in the order of their places; sets of one place are left out.
 */
export function locatedSectionGroups(groups: readonly RegionGroup[], found: readonly RegionPair[], kept: ReadonlyArray<ReportPair | null>, docs: readonly Doc[]): ReportGroup[] {
  const out: ReportGroup[] = [];
  for (const g of groups) {
    const places = g.places;
    const n = places.length;
    const parent = new Int32Array(n);
    for (let i = 0; i < n; i++) parent[i] = i;
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
    /** The first place holding a side, or -1 (the places are by document and start: its document's from the first). */
    const placeOf = (s: { doc: number; start: number; end: number }): number => {
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
    // The links (a place of each, the pair's distance), then the sets they make.
    const linkedPlace: number[] = [];
    const linkedDistance: number[] = [];
    for (const i of g.pairs) {
      const pair = kept[i];
      if (!pair) continue;
      const x = placeOf(found[i].a);
      const y = placeOf(found[i].b);
      if (x < 0 || y < 0 || x === y) continue;
      linkedPlace.push(x);
      linkedDistance.push(pair.distance);
      const rx = find(x);
      const ry = find(y);
      if (rx !== ry) parent[Math.max(rx, ry)] = Math.min(rx, ry);
    }
    if (linkedPlace.length === 0) continue;
    // Each set's largest distance, the sets in the order of their first link.
    const maxDistance = new Int32Array(n).fill(-1);
    const roots: number[] = [];
    for (let j = 0; j < linkedPlace.length; j++) {
      const r = find(linkedPlace[j]);
      if (maxDistance[r] < 0) {
        roots.push(r);
        maxDistance[r] = 0;
      }
      if (linkedDistance[j] > maxDistance[r]) maxDistance[r] = linkedDistance[j];
    }
    // Each set's members, in the order of their places.
    const size = new Int32Array(n);
    const rootOf = new Int32Array(n);
    for (let i = 0; i < n; i++) size[(rootOf[i] = find(i))]++;
    for (const root of roots) {
      if (size[root] < 2) continue;
      const locations: Location[] = [];
      const members: string[] = [];
      for (let i = root; i < n; i++) {
        if (rootOf[i] !== root) continue;
        const p = places[i];
        const d = docs[p.doc];
        const lines = linesOf(d.region, trimmedStart(d.region, p.start, p.end), p.end);
        locations.push({ path: d.path, startLine: lines.startLine, endLine: lines.endLine });
        members.push(`${d.path}:${lines.startLine}-${lines.endLine}`);
      }
      out.push({ kind: 'section', members, maxDistance: maxDistance[root], locations, located: true });
    }
  }
  return out;
}
