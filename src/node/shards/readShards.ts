/**
 * Reading shards back, streaming: lines of at most MAX_LINE_CHARS from a plain or gzip file (told
 * apart by its first bytes, not its name), each parsed and checked (shardFormat.ts), and the end
 * line that proves the shard is whole. Every fault — unreadable, truncated, corrupt, another
 * format version, settings that differ from the first shard's, two shards of one name — is one
 * ShardError naming the shard and line.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import type { FingerprintedDocument } from '../../core/report/report';
import type { DocumentFingerprint } from '../../core/types';
import { MAX_LINE_CHARS, parseHeader, parseItem, settingsDifferences, ShardError, type ShardHeader, type ShardItem } from './shardFormat';

/** The lines of a file (plain or gzip), without their '\n', each checked against MAX_LINE_CHARS. */
export async function* shardLines(file: string): AsyncGenerator<string> {
  let fd: number | undefined;
  const magic = Buffer.alloc(2);
  let got: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY);
    got = fs.readSync(fd, magic, 0, 2, 0);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    throw new ShardError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const raw = fs.createReadStream('', { fd, start: 0 });
  const gz = got === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  const stream: NodeJS.ReadableStream = gz ? raw.pipe(zlib.createGunzip()) : raw;
  if (gz) raw.on('error', (e) => (stream as zlib.Gunzip).destroy(e));
  let pending = '';
  let lineNo = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = pending + decoder.decode(chunk, { stream: true });
      } catch {
        throw new ShardError(`${file}: not UTF-8 text (a corrupt shard?)`);
      }
      let from = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
        lineNo++;
        yield text.slice(from, nl);
        from = nl + 1;
      }
      pending = text.slice(from);
      if (pending.length > MAX_LINE_CHARS) throw new ShardError(`${file}: line ${lineNo + 1} is longer than ${MAX_LINE_CHARS} characters (not a shard, or a corrupt one)`);
    }
  } catch (e) {
    if (e instanceof ShardError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (gz && (err.code === 'Z_BUF_ERROR' || err.code === 'Z_DATA_ERROR' || /unexpected end/i.test(err.message))) throw new ShardError(`${file}: truncated or corrupt gzip data`);
    throw new ShardError(`${file}: cannot read it (${err.code ?? err.message})`);
  } finally {
    raw.destroy();
  }
  if (pending.length > 0) yield pending;
}

/** Views of 1 MiB buffers for the sketches of a shard's items. */
function sketchSlab(): (n: number) => Uint32Array {
  const WORDS = 1 << 18;
  let buffer = new Uint32Array(WORDS);
  let used = 0;
  return (n) => {
    if (n === 0) return new Uint32Array(0);
    if (used + n > WORDS) {
      buffer = new Uint32Array(WORDS);
      used = 0;
    }
    const view = buffer.subarray(used, used + n);
    used += n;
    return view;
  };
}

/** One shard, item by item: the header first (through `onHeader`), then its items. */
export async function* readShard(file: string, onHeader: (h: ShardHeader) => void): AsyncGenerator<ShardItem> {
  const alloc = sketchSlab();
  let header: ShardHeader | null = null;
  let n = 0;
  let line = 0;
  let ended = false;
  for await (const text of shardLines(file)) {
    line++;
    const where = `${file}, line ${line}`;
    if (ended) {
      if (text.trim() === '') continue;
      throw new ShardError(`${where}: lines after the end line`);
    }
    if (header === null) {
      header = parseHeader(text, `${file}, line 1`);
      onHeader(header);
      continue;
    }
    if (text.startsWith('{"neardup":"end"')) {
      let v: { items?: unknown };
      try {
        v = JSON.parse(text) as { items?: unknown };
      } catch {
        throw new ShardError(`${where}: a corrupt end line`);
      }
      if (v.items !== n) throw new ShardError(`${where}: the end line counts ${String(v.items)} fingerprints, the shard holds ${n} (corrupt)`);
      ended = true;
      continue;
    }
    n++;
    yield parseItem(text, where, header.tokenizer, alloc);
  }
  if (header === null) throw new ShardError(`${file}: empty, not a fingerprint shard`);
  if (!ended) throw new ShardError(`${file}: truncated (it ends after ${n} fingerprints without its end line)`);
}

export interface LoadedShards {
  header: ShardHeader;
  /** The shards' names, in the order given. */
  names: string[];
  /** Every document as `shard:path`, sorted by shard name, then path. */
  documents: FingerprintedDocument[];
  /** Fingerprints read. */
  items: number;
  /** The files' bytes, as the shards record them. */
  bytes: number;
}

/**
 * Reads every shard into documents named `shard:path`, refusing mixed settings and duplicate shard
 * names. `onProgress(items, shardIndex)` is called every 100,000 items and after each shard.
 */
export async function loadShards(files: readonly string[], onProgress?: (items: number, shard: number) => void): Promise<LoadedShards> {
  if (files.length === 0) throw new ShardError('no shard given');
  let first = null as { header: ShardHeader; file: string } | null;
  const names: string[] = [];
  const perShard: Array<Map<string, DocumentFingerprint>> = [];
  let items = 0;
  let bytes = 0;
  for (let s = 0; s < files.length; s++) {
    const file = files[s];
    const docs = new Map<string, DocumentFingerprint>();
    const onHeader = (h: ShardHeader) => {
      if (first === null) first = { header: h, file };
      else {
        const diff = settingsDifferences(first.header, h);
        if (diff.length) throw new ShardError(`${file} was made with other settings than ${first.file} (${diff.join('; ')}); export both with the same settings to join them`);
      }
      const twin = names.indexOf(h.shard);
      if (twin >= 0) throw new ShardError(`${file} and ${files[twin]} are both named "${h.shard}"; export one again with --name`);
      names.push(h.shard);
    };
    for await (const item of readShard(file, onHeader)) {
      let doc = docs.get(item.path);
      if (!doc) docs.set(item.path, (doc = { kind: 'code', file: null, sections: [] }));
      if (item.kind === 'file') {
        if (doc.file) throw new ShardError(`${file}: two file lines for ${item.path}`);
        doc.file = item.fp;
        bytes += item.bytes ?? 0;
      } else {
        doc.sections.push({ ...item.fp, startLine: item.startLine, endLine: item.endLine });
      }
      if (++items % 100_000 === 0) onProgress?.(items, s);
    }
    perShard.push(docs);
    if (items % 100_000 !== 0 || items === 0) onProgress?.(items, s);
  }
  const order = names.map((_, i) => i).sort((x, y) => (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
  const documents: FingerprintedDocument[] = [];
  for (const s of order) {
    const paths = [...perShard[s].keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    for (const p of paths) {
      const doc = perShard[s].get(p)!;
      documents.push({ path: `${names[s]}:${p}`, doc });
    }
    perShard[s].clear();
  }
  return { header: first!.header, names, documents, items, bytes };
}
