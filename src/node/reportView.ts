/**
 * From the engine's report to what the extension shows: groups with a representative and each
 * member's distance to it, and per file / section the list of its twins (for diagnostics).
 * Pure (no fs, no threads); runs in the engine worker so the extension host only renders.
 */
import { hammingDistance, similarity } from '../core/hamming';
import type { Location, Report, ReportPair } from '../core/report';
import type { DocumentFingerprint, Fp64 } from '../core/types';
import type { IndexStats, Thresholds, ViewGroup, ViewItem, ViewLocation, ViewMember, ViewReport, ViewTwin } from './engineProtocol';

/** Twins listed per item; the rest is counted in `moreTwins`. */
export const MAX_TWINS_PER_ITEM = 50;
/** Groups larger than this take their first member as representative (no medoid search). */
const MEDOID_LIMIT = 64;

export function locationKey(loc: ViewLocation): string {
  return loc.startLine === undefined ? loc.path : `${loc.path}#${loc.startLine}-${loc.endLine}`;
}

function toView(loc: Location): ViewLocation {
  return loc.startLine === undefined ? { path: loc.path } : { path: loc.path, startLine: loc.startLine, endLine: loc.endLine };
}

function compareLoc(a: ViewLocation, b: ViewLocation): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return (a.startLine ?? 0) - (b.startLine ?? 0);
}

/** Fingerprint of a location, from the documents (keyed by path). */
export function fingerprintAt(docs: ReadonlyMap<string, DocumentFingerprint>, loc: ViewLocation): Fp64 | undefined {
  const doc = docs.get(loc.path);
  if (!doc) return undefined;
  if (loc.startLine === undefined) return doc.file ?? undefined;
  return doc.sections.find((s) => s.startLine === loc.startLine && s.endLine === loc.endLine);
}

function distanceOf(a: Fp64 | undefined, b: Fp64 | undefined): number {
  return a && b ? hammingDistance(a.hi, a.lo, b.hi, b.lo) : 64;
}

/**
 * The group's representative is its medoid (the member whose largest distance to the others is
 * smallest; ties: the first by path), so every distance shown is to a central member.
 */
export function viewGroup(kind: 'file' | 'section', locations: Location[], maxDistance: number, docs: ReadonlyMap<string, DocumentFingerprint>): ViewGroup {
  const locs = locations.map(toView).sort(compareLoc);
  const fps = locs.map((l) => fingerprintAt(docs, l));
  let rep = 0;
  if (locs.length <= MEDOID_LIMIT) {
    let best = Infinity;
    for (let i = 0; i < locs.length; i++) {
      let worst = 0;
      for (let j = 0; j < locs.length; j++) if (i !== j) worst = Math.max(worst, distanceOf(fps[i], fps[j]));
      if (worst < best) {
        best = worst;
        rep = i;
      }
    }
  }
  const members: ViewMember[] = locs.map((l, i) => {
    const d = i === rep ? 0 : distanceOf(fps[rep], fps[i]);
    return { ...l, distance: d, similarity: similarity(d) };
  });
  const [representative] = members.splice(rep, 1);
  members.sort((a, b) => a.distance - b.distance || compareLoc(a, b));
  members.unshift(representative);
  return { kind, key: `${kind}:${locationKey(representative)}`, maxDistance, members };
}

/** The items of one file (its whole-file item and its sections' items) from the pairs touching it. */
export function itemsOfPath(path: string, pairs: Iterable<ReportPair>): ViewItem[] {
  const byKey = new Map<string, { kind: 'file' | 'section'; loc: ViewLocation; twins: ViewTwin[] }>();
  const add = (kind: 'file' | 'section', self: Location, other: Location, distance: number, sim: number) => {
    const loc = toView(self);
    const key = locationKey(loc);
    let item = byKey.get(key);
    if (!item) byKey.set(key, (item = { kind, loc, twins: [] }));
    item.twins.push({ ...toView(other), distance, similarity: sim });
  };
  for (const p of pairs) {
    if (p.a.path === path) add(p.kind, p.a, p.b, p.distance, p.similarity);
    if (p.b.path === path) add(p.kind, p.b, p.a, p.distance, p.similarity);
  }
  const items: ViewItem[] = [];
  for (const it of byKey.values()) {
    it.twins.sort((a, b) => a.distance - b.distance || compareLoc(a, b));
    const moreTwins = Math.max(0, it.twins.length - MAX_TWINS_PER_ITEM);
    items.push({ kind: it.kind, loc: it.loc, twins: moreTwins ? it.twins.slice(0, MAX_TWINS_PER_ITEM) : it.twins, moreTwins });
  }
  items.sort((a, b) => compareLoc(a.loc, b.loc));
  return items;
}

