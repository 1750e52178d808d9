/**
 * A small typed pool over worker_threads.
 *
 * Protocol: main → worker `{ id, req }`; worker → main `{ id, ok: true, res }` or
 * `{ id, ok: false, error }` (see {@link serveWorker} for the worker side).
 *
 * - Tasks queue up and are dispatched, one at a time, to idle workers. Workers are started on
 *   demand (at most `size`), ref'ed while busy and unref'ed while idle, so an idle pool does not
 *   keep a CLI process alive; `close()` terminates them.
 * - A task whose handler throws is rejected with the worker's message; the worker stays.
 * - When a worker dies (uncaught error, exit of any code, out of memory under `resourceLimits`),
 *   its slot is restarted with exponential back-off (50 ms, 100, 200 … capped at 2 s) and the task
 *   it was running is retried once. If the task kills a worker again, it is rejected with a
 *   {@link WorkerCrashError}, so one poisonous input cannot stop a scan. Tasks that transferred
 *   buffers are not retried (the buffers are gone).
 * - A slot that crashes more than `maxRestarts` times in a row (no task completed in between) is
 *   given up; when every slot is given up, queued and future tasks are rejected.
 * - `pipeline` > 1 sends up to that many tasks to a worker before the first one is answered, so a
 *   worker never waits for the main thread between tasks. The worker must handle its requests one
 *   at a time, in order (as {@link serveWorker} does): when it dies, the oldest of its tasks is the
 *   one that was running (retried or rejected as above); the others had not started and go back
 *   to the front of the queue.
 * - A task may be pinned to one slot (`run(req, transfer, { slot })`), e.g. to the one worker
 *   that has loaded an expensive resource.
 * - `warm()` starts every worker at once (otherwise they start with the first tasks); `warm(n)`
 *   the first n slots' only.
 * - `prestarted` workers ({@link prestartWorker}: started with this script and workerData before
 *   the pool was made) are taken, in order, for the first workers the pool starts; one that has exited
 *   meanwhile is passed over, and those never taken are terminated by `close()`.
 */
import * as os from 'node:os';
import { Worker, parentPort, type ResourceLimits, type Transferable } from 'node:worker_threads';

export type { Transferable };

export interface WorkerRequestMessage<Req> {
  id: number;
  req: Req;
}

export type WorkerResponseMessage<Res> =
  | { id: number; ok: true; res: Res }
  | { id: number; ok: false; error: string; stack?: string };

export interface WorkerPoolOptions {
  /** Path of the worker entry (a .js file, or anything `execArgv` lets Node load). */
  script: string;
  /** Number of workers. Default: os.availableParallelism() (or cpus().length), at least 1. */
  size?: number;
  workerData?: unknown;
  /** Consecutive crashes of one slot before it is given up. Default 8. */
  maxRestarts?: number;
  resourceLimits?: ResourceLimits;
  execArgv?: string[];
  /** Tasks sent to one worker before its first is answered. Default 1. */
  pipeline?: number;
  /** Workers already started with `script` and `workerData` (and no execArgv or resource limits), for the first slots started. */
  prestarted?: PrestartedWorker[];
}

export interface RunOptions {
  /** Run on this slot only (0 … size − 1). */
  slot?: number;
}

/** The error of a task that crashed its worker twice (or once, when it cannot be retried). */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

/** The error of a task whose handler threw in the worker; `workerStack` is the worker's stack. */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly workerStack?: string,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

/**
 * A worker thread started before the pool that will use it exists (the CLI starts its scan's first
 * worker before its own set-up, so that the worker's boot overlaps the main thread's; issue 16).
 * Until a pool adopts it (WorkerPoolOptions.prestarted) it is unref'ed (it never keeps the process
 * alive) and its 'error' and 'exit' are noted here: an early death is neither an uncaught error
 * nor missed by the pool.
 */
export interface PrestartedWorker {
  readonly script: string;
  readonly workerData: unknown;
  /** True once the worker has exited (it is then not adopted). */
  readonly exited: boolean;
  /** True once the worker is online (its Node bootstrap done). */
  readonly online: boolean;
  /** The worker's thread id (-1 once it has stopped). */
  readonly threadId: number;
  /** Hands the worker over: the listeners of {@link prestartWorker} are removed (the adopter adds its own). */
  release(): Worker;
}

