/**
 * The index service's jobs, for {@link IndexService.whenIdle}: the requests and jobs its parts
 * track (counted until they settle) and the waiters, released once none runs and nothing else is
 * pending (`quiet`: no file event waiting, no report being applied, no slice of the host's tasks,
 * the engine not indexing). The parts call {@link JobTracker.check} when something of theirs ends.
 */

export class JobTracker {
  private busy = 0;
  private waiters: Array<() => void> = [];

  /** `quiet`: nothing pending besides the tracked jobs (asked at each check). */
  constructor(private readonly quiet: () => boolean) {}

  /** No tracked job runs and nothing is pending. */
  get idle(): boolean {
    return this.busy === 0 && this.quiet();
  }

  /** Counts `p` as running until it settles; returns it. */
  track<T>(p: Promise<T>): Promise<T> {
    this.busy++;
    const done = () => {
      this.busy--;
      this.check();
    };
    p.then(done, done);
    return p;
  }

  /** Something ended: releases the waiters when idle. */
  check(): void {
    if (!this.idle) return;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when idle. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Releases every waiter (the service is disposed). */
  dispose(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
