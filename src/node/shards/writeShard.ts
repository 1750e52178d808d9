/**
 * `neardup fingerprints <dir> --out FILE`: a scan's fingerprints written as a shard (shardFormat.ts),
 * gzip when FILE ends in `.gz`. The only file of this room that writes, and only FILE: through a
 * temporary file beside it, renamed over it at the end (a failed export leaves no half shard).
 *
 * Content hashes: a file's is the SHA-256 of its bytes (read again after the scan); a section's is
 * the SHA-256 of the bytes of its lines, or, for a notebook's cell lines and a file changed since
 * the scan, of its token count and sketch (prefix-free: a different length of digest).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { once } from 'node:events';
import { CELL_LINE_STRIDE } from '../../core/containers/cellLines';
import type { FingerprintedDocument } from '../../core/report/report';
import type { ItemFingerprint } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import { endLine, FINGERPRINT_SETTINGS, headerLine, itemLine, ShardError, TOKENIZER, type FingerprintSettings, type ShardHeader } from './shardFormat';

export interface ExportOptions {
  root: string;
  out: string;
  shard: string;
  settings: EngineSettings;
  tool: string;
  walk: ShardHeader['walk'];
}

export interface ExportStats {
  files: number;
  items: number;
  bytesWritten: number;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex').slice(0, 32);

function sketchHash(fp: ItemFingerprint): string {
  const s = fp.sketch;
  return createHash('sha256').update(Uint32Array.of(fp.tokens)).update(Buffer.from(s.buffer, s.byteOffset, s.byteLength)).digest('hex').slice(0, 24);
}

/** Byte offsets of each line's start (index 0 = line 1), and one past the end. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  if (starts[starts.length - 1] !== bytes.length) starts.push(bytes.length);
  return starts;
}

export function fingerprintSettingsOf(settings: EngineSettings): FingerprintSettings {
  const out = {} as Record<string, unknown>;
  for (const k of FINGERPRINT_SETTINGS) out[k] = settings[k];
  return out as FingerprintSettings;
}

/** Writes the documents (sorted by path) of a scan of `options.root` as a shard. */
export async function writeShard(documents: readonly FingerprintedDocument[], options: ExportOptions): Promise<ExportStats> {
  const header: ShardHeader = {
    neardup: 'fingerprints',
    format: 1,
    shard: options.shard,
    tool: options.tool,
    tokenizer: TOKENIZER,
    settings: fingerprintSettingsOf(options.settings),
    walk: options.walk,
  };
  const out = path.resolve(options.out);
  const tmp = `${out}.${process.pid}.tmp`;
  let file: fs.WriteStream;
  try {
    file = fs.createWriteStream(tmp, { flags: 'wx' });
    await once(file, 'open');
  } catch (e) {
    throw new ShardError(`cannot write ${options.out}: ${(e as Error).message}`);
  }
  const gzip = out.endsWith('.gz') ? zlib.createGzip({ level: 6 }) : null;
  const sink: NodeJS.WritableStream = gzip ?? file;
  if (gzip) gzip.pipe(file);
  let failed: Error | null = null;
  file.on('error', (e) => (failed ??= e));
  gzip?.on('error', (e) => (failed ??= e));
  const write = async (text: string) => {
    if (failed) throw failed;
    if (sink.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        sink.removeListener('drain', done);
        file.removeListener('error', done);
        resolve();
      };
      sink.on('drain', done);
      file.on('error', done);
    });
  };
  let items = 0;
  try {
    await write(headerLine(header));
    for (const d of documents) {
      let bytes: Buffer | null = null;
      try {
        bytes = fs.readFileSync(path.join(options.root, d.path));
      } catch {
        bytes = null; // gone since the scan: the sketch hashes stand in
      }
      const starts = bytes ? lineStarts(bytes) : null;
      const lineCount = starts ? starts.length - 1 : 0;
      if (d.doc.file) {
        await write(itemLine({ path: d.path, kind: 'file', startLine: lineCount > 0 ? 1 : 0, endLine: lineCount, fp: d.doc.file, hash: bytes ? sha(bytes) : sketchHash(d.doc.file), bytes: bytes?.length ?? 0 }));
        items++;
      }
      for (const s of d.doc.sections) {
        const plain = bytes && starts && s.startLine < CELL_LINE_STRIDE && s.endLine <= lineCount;
        const hash = plain ? sha(bytes!.subarray(starts![s.startLine - 1], starts![s.endLine])) : sketchHash(s);
        await write(itemLine({ path: d.path, kind: 'section', startLine: s.startLine, endLine: s.endLine, fp: s, hash }));
        items++;
      }
    }
    await write(endLine(items));
    sink.end();
    await once(file, 'close');
    if (failed) throw failed;
    fs.renameSync(tmp, out);
  } catch (e) {
    file.destroy();
    fs.rmSync(tmp, { force: true });
    throw e instanceof ShardError ? e : new ShardError(`cannot write ${options.out}: ${(e as Error).message}`);
  }
  return { files: documents.length, items, bytesWritten: fs.statSync(out).size };
}
