/**
 * The engine's index job (`reindex`, and an update that needs a walk): every root walked (on the
 * addon's directory listing where it is loaded), the entries of files gone dropped after a
 * complete walk, the files new or changed in size or mtime read, then the report and its located
 * copies. `readFiles` (an update's reads too) fingerprints files through the fingerprint workers,
 * a batch whose worker died one file at a time, and writes the cache at checkpoints of a long read.
 */
import * as path from 'node:path';
import type { EngineSettings } from '../../settings/engineSettings';
import { walkFiles, walkFilesSliced, type WalkOptions } from '../../files/walk';
import type { FileOutcome, FileToFingerprint } from '../../workers/fileOutcome';
import { nativeLister } from '../../workers/nativeKernel';
import type { DocumentEntries, IndexEntry } from '../documentEntries';
import type { EngineConfig, EngineEvent, IndexStats } from '../engineProtocol';
import type { EngineRegions } from '../regions/engineRegions';
import { fileSignature } from '../regions/regionsHost';
import type { CacheWriter } from './cacheWriter';
import type { RootRules } from './engineRules';
import type { JobNotices } from './jobNotices';
import type { Candidate } from './updatePlan';
import { sendInBatches } from './fileBatches';

/** What a read needs of the engine's {@link Fingerprinter}. */
export interface FileReader {
  readonly size: number;
  /** `regions`: with each file's region document too (`FileOutcome.region`), if it can. */
  fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings, regions?: boolean): Promise<FileOutcome[]>;
}

/** The engine's parts a read needs (EngineState provides them). */
export interface ReadFilesHost {
  config(): EngineConfig;
  entries: Pick<DocumentEntries<IndexEntry>, 'set'>;
  regions: Pick<EngineRegions, 'offer'>;
  notices: Pick<JobNotices, 'progress'>;
  cache: Pick<CacheWriter, 'path' | 'dirty' | 'lastSaveMs' | 'flush'>;
  fingerprinter: FileReader;
  /** Files and bytes per message to a fingerprint worker (fileBatches.ts). */
  batch: { files: number; bytes: number };
  /** A long read writes the cache at most this often (0: never). */
  checkpointMs: number;
}

/** The engine's parts an index job needs (EngineState provides them). */
export interface IndexJobHost extends ReadFilesHost {
  rules(): readonly RootRules[];
  entries: Pick<DocumentEntries<IndexEntry>, 'set' | 'get' | 'delete' | 'keys' | 'docs'>;
  regions: Pick<EngineRegions, 'offer' | 'wantsDocs' | 'prefetch'>;
  notices: JobNotices;
  cache: Pick<CacheWriter, 'path' | 'dirty' | 'lastSaveMs' | 'flush' | 'schedule'>;
  emit(event: EngineEvent): void;
  /** The job runs (`cancel` and a new reindex abort it). */
  started(job: AbortController): void;
  /** The job's walk and reads are over: a cancel would stop nothing now (the report follows). */
  readsOver(job: AbortController): void;
  /** The job is over. */
  ended(job: AbortController): void;
  /** The job's report (posted), then its located copies. */
  report(stats: IndexStats): Promise<void>;
}

function isAbort(e: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (e as Error)?.name === 'AbortError';
}

