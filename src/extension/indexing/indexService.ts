/**
 * Owns the engine worker and keeps its index in step with the workspace: the first index, saves
 * (at once, with the editor's text: see live/saveEchoes.ts), file events (coalesced), settings
 * and folder changes. Holds the latest report for the views. Runs
 * nothing heavy itself: walking, reading, hashing and matching all happen in the engine worker.
 * What it does with large data — a report of many files, a flood of file events — runs in short
 * slices ({@link HostTasks}), and a report is applied whole or not at all: the views see the
 * previous report until the new one (or a newer one that arrived meanwhile) is complete.
 * A crashed engine is restarted by its supervisor (see EngineClient); this logs one line per
 * crash and one when it is given up, never a popup.
 *
 * The public face of the folder; its parts: {@link EngineSession} (the engine's start, events,
 * crashes and the state they set), {@link FileEventFeed} (file events and saves to the engine),
 * {@link ReportApplier} (reports made the views' state) and {@link JobTracker} (whenIdle).
 */
import * as vscode from 'vscode';
import type { DebugCrashRequest, IndexStats, InitResult, OverviewData, QueryResult, TextQueryResult, UpdateResult, ViewItem, ViewLocation, ViewReport } from '../../node/engine/engineProtocol';
import type { HostTasks } from '../hostTasks';
import type { OutputLog } from '../outputLog';
import type { Settings, SettingsChangeEvent } from '../settings';
import type { EngineClient } from './engineClient';
import { EngineSession, type IndexProgress, type IndexState } from './engineSession';
import { FileEventFeed } from './fileEventFeed';
import { JobTracker } from './jobTracker';
import { ReportApplier, type ItemsChange, type ReportTiming } from './reportApplier';

export type { IndexProgress, IndexState } from './engineSession';
export type { ItemsChange, ReportTiming } from './reportApplier';
export { DEBOUNCE_MS, UNSAVED_WAIT_MAX_MS } from './fileEventFeed';

export class IndexService implements vscode.Disposable {
  private readonly jobs: JobTracker;
  private readonly engine: EngineSession;
  private readonly reports: ReportApplier;
  private readonly files: FileEventFeed;
  private readonly disposables: vscode.Disposable[] = [];
  private started = false;
  private startedAt = performance.now();

  /** Stats of the last full index (walk). */
  lastIndexStats: IndexStats | undefined;
  /** Time from activation to the end of the first index. */
  firstIndexMs: number | undefined;
  private readonly jobEmitter = new vscode.EventEmitter<Promise<unknown>>();
  /** A new report (after indexing, a file event or a threshold change); its items are complete. */
  readonly onDidUpdate: vscode.Event<ViewReport>;
  /** The items of some files changed (fires before onDidUpdate). */
  readonly onDidChangeItems: vscode.Event<ItemsChange>;
  /** State or progress changed. */
  readonly onDidChangeState: vscode.Event<void>;
  /** A full index job started (the promise settles when it ends). */
  readonly onDidStartIndexing = this.jobEmitter.event;

  constructor(
    engineScript: string,
    cachePath: string | null,
    private readonly settings: Settings,
    private readonly log: OutputLog,
    private readonly tasks: HostTasks,
  ) {
    // Nothing to do: no request, no event waiting, no job in the engine, no slice of ours pending.
    this.jobs = new JobTracker(() => this.files.idle && !this.reports.applying && this.tasks.idle && !this.engine.indexing && this.started);
    this.engine = new EngineSession(engineScript, cachePath, settings, log, tasks, this.jobs, (report) => this.reports.receive(report));
    this.reports = new ReportApplier(tasks, log, this.jobs);
    this.files = new FileEventFeed(tasks, log, this.engine, this.jobs, {
      walked: (stats) => {
        this.lastIndexStats = stats;
      },
      rewalk: () => void this.reindex(false),
    });
    this.onDidUpdate = this.reports.onDidUpdate;
    this.onDidChangeItems = this.reports.onDidChangeItems;
    this.onDidChangeState = this.engine.onDidChangeState;
    const offIdle = tasks.onIdle(() => this.jobs.check());
    this.disposables.push(
      { dispose: offIdle },
      this.jobEmitter,
      settings.onDidChange((e) => this.onSettingsChanged(e)),
      settings.onDidChangeRoots(() => void this.reindex(true)),
    );
  }

