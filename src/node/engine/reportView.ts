/**
 * From the engine's report to what the extension shows: groups with a representative and each
 * member's distance to it, per file / section the list of its twins (for diagnostics), and per
 * file the number of its lines in near duplicates (for the share of the workspace's lines).
 * Pure (no fs, no threads); runs in the engine worker so the extension host only renders.
 */
import { hammingDistance, similarity } from '../../core/index/hamming';
import type { Location, Report, ReportGroup, ReportPair } from '../../core/report/report';
import type { ContentKind, DocumentFingerprint, Fp64, ItemFingerprint } from '../../core/types';
import { cloneKind } from '../../core/fingerprint/cloneHashes';
import * as nodePath from 'node:path';
import {
  MAX_OVERVIEW_FILES,
  MAX_OVERVIEW_GROUPS,
  MAX_OVERVIEW_MEMBERS,
  type IndexStats,
  type OverviewData,
  type OverviewNode,
  type Thresholds,
  type ViewGroup,
  type ViewItem,
  type ViewLocation,
  type ViewMember,
  type ViewReport,
  type ViewTwin,
} from './engineProtocol';

/** Twins listed per item; the rest is counted in `moreTwins`. */
export const MAX_TWINS_PER_ITEM = 50;
/** Groups larger than this take their first member as representative (no medoid search). */
const MEDOID_LIMIT = 64;
/** A section's key among a file's locations: its start line times this, plus its end line. */
const LINE_KEY = 2 ** 26;

export function locationKey(loc: ViewLocation): string {
  return loc.startLine === undefined ? loc.path : `${loc.path}#${loc.startLine}-${loc.endLine}`;
}

function toView(loc: Location): ViewLocation {
  return loc.startLine === undefined ? { path: loc.path } : { path: loc.path, startLine: loc.startLine, endLine: loc.endLine };
}

function compareLoc(a: ViewLocation, b: ViewLocation): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  // (then the end line: two items of a file that begin on the same line come in one order however
  // the view was made, file by file or over all pairs)
  return (a.startLine ?? 0) - (b.startLine ?? 0) || (a.endLine ?? 0) - (b.endLine ?? 0);
}

/** Fingerprint of a location, from the documents (keyed by path). */
export function fingerprintAt(docs: ReadonlyMap<string, DocumentFingerprint>, loc: ViewLocation): ItemFingerprint | undefined {
  const doc = docs.get(loc.path);
  if (!doc) return undefined;
  if (loc.startLine === undefined) return doc.file ?? undefined;
  return sectionsByLines(doc).get(loc.startLine)?.get(loc.endLine ?? 0);
}

/**
 * A document's sections by their lines (the first of equal lines), made once per document (a
 * changed file is a new document): a group's members were each looked for along their file's
 * sections (~15 ms of a full view of the small bench tree).
 */
const byLines = new WeakMap<DocumentFingerprint, Map<number, Map<number, ItemFingerprint>>>();
function sectionsByLines(doc: DocumentFingerprint): Map<number, Map<number, ItemFingerprint>> {
  let m = byLines.get(doc);
  if (!m) {
    m = new Map();
    for (const s of doc.sections) {
      let ends = m.get(s.startLine);
      if (!ends) m.set(s.startLine, (ends = new Map()));
      if (!ends.has(s.endLine)) ends.set(s.endLine, s);
    }
    byLines.set(doc, m);
  }
  return m;
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
    const x = fps[rep];
    const y = fps[i];
    return i !== rep && x && y ? { ...l, distance: d, similarity: similarity(d), clone: cloneKind(x, y) } : { ...l, distance: d, similarity: similarity(d) };
  });
  const [representative] = members.splice(rep, 1);
  members.sort((a, b) => a.distance - b.distance || compareLoc(a, b));
  members.unshift(representative);
  return { kind, key: `${kind}:${locationKey(representative)}`, maxDistance, members };
}

/** A twin of a location: the other end of one of its pairs (`self`: the location is the pair's side a). */
function twinOf(other: Location, distance: number, sim: number, pair?: ReportPair, self?: 'a' | 'b'): ViewTwin {
  const twin: ViewTwin =
    other.startLine === undefined
      ? { path: other.path, distance, similarity: sim }
      : { path: other.path, startLine: other.startLine, endLine: other.endLine, distance, similarity: sim };
  if (pair) twin.clone = pair.clone;
  if (pair?.located) twin.located = true;
  if (pair?.regions?.length) {
    twin.regions = pair.regions.map((r) => ({ self: self === 'b' ? r.b : r.a, other: self === 'b' ? r.a : r.b, clone: r.clone, similarity: r.similarity }));
  }
  return twin;
}