/** Walks every root of the rules, reads what changed, and makes the report. Run in the engine's serial queue. */
export async function runIndex(h: IndexJobHost): Promise<IndexStats> {
  const config = h.config();
  const settings = config.settings;
  const job = new AbortController();
  h.started(job);
  const signal = job.signal;
  const started = performance.now();
  h.emit({ type: 'indexing', active: true });
  let cancelled = false;
  let skipped = 0;
  const skip = (p: string, reason: string) => {
    skipped++;
    h.notices.skip(p, reason);
  };
  try {
    // 1. Walk.
    const seen = new Map<string, Candidate>();
    h.notices.progress('walking', 0, 0, true);
    // (on the addon's directory listing, in slices, where it is loaded)
    const lister = nativeLister();
    const walk = (dir: string, o: WalkOptions) => (lister ? walkFilesSliced(dir, { ...o, lister }) : walkFiles(dir, o));
    for (const root of h.rules()) {
      const own = config.roots.find((r) => path.resolve(r.path) === root.path);
      try {
        for await (const e of walk(root.path, {
          include: own?.project?.include ?? config.include,
          exclude: [...(own?.project?.exclude ?? config.exclude), ...(own?.exclude ?? [])],
          maxFileSizeBytes: settings.maxFileSizeBytes,
          onSkip: (rel, reason) => skip(path.join(root.path, rel), reason),
          signal,
        })) {
          if (!seen.has(e.path)) seen.set(e.path, { path: e.path, size: e.size, mtimeMs: e.mtimeMs });
          h.notices.progress('walking', seen.size, 0);
        }
      } catch (e) {
        if (isAbort(e, signal)) {
          cancelled = true;
          break;
        }
        h.emit({ type: 'log', level: 'error', message: `cannot index ${root.path}: ${(e as Error).message}` });
      }
    }
    // 2. Forget what is gone (only after a complete walk).
    let removed = 0;
    if (!cancelled) {
      for (const p of [...h.entries.keys()]) {
        if (!seen.has(p)) {
          h.entries.delete(p);
          removed++;
        }
      }
    }
    // 3. Read what changed.
    const toRead: Candidate[] = [];
    for (const c of seen.values()) {
      const e = h.entries.get(c.path);
      if (e && e.size === c.size && e.mtimeMs === c.mtimeMs && !e.transient) {
        if (!e.doc) skip(c.path, e.reason ?? 'skipped');
      } else {
        toRead.push(c);
      }
    }
    const cacheHits = seen.size - toRead.length;
    let reread = 0;
    if (!cancelled) {
      // (a full build of the located copies next: their documents read with the fingerprints)
      let walked = 0;
      for (const c of seen.values()) walked += c.size;
      const early = h.regions.wantsDocs(walked);
      const r = await readFiles(h, toRead, signal, cacheHits, seen.size, skip, early);
      // (and the cache's files' documents read while this thread makes the report)
      if (early && !r.cancelled) h.regions.prefetch();
      reread = r.read;
      cancelled = r.cancelled;
    }
    h.readsOver(job);
    if (removed > 0 || reread > 0) h.cache.dirty = true;
    h.notices.progress('matching', seen.size, seen.size, true);
    const stats: IndexStats = {
      files: h.entries.docs.size,
      reread,
      cacheHits,
      removed,
      skipped,
      cancelled,
      elapsedMs: 0,
      matchMs: 0,
    };
    h.notices.flushSkips();
    // Report first (the host waits for it), then write the cache.
    stats.elapsedMs = Math.round(performance.now() - started);
    await h.report(stats);
    stats.elapsedMs = Math.round(performance.now() - started);
    if (h.cache.dirty) h.cache.schedule(0);
    return stats;
  } finally {
    h.ended(job);
    h.emit({ type: 'indexing', active: false });
  }
}

/** Fingerprints the candidates through the pool; stops early when `signal` aborts. */
export async function readFiles(
  h: ReadFilesHost,
  list: Candidate[],
  signal: AbortSignal,
  doneBefore: number,
  total: number,
  skip: (p: string, reason: string) => void,
  regions = false,
): Promise<{ read: number; cancelled: boolean }> {
  const settings = h.config().settings;
  let done = doneBefore;
  let read = 0;
  const byPath = new Map(list.map((c) => [c.path, c]));
  let lastCheckpoint = performance.now();
  const collect = (outcomes: FileOutcome[], transient = false) => {
    for (const o of outcomes) {
      const c = byPath.get(o.relPath);
      if (!c) continue;
      done++;
      read++;
      if (o.ok) {
        h.entries.set(c.path, { size: c.size, mtimeMs: c.mtimeMs, doc: o.doc, lines: o.lines });
        if (o.region) h.regions.offer(c.path, fileSignature(c.size, c.mtimeMs), o.region);
      } else {
        h.entries.set(c.path, { size: c.size, mtimeMs: c.mtimeMs, doc: null, reason: o.reason, transient: transient || undefined });
        skip(c.path, o.reason);
      }
    }
    h.notices.progress('reading', done, total);
    // Checkpoint: a long index writes what it has read now and then, so a crashed (restarted)
    // engine starts from there instead of from nothing.
    const now = performance.now();
    if (h.checkpointMs > 0 && h.cache.path && now - lastCheckpoint >= Math.max(h.checkpointMs, 10 * h.cache.lastSaveMs)) {
      lastCheckpoint = now;
      h.cache.dirty = true;
      void h.cache.flush();
    }
  };
  const send = async (batch: Candidate[]): Promise<void> => {
    const files = batch.map((c) => ({ path: c.path, relPath: c.path }));
    try {
      collect(await h.fingerprinter.fingerprintFiles(files, settings, regions));
    } catch {
      // A batch whose worker died: one by one, so only the culprit is lost.
      for (const f of files) {
        try {
          collect(await h.fingerprinter.fingerprintFiles([f], settings));
        } catch (e) {
          collect([{ relPath: f.relPath, ok: false, reason: `fingerprinting failed (${(e as Error).message})` }], true);
        }
      }
    }
  };
  h.notices.progress('reading', done, total, true);
  await sendInBatches(list, (c) => c.size, { ...h.batch, inFlight: Math.max(2, h.fingerprinter.size * 2), signal }, send);
  h.notices.progress('reading', done, total, true);
  return { read, cancelled: signal.aborted };
}
