/**
 * The shard format of `neardup fingerprints` (issue 17): JSON Lines, one header line then one line
 * per file and section. This file owns the header (format version, tokenizer, every setting that
 * decides fingerprints), the encoding of an item line and the strict parsing of both: a line that
 * is not exactly what this file writes is a {@link ShardError}, never a crash or a silent guess.
 *
 *   {"neardup":"fingerprints","format":1,"shard":"api","tool":"neardup 0.1.0",
 *    "tokenizer":{...},"settings":{...}}
 *   {"path":"src/a.ts","kind":"file","lines":[1,120],"simhash":"9f0c…(16 hex)","tokens":812,
 *    "features":790,"sketch":"<base64 of the bottom-k MinHash values, uint32 little-endian>",
 *    "hash":"<32 hex: sha-256 of the bytes, the content hash of exact copies>","bytes":4312}
 */
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from '../../core/fingerprint/fingerprint';
import type { CloneHashes, ItemFingerprint } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';

/** The version of this format; a reader refuses any other. */
export const SHARD_FORMAT = 1;

/** Longest line a reader accepts (a section line with a 64-value sketch is ~600 bytes). */
export const MAX_LINE_CHARS = 64 * 1024;

/** Anything wrong with a shard or a set of shards: one line for the user, exit code 2. */
export class ShardError extends Error {}

/** The settings that decide an item's fingerprint: two shards are joined only when all are equal. */
export const FINGERPRINT_SETTINGS = ['minTokens', 'sections', 'normalizeIdentifiers', 'stopWords', 'weighting', 'cjkSegmenter', 'foldVariants'] as const satisfies ReadonlyArray<keyof EngineSettings>;

export type FingerprintSettings = Pick<EngineSettings, (typeof FINGERPRINT_SETTINGS)[number]>;

/**
 * The tokenizer and hashing constants of this build. A change to the tokenizers, the shingles or
 * the hash that moves fingerprints must change `version` here (2: JavaScript/TypeScript regular expressions became one token).
 */
export const TOKENIZER = Object.freeze({ version: 'neardup-tokens/2', shingleSize: 3, hash: 'fnv1a64+fmix/1', fileSketch: FILE_SKETCH_SIZE, sectionSketch: SECTION_SKETCH_SIZE });

export interface ShardHeader {
  neardup: 'fingerprints';
  format: number;
  shard: string;
  tool: string;
  tokenizer: typeof TOKENIZER;
  settings: FingerprintSettings;
  /** Which files were read (not compared between shards: the fingerprints do not depend on it). */
  walk?: { maxFileSizeBytes: number; include?: string[]; exclude?: string[]; gitignore: boolean };
}

export interface ShardItem {
  path: string;
  kind: 'file' | 'section';
  startLine: number;
  endLine: number;
  fp: ItemFingerprint;
  hash: string;
  /** The file's size (file lines only). */
  bytes?: number;
}

/** A shard name: what `shard:path` starts with in reports (no ':' nor control characters). */
export function checkShardName(name: string): string | null {
  if (name.length === 0 || name.length > 200) return 'a shard name must hold 1 to 200 characters';
  if (/[:\u0000-\u001f\u007f]/.test(name)) return `the shard name "${name.replace(/[\u0000-\u001f\u007f]/g, '?')}" holds ':' or a control character`;
  return null;
}

export function headerLine(header: ShardHeader): string {
  return JSON.stringify(header) + '\n';
}

