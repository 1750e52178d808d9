/**
 * The engine's reports made the views' state: the latest report and its items by file. A report
 * is applied in short slices ({@link HostTasks}) and whole or not at all: the views see the
 * previous report until the new one (or a newer one that arrived meanwhile) is complete. Fires
 * the items that changed, then the report. Part of {@link IndexService}.
 */
import * as vscode from 'vscode';
import { truncatedKinds, type ViewItem, type ViewReport } from '../../node/engine/engineProtocol';
import type { HostTasks, Slice } from '../hostTasks';
import type { OutputLog } from '../outputLog';
import type { JobTracker } from './jobTracker';

export interface ReportTiming {
  /** From the engine finishing the report to the host receiving its last part. */
  handoverMs: number;
  /** From receiving it to the views being told (wall time, yields between slices included). */
  applyMs: number;
  /** Slices (tasks) the merge took, and the longest. */
  slices: number;
  maxSliceMs: number;
  /** Time of the listeners of the new items (diagnostics) and of the new report (views). */
  diagnosticsMs: number;
  viewsMs: number;
  /** Reports merged into this one (more than 1: newer reports arrived while it was applied). */
  reports: number;
  changedFiles: number;
}

/** Which files' items (near duplicates, for diagnostics) changed with a report. */
export interface ItemsChange {
  /** All files: forget everything and take {@link IndexService.itemsOf} for each of `paths`. */
  full: boolean;
  /** Files whose items changed (possibly to none). Not to be modified. */
  paths: readonly string[];
}

export class ReportApplier {
  private _report: ViewReport | undefined;
  /** Of the last report: engine → host hand-over, and the time the views took to apply it. */
  lastReportTiming: ReportTiming | undefined;
  /** Items of the current report by file. Replaced, never modified, when a report is applied. */
  private itemsByPath = new Map<string, ViewItem[]>();
  /** Reports received and not applied yet (oldest first), and whether a job is applying them. */
  private readonly incoming: Array<{ report: ViewReport; received: number; at: number }> = [];
  private _applying = false;
  private appliedWaiters: Array<() => void> = [];
  private disposed = false;
  private readonly updateEmitter = new vscode.EventEmitter<ViewReport>();
  private readonly itemsEmitter = new vscode.EventEmitter<ItemsChange>();
  /** A new report; its items are complete. */
  readonly onDidUpdate = this.updateEmitter.event;
  /** The items of some files changed (fires before onDidUpdate). */
  readonly onDidChangeItems = this.itemsEmitter.event;

  constructor(
    private readonly tasks: HostTasks,
    private readonly log: OutputLog,
    private readonly jobs: JobTracker,
  ) {}

  get report(): ViewReport | undefined {
    return this._report;
  }

  /** A job is applying reports. */
  get applying(): boolean {
    return this._applying;
  }

  /** The near-duplicate items (file and sections) of one file. */
  itemsOf(fsPath: string): readonly ViewItem[] {
    return this.itemsByPath.get(fsPath) ?? [];
  }

  /**
   * Files that have near duplicates, in the current state (whose map is replaced, never modified:
   * the iterator stays valid across yields, and goes on listing that state).
   */
  pathsWithItems(): Iterable<string> {
    return this.itemsByPath.keys();
  }

  /** A whole report from the engine: applied by a sliced job, after those received before it. */
  receive(report: ViewReport): void {
    this.incoming.push({ report, received: Date.now(), at: performance.now() });
    if (this._applying) return;
    this._applying = true;
    void this.tasks
      .run('report', (s) => this.applyReports(s))
      .catch((e) => {
        this.incoming.length = 0;
        this.log.error(`cannot apply a report: ${(e as Error)?.message ?? String(e)}`);
      })
      .finally(() => {
        this._applying = false;
        for (const w of this.appliedWaiters.splice(0)) w();
        this.jobs.check();
      });
  }

  /** Resolves when every report received so far is applied. */
  whenApplied(): Promise<void> {
    if (!this._applying) return Promise.resolve();
    return new Promise((resolve) => this.appliedWaiters.push(resolve));
  }

  /** Stops applying, releases the waiters. */
  dispose(): void {
    this.disposed = true;
    for (const w of this.appliedWaiters.splice(0)) w();
    this.updateEmitter.dispose();
    this.itemsEmitter.dispose();
  }

