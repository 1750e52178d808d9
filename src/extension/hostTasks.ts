/**
 * Our own work on the extension host's thread: measured, and cut into short tasks.
 *
 * The extension host runs every extension and VS Code's side of the API on one thread, so a long
 * task of ours delays everything else. Work over large data — applying a report of 100,000 files,
 * publishing its diagnostics, building the tree, resolving a flood of file events — runs as a
 * sliced job ({@link HostTasks.run}): slices of about {@link SLICE_MS}, with a yield to the event
 * loop (setImmediate: pending I/O such as the workbench's messages goes first) between them.
 * Every task of ours — a slice, the handling of an engine message, a timer — is timed here, and
 * the test API exposes the figures (count, p99, maximum, per kind): in wall time, and in the
 * thread's CPU time where Node tells it (process.threadCpuUsage, Node ≥ 23.9). On a busy machine
 * the operating system may suspend the thread in the middle of a task: its wall time then grows
 * by time during which it did no work at all; its CPU time is the work it did.
 *
 * No vscode import: unit-tested in plain Node.
 */

/** Target length of one slice of a sliced job. */
export const SLICE_MS = 5;

/** Durations are kept in a histogram of 0.1 ms bins up to this, and counted above it. */
const HISTOGRAM_MS = 200;
const BIN_MS = 0.1;
const BINS = HISTOGRAM_MS / BIN_MS;

export interface DurationFigures {
  totalMs: number;
  maxMs: number;
  /** 99th percentile (to the 0.1 ms bin). */
  p99Ms: number;
  /** Tasks that took longer than 50 ms. */
  over50: number;
}

export interface TaskFigures extends DurationFigures {
  /** Tasks measured. */
  count: number;
  /** The same in the thread's CPU time (absent where Node cannot tell it). */
  cpu?: DurationFigures;
}

/** One of the longest tasks: where it ended, how long it took, and the collector's pauses in it. */
export interface LongTask {
  kind: string;
  /** When it ended (the clock's ms). */
  endMs: number;
  wallMs: number;
  /** Absent where Node cannot tell this thread's CPU time. */
  cpuMs?: number;
  /** The collector's pauses within the task, in ms. */
  gcMs: number;
}

export interface HostTaskFigures extends TaskFigures {
  /** Per kind of task (`report`, `diagnostics`, `tree`, `fileEvents`, `engineEvent`…). */
  byKind: Record<string, TaskFigures>;
  /** Sliced jobs run (each is one or more tasks). */
  jobs: number;
  /** The longest tasks (by CPU time where known, else wall time), longest first. */
  longest: LongTask[];
  /**
   * The longest task's own work: its CPU time (wall time where unknown) less the collector's
   * pauses within it. An upper bound: a task not among {@link longest} is counted at the
   * shortest of them.
   */
  ownMaxMs: number;
  /** The collector's pauses seen while observed (absent where this runtime does not report them). */
  collector?: { count: number; totalMs: number; maxMs: number };
}

class Histogram {
  count = 0;
  totalMs = 0;
  maxMs = 0;
  over50 = 0;
  private readonly bins = new Uint32Array(BINS + 1);

  add(ms: number): void {
    this.count++;
    this.totalMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    if (ms > 50) this.over50++;
    this.bins[Math.min(BINS, Math.floor(ms / BIN_MS))]++;
  }

  figures(): DurationFigures {
    let p99 = 0;
    if (this.count > 0) {
      const rank = Math.ceil(this.count * 0.99);
      let seen = 0;
      for (let i = 0; i <= BINS; i++) {
        seen += this.bins[i];
        if (seen >= rank) {
          p99 = i === BINS ? this.maxMs : Math.min(this.maxMs, (i + 1) * BIN_MS);
          break;
        }
      }
    }
    const r = (x: number) => +x.toFixed(2);
    return { totalMs: r(this.totalMs), maxMs: r(this.maxMs), p99Ms: r(p99), over50: this.over50 };
  }
}

class Durations {
  private readonly wall = new Histogram();
  private readonly cpu = new Histogram();

  add(wallMs: number, cpuMs: number): void {
    this.wall.add(wallMs);
    if (cpuMs >= 0) this.cpu.add(cpuMs);
  }

  figures(): TaskFigures {
    return { count: this.wall.count, ...this.wall.figures(), ...(this.cpu.count > 0 ? { cpu: this.cpu.figures() } : {}) };
  }
}