/** The last line of a whole shard: how many item lines it holds (a reader refuses a shard without it). */
export function endLine(items: number): string {
  return JSON.stringify({ neardup: 'end', items }) + '\n';
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

export function itemLine(item: ShardItem): string {
  const s = item.fp.sketch;
  const sketch = Buffer.from(s.buffer, s.byteOffset, s.byteLength);
  // Little-endian on every machine Node runs on that this project supports; checked on reading.
  return (
    JSON.stringify({
      path: item.path,
      kind: item.kind,
      lines: [item.startLine, item.endLine],
      simhash: hex8(item.fp.hi) + hex8(item.fp.lo),
      tokens: item.fp.tokens,
      features: item.fp.features,
      sketch: sketch.toString('base64'),
      clone: [hex8(item.fp.rawHi) + hex8(item.fp.rawLo), hex8(item.fp.normHi) + hex8(item.fp.normLo)],
      hash: item.hash,
      ...(item.bytes !== undefined ? { bytes: item.bytes } : {}),
    }) + '\n'
  );
}

/**
 * An item line's clone hashes (`clone`: raw, normalised); a line written before them has none:
 * NaN, which equals nothing, so its pairs are `edited` (core/fingerprint/cloneHashes.ts).
 */
function cloneHashesOf(clone: [string, string] | undefined): CloneHashes {
  if (!clone) return { rawHi: NaN, rawLo: NaN, normHi: NaN, normLo: NaN };
  const half = (h: string, at: number) => parseInt(h.slice(at, at + 8), 16) >>> 0;
  return { rawHi: half(clone[0], 0), rawLo: half(clone[0], 8), normHi: half(clone[1], 0), normLo: half(clone[1], 8) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Parses and checks a header line (`where` names the shard and line in messages). */
export function parseHeader(line: string, where: string): ShardHeader {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new ShardError(`${where}: not a NearDup fingerprint shard (the first line is not JSON)`);
  }
  if (!isObject(v) || v.neardup !== 'fingerprints') throw new ShardError(`${where}: not a NearDup fingerprint shard (no "neardup":"fingerprints" header)`);
  if (v.format !== SHARD_FORMAT) throw new ShardError(`${where}: shard format ${JSON.stringify(v.format)}, this NearDup reads format ${SHARD_FORMAT}; export it again with this version`);
  if (typeof v.shard !== 'string' || checkShardName(v.shard) !== null) throw new ShardError(`${where}: the header's shard name is missing or invalid`);
  if (typeof v.tool !== 'string') throw new ShardError(`${where}: the header has no tool`);
  if (!isObject(v.tokenizer) || !isObject(v.settings)) throw new ShardError(`${where}: the header has no tokenizer or settings`);
  const settings = v.settings;
  for (const k of FINGERPRINT_SETTINGS) if (!(k in settings)) throw new ShardError(`${where}: the header's settings have no ${k}`);
  return v as unknown as ShardHeader;
}

/** The differences of two headers' tokenizer and settings, as "name: a ≠ b" (empty when joinable). */
export function settingsDifferences(a: ShardHeader, b: ShardHeader): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(a.tokenizer), ...Object.keys(b.tokenizer)]);
  for (const k of keys) {
    const x = (a.tokenizer as Record<string, unknown>)[k];
    const y = (b.tokenizer as Record<string, unknown>)[k];
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`tokenizer ${k}: ${JSON.stringify(x)} ≠ ${JSON.stringify(y)}`);
  }
  for (const k of FINGERPRINT_SETTINGS) {
    const x = (a.settings as Record<string, unknown>)[k];
    const y = (b.settings as Record<string, unknown>)[k];
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${k}: ${JSON.stringify(x)} ≠ ${JSON.stringify(y)}`);
  }
  return out;
}

/**
 * Parses and checks an item line; the sketch goes into `alloc(n)` (a reader of millions of lines
 * hands out views of a few large buffers: one small ArrayBuffer per sketch costs ~200 bytes more).
 */
export function parseItem(line: string, where: string, sketchSizes = TOKENIZER, alloc: (n: number) => Uint32Array = (n) => new Uint32Array(n)): ShardItem {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new ShardError(`${where}: not JSON (a truncated or corrupt shard?)`);
  }
  if (!isObject(v)) throw new ShardError(`${where}: not a fingerprint line`);
  const { path, kind, lines, simhash, tokens, features, sketch, hash, bytes, clone } = v;
  if (typeof path !== 'string' || path.length === 0) throw new ShardError(`${where}: no path`);
  if (kind !== 'file' && kind !== 'section') throw new ShardError(`${where}: kind must be "file" or "section"`);
  if (!Array.isArray(lines) || lines.length !== 2 || !isCount(lines[0]) || !isCount(lines[1]) || lines[0] > lines[1]) throw new ShardError(`${where}: lines must be [start, end]`);
  if (typeof simhash !== 'string' || !/^[0-9a-f]{16}$/.test(simhash)) throw new ShardError(`${where}: simhash must be 16 hex digits`);
  if (!isCount(tokens) || !isCount(features)) throw new ShardError(`${where}: tokens and features must be counts`);
  if (typeof hash !== 'string' || !/^[0-9a-f]{8,64}$/.test(hash)) throw new ShardError(`${where}: hash must be hex digits`);
  if (bytes !== undefined && !isCount(bytes)) throw new ShardError(`${where}: bytes must be a count`);
  const cloneHex = /^[0-9a-f]{16}$/;
  if (clone !== undefined && !(Array.isArray(clone) && clone.length === 2 && clone.every((h) => typeof h === 'string' && cloneHex.test(h)))) {
    throw new ShardError(`${where}: clone must be two hashes of 16 hex digits`);
  }
  if (typeof sketch !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(sketch)) throw new ShardError(`${where}: sketch must be base64`);
  const raw = Buffer.from(sketch, 'base64');
  const limit = kind === 'file' ? sketchSizes.fileSketch : sketchSizes.sectionSketch;
  if (raw.length % 4 !== 0 || raw.length / 4 > limit) throw new ShardError(`${where}: the sketch holds ${raw.length / 4} values, at most ${limit} whole 32-bit values expected`);
  const values = alloc(raw.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = raw.readUInt32LE(4 * i);
  for (let i = 1; i < values.length; i++) if (values[i] <= values[i - 1]) throw new ShardError(`${where}: the sketch is not in ascending order`);
  return {
    path,
    kind,
    startLine: lines[0],
    endLine: lines[1],
    fp: { hi: parseInt(simhash.slice(0, 8), 16) >>> 0, lo: parseInt(simhash.slice(8), 16) >>> 0, tokens, features, sketch: values, ...cloneHashesOf(clone as [string, string] | undefined) },
    hash,
    ...(bytes !== undefined ? { bytes } : {}),
  };
}
