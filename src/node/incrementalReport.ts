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
 */
import { UnionFind } from '../core/clusters';
import { DocumentIndex } from '../core/documentIndex';
import { buildReport, type FingerprintedDocument, type Location, type Report, type ReportGroup, type ReportOptions, type ReportPair } from '../core/report';
import type { DocumentFingerprint } from '../core/types';
import type { QueryMatch } from './engineProtocol';
import { findTwinsIn, type TwinOptions } from './twins';

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
  /** Node keys of its members. */
  nodes: string[];
  /** Keys of its pairs. */
  pairs: string[];
  group: ReportGroup;
}

export class IncrementalReport {
  private readonly pairs = new Map<string, ReportPair>();
  /** The pairs in a dense array (report() copies it), and each key's position in it. */
  private readonly pairList: ReportPair[] = [];
  private readonly pairKeys: string[] = [];
  private readonly pairAt = new Map<string, number>();
  private readonly byPath = new Map<string, Set<string>>();
  private options: ReportOptions | null = null;
  private index: DocumentIndex | null = null;
  /** The component of each location that is in a pair, by node key. */
  private readonly componentOf = new Map<string, Component>();
  private readonly components = new Set<Component>();
  /** During an update: node keys whose pairs changed, keys of the pairs added, pairs dropped. */
  private dirtyNodes: Set<string> | null = null;
  private addedPairs: string[] = [];
  private droppedPairs = new Map<string, ReportPair>();
  /**
   * Paths whose pairs changed in the last rebuild/update (null: the last call was a rebuild, so
   * any path may have changed). The items of other paths are unchanged.
   */
  touched: Set<string> | null = null;

  /** Matches everything (buildReport). `docs` sorted by path. */
  rebuild(docs: readonly FingerprintedDocument[], options: ReportOptions): Report {
    this.options = { ...options };
    this.pairs.clear();
    this.pairList.length = 0;
    this.pairKeys.length = 0;
    this.pairAt.clear();
    this.byPath.clear();
    this.componentOf.clear();
    this.components.clear();
    this.dirtyNodes = null;
    this.addedPairs = [];
    this.touched = null;
    const report = buildReport(docs, options);
    for (const p of report.pairs) this.add(p);
    this.regroup([...this.pairs.keys()]);
    const index = new DocumentIndex({ fileRadius: options.maxDistance, sectionRadius: options.sectionMaxDistance, sections: options.sections });
    for (const d of docs) index.set(d.path, d.doc);
    index.prepare();
    this.index = index;
    return report;
  }

  /** True when {@link update} can be used (a rebuild happened with these options). */
  canUpdate(options: ReportOptions): boolean {
    const o = this.options;
    return !!o && o.maxDistance === options.maxDistance && o.sectionMaxDistance === options.sectionMaxDistance && o.minSimilarity === options.minSimilarity && o.sections === options.sections;
  }

  /**
   * `changed`: paths that were added, re-read or removed since the last rebuild/update; `docs`:
   * every current document (only the changed paths are looked up).
   */
  update(changed: Iterable<string>, docs: ReadonlyMap<string, DocumentFingerprint>): Report {
    const options = this.options;
    const index = this.index;
    if (!options || !index) throw new Error('IncrementalReport.update before rebuild');
    const paths = [...new Set(changed)].sort();
    this.touched = null;
    this.dirtyNodes = new Set();
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
    for (const p of paths) {
      const doc = docs.get(p);
      if (!doc) continue;
      for (const m of findTwinsIn(p, doc, index, options, exclude)) {
        const self: Location = m.kind === 'file' ? { path: p } : { path: p, startLine: m.self!.startLine, endLine: m.self!.endLine };
        const other: Location = m.kind === 'file' ? { path: m.other.path } : { path: m.other.path, startLine: m.other.startLine, endLine: m.other.endLine };
        const [a, b] = ordered(self, other);
        this.add({ kind: m.kind, a, b, distance: m.distance, similarity: m.similarity });
      }
      done.add(p);
    }
    // Touched: the changed paths, and the other files of the pairs that really changed (a pair
    // dropped and found again alike changes nothing for the other file's items).
    const touched = new Set<string>(paths);
    const dropped = this.droppedPairs;
    for (const key of this.addedPairs) {
      const p = this.pairs.get(key)!;
      const before = dropped.get(key);
      if (before && before.distance === p.distance && before.similarity === p.similarity) {
        dropped.delete(key);
        continue;
      }
      touched.add(p.a.path).add(p.b.path);
    }
    for (const p of dropped.values()) if (!this.pairs.has(pairKey(p))) touched.add(p.a.path).add(p.b.path);
    dropped.clear();
    this.touched = touched;
    const dirty = this.dirtyNodes;
    this.dirtyNodes = null;
    // The components that lost or gained a pair are recomputed from their pairs and the new ones.
    // (All components of the changed documents: their fingerprints, hence their views, changed.)
    const keys = new Set(this.addedPairs);
    this.addedPairs = [];
    for (const node of dirty) {
      const c = this.componentOf.get(node);
      if (!c || !this.components.delete(c)) continue;
      for (const k of c.pairs) keys.add(k);
      for (const n of c.nodes) if (this.componentOf.get(n) === c) this.componentOf.delete(n);
    }
    this.regroup(keys);
    return this.report();
  }