/** Starts a worker of `script` with `workerData` (as WorkerPool starts one, without execArgv or resource limits). */
export function prestartWorker(script: string, workerData: unknown): PrestartedWorker {
  const worker = new Worker(script, { workerData });
  let exited = false;
  let online = false;
  const onError = () => undefined; // a worker exits after an uncaught error: seen as `exited`
  const onExit = () => void (exited = true);
  const onOnline = () => void (online = true);
  worker.on('error', onError);
  worker.on('exit', onExit);
  worker.once('online', onOnline);
  worker.unref();
  return {
    script,
    workerData,
    get exited() { return exited; },
    get online() { return online; },
    get threadId() { return worker.threadId; },
    release() {
      worker.off('error', onError);
      worker.off('exit', onExit);
      worker.off('online', onOnline);
      return worker;
    },
  };
}

export const BACKOFF_INITIAL_MS = 50;
export const BACKOFF_MAX_MS = 2000;

interface Task<Req, Res> {
  id: number;
  req: Req;
  transfer: Transferable[] | undefined;
  attempts: number;
  /** The slot it must run on, or -1. */
  slot: number;
  resolve: (res: Res) => void;
  reject: (err: Error) => void;
}

interface Slot<Req, Res> {
  index: number;
  worker: Worker | null;
  /** Tasks sent to the worker and not answered yet, oldest first (the first one is running). */
  tasks: Task<Req, Res>[];
  /** Consecutive crashes without a completed task. */
  crashes: number;
  /** Earliest time a new worker may be started (back-off). */
  notBefore: number;
  dead: boolean;
  lastError: string | null;
}

export class WorkerPool<Req, Res> {
  private readonly slots: Slot<Req, Res>[] = [];
  private readonly queue: Task<Req, Res>[] = [];
  private readonly opts: WorkerPoolOptions;
  private readonly maxRestarts: number;
  private readonly pipeline: number;
  private nextId = 1;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private readonly prestarted: PrestartedWorker[];
  /** Workers started and not yet online, and who waits for none to be left ({@link whenOnline}). */
  private readonly booting = new Set<Worker>();
  private onlineWaiters: Array<() => void> = [];

