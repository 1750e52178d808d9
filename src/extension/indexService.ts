/**
 * Owns the engine worker and keeps its index in step with the workspace: the first index, file
 * events (coalesced), settings and folder changes. Holds the latest report for the views. Runs
 * nothing heavy itself: walking, reading, hashing and matching all happen in the engine worker.
 * A crashed engine is restarted by its supervisor (see EngineClient); this logs one line per
 * crash and one when it is given up, never a popup.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DebugCrashRequest, EngineEvent, IndexStats, InitResult, QueryResult, UpdateResult, ViewItem, ViewReport } from '../node/engineProtocol';
import { FileEventQueue, type FileEventBatch } from '../node/fileEventQueue';
import { ReportAssembler } from '../node/reportParts';
import { isDefaultExcluded } from '../node/walk';
import { EngineClient, EngineStoppedError, type CrashInfo, type RecoveryInfo } from './engineClient';
import type { OutputLog } from './outputLog';
import type { Settings, SettingsChangeEvent } from './settings';

export type IndexState = 'starting' | 'indexing' | 'ready' | 'error' | 'noFolder';

export interface ReportTiming {
  /** From the engine finishing the report to the host receiving it. */
  handoverMs: number;
  /** Applying it on the host: merging items, diagnostics, views. */
  applyMs: number;
  mergeMs: number;
  diagnosticsMs: number;
  viewsMs: number;
  changedFiles: number;
}

/** Which files' items (near duplicates, for diagnostics) changed with a report. */
export interface ItemsChange {
  /** All files: forget everything and take {@link IndexService.itemsOf} for each of `paths`. */
  full: boolean;
  /** Files whose items changed (possibly to none). */
  paths: string[];
}

export interface IndexProgress {
  phase: 'walking' | 'reading' | 'matching';
  done: number;
  total: number;
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

export class IndexService implements vscode.Disposable {
  private client: EngineClient;
  private readonly disposables: vscode.Disposable[] = [];
  private _state: IndexState = 'starting';
  private _report: ViewReport | undefined;
  private _progress: IndexProgress | undefined;
  private engineIndexing = false;
  private initResult: InitResult | undefined;
  private ready: Promise<boolean> | null = null;
  private busy = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly events: FileEventQueue;
  private disposed = false;
  /** The engine was given up: file events wait for an explicit Refresh (which walks everything). */
  private paused = false;
  private started = false;
  private startedAt = performance.now();

  /** Stats of the last full index (walk) and of the last batch of file events. */
  lastIndexStats: IndexStats | undefined;
  lastUpdateStats: UpdateResult | undefined;
  /** Time from activation to the end of the first index. */
  firstIndexMs: number | undefined;
  /** Of the last report: engine → host hand-over, and the time the views took to apply it. */
  lastReportTiming: ReportTiming | undefined;

  private readonly itemsByPath = new Map<string, ViewItem[]>();
  private readonly parts = new ReportAssembler();
  private readonly updateEmitter = new vscode.EventEmitter<ViewReport>();
  private readonly itemsEmitter = new vscode.EventEmitter<ItemsChange>();
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  private readonly jobEmitter = new vscode.EventEmitter<Promise<unknown>>();
  /** A new report (after indexing, a file event or a threshold change); its items are complete. */
  readonly onDidUpdate = this.updateEmitter.event;
  /** The items of some files changed (fires before onDidUpdate). */
  readonly onDidChangeItems = this.itemsEmitter.event;
  /** State or progress changed. */
  readonly onDidChangeState = this.stateEmitter.event;
  /** A full index job started (the promise settles when it ends). */
  readonly onDidStartIndexing = this.jobEmitter.event;

