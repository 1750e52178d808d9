/**
 * Typed RPC to the engine worker (dist/engineWorker.js). Requests are answered in the order the
 * engine finishes them; events (progress, skip notices, reports) arrive in order, a request's
 * report before its response.
 */
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type {
  EngineEvent,
  EngineMessage,
  EngineRequest,
  EngineRequestEnvelope,
  EngineResponseMap,
} from '../node/engineProtocol';

type ResponseOf<R extends EngineRequest> = EngineResponseMap[R['type']];

interface Pending {
  resolve: (res: unknown) => void;
  reject: (err: Error) => void;
}

export class EngineStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineStoppedError';
  }
}

export class EngineClient implements vscode.Disposable {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly eventEmitter = new vscode.EventEmitter<EngineEvent>();
  private readonly crashEmitter = new vscode.EventEmitter<string>();
  private stopping = false;

  readonly onEvent = this.eventEmitter.event;
  /** The worker died without being asked to stop (the reason as text). */
  readonly onDidCrash = this.crashEmitter.event;

  constructor(private readonly script: string) {}

  get running(): boolean {
    return this.worker !== null;
  }

  start(): void {
    if (this.worker) return;
    this.stopping = false;
    const w = new Worker(this.script, { name: 'neardup-engine' });
    this.worker = w;
    let lastError = '';
    w.on('message', (msg: EngineMessage) => this.onMessage(msg));
    w.on('error', (e: Error) => {
      lastError = e.stack ?? e.message;
    });
    w.on('exit', (code) => {
      if (this.worker !== w) return;
      this.worker = null;
      const reason = lastError || `exit code ${code}`;
      this.failPending(new EngineStoppedError(`the NearDup engine stopped (${reason})`));
      if (!this.stopping) this.crashEmitter.fire(reason);
    });
  }

  request<R extends EngineRequest>(req: R): Promise<ResponseOf<R>> {
    const w = this.worker;
    if (!w) return Promise.reject(new EngineStoppedError('the NearDup engine is not running'));
    const id = this.nextId++;
    return new Promise<ResponseOf<R>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (res: unknown) => void, reject });
      const envelope: EngineRequestEnvelope = { id, req };
      try {
        w.postMessage(envelope);
      } catch (e) {
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  /** Asks the engine to save its cache, then ends the worker (after `timeoutMs` at the latest). */
  async stop(timeoutMs = 3000): Promise<void> {
    const w = this.worker;
    if (!w) return;
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.request({ type: 'shutdown' }).catch(() => undefined),
      new Promise<void>((r) => (timer = setTimeout(r, timeoutMs))),
    ]);
    clearTimeout(timer);
    if (this.worker === w) this.worker = null;
    this.failPending(new EngineStoppedError('the NearDup engine was stopped'));
    await w.terminate().catch(() => undefined);
  }

  dispose(): void {
    const w = this.worker;
    this.worker = null;
    this.stopping = true;
    this.failPending(new EngineStoppedError('the NearDup engine was disposed'));
    if (w) void w.terminate().catch(() => undefined);
    this.eventEmitter.dispose();
    this.crashEmitter.dispose();
  }

  private onMessage(msg: EngineMessage): void {
    if (!msg || typeof msg !== 'object') return;
    if (msg.kind === 'event') {
      this.eventEmitter.fire(msg.event);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.res);
    else p.reject(new Error(msg.error));
  }

  private failPending(err: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }
}
