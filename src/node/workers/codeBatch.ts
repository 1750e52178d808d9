/**
 * The fast path of a worker's batch (issue 16): the plain UTF-8 code files of a batch read,
 * checked, tokenised and fingerprinted by one call of the addon (native/readcode.c
 * readCodeBatch), each as fastCode and then fingerprintText's kernel path would (fingerprintFile.ts),
 * its fingerprint left as the kernel's words for the packing (no objects, no call per file). The
 * files it leaves (not code, not plain, not read) go the usual way, file by file.
 */
import { FILE_SKETCH_SIZE, minTokensOf, SECTION_SKETCH_SIZE } from '../../core/fingerprint/fingerprint';
import { DEFAULT_CODE_ANCHORING } from '../../core/regions/regions';
import type { CodeKernel } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import type { FileToFingerprint, KernelWordsOutcome } from './fileOutcome';
import { fastCodeCounts, fastCodeEnabled, fastCodeLanguage, MAX_TEXT_BYTES, weightingOf } from './fingerprintFile';
import type { SharedFrequencies } from './messages';
import { nativeKernel } from './nativeKernel';

/** The addon's readCodeBatch (native/readcode.c). */
type ReadCodeBatch = (paths: string, languageIds: Int32Array, limit: number, options: Uint32Array, state: Uint32Array, regions: ArrayBuffer[]) => ArrayBuffer;

/** Words of readCodeBatch's state per file: fast, bytes, lines, words' offset and count, region's tokens, lines, anchors. */
const STATE = 8;
/** The shingle size of every file (fingerprintOptions sets none: effectiveShingleSize's default). */
const SHINGLE_SIZE = 3;

/**
 * The batch's files the kernel fingerprinted, by the files' order (undefined: left to the usual
 * path), or undefined when there is no batch call (no addon with it, the fast path off, tf-idf's
 * second pass). `regionBuffers`: the region documents as the kernel's buffers
 * (fingerprintFileSync's `regions` with `regionBuffers`); region documents of any other form are
 * not made here (no batch).
 */
export function codeBatch(
  files: readonly FileToFingerprint[],
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  regions: boolean,
  regionBuffers: boolean,
): Array<KernelWordsOutcome | undefined> | undefined {
  const kernel = nativeKernel() as (CodeKernel & { readCodeBatch?: ReadCodeBatch }) | undefined;
  const weighting = weightingOf(settings, df);
  if (!kernel?.readCodeBatch || !fastCodeEnabled() || weighting === 'tfidf' || (regions && !regionBuffers) || files.length === 0) return undefined;
  const ids = new Int32Array(files.length);
  const paths: string[] = new Array(files.length);
  let any = false;
  for (let f = 0; f < files.length; f++) {
    const { path, relPath } = files[f];
    const id = path.includes('\0') ? -1 : fastCodeLanguage(kernel, relPath);
    ids[f] = id;
    paths[f] = id < 0 ? '' : path;
    any ||= id >= 0;
  }
  if (!any) return undefined;
  const options = new Uint32Array([
    settings.normalizeIdentifiers === true ? 1 : 0,
    settings.foldVariants !== false ? 1 : 0,
    weighting === 'tf' ? 1 : 0,
    minTokensOf({ minTokens: settings.minTokens }),
    settings.sections !== false ? 1 : 0,
    FILE_SKETCH_SIZE,
    SECTION_SKETCH_SIZE,
    SHINGLE_SIZE,
    regions ? 1 : 0,
    DEFAULT_CODE_ANCHORING.k,
    DEFAULT_CODE_ANCHORING.w,
    DEFAULT_CODE_ANCHORING.salt,
  ]);
  const state = new Uint32Array(files.length * STATE);
  const buffers: ArrayBuffer[] = [];
  let words: Uint32Array;
  try {
    words = new Uint32Array(kernel.readCodeBatch(paths.join('\0') + '\0', ids, Math.min(settings.maxFileSizeBytes, MAX_TEXT_BYTES), options, state, buffers));
  } catch {
    return undefined; // out of memory: file by file
  }
  const out: Array<KernelWordsOutcome | undefined> = new Array(files.length);
  for (let f = 0; f < files.length; f++) {
    const s = f * STATE;
    if (state[s] !== 1) continue;
    fastCodeCounts.fast++;
    const o: KernelWordsOutcome = { relPath: files[f].relPath, ok: true, bytes: state[s + 1], encoding: 'utf-8', lines: state[s + 2], words: words.subarray(state[s + 3], state[s + 3] + state[s + 4]) };
    if (regions) o.regionBuffer = { buffer: buffers[f], length: state[s + 5], lines: state[s + 6], anchors: state[s + 7] };
    out[f] = o;
  }
  return out;
}