  constructor(
    private readonly engineScript: string,
    private readonly cachePath: string | null,
    private readonly settings: Settings,
    private readonly log: OutputLog,
  ) {
    this.client = this.createClient();
    this.events = new FileEventQueue((batch) => this.sendBatch(batch), {
      debounceMs: DEBOUNCE_MS,
      maxWaitMs: MAX_WAIT_MS,
      burstPaths: BURST_PATHS,
      onBurstEnd: (n) => {
        if (this.paused || this.disposed) return;
        this.log.info(`${n} file events in a burst (or a new folder): walking the workspace again for changes the file watcher may have missed`);
        void this.reindex(false);
      },
      onIdle: () => this.checkIdle(),
    });
    this.disposables.push(
      this.updateEmitter,
      this.itemsEmitter,
      this.stateEmitter,
      this.jobEmitter,
      settings.onDidChange((e) => this.onSettingsChanged(e)),
      settings.onDidChangeRoots(() => void this.reindex(true)),
    );
  }

  get state(): IndexState {
    return this._state;
  }

  get report(): ViewReport | undefined {
    return this._report;
  }

  /** The near-duplicate items (file and sections) of one file. */
  itemsOf(fsPath: string): readonly ViewItem[] {
    return this.itemsByPath.get(fsPath) ?? [];
  }

  /** Files that have near duplicates. */
  pathsWithItems(): string[] {
    return [...this.itemsByPath.keys()];
  }

  get progress(): IndexProgress | undefined {
    return this._progress;
  }

  get cacheStatus(): InitResult | undefined {
    return this.initResult;
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
      vscode.workspace.onDidSaveTextDocument((d) => this.enqueue(d.uri, 'upsert')),
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
    await this.track(
      (async () => {
        await this.client.stop();
        this.client.dispose();
        this.client = this.createClient();
        this.ready = null;
      })(),
    );
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
    if (!(await this.ensureEngine())) return { status: 'outside', matches: [] };
    return this.track(this.client.request({ type: 'queryFile', path: uri.fsPath, text }));
  }

  /** Engine-side statistics (documents, isolate heap). */
  async engineStats() {
    if (!this.client.running) return undefined;
    return this.client.request({ type: 'stats' });
  }

  /** Resolves when no event is waiting, no request is running and the engine is not indexing. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async shutdown(): Promise<void> {
    this.events.dispose();
    await this.client.stop();
  }

  dispose(): void {
    this.disposed = true;
    this.events.dispose();
    this.client.dispose();
    for (const d of this.disposables) d.dispose();
    for (const w of this.idleWaiters.splice(0)) w();
  }

  // ---------------------------------------------------------------------------------- internals

  private createClient(): EngineClient {
    const client = new EngineClient(this.engineScript);
    this.parts.reset();
    client.onEvent((e) => this.onEngineEvent(e));
    client.onDidCrash((c) => this.onCrash(client, c));
    client.onDidRecover((r) => this.onRecovered(client, r));
    client.onDidGiveUp((m) => this.onGiveUp(client, m));
    return client;
  }

  private setState(state: IndexState): void {
    if (this._state === state) return;
    this._state = state;
    this.stateEmitter.fire();
  }

  private isIdle(): boolean {
    return this.busy === 0 && this.events.idle && !this.engineIndexing && this.started;
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.busy++;
    const done = () => {
      this.busy--;
      this.checkIdle();
    };
    p.then(done, done);
    return p;
  }

  /** Starts the engine and sends init, once (again after a restart). False: nothing to index. */
  private ensureEngine(): Promise<boolean> {
    if (!this.ready) {
      this.ready = (async () => {
        const config = this.settings.engineConfig();
        if (config.roots.length === 0) {
          this.setState('noFolder');
          return false;
        }
        this.client.start();
        this.initResult = await this.client.request({ type: 'init', config, cachePath: this.cachePath });
        this.logCacheStatus(this.initResult);
        return true;
      })();
      this.ready.catch(() => {
        this.ready = null;
      });
    }
    return this.ready;
  }

