/**
 * The engine's writes of its fingerprint cache (fingerprintCache.ts): after live updates on a
 * timer (`schedule`), at the end of an index, at a long index's checkpoints and at shutdown
 * (`flush`). A write happens only when something changed since the last (`dirty`), one at a time
 * and in order; a failing write is logged once, until one works again (SerialWrites, which the
 * region cache's writes use too: ../regions/regionCache.ts).
 */
import type { IndexEntry } from '../documentEntries';
import type { EngineEvent } from '../engineProtocol';
import { fingerprintKey, saveCache, type CacheIo, type CachedEntry } from '../fingerprintCache';
import type { EngineSettings } from '../../settings/engineSettings';

/** The engine's parts the cache writes need (EngineState provides them). */
export interface CacheWriterHost {
  /** The settings of the fingerprints (undefined: the engine is not initialised; nothing is written). */
  settings(): EngineSettings | undefined;
  /** Every entry, by path (transient ones are not written). */
  entries: Iterable<[string, IndexEntry]>;
  emit(event: EngineEvent): void;
}

export class CacheWriter {
  /** The cache file (null: no cache; nothing is written). */
  path: string | null = null;
  /** The entries changed since the last write. */
  dirty = false;
  private saveTimer: NodeJS.Timeout | null = null;
  private readonly writes = new SerialWrites('the fingerprint cache', 'indexing goes on without it', (level, message) => this.h.emit({ type: 'log', level, message }));
  /** How long the last cache write took (a checkpoint waits at least ten times that). */
  private lastSave = 0;

  constructor(
    private readonly h: CacheWriterHost,
    /** The cache's file operations (tests inject failures). */
    readonly io: CacheIo,
    private readonly saveDelayMs: number,
  ) {}

  /** How long the last cache write took (ms). */
  get lastSaveMs(): number {
    return this.lastSave;
  }

  /** Marks the entries changed and writes the cache after `delay` (ms) unless another change comes first. */
  schedule(delay = this.saveDelayMs): void {
    if (!this.path) return;
    this.dirty = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.flush(), delay);
    this.saveTimer.unref?.();
  }

  /** Writes the cache now if anything changed since the last write. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const settings = this.h.settings();
    if (!this.dirty || !this.path || !settings) return this.writes.done;
    this.dirty = false;
    const file = this.path;
    const key = fingerprintKey(settings);
    const list: CachedEntry[] = [];
    for (const [p, e] of this.h.entries) {
      if (!e.transient) list.push({ path: p, size: e.size, mtimeMs: e.mtimeMs, doc: e.doc, reason: e.reason, lines: e.lines });
    }
    const io = this.io;
    return this.writes.add(async () => {
      const t0 = performance.now();
      await saveCache(file, key, list, io);
      this.lastSave = performance.now() - t0;
    });
  }
}

/**
 * A cache's writes one after another, in order; a failing one logged once per failure streak (a
 * full disk must not fill the log with a line per save), and the first that works again told.
 */
export class SerialWrites {
  private saving: Promise<void> = Promise.resolve();
  private failing = false;

  constructor(
    /** The cache, in the messages ("the fingerprint cache"). */
    private readonly what: string,
    /** What a failure means for the user ("indexing goes on without it"). */
    private readonly meaning: string,
    private readonly log: (level: 'info' | 'warn', message: string) => void,
  ) {}

  /** `write` after the writes before it; settles when it is done (never rejects). */
  add(write: () => Promise<void>): Promise<void> {
    this.saving = this.saving.then(write).then(
      () => {
        if (this.failing) (this.failing = false), this.log('info', `${this.what} is written again`);
      },
      (e) => {
        if (this.failing) return;
        this.failing = true;
        this.log('warn', `could not write ${this.what} (${(e as Error).message}); ${this.meaning}`);
      },
    );
    return this.saving;
  }

  /** The writes added so far, done. */
  get done(): Promise<void> {
    return this.saving;
  }
}
