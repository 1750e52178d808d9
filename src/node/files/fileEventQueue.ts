/**
 * Coalesces file events (saves, watcher events, creations, deletions, renames) into batches for
 * the engine, without vscode so that it is unit-tested in plain Node.
 *
 * - One entry per path, the latest operation winning: hundreds of saves of one file are one
 *   upsert, and the queue never holds more entries than there are distinct paths.
 * - A batch goes out after `debounceMs` of quiet, or `maxWaitMs` after its first event under a
 *   steady stream. A repeated event (a save and the watcher's echo of it) does not postpone it.
 * - At most one batch is in flight: what arrives meanwhile accumulates and goes out as one batch
 *   when the engine has answered — a branch switch that changes thousands of files while the
 *   engine works on the first batch becomes one more job, not one per debounce period.
 * - After a burst (at least `burstPaths` paths between two idle moments) `onBurstEnd` is called
 *   once the queue is idle: file watchers lose events in bursts (a folder created and filled at
 *   once may never be watched), so the owner re-walks the workspace to catch what was missed.
 * - A batch holds at most `maxBatchPaths` paths (the oldest first): building it and posting it to
 *   the engine are one task of the owner's thread, which must stay short. The rest goes out as
 *   the next batch as soon as the engine has answered.
 */

export type FileOp = 'upsert' | 'remove';

export interface FileEventBatch {
  upserts: string[];
  removes: string[];
  renames: Array<{ from: string; to: string }>;
}

/** Timers (tests pass a virtual clock). */
export interface QueueClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: QueueClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface FileEventQueueOptions {
  /** Quiet time after the last event before a batch goes out. Default 300 ms. */
  debounceMs?: number;
  /** A steady stream of events still goes out this often. Default 2000 ms. */
  maxWaitMs?: number;
  clock?: QueueClock;
  /** Called whenever the queue becomes idle (nothing waiting, nothing in flight). */
  onIdle?: () => void;
  /** Paths (and renames) between two idle moments that make a burst. Default 200. */
  burstPaths?: number;
  /** Called (before onIdle) when the queue becomes idle after a burst, with its size. */
  onBurstEnd?: (paths: number) => void;
  /** Paths (and renames) per batch at most. Default 10,000. */
  maxBatchPaths?: number;
  /** Runs each of the queue's own tasks (a timer, a batch after an answer): the owner times them. */
  runTask?: (task: () => void) => void;
}

export class FileEventQueue {
  private readonly ops = new Map<string, FileOp>();
  private renames: Array<{ from: string; to: string }> = [];
  private timer: unknown = undefined;
  private firstEventAt = 0;
  private inFlight = false;
  private disposed = false;
  /** Paths sent since the queue was last idle. */
  private sentSinceIdle = 0;
  private forcedBurst = false;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly clock: QueueClock;
  private readonly maxBatchPaths: number;
  private readonly runTask: (task: () => void) => void;
  /** Batches sent so far. */
  batches = 0;

  constructor(
    private readonly send: (batch: FileEventBatch) => Promise<unknown>,
    private readonly options: FileEventQueueOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 300;
    this.maxWaitMs = options.maxWaitMs ?? 2000;
    this.clock = options.clock ?? realClock;
    this.maxBatchPaths = Math.max(1, options.maxBatchPaths ?? 10_000);
    this.runTask = options.runTask ?? ((task) => task());
  }

  /** Paths and renames waiting (not counting a batch in flight). */
  get size(): number {
    return this.ops.size + this.renames.length;
  }

  /** Nothing waiting, no timer, no batch in flight. */
  get idle(): boolean {
    return this.size === 0 && this.timer === undefined && !this.inFlight;
  }

  add(path: string, op: FileOp): void {
    if (this.disposed) return;
    if (this.timer !== undefined && this.ops.get(path) === op) return;
    this.ops.delete(path); // keep the latest op, in arrival order
    this.ops.set(path, op);
    this.schedule();
  }

  /**
   * Drops a waiting upsert of `path` (the owner indexed the file another way: a save sent with
   * its text). A batch already sent is not touched.
   */
  forget(path: string): void {
    if (this.ops.get(path) === 'upsert') this.ops.delete(path);
  }

  rename(from: string, to: string): void {
    if (this.disposed) return;
    this.renames.push({ from, to });
    this.schedule();
  }

  /**
   * Makes the current period a burst whatever its size (the owner learnt that a folder appeared:
   * its files may have been written before the watcher watched it).
   */
  markBurst(): void {
    this.forcedBurst = true;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.ops.clear();
    this.renames = [];
  }

  private schedule(): void {
    const now = this.clock.now();
    if (this.timer === undefined) this.firstEventAt = now;
    else this.clock.clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstEventAt + this.maxWaitMs - now));
    this.timer = this.clock.setTimeout(() => this.runTask(() => this.fire()), wait);
  }

  private fire(): void {
    this.timer = undefined;
    if (this.disposed) return;
    if (this.inFlight) return; // goes out when the batch in flight is answered
    if (this.size === 0) {
      const burst = this.sentSinceIdle;
      const forced = this.forcedBurst;
      this.sentSinceIdle = 0;
      this.forcedBurst = false;
      if (forced || burst >= (this.options.burstPaths ?? 200)) this.options.onBurstEnd?.(burst);
      this.options.onIdle?.();
      return;
    }
    const renames = this.renames.splice(0, this.maxBatchPaths);
    const batch: FileEventBatch = { upserts: [], removes: [], renames };
    let room = this.maxBatchPaths - renames.length;
    for (const [p, op] of this.ops) {
      if (room-- <= 0) break;
      (op === 'upsert' ? batch.upserts : batch.removes).push(p);
      this.ops.delete(p); // deleting the entry being visited does not disturb a Map's iteration
    }
    this.inFlight = true;
    this.batches++;
    this.sentSinceIdle += batch.upserts.length + batch.removes.length + batch.renames.length;
    const done = () => {
      this.inFlight = false;
      if (this.disposed) return;
      // Events that came meanwhile and whose wait is over (or the rest of a full batch) go out
      // now; the rest wait for their timer.
      if (this.timer === undefined) this.runTask(() => this.fire());
    };
    let sent: Promise<unknown>;
    try {
      sent = this.send(batch);
    } catch (e) {
      sent = Promise.reject(e);
    }
    sent.then(done, done);
  }
}
