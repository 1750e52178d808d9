/**
 * The fast path of a worker's batch (issue 16): the plain UTF-8 code files of a batch read,
 * checked, tokenised and fingerprinted by one call of the addon (native/readcode.c
 * readCodeBatch), each as fastCode and then fingerprintText's kernel path would (fingerprintFile.ts),
 * its fingerprint left as the kernel's words for the packing (no objects, no call per file); its
 * prose files (Markdown, plain text) too when the kernel lower-cases every word, the text has no
 * CJK run, and no stop word is asked for (kernelTokenizeProse, prosesections.c; their region
 * documents too). The files it leaves (not plain, not read, other words) go the usual way, file
 * by file.
 */
import { FILE_SKETCH_SIZE, minTokensOf, SECTION_SKETCH_SIZE } from '../../core/fingerprint/fingerprint';
import { DEFAULT_CODE_ANCHORING } from '../../core/regions/regions';
import { isContainerPath } from '../../core/containers/container';
import { isNotebookPath } from '../../core/containers/cellLines';
import { baseNameOf, languageOf } from '../../core/text/languages';
import type { CodeKernel } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import type { FileToFingerprint, KernelWordsOutcome } from './fileOutcome';
import { fastCodeCounts, fastCodeEnabled, fastCodeLanguage, MAX_TEXT_BYTES, PLAIN_REASONS, weightingOf } from './fingerprintFile';
import type { SharedFrequencies } from './messages';
import { nativeKernel } from './nativeKernel';

/** The addon's readCodeBatch (native/readcode.c). */
type ReadCodeBatch = (paths: string, languageIds: Int32Array, limit: number, options: Uint32Array, state: Uint32Array, regions: ArrayBuffer[]) => ArrayBuffer;
/** The addon's readCodeBatchAsync: readCodeBatch's work on a thread of libuv's pool. */
type ReadCodeBatchAsync = (paths: string, languageIds: Int32Array, limit: number, options: Uint32Array, lanes: number, nice?: number) => Promise<{ words: ArrayBuffer; state: Uint32Array; regions?: ArrayBuffer[] }>;
type BatchKernel = CodeKernel & { readCodeBatch?: ReadCodeBatch; readCodeBatchAsync?: ReadCodeBatchAsync; setFoldTable?: (table: Uint16Array | null) => void };

/**
 * The variant fold's table for this thread's kernel (a copy; null: none): a code file with Han
 * text to fold is then read, folded and fingerprinted by the batch (and readCode) as the usual
 * path folds it, instead of being left to it. False when the kernel cannot take one.
 */
export function useKernelFoldTable(table: Uint16Array | null): boolean {
  const kernel = nativeKernel() as BatchKernel | undefined;
  if (typeof kernel?.setFoldTable !== 'function') return false;
  kernel.setFoldTable(table);
  return true;
}

/** Words of readCodeBatch's state per file: fast, bytes (of a file left after it was read: why, PLAIN_*), lines, words' offset and count, region's tokens, lines, anchors. */
const STATE = 8;
/** native/utf8code.h PLAIN_HAN: left because its Han text needs the fold table the kernel has not been given. */
const PLAIN_HAN = PLAIN_REASONS.indexOf('han');
/** native/readcode.c LEFT_PROSE_CJK, after plainCodeText's reasons and LEFT_PROSE_WORDS: a prose file left for its CJK text (jieba's). */
const LEFT_PROSE_CJK = PLAIN_REASONS.length + 1;
/** Told of a batch's files left for their Han text alone (`han`: to fold) and of its prose files left for their CJK text (`cjk`), by index. */
export type BatchLeft = (han: number[], cjk: number[]) => void;
/** A batch's language id for a prose file (native/readcode.c BATCH_PROSE). */
const BATCH_PROSE = -2;
/** The shingle size of every file (fingerprintOptions sets none: effectiveShingleSize's default). */
const SHINGLE_SIZE = 3;

