/**
 * What the engine's jobs tell the host as they go: the files left out (binary, minified…, with
 * the reason), posted in batches of up to 200, and a running index's progress (walking, reading,
 * matching), at most once per interval unless forced, the skips gathered so far posted first.
 */
import type { EngineEvent } from '../engineProtocol';

export class JobNotices {
  private skipNotices: Array<{ path: string; reason: string }> = [];
  private lastProgress = 0;

  constructor(
    private readonly emit: (event: EngineEvent) => void,
    private readonly progressIntervalMs: number,
  ) {}

  /** A file left out, with the reason (posted with the next batch). */
  skip(p: string, reason: string): void {
    this.skipNotices.push({ path: p, reason });
    if (this.skipNotices.length >= 200) this.flushSkips();
  }

  /** Posts the skips gathered so far. */
  flushSkips(): void {
    if (this.skipNotices.length === 0) return;
    this.emit({ type: 'skipped', items: this.skipNotices });
    this.skipNotices = [];
  }

  /** A job's progress, unless one was posted less than the interval ago (`force`: posted anyway). */
  progress(phase: 'walking' | 'reading' | 'matching', done: number, total: number, force = false): void {
    const now = performance.now();
    if (!force && now - this.lastProgress < this.progressIntervalMs) return;
    this.lastProgress = now;
    this.flushSkips();
    this.emit({ type: 'progress', phase, done, total });
  }
}
