/**
 * Read, decode and fingerprint one file (runs inside the worker). Every failure becomes an
 * outcome with a reason; nothing here throws for bad input.
 */
import { promises as fsp } from 'node:fs';
import { fingerprintText } from '../core/fingerprint';
import { decodeBuffer, isMinified } from './decode';
import type { EngineSettings } from './engineSettings';
import { bigramSegmenter, loadCjkSegmenter } from './jieba';
import type { FileOutcome, FileToFingerprint } from './messages';

let logOnce: (msg: string) => void = (msg) => console.error(msg);

/** Where the worker reports a one-time problem (e.g. jieba missing). */
export function setEngineLog(log: (msg: string) => void): void {
  logOnce = log;
}

function segmenterFor(settings: EngineSettings) {
  return settings.cjkSegmenter === 'bigram' ? bigramSegmenter : loadCjkSegmenter(logOnce).segmenter;
}

/** Fingerprints a text already in memory (an unsaved editor, or a decoded file). */
export function fingerprintDecoded(relPath: string, text: string, bytes: number, encoding: string, settings: EngineSettings): FileOutcome {
  if (isMinified(text)) return { relPath, ok: false, reason: 'minified or generated (very long lines)' };
  const doc = fingerprintText(text, relPath, {
    minTokens: settings.minTokens,
    sections: settings.sections,
    normalizeIdentifiers: settings.normalizeIdentifiers,
    stopWords: settings.stopWords,
    weighting: settings.weighting,
    segmenter: segmenterFor(settings),
  });
  return { relPath, ok: true, bytes, encoding, doc };
}

export async function fingerprintFile(file: FileToFingerprint, settings: EngineSettings): Promise<FileOutcome> {
  let buf: Buffer;
  try {
    const handle = await fsp.open(file.path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { relPath: file.relPath, ok: false, reason: 'not a regular file' };
      if (stat.size > settings.maxFileSizeBytes) {
        return { relPath: file.relPath, ok: false, reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
      }
      buf = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'deleted before it could be read' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `cannot be read (${code ?? (e as Error).message})`;
    return { relPath: file.relPath, ok: false, reason };
  }
  if (buf.length > settings.maxFileSizeBytes) {
    return { relPath: file.relPath, ok: false, reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
  }
  const decoded = decodeBuffer(buf);
  if (!decoded.ok) return { relPath: file.relPath, ok: false, reason: decoded.reason };
  return fingerprintDecoded(file.relPath, decoded.text, buf.length, decoded.encoding, settings);
}
