/**
 * The engine's report: matched (a few changed documents incrementally, on the live index; else
 * from scratch; chosen by the measured costs), made into the view the extension shows (each
 * file's items, the groups, the located copies, the share of lines in near duplicates) and posted
 * as an event that carries only the files whose items changed since the last (`delta`). Also what
 * the Overview and the HTML report read of it. EngineState provides the host and keeps one.
 */
import type { FingerprintedDocument, Report, ReportOptions, ReportPair } from '../../../core/report/report';
import type { EngineSettings } from '../../settings/engineSettings';
import type { BaselineMarks } from '../../baseline/baselineMarks';
import { nativeKernel } from '../../workers/nativeKernel';
import type { DocumentEntries, IndexEntry } from '../documentEntries';
import { MAX_SHARE_FOLDERS, type EngineEvent, type IndexStats, type LineShare, type OverviewData, type Thresholds, type ViewItem, type ViewReport } from '../engineProtocol';
import { htmlScanOf, type HtmlScanData } from '../export/htmlScanData';
import { IncrementalReport } from '../incrementalReport';
import type { EngineRegions } from '../regions/engineRegions';
import { buildOverview, ReportViewBuilder } from '../reportView';
import { SentItems } from './sentItems';

/** The engine's parts its report needs (EngineState provides them). */
export interface EngineReportHost {
  entries: Pick<DocumentEntries<IndexEntry>, 'docs' | 'sections' | 'lines' | 'linesByFolder' | 'linesOf'>;
  regions: Pick<EngineRegions, 'takeTouched' | 'allPairs' | 'pairsOf' | 'groups' | 'merged'>;
  baselines: Pick<BaselineMarks, 'mark'>;
  /** The settings (undefined: the engine is not initialised). */
  settings(): EngineSettings | undefined;
  thresholds(): Thresholds;
  /** The workspace folders (absolute). */
  roots(): string[];
  /** A file's folder for the share of lines (../indexing/engineRules.ts). */
  folderOf(abs: string): string;
  emit(event: EngineEvent): void;
}

/**
 * Files whose pairs a view takes from a report's merge of every located pair (regions.merged)
 * rather than merging each file's own: below this, the files' own merges cost less than a pass
 * over every pair.
 */
const MERGED_VIEW_MIN_FILES = 32;

/** The pairs of each of `paths` in `pairs`, in their order (a pair of one file with itself once). */
function pairsByPath(pairs: readonly ReportPair[], paths: ReadonlySet<string>): Map<string, ReportPair[]> {
  const out = new Map<string, ReportPair[]>();
  const put = (path: string, p: ReportPair) => {
    if (!paths.has(path)) return;
    const list = out.get(path);
    if (list) list.push(p);
    else out.set(path, [p]);
  };
  for (const p of pairs) {
    put(p.a.path, p);
    if (p.b.path !== p.a.path) put(p.b.path, p);
  }
  return out;
}

export class EngineReport {
  /** The matches: the pairs of the last report and the live index a few changes are matched on. */
  readonly matcher = new IncrementalReport();
  /** The view of the matches: each file's items, the groups, the lines in near duplicates. */
  readonly views = new ReportViewBuilder();
  /** The last report (null: none yet). */
  current: ViewReport | null = null;
  private generation = 0;
  /** Per file, the items last sent in a report event (to send only what changed). */
  private sentItems = new SentItems();
  private sentAny = false;
  /** Time of the last full match (ms), and of an incremental one per changed document. */
  private rebuildMs = Infinity;
  private incrementalMsPerDoc = 1;

  constructor(
    private readonly h: EngineReportHost,
    /** Batches touching more files than this are matched from scratch. */
    private readonly incrementalLimit: number,
    private readonly maxPairs: number | undefined,
  ) {}

  /** The whole current report (every item); made now, not posted, if there is none yet. */
  all(): ViewReport {
    const view = this.current ?? this.compute(null, false);
    return { ...view, items: this.h.baselines.mark(this.views.allItems()), clearedPaths: [], full: true };
  }

  /** The last report posted again as a new generation, every file's items compared (the baselines changed). */
  resend(): void {
    if (!this.current) return;
    this.h.emit({ type: 'report', report: this.delta((this.current = { ...this.current, generation: ++this.generation, createdAt: Date.now(), lastJob: null }), null) });
  }

