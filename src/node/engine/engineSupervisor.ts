/**
 * Supervision of the engine worker (dist/engineWorker.js), free of `vscode` so that plain Node
 * tests can drive it: typed RPC, events, and restart after a crash.
 *
 * When the worker dies without being asked to stop (killed, out of memory, an uncaught error), a
 * new one is started after an exponential back-off (100 ms, 200 ms … at most 5 s) and brought
 * back to where the old one was: `init` with the latest config (the fingerprint cache, which
 * long indexes write as checkpoints, spares re-reading what was already read), then a full
 * `reindex` if the old one had indexed. Callers do not see the crash: requests in flight and
 * requests made meanwhile wait; an `init` or `reindex` made before the recovery started is
 * answered by the recovery's own, every other request is sent again once the new worker is ready
 * (after a full reindex, replaying an update or a threshold change changes nothing).
 *
 * After more than `maxRestarts` consecutive crashes it gives up: pending and later requests fail
 * with {@link EngineStoppedError} and `onGiveUp` fires once. The count starts over once a worker
 * has completed an index and lived for `stableMs` (so a worker that crashes on every start, or
 * on a replayed request, is given up rather than restarted forever). `start()` tries again.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type {
  EngineEvent,
  EngineMessage,
  EngineRequest,
  EngineRequestEnvelope,
  EngineResponseMap,
  IndexStats,
  InitRequest,
  InitResult,
} from './engineProtocol';

type ResponseOf<R extends EngineRequest> = EngineResponseMap[R['type']];

export class EngineStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineStoppedError';
  }
}

export interface EngineSupervisorOptions {
  /** The engine worker's script (dist/engineWorker.js). */
  script: string;
  /** Thread name (shown in debuggers and heap snapshots). */
  name?: string;
  /** First restart delay; doubled after each consecutive crash. Default 100 ms. */
  backoffInitialMs?: number;
  /** Largest restart delay. Default 5000 ms. */
  backoffMaxMs?: number;
  /** Consecutive crashes that are restarted; one more and the supervisor gives up. Default 5. */
  maxRestarts?: number;
  /** A worker that indexed and then lived this long resets the crash count. Default 30 000 ms. */
  stableMs?: number;
  /** Heap limits: running out ends the worker (and it is restarted), not the whole process. */
  resourceLimits?: ResourceLimits;
}

export interface CrashInfo {
  reason: string;
  /** Consecutive crashes, this one included. */
  failures: number;
  /** Delay before the restart; null: the supervisor gave up. */
  restartInMs: number | null;
}

export interface RecoveryInfo {
  /** The new worker's init (null when none had been sent before the crash). */
  init: InitResult | null;
  /** Its full reindex (null when the old worker had not indexed). */
  stats: IndexStats | null;
  /** From the first crash of the streak to the end of the recovery. */
  ms: number;
  /** Restarts so far (over the supervisor's life). */
  restarts: number;
}

export type SupervisorPhase = 'stopped' | 'running' | 'waiting' | 'recovering' | 'failed';

interface Call {
  id: number;
  req: EngineRequest;
  resolve: (res: unknown) => void;
  reject: (err: Error) => void;
  /** The worker it was posted to; null while it waits for one. */
  sentTo: Worker | null;
}

type Listener<T> = (value: T) => void;

class Signal<T> {
  private readonly listeners = new Set<Listener<T>>();
  on(l: Listener<T>): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value);
      } catch {
        // A listener's error is its own business.
      }
    }
  }
  clear(): void {
    this.listeners.clear();
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code && !e.message.includes(code) ? `${code}: ${e.message}` : e.message;
  }
  return String(e);
}