/**
 * The twins of one location while they are collected: its pairs, each as one number (the pair's
 * place among the pairs seen, times two, plus 1 when the location is the pair's side b).
 */
interface TwinList {
  kind: 'file' | 'section';
  loc: ViewLocation;
  ends: number[];
}

/**
 * The items of one file (its whole-file item and its sections' items) from the pairs touching it.
 * Each item lists its {@link MAX_TWINS_PER_ITEM} closest twins (by distance, then location) and
 * counts the rest. Only the twins listed are made and sorted: the others are told apart by their
 * distance alone (a location of a generated file or of one of thousands of identical files has
 * hundreds of twins).
 */
export function itemsOfPath(path: string, pairs: Iterable<ReportPair>): ViewItem[] {
  // The file's locations by their lines (the whole file: -1): a number, no key text made per pair.
  const byLines = new Map<number, TwinList>();
  const seen: ReportPair[] = [];
  const add = (p: ReportPair, self: Location, end: number) => {
    const key = self.startLine === undefined ? -1 : self.startLine * LINE_KEY + (self.endLine ?? 0);
    let list = byLines.get(key);
    if (!list) byLines.set(key, (list = { kind: p.kind, loc: toView(self), ends: [] }));
    list.ends.push(end);
  };
  for (const p of pairs) {
    const i = seen.push(p) - 1;
    if (p.a.path === path) add(p, p.a, 2 * i);
    if (p.b.path === path) add(p, p.b, 2 * i + 1);
  }
  const pairOf = (e: number) => seen[e >> 1];
  const otherOf = (e: number) => (e & 1 ? seen[e >> 1].a : seen[e >> 1].b);
  const items: ViewItem[] = [];
  for (const list of byLines.values()) {
    const { ends } = list;
    const n = ends.length;
    let chosen: number[];
    if (n <= MAX_TWINS_PER_ITEM) chosen = ends;
    else {
      // The distance of the last twin listed: every twin closer is listed, and of those at that
      // distance the first by location.
      const counts = new Array<number>(65).fill(0);
      for (let i = 0; i < n; i++) counts[pairOf(ends[i]).distance]++;
      let cut = 0;
      for (let listed = 0; cut < 64 && listed + counts[cut] < MAX_TWINS_PER_ITEM; cut++) listed += counts[cut];
      chosen = [];
      for (let i = 0; i < n; i++) if (pairOf(ends[i]).distance <= cut) chosen.push(ends[i]);
    }
    // (then by the order the pairs came in: as a stable sort of them)
    chosen.sort((x, y) => pairOf(x).distance - pairOf(y).distance || compareLoc(otherOf(x), otherOf(y)) || x - y);
    if (chosen.length > MAX_TWINS_PER_ITEM) chosen.length = MAX_TWINS_PER_ITEM;
    const twins = chosen.map((e) => {
      const p = pairOf(e);
      return twinOf(otherOf(e), p.distance, p.similarity, p, e & 1 ? 'b' : 'a');
    });
    items.push({ kind: list.kind, loc: list.loc, twins, moreTwins: n - twins.length });
  }
  items.sort((a, b) => compareLoc(a.loc, b.loc));
  return items;
}

/**
 * Lines of a file that lie in its near-duplicate items (a file item: all `lines`; sections: the
 * union of their ranges). `lines` undefined (not known): only the sections count.
 */
export function duplicatedLines(items: readonly ViewItem[], lines: number | undefined): number {
  if (lines !== undefined && items.some((i) => i.loc.startLine === undefined)) return lines;
  const ranges = items.filter((i) => i.loc.startLine !== undefined).map((i) => [i.loc.startLine!, i.loc.endLine ?? i.loc.startLine!] as const);
  ranges.sort((a, b) => a[0] - b[0]);
  let n = 0;
  let end = 0;
  for (const [s, e] of ranges) {
    const from = Math.max(s, end + 1);
    if (e >= from) n += e - from + 1;
    end = Math.max(end, e);
  }
  return lines === undefined ? n : Math.min(n, lines);
}

/** What the share of lines needs to know of a file: its lines (if known), kind and folder. */
export interface LineInfo {
  lines: number | undefined;
  kind: ContentKind;
  folder: string;
}

