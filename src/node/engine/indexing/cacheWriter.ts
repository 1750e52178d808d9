/**
 * The engine's writes of its fingerprint cache (fingerprintCache.ts): after live updates on a
 * timer (`schedule`), at the end of an index, at a long index's checkpoints and at shutdown
 * (`flush`). A write happens only when something changed since the last (`dirty`), one at a time
 * and in order; a failing write is logged once, until one works again.
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
  private saving: Promise<void> = Promise.resolve();
  /** How long the last cache write took (a checkpoint waits at least ten times that). */
  private lastSave = 0;
  /** A cache write failed and was logged; later failures are not logged again until one works. */
  private cacheWriteFailing = false;

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
    if (!this.dirty || !this.path || !settings) return this.saving;
    this.dirty = false;
    const file = this.path;
    const key = fingerprintKey(settings);
    const list: CachedEntry[] = [];
    for (const [p, e] of this.h.entries) {
      if (!e.transient) list.push({ path: p, size: e.size, mtimeMs: e.mtimeMs, doc: e.doc, reason: e.reason, lines: e.lines });
    }
    const io = this.io;
    this.saving = this.saving
      .then(async () => {
        const t0 = performance.now();
        await saveCache(file, key, list, io);
        this.lastSave = performance.now() - t0;
        if (this.cacheWriteFailing) {
          this.cacheWriteFailing = false;
          this.h.emit({ type: 'log', level: 'info', message: 'the fingerprint cache is written again' });
        }
      })
      .catch((e) => {
        // Once per failure streak: a full disk must not fill the log with a line per save.
        if (this.cacheWriteFailing) return;
        this.cacheWriteFailing = true;
        this.h.emit({
          type: 'log',
          level: 'warn',
          message: `could not write the fingerprint cache (${(e as Error).message}); indexing goes on without it`,
        });
      });
    return this.saving;
  }
}