export class EngineSupervisor {
  private worker: Worker | null = null;
  private _phase: SupervisorPhase = 'stopped';
  private nextId = 1;
  /** Requests of the owner, in the order they were made. */
  private readonly calls = new Map<number, Call>();
  /** The recovery's own requests. */
  private readonly internal = new Map<number, { resolve: (res: unknown) => void; reject: (err: Error) => void }>();
  /** What a new worker needs to be brought back to: the latest init (with the latest config). */
  private session: { init: InitRequest | null; indexed: boolean; baselines?: EngineRequest & { type: 'setBaselines' } } = { init: null, indexed: false };
  private failures = 0;
  private _restarts = 0;
  private startedAt = 0;
  private indexedSinceStart = false;
  private crashedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private settleWaiters: Array<() => void> = [];
  private readonly opts: Required<Omit<EngineSupervisorOptions, 'resourceLimits' | 'name'>> & Pick<EngineSupervisorOptions, 'resourceLimits' | 'name'>;

  private readonly eventSignal = new Signal<EngineEvent>();
  private readonly crashSignal = new Signal<CrashInfo>();
  private readonly recoverSignal = new Signal<RecoveryInfo>();
  private readonly giveUpSignal = new Signal<string>();
  private readonly spawnSignal = new Signal<void>();

  /** Events of the engine (progress, reports, logs…), from whichever worker is current. */
  readonly onEvent = (l: Listener<EngineEvent>) => this.eventSignal.on(l);
  /** The worker died unexpectedly (a restart follows unless `restartInMs` is null). */
  readonly onCrash = (l: Listener<CrashInfo>) => this.crashSignal.on(l);
  /** A restarted worker is back where the old one was; waiting requests go on. */
  readonly onRecovered = (l: Listener<RecoveryInfo>) => this.recoverSignal.on(l);
  /** Too many consecutive crashes: no more restarts (the message says why). */
  readonly onGiveUp = (l: Listener<string>) => this.giveUpSignal.on(l);
  /** A worker was started (the first, or a restart before its recovery). */
  readonly onSpawn = (l: Listener<void>) => this.spawnSignal.on(l);

  constructor(options: EngineSupervisorOptions) {
    this.opts = {
      backoffInitialMs: 100,
      backoffMaxMs: 5000,
      maxRestarts: 5,
      stableMs: 30_000,
      ...options,
    };
  }

  get phase(): SupervisorPhase {
    return this._phase;
  }

  /** A worker is running or being restarted (requests will be answered). */
  get running(): boolean {
    return this._phase === 'running' || this._phase === 'waiting' || this._phase === 'recovering';
  }

  /** Workers restarted after a crash, over the supervisor's life. */
  get restarts(): number {
    return this._restarts;
  }

  /** Starts a worker (again after stop() or after giving up, with a clean slate). */
  start(): void {
    if (this.running) return;
    this.failures = 0;
    this.crashedAt = 0;
    this.session = { init: null, indexed: false };
    this._phase = 'running';
    this.spawn();
  }

  request<R extends EngineRequest>(req: R): Promise<ResponseOf<R>> {
    if (!this.running) {
      return Promise.reject(new EngineStoppedError(this._phase === 'failed' ? 'the NearDup engine was given up after repeated crashes' : 'the NearDup engine is not running'));
    }
    this.note(req);
    return new Promise<ResponseOf<R>>((resolve, reject) => {
      const call: Call = { id: this.nextId++, req, resolve: resolve as (res: unknown) => void, reject, sentTo: null };
      if (this._phase !== 'running' && req.type === 'cancel') {
        // Aimed at whatever runs now: the recovery's index, or nothing while no worker runs.
        if (!this.worker) return resolve({ cancelled: false } as ResponseOf<R>);
        this.calls.set(call.id, call);
        this.send(call);
        return;
      }
      this.calls.set(call.id, call);
      if (this._phase === 'running') this.send(call);
    });
  }

  /** Resolves when no restart is under way (at once when none is). */
  whenSettled(): Promise<void> {
    if (this._phase !== 'waiting' && this._phase !== 'recovering') return Promise.resolve();
    return new Promise((r) => this.settleWaiters.push(r));
  }

