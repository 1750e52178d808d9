/**
 * Typed RPC to the engine worker (dist/engineWorker.js), as VS Code events. The worker's
 * supervision — restart with back-off after a crash, recovery of its state, giving up after
 * repeated crashes — is {@link EngineSupervisor} (src/node, no vscode); this is its adapter.
 * Requests are answered in the order the engine finishes them; events (progress, skip notices,
 * reports) arrive in order, a request's report before its response.
 */
import * as vscode from 'vscode';
import type { EngineEvent, EngineRequest, EngineResponseMap } from '../../node/engine/engineProtocol';
import { EngineStoppedError, EngineSupervisor, type CrashInfo, type EngineSupervisorOptions, type RecoveryInfo } from '../../node/engine/engineSupervisor';

export { EngineStoppedError };
export type { CrashInfo, RecoveryInfo };

type ResponseOf<R extends EngineRequest> = EngineResponseMap[R['type']];

/**
 * Heap limit of the engine worker. Reaching it ends the worker (which is restarted, and given up
 * after repeated crashes) instead of aborting the whole extension host. The engine holds about
 * 2–3 KB per indexed file (see the scale test), so this leaves room for millions of files.
 */
export const ENGINE_HEAP_MB = 4096;

export class EngineClient implements vscode.Disposable {
  private readonly supervisor: EngineSupervisor;
  private readonly eventEmitter = new vscode.EventEmitter<EngineEvent>();
  private readonly crashEmitter = new vscode.EventEmitter<CrashInfo>();
  private readonly recoverEmitter = new vscode.EventEmitter<RecoveryInfo>();
  private readonly giveUpEmitter = new vscode.EventEmitter<string>();

  readonly onEvent = this.eventEmitter.event;
  /** The worker died without being asked to stop; a restart follows unless `restartInMs` is null. */
  readonly onDidCrash = this.crashEmitter.event;
  /** A restarted worker caught up (init and reindex from the cache); waiting requests go on. */
  readonly onDidRecover = this.recoverEmitter.event;
  /** Too many consecutive crashes: the engine is not restarted again (until start()). */
  readonly onDidGiveUp = this.giveUpEmitter.event;

  constructor(script: string, options: Partial<EngineSupervisorOptions> = {}) {
    this.supervisor = new EngineSupervisor({
      name: 'neardup-engine',
      resourceLimits: { maxOldGenerationSizeMb: ENGINE_HEAP_MB },
      ...options,
      script,
    });
    this.supervisor.onEvent((e) => this.eventEmitter.fire(e));
    this.supervisor.onCrash((c) => this.crashEmitter.fire(c));
    this.supervisor.onRecovered((r) => this.recoverEmitter.fire(r));
    this.supervisor.onGiveUp((m) => this.giveUpEmitter.fire(m));
  }

  /** A worker is running or being restarted. */
  get running(): boolean {
    return this.supervisor.running;
  }

  get restarts(): number {
    return this.supervisor.restarts;
  }

  start(): void {
    this.supervisor.start();
  }

  request<R extends EngineRequest>(req: R): Promise<ResponseOf<R>> {
    return this.supervisor.request(req);
  }

  /** Resolves when no restart is under way. */
  whenSettled(): Promise<void> {
    return this.supervisor.whenSettled();
  }

  /** Fault injection (tests): kills the engine worker from outside. */
  kill(): boolean {
    return this.supervisor.kill();
  }

  stop(timeoutMs = 3000): Promise<void> {
    return this.supervisor.stop(timeoutMs);
  }

  dispose(): void {
    this.supervisor.dispose();
    this.eventEmitter.dispose();
    this.crashEmitter.dispose();
    this.recoverEmitter.dispose();
    this.giveUpEmitter.dispose();
  }
}