function sortGroups(groups: ViewGroup[]): void {
  groups.sort(
    (a, b) =>
      a.maxDistance - b.maxDistance || b.members.length - a.members.length || (a.kind === b.kind ? 0 : a.kind === 'file' ? -1 : 1) || compareLoc(a.members[0], b.members[0]),
  );
}

/**
 * Builds views of successive reports, reusing what did not change: a group with the same members
 * and largest distance keeps its view (no new medoid search); after an incremental update only
 * the items of the touched files are rebuilt.
 */
export class ReportViewBuilder {
  private groupCache = new Map<string, ViewGroup>();
  private readonly itemsByPath = new Map<string, ViewItem[]>();

  /**
   * `touched`: the files whose pairs may have changed since the last build (null: any), with
   * `pairsOf` giving the current pairs of one file. Returns the groups (sorted) and the files
   * whose items were rebuilt (null: all).
   */
  build(
    report: Report,
    docs: ReadonlyMap<string, DocumentFingerprint>,
    touched: ReadonlySet<string> | null,
    pairsOf?: (path: string) => Iterable<ReportPair>,
  ): { groups: ViewGroup[]; rebuilt: ReadonlySet<string> | null } {
    const cache = new Map<string, ViewGroup>();
    const groups: ViewGroup[] = [];
    for (const g of report.groups) {
      const locations = g.locations ?? g.members.map((p) => ({ path: p }));
      const key = `${g.kind}|${g.maxDistance}|${locations.map((l) => locationKey(toView(l))).sort().join('|')}`;
      // Reuse a view only when none of its files changed (their distances would differ).
      const reusable = touched !== null && !locations.some((l) => touched.has(l.path));
      const view = (reusable ? this.groupCache.get(key) : undefined) ?? cache.get(key) ?? viewGroup(g.kind, locations, g.maxDistance, docs);
      cache.set(key, view);
      groups.push(view);
    }
    this.groupCache = cache;
    sortGroups(groups);

    if (!touched || !pairsOf) {
      this.itemsByPath.clear();
      const byPath = new Map<string, ReportPair[]>();
      for (const p of report.pairs) {
        for (const path of p.a.path === p.b.path ? [p.a.path] : [p.a.path, p.b.path]) {
          const list = byPath.get(path);
          if (list) list.push(p);
          else byPath.set(path, [p]);
        }
      }
      for (const [path, pairs] of byPath) this.itemsByPath.set(path, itemsOfPath(path, pairs));
      return { groups, rebuilt: null };
    }
    for (const path of touched) {
      const items = itemsOfPath(path, pairsOf(path));
      if (items.length) this.itemsByPath.set(path, items);
      else this.itemsByPath.delete(path);
    }
    return { groups, rebuilt: touched };
  }

  /** The items of one file (as of the last build). */
  itemsOf(path: string): ViewItem[] | undefined {
    return this.itemsByPath.get(path);
  }

  /** Files that have items. */
  paths(): IterableIterator<string> {
    return this.itemsByPath.keys();
  }

  /** Every item, sorted by path and line. */
  allItems(): ViewItem[] {
    const paths = [...this.itemsByPath.keys()].sort();
    return paths.flatMap((p) => this.itemsByPath.get(p)!);
  }
}

export function buildViewReport(
  report: Report,
  docs: ReadonlyMap<string, DocumentFingerprint>,
  generation: number,
  thresholds: Thresholds,
  lastJob: IndexStats | null,
): ViewReport {
  const builder = new ReportViewBuilder();
  const { groups } = builder.build(report, docs, null);
  let sections = 0;
  for (const d of docs.values()) sections += d.sections.length;
  return {
    generation,
    createdAt: Date.now(),
    files: docs.size,
    sections,
    pairs: report.pairs.length,
    groups,
    items: builder.allItems(),
    clearedPaths: [],
    full: true,
    thresholds,
    lastJob,
  };
}