  /** One line on the cache (the engine itself logs why a cache was discarded). */
  private logCacheStatus(c: InitResult): void {
    if (c.cacheStatus === 'discarded') return;
    this.log.info(
      c.cacheStatus === 'loaded'
        ? `fingerprint cache loaded: ${c.cacheEntries} files`
        : c.cacheStatus === 'missing'
          ? 'no fingerprint cache yet: indexing every file'
          : 'no workspace storage: fingerprints are not cached',
    );
  }

  private reindex(withConfig: boolean): Promise<void> {
    this.paused = false;
    const job = (async () => {
      // Roots may have appeared or vanished: start over when the engine has none yet.
      if (withConfig && this._state === 'noFolder') this.ready = null;
      if (!(await this.ensureEngine())) return;
      this.setState('indexing');
      const stats = await this.client.request({ type: 'reindex', config: withConfig ? this.settings.engineConfig() : undefined });
      this.lastIndexStats = stats;
      this.log.info(
        `indexed ${stats.files} files in ${stats.elapsedMs} ms: ${stats.reread} read, ${stats.cacheHits} from the cache, ` +
          `${stats.removed} removed, ${stats.skipped} skipped${stats.cancelled ? ' (cancelled)' : ''}; matching took ${stats.matchMs} ms`,
      );
      this.setState(this.settings.roots().length === 0 ? 'noFolder' : 'ready');
    })();
    const tracked = this.track(job).catch((e) => this.onFailure(e));
    this.jobEmitter.fire(tracked);
    return tracked;
  }

  private onSettingsChanged(e: SettingsChangeEvent): void {
    if (e.change.reindex) {
      this.log.info('settings changed: re-indexing');
      void this.reindex(true);
    } else if (e.change.thresholds && this.client.running && this.ready) {
      const s = e.current;
      this.track(
        this.client.request({
          type: 'setThresholds',
          thresholds: { maxDistance: s.maxDistance, sectionMaxDistance: s.sectionMaxDistance, minSimilarity: s.minSimilarity },
        }),
      ).catch((err) => this.onFailure(err));
    }
  }

  private enqueue(uri: vscode.Uri, op: 'upsert' | 'remove'): void {
    if (this.disposed || uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return;
    const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
    if (rel === '' || (isDefaultExcluded(rel) && rel !== '.git/info/exclude')) return;
    this.events.add(uri.fsPath, op);
  }

  /** One coalesced batch of file events to the engine (the queue sends one at a time). */
  private sendBatch(batch: FileEventBatch): Promise<void> {
    if (this.paused) return Promise.resolve();
    const job = (async () => {
      if (!(await this.ensureEngine())) return;
      const stats = await this.client.request({ type: 'update', ...batch });
      this.lastUpdateStats = stats;
      if (stats.rewalked) {
        this.lastIndexStats = stats;
        // A folder appeared (or an ignore file changed): files written into a new folder before
        // the watcher watched it send no events, so walk once more when the events settle.
        this.events.markBurst();
      }
    })();
    return this.track(job).catch((e) => this.onFailure(e));
  }

  private onEngineEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'reportPart':
      case 'report': {
        const whole = this.parts.add(e);
        if (whole === 'lost') {
          // Cannot happen while the engine lives (its messages arrive in order); be safe anyway.
          this.log.warn('a report arrived incomplete from the engine: asking it for the whole report');
          this.track(this.client.request({ type: 'getReport' })).then(
            (r) => this.receive(r),
            (err) => this.onFailure(err),
          );
        } else if (whole) this.receive(whole);
        break;
      }
      case 'progress':
        this._progress = { phase: e.phase, done: e.done, total: e.total };
        this.stateEmitter.fire();
        break;
      case 'indexing':
        this.engineIndexing = e.active;
        if (e.active) this.setState('indexing');
        else {
          this._progress = undefined;
          if (this._state === 'indexing') this.setState('ready');
          this.checkIdle();
        }
        break;
      case 'skipped':
        for (const s of e.items) this.log.info(`skipped ${vscode.workspace.asRelativePath(s.path)}: ${s.reason}`);
        break;
      case 'log':
        if (e.level === 'error') this.log.error(e.message);
        else if (e.level === 'warn') this.log.warn(e.message);
        else this.log.info(e.message);
        break;
    }
  }

