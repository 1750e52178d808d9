/**
 * Keeps the pairs of a report up to date when a few documents change, without matching the whole
 * workspace again. Every rule of buildReport only looks at the two documents of a pair (the
 * distance and sketch checks, "no section pairs between files that pair as files", "no
 * overlapping sections of one file", "only the outermost of nested section pairs"), so the
 * pairs of untouched documents stay valid: drop the pairs of the changed documents and match
 * each of them against all others ({@link findTwins}, the same rules as a linear scan). Groups
 * are then re-clustered from all pairs (cheap). A full {@link buildReport} is the reference; a
 * unit test checks both agree.
 */
import { clusterPairs } from '../core/clusters';
import { buildReport, type FingerprintedDocument, type Location, type Report, type ReportGroup, type ReportOptions, type ReportPair } from '../core/report';
import type { DocumentFingerprint } from '../core/types';
import { findTwins } from './twins';

function locKey(l: Location): string {
  return l.startLine === undefined ? l.path : `${l.path}#${l.startLine}-${l.endLine}`;
}

function pairKey(p: ReportPair): string {
  return `${p.kind}|${locKey(p.a)}|${locKey(p.b)}`;
}

/** The order of buildReport's pairs: by path, then first line. */
function ordered(x: Location, y: Location): [Location, Location] {
  return x.path > y.path || (x.path === y.path && (x.startLine ?? 0) > (y.startLine ?? 0)) ? [y, x] : [x, y];
}

export class IncrementalReport {
  private readonly pairs = new Map<string, ReportPair>();
  private readonly byPath = new Map<string, Set<string>>();
  private options: ReportOptions | null = null;
  /**
   * Paths whose pairs changed in the last rebuild/update (null: the last call was a rebuild, so
   * any path may have changed). The items of other paths are unchanged.
   */
  touched: Set<string> | null = null;

  /** Matches everything (buildReport). `docs` sorted by path. */
  rebuild(docs: readonly FingerprintedDocument[], options: ReportOptions): Report {
    this.options = { ...options };
    this.pairs.clear();
    this.byPath.clear();
    this.touched = null;
    const report = buildReport(docs, options);
    for (const p of report.pairs) this.add(p);
    return report;
  }

  /** True when {@link update} can be used (a rebuild happened with these options). */
  canUpdate(options: ReportOptions): boolean {
    const o = this.options;
    return !!o && o.maxDistance === options.maxDistance && o.sectionMaxDistance === options.sectionMaxDistance && o.minSimilarity === options.minSimilarity && o.sections === options.sections;
  }

  /**
   * `changed`: paths that were added, re-read or removed since the last rebuild/update; `docs`:
   * every current document.
   */
  update(changed: Iterable<string>, docs: ReadonlyMap<string, DocumentFingerprint>): Report {
    const options = this.options;
    if (!options) throw new Error('IncrementalReport.update before rebuild');
    const paths = [...new Set(changed)].sort();
    const touched = new Set<string>(paths);
    this.touched = touched;
    for (const p of paths) this.dropPath(p);
    const done = new Set<string>();
    for (const p of paths) {
      const doc = docs.get(p);
      if (!doc) continue;
      const others = (function* () {
        for (const entry of docs) if (!done.has(entry[0])) yield entry;
      })();
      for (const m of findTwins(p, doc, others, options)) {
        const self: Location = m.kind === 'file' ? { path: p } : { path: p, startLine: m.self!.startLine, endLine: m.self!.endLine };
        const other: Location = m.kind === 'file' ? { path: m.other.path } : { path: m.other.path, startLine: m.other.startLine, endLine: m.other.endLine };
        const [a, b] = ordered(self, other);
        this.add({ kind: m.kind, a, b, distance: m.distance, similarity: m.similarity });
        touched.add(other.path);
      }
      done.add(p);
    }
    return this.report();
  }

  /** Pairs (closest first) and groups from the current pairs. */
  report(): Report {
    // Unordered (the views sort what they show): sorting 10^4 pairs per keystroke-save is waste.
    const pairs = [...this.pairs.values()];
    const groups: ReportGroup[] = [];
    for (const kind of ['file', 'section'] as const) {
      const ids = new Map<string, number>();
      const locs: Location[] = [];
      const id = (l: Location) => {
        const k = locKey(l);
        let i = ids.get(k);
        if (i === undefined) {
          i = locs.length;
          ids.set(k, i);
          locs.push(l);
        }
        return i;
      };
      const edges = pairs.filter((p) => p.kind === kind).map((p) => ({ a: id(p.a), b: id(p.b), distance: p.distance }));
      for (const c of clusterPairs(edges)) {
        const members = c.members.map((m) => locs[m]);
        if (kind === 'file') groups.push({ kind, members: members.map((m) => m.path), maxDistance: c.maxDistance });
        else groups.push({ kind, members: members.map((m) => `${m.path}:${m.startLine}-${m.endLine}`), maxDistance: c.maxDistance, locations: members });
      }
    }
    return { pairs, groups };
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
    this.pairs.set(key, p);
    for (const path of [p.a.path, p.b.path]) {
      let set = this.byPath.get(path);
      if (!set) this.byPath.set(path, (set = new Set()));
      set.add(key);
    }
  }

  private dropPath(path: string): void {
    const keys = this.byPath.get(path);
    if (!keys) return;
    this.byPath.delete(path);
    for (const key of keys) {
      const p = this.pairs.get(key);
      if (!p) continue;
      this.pairs.delete(key);
      const other = p.a.path === path ? p.b.path : p.a.path;
      this.byPath.get(other)?.delete(key);
      this.touched?.add(other);
    }
  }
}
