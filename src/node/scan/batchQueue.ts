/**
 * The scan's batches on their way (scan.ts): at most `limit` of them hold a place at once (a
 * worker's pipeline, or a lane of the addon's threads and one queued behind it), each taken in
 * order as a place frees. A batch gives its place back when it is done, or earlier through the
 * `free` its run is handed (a batch on the addon's threads whose other files wait for the walk's
 * end: filesHere.ts); the scan waits for every batch to be done. The first failure stops the
 * dispatch; batches still under way report nothing more (their run checks `failure`).
 */
export class BatchQueue<B> {
  /** Batches not yet dispatched, in order (the walk pushes them). */
  readonly ready: B[] = [];
  /** The first batch run that threw. */
  failure: { error: unknown } | null = null;
  private placed = 0;
  private unfinished = 0;
  private wake: (() => void) | null = null;

  constructor(
    private readonly limit: number,
    private readonly run: (batch: B, free: () => void) => Promise<void>,
  ) {}

  /** Whether a place is free (a partial batch may then go: the walk's flush). */
  get hasRoom(): boolean {
    return this.placed < this.limit;
  }

  /** Starts batches while places are free. */
  dispatch(): void {
    while (this.placed < this.limit && this.ready.length > 0 && !this.failure) {
      const batch = this.ready.shift()!;
      this.placed++;
      this.unfinished++;
      let holds = true;
      const free = () => {
        if (!holds) return;
        holds = false;
        this.placed--;
        this.dispatch();
      };
      this.run(batch, free).then(
        () => this.settled(free),
        (error: unknown) => {
          this.failure ??= { error };
          this.settled(free);
        },
      );
    }
  }

  /** Resolves once every batch is done (or one failed: see `failure`). */
  async drained(): Promise<void> {
    while ((this.unfinished > 0 || this.ready.length > 0) && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.dispatch();
    }
  }

  private settled(free: () => void): void {
    this.unfinished--;
    free();
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}