  /**
   * Matches and stores the report; posts it as an event unless `post` is false. `changed`: the
   * documents that changed since the last report, when few: matched incrementally.
   */
  compute(lastJob: IndexStats | null, post = true, changed?: Set<string>): ViewReport {
    const options: ReportOptions = { ...this.h.thresholds(), sections: this.h.settings()?.sections ?? true, kernel: nativeKernel(), maxPairs: this.maxPairs };
    const docs = this.h.entries.docs; // live: not kept beyond this call
    const sections = this.h.entries.sections;
    const t0 = performance.now();
    let report: Report | null = null;
    // Incremental matching queries the live index once per changed document (its cost grows with
    // the changes and their candidates): cheaper than a full match for a few changes, dearer for a
    // branch switch. Choose by the measured costs.
    const incremental =
      !!changed &&
      changed.size <= this.incrementalLimit &&
      this.matcher.canUpdate(options) &&
      (changed.size <= 2 || changed.size * this.incrementalMsPerDoc <= this.rebuildMs);
    if (incremental) {
      // Null when a kind would go over the pair cap: matched from scratch below, which cuts.
      report = this.matcher.update(changed, docs);
      if (changed.size > 0) {
        const perDoc = (performance.now() - t0) / changed.size;
        this.incrementalMsPerDoc = 0.7 * this.incrementalMsPerDoc + 0.3 * perDoc;
      }
    }
    const rebuilt = !report;
    if (!report) {
      const list: FingerprintedDocument[] = [...docs].map(([p, doc]) => ({ path: p, doc }));
      list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      report = this.matcher.rebuild(list, options);
      // (with the live index it builds after the report: its last build's time)
      this.rebuildMs = performance.now() - t0 + this.matcher.indexBuildMs;
    }
    const located = this.h.regions.takeTouched();
    const touched = rebuilt || located === null ? null : located ? new Set([...(this.matcher.touched ?? []), ...located]) : this.matcher.touched;
    // Every located pair merged at once when the groups place them all again (regions.merged):
    // the view's files then take their pairs from it, when many, rather than merging file by file.
    const merge = this.h.regions.merged(this.matcher.pairs(), touched);
    const mergedOf = merge && touched && touched.size >= MERGED_VIEW_MIN_FILES ? pairsByPath(merge.pairs, touched) : undefined;
    const built = this.views.build(
      touched ? report : { ...report, pairs: this.h.regions.allPairs(report.pairs, merge) },
      docs,
      touched,
      mergedOf ? (p) => mergedOf.get(p) ?? [] : (p) => this.h.regions.pairsOf(p, this.matcher.pairsOf(p)),
      (p) => {
        const doc = this.h.entries.docs.get(p);
        return doc ? { lines: this.h.entries.linesOf(p), kind: doc.kind, folder: this.h.folderOf(p) } : undefined;
      },
    );
    const [groups, rebuiltPaths] = [this.h.regions.groups(built.groups, () => this.matcher.pairs(), touched, (p) => this.matcher.pairsOf(p), merge), built.rebuilt];
    const matchMs = Math.round(performance.now() - t0);
    if (lastJob) lastJob.matchMs = matchMs;
    const view: ViewReport = {
      generation: ++this.generation,
      createdAt: Date.now(),
      files: docs.size,
      sections,
      pairs: report.pairs.length,
      groups,
      items: [],
      clearedPaths: [],
      full: false,
      thresholds: { ...this.h.thresholds() },
      lastJob: lastJob ? { ...lastJob } : null,
      lineShare: this.lineShare(),
    };
    if (report.truncated) view.truncated = { ...report.truncated };
    this.current = view;
    if (post) this.h.emit({ type: 'report', report: this.delta(view, rebuiltPaths) });
    // The live index of a full match is built once the report is out (while the located copies
    // are found off this thread), or at its first use if that comes sooner.
    if (rebuilt) setImmediate(() => this.matcher.prepareIndex());
    return view;
  }

  /**
   * The report as an event: the items of the files whose items changed since the last event
   * (`rebuilt`: the only files that can have changed; null: any). The first event has them all.
   */
  private delta(view: ViewReport, rebuilt: ReadonlySet<string> | null): ViewReport {
    const full = !this.sentAny;
    this.sentAny = true;
    const paths = full || !rebuilt ? new Set([...this.views.paths(), ...this.sentItems.paths()]) : rebuilt;
    const items: ViewItem[] = [];
    const clearedPaths: string[] = [];
    for (const p of paths) {
      const list = this.h.baselines.mark(this.views.itemsOf(p));
      if (!list) {
        if (this.sentItems.delete(p) && !full) clearedPaths.push(p);
        continue;
      }
      if (this.sentItems.offer(p, list) || full) items.push(...list);
    }
    return { ...view, items, clearedPaths, full };
  }

  /** The index as a scan's result, for the HTML report (EngineState.htmlScan). */
  htmlScan(): HtmlScanData {
    return htmlScanOf(this.h.roots(), this.h.entries, this.matcher.pairs(), this.current?.groups ?? []);
  }

  /** The Overview's data (on request: O(files), in the engine worker). */
  overview(): OverviewData {
    const files: Array<{ path: string; lines: number; duplicated: number }> = [];
    for (const p of this.h.entries.docs.keys()) files.push({ path: p, lines: this.h.entries.linesOf(p) ?? 0, duplicated: this.views.duplicatedOf(p) });
    return buildOverview(files, this.h.roots(), this.matcher.pairs(), this.current?.groups ?? [], (p) => this.h.entries.linesOf(p), this.h.thresholds());
  }

  /**
   * The share of lines in near duplicates: totals kept by the entries, duplicated lines kept by
   * the views (both updated as files change: the work per report grows with the folders only).
   */
  private lineShare(): LineShare {
    const duplicated = this.views.duplicatedByKind;
    const folders = [...this.views.duplicatedByFolder]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_SHARE_FOLDERS)
      .map(([folder, dup]) => ({ folder, lines: this.h.entries.linesByFolder.get(folder) ?? 0, duplicated: dup }));
    const { code, prose } = this.h.entries.lines;
    return { code: { lines: code, duplicated: duplicated.code }, prose: { lines: prose, duplicated: duplicated.prose }, folders };
  }
}
