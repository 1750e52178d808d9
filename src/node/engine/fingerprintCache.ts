/**
 * The fingerprint cache of the extension: one compact binary file in the workspace storage.
 *
 * Entries are keyed by absolute path and valid while the file's size and mtime are unchanged.
 * Files that were skipped (binary, minified…) are cached too, with their reason, so a warm start
 * re-reads nothing that did not change.
 *
 * Layout (little-endian):
 *   header  "NDFC" | u32 format version | u32 body length | u32 FNV-1a checksum of the body
 *   body    str settings key | u32 count | count × entry
 *   entry   str path | f64 size | f64 mtimeMs | u8 status (0 skipped, 1 code, 2 prose)
 *           skipped: str reason
 *           doc:     u32 lines + 1 (0: not known) | u8 hasFile [item] | u32 sections | sections × (u32 startLine | u32 endLine | item)
 *   item    u32 hi | u32 lo | u32 tokens | u32 features | u32 rawHi | u32 rawLo | u32 normHi | u32 normLo
 *           | u16 sketch length | u32 × sketch
 *   str     u32 byte length | UTF-8
 * Anything unexpected (wrong magic, other version, bad length or checksum, values out of range)
 * discards the whole file: the cache is rebuilt, never trusted in part. Writes go to a temporary
 * file that is renamed over the old one, so a crash mid-write leaves the old cache or none; the
 * temporary files of writers that died are deleted at the next load. All file operations go
 * through a {@link CacheIo} (tests inject failures: a full disk, an unwritable folder).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { DocumentFingerprint, ItemFingerprint, SectionFingerprint } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import { bodyOf, checksum, CorruptCache, headedWriter, Reader, withHeader, type Writer } from './indexing/cacheFile';

export { checksum } from './indexing/cacheFile';

export const CACHE_MAGIC = 'NDFC';
/**
 * Bump when the layout or the fingerprint algorithm changes (2: comments by language,
 * languageTable.ts; 3: neardup-ignore markers, so unchanged files cached before them are re-read;
 * 4: notebooks by cell and Vue / Svelte components by block, core/containers; 5: each document's
 * number of lines, for the share of lines in near duplicates; 6: each item's clone hashes, raw and
 * normalised, for the clone kind of its pairs; 7: regular-expression literals in the code tokeniser,
 * core/text/comments.ts).
 */
export const CACHE_FORMAT_VERSION = 7;
const MAX_SKETCH = 4096;

/** The settings that change fingerprints: the cache is only valid for the same values. */
export function fingerprintKey(s: EngineSettings): string {
  return JSON.stringify([s.minTokens, s.sections, s.normalizeIdentifiers, s.stopWords, s.weighting, s.cjkSegmenter, s.foldVariants]);
}

export interface CachedEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** The fingerprints, or null when the file was skipped (see `reason`). */
  doc: DocumentFingerprint | null;
  reason?: string;
  /** Lines of a fingerprinted document (absent: not known). */
  lines?: number;
}

export type DecodedCache = { ok: true; key: string; entries: CachedEntry[] } | { ok: false; reason: string };

export type LoadedCache =
  | { status: 'missing'; entries: [] }
  | { status: 'loaded'; entries: CachedEntry[] }
  | { status: 'discarded'; reason: string; entries: [] };

// --------------------------------------------------------------------------------- encoding

function writeItem(w: Writer, item: ItemFingerprint): void {
  w.u32(item.hi);
  w.u32(item.lo);
  w.u32(item.tokens);
  w.u32(item.features);
  w.u32(item.rawHi);
  w.u32(item.rawLo);
  w.u32(item.normHi);
  w.u32(item.normLo);
  const n = Math.min(item.sketch.length, MAX_SKETCH);
  w.u16(n);
  w.u32Array(n === item.sketch.length ? item.sketch : item.sketch.subarray(0, n));
}