/** The arguments of a batch call: the files' paths ("\0" after each), languages (-1: left to the usual path; BATCH_PROSE), size limit and options. */
interface BatchCall {
  paths: string;
  ids: Int32Array;
  limit: number;
  options: Uint32Array;
}

/**
 * fastCodeLanguage by file name, for a batch call, or BATCH_PROSE for a prose file (not code, not
 * a notebook nor a component: fingerprintText tokenises it as prose). The scan's main thread makes
 * one call per batch, and file names repeat (index.js, README.md…): the id depends on the name alone
 * (languageOf and the notebook and component tests read its base name). Of one kernel; let go
 * when it gets big.
 */
const languageByName = { kernel: undefined as CodeKernel | undefined, ids: new Map<string, number>() };
const LANGUAGE_NAMES_KEPT = 1 << 16;

function languageIdOf(kernel: CodeKernel, relPath: string): number {
  const name = baseNameOf(relPath);
  if (languageByName.kernel !== kernel || languageByName.ids.size >= LANGUAGE_NAMES_KEPT) languageByName.ids.clear();
  languageByName.kernel = kernel;
  let id = languageByName.ids.get(name);
  if (id === undefined) {
    id = fastCodeLanguage(kernel, name);
    if (id < 0 && languageOf(name).kind !== 'code' && !isNotebookPath(name) && !isContainerPath(name)) id = BATCH_PROSE;
    languageByName.ids.set(name, id);
  }
  return id;
}

/**
 * A batch call for the files, or undefined when the batch takes none of them (or there is no
 * batch: see {@link codeBatch}). `regions`: readcode.c's OPT_REGION (0 none, 1 the region
 * documents too, 2 those alone), in the kernel's buffers.
 */
function batchCall(kernel: BatchKernel, files: readonly FileToFingerprint[], settings: EngineSettings, df: SharedFrequencies | undefined, regions: 0 | 1 | 2): BatchCall | undefined {
  const weighting = weightingOf(settings, df);
  if (!fastCodeEnabled() || weighting === 'tfidf' || files.length === 0) return undefined;
  const ids = new Int32Array(files.length);
  const paths: string[] = new Array(files.length);
  // Prose as fingerprintText tokenises it without options (no stop word dropped).
  const prose = settings.stopWords !== true;
  let any = false;
  for (let f = 0; f < files.length; f++) {
    const { path, relPath } = files[f];
    let id = path.includes('\0') ? -1 : languageIdOf(kernel, relPath);
    if (id === BATCH_PROSE && !prose) id = -1;
    ids[f] = id;
    paths[f] = id === -1 ? '' : path;
    any ||= id !== -1;
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
    regions,
    DEFAULT_CODE_ANCHORING.k,
    DEFAULT_CODE_ANCHORING.w,
    DEFAULT_CODE_ANCHORING.salt,
  ]);
  return { paths: paths.join('\0') + '\0', ids, limit: Math.min(settings.maxFileSizeBytes, MAX_TEXT_BYTES), options };
}

/**
 * The outcomes of a batch call's state and words, by the files' order (undefined: left to the
 * usual path); `onLeft` with the indexes of the files left for their Han text alone (to fold) and
 * of the prose files left for their CJK text (jieba's), when there are any.
 */
function batchOutcomes(
  files: readonly FileToFingerprint[],
  ids: Int32Array,
  state: Uint32Array,
  words: Uint32Array,
  buffers: readonly ArrayBuffer[] | undefined,
  onLeft?: BatchLeft,
): Array<KernelWordsOutcome | undefined> {
  const out: Array<KernelWordsOutcome | undefined> = new Array(files.length);
  const han: number[] = [];
  const cjk: number[] = [];
  for (let f = 0; f < files.length; f++) {
    const s = f * STATE;
    if (state[s] !== 1) {
      if (state[s + 1] === PLAIN_HAN) han.push(f);
      else if (state[s + 1] === LEFT_PROSE_CJK) cjk.push(f);
      continue;
    }
    fastCodeCounts.fast++;
    const o: KernelWordsOutcome = { relPath: files[f].relPath, ok: true, bytes: state[s + 1], encoding: 'utf-8', lines: state[s + 2], words: words.subarray(state[s + 3], state[s + 3] + state[s + 4]) };
    if (ids[f] === BATCH_PROSE) o.prose = true;
    if (buffers) {
      o.regionBuffer = { buffer: buffers[f], length: state[s + 5], lines: state[s + 6], anchors: state[s + 7] };
      if (o.prose) o.regionBuffer.prose = true;
    }
    out[f] = o;
  }
  if (han.length > 0 || cjk.length > 0) onLeft?.(han, cjk);
  return out;
}

