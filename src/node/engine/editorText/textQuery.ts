/**
 * "Match this text" (issue 19, a paste recognised as it lands): a block of text — a paste — is
 * fingerprinted as a document of its own (in the language of the file it lands in) and looked up
 * in the index: the block as a whole against files and sections, and its own sections against
 * sections. The answer names where it came from: the other file's lines (a section's range; a
 * whole file's lines when it matches a whole file), closest and most covering first.
 *
 * The block is never indexed and never reported: it is a query only. Runs in the engine worker
 * (the extension host never tokenises or hashes); EngineState provides the host.
 */
import { SECTION_SKETCH_SIZE } from '../../../core/fingerprint/fingerprint';
import type { DocumentFingerprint, SectionFingerprint } from '../../../core/types';
import type { EngineSettings } from '../../settings/engineSettings';
import type { FileOutcome } from '../../workers/fileOutcome';
import type { QueryMatch, TextMatch, TextQueryResult, Thresholds } from '../engineProtocol';
import type { TwinLimit, TwinOptions } from '../twins';

/** The engine's parts a text query needs (EngineState provides them; tests can too). */
export interface TextQueryHost {
  settings(): EngineSettings;
  /** The thresholds the matches follow (those of the last report). */
  thresholds(): Thresholds;
  fingerprintText(abs: string, text: string, settings: EngineSettings): Promise<FileOutcome>;
  /** The matches of `doc` as the document `selfPath` among the indexed ones (live index or linear scan). */
  twins(selfPath: string, doc: DocumentFingerprint, options: TwinOptions, limit: TwinLimit): QueryMatch[];
  /** Lines of an indexed file, when known. */
  linesOf(abs: string): number | undefined;
}

/** The block's key: no indexed path can be it. */
const BLOCK = '\u0000pasted block';
/** The answer holds this many matches at most (the notice names one). */
export const MAX_TEXT_MATCHES = 20;
/** Section matches looked at, at most (a generated file can match by the thousand). */
const MAX_CANDIDATES = 10_000;

/** Lines of `text` (a final line break ends the last line; it does not start another). */
export function blockLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * The matches of `text` as if it were in `file` (its language), best first: those covering more
 * of the block first, then the closest. `file` is only for the language; it need not exist.
 */
export async function matchText(h: TextQueryHost, file: string, text: string): Promise<TextQueryResult> {
  const settings = h.settings();
  if (Buffer.byteLength(text, 'utf8') > settings.maxFileSizeBytes) return { status: 'tooLarge', lines: 0, matches: [] };
  const lines = blockLines(text);
  const o = await h.fingerprintText(file, text, settings);
  if (!o.ok) return { status: /^larger than/.test(o.reason) ? 'tooLarge' : 'skipped', reason: o.reason, lines, matches: [] };
  const doc = o.doc;
  if (!doc.file) return { status: 'tooSmall', lines, matches: [] };
  const options: TwinOptions = { ...h.thresholds(), sections: settings.sections };
  // The block as a whole is also one of its sections, so that it meets the sections it was
  // copied from (a section holding nearly all of a text is not fingerprinted apart).
  const whole: SectionFingerprint = { ...doc.file, sketch: doc.file.sketch.subarray(0, SECTION_SKETCH_SIZE), startLine: 1, endLine: lines };
  const query: DocumentFingerprint = { kind: doc.kind, file: doc.file, sections: options.sections ? [whole, ...doc.sections] : [] };
  const limit: TwinLimit = { maxPairs: MAX_CANDIDATES, truncated: false };
  const found = h.twins(BLOCK, query, options, limit).filter((m) => m.other.path !== BLOCK);
  const matches: TextMatch[] = found.map((m) => {
    const self = m.self ?? { startLine: 1, endLine: lines };
    const other = m.other;
    const otherLines = other.startLine === undefined ? h.linesOf(other.path) : undefined;
    return {
      kind: m.kind,
      path: other.path,
      startLine: other.startLine ?? (otherLines ? 1 : undefined),
      endLine: other.endLine ?? otherLines,
      self,
      covered: Math.min(1, (Math.min(self.endLine, lines) - self.startLine + 1) / lines),
      distance: m.distance,
      similarity: m.similarity,
    };
  });
  matches.sort(
    (a, b) =>
      b.covered - a.covered ||
      a.distance - b.distance ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.startLine ?? 0) - (b.startLine ?? 0),
  );
  return { status: 'ok', lines, matches: matches.slice(0, MAX_TEXT_MATCHES), total: matches.length };
}
