/**
 * The region index kept between sessions (`neardup.locate`): one binary file beside the
 * fingerprint cache (`<cache>.regions`), so that a warm start has its located copies at once
 * instead of reading and tokenising every file again to build the index. It holds what the index
 * was last brought up to date with: each file's signature (size and mtime) and anchors, the
 * located pairs and their sides' content keys. A file whose signature differs at the next start
 * is a change like any other (EngineRegions.step: its pairs found again, its partners read).
 *
 * Layout (little-endian; cacheFile.ts' writer and reader):
 *   header  "NDRC" | u32 format version | u32 body length | u32 checksum of the body (FNV-1a of its words)
 *   body    str settings key | u32 files | files × file | u32s every file's hashes | u32s their positions
 *           | u32 pairs | pairs × pair | u32 keys | keys × key
 *   file    str path | str signature | u8 flags (1: anchors, 2: prose) | [u32 anchors]
 * (each file's anchors in turn in the two arrays: one copy each at a start, the files' views into them)
 *   pair    u32 file a | u32 start line | u32 end line | u32 file b | u32 start line | u32 end line
 *           | u8 distance | f64 similarity | u8 clone kind (exact, renamed, edited)
 *   key     u32 file | u32 start line | u32 end line | str content key
 * Anything unexpected discards the file (the index is built again from the files), as for the
 * fingerprint cache.
 */
import type { ReportPair } from '../../../core/report/report';
import { CLONE_KINDS } from '../../regions/regionRows';
import type { FileAnchors, SideKeyEntry } from './regionIndex';
import { bodyOf, checksumWords, CorruptCache, HEADER_BYTES, headedWriter, Reader, withHeader } from '../indexing/cacheFile';
import { readCacheFile, writeFileAtomically, type CacheIo } from '../fingerprintCache';
import { SerialWrites } from '../indexing/cacheWriter';

export const REGION_CACHE_MAGIC = 'NDRC';
/** Bump when the layout or what the index holds changes. */
export const REGION_CACHE_VERSION = 1;

/** A file the index was brought up to date with: its signature and, when it has them, its anchors. */
export interface RegionCacheFile {
  path: string;
  sig: string;
  anchors?: FileAnchors;
}

/** What the region index holds (RegionIndex.snapshot, EngineRegions' signatures). */
export interface RegionCacheState {
  files: RegionCacheFile[];
  /** The located pairs (section pairs of two files of `files` with anchors). */
  pairs: ReportPair[];
  /** The content keys of the located sides: path, lines, key. */
  sideKeys: SideKeyEntry[];
}

export function encodeRegionCache(key: string, state: RegionCacheState): Buffer {
  // (sized at once and the header written in place: a 13 MB index is not copied as the writer grows, nor once more with its header)
  let size = HEADER_BYTES + 64 + key.length * 3 + 42 * state.pairs.length;
  for (const f of state.files) size += 20 + 3 * (f.path.length + f.sig.length) + 8 * (f.anchors?.hash.length ?? 0);
  for (const k of state.sideKeys) size += 20 + 3 * k.key.length;
  const w = headedWriter(size);
  w.str(key);
  const index = new Map<string, number>();
  w.u32(state.files.length);
  for (const f of state.files) {
    index.set(f.path, index.size);
    w.str(f.path);
    w.str(f.sig);
    w.u8((f.anchors ? 1 : 0) | (f.anchors?.prose ? 2 : 0));
    if (f.anchors) w.u32(f.anchors.hash.length);
  }
  // (as Reader.u32s reads them: a count, then every file's in turn)
  let total = 0;
  for (const f of state.files) total += f.anchors?.hash.length ?? 0;
  for (const part of ['hash', 'pos'] as const) {
    w.u32(total);
    for (const f of state.files) if (f.anchors) w.u32Array(f.anchors[part]);
  }
  const fileOf = (path: string): number => {
    const i = index.get(path);
    if (i === undefined) throw new Error(`region cache: a pair's file ${path} is not indexed`);
    return i;
  };
  w.u32(state.pairs.length);
  for (const p of state.pairs) {
    w.u32(fileOf(p.a.path));
    w.u32(p.a.startLine!);
    w.u32(p.a.endLine!);
    w.u32(fileOf(p.b.path));
    w.u32(p.b.startLine!);
    w.u32(p.b.endLine!);
    w.u8(p.distance);
    w.f64(p.similarity);
    w.u8(CLONE_KINDS.indexOf(p.clone ?? 'edited'));
  }
  w.u32(state.sideKeys.length);
  for (const k of state.sideKeys) {
    w.u32(fileOf(k.path));
    w.u32(k.startLine);
    w.u32(k.endLine);
    w.str(k.key);
  }
  return withHeader(w, REGION_CACHE_MAGIC, REGION_CACHE_VERSION, checksumWords);
}

export type DecodedRegionCache = { ok: true; key: string; state: RegionCacheState } | { ok: false; reason: string };

