/**
 * The file watcher's echoes of saves already indexed. A document saved in the editor goes to the
 * engine at once with its text (`saveText`); the watcher sees the same write a little later. Such
 * an event is an echo when the file still has the size and mtime the engine indexed with the
 * text: it is dropped (no second job). Anything else — the file written again since, the engine's
 * answer missing — is a real change and goes on as a file event. Saves are remembered for
 * {@link ECHO_WINDOW_MS} at most.
 *
 * No vscode import: unit-tested in plain Node (the clock and the stat are injected).
 */
import { promises as fsp } from 'node:fs';

/** A save's echo is looked for this long after the save. */
export const ECHO_WINDOW_MS = 10_000;

export interface SavedStat {
  size: number;
  mtimeMs: number;
}

export class SaveEchoes {
  private readonly saves = new Map<string, { answer: Promise<SavedStat | undefined>; until: number }>();

  constructor(
    private readonly windowMs = ECHO_WINDOW_MS,
    private readonly stat: (path: string) => Promise<SavedStat> = (p) => fsp.stat(p),
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A save sent to the engine; `answer`: the size and mtime it indexed the text with (undefined: read from disk instead). */
  saved(path: string, answer: Promise<SavedStat | undefined>): void {
    this.saves.set(path, { answer: answer.catch(() => undefined), until: this.now() + this.windowMs });
    if (this.saves.size > 1000) this.expire();
  }

  /** A save of this path is recent (O(1): call it for every file event; then ask {@link isEcho}). */
  has(path: string): boolean {
    const s = this.saves.get(path);
    if (!s) return false;
    if (s.until >= this.now()) return true;
    this.saves.delete(path);
    return false;
  }

  /** The file is as the engine indexed it at the save: the event brings nothing new. */
  async isEcho(path: string): Promise<boolean> {
    const s = this.saves.get(path);
    if (!s) return false;
    const known = await s.answer;
    if (!known) return false;
    try {
      const st = await this.stat(path);
      return st.size === known.size && st.mtimeMs === known.mtimeMs;
    } catch {
      return false; // gone: a real change
    }
  }

  private expire(): void {
    const now = this.now();
    for (const [p, s] of this.saves) if (s.until < now) this.saves.delete(p);
  }
}