  /** Fault injection (tests): terminates the worker from outside, like a kill. */
  kill(): boolean {
    const w = this.worker;
    if (!w) return false;
    void w.terminate().catch(() => undefined);
    return true;
  }

  /** Asks the engine to save its cache, then ends the worker (after `timeoutMs` at the latest). */
  async stop(timeoutMs = 3000): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const w = this.worker;
    const wasRunning = this._phase === 'running';
    this._phase = 'stopped';
    if (w && wasRunning) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.internalRequest(w, { type: 'shutdown' }).catch(() => undefined),
        new Promise<void>((r) => (timer = setTimeout(r, timeoutMs))),
      ]);
      clearTimeout(timer);
    }
    if (this.worker === w) this.worker = null;
    this.failAll(new EngineStoppedError('the NearDup engine was stopped'));
    if (w) await w.terminate().catch(() => undefined);
  }

  dispose(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const w = this.worker;
    this.worker = null;
    this._phase = 'stopped';
    this.failAll(new EngineStoppedError('the NearDup engine was disposed'));
    if (w) void w.terminate().catch(() => undefined);
    this.eventSignal.clear();
    this.crashSignal.clear();
    this.recoverSignal.clear();
    this.giveUpSignal.clear();
    this.spawnSignal.clear();
  }

  // ---------------------------------------------------------------------------------- internals

  /** Keeps what a restarted worker needs: the latest init and config, and whether it indexed. */
  private note(req: EngineRequest): void {
    switch (req.type) {
      case 'init':
        this.session = { init: { ...req, config: { ...req.config, settings: { ...req.config.settings } } }, indexed: false };
        break;
      case 'setBaselines':
        this.session.baselines = { ...req, baselines: [...req.baselines] };
        break;
      case 'reindex':
        if (req.config && this.session.init) this.session.init = { ...this.session.init, config: { ...req.config, settings: { ...req.config.settings } } };
        this.session.indexed = true;
        break;
      case 'setThresholds':
        if (this.session.init) {
          const c = this.session.init.config;
          this.session.init = { ...this.session.init, config: { ...c, settings: { ...c.settings, ...req.thresholds } } };
        }
        break;
    }
  }

  private spawn(): Worker {
    const w = new Worker(this.opts.script, { name: this.opts.name ?? 'neardup-engine', resourceLimits: this.opts.resourceLimits });
    this.worker = w;
    this.startedAt = performance.now();
    this.indexedSinceStart = false;
    let lastError = '';
    w.on('message', (msg: EngineMessage) => this.onMessage(w, msg));
    w.on('error', (e: Error) => {
      lastError = describe(e);
    });
    w.on('exit', (code) => this.onExit(w, lastError || `exit code ${code}`));
    this.spawnSignal.fire();
    return w;
  }

  private send(call: Call): void {
    const w = this.worker!;
    call.sentTo = w;
    const envelope: EngineRequestEnvelope = { id: call.id, req: call.req };
    try {
      w.postMessage(envelope);
    } catch (e) {
      this.calls.delete(call.id);
      call.reject(e as Error);
    }
  }

  private internalRequest<R extends EngineRequest>(w: Worker, req: R): Promise<ResponseOf<R>> {
    const id = this.nextId++;
    return new Promise<ResponseOf<R>>((resolve, reject) => {
      this.internal.set(id, { resolve: resolve as (res: unknown) => void, reject });
      try {
        w.postMessage({ id, req } satisfies EngineRequestEnvelope);
      } catch (e) {
        this.internal.delete(id);
        reject(e as Error);
      }
    });
  }

  private onMessage(w: Worker, msg: EngineMessage): void {
    if (w !== this.worker || !msg || typeof msg !== 'object') return;
    if (msg.kind === 'event') {
      this.eventSignal.fire(msg.event);
      return;
    }
    const internal = this.internal.get(msg.id);
    const call = internal ? undefined : this.calls.get(msg.id);
    const target = internal ?? call;
    if (!target) return;
    if (internal) this.internal.delete(msg.id);
    else this.calls.delete(msg.id);
    if (msg.ok && call?.req.type === 'reindex') this.indexedSinceStart = true;
    if (msg.ok) target.resolve(msg.res);
    else target.reject(new Error(msg.error));
  }

  private onExit(w: Worker, reason: string): void {
    if (w !== this.worker) return;
    this.worker = null;
    if (!this.running) return; // stopped or disposed meanwhile
    const now = performance.now();
    const lost = new EngineStoppedError(`the NearDup engine stopped (${reason})`);
    for (const c of this.internal.values()) c.reject(lost);
    this.internal.clear();
    // Requests it was working on wait for the next worker (in the order they were made), except
    // those that only made sense for this one.
    for (const c of [...this.calls.values()]) {
      if (c.sentTo !== w) continue;
      if (c.req.type === 'debugCrash') {
        this.calls.delete(c.id);
        c.resolve({ terminated: 0 });
      } else if (c.req.type === 'cancel') {
        this.calls.delete(c.id);
        c.resolve({ cancelled: false });
      } else {
        c.sentTo = null;
      }
    }
    if (this.indexedSinceStart && now - this.startedAt >= this.opts.stableMs) this.failures = 0;
    this.failures++;
    if (this.crashedAt === 0) this.crashedAt = now;
    if (this.failures > this.opts.maxRestarts) {
      this._phase = 'failed';
      const message = `the NearDup engine stopped ${this.failures} times in a row and is not restarted again (last: ${reason})`;
      this.failAll(new EngineStoppedError(message));
      this.crashSignal.fire({ reason, failures: this.failures, restartInMs: null });
      this.giveUpSignal.fire(message);
      this.settle();
      return;
    }
    const delay = Math.min(this.opts.backoffInitialMs * 2 ** (this.failures - 1), this.opts.backoffMaxMs);
    this._phase = 'waiting';
    this.crashSignal.fire({ reason, failures: this.failures, restartInMs: delay });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.recover();
    }, delay);
  }

  /** A new worker, brought back to the session's state; then the waiting requests go on. */
  private async recover(): Promise<void> {
    if (this._phase !== 'waiting') return;
    this._phase = 'recovering';
    this._restarts++;
    const w = this.spawn();
    // Requests made from here on are newer than the state the recovery restores.
    const firstNewer = this.nextId;
    const session = this.session;
    let init: InitResult | null = null;
    let stats: IndexStats | null = null;
    try {
      if (session.init) init = await this.internalRequest(w, session.init);
      if (session.init && session.baselines) await this.internalRequest(w, session.baselines);
      if (session.init && session.indexed) {
        stats = await this.internalRequest(w, { type: 'reindex' });
        this.indexedSinceStart = true;
      }
    } catch (e) {
      if (this.worker !== w || e instanceof EngineStoppedError) return; // died again: onExit goes on
      // The new worker refused (e.g. a bad config): carry on, the requests get its answers.
    }
    if (this.worker !== w || this._phase !== 'recovering') return;
    this._phase = 'running';
    for (const c of [...this.calls.values()]) {
      if (c.sentTo) continue;
      if (c.id < firstNewer && c.req.type === 'init' && init) {
        this.calls.delete(c.id);
        c.resolve(init);
      } else if (c.id < firstNewer && c.req.type === 'reindex' && stats) {
        this.calls.delete(c.id);
        c.resolve(stats);
      } else {
        this.send(c);
      }
    }
    const ms = Math.round(performance.now() - this.crashedAt);
    this.crashedAt = 0;
    this.recoverSignal.fire({ init, stats, ms, restarts: this._restarts });
    this.settle();
  }

  private settle(): void {
    for (const r of this.settleWaiters.splice(0)) r();
  }

  private failAll(err: Error): void {
    const calls = [...this.calls.values()];
    this.calls.clear();
    const internal = [...this.internal.values()];
    this.internal.clear();
    for (const c of calls) c.reject(err);
    for (const c of internal) c.reject(err);
    this.settle();
  }
}