/**
 * The batch's files the kernel fingerprinted, by the files' order (undefined: left to the usual
 * path), or undefined when there is no batch call (no addon with it, the fast path off, tf-idf's
 * second pass). `regionBuffers`: the region documents as the kernel's buffers
 * (fingerprintFileSync's `regions` with `regionBuffers`); region documents of any other form are
 * not made here (no batch). `regionsOnly` (with `regions`): the region documents alone, each
 * file's fingerprint an empty document (a reader of region documents only: the engine's).
 */
export function codeBatch(
  files: readonly FileToFingerprint[],
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  regions: boolean,
  regionBuffers: boolean,
  regionsOnly = false,
): Array<KernelWordsOutcome | undefined> | undefined {
  const kernel = nativeKernel() as BatchKernel | undefined;
  const call = kernel?.readCodeBatch && (!regions || regionBuffers) ? batchCall(kernel, files, settings, df, regions ? (regionsOnly ? 2 : 1) : 0) : undefined;
  if (!call) return undefined;
  const state = new Uint32Array(files.length * STATE);
  const buffers: ArrayBuffer[] = [];
  let words: Uint32Array;
  try {
    words = new Uint32Array(kernel!.readCodeBatch!(call.paths, call.ids, call.limit, call.options, state, buffers));
  } catch {
    return undefined; // out of memory: file by file
  }
  return batchOutcomes(files, call.ids, state, words, regions ? buffers : undefined);
}

/** Whether {@link codeBatchAsync} can run here (the addon has readCodeBatchAsync, the fast path is on). */
export function codeBatchAsyncAvailable(): boolean {
  return fastCodeEnabled() && typeof (nativeKernel() as BatchKernel | undefined)?.readCodeBatchAsync === 'function';
}

/**
 * {@link codeBatch} on a thread of libuv's pool with a kernel of its own (the same outcomes), while
 * this thread runs on, at most `lanes` such batches at once (0: as many as libuv's threads);
 * undefined when there is no such call (as codeBatch, or no readCodeBatchAsync). A batch that
 * fails (out of memory) resolves to no outcome: every file left to the usual path. `onLeft`: told
 * of the files left only because the kernel has no fold table (useKernelFoldTable), and of the
 * prose files left for their CJK text, before it resolves.
 * `nice` (Linux; 0: none): the job's thread of libuv's pool runs at this lower priority from then on
 * (native/readcode.c lowerThreadPriority), for a process of its own whose pool runs nothing else.
 */
export function codeBatchAsync(
  files: readonly FileToFingerprint[],
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  regions: boolean,
  lanes = 0,
  onLeft?: BatchLeft,
  nice = 0,
): Promise<Array<KernelWordsOutcome | undefined>> | undefined {
  const kernel = nativeKernel() as BatchKernel | undefined;
  const call = kernel?.readCodeBatchAsync ? batchCall(kernel, files, settings, df, regions ? 1 : 0) : undefined;
  if (!call) return undefined;
  return kernel!.readCodeBatchAsync!(call.paths, call.ids, call.limit, call.options, lanes, nice).then(
    (r) => batchOutcomes(files, call.ids, r.state, new Uint32Array(r.words), regions ? (r.regions ?? []) : undefined, onLeft),
    () => new Array<KernelWordsOutcome | undefined>(files.length),
  );
}