type ThreadCpuUsage = () => { user: number; system: number };
const threadCpuUsage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
/** CPU time of this thread in ms; NaN where Node cannot tell it. */
export const threadCpuMs: () => number =
  typeof threadCpuUsage === 'function'
    ? () => {
        const u = threadCpuUsage.call(process);
        return (u.user + u.system) / 1000;
      }
    : () => NaN;

/**
 * The clocks HostTasks reads, in ms: wall time (monotonic) and this thread's CPU time (NaN where
 * unknown). The product uses {@link SYSTEM_CLOCK}; tests give a clock they move themselves.
 */
export interface HostClock {
  now(): number;
  cpuMs(): number;
}

export const SYSTEM_CLOCK: HostClock = { now: () => performance.now(), cpuMs: () => threadCpuMs() };

/** Lets the event loop run (I/O first, then timers of 0 ms). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One sliced job's view of the clock: work while not {@link due}, then {@link yield}. */
export class Slice {
  private start: number;
  private cpuStart: number;
  /** Tasks of this job so far, and the longest that ended. */
  tasks = 1;
  maxMs = 0;

  constructor(
    private readonly owner: HostTasks,
    readonly kind: string,
    private readonly budgetMs: number,
    private readonly clock: HostClock = SYSTEM_CLOCK,
  ) {
    this.start = clock.now();
    this.cpuStart = clock.cpuMs();
  }

  /** Time spent in the current task so far. */
  get elapsedMs(): number {
    return this.clock.now() - this.start;
  }

  /** The current task has used its budget: call {@link yield} at the next consistent point. */
  get due(): boolean {
    return this.clock.now() - this.start >= this.budgetMs;
  }

  /**
   * Ends the current task, lets the event loop run, and starts the next one; with `pauseMs`, not
   * before that long (a job that paces what it hands to VS Code).
   */
  async yield(pauseMs = 0): Promise<void> {
    this.end();
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    else await yieldToEventLoop();
    this.tasks++;
    this.start = this.clock.now();
    this.cpuStart = this.clock.cpuMs();
  }

  /** Ends the job's last task (called by {@link HostTasks.run}). */
  finish(): void {
    this.end();
  }

  private end(): void {
    const ms = this.clock.now() - this.start;
    if (ms > this.maxMs) this.maxMs = ms;
    this.owner.record(this.kind, ms, this.clock.cpuMs() - this.cpuStart);
  }
}

/** Tasks kept with their windows (the longest), and the collector's latest pauses. */
const LONGEST = 16;
const RECENT_PAUSES = 32;

interface KeptTask extends LongTask {
  /** The measure the tasks are ranked by: CPU time where known, else wall time. */
  measure: number;
}

/** How much of [a0, a1] lies within [b0, b1]. */
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

export class HostTasks {
  private all = new Durations();
  private byKind = new Map<string, Durations>();
  private running = 0;
  private jobs = 0;
  /** The longest tasks, longest first. */
  private longest: KeptTask[] = [];
  /** The collector's latest pauses (a pause may be reported before the task it fell in ends). */
  private readonly pauses: Array<{ start: number; end: number }> = [];
  private collector: { count: number; totalMs: number; maxMs: number } | undefined;
  private readonly idleListeners = new Set<() => void>();

  constructor(
    private readonly budgetMs = SLICE_MS,
    private readonly clock: HostClock = SYSTEM_CLOCK,
  ) {}

  /** No sliced job is running or waiting to start. */
  get idle(): boolean {
    return this.running === 0;
  }

  /** Called whenever the last running job ends. Returns a function that removes the listener. */
  onIdle(listener: () => void): () => void {
    this.idleListeners.add(listener);
    return () => this.idleListeners.delete(listener);
  }

