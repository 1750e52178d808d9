/**
 * The engine worker as the index service sees it: its client (a new one after a restart), its
 * start and init (once; again after a give-up or when folders appear), what it is told besides
 * (baselines, again after every start; thresholds), the events it sends (report parts, progress,
 * indexing, skipped files, log lines) and the state they put the index in. A crashed engine is
 * restarted by its supervisor (see EngineClient); this logs one line per crash and one when it is
 * given up, never a popup. Part of {@link IndexService}.
 */
import * as vscode from 'vscode';
import type { EngineEvent, InitResult, Thresholds, ViewReport } from '../../node/engine/engineProtocol';
import { ReportAssembler } from '../../node/engine/reportParts';
import type { HostTasks } from '../hostTasks';
import type { OutputLog } from '../outputLog';
import type { Settings } from '../settings';
import { EngineClient, EngineStoppedError, type CrashInfo, type RecoveryInfo } from './engineClient';
import type { JobTracker } from './jobTracker';

export type IndexState = 'starting' | 'indexing' | 'ready' | 'error' | 'noFolder';

export interface IndexProgress {
  phase: 'walking' | 'reading' | 'matching';
  done: number;
  total: number;
}

export class EngineSession implements vscode.Disposable {
  private _client: EngineClient;
  private _state: IndexState = 'starting';
  private _progress: IndexProgress | undefined;
  private engineIndexing = false;
  private initResult: InitResult | undefined;
  private ready: Promise<boolean> | null = null;
  private disposed = false;
  /** The engine was given up: file events wait for an explicit Refresh (which walks everything). */
  paused = false;
  /** The baseline files the engine reads (sent again after a restart). */
  private baselines: Array<{ root: string; file: string }> = [];
  private readonly parts = new ReportAssembler();
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  /** State or progress changed. */
  readonly onDidChangeState = this.stateEmitter.event;

  /** `receive`: a whole report from the engine (to the ReportApplier). */
  constructor(
    private readonly engineScript: string,
    private readonly cachePath: string | null,
    private readonly settings: Settings,
    private readonly log: OutputLog,
    private readonly tasks: HostTasks,
    private readonly jobs: JobTracker,
    private readonly receive: (report: ViewReport) => void,
  ) {
    this._client = this.createClient();
  }

  /** The engine's client: read it at each request (a restart replaces it). */
  get client(): EngineClient {
    return this._client;
  }

  get state(): IndexState {
    return this._state;
  }

  get progress(): IndexProgress | undefined {
    return this._progress;
  }

  get cacheStatus(): InitResult | undefined {
    return this.initResult;
  }

  /** The engine runs an index job (its `indexing` event). */
  get indexing(): boolean {
    return this.engineIndexing;
  }

  setState(state: IndexState): void {
    if (this._state === state) return;
    this._state = state;
    this.stateEmitter.fire();
  }

  /** Starts the engine and sends init, once (again after a restart). False: nothing to index. */
  ensureEngine(): Promise<boolean> {
    if (!this.ready) {
      this.ready = (async () => {
        const config = this.settings.engineConfig();
        if (config.roots.length === 0) {
          this.setState('noFolder');
          return false;
        }
        this._client.start();
        this.initResult = await this._client.request({ type: 'init', config, cachePath: this.cachePath });
        this.logCacheStatus(this.initResult);
        if (this.baselines.length > 0) await this._client.request({ type: 'setBaselines', baselines: this.baselines });
        return true;
      })();
      this.ready.catch(() => {
        this.ready = null;
      });
    }
    return this.ready;
  }

  /** The next {@link ensureEngine} starts over (the folders may have appeared). */
  initAgain(): void {
    this.ready = null;
  }

  /** Stops the engine and makes a new client, started by the next {@link ensureEngine}. */
  async restart(): Promise<void> {
    await this._client.stop();
    this._client.dispose();
    this._client = this.createClient();
    this.ready = null;
  }

