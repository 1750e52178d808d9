/**
 * Keeps the pairs of a report up to date when a few documents change, without matching the whole
 * workspace again. Every rule of buildReport only looks at the two documents of a pair (the
 * distance and sketch checks, "no section pairs between files that pair as files", "no
 * overlapping sections of one file", "only the outermost of nested section pairs"), so the
 * pairs of untouched documents stay valid: drop the pairs of the changed documents and match
 * each of them against all others ({@link findTwinsIn}, the same rules as a linear scan).
 *
 * What an update costs is proportional to what changed, not to the workspace:
 * - the candidates come from a live {@link DocumentIndex} (permuted tables over every file and
 *   section fingerprint, updated as documents change), so matching one document costs its
 *   candidates, not a scan of all documents and sections;
 * - groups (connected components of the pairs, per kind) are kept too: only the components that
 *   lost or gained a pair are recomputed, from their own pairs. The others keep their
 *   ReportGroup objects (same identity), which ReportViewBuilder uses to keep their views.
 *
 * A full {@link buildReport} is the reference; unit tests check both agree after random changes.
 *
 * The pair cap of buildReport (`maxPairs` per kind) holds here too: an update that would take a
 * kind over the cap answers null, and the caller rebuilds, which cuts. A cut report is updated
 * like any other (its pairs stay "some of the pairs": those of the changed documents are replaced
 * by their new ones, up to 1 % over the cap), so a workspace with a generated file does not
 * match everything again at every save; when a cut kind falls below 90 % of the cap the update
 * answers null too, and the rebuild tells whether pairs are still left out.
 */
import { UnionFind } from '../../core/report/clusters';
import { DocumentIndex } from '../../core/index/documentIndex';
import { buildReport, MAX_REPORT_PAIRS, type FingerprintedDocument, type Location, type Report, type ReportGroup, type ReportOptions, type ReportPair } from '../../core/report/report';
import type { DocumentFingerprint } from '../../core/types';
import type { QueryMatch } from './engineProtocol';
import { findTwinsIn, type TwinLimit, type TwinOptions } from './twins';

/** Share of the cap below which a cut kind is matched again from scratch. */
const UNCUT_SHARE = 0.9;
/** Share of the cap that updates of a cut report may reach (a rebuild cuts at the cap again). */
const CUT_SLACK = 1.01;

function locKey(l: Location): string {
  return l.startLine === undefined ? l.path : `${l.path}#${l.startLine}-${l.endLine}`;
}

/** Key of a location in the groups of its kind (file and section keys never collide). */
function nodeKey(kind: 'file' | 'section', l: Location): string {
  return `${kind === 'file' ? 'f' : 's'}|${locKey(l)}`;
}

function pairKey(p: ReportPair): string {
  return `${p.kind}|${locKey(p.a)}|${locKey(p.b)}`;
}

/** The order of buildReport's pairs: by path, then first line. */
function ordered(x: Location, y: Location): [Location, Location] {
  return x.path > y.path || (x.path === y.path && (x.startLine ?? 0) > (y.startLine ?? 0)) ? [y, x] : [x, y];
}

function compareLocations(a: Location, b: Location): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : (a.startLine ?? 0) - (b.startLine ?? 0);
}

/** A connected component of the pairs of one kind: a group. */
interface Component {
  /** Node keys of its members, parallel to `locations`. */
  nodes: string[];
  locations: readonly Location[];
  group: ReportGroup;
}

function makeComponent(kind: 'file' | 'section', locations: Location[], maxDistance: number): Component {
  const locs = [...locations].sort(compareLocations);
  const group: ReportGroup =
    kind === 'file'
      ? { kind, members: locs.map((l) => l.path), maxDistance }
      : { kind, members: locs.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), maxDistance, locations: locs };
  return { nodes: locs.map((l) => nodeKey(kind, l)), locations: locs, group };
}