  /** Records one task of ours, ending now: its wall time, and its CPU time (NaN: unknown). */
  record(kind: string, ms: number, cpuMs = NaN): void {
    this.all.add(ms, cpuMs);
    let d = this.byKind.get(kind);
    if (!d) this.byKind.set(kind, (d = new Durations()));
    d.add(ms, cpuMs);
    const measure = Number.isFinite(cpuMs) ? cpuMs : ms;
    if (this.longest.length === LONGEST && measure <= this.longest[LONGEST - 1].measure) return;
    const endMs = this.clock.now();
    let gcMs = 0;
    for (const p of this.pauses) gcMs += overlap(endMs - ms, endMs, p.start, p.end);
    const w: KeptTask = { kind, endMs, wallMs: ms, ...(Number.isFinite(cpuMs) ? { cpuMs } : {}), gcMs, measure };
    let at = this.longest.findIndex((x) => x.measure < measure);
    if (at < 0) at = this.longest.length;
    this.longest.splice(at, 0, w);
    if (this.longest.length > LONGEST) this.longest.pop();
  }

  /**
   * A pause of the collector on this thread, of `ms` from `start` (the clock's ms): taken out of
   * the tasks it fell in. Reported by {@link observeCollector}; tests give pauses themselves.
   */
  collectorPause(start: number, ms: number): void {
    const end = start + ms;
    for (const w of this.longest) w.gcMs += overlap(w.endMs - w.wallMs, w.endMs, start, end);
    this.pauses.push({ start, end });
    if (this.pauses.length > RECENT_PAUSES) this.pauses.shift();
    const c = (this.collector ??= { count: 0, totalMs: 0, maxMs: 0 });
    c.count++;
    c.totalMs += ms;
    if (ms > c.maxMs) c.maxMs = ms;
  }

  /**
   * Watches V8's collector pauses on this thread (performance entries of type `gc`, where the
   * runtime reports them: Node; a browser's worker does not) for {@link collectorPause}. They are
   * in performance.now()'s time: the product's clock. Returns a function that stops watching.
   */
  observeCollector(): () => void {
    const Observer = (globalThis as { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
    if (!Observer || !(Observer.supportedEntryTypes ?? []).includes('gc')) return () => undefined;
    const observer = new Observer((list) => {
      for (const e of list.getEntries()) this.collectorPause(e.startTime, e.duration);
    });
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  }

  /** Runs `fn` now as (part of) one task of ours, timed. */
  time<T>(kind: string, fn: () => T): T {
    const t0 = this.clock.now();
    const c0 = this.clock.cpuMs();
    try {
      return fn();
    } finally {
      this.record(kind, this.clock.now() - t0, this.clock.cpuMs() - c0);
    }
  }

  /**
   * Runs a sliced job: `job` starts in a task of its own (never inside the caller's) and must
   * await nothing but `slice.yield()`, which it calls whenever `slice.due` at a point where it may
   * stop. The job counts as running (not {@link idle}) from this call until it settles.
   */
  run(kind: string, job: (slice: Slice) => Promise<void> | void): Promise<void> {
    this.running++;
    this.jobs++;
    return yieldToEventLoop()
      .then(async () => {
        const slice = new Slice(this, kind, this.budgetMs, this.clock);
        try {
          await job(slice);
        } finally {
          slice.finish();
        }
      })
      .finally(() => {
        if (--this.running === 0) for (const l of [...this.idleListeners]) l();
      });
  }

  figures(): HostTaskFigures {
    const byKind: Record<string, TaskFigures> = {};
    for (const [k, d] of [...this.byKind].sort(([a], [b]) => (a < b ? -1 : 1))) byKind[k] = d.figures();
    const r = (x: number) => +x.toFixed(2);
    const all = this.all.figures();
    // Tasks left out of the list were no longer than its shortest.
    const floor = all.count > this.longest.length ? (this.longest.at(-1)?.measure ?? 0) : 0;
    const ownMaxMs = r(Math.max(floor, ...this.longest.map((w) => Math.max(0, w.measure - w.gcMs))));
    const longest = this.longest.map(({ measure: _, ...w }) => ({
      ...w,
      endMs: r(w.endMs),
      wallMs: r(w.wallMs),
      ...(w.cpuMs !== undefined ? { cpuMs: r(w.cpuMs) } : {}),
      gcMs: r(w.gcMs),
    }));
    const collector = this.collector && { count: this.collector.count, totalMs: r(this.collector.totalMs), maxMs: r(this.collector.maxMs) };
    return { ...all, byKind, jobs: this.jobs, longest, ownMaxMs, ...(collector ? { collector } : {}) };
  }

  /** Forgets the figures so far (not the running jobs). */
  reset(): void {
    this.all = new Durations();
    this.byKind = new Map();
    this.jobs = 0;
    this.longest = [];
    this.collector = undefined;
  }
}
