/**
 * One decoded text to one document's fingerprints, or the reason it is skipped: containers
 * (notebooks by cell, Vue/Svelte by block; a broken notebook skipped), minified and repetitive
 * texts, files marked `neardup-ignore-file`, then fingerprintText. Pure: the host hands the
 * fingerprinting options it has (its kernel, CJK segmenter, fold), so the Node workers
 * (src/node/workers/fingerprintFile.ts) and the browser's engine worker (src/web) give the same
 * documents for the same text.
 */
import { applyContainerIgnoreMarkers, containerText, type ContainerText } from '../containers/container';
import { isMinified, isRepetitive, lineShape, type TextFacts } from '../text/decodeText';
import { hasIgnoreFileMarker, IGNORE_FILE_REASON, IGNORE_MARKER_PREFIX } from '../text/ignoreMarkers';
import { languageOf } from '../text/languages';
import type { DocumentFingerprint } from '../types';
import { fingerprintText, type FingerprintOptions } from './fingerprint';

/** A document fingerprinted, or why not (the shape of the Node workers' FileOutcome). */
export type DecodedOutcome =
  | { relPath: string; ok: true; bytes: number; encoding: string; doc: DocumentFingerprint; lines: number }
  | { relPath: string; ok: false; reason: string };

/**
 * Fingerprints a text already decoded. `options` is asked for only when the text is kept (it may
 * load things: a kernel, a dictionary); whatever it or fingerprintText throws is the caller's.
 * `facts`: what decodeText read off the text's bytes, when it did (its line shape, its markers).
 */
export function fingerprintDecodedText(
  relPath: string,
  text: string,
  bytes: number,
  encoding: string,
  options: () => FingerprintOptions,
  facts?: TextFacts,
): DecodedOutcome {
  // A notebook is read as its cells (a broken one is skipped with the reason); a Vue or Svelte
  // component by block. The checks below look at the text that is fingerprinted.
  const container = containerText(relPath, text);
  if (container && 'reason' in container) return { relPath, ok: false, reason: container.reason };
  if (container) text = container.text;
  // A container's text is its parts, not the file's: what is known of the file says nothing of it.
  if (container) facts = undefined;
  const shape = facts ? facts.shape : lineShape(text);
  if (isMinified(text, shape)) return { relPath, ok: false, reason: 'minified or generated (very long lines)' };
  if (isRepetitive(text, shape)) return { relPath, ok: false, reason: 'repetitive content (the same few lines over and over)' };
  // A file its team marked `neardup-ignore-file` is skipped with that reason (fingerprintText would
  // give it no fingerprints anyway); start/end and next markers are applied by fingerprintText.
  // One search for the markers' prefix: a text without it is not searched again (unmarked).
  const marked = facts ? facts.marked : text.includes(IGNORE_MARKER_PREFIX);
  if (marked && text.includes('neardup-ignore-file') && ignoredWhole(relPath, text, container)) return { relPath, ok: false, reason: IGNORE_FILE_REASON };
  const doc = fingerprintText(text, relPath, { ...options(), container: container ?? undefined, unmarked: !marked });
  const lines = shape.newlines + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
  return { relPath, ok: true, bytes, encoding, doc, lines };
}

/** Whether a file's `neardup-ignore-file` marker leaves it out (a container's: in a part on its first lines). */
function ignoredWhole(relPath: string, text: string, container: ContainerText | null): boolean {
  return container ? applyContainerIgnoreMarkers(container) === null : hasIgnoreFileMarker(text, languageOf(relPath));
}
