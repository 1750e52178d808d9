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
  ids.sort((x, y) => startOf(x) - startOf(y) || endOf(y) - endOf(x) || x - y);
  let active: number[] = [];
  for (let k = 0; k < ids.length; ) {
    // Ranges starting on the same line are all active together (one may hold another).
    const start = startOf(ids[k]);
    active = active.filter((j) => endOf(j) >= start);
    let end = k;
    while (end < ids.length && startOf(ids[end]) === start) active.push(ids[end++]);
    for (; k < end; k++) {
      const i = ids[k];
      if (!wanted(i)) continue;
      const s = startOf(i);
      const e = endOf(i);
      visit(
        i,
        active.filter((j) => startOf(j) <= s && e <= endOf(j)),
      );
    }
  }
}