export function decodeRegionCache(buf: Buffer): DecodedRegionCache {
  const body = bodyOf(buf, REGION_CACHE_MAGIC, REGION_CACHE_VERSION, checksumWords, 'NearDup region cache');
  if (!Buffer.isBuffer(body)) return { ok: false, reason: body.reason };
  const r = new Reader(body);
  try {
    const key = r.str();
    const n = r.u32();
    if (n > body.length) throw new CorruptCache('bad file count');
    const files: RegionCacheFile[] = [];
    // (per file: its anchors' count, -1 for none, and whether it is prose)
    const counts: number[] = [];
    const prose: boolean[] = [];
    const seen = new Set<string>();
    let total = 0;
    for (let i = 0; i < n; i++) {
      const path = r.str();
      if (path === '' || seen.has(path)) throw new CorruptCache('bad or repeated path');
      seen.add(path);
      const sig = r.str();
      const flags = r.u8();
      if (flags > 3 || flags === 2) throw new CorruptCache('bad flags');
      counts.push(flags & 1 ? r.u32() : -1);
      prose.push((flags & 2) !== 0);
      total += Math.max(0, counts[i]);
      files.push({ path, sig });
    }
    const hashes = r.u32s(body.length);
    const positions = new Int32Array(r.u32s(body.length).buffer);
    if (hashes.length !== total || positions.length !== total) throw new CorruptCache('anchors of other lengths');
    for (let i = 0, at = 0; i < n; i++) {
      const c = counts[i];
      if (c < 0) continue;
      files[i].anchors = { hash: hashes.subarray(at, at + c), pos: positions.subarray(at, at + c), prose: prose[i] };
      at += c;
    }
    const line = (): number => {
      const v = r.u32();
      if (v < 1) throw new CorruptCache('bad line');
      return v;
    };
    const fileAt = (withAnchors: boolean): string => {
      const i = r.u32();
      if (i >= files.length || (withAnchors && !files[i].anchors)) throw new CorruptCache('bad file of a pair');
      return files[i].path;
    };
    const m = r.u32();
    if (m > body.length) throw new CorruptCache('bad pair count');
    const pairs: ReportPair[] = [];
    for (let i = 0; i < m; i++) {
      const a = { path: fileAt(true), startLine: line(), endLine: line() };
      const b = { path: fileAt(true), startLine: line(), endLine: line() };
      const distance = r.u8();
      const similarity = r.f64();
      const clone = CLONE_KINDS[r.u8()];
      if (a.endLine < a.startLine || b.endLine < b.startLine || distance > 64 || !(similarity >= 0 && similarity <= 1) || !clone) throw new CorruptCache('bad pair');
      pairs.push({ kind: 'section', a, b, distance, similarity, clone, located: true });
    }
    const k = r.u32();
    if (k > body.length) throw new CorruptCache('bad key count');
    const sideKeys: SideKeyEntry[] = [];
    for (let i = 0; i < k; i++) {
      const path = fileAt(false);
      const startLine = line();
      const endLine = line();
      sideKeys.push({ path, startLine, endLine, key: r.str() });
    }
    if (!r.done) throw new CorruptCache('trailing bytes');
    return { ok: true, key, state: { files, pairs, sideKeys } };
  } catch (e) {
    if (e instanceof CorruptCache) return { ok: false, reason: `corrupt (${e.message})` };
    throw e;
  }
}

/** The region cache's file beside the fingerprint cache. */
export const regionCachePath = (cachePath: string): string => `${cachePath}.regions`;

/** What the keeper needs of the engine's located copies (EngineRegions). */
export interface KeptRegions {
  readonly on: boolean;
  readonly generation: number;
  snapshot(): RegionCacheState | undefined;
  restore(state: RegionCacheState): boolean;
}

/**
 * The region cache of an engine: read once at its start (the index restored), written a while
 * after the index moved (`schedule`, after a job) and at shutdown (`flush`) — never during a step,
 * only when the index changed since the last write. A failing write is logged once, until one works.
 */
export class RegionCacheKeeper {
  /** The cache file (null: none). */
  file: string | null = null;
  private saved = -1;
  private timer: NodeJS.Timeout | null = null;
  private readonly writes: SerialWrites;

  constructor(
    private readonly regions: KeptRegions,
    /** The settings key the cache is valid for (fingerprintKey of the settings), undefined before the engine is set up. */
    private readonly key: () => string | undefined,
    private readonly io: CacheIo,
    private readonly delayMs: number,
    private readonly log: (level: 'info' | 'warn', message: string) => void,
  ) {
    this.writes = new SerialWrites('the region cache', 'located copies are found again at the next start', log);
  }

  /** Reads the cache into the index (a warm start, before the first step). */
  async load(): Promise<void> {
    const key = this.key();
    if (!this.file || !this.regions.on || key === undefined) return;
    const r = await readCacheFile(this.file, key, decodeRegionCache, 'made with other settings', this.io);
    if (r.status === 'loaded') {
      if (this.regions.restore(r.value.state)) this.saved = this.regions.generation;
    } else if (r.status === 'discarded') this.log('info', `region cache discarded (${r.reason}); located copies are found again`);
  }

  /** Writes the cache after a while if the index moved since the last write. */
  schedule(): void {
    if (!this.file || this.regions.generation === this.saved) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref?.();
  }

  /** Writes the cache now if the index moved since the last write (and no step runs). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const key = this.key();
    const generation = this.regions.generation;
    if (!this.file || key === undefined || generation === this.saved) return this.writes.done;
    const state = this.regions.snapshot();
    if (!state) return this.writes.done;
    const file = this.file;
    return this.writes.add(async () => {
      await writeFileAtomically(file, encodeRegionCache(key, state), this.io);
      this.saved = generation;
    });
  }
}