export class IncrementalReport {
  /** The pairs in a dense array (report() copies it), each key's position in it, and the keys. */
  private readonly pairList: ReportPair[] = [];
  private readonly pairKeys: string[] = [];
  private readonly pairAt = new Map<string, number>();
  /** Keys of the pairs of each path. */
  private readonly byPath = new Map<string, Set<string>>();
  /** Pairs of each kind in pairList. */
  private fileCount = 0;
  private sectionCount = 0;
  /** The kinds the last rebuild cut at the pair cap (null: none). */
  private truncated: { files: boolean; sections: boolean } | null = null;
  private options: ReportOptions | null = null;
  private index: DocumentIndex | null = null;
  /**
   * The documents of the last rebuild while its live index is not built yet: it is built at its
   * first use ({@link update}, {@link twins}) or when the engine has a moment
   * ({@link prepareIndex}), so that a full report is posted without waiting for it (~200 ms of
   * the engine's thread on the small bench tree).
   */
  private indexDocs: readonly FingerprintedDocument[] | null = null;
  /** How long the last live index took to build (ms; 0: none built yet). */
  indexBuildMs = 0;
  /** The component of each location that is in a pair, by node key. */
  private readonly componentOf = new Map<string, Component>();
  private readonly components = new Set<Component>();
  /** During an update: node keys whose pairs changed, keys of the pairs added, pairs dropped. */
  private dirtyNodes: Set<string> | null = null;
  private addedPairs: string[] = [];
  private readonly droppedPairs = new Map<string, ReportPair>();
  /**
   * Paths whose pairs changed in the last rebuild/update (null: the last call was a rebuild, so
   * any path may have changed). The items of other paths are unchanged.
   */
  touched: Set<string> | null = null;

  /** Matches everything (buildReport). `docs` sorted by path. */
  rebuild(docs: readonly FingerprintedDocument[], options: ReportOptions): Report {
    this.options = { ...options };
    this.pairList.length = 0;
    this.pairKeys.length = 0;
    this.pairAt.clear();
    this.byPath.clear();
    this.fileCount = 0;
    this.sectionCount = 0;
    this.componentOf.clear();
    this.components.clear();
    this.dirtyNodes = null;
    this.addedPairs = [];
    this.droppedPairs.clear();
    this.touched = null;
    const report = buildReport(docs, options);
    this.truncated = report.truncated ? { ...report.truncated } : null;
    for (const p of report.pairs) this.add(p);
    // buildReport's groups are the components of its pairs (kept as they are: the views built
    // from this report then stay valid for the components that later updates leave alone).
    for (const g of report.groups) {
      const locations: readonly Location[] = g.locations ?? g.members.map((path) => ({ path }));
      this.register({ nodes: locations.map((l) => nodeKey(g.kind, l)), locations, group: g });
    }
    this.index = null;
    this.indexDocs = docs;
    return report;
  }

  /** Builds the live index of the last rebuild now, if it is not built yet (the engine calls it once the report is out). */
  prepareIndex(): void {
    this.liveIndex();
  }

  /** Whether the last rebuild's live index is still to be built (tests). */
  get indexPending(): boolean {
    return this.indexDocs !== null;
  }

  private liveIndex(): DocumentIndex | null {
    const docs = this.indexDocs;
    const options = this.options;
    if (docs && options) {
      const t0 = performance.now();
      this.indexDocs = null;
      const index = new DocumentIndex({ fileRadius: options.maxDistance, sectionRadius: options.sectionMaxDistance, sections: options.sections });
      for (const d of docs) index.set(d.path, d.doc);
      index.prepare();
      this.index = index;
      this.indexBuildMs = performance.now() - t0;
    }
    return this.index;
  }

  /** True when {@link update} (and {@link twins}) can be used (a rebuild happened with these options). */
  canUpdate(options: TwinOptions): boolean {
    const o = this.options;
    return !!o && o.maxDistance === options.maxDistance && o.sectionMaxDistance === options.sectionMaxDistance && o.minSimilarity === options.minSimilarity && o.sections === options.sections;
  }