  /**
   * The twins of one document (e.g. unsaved text) among the indexed ones, when the index was
   * built with these thresholds; null otherwise (the caller then scans, see findTwins).
   */
  twins(selfPath: string, doc: DocumentFingerprint, options: TwinOptions): QueryMatch[] | null {
    if (!this.index || !this.canUpdate(options)) return null;
    return findTwinsIn(selfPath, doc, this.index, options);
  }

  /** Pairs and groups from the current pairs (both unordered: the views sort what they show). */
  report(): Report {
    const groups: ReportGroup[] = [];
    for (const c of this.components) groups.push(c.group);
    return { pairs: this.pairList.slice(), groups };
  }

  /** The current pairs of one file. */
  pairsOf(path: string): ReportPair[] {
    const out: ReportPair[] = [];
    for (const key of this.byPath.get(path) ?? []) {
      const p = this.pairs.get(key);
      if (p) out.push(p);
    }
    return out;
  }

  private add(p: ReportPair): void {
    const key = pairKey(p);
    const at = this.pairAt.get(key);
    if (at === undefined) {
      this.pairAt.set(key, this.pairList.length);
      this.pairList.push(p);
      this.pairKeys.push(key);
    } else this.pairList[at] = p;
    this.pairs.set(key, p);
    for (const path of [p.a.path, p.b.path]) {
      let set = this.byPath.get(path);
      if (!set) this.byPath.set(path, (set = new Set()));
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
      const p = this.pairs.get(key);
      if (!p) continue;
      this.removePair(key);
      const other = p.a.path === path ? p.b.path : p.a.path;
      this.byPath.get(other)?.delete(key);
      if (this.dirtyNodes) {
        this.droppedPairs.set(key, p);
        this.dirtyNodes.add(nodeKey(p.kind, p.a)).add(nodeKey(p.kind, p.b));
      }
    }
  }

  /** Deletes a pair from the map and the dense list (the last one takes its place). */
  private removePair(key: string): void {
    this.pairs.delete(key);
    const at = this.pairAt.get(key)!;
    this.pairAt.delete(key);
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

  /** Makes the components of the current pairs among `keys` (absent keys are skipped). */
  private regroup(keys: Iterable<string>): void {
    const uf = new UnionFind();
    const nodeIds = new Map<string, number>();
    const nodes: string[] = [];
    const locations: Location[] = [];
    const kinds: Array<'file' | 'section'> = [];
    const id = (kind: 'file' | 'section', l: Location): number => {
      const k = nodeKey(kind, l);
      let i = nodeIds.get(k);
      if (i === undefined) {
        i = nodes.length;
        nodeIds.set(k, i);
        nodes.push(k);
        locations.push(l);
        kinds.push(kind);
      }
      return i;
    };
    const present: Array<{ key: string; a: number; distance: number }> = [];
    for (const key of keys) {
      const p = this.pairs.get(key);
      if (!p) continue;
      const a = id(p.kind, p.a);
      const b = id(p.kind, p.b);
      uf.union(a, b);
      present.push({ key, a, distance: p.distance });
    }
    if (present.length === 0) return;
    const byRoot = new Map<number, { members: number[]; pairs: string[]; maxDistance: number }>();
    for (const members of uf.components()) byRoot.set(uf.find(members[0]), { members, pairs: [], maxDistance: 0 });
    for (const { key, a, distance } of present) {
      const c = byRoot.get(uf.find(a))!;
      c.pairs.push(key);
      if (distance > c.maxDistance) c.maxDistance = distance;
    }
    for (const c of byRoot.values()) {
      const kind = kinds[c.members[0]];
      const locs = c.members.map((m) => locations[m]).sort(compareLocations);
      const group: ReportGroup =
        kind === 'file'
          ? { kind, members: locs.map((l) => l.path), maxDistance: c.maxDistance }
          : { kind, members: locs.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), maxDistance: c.maxDistance, locations: locs };
      const component: Component = { nodes: c.members.map((m) => nodes[m]), pairs: c.pairs, group };
      this.components.add(component);
      for (const n of component.nodes) this.componentOf.set(n, component);
    }
  }
}
