/**
 * Read, decode and fingerprint one file (runs inside the worker). Every failure becomes an
 * outcome with a reason; nothing here throws for bad input.
 */
import { constants as bufferConstants } from 'node:buffer';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { DocumentFrequencyTable } from '../core/documentFrequency';
import { countDocumentShingles, fingerprintText, type FingerprintOptions } from '../core/fingerprint';
import { decodeBuffer, isMinified, isRepetitive } from './decode';
import type { EngineSettings } from './engineSettings';
import { bigramSegmenter, loadCjkSegmenter } from './jieba';
import type { FileOutcome, FileToFingerprint, SharedFrequencies } from './messages';

let logOnce: (msg: string) => void = (msg) => console.error(msg);

/**
 * Largest file read as text: the longest string V8 can make (≈ 512 Mi characters; one byte of a
 * file never gives more than one UTF-16 unit). Bigger files fail to decode after being read.
 */
export const MAX_TEXT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** Where the worker reports a one-time problem (e.g. jieba missing). */
export function setEngineLog(log: (msg: string) => void): void {
  logOnce = log;
}

/** jieba, loaded on the first CJK run met (most code never needs it), or the bigram fallback. */
const lazyJieba = (run: string): string[] => loadCjkSegmenter(logOnce).segmenter(run);

function segmenterFor(settings: EngineSettings) {
  return settings.cjkSegmenter === 'bigram' ? bigramSegmenter : lazyJieba;
}

function fingerprintOptions(settings: EngineSettings, df?: SharedFrequencies): FingerprintOptions {
  return {
    minTokens: settings.minTokens,
    sections: settings.sections,
    normalizeIdentifiers: settings.normalizeIdentifiers,
    stopWords: settings.stopWords,
    weighting: settings.weighting === 'tfidf' && !df ? 'tf' : settings.weighting,
    segmenter: segmenterFor(settings),
    idf: df ? new DocumentFrequencyTable(df.buffer, df.documents).idf : undefined,
  };
}

/** Fingerprints a text already in memory (an unsaved editor, or a decoded file). */
export function fingerprintDecoded(
  relPath: string,
  text: string,
  bytes: number,
  encoding: string,
  settings: EngineSettings,
  df?: SharedFrequencies,
): FileOutcome {
  if (isMinified(text)) return { relPath, ok: false, reason: 'minified or generated (very long lines)' };
  if (isRepetitive(text)) return { relPath, ok: false, reason: 'repetitive content (the same few lines over and over)' };
  const doc = fingerprintText(text, relPath, fingerprintOptions(settings, df));
  return { relPath, ok: true, bytes, encoding, doc };
}

/** Reads and decodes a file, or says why it cannot be used. */
async function readText(file: FileToFingerprint, settings: EngineSettings): Promise<{ text: string; bytes: number; encoding: string } | { reason: string }> {
  let buf: Buffer;
  try {
    // The walk saw a regular file, but it may have been replaced since. O_NOFOLLOW: a symbolic
    // link is not followed (out of the tree); O_NONBLOCK: opening a FIFO does not wait for a
    // writer (forever). Neither changes how a regular file is read.
    const handle = await fsp.open(file.path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { reason: 'not a regular file' };
      if (stat.size > settings.maxFileSizeBytes) return { reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
      // Its text could not be held in one string: refuse before reading it.
      if (stat.size > MAX_TEXT_BYTES) return { reason: `too large to handle as text (${stat.size} bytes)` };
      buf = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'deleted before it could be read'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'ELOOP'
            ? 'symbolic link (not followed)'
            : `cannot be read (${code ?? (e as Error).message})`;
    return { reason };
  }
  if (buf.length > settings.maxFileSizeBytes) return { reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
  const decoded = decodeBuffer(buf);
  if (!decoded.ok) return { reason: decoded.reason };
  return { text: decoded.text, bytes: buf.length, encoding: decoded.encoding };
}

/** First pass of TF-IDF: counts the file's distinct shingles into the shared table. */
export async function countFileShingles(file: FileToFingerprint, settings: EngineSettings, table: DocumentFrequencyTable): Promise<boolean> {
  const read = await readText(file, settings);
  if ('reason' in read || isMinified(read.text) || isRepetitive(read.text)) return false;
  return countDocumentShingles(read.text, file.relPath, fingerprintOptions(settings), table);
}

export async function fingerprintFile(file: FileToFingerprint, settings: EngineSettings, df?: SharedFrequencies): Promise<FileOutcome> {
  const read = await readText(file, settings);
  if ('reason' in read) return { relPath: file.relPath, ok: false, reason: read.reason };
  return fingerprintDecoded(file.relPath, read.text, read.bytes, read.encoding, settings, df);
}