  /**
   * `changed`: paths that were added, re-read or removed since the last rebuild/update; `docs`:
   * every current document (only the changed paths are looked up). Null when the pairs of a kind
   * would exceed the cap: the state is then undefined until the next {@link rebuild}.
   */
  update(changed: Iterable<string>, docs: ReadonlyMap<string, DocumentFingerprint>): Report | null {
    const options = this.options;
    const index = this.liveIndex();
    if (!options || !index) throw new Error('IncrementalReport.update before rebuild');
    const paths = [...new Set(changed)].sort();
    const dirty = new Set<string>();
    this.dirtyNodes = dirty;
    this.addedPairs = [];
    this.droppedPairs.clear();
    for (const p of paths) {
      this.dropPath(p);
      const doc = docs.get(p);
      if (doc) index.set(p, doc);
      else index.delete(p);
    }
    const done = new Set<string>();
    const exclude = (q: string) => done.has(q);
    const base = options.maxPairs ?? MAX_REPORT_PAIRS;
    const cut = this.truncated;
    // A cut report sits at the cap: a little room lets the saves of other files keep updating it.
    const cap = cut ? Math.floor(base * CUT_SLACK) : base;
    for (const p of paths) {
      const doc = docs.get(p);
      if (!doc) continue;
      // Collects the section matches up to the cap's room only (a generated file can pair its
      // sections by the hundred thousand): more means over the cap.
      const limit: TwinLimit = { maxPairs: cap - this.sectionCount, truncated: false };
      const matches = findTwinsIn(p, doc, index, options, exclude, limit);
      let files = 0;
      for (const m of matches) if (m.kind === 'file') files++;
      if (limit.truncated || this.fileCount + files > cap) {
        this.dirtyNodes = null;
        this.options = null; // no update before the rebuild
        return null;
      }
      for (const m of matches) {
        const self: Location = m.kind === 'file' ? { path: p } : { path: p, startLine: m.self!.startLine, endLine: m.self!.endLine };
        const other: Location = m.kind === 'file' ? { path: m.other.path } : { path: m.other.path, startLine: m.other.startLine, endLine: m.other.endLine };
        const [a, b] = ordered(self, other);
        this.add({ kind: m.kind, a, b, distance: m.distance, similarity: m.similarity, clone: m.clone });
      }
      done.add(p);
    }
    this.dirtyNodes = null;
    // Touched: the changed paths, and the other files of the pairs that really changed (a pair
    // dropped and found again alike changes nothing for the other file's items).
    const touched = new Set<string>(paths);
    const dropped = this.droppedPairs;
    for (const key of this.addedPairs) {
      const p = this.pairList[this.pairAt.get(key)!];
      const before = dropped.get(key);
      if (before && before.distance === p.distance && before.similarity === p.similarity && before.clone === p.clone) {
        dropped.delete(key);
        continue;
      }
      touched.add(p.a.path).add(p.b.path);
    }
    for (const [key, p] of dropped) if (!this.pairAt.has(key)) touched.add(p.a.path).add(p.b.path);
    dropped.clear();
    this.touched = touched;
    // (Over the cap was refused above, path by path.) A cut kind far below it: is it still cut?
    const uncut = (count: number) => count < base * UNCUT_SHARE;
    if (cut && ((cut.files && uncut(this.fileCount)) || (cut.sections && uncut(this.sectionCount)))) {
      this.options = null;
      return null;
    }
    this.regroup(dirty);
    return this.report();
  }

  /**
   * The twins of one document (e.g. unsaved text) among the indexed ones, when the index was
   * built with these thresholds; null otherwise (the caller then scans, see findTwins).
   */
  twins(selfPath: string, doc: DocumentFingerprint, options: TwinOptions, limit?: TwinLimit): QueryMatch[] | null {
    const index = this.liveIndex();
    if (!index || !this.canUpdate(options)) return null;
    return findTwinsIn(selfPath, doc, index, options, undefined, limit);
  }

  /** Pairs and groups from the current pairs (both unordered: the views sort what they show). */
  report(): Report {
    const groups: ReportGroup[] = [];
    for (const c of this.components) groups.push(c.group);
    const report: Report = { pairs: this.pairList.slice(), groups };
    if (this.truncated) report.truncated = { ...this.truncated };
    return report;
  }

  /** The current pairs (live: do not keep or modify). */
  pairs(): readonly ReportPair[] {
    return this.pairList;
  }

  /** The current pairs of one file. */
  pairsOf(path: string): ReportPair[] {
    const out: ReportPair[] = [];
    for (const key of this.byPath.get(path) ?? []) {
      const at = this.pairAt.get(key);
      if (at !== undefined) out.push(this.pairList[at]);
    }
    return out;
  }

  private add(p: ReportPair): void {
    const key = pairKey(p);
    const at = this.pairAt.get(key);
    if (at === undefined) {
      if (p.kind === 'file') this.fileCount++;
      else this.sectionCount++;
      this.pairAt.set(key, this.pairList.length);
      this.pairList.push(p);
      this.pairKeys.push(key);
    } else this.pairList[at] = p;
    let set = this.byPath.get(p.a.path);
    if (!set) this.byPath.set(p.a.path, (set = new Set()));
    set.add(key);
    if (p.b.path !== p.a.path) {
      set = this.byPath.get(p.b.path);
      if (!set) this.byPath.set(p.b.path, (set = new Set()));
      set.add(key);
    }
    if (this.dirtyNodes) {
      this.addedPairs.push(key);
      this.dirtyNodes.add(nodeKey(p.kind, p.a)).add(nodeKey(p.kind, p.b));
    }
  }

