/**
 * Grouping of near-duplicate pairs into clusters: connected components of the pair graph,
 * computed with a union–find (disjoint-set forest). Pure: no Node or VS Code APIs.
 */

/**
 * Disjoint sets over numeric ids (any numbers; sparse ids are fine: they are remapped to dense
 * internal indices). Path compression (halving) + union by size: near-constant amortised time.
 * An id is added on first use by `add`, `find`, `union` or `connected`.
 */
export class UnionFind {
  private readonly indexOf = new Map<number, number>();
  private ids: number[] = [];
  private parent = new Int32Array(16);
  private setSize = new Int32Array(16);
  private sets = 0;

  /** Number of distinct ids seen. */
  get size(): number {
    return this.ids.length;
  }

  /** Number of disjoint sets. */
  get count(): number {
    return this.sets;
  }

  /** Whether `id` has been seen. */
  has(id: number): boolean {
    return this.indexOf.has(id);
  }

  /** Adds `id` as a singleton set if it is new. */
  add(id: number): void {
    this.index(id);
  }

  /** The representative id of the set holding `id`. */
  find(id: number): number {
    return this.ids[this.root(this.index(id))];
  }

  /** Merges the sets of `a` and `b`; true when they were different sets. */
  union(a: number, b: number): boolean {
    let ra = this.root(this.index(a));
    let rb = this.root(this.index(b));
    if (ra === rb) return false;
    if (this.setSize[ra] < this.setSize[rb]) {
      const t = ra;
      ra = rb;
      rb = t;
    }
    this.parent[rb] = ra;
    this.setSize[ra] += this.setSize[rb];
    this.sets--;
    return true;
  }

  /** Whether `a` and `b` are in the same set. */
  connected(a: number, b: number): boolean {
    return this.root(this.index(a)) === this.root(this.index(b));
  }

  /** Number of ids in the set holding `id`. */
  sizeOf(id: number): number {
    return this.setSize[this.root(this.index(id))];
  }

  /**
   * All sets, each with its ids ascending; sets ordered by their smallest id.
   */
  components(): number[][] {
    const byRoot = new Map<number, number[]>();
    for (let i = 0; i < this.ids.length; i++) {
      const r = this.root(i);
      let list = byRoot.get(r);
      if (!list) byRoot.set(r, (list = []));
      list.push(this.ids[i]);
    }
    const out = [...byRoot.values()];
    for (const list of out) list.sort((x, y) => x - y);
    out.sort((x, y) => x[0] - y[0]);
    return out;
  }

  private index(id: number): number {
    let i = this.indexOf.get(id);
    if (i !== undefined) return i;
    i = this.ids.length;
    if (i === this.parent.length) {
      const parent = new Int32Array(i * 2);
      parent.set(this.parent);
      this.parent = parent;
      const size = new Int32Array(i * 2);
      size.set(this.setSize);
      this.setSize = size;
    }
    this.indexOf.set(id, i);
    this.ids.push(id);
    this.parent[i] = i;
    this.setSize[i] = 1;
    this.sets++;
    return i;
  }

  private root(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      const grand = parent[parent[i]];
      parent[i] = grand; // path halving
      i = grand;
    }
    return i;
  }
}

/** A group of ids that are near duplicates of one another (directly or through others). */
export interface Cluster {
  /** Member ids, ascending. */
  members: number[];
  /** The largest distance of a pair inside the group. */
  maxDistance: number;
}

/**
 * Connected components of the graph whose edges are `pairs`. Members are sorted ascending;
 * groups are ordered by smallest maxDistance, then larger groups first, then by first member.
 * Self-pairs (a === b) carry no information and are ignored. `pairs` is iterated once.
 */
export function clusterPairs(pairs: Iterable<{ a: number; b: number; distance: number }>): Cluster[] {
  const uf = new UnionFind();
  const maxAtRoot = new Map<number, number>();
  for (const { a, b, distance } of pairs) {
    if (a === b) continue;
    const ra = uf.find(a);
    const rb = uf.find(b);
    let max = distance;
    const ma = maxAtRoot.get(ra);
    if (ma !== undefined && ma > max) max = ma;
    if (ra !== rb) {
      const mb = maxAtRoot.get(rb);
      if (mb !== undefined && mb > max) max = mb;
      uf.union(ra, rb);
      maxAtRoot.delete(ra);
      maxAtRoot.delete(rb);
    }
    maxAtRoot.set(uf.find(ra), max);
  }
  const clusters: Cluster[] = uf.components().map((members) => ({
    members,
    maxDistance: maxAtRoot.get(uf.find(members[0])) ?? 0,
  }));
  clusters.sort(
    (x, y) =>
      x.maxDistance - y.maxDistance || y.members.length - x.members.length || x.members[0] - y.members[0],
  );
  return clusters;
}
