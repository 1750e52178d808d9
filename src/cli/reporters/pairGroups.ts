/**
 * A report's pairs by group, for the formats that give one finding per group (SARIF, Code
 * Climate): the plain pairs whose two sides are members of one group (a file pair with one matching
 * region too), and the rest (located copies, file pairs with two regions or more, pairs no group
 * holds), which stay one finding per pair.
 */
import type { Location, ReportGroup, ReportPair } from '../../core/report/report';

/** A location's key among the members of the groups of its kind. */
export const locKey = (kind: string, loc: Location): string => `${kind}\0${loc.path}\0${loc.startLine ?? ''}\0${loc.endLine ?? ''}`;

/** Each member's group (its number), by locKey; `withLocated`: the located groups' members too. */
export function groupOfMembers(groups: readonly ReportGroup[], withLocated: boolean): Map<string, number> {
  const groupOf = new Map<string, number>();
  groups.forEach((g, gi) => {
    if (g.located && !withLocated) return;
    (g.locations ?? g.members.map((p) => ({ path: p }))).forEach((loc) => groupOf.set(locKey(g.kind, loc), gi));
  });
  return groupOf;
}

/** The pairs (their numbers) of each group that has some, in group order; then the rest, in pair order. */
export function groupedPairs(report: { pairs: readonly ReportPair[]; groups: readonly ReportGroup[] }): { byGroup: Array<[number, number[]]>; single: number[] } {
  const groupOf = groupOfMembers(report.groups, false);
  const byGroup = new Map<number, number[]>();
  const single: number[] = [];
  report.pairs.forEach((p, i) => {
    // A file pair's one region (an edited or identical copy of the whole file, the default's usual
    // case) says no more than its group; two or more say where inside the files: the pair's own.
    const gi = p.located || (p.regions?.length ?? 0) > 1 ? undefined : groupOf.get(locKey(p.kind, p.a));
    if (gi === undefined || groupOf.get(locKey(p.kind, p.b)) !== gi) single.push(i);
    else {
      const list = byGroup.get(gi);
      if (list) list.push(i);
      else byGroup.set(gi, [i]);
    }
  });
  return { byGroup: [...byGroup].sort((x, y) => x[0] - y[0]), single };
}