  private dropPath(path: string): void {
    const keys = this.byPath.get(path);
    if (!keys) return;
    this.byPath.delete(path);
    for (const key of keys) {
      const at = this.pairAt.get(key);
      if (at === undefined) continue;
      const p = this.pairList[at];
      this.removePair(key, at);
      const other = p.a.path === path ? p.b.path : p.a.path;
      this.byPath.get(other)?.delete(key);
      if (this.dirtyNodes) {
        this.droppedPairs.set(key, p);
        this.dirtyNodes.add(nodeKey(p.kind, p.a)).add(nodeKey(p.kind, p.b));
      }
    }
  }

  /** Deletes the pair at position `at` from the dense list (the last one takes its place). */
  private removePair(key: string, at: number): void {
    this.pairAt.delete(key);
    if (this.pairList[at].kind === 'file') this.fileCount--;
    else this.sectionCount--;
    const last = this.pairList.length - 1;
    if (at !== last) {
      const movedKey = this.pairKeys[last];
      this.pairList[at] = this.pairList[last];
      this.pairKeys[at] = movedKey;
      this.pairAt.set(movedKey, at);
    }
    this.pairList.pop();
    this.pairKeys.pop();
  }

  private register(c: Component): void {
    this.components.add(c);
    for (const n of c.nodes) this.componentOf.set(n, c);
  }

  /**
   * Recomputes the components around `dirty` (locations that lost or gained a pair): those
   * components are dissolved and their locations, with the dirty ones, regrouped by the current
   * pairs between them. (Every component of a changed document is among them: its fingerprints,
   * hence its view, changed.) A pair touching the region has both ends in it: an old pair joins
   * two locations of one old component, a new one two dirty locations.
   */
  private regroup(dirty: ReadonlySet<string>): void {
    const region = new Set<string>(dirty);
    const paths = new Set<string>();
    for (const node of dirty) {
      const c = this.componentOf.get(node);
      if (!c || !this.components.delete(c)) continue;
      for (let i = 0; i < c.nodes.length; i++) {
        if (this.componentOf.get(c.nodes[i]) === c) this.componentOf.delete(c.nodes[i]);
        region.add(c.nodes[i]);
        paths.add(c.locations[i].path);
      }
    }
    if (region.size === 0) return;
    // The current pairs of the region: those of its paths with an end in it. (A dirty location
    // outside every old component has only new pairs, whose paths are the changed ones or
    // their twins: reached through the other end, or through the changed path itself.)
    for (const node of dirty) paths.add(node.slice(2, node.startsWith('s|') ? node.lastIndexOf('#') : undefined));
    const uf = new UnionFind();
    const ids = new Map<string, number>();
    const nodes: string[] = [];
    const locations: Location[] = [];
    const kinds: Array<'file' | 'section'> = [];
    const id = (kind: 'file' | 'section', node: string, l: Location): number => {
      let i = ids.get(node);
      if (i === undefined) {
        i = nodes.length;
        ids.set(node, i);
        nodes.push(node);
        locations.push(l);
        kinds.push(kind);
      }
      return i;
    };
    const seen = new Set<string>();
    const maxAt = new Map<number, number>(); // a pair's first end → largest distance (merged below)
    const edges: Array<[number, number, number]> = [];
    for (const path of paths) {
      for (const key of this.byPath.get(path) ?? []) {
        if (seen.has(key)) continue;
        seen.add(key);
        const p = this.pairList[this.pairAt.get(key)!];
        const na = nodeKey(p.kind, p.a);
        const nb = nodeKey(p.kind, p.b);
        if (!region.has(na) && !region.has(nb)) continue;
        const a = id(p.kind, na, p.a);
        const b = id(p.kind, nb, p.b);
        uf.union(a, b);
        edges.push([a, b, p.distance]);
      }
    }
    for (const [a, , d] of edges) {
      const r = uf.find(a);
      if ((maxAt.get(r) ?? -1) < d) maxAt.set(r, d);
    }
    for (const members of uf.components()) {
      const r = uf.find(members[0]);
      this.register(makeComponent(kinds[members[0]], members.map((m) => locations[m]), maxAt.get(r) ?? 0));
    }
  }
}