  constructor(options: WorkerPoolOptions) {
    this.opts = options;
    this.prestarted = (options.prestarted ?? []).filter((p) => p.script === options.script && p.workerData === options.workerData);
    const size = Math.max(1, Math.floor(options.size ?? defaultSize()));
    this.maxRestarts = Math.max(0, options.maxRestarts ?? 8);
    this.pipeline = Math.max(1, Math.floor(options.pipeline ?? 1));
    for (let i = 0; i < size; i++) {
      this.slots.push({ index: i, worker: null, tasks: [], crashes: 0, notBefore: 0, dead: false, lastError: null });
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * The thread ids of the workers started and not yet exited, in slot order (read-only; for tests
   * and diagnostics: which workers exist, without timing them).
   */
  workerThreadIds(): number[] {
    return this.slots.flatMap((s) => (s.worker ? [s.worker.threadId] : []));
  }

  run(req: Req, transfer?: Transferable[], options: RunOptions = {}): Promise<Res> {
    if (this.closed) return Promise.reject(new Error('WorkerPool is closed'));
    if (this.slots.every((s) => s.dead)) return Promise.reject(this.allDeadError());
    const slot = options.slot ?? -1;
    if (slot !== -1 && !(Number.isInteger(slot) && slot >= 0 && slot < this.slots.length)) {
      return Promise.reject(new RangeError(`no slot ${slot} in a pool of ${this.slots.length}`));
    }
    if (slot !== -1 && this.slots[slot].dead) return Promise.reject(this.slotDeadError(this.slots[slot]));
    return new Promise<Res>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, req, transfer, attempts: 0, slot, resolve, reject });
      this.pump();
    });
  }

  /**
   * Fault injection (tests): terminates one worker exactly as if it had died; the pool restarts it
   * and retries its task. It picks a worker running a task on its first attempt (a random crash
   * hits a task once; a task that crashes its worker twice is rejected as poisonous), else an idle
   * one. False when there is no such worker.
   */
  terminateWorker(): boolean {
    const slot =
      this.slots.find((s) => s.worker && s.tasks.length > 0 && s.tasks[0].attempts < 2) ??
      this.slots.find((s) => s.worker && s.tasks.length === 0);
    if (!slot?.worker) return false;
    slot.lastError = 'terminated (fault injection)';
    void slot.worker.terminate().catch(() => undefined);
    return true;
  }

  /** Starts the workers (of the first `count` slots) now (idle: they do not keep the process alive). */
  warm(count = Infinity): void {
    if (this.closed) return;
    const now = Date.now();
    for (const slot of this.slots.slice(0, count)) {
      if (!slot.dead && !slot.worker && slot.notBefore <= now) {
        this.spawn(slot);
        slot.worker!.unref();
      }
    }
  }

  /** Resolves once every worker started so far is online or gone (their Node bootstrap over). */
  whenOnline(): Promise<void> {
    if (this.booting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.onlineWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const err = new Error('WorkerPool closed');
    for (const t of this.queue.splice(0)) t.reject(err);
    const exits: Promise<unknown>[] = [];
    for (const s of this.slots) {
      for (const t of s.tasks.splice(0)) t.reject(err);
      if (s.worker) {
        const w = s.worker;
        s.worker = null;
        exits.push(w.terminate().catch(() => undefined));
      }
    }
    for (const p of this.prestarted.splice(0)) exits.push(p.release().terminate().catch(() => undefined));
    await Promise.all(exits);
  }

  // -------------------------------------------------------------------------------------------

  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    let wakeAt = Infinity;
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.dead || slot.tasks.length >= this.pipeline) continue;
      if (!this.queue.some((t) => t.slot === -1 || t.slot === slot.index)) continue;
      if (!slot.worker) {
        if (slot.notBefore > now) {
          wakeAt = Math.min(wakeAt, slot.notBefore);
          continue;
        }
        this.spawn(slot);
      }
      while (slot.worker && slot.tasks.length < this.pipeline) {
        const i = this.queue.findIndex((t) => t.slot === -1 || t.slot === slot.index);
        if (i < 0) break;
        this.dispatch(slot, this.queue.splice(i, 1)[0]);
      }
    }
    if (this.queue.length > 0) {
      // Tasks pinned to a slot that was given up can never run.
      for (let i = this.queue.length - 1; i >= 0; i--) {
        const t = this.queue[i];
        if (t.slot !== -1 && this.slots[t.slot].dead) {
          this.queue.splice(i, 1);
          t.reject(this.slotDeadError(this.slots[t.slot]));
        }
      }
      if (this.slots.every((s) => s.dead)) {
        const err = this.allDeadError();
        for (const t of this.queue.splice(0)) t.reject(err);
      } else if (wakeAt < Infinity) {
        this.schedule(wakeAt);
      }
    }
  }

  private schedule(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    // Ref'ed on purpose: there is queued work waiting for this restart.
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(0, at - Date.now()));
  }

  private spawn(slot: Slot<Req, Res>): void {
    const early = this.takePrestarted();
    const w =
      early?.release() ??
      new Worker(this.opts.script, {
        workerData: this.opts.workerData,
        resourceLimits: this.opts.resourceLimits,
        execArgv: this.opts.execArgv,
      });
    if (!early?.online) {
      this.booting.add(w);
      const booted = () => this.booted(w);
      w.once('online', booted);
      w.once('exit', booted);
    }
    slot.worker = w;
    slot.lastError = null;
    w.on('message', (msg: WorkerResponseMessage<Res>) => this.onMessage(slot, w, msg));
    w.on('error', (err: Error) => {
      if (slot.worker === w) slot.lastError = describe(err);
    });
    w.on('messageerror', (err: Error) => {
      // A response that could not be deserialised: fail the running task, keep the worker.
      if (slot.worker !== w || slot.tasks.length === 0) return;
      const t = slot.tasks.shift()!;
      t.reject(new WorkerTaskError(`could not receive the worker's response: ${describe(err)}`));
      this.idle(slot);
    });
    w.on('exit', (code: number) => this.onExit(slot, w, code));
  }

  /** The next prestarted worker still running (those that exited are let go), if any. */
  private takePrestarted(): PrestartedWorker | undefined {
    if (this.opts.execArgv || this.opts.resourceLimits) return undefined;
    for (let p = this.prestarted.shift(); p; p = this.prestarted.shift()) {
      if (!p.exited) return p;
      p.release();
    }
    return undefined;
  }

  private booted(w: Worker): void {
    if (!this.booting.delete(w) || this.booting.size > 0) return;
    for (const resolve of this.onlineWaiters.splice(0)) resolve();
  }

  private dispatch(slot: Slot<Req, Res>, task: Task<Req, Res>): void {
    const w = slot.worker!;
    slot.tasks.push(task);
    task.attempts++;
    w.ref();
    try {
      const msg: WorkerRequestMessage<Req> = { id: task.id, req: task.req };
      w.postMessage(msg, task.transfer);
    } catch (e) {
      // Not cloneable: the request itself is at fault.
      slot.tasks.pop();
      task.reject(new WorkerTaskError(`could not send the request to the worker: ${describe(e)}`));
      this.idle(slot);
    }
  }

  private onMessage(slot: Slot<Req, Res>, w: Worker, msg: WorkerResponseMessage<Res>): void {
    if (slot.worker !== w || !msg) return;
    const i = slot.tasks.findIndex((t) => t.id === msg.id);
    if (i < 0) return;
    const t = slot.tasks.splice(i, 1)[0];
    slot.crashes = 0;
    if (msg.ok) t.resolve(msg.res);
    else t.reject(new WorkerTaskError(msg.error, msg.stack));
    this.idle(slot);
  }

  private idle(slot: Slot<Req, Res>): void {
    if (this.queue.length > 0) this.pump();
    if (slot.tasks.length === 0 && slot.worker) slot.worker.unref();
  }

  private onExit(slot: Slot<Req, Res>, w: Worker, code: number): void {
    if (slot.worker !== w || this.closed) return;
    slot.worker = null;
    const reason = slot.lastError ?? `exit code ${code}`;
    slot.lastError = null;
    slot.crashes++;
    const delay = Math.min(BACKOFF_INITIAL_MS * 2 ** (slot.crashes - 1), BACKOFF_MAX_MS);
    slot.notBefore = Date.now() + delay;
    if (slot.crashes > this.maxRestarts) slot.dead = true;

    // The oldest task was running; the others had not started: they go back, first in line.
    const [t, ...waiting] = slot.tasks.splice(0);
    for (let i = waiting.length - 1; i >= 0; i--) {
      const x = waiting[i];
      if (x.transfer && x.transfer.length > 0) {
        x.reject(new WorkerCrashError(`worker crashed before this task started (${reason}); not retried because its buffers were transferred`));
      } else {
        x.attempts--;
        this.queue.unshift(x);
      }
    }
    if (t) {
      if (t.attempts >= 2) {
        t.reject(new WorkerCrashError(`worker crashed twice while processing this task (${reason})`));
      } else if (t.transfer && t.transfer.length > 0) {
        t.reject(new WorkerCrashError(`worker crashed while processing this task (${reason}); not retried because its buffers were transferred`));
      } else {
        this.queue.unshift(t); // retry once, first in line
      }
    }
    this.pump();
  }

  private slotDeadError(slot: Slot<Req, Res>): Error {
    return new WorkerCrashError(
      `worker ${slot.index} crashed more than ${this.maxRestarts} times in a row; giving up (${this.opts.script})`,
    );
  }

  private allDeadError(): Error {
    return new WorkerCrashError(
      `all ${this.slots.length} worker(s) crashed more than ${this.maxRestarts} times in a row; giving up (${this.opts.script})`,
    );
  }
}

