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
 * Its parts: {@link EngineSession} (the engine's start, events, crashes and the state they set),
 * {@link ReportApplier} (reports made the views' state) and {@link JobTracker} (whenIdle).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DebugCrashRequest, IndexStats, InitResult, OverviewData, QueryResult, TextQueryResult, UpdateResult, ViewItem, ViewLocation, ViewReport } from '../../node/engine/engineProtocol';
import { FileEventQueue, type FileEventBatch, type FileOp } from '../../node/files/fileEventQueue';
import { isDefaultExcluded } from '../../node/files/walk';
import type { HostTasks, Slice } from '../hostTasks';
import type { OutputLog } from '../outputLog';
import type { Settings, SettingsChangeEvent } from '../settings';
import { SaveEchoes } from '../live/saveEchoes';
import type { EngineClient } from './engineClient';
import { EngineSession, type IndexProgress, type IndexState } from './engineSession';
import { JobTracker } from './jobTracker';
import { ReportApplier, type ItemsChange, type ReportTiming } from './reportApplier';

export type { IndexProgress, IndexState } from './engineSession';
export type { ItemsChange, ReportTiming } from './reportApplier';

/**
 * Longest wait of a file event while the editor holds the file unsaved (IndexService.queueEvent):
 * a save under way ends it (the document is clean again) long before.
 */
export const UNSAVED_WAIT_MAX_MS = 5000;
const UNSAVED_POLL_MS = 50;

/** Whether a document is a file on disk open with unsaved changes. */
const unsavedFile = (d: vscode.TextDocument): boolean => d.isDirty && d.uri.scheme === 'file';

/** The files (paths) open in an editor with unsaved changes. */
function dirtyFiles(): ReadonlySet<string> {
  const out = new Set<string>();
  for (const d of vscode.workspace.textDocuments) if (unsavedFile(d)) out.add(d.uri.fsPath);
  return out;
}

/** Resolves once `file` is no longer open with unsaved changes (saved, reverted, closed), or after UNSAVED_WAIT_MAX_MS. */
async function whileUnsaved(file: string): Promise<void> {
  const unsaved = () => vscode.workspace.textDocuments.some((d) => unsavedFile(d) && d.uri.fsPath === file);
  for (let waited = 0; waited < UNSAVED_WAIT_MAX_MS && unsaved(); waited += UNSAVED_POLL_MS) await new Promise((resolve) => setTimeout(resolve, UNSAVED_POLL_MS));
}

/** Quiet time after the last file event before a batch goes to the engine. */
export const DEBOUNCE_MS = 300;
/** A steady stream of events is still flushed this often. */
const MAX_WAIT_MS = 2000;
/**
 * After this many file events between two quiet moments (a branch switch, a pull, a generator),
 * the workspace is walked again: watchers lose events in such bursts.
 */
const BURST_PATHS = 200;
/** Paths per batch to the engine at most (posting 10,000 paths takes ~1 ms). */
const MAX_BATCH_PATHS = 10_000;

export class IndexService implements vscode.Disposable {
  private readonly jobs: JobTracker;
  private readonly engine: EngineSession;
  private readonly reports: ReportApplier;
  private readonly events: FileEventQueue;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  private started = false;
  private startedAt = performance.now();

  /** Stats of the last full index (walk) and of the last batch of file events. */
  lastIndexStats: IndexStats | undefined;
  lastUpdateStats: UpdateResult | undefined;
  /** Time from activation to the end of the first index. */
  firstIndexMs: number | undefined;
  /** Raw file events (uri, op) waiting to be resolved to workspace paths, and whether a job is on it. */
  private readonly rawEvents: Array<{ uri: vscode.Uri; op: FileOp }> = [];
  /** Saves sent to the engine with their text: the watcher's echoes of them are dropped. */
  private readonly echoes = new SaveEchoes();
  /** Saves sent to the engine so far (a save path, not a batch of file events). */
  savesSent = 0;
  /** File events of files open with unsaved changes, held until the document is clean (queueEvent). */
  eventsWhileUnsaved = 0;
  private resolvingEvents = false;
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
    this.jobs = new JobTracker(() => this.events.idle && this.rawEvents.length === 0 && !this.resolvingEvents && !this.reports.applying && this.tasks.idle && !this.engine.indexing && this.started);
    this.engine = new EngineSession(engineScript, cachePath, settings, log, tasks, this.jobs, (report) => this.reports.receive(report));
    this.reports = new ReportApplier(tasks, log, this.jobs);
    this.events = new FileEventQueue((batch) => this.sendBatch(batch), {
      debounceMs: DEBOUNCE_MS,
      maxWaitMs: MAX_WAIT_MS,
      burstPaths: BURST_PATHS,
      maxBatchPaths: MAX_BATCH_PATHS,
      runTask: (task) => this.tasks.time('fileEvents.flush', task),
      onBurstEnd: (n) => {
        if (this.engine.paused || this.disposed) return;
        this.log.info(`${n} file events in a burst (or a new folder): walking the workspace again for changes the file watcher may have missed`);
        void this.reindex(false);
      },
      onIdle: () => this.jobs.check(),
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

  /** Of the last report: engine → host hand-over, and the time the views took to apply it. */
  get lastReportTiming(): ReportTiming | undefined {
    return this.reports.lastReportTiming;
  }

  /** Starts watching and runs the first index (call after activation returned). */
  start(): void {
    this.startedAt = performance.now();
    this.started = true;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.disposables.push(
      watcher,
      watcher.onDidCreate((u) => this.enqueue(u, 'upsert')),
      watcher.onDidChange((u) => this.enqueue(u, 'upsert')),
      watcher.onDidDelete((u) => this.enqueue(u, 'remove')),
      vscode.workspace.onDidSaveTextDocument((d) => this.onSaved(d)),
      vscode.workspace.onDidCreateFiles((e) => e.files.forEach((u) => this.enqueue(u, 'upsert'))),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((u) => this.enqueue(u, 'remove'))),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const f of e.files) {
          if (f.oldUri.scheme !== 'file' || f.newUri.scheme !== 'file') continue;
          this.events.rename(f.oldUri.fsPath, f.newUri.fsPath);
        }
      }),
    );
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
    return this.events.batches;
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
    this.events.dispose();
    await this.client.stop();
  }

  dispose(): void {
    this.disposed = true;
    this.events.dispose();
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

  /**
   * A document saved in the editor: to the engine at once with the text the editor holds (no
   * debounce, no re-read), ahead of the file events waiting in the queue. The file watcher's later
   * event for the same write is dropped by {@link queueEvent} (see SaveEchoes).
   */
  private onSaved(doc: vscode.TextDocument): void {
    if (this.disposed || doc.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    const rel = folder ? path.relative(folder.uri.fsPath, doc.uri.fsPath).split(path.sep).join('/') : '';
    // Outside the folders, an ignore rule file, or nothing is running: the ordinary file event.
    if (!folder || rel === '' || isDefaultExcluded(rel) || this.engine.paused || !this.started) return this.enqueue(doc.uri, 'upsert');
    const file = doc.uri.fsPath;
    const text = doc.getText();
    this.events.forget(file); // the watcher saw the write first: the save covers it
    this.savesSent++;
    const job = (async () => {
      if (!(await this.engine.ensureEngine())) return undefined;
      const stats = await this.client.request({ type: 'saveText', path: file, text });
      this.lastUpdateStats = stats;
      if (stats.rewalked) {
        this.lastIndexStats = stats;
        this.events.markBurst();
      }
      return stats.fromDisk || stats.size === undefined || stats.mtimeMs === undefined ? undefined : { size: stats.size, mtimeMs: stats.mtimeMs };
    })();
    this.echoes.saved(file, job);
    this.jobs.track(job).catch((e) => this.engine.onFailure(e));
  }

  /**
   * A file event. VS Code delivers a flood of them (a branch switch, a generator) in one task of
   * its own, calling this once per file: keep it O(1) — the folder lookup and the exclusion
   * test run later, in slices.
   */
  private enqueue(uri: vscode.Uri, op: FileOp): void {
    if (this.disposed || uri.scheme !== 'file') return;
    this.rawEvents.push({ uri, op });
    if (this.resolvingEvents) return;
    this.resolvingEvents = true;
    void this.tasks.run('fileEvents', (s) => this.resolveEvents(s)).finally(() => {
      this.resolvingEvents = false;
      this.jobs.check();
    });
  }

  /** Resolves the raw file events to workspace paths and queues them (in arrival order). */
  private async resolveEvents(s: Slice): Promise<void> {
    let i = 0;
    // The files open with unsaved changes, looked at once per slice (a few documents).
    let dirty: ReadonlySet<string> | undefined;
    while (i < this.rawEvents.length) {
      if (this.disposed) break;
      const { uri, op } = this.rawEvents[i++];
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder) {
        const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
        if (rel !== '' && !(isDefaultExcluded(rel) && rel !== '.git/info/exclude')) this.queueEvent(uri.fsPath, op, (dirty ??= dirtyFiles()));
      }
      if (s.due) {
        await s.yield(); // events that arrive meanwhile are appended: this loop takes them
        dirty = undefined;
      }
    }
    this.rawEvents.length = 0;
  }

  /**
   * Queues a resolved file event, unless it is the watcher's echo of a save already indexed (a
   * stat tells, off this thread). A change of a file the editor holds unsaved is, most of the
   * time, its save under way, whose event (onSaved) can come after the watcher's on a loaded
   * machine: such an event waits until the document is clean (then it is that save's echo) or
   * {@link UNSAVED_WAIT_MAX_MS} have passed (the file written by something else: a change like any
   * other), so that a save is not read twice, from disk and from the editor.
   */
  private queueEvent(file: string, op: FileOp, dirty?: ReadonlySet<string>): void {
    if (op === 'upsert' && dirty?.has(file)) {
      this.eventsWhileUnsaved++;
      void this.jobs.track(whileUnsaved(file)).then(() => {
        if (!this.disposed) this.queueEvent(file, op);
      });
      return;
    }
    if (op !== 'upsert' || !this.echoes.has(file)) return this.events.add(file, op);
    void this.jobs.track(
      this.echoes.isEcho(file).then((echo) => {
        if (!echo && !this.disposed) this.events.add(file, op);
      }),
    );
  }

  /** One coalesced batch of file events to the engine (the queue sends one at a time). */
  private sendBatch(batch: FileEventBatch): Promise<void> {
    if (this.engine.paused) return Promise.resolve();
    const job = (async () => {
      if (!(await this.engine.ensureEngine())) return;
      const stats = await this.client.request({ type: 'update', ...batch });
      this.lastUpdateStats = stats;
      if (stats.rewalked) {
        this.lastIndexStats = stats;
        // A folder appeared (or an ignore file changed): files written into a new folder before
        // the watcher watched it send no events, so walk once more when the events settle.
        this.events.markBurst();
      }
    })();
    return this.jobs.track(job).catch((e) => this.engine.onFailure(e));
  }
}
