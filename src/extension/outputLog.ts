/**
 * The "NearDup" output channel: one line per event worth knowing (skipped files, settings that
 * were corrected, engine errors). Never a popup.
 */
import * as vscode from 'vscode';

/** Lines kept in memory for {@link OutputLog.recent} (tests read them; the channel has all). */
const RECENT_LINES = 500;

export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly lines: string[] = [];
  /** Lines written so far. */
  private total = 0;

  constructor() {
    this.channel = vscode.window.createOutputChannel('NearDup', { log: true });
  }

  info(message: string): void {
    this.keep('info', message);
    this.channel.info(message);
  }

  warn(message: string): void {
    this.keep('warn', message);
    this.channel.warn(message);
  }

  error(message: string): void {
    this.keep('error', message);
    this.channel.error(message);
  }

  /** Lines written so far (a mark for {@link since}). */
  get count(): number {
    return this.total;
  }

  /** The lines written after `mark` (at most the last 500), as `level: message`. */
  since(mark = 0): string[] {
    const n = Math.min(this.lines.length, this.total - mark);
    return n > 0 ? this.lines.slice(this.lines.length - n) : [];
  }

  private keep(level: string, message: string): void {
    this.total++;
    this.lines.push(`${level}: ${message}`);
    if (this.lines.length > RECENT_LINES) this.lines.splice(0, this.lines.length - RECENT_LINES);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