function compareGroups(a: ViewGroup, b: ViewGroup): number {
  return a.maxDistance - b.maxDistance || b.members.length - a.members.length || (a.kind === b.kind ? 0 : a.kind === 'file' ? -1 : 1) || compareLoc(a.members[0], b.members[0]);
}

/** Merges two lists sorted by compareGroups. */
function mergeGroups(a: ViewGroup[], b: ViewGroup[]): ViewGroup[] {
  if (b.length === 0) return a;
  const out: ViewGroup[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let w = 0;
  while (i < a.length && j < b.length) out[w++] = compareGroups(b[j], a[i]) < 0 ? b[j++] : a[i++];
  while (i < a.length) out[w++] = a[i++];
  while (j < b.length) out[w++] = b[j++];
  return out;
}

/**
 * Builds views of successive reports, reusing what did not change: after an incremental update,
 * a group that is the same ReportGroup object as before keeps its view (no new medoid search),
 * and only the items of the touched files are rebuilt.
 */
export class ReportViewBuilder {
  private groupCache = new Map<ReportGroup, ViewGroup>();
  /** The groups of the last build, sorted. */
  private sortedGroups: ViewGroup[] = [];
  private readonly itemsByPath = new Map<string, ViewItem[]>();
  /** Per file with items: its lines in near duplicates, its kind and folder (see {@link LineInfo}). */
  private readonly duplicatedByPath = new Map<string, { lines: number; kind: ContentKind; folder: string }>();
  /** The sums of `duplicatedByPath`, by kind and by folder (kept as files change: no walk per report). */
  readonly duplicatedByKind: Record<ContentKind, number> = { code: 0, prose: 0 };
  readonly duplicatedByFolder = new Map<string, number>();

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
    lineInfo?: (path: string) => LineInfo | undefined,
  ): { groups: ViewGroup[]; rebuilt: ReadonlySet<string> | null } {
    // After an incremental update, a group that is the very same object as in the last build
    // is unchanged, and so are its documents (IncrementalReport makes a new group object for
    // every component that lost or gained a pair, which every changed document's do): its view
    // is kept, and so is its place in the sorted list, where the new views are merged.
    const cache = new Map<ReportGroup, ViewGroup>();
    const fresh: ViewGroup[] = [];
    const kept = new Set<ViewGroup>();
    for (const g of report.groups) {
      let view = touched !== null ? this.groupCache.get(g) : undefined;
      if (view === undefined) {
        view = viewGroup(g.kind, g.locations ?? g.members.map((p) => ({ path: p })), g.maxDistance, docs);
        fresh.push(view);
      } else kept.add(view);
      cache.set(g, view);
    }
    fresh.sort(compareGroups);
    const groups = kept.size === 0 ? fresh : mergeGroups(this.sortedGroups.filter((v) => kept.has(v)), fresh);
    this.groupCache = cache;
    this.sortedGroups = groups;

    if (!touched || !pairsOf) {
      this.itemsByPath.clear();
      this.duplicatedByPath.clear();
      this.duplicatedByKind.code = 0;
      this.duplicatedByKind.prose = 0;
      this.duplicatedByFolder.clear();
      const byPath = new Map<string, ReportPair[]>();
      for (const p of report.pairs) {
        for (const path of p.a.path === p.b.path ? [p.a.path] : [p.a.path, p.b.path]) {
          const list = byPath.get(path);
          if (list) list.push(p);
          else byPath.set(path, [p]);
        }
      }
      for (const [path, pairs] of byPath) {
        const items = itemsOfPath(path, pairs);
        this.itemsByPath.set(path, items);
        this.setDuplicated(path, items, lineInfo);
      }
      return { groups, rebuilt: null };
    }
    for (const path of touched) {
      const items = itemsOfPath(path, pairsOf(path));
      if (items.length) {
        this.itemsByPath.set(path, items);
        this.setDuplicated(path, items, lineInfo);
      } else {
        this.itemsByPath.delete(path);
        this.setDuplicated(path, [], lineInfo);
      }
    }
    return { groups, rebuilt: touched };
  }

  /** The items of one file (as of the last build). */
  itemsOf(path: string): ViewItem[] | undefined {
    return this.itemsByPath.get(path);
  }

  /** A file's lines in near duplicates, in the sums too (none: the file has no items now). */
  private setDuplicated(path: string, items: readonly ViewItem[], lineInfo: ((path: string) => LineInfo | undefined) | undefined): void {
    const old = this.duplicatedByPath.get(path);
    if (old) {
      this.duplicatedByPath.delete(path);
      this.duplicatedByKind[old.kind] -= old.lines;
      const f = (this.duplicatedByFolder.get(old.folder) ?? 0) - old.lines;
      if (f > 0) this.duplicatedByFolder.set(old.folder, f);
      else this.duplicatedByFolder.delete(old.folder);
    }
    const info = items.length > 0 ? lineInfo?.(path) : undefined;
    if (!info) return;
    const lines = duplicatedLines(items, info.lines);
    if (lines === 0) return;
    this.duplicatedByPath.set(path, { lines, kind: info.kind, folder: info.folder });
    this.duplicatedByKind[info.kind] += lines;
    this.duplicatedByFolder.set(info.folder, (this.duplicatedByFolder.get(info.folder) ?? 0) + lines);
  }

  /** A file's lines in near duplicates (0: none, or not known). */
  duplicatedOf(path: string): number {
    return this.duplicatedByPath.get(path)?.lines ?? 0;
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

/**
 * The Overview's data: a tree of folders (and files, up to {@link MAX_OVERVIEW_FILES}) under each
 * root with their lines and duplicated lines, the pairs' distances, and the largest groups.
 */
export function buildOverview(
  files: Iterable<{ path: string; lines: number; duplicated: number }>,
  roots: readonly string[],
  pairs: Iterable<ReportPair>,
  groups: readonly ViewGroup[],
  linesOf: (path: string) => number | undefined,
  thresholds: Thresholds,
): OverviewData {
  const list = [...files];
  const filesDrawn = list.length <= MAX_OVERVIEW_FILES;
  const rootNodes = roots.map((r) => ({ name: nodePath.basename(r) || r, path: r, lines: 0, duplicated: 0, children: [] as OverviewNode[] }));
  const folders = new Map<string, OverviewNode>(rootNodes.map((n) => [n.path, n]));
  const rootOf = (p: string) => {
    let best: OverviewNode | undefined;
    for (const n of rootNodes) if (p.startsWith(n.path + nodePath.sep) && (!best || n.path.length > best.path.length)) best = n;
    return best;
  };
  const folderAt = (dir: string, root: OverviewNode): OverviewNode => {
    let node = folders.get(dir);
    if (node) return node;
    const parent = folderAt(nodePath.dirname(dir), root);
    node = { name: nodePath.basename(dir), path: dir, lines: 0, duplicated: 0, children: [] };
    parent.children!.push(node);
    folders.set(dir, node);
    return node;
  };
  for (const f of list) {
    const root = rootOf(f.path);
    if (!root) continue;
    const folder = folderAt(nodePath.dirname(f.path), root);
    if (filesDrawn) folder.children!.push({ name: nodePath.basename(f.path), path: f.path, lines: f.lines, duplicated: f.duplicated });
    else {
      folder.lines += f.lines;
      folder.duplicated += f.duplicated;
    }
  }
  const sum = (n: OverviewNode): void => {
    if (!n.children) return;
    for (const c of n.children) {
      sum(c);
      n.lines += c.lines;
      n.duplicated += c.duplicated;
    }
    n.children.sort((a, b) => b.lines - a.lines || (a.name < b.name ? -1 : 1));
  };
  rootNodes.forEach(sum);
  const distances = { file: new Array<number>(65).fill(0), section: new Array<number>(65).fill(0) };
  for (const p of pairs) distances[p.kind][Math.max(0, Math.min(64, p.distance))]++;
  const linesOfMember = (m: ViewLocation) => (m.startLine === undefined ? (linesOf(m.path) ?? 0) : (m.endLine ?? m.startLine) - m.startLine + 1);
  const sized = groups.map((g) => ({ g, lines: g.members.reduce((n, m) => n + linesOfMember(m), 0) }));
  sized.sort((a, b) => b.lines - a.lines || b.g.members.length - a.g.members.length);
  return {
    roots: rootNodes,
    distances,
    thresholds: { ...thresholds },
    groups: sized.slice(0, MAX_OVERVIEW_GROUPS).map(({ g, lines }) => ({
      kind: g.kind,
      copies: g.members.length,
      lines,
      maxDistance: g.maxDistance,
      members: g.members.slice(0, MAX_OVERVIEW_MEMBERS).map((m) => (m.startLine === undefined ? { path: m.path } : { path: m.path, startLine: m.startLine, endLine: m.endLine })),
    })),
    files: list.length,
    filesDrawn,
  };
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