  get state(): IndexState {
    return this.engine.state;
  }

  get report(): ViewReport | undefined {
    return this.reports.report;
  }

  /** The near-duplicate items (file and sections) of one file. */
  itemsOf(fsPath: string): readonly ViewItem[] {
    return this.reports.itemsOf(fsPath);
  }

  /**
   * Files that have near duplicates, in the current state (whose map is replaced, never modified:
   * the iterator stays valid across yields, and goes on listing that state).
   */
  pathsWithItems(): Iterable<string> {
    return this.reports.pathsWithItems();
  }

  get progress(): IndexProgress | undefined {
    return this.engine.progress;
  }

  get cacheStatus(): InitResult | undefined {
    return this.engine.cacheStatus;
  }

  /** Stats of the last batch of file events (or save). */
  get lastUpdateStats(): UpdateResult | undefined {
    return this.files.lastUpdateStats;
  }

  /** Of the last report: engine → host hand-over, and the time the views took to apply it. */
  get lastReportTiming(): ReportTiming | undefined {
    return this.reports.lastReportTiming;
  }

  /** Saves sent to the engine so far (a save path, not a batch of file events). */
  get savesSent(): number {
    return this.files.savesSent;
  }

  /** File events of files open with unsaved changes, held until the document is clean (FileEventFeed.queueEvent). */
  get eventsWhileUnsaved(): number {
    return this.files.eventsWhileUnsaved;
  }

  /** Starts watching and runs the first index (call after activation returned). */
  start(): void {
    this.startedAt = performance.now();
    this.started = true;
    this.disposables.push(...this.files.watch());
    void this.reindex(false).then(() => {
      this.firstIndexMs ??= Math.round(performance.now() - this.startedAt);
    });
  }

  /** Walks every folder again and re-reads what changed (the Refresh command). */
  refresh(): Promise<void> {
    return this.reindex(true);
  }

  /** Stops the engine and starts a new one from the cache (tests: a warm start). */
  async restart(): Promise<IndexStats | undefined> {
    await this.jobs.track(this.engine.restart());
    await this.reindex(false);
    return this.lastIndexStats;
  }

  /** Stops the running index job (the notification's Cancel). */
  cancelIndexing(): Promise<boolean> {
    if (!this.client.running) return Promise.resolve(false);
    return this.client.request({ type: 'cancel' }).then(
      (r) => r.cancelled,
      () => false,
    );
  }

  /** Batches of file events sent to the engine so far. */
  get eventBatches(): number {
    return this.files.batches;
  }

  /** Engine restarts after crashes so far. */
  get engineRestarts(): number {
    return this.client.restarts;
  }

  /**
   * Fault injection for tests: `kill` terminates the engine worker from outside; `exit`, `throw`
   * and `oom` make it die from inside; `pool` terminates one of its fingerprint workers.
   */
  async debugCrash(how: 'kill' | NonNullable<DebugCrashRequest['how']> | 'pool'): Promise<boolean> {
    if (!this.client.running) return false;
    if (how === 'kill') return this.client.kill();
    if (how === 'pool') return (await this.client.request({ type: 'debugCrash', target: 'pool' })).terminated > 0;
    void this.client.request({ type: 'debugCrash', target: 'engine', how }).catch(() => undefined);
    return true;
  }

  /** Near duplicates of one file (of `text` when given: an unsaved editor). */
  async query(uri: vscode.Uri, text?: string): Promise<QueryResult> {
    if (uri.scheme !== 'file') return { status: 'outside', matches: [] };
    if (!(await this.engine.ensureEngine())) return { status: 'outside', matches: [] };
    return this.jobs.track(this.client.request({ type: 'queryFile', path: uri.fsPath, text }));
  }

