/**
 * A document saved in the editor, indexed from the text the editor holds (issue 19): no re-read,
 * no debounce. The entry keeps the file's size and mtime as they are on disk after the save, so
 * the file watcher's later event for the same save finds the file unchanged (and the host, told
 * them in the answer, does not even send it). Anything unusual — the file excluded, outside the
 * folders, an ignore file, gone, too large, a fingerprint worker that failed or deferred CJK text —
 * goes the way of a file event instead (`update`), which knows every case.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { DocumentFingerprint } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import type { FileOutcome } from '../workers/fileOutcome';
import type { SaveTextResult, UpdateResult } from './engineProtocol';
import { isRuleFile } from './indexing/updatePlan';

/** What the engine keeps of a file (structurally the engine's own entry). */
export interface SavedEntry {
  size: number;
  mtimeMs: number;
  doc: DocumentFingerprint | null;
  reason?: string;
  lines?: number;
}

/** The engine's parts a save needs (EngineState provides them; tests can too). */
export interface SavedTextHost {
  settings(): EngineSettings;
  /** Inside a folder and not excluded. */
  eligible(abs: string): Promise<boolean>;
  setEntry(abs: string, entry: SavedEntry): void;
  fingerprintText(abs: string, text: string, settings: EngineSettings): Promise<FileOutcome>;
  /** A skip notice (binary, minified…), posted at once. */
  skip(abs: string, reason: string): void;
  /** The file as a file event (read from disk, every rule applied). */
  update(abs: string): Promise<UpdateResult>;
  /** Matches the changed file incrementally, posts the report and schedules the cache write. */
  commit(stats: UpdateResult, changed: Set<string>): void | Promise<void>;
  documents(): number;
}

/** Indexes `text` as the content of `file` (absolute), saved just now. Run in the engine's serial queue. */
export async function applySavedText(h: SavedTextHost, file: string, text: string): Promise<SaveTextResult> {
  const started = performance.now();
  const abs = path.resolve(file);
  const settings = h.settings();
  const asFileEvent = async (): Promise<SaveTextResult> => ({ ...(await h.update(abs)), fromDisk: true });
  if (isRuleFile(abs) || !(await h.eligible(abs))) return asFileEvent();
  let st;
  try {
    st = await fsp.lstat(abs);
  } catch {
    return asFileEvent();
  }
  if (!st.isFile() || st.size > settings.maxFileSizeBytes) return asFileEvent();
  let o: FileOutcome;
  try {
    o = await h.fingerprintText(abs, text, settings);
  } catch {
    return asFileEvent();
  }
  if (!o.ok && o.retry) return asFileEvent();
  const stats: SaveTextResult = {
    files: 0,
    reread: 1,
    cacheHits: 0,
    removed: 0,
    skipped: 0,
    cancelled: false,
    elapsedMs: 0,
    matchMs: 0,
    rewalked: false,
    size: st.size,
    mtimeMs: st.mtimeMs,
  };
  // Always the given text, even when size and mtime look unchanged: two saves in a row may both
  // see the second one's mtime, and the later request carries the later text.
  if (o.ok) h.setEntry(abs, { size: st.size, mtimeMs: st.mtimeMs, doc: o.doc, lines: o.lines });
  else {
    h.setEntry(abs, { size: st.size, mtimeMs: st.mtimeMs, doc: null, reason: o.reason });
    stats.skipped = 1;
    h.skip(abs, o.reason);
  }
  stats.files = h.documents();
  await h.commit(stats, new Set([abs]));
  stats.elapsedMs = Math.round(performance.now() - started);
  return stats;
}