/**
 * Call from a worker entry: answers each `{ id, req }` with the handler's result. Requests are
 * handled one at a time per worker by the pool. `transfer` may name buffers of the result to move
 * instead of copy.
 */
export function serveWorker<Req, Res>(
  handler: (req: Req) => Res | Promise<Res>,
  options: { transfer?: (res: Res) => Transferable[] } = {},
): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker() must be called inside a worker thread');
  // One request at a time, in the order they came (the pool relies on it when it pipelines).
  const waiting: Array<WorkerRequestMessage<Req>> = [];
  let busy = false;
  const serve = async (msg: WorkerRequestMessage<Req>): Promise<void> => {
    const id = msg?.id;
    try {
      const res = await handler(msg.req);
      const reply: WorkerResponseMessage<Res> = { id, ok: true, res };
      port.postMessage(reply, options.transfer ? options.transfer(res) : undefined);
    } catch (e) {
      const reply: WorkerResponseMessage<Res> = {
        id,
        ok: false,
        error: describe(e),
        stack: e instanceof Error ? e.stack : undefined,
      };
      port.postMessage(reply);
    }
  };
  port.on('message', async (msg: WorkerRequestMessage<Req>) => {
    waiting.push(msg);
    if (busy) return;
    busy = true;
    try {
      for (let next = waiting.shift(); next !== undefined; next = waiting.shift()) await serve(next);
    } finally {
      busy = false;
    }
  });
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && !e.message.includes(code)) return `${code}: ${e.message}`;
    return e.name && e.name !== 'Error' && !e.message.startsWith(e.name) ? `${e.name}: ${e.message}` : e.message;
  }
  return String(e);
}

function defaultSize(): number {
  const ap = (os as { availableParallelism?: () => number }).availableParallelism;
  return typeof ap === 'function' ? ap() : os.cpus().length || 1;
}