export function encodeCache(key: string, entries: Iterable<CachedEntry>): Buffer {
  const list = [...entries];
  const w = headedWriter();
  w.str(key);
  w.u32(list.length);
  for (const e of list) {
    w.str(e.path);
    w.f64(e.size);
    w.f64(e.mtimeMs);
    if (!e.doc) {
      w.u8(0);
      w.str(e.reason ?? '');
      continue;
    }
    w.u8(e.doc.kind === 'code' ? 1 : 2);
    w.u32(e.lines === undefined ? 0 : e.lines + 1);
    w.u8(e.doc.file ? 1 : 0);
    if (e.doc.file) writeItem(w, e.doc.file);
    w.u32(e.doc.sections.length);
    for (const s of e.doc.sections) {
      w.u32(s.startLine);
      w.u32(s.endLine);
      writeItem(w, s);
    }
  }
  return withHeader(w, CACHE_MAGIC, CACHE_FORMAT_VERSION, checksum);
}

// --------------------------------------------------------------------------------- decoding

function readItem(r: Reader): ItemFingerprint {
  const hi = r.u32();
  const lo = r.u32();
  const tokens = r.u32();
  const features = r.u32();
  const rawHi = r.u32();
  const rawLo = r.u32();
  const normHi = r.u32();
  const normLo = r.u32();
  const n = r.u16();
  if (n > MAX_SKETCH) throw new CorruptCache('sketch too long');
  const sketch = r.u32Pooled(n);
  for (let i = 1; i < n; i++) if (sketch[i] < sketch[i - 1]) throw new CorruptCache('sketch not sorted');
  return { hi, lo, tokens, features, sketch, rawHi, rawLo, normHi, normLo };
}

export function decodeCache(buf: Buffer): DecodedCache {
  const body = bodyOf(buf, CACHE_MAGIC, CACHE_FORMAT_VERSION, checksum, 'NearDup cache');
  if (!Buffer.isBuffer(body)) return { ok: false, reason: body.reason };
  const r = new Reader(body);
  try {
    const key = r.str();
    const count = r.u32();
    const entries: CachedEntry[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) {
      const p = r.str();
      if (p === '' || seen.has(p)) throw new CorruptCache('bad or repeated path');
      seen.add(p);
      const size = r.f64();
      const mtimeMs = r.f64();
      if (!Number.isFinite(size) || size < 0 || !Number.isFinite(mtimeMs)) throw new CorruptCache('bad size or mtime');
      const status = r.u8();
      if (status === 0) {
        entries.push({ path: p, size, mtimeMs, doc: null, reason: r.str() });
        continue;
      }
      if (status !== 1 && status !== 2) throw new CorruptCache('bad status');
      const lines = r.u32();
      const hasFile = r.u8();
      if (hasFile > 1) throw new CorruptCache('bad flag');
      const file = hasFile ? readItem(r) : null;
      const n = r.u32();
      if (n > body.length) throw new CorruptCache('bad section count');
      const sections: SectionFingerprint[] = [];
      for (let s = 0; s < n; s++) {
        const startLine = r.u32();
        const endLine = r.u32();
        if (startLine < 1 || endLine < startLine) throw new CorruptCache('bad line range');
        sections.push({ startLine, endLine, ...readItem(r) });
      }
      const doc: DocumentFingerprint = { kind: status === 1 ? 'code' : 'prose', file, sections };
      entries.push(lines > 0 ? { path: p, size, mtimeMs, doc, lines: lines - 1 } : { path: p, size, mtimeMs, doc });
    }
    if (!r.done) throw new CorruptCache('trailing bytes');
    return { ok: true, key, entries };
  } catch (e) {
    if (e instanceof CorruptCache) return { ok: false, reason: `corrupt (${e.message})` };
    throw e;
  }
}

/**
 * The file operations of the cache, injectable so tests can simulate a full disk (ENOSPC), an
 * unwritable folder or a failing rename.
 */
