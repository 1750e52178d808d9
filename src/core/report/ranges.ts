/**
 * Which line ranges hold which: the containers of section ranges, for "of nested section pairs
 * only the outermost" (buildReport's dropNestedPairs and a query's dropNested).
 */

/**
 * For each of `ids` (ranges of one document, numbered by the caller) that `wanted` accepts: the
 * ids whose range holds its range, itself included, handed to `visit`. A sweep by start line
 * (longer first) keeping the ranges that still cover the current line: linear while ranges nest
 * a few levels deep. Sorts `ids` in place.
 */
export function forEachContainers(
  ids: number[],
  startOf: (id: number) => number,
  endOf: (id: number) => number,
  visit: (id: number, containers: number[]) => void,
  wanted: (id: number) => boolean = () => true,
): void {
  // Each range read once into arrays, sorted by position (the sweep and the sort read no closure).
  const n = ids.length;
  const s0 = new Float64Array(n);
  const e0 = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    s0[k] = startOf(ids[k]);
    e0[k] = endOf(ids[k]);
  }
  const order = new Array<number>(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((x, y) => s0[x] - s0[y] || e0[y] - e0[x] || ids[x] - ids[y]);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const sorted = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const o = order[k];
    sorted[k] = ids[o];
    starts[k] = s0[o];
    ends[k] = e0[o];
  }
  for (let k = 0; k < n; k++) ids[k] = sorted[k];
  // Positions (into the sorted arrays) of the ranges that still cover the current line.
  let active: number[] = [];
  for (let k = 0; k < n; ) {
    // Ranges starting on the same line are all active together (one may hold another).
    const start = starts[k];
    let kept = 0;
    for (let a = 0; a < active.length; a++) if (ends[active[a]] >= start) active[kept++] = active[a];
    active.length = kept;
    let end = k;
    while (end < n && starts[end] === start) active.push(end++);
    for (; k < end; k++) {
      const i = ids[k];
      if (!wanted(i)) continue;
      const s = starts[k];
      const e = ends[k];
      const containers: number[] = [];
      for (let a = 0; a < active.length; a++) {
        const j = active[a];
        if (starts[j] <= s && e <= ends[j]) containers.push(ids[j]);
      }
      visit(i, containers);
    }
  }
}
