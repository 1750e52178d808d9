/**
 * Groups of copies: the sides of matched region pairs that overlap (by at least half of the
 * shorter) on one document are one place, and places linked by pairs are one group — a block
 * pasted three times is one group of four places, one finding, however many pairs link them.
 */

/** A side of a region pair: a token range [start, end) of one document. */
export interface PlaceRange {
  doc: number;
  start: number;
  end: number;
}

export interface RegionGroup {
  /** The places of the group (each the union of the sides that make it), by document and start. */
  places: PlaceRange[];
  /** Indices of the pairs that link them. */
  pairs: number[];
}

export class UnionFind {
  private readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(x: number): number {
    while (this.parent[x] !== x) {
      this.parent[x] = this.parent[this.parent[x]];
      x = this.parent[x];
    }
    return x;
  }
  union(x: number, y: number): void {
    const a = this.find(x);
    const b = this.find(y);
    if (a !== b) this.parent[Math.max(a, b)] = Math.min(a, b);
  }
}

/** Whether two ranges of one document overlap by at least half of the shorter. */
export function samePlace(x: PlaceRange, y: PlaceRange): boolean {
  if (x.doc !== y.doc) return false;
  const overlap = Math.min(x.end, y.end) - Math.max(x.start, y.start);
  return overlap > 0 && overlap * 2 >= Math.min(x.end - x.start, y.end - y.start);
}

/** Groups the pairs (each two sides: a, b). Deterministic: groups ordered by their first place. */
export function groupRegions(pairs: { a: PlaceRange; b: PlaceRange }[]): RegionGroup[] {
  const n = 2 * pairs.length;
  const sides: PlaceRange[] = new Array(n);
  const doc = new Int32Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  for (let p = 0; p < pairs.length; p++) {
    sides[2 * p] = pairs[p].a;
    sides[2 * p + 1] = pairs[p].b;
  }
  for (let i = 0; i < n; i++) {
    doc[i] = sides[i].doc;
    start[i] = sides[i].start;
    end[i] = sides[i].end;
  }
  const links = new UnionFind(n); // pairs and places: the groups
  const places = new UnionFind(n); // places only
  for (let p = 0; p < pairs.length; p++) links.union(2 * p, 2 * p + 1);
  const order = sideOrder(doc, start);
  // Sweep each document's sides by start; compare with the sides still open (kept in order, in place).
  const active = new Int32Array(n);
  let open = 0;
  for (let o = 0; o < n; o++) {
    const i = order[o];
    let kept = 0;
    for (let k = 0; k < open; k++) {
      const j = active[k];
      if (doc[j] === doc[i] && end[j] > start[i]) active[kept++] = j;
    }
    open = kept;
    for (let k = 0; k < open; k++) {
      const j = active[k];
      // samePlace (the same document, open past this start): overlap by at least half of the shorter
      const overlap = Math.min(end[j], end[i]) - start[i];
      if (overlap > 0 && overlap * 2 >= Math.min(end[j] - start[j], end[i] - start[i])) {
        links.union(i, j);
        places.union(i, j);
      }
    }
    active[open++] = i;
  }
  // Groups in the order their first side comes, each place in the order its first side comes.
  const groupAt = new Int32Array(n).fill(-1); // by a group's root
  const placeAt = new Int32Array(n).fill(-1); // by a place's root: index into its group's places
  const out: RegionGroup[] = [];
  for (let o = 0; o < n; o++) {
    const i = order[o];
    const g = links.find(i);
    let group = groupAt[g] >= 0 ? out[groupAt[g]] : undefined;
    if (!group) {
      groupAt[g] = out.length;
      out.push((group = { places: [], pairs: [] }));
    }
    const p = places.find(i);
    if (placeAt[p] >= 0) {
      const place = group.places[placeAt[p]];
      if (start[i] < place.start) place.start = start[i];
      if (end[i] > place.end) place.end = end[i];
    } else {
      placeAt[p] = group.places.length;
      group.places.push({ ...sides[i] });
    }
    if (i % 2 === 0) group.pairs.push(i >> 1);
  }
  for (const g of out) {
    g.places.sort((x, y) => x.doc - y.doc || x.start - y.start);
    g.pairs.sort((x, y) => x - y);
  }
  return out.sort((x, y) => x.places[0].doc - y.places[0].doc || x.places[0].start - y.places[0].start);
}

/**
 * The groups of a kernel's plan job (native/regiongroups.c regionGroupsOf: per group its number
 * of places and of pairs, per place the side that first made it — 2p + 0 for pair p's a, + 1 for
 * its b — its start and end, then its pairs) as groupRegions makes them of the same pairs.
 */
export function groupsOfFlat<S extends PlaceRange>(flat: Int32Array, pairs: ReadonlyArray<{ a: S; b: S }>): RegionGroup[] {
  const out: RegionGroup[] = [];
  for (let at = 0; at < flat.length; ) {
    const nPlaces = flat[at];
    const nPairs = flat[at + 1];
    at += 2;
    const places: PlaceRange[] = new Array(nPlaces);
    for (let q = 0; q < nPlaces; q++, at += 3) {
      const side = flat[at];
      places[q] = { ...(side % 2 === 0 ? pairs[side >> 1].a : pairs[side >> 1].b), start: flat[at + 1], end: flat[at + 2] };
    }
    out.push({ places, pairs: Array.from(flat.subarray(at, at + nPairs)) });
    at += nPairs;
  }
  return out;
}

/**
 * The sides' order by document and start (ties: side order): their numbers packed into one double
 * each and sorted natively when they fit in 53 bits (the small bench tree's 37,000 sides: 3 ms
 * where a comparator took 15), else by a comparator (the same order).
 */
function sideOrder(doc: Int32Array, start: Int32Array): Uint32Array {
  const n = doc.length;
  let maxDoc = 0;
  let maxStart = 0;
  for (let i = 0; i < n; i++) {
    if (doc[i] > maxDoc) maxDoc = doc[i];
    if (start[i] > maxStart) maxStart = start[i];
  }
  const order = new Uint32Array(n);
  const starts = maxStart + 1;
  if ((maxDoc + 1) * starts * Math.max(1, n) <= Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (doc[i] * starts + start[i]) * n + i;
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = keys[i] % n;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((x, y) => doc[x] - doc[y] || start[x] - start[y] || x - y);
}