export interface CacheIo {
  readFile(file: string): Promise<Buffer>;
  writeFile(file: string, data: Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(file: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
  readdir(dir: string): Promise<string[]>;
}

export const nodeCacheIo: CacheIo = {
  readFile: (f) => fsp.readFile(f),
  writeFile: (f, d) => fsp.writeFile(f, d),
  rename: (a, b) => fsp.rename(a, b),
  rm: (f) => fsp.rm(f, { force: true }),
  mkdir: async (d) => {
    await fsp.mkdir(d, { recursive: true });
  },
  readdir: (d) => fsp.readdir(d),
};

/** Reads the cache; a missing file is `missing`, anything unusable is `discarded` (and deleted). */
export async function loadCache(file: string, key: string, io: CacheIo = nodeCacheIo): Promise<LoadedCache> {
  const r = await readCacheFile(file, key, decodeCache, 'made with other fingerprint settings', io);
  return r.status === 'loaded' ? { status: 'loaded', entries: r.value.entries } : { ...r, entries: [] };
}

/**
 * A cache file (this one, the region cache) read and decoded: `loaded` when `decode` takes it and
 * it was made with `key`; `missing` when there is no file; else `discarded` with why (an unusable
 * file is deleted; `otherKey`: the reason for another key). Dead writers' temporary files beside
 * it are removed first.
 */
export async function readCacheFile<T extends { key: string }>(
  file: string,
  key: string,
  decode: (buf: Buffer) => ({ ok: true } & T) | { ok: false; reason: string },
  otherKey: string,
  io: CacheIo = nodeCacheIo,
): Promise<{ status: 'loaded'; value: T } | { status: 'missing' } | { status: 'discarded'; reason: string }> {
  await removeStaleTemps(file, io);
  let buf: Buffer;
  try {
    buf = await io.readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // No file (or a parent that is no folder: nothing can be there either).
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'discarded', reason: `unreadable (${code ?? (e as Error).message})` };
  }
  const decoded = decode(buf);
  let reason: string;
  if (!decoded.ok) reason = decoded.reason;
  else if (decoded.key !== key) reason = otherKey;
  else return { status: 'loaded', value: decoded };
  await io.rm(file).catch(() => undefined);
  return { status: 'discarded', reason };
}

let tmpCounter = 0;

function tempPattern(file: string): RegExp {
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${base}\\.(\\d+)\\.\\d+\\.\\d+\\.tmp$`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false; // this process is starting over: its old writers are gone
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes temporary files left beside the cache by a writer that died mid-write (a killed engine
 * worker, a crashed window), so they do not pile up in the workspace storage. Only files of
 * processes that no longer run (or of this process, which calls this before it writes) are removed.
 */
export async function removeStaleTemps(file: string, io: CacheIo = nodeCacheIo): Promise<number> {
  let names: string[];
  try {
    names = await io.readdir(path.dirname(file));
  } catch {
    return 0;
  }
  const re = tempPattern(file);
  let removed = 0;
  for (const name of names) {
    const m = re.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    await io.rm(path.join(path.dirname(file), name)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

/** Writes the cache atomically: a temporary file beside it, renamed over it. */
export async function saveCache(file: string, key: string, entries: Iterable<CachedEntry>, io: CacheIo = nodeCacheIo): Promise<void> {
  await writeFileAtomically(file, encodeCache(key, entries), io);
}

/** Writes `data` to `file` atomically: a temporary file beside it (removeStaleTemps' pattern), renamed over it. */
export async function writeFileAtomically(file: string, data: Uint8Array, io: CacheIo = nodeCacheIo): Promise<void> {
  await io.mkdir(path.dirname(file));
  const tmp = `${file}.${process.pid}.${Date.now()}.${tmpCounter++}.tmp`;
  try {
    await io.writeFile(tmp, data);
    await io.rename(tmp, file);
  } catch (e) {
    await io.rm(tmp).catch(() => undefined);
    throw e;
  }
}
