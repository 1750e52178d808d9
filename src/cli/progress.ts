/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal.
 */
export class ProgressBar {
  private last = 0;
  private drawn = false;
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(done: number, found: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 80 && done < found) return;
    this.last = now;
    const width = 30;
    const ratio = found > 0 ? Math.min(1, done / found) : 0;
    const filled = Math.round(ratio * width);
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    this.stream.write(`\r${bar} ${done}/${found} files`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