  /** Where a block of text (a paste into `uri`, whose language it takes) matches the index: fingerprinted in the engine worker. */
  async matchText(uri: vscode.Uri, text: string): Promise<TextQueryResult | undefined> {
    if (uri.scheme !== 'file' || !(await this.engine.ensureEngine())) return undefined;
    return this.jobs.track(this.client.request({ type: 'matchText', path: uri.fsPath, text }));
  }

  /** The Overview's data (folders, files, distances, largest groups), from the engine. */
  async overview(): Promise<OverviewData | undefined> {
    if (!(await this.engine.ensureEngine())) return undefined;
    return this.jobs.track(this.client.request({ type: 'overview' }));
  }

  /** The folders' baseline files (extension/baseline): read by the engine now and after every start. */
  setBaselines(sources: Array<{ root: string; file: string }>): Promise<void> {
    return this.engine.setBaselines(sources);
  }

  /** Some folder has a baseline file (the panel then looks for baseline groups). */
  get baselinesInUse(): boolean {
    return this.engine.baselinesInUse;
  }

  /** *Add to baseline*: the baseline file's text with these pairs, made by the engine (the caller writes it). */
  async addToBaseline(root: string, file: string, pairs: Array<{ kind: 'file' | 'section'; a: ViewLocation; b: ViewLocation; located?: boolean }>): Promise<{ text: string; added: number } | { problem: string }> {
    if (!(await this.engine.ensureEngine())) return { problem: 'no folder is indexed' };
    return this.jobs.track(this.client.request({ type: 'addToBaseline', root, file, pairs }));
  }

  /** The HTML report of the index (written in the engine worker). */
  async htmlReport(): Promise<string | undefined> {
    if (!(await this.engine.ensureEngine())) return undefined;
    return this.jobs.track(this.client.request({ type: 'htmlReport' }));
  }

  /** Engine-side statistics (documents, isolate heap). */
  async engineStats() {
    if (!this.client.running) return undefined;
    return this.client.request({ type: 'stats' });
  }

  /** Resolves when no event is waiting, no request is running and the engine is not indexing. */
  whenIdle(): Promise<void> {
    return this.jobs.whenIdle();
  }

  async shutdown(): Promise<void> {
    this.files.shutdown();
    await this.client.stop();
  }

  dispose(): void {
    this.files.dispose();
    this.engine.dispose();
    for (const d of this.disposables) d.dispose();
    this.jobs.dispose();
    this.reports.dispose();
  }

  // ---------------------------------------------------------------------------------- internals

  /** The engine's current client (a restart replaces it). */
  private get client(): EngineClient {
    return this.engine.client;
  }

  private reindex(withConfig: boolean): Promise<void> {
    this.engine.paused = false;
    const job = (async () => {
      // Roots may have appeared or vanished: start over when the engine has none yet.
      if (withConfig && this.engine.state === 'noFolder') this.engine.initAgain();
      if (!(await this.engine.ensureEngine())) return;
      this.engine.setState('indexing');
      const stats = await this.client.request({ type: 'reindex', config: withConfig ? this.settings.engineConfig() : undefined });
      // Its report came before the answer: the job ends when the views show it.
      await this.reports.whenApplied();
      this.lastIndexStats = stats;
      this.log.info(
        `indexed ${stats.files} files in ${stats.elapsedMs} ms: ${stats.reread} read, ${stats.cacheHits} from the cache, ` +
          `${stats.removed} removed, ${stats.skipped} skipped${stats.cancelled ? ' (cancelled)' : ''}; matching took ${stats.matchMs} ms`,
      );
      this.engine.setState(this.settings.roots().length === 0 ? 'noFolder' : 'ready');
    })();
    const tracked = this.jobs.track(job).catch((e) => this.engine.onFailure(e));
    this.jobEmitter.fire(tracked);
    return tracked;
  }

  private onSettingsChanged(e: SettingsChangeEvent): void {
    if (e.change.reindex) {
      this.log.info('settings changed: re-indexing');
      void this.reindex(true);
    } else if (e.change.thresholds) {
      const s = e.current;
      this.engine.setThresholds({ maxDistance: s.maxDistance, sectionMaxDistance: s.sectionMaxDistance, minSimilarity: s.minSimilarity });
    }
  }
}