  /** The folders' baseline files: read by the engine now and after every start. */
  async setBaselines(sources: Array<{ root: string; file: string }>): Promise<void> {
    this.baselines = sources;
    // Not started yet: the engine gets them right after its init.
    if (!this.ready || !this._client.running || !(await this.ready)) return;
    await this.jobs.track(this._client.request({ type: 'setBaselines', baselines: sources }));
  }

  /** Some folder has a baseline file. */
  get baselinesInUse(): boolean {
    return this.baselines.length > 0;
  }

  /** New thresholds to a running engine (one not started yet gets them with its init). */
  setThresholds(thresholds: Thresholds): void {
    if (!this._client.running || !this.ready) return;
    this.jobs.track(this._client.request({ type: 'setThresholds', thresholds })).catch((err) => this.onFailure(err));
  }

  /** A request or job failed: logged, and the state is `error` (not for an engine stopped on purpose or given up). */
  onFailure(e: unknown): void {
    if (this.disposed) return;
    if (e instanceof EngineStoppedError) return; // stopped on purpose, or given up (onGiveUp)
    this.log.error(`indexing failed: ${(e as Error)?.message ?? String(e)}`);
    this.setState('error');
  }

  dispose(): void {
    this.disposed = true;
    this._client.dispose();
    this.stateEmitter.dispose();
  }

  private createClient(): EngineClient {
    const client = new EngineClient(this.engineScript);
    this.parts.reset();
    client.onEvent((e) => this.tasks.time(`engine.${e.type}`, () => this.onEngineEvent(e)));
    client.onDidCrash((c) => this.onCrash(client, c));
    client.onDidRecover((r) => this.onRecovered(client, r));
    client.onDidGiveUp((m) => this.onGiveUp(client, m));
    return client;
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

  private onEngineEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'reportPart':
      case 'report': {
        const whole = this.parts.add(e);
        if (whole === 'lost') {
          // Cannot happen while the engine lives (its messages arrive in order); be safe anyway.
          this.log.warn('a report arrived incomplete from the engine: asking it for the whole report');
          this.jobs.track(this._client.request({ type: 'getReport' })).then(
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
          this.jobs.check();
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
      case 'regionsOff': {
        // Sent once until the text is under the limit again (src/node/engine/regions/engineRegions.ts);
        // the indexing path pops up no notification: one line in the output channel.
        const mb = (n: number) => (n / 1048576).toFixed(1);
        this.log.warn(vscode.l10n.t('NearDup: copied blocks inside files are not located: the indexed text ({0} MB) is over {1} MB. Whole files and sections are still compared.', mb(e.bytes), mb(e.maxBytes)));
        break;
      }
    }
  }

  private onCrash(client: EngineClient, c: CrashInfo): void {
    if (this.disposed || client !== this._client) return;
    this.engineIndexing = false;
    this._progress = undefined;
    this.parts.reset(); // parts of a report that will never end
    if (c.restartInMs === null) return; // onGiveUp says it
    this.log.warn(`the engine worker stopped unexpectedly (${c.reason}); restarting it in ${c.restartInMs} ms`);
    // Not idle until the new worker has caught up (or was given up).
    void this.jobs.track(client.whenSettled());
  }

  private onRecovered(client: EngineClient, r: RecoveryInfo): void {
    if (this.disposed || client !== this._client) return;
    if (r.init) this.initResult = r.init;
    const s = r.stats;
    this.log.info(
      `engine restarted and caught up in ${r.ms} ms` +
        (s ? `: ${s.cacheHits} files from the cache, ${s.reread} read again` : '') +
        (r.init ? `; fingerprint cache ${r.init.cacheStatus}` : ''),
    );
  }

  private onGiveUp(client: EngineClient, message: string): void {
    if (this.disposed || client !== this._client) return;
    this.engineIndexing = false;
    this._progress = undefined;
    this.ready = null; // the next Refresh (or a query) starts a new engine
    this.paused = true;
    this.log.error(`${message}. NearDup is paused: run "NearDup: Refresh" to try again.`);
    this.setState('error');
    this.jobs.check();
  }
}