  /** A whole report from the engine (put together from its parts). */
  private receive(report: ViewReport): void {
    const received = Date.now();
    const t0 = performance.now();
    const change = this.applyItems(report);
    this._report = { ...report, items: [...this.itemsByPath.values()].flat(), clearedPaths: [], full: true };
    const t1 = performance.now();
    this.itemsEmitter.fire(change);
    const t2 = performance.now();
    this.updateEmitter.fire(this._report);
    const t3 = performance.now();
    this.lastReportTiming = {
      handoverMs: received - report.createdAt,
      applyMs: +(t3 - t0).toFixed(1),
      mergeMs: +(t1 - t0).toFixed(1),
      diagnosticsMs: +(t2 - t1).toFixed(1),
      viewsMs: +(t3 - t2).toFixed(1),
      changedFiles: change.paths.length,
    };
    this.log.channel.trace(
      `report ${report.generation}: ${report.groups.length} groups, ${report.items.length} changed items; ` +
        `handed over in ${this.lastReportTiming.handoverMs} ms, applied in ${this.lastReportTiming.applyMs} ms`,
    );
  }

  /** Merges a report event's items (all, or those of changed files) into itemsByPath. */
  private applyItems(r: ViewReport): ItemsChange {
    if (r.full) this.itemsByPath.clear();
    const paths = new Set<string>(r.clearedPaths);
    for (const p of r.clearedPaths) this.itemsByPath.delete(p);
    const fresh = new Map<string, ViewItem[]>();
    for (const item of r.items) {
      const list = fresh.get(item.loc.path);
      if (list) list.push(item);
      else fresh.set(item.loc.path, [item]);
    }
    for (const [p, list] of fresh) {
      this.itemsByPath.set(p, list);
      paths.add(p);
    }
    return { full: r.full, paths: r.full ? [...this.itemsByPath.keys()] : [...paths] };
  }

  private onFailure(e: unknown): void {
    if (this.disposed) return;
    if (e instanceof EngineStoppedError) return; // stopped on purpose, or given up (onGiveUp)
    this.log.error(`indexing failed: ${(e as Error)?.message ?? String(e)}`);
    this.setState('error');
  }

  private onCrash(client: EngineClient, c: CrashInfo): void {
    if (this.disposed || client !== this.client) return;
    this.engineIndexing = false;
    this._progress = undefined;
    this.parts.reset(); // parts of a report that will never end
    if (c.restartInMs === null) return; // onGiveUp says it
    this.log.warn(`the engine worker stopped unexpectedly (${c.reason}); restarting it in ${c.restartInMs} ms`);
    // Not idle until the new worker has caught up (or was given up).
    void this.track(client.whenSettled());
  }

  private onRecovered(client: EngineClient, r: RecoveryInfo): void {
    if (this.disposed || client !== this.client) return;
    if (r.init) this.initResult = r.init;
    const s = r.stats;
    this.log.info(
      `engine restarted and caught up in ${r.ms} ms` +
        (s ? `: ${s.cacheHits} files from the cache, ${s.reread} read again` : '') +
        (r.init ? `; fingerprint cache ${r.init.cacheStatus}` : ''),
    );
  }

  private onGiveUp(client: EngineClient, message: string): void {
    if (this.disposed || client !== this.client) return;
    this.engineIndexing = false;
    this._progress = undefined;
    this.ready = null; // the next Refresh (or a query) starts a new engine
    this.paused = true;
    this.log.error(`${message}. NearDup is paused: run "NearDup: Refresh" to try again.`);
    this.setState('error');
    this.checkIdle();
  }
}