  /**
   * Applies the received reports in slices. The items of the next state are staged in a new map
   * (a copy of the current one, for a report of changes) while the views keep the current one;
   * the new state replaces it in one step. Reports that arrive meanwhile are merged into the
   * staged state first: the views go straight to the newest report.
   */
  private async applyReports(s: Slice): Promise<void> {
    while (this.incoming.length > 0 && !this.disposed) {
      const first = this.incoming[0];
      let latest = first;
      let staged: Map<string, ViewItem[]> | undefined;
      let full = false;
      let changed = new Set<string>();
      let merged = 0;
      // Files the merged reports' jobs read: a save's report and its located copies' (reread 0)
      // applied together still say the save's read.
      let reread = 0;
      while (this.incoming.length > 0) {
        const next = this.incoming.shift()!;
        const r = next.report;
        latest = next;
        merged++;
        reread += r.lastJob?.reread ?? 0;
        if (r.full) {
          staged = new Map();
          full = true;
          changed = new Set();
        } else if (!staged) {
          staged = new Map();
          // The current map changes only here (below, once staged): a stable source across yields.
          for (const [p, list] of this.itemsByPath) {
            staged.set(p, list);
            if (s.due) await s.yield();
          }
        }
        for (const p of r.clearedPaths) {
          staged.delete(p);
          changed.add(p);
          if (s.due) await s.yield();
        }
        // All items of a changed file come in the report: they replace that file's items.
        const fresh = new Set<string>();
        for (const item of r.items) {
          const p = item.loc.path;
          if (fresh.has(p)) staged.get(p)!.push(item);
          else {
            fresh.add(p);
            staged.set(p, [item]);
            changed.add(p);
          }
          if (s.due) await s.yield();
        }
        if (this.disposed) return;
      }
      if (!staged) continue;
      this.itemsByPath = staged;
      this.noteTruncation(this._report?.truncated, latest.report.truncated);
      const last = latest.report.lastJob;
      this._report = viewReport(last && last.reread !== reread ? { ...latest.report, lastJob: { ...last, reread } } : latest.report, staged);
      const paths = [...changed];
      const t1 = performance.now();
      this.itemsEmitter.fire({ full, paths });
      const t2 = performance.now();
      this.updateEmitter.fire(this._report);
      const t3 = performance.now();
      this.lastReportTiming = {
        handoverMs: latest.received - latest.report.createdAt,
        applyMs: +(t3 - first.at).toFixed(1),
        slices: s.tasks,
        maxSliceMs: +Math.max(s.maxMs, s.elapsedMs).toFixed(1),
        diagnosticsMs: +(t2 - t1).toFixed(1),
        viewsMs: +(t3 - t2).toFixed(1),
        reports: merged,
        changedFiles: paths.length,
      };
      this.log.channel.trace(
        `report ${latest.report.generation}: ${latest.report.groups.length} groups, ${changed.size} files changed` +
          (merged > 1 ? ` (${merged} reports merged)` : '') +
          `; handed over in ${this.lastReportTiming.handoverMs} ms, applied in ${this.lastReportTiming.applyMs} ms`,
      );
      if (s.due) await s.yield();
    }
  }

  /** One line in the output when a report starts or stops holding only some of its pairs. */
  private noteTruncation(before: ViewReport['truncated'], now: ViewReport['truncated']): void {
    const kinds = truncatedKinds(now);
    if (kinds === truncatedKinds(before)) return;
    if (kinds) {
      this.log.warn(
        `too many near-duplicate ${kinds} pairs: the results hold only some of them. ` +
          'Exclude generated files with the neardup.exclude setting.',
      );
    } else this.log.info('the results hold every near-duplicate pair again');
  }
}

/**
 * The report the views get: the engine's, with every item (the engine sends only those that
 * changed). The flat list of items is made when first read (the API's getReport), from the map of
 * that state, which is never modified.
 */
function viewReport(r: ViewReport, byPath: ReadonlyMap<string, ViewItem[]>): ViewReport {
  let items: ViewItem[] | undefined;
  const report: ViewReport = { ...r, clearedPaths: [], full: true };
  Object.defineProperty(report, 'items', { enumerable: true, configurable: true, get: () => (items ??= [...byPath.values()].flat()) });
  return report;
}
