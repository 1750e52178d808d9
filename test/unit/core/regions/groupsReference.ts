// The reference of the region finder's grouping (test only): src/core/regions/groups.ts'
// groupRegions does in typed arrays (sides packed and sorted natively, groups and places indexed
// by their roots) what groupRegionsReference below does with objects and maps; groups.test.ts
// holds groupRegions to it on random pairs (it was the product's code before).
import { samePlace, UnionFind, type PlaceRange, type RegionGroup } from '../../../../src/core/regions/groups';

/** Groups the pairs (each two sides: a, b). Deterministic: groups ordered by their first place. */
export function groupRegionsReference(pairs: { a: PlaceRange; b: PlaceRange }[]): RegionGroup[] {
  const sides: PlaceRange[] = [];
  for (const p of pairs) sides.push(p.a, p.b);
  const links = new UnionFind(sides.length); // pairs and places: the groups
  const places = new UnionFind(sides.length); // places only
  for (let p = 0; p < pairs.length; p++) links.union(2 * p, 2 * p + 1);
  const n = sides.length;
  const doc = new Int32Array(n);
  const start = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    doc[i] = sides[i].doc;
    start[i] = sides[i].start;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => doc[x] - doc[y] || start[x] - start[y] || x - y);
  // Sweep each document's sides by start; compare with the sides still open (kept in order, in place).
  const active: number[] = [];
  for (const i of order) {
    const s = sides[i];
    let open = 0;
    for (let k = 0; k < active.length; k++) {
      const j = active[k];
      if (sides[j].doc === s.doc && sides[j].end > s.start) active[open++] = j;
    }
    active.length = open;
    for (const j of active) {
      if (samePlace(sides[j], s)) {
        links.union(i, j);
        places.union(i, j);
      }
    }
    active.push(i);
  }
  const groups = new Map<number, { places: Map<number, PlaceRange>; pairs: number[] }>();
  for (const i of order) {
    const g = links.find(i);
    let group = groups.get(g);
    if (!group) groups.set(g, (group = { places: new Map(), pairs: [] }));
    const p = places.find(i);
    const place = group.places.get(p);
    if (place) {
      place.start = Math.min(place.start, sides[i].start);
      place.end = Math.max(place.end, sides[i].end);
    } else group.places.set(p, { ...sides[i] });
    if (i % 2 === 0) group.pairs.push(i >> 1);
  }
  const out: RegionGroup[] = [];
  for (const g of groups.values()) {
    const ps = [...g.places.values()].sort((x, y) => x.doc - y.doc || x.start - y.start);
    out.push({ places: ps, pairs: g.pairs.sort((x, y) => x - y) });
  }
  return out.sort((x, y) => x.places[0].doc - y.places[0].doc || x.places[0].start - y.places[0].start);
}
