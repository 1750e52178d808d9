/**
 * Read, decode and fingerprint one file (runs inside the worker). Every failure becomes an
 * outcome with a reason; nothing here throws for bad input.
 */
import { constants as bufferConstants } from 'node:buffer';
import * as fs from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { applyContainerIgnoreMarkers, containerText, isContainerPath, notebookLineOf, type ContainerText } from '../../core/containers/container';
import { fingerprintDecodedText } from '../../core/fingerprint/decodedDocument';
import { cellLine, isNotebookPath } from '../../core/containers/cellLines';
import { DocumentFrequencyTable } from '../../core/fingerprint/documentFrequency';
import { countDocumentShingles, kernelLanguage, kernelTokenizedDocument, minTokensOf, type FingerprintOptions } from '../../core/fingerprint/fingerprint';
import { documentFromKernel, documentFromTokens, lineStartsOf, regionBufferOf, regionDocument, regionDocumentOfParts, type RegionBuffer, type RegionDocument } from '../../core/regions/document';
import { DEFAULT_CODE_ANCHORING, defaultAnchors } from '../../core/regions/regions';
import { applyIgnoreMarkers } from '../../core/text/ignoreMarkers';
import { languageOf } from '../../core/text/languages';
import { decodeBuffer, isMinified, isRepetitive, type BytesShape, type TextFacts } from '../files/decode';
import type { CodeKernel } from '../../core/types';
import { isCjk, type TokenBuffer } from '../../core/text/tokenize';
import type { EngineSettings } from '../settings/engineSettings';
import { bigramSegmenter } from '../../core/text/segmenters';
import type * as Jieba from '../cjk/jieba';
import { variantFold } from '../cjk/variants';
import { nativeKernel, nativeKernelProblem, wasmKernelProblem } from './nativeKernel';
import type { CjkMode, SharedFrequencies } from './messages';
import type { CjkSegmenterInUse, FileOutcome, FileToFingerprint } from './fileOutcome';

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

/**
 * jieba, loaded on the first CJK run met (most code never needs it), or the bigram fallback. Its
 * glue (./jieba: its dictionary reader, node:zlib for the CRC) is required then too, not while
 * the worker boots.
 */
let cjkLoaded = false;
let jieba: typeof Jieba | undefined;
let wholeAsked = false;
const loadedJieba = (): Jieba.LoadedCjkSegmenter => {
  cjkLoaded = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jieba ??= require('../cjk/jieba') as typeof Jieba;
  return jieba.loadCjkSegmenter(logOnce);
};
const lazyJieba = (run: string): string[] => loadedJieba().segmenter(run);
/** `cjk: 'whole'`: jieba with its whole dictionary at once (no subset first: much Chinese to come). */
const wholeJieba = (run: string): string[] => {
  const loaded = loadedJieba();
  if (!wholeAsked) {
    wholeAsked = true;
    loaded.loadWhole?.();
  }
  return loaded.segmenter(run);
};

/** Thrown by the segmenter of `cjk: 'defer'` when this thread has not loaded jieba yet. */
const CJK_DEFERRED = new Error('CJK text: left to the worker that loads jieba');
const deferredJieba = (run: string): string[] => {
  if (!cjkLoaded) throw CJK_DEFERRED;
  return lazyJieba(run);
};

function segmenterFor(settings: EngineSettings, cjk: CjkMode = 'load') {
  if (settings.cjkSegmenter === 'bigram') return bigramSegmenter;
  return cjk === 'defer' ? deferredJieba : cjk === 'whole' ? wholeJieba : lazyJieba;
}

/**
 * What this thread segments Chinese with so far: `none` (jieba not loaded: no CJK run met with
 * the jieba segmenter), jieba with a `subset` of its dictionary or the `whole` one, or `bigram`
 * (jieba could not load). For diagnostics and tests (the scan's onBatch).
 */
export function cjkSegmenterInUse(): CjkSegmenterInUse {
  if (!cjkLoaded || !jieba) return 'none';
  const loaded = jieba.loadCjkSegmenter(logOnce);
  if (loaded.name === 'bigram') return 'bigram';
  return loaded.dictionary?.() === 'subset' ? 'subset' : 'whole';
}

/** Traditional and variant Chinese characters folded to Simplified (table built on first Han text). */
const foldVariants = variantFold((msg) => logOnce(msg));

/** This thread's kernel (native or WebAssembly) for a file; when a code file meets none, why is logged once. */
let kernelChecked = false;
function codeKernel(relPath: string) {
  const kernel = nativeKernel();
  if (!kernelChecked && languageOf(relPath).kind === 'code') {
    kernelChecked = true;
    if (!kernel) {
      const wasm = wasmKernelProblem();
      logOnce(`NearDup: the native fingerprinting kernel is ${nativeKernelProblem()}${wasm ? ` and the WebAssembly one ${wasm}` : ''}; fingerprinting in JavaScript (same results, slower).`);
    }
  }
  return kernel;
}

function fingerprintOptions(
  relPath: string,
  settings: EngineSettings,
  df?: SharedFrequencies,
  cjk?: CjkMode,
  tokenized?: TokenizedHooks,
  noHan = false,
): FingerprintOptions {
  return {
    kernelTokenized: tokenized?.kernelTokenized,
    proseTokenized: tokenized?.proseTokenized,
    kernel: codeKernel(relPath),
    minTokens: settings.minTokens,
    sections: settings.sections,
    normalizeIdentifiers: settings.normalizeIdentifiers,
    stopWords: settings.stopWords,
    weighting: weightingOf(settings, df),
    segmenter: segmenterFor(settings, cjk),
    // A text without a Han character has nothing to fold (the fold would give it back as it is).
    fold: settings.foldVariants !== false && !noHan ? foldVariants : undefined,
    idf: df ? new DocumentFrequencyTable(df.buffer, df.documents).idf : undefined,
  };
}

/** The weighting a file is fingerprinted with: tfidf without its table (a single pass) is tf. */
export function weightingOf(settings: EngineSettings, df: SharedFrequencies | undefined): FingerprintOptions['weighting'] {
  return settings.weighting === 'tfidf' && !df ? 'tf' : settings.weighting;
}

/** What a caller is told when the fingerprinting has tokenised the text (FingerprintOptions' hooks). */
export type TokenizedHooks = Pick<FingerprintOptions, 'kernelTokenized' | 'proseTokenized'>;

/**
 * Fingerprints a text already in memory (an unsaved editor, or a decoded file): core's
 * fingerprintDecodedText with this thread's tools. `facts`: what the decoding read off the text's
 * bytes, when it did (decodeText's TextFacts). `tokenized`: hooks called with the tokens made.
 */
export function fingerprintDecoded(
  relPath: string,
  text: string,
  bytes: number,
  encoding: string,
  settings: EngineSettings,
  df?: SharedFrequencies,
  cjk?: CjkMode,
  tokenized?: TokenizedHooks,
  facts?: TextFacts,
): FileOutcome {
  try {
    const options = () => fingerprintOptions(relPath, settings, df, cjk, tokenized, facts?.maybeHan === false);
    return fingerprintDecodedText(relPath, text, bytes, encoding, options, facts);
  } catch (e) {
    if (e === CJK_DEFERRED) return { relPath, ok: false, reason: 'deferred: CJK text needs jieba', retry: 'cjk', cjkChars: cjkCharsOf(text) };
    throw e;
  }
}

/** The CJK characters of a text (what the prose tokenizer hands a segmenter, and more: code's too). */
function cjkCharsOf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isCjk(text.charCodeAt(i))) n++;
  return n;
}

/**
 * The region document (core/regions) of a file's text as fingerprintDecoded fingerprints it:
 * ignore markers applied, variants folded, code tokenised by the kernel when there is one; a
 * notebook or component by its parts, a notebook's lines reported as cell lines; with its anchors
 * under the region finder's defaults. Null when the
 * file is marked `neardup-ignore-file` or is a notebook that cannot be read.
 */
export function regionDocumentOf(relPath: string, text: string, settings: EngineSettings): RegionDocument | null {
  const fold = (t: string) => (settings.foldVariants !== false ? foldVariants(t) : t);
  const container = containerText(relPath, text);
  if (container && 'reason' in container) return null;
  const withAnchors = (doc: RegionDocument): RegionDocument => {
    doc.anchors = defaultAnchors(doc, nativeKernel());
    return doc;
  };
  if (!container) {
    const kept = applyIgnoreMarkers(text, languageOf(relPath));
    if (kept === null) return null;
    const doc = regionDocument(fold(kept), relPath, { kernel: codeKernel(relPath) }, DEFAULT_CODE_ANCHORING);
    return doc.anchors ? doc : withAnchors(doc); // the kernel's code documents come with their anchors
  }
  const kept = applyContainerIgnoreMarkers(container);
  if (kept === null) return null;
  const doc = regionDocumentOfParts(fold(kept), container.parts, { kernel: nativeKernel() });
  if (container.notebook) {
    const lines = new Int32Array(doc.lineStarts.length);
    for (let l = 1; l <= lines.length; l++) {
      const at = notebookLineOf(container, l);
      lines[l - 1] = at ? Math.max(0, cellLine(at.cell, at.line)) : 0;
    }
    doc.reportLines = lines;
  }
  return withAnchors(doc);
}

/**
 * regionDocumentOf's document of a prose file, from what fingerprintText's proseTokenized hook
 * gives: its tokens when they are the region finder's (`plain`), else its text (markers applied,
 * folded) tokenised again the region finder's way; with its anchors (by this thread's kernel when
 * there is one).
 */
function proseRegionDocument(relPath: string, tokens: TokenBuffer, text: string, plain: boolean): RegionDocument {
  const doc = plain ? documentFromTokens('prose', tokens, null, lineStartsOf(text)) : regionDocument(text, relPath, { kernel: nativeKernel() });
  doc.anchors = defaultAnchors(doc, nativeKernel());
  return doc;
}

/** textShape's output words (reused). */
const shapeWords = new Uint32Array(4);
/** Bits of textShape's fourth word (native/textshape.h). */
const SHAPE_MAYBE_HAN = 4;
const SHAPE_MARKED = 8;
let utf8ShapeOf: { kernel: CodeKernel | undefined; shape: ((bytes: Uint8Array) => BytesShape) | undefined } | undefined;
/** The kernel's textShape as decodeBuffer's utf8Shape (decodeText's checks read off the bytes), when this thread's kernel has it. */
function utf8Shape(): ((bytes: Uint8Array) => BytesShape) | undefined {
  const kernel = nativeKernel();
  if (!utf8ShapeOf || utf8ShapeOf.kernel !== kernel) {
    const textShape = kernel?.textShape?.bind(kernel);
    const shape = textShape
      ? (bytes: Uint8Array): BytesShape => {
          textShape(bytes, shapeWords);
          const bits = shapeWords[3];
          return { control: shapeWords[0], newlines: shapeWords[1], longest: shapeWords[2], maybeHan: (bits & SHAPE_MAYBE_HAN) !== 0, marked: (bits & SHAPE_MARKED) !== 0 };
        }
      : undefined;
    utf8ShapeOf = { kernel, shape };
  }
  return utf8ShapeOf.shape;
}

/** The addon's readCode (native/readcode.c). */
type ReadCode = (path: string, buffer: Uint8Array, limit: number, languageId: number, normalize: boolean, region: boolean, fold: boolean, out: Uint32Array) => number;

/** readCode's statuses: the usual path reads the file; or it decodes the bytes read (out[0] of them, out[1] why). */
export const READ_UNUSUAL = -1;
export const READ_PLAIN_NOT = -2;

/** Why the fast path left files to the usual path, by count (tests, benches): read by it, or read here then one of plainCodeText's reasons. */
export const fastCodeCounts = { fast: 0, notTried: 0, unusual: 0, notUtf8: 0, control: 0, han: 0, marked: 0, minified: 0, repetitive: 0 };
/** plainCodeText's reasons (native/utf8code.h PLAIN_*), by number. */
export const PLAIN_REASONS = ['fast', 'notUtf8', 'control', 'han', 'marked', 'minified', 'repetitive'] as const;

const out = new Uint32Array(2);

/** NEARDUP_FAST_READ=0 turns the fast path off (benches: the usual path alone); tests switch it with {@link useFastCode}. */
let enabled = process.env.NEARDUP_FAST_READ !== '0';
export function useFastCode(on: boolean): void {
  enabled = on;
}
/** Whether the fast path is on (codeBatch.ts too). */
export const fastCodeEnabled = (): boolean => enabled;

/**
 * The kernel's language id of a file the fast path may take (fastCode, codeBatch.ts): a code file,
 * not a notebook nor a component, in a language the kernel tokenises; else -1.
 */
export function fastCodeLanguage(kernel: CodeKernel, relPath: string): number {
  const lang = languageOf(relPath);
  return lang.kind === 'code' && !isNotebookPath(relPath) && !isContainerPath(relPath) ? kernelLanguage(kernel, lang) : -1;
}

/** What fastCode gives: the outcome, or that the usual path reads the file, or decodes the `bytes` read into the buffer. */
export type FastCode = { outcome: Extract<FileOutcome, { ok: true }> } | { bytes: number } | undefined;

/**
 * The fast path for a code file (issue 16): one call of the addon's readCode (native/readcode.c)
 * reads it, checks its bytes are plain UTF-8 the usual path would take as they are (native/utf8code.c:
 * no byte order mark, NUL or bad sequence, few controls, no marker, no Han to fold, neither minified
 * nor repetitive) and tokenises them in the kernel: no string, TextDecoder nor fs wrappers. Its
 * outcome is the usual path's (fingerprintDecodedText, then fingerprintText's kernel path:
 * kernelTokenizedDocument). Only where the addon has readCode (not Windows, not WebAssembly).
 * Gives its outcome; or `{ bytes }`, the file read into `buffer` (its first
 * `bytes`) but not plain code text; or undefined (not tried, or not read). `limit`: the largest
 * size the usual path takes. `kernelTokenized`: fingerprintText's hook (the region document).
 */
export function fastCode(
  file: FileToFingerprint,
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  buffer: Uint8Array,
  limit: number,
  kernelTokenized?: (kernel: CodeKernel) => void,
): FastCode {
  const kernel = nativeKernel() as (CodeKernel & { readCode?: ReadCode }) | undefined;
  const readCode = enabled ? kernel?.readCode : undefined;
  const id = kernel && readCode && weightingOf(settings, df) !== 'tfidf' ? fastCodeLanguage(kernel, file.relPath) : -1;
  if (!kernel || !readCode || id < 0) {
    fastCodeCounts.notTried++;
    return undefined;
  }
  const total = readCode.call(kernel, file.path, buffer, limit, id, settings.normalizeIdentifiers === true, kernelTokenized !== undefined, settings.foldVariants !== false, out);
  if (total === READ_UNUSUAL) {
    fastCodeCounts.unusual++;
    return undefined;
  }
  if (total === READ_PLAIN_NOT) {
    fastCodeCounts[PLAIN_REASONS[out[1]] ?? 'notUtf8']++;
    return { bytes: out[0] };
  }
  fastCodeCounts.fast++;
  const bytes = out[0];
  const lines = out[1];
  // (the usual path's options; no Han to fold: plainCodeText checked)
  const options = fingerprintOptions(file.relPath, settings, df, undefined, { kernelTokenized }, true);
  const doc = kernelTokenizedDocument(kernel, total, options, minTokensOf(options));
  return { outcome: { relPath: file.relPath, ok: true, bytes, encoding: 'utf-8', doc, lines } };
}

/** Files are read into this buffer (grown as needed, dropped when it grows big). */
let scratch = Buffer.allocUnsafeSlow(256 * 1024);
const SCRATCH_KEEP_BYTES = 4 * 1024 * 1024;

/**
 * Reads a whole file from `fd` (at most `limit` + 1 bytes: enough to tell it is over the limit)
 * into the scratch buffer; the bytes are valid until the next call. A file of `size` bytes by its
 * fstat is read as that many (one read, not a second one to meet the end: what it gains after the
 * fstat is not read); a size of 0 (files whose size the system does not know) reads to the end.
 */
function readAllSync(fd: number, size: number, limit: number): Buffer {
  const want = Math.min(size, limit) + 1; // one more byte: room to tell a file over the limit
  if (scratch.length < want) scratch = Buffer.allocUnsafeSlow(Math.max(want, scratch.length * 2));
  let buf = scratch;
  let n = 0;
  for (;;) {
    if (size > 0 && n >= size) break;
    if (n === buf.length) {
      if (n > limit) break;
      const bigger = Buffer.allocUnsafeSlow(Math.min(buf.length * 2, limit + 1));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    const r = fs.readSync(fd, buf, n, buf.length - n, null);
    if (r === 0) break;
    n += r;
  }
  if (buf.length <= SCRATCH_KEEP_BYTES) scratch = buf;
  else if (scratch.length > SCRATCH_KEEP_BYTES) scratch = Buffer.allocUnsafeSlow(256 * 1024);
  return buf.subarray(0, n);
}

function readFailure(e: unknown): { reason: string } {
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

/**
 * Reads and decodes a file, or says why it cannot be used. Synchronous: it runs in a worker
 * thread that has nothing else to do meanwhile, and one call costs far less than the four
 * thread-pool round trips of the promise API. Also the CLI's `--locate` re-read (node/locate/locate.ts).
 */
export function readTextSync(
  file: FileToFingerprint,
  settings: EngineSettings,
): { text: string; bytes: number; encoding: string; facts?: TextFacts } | { reason: string } {
  let buf: Buffer;
  let fd: number;
  try {
    // The walk saw a regular file, but it may have been replaced since. O_NOFOLLOW: a symbolic
    // link is not followed (out of the tree); O_NONBLOCK: opening a FIFO does not wait for a
    // writer (forever). Neither changes how a regular file is read.
    fd = fs.openSync(file.path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
  } catch (e) {
    return readFailure(e);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { reason: 'not a regular file' };
    if (stat.size > settings.maxFileSizeBytes) return { reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
    // Its text could not be held in one string: refuse before reading it.
    if (stat.size > MAX_TEXT_BYTES) return { reason: `too large to handle as text (${stat.size} bytes)` };
    buf = readAllSync(fd, stat.size, settings.maxFileSizeBytes);
  } catch (e) {
    return readFailure(e);
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // nothing to do
    }
  }
  if (buf.length > settings.maxFileSizeBytes) return { reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB` };
  return decodeRead(buf);
}

/** readTextSync's decoding of the bytes it read (within the limits). */
function decodeRead(buf: Uint8Array): { text: string; bytes: number; encoding: string; facts?: TextFacts } | { reason: string } {
  const decoded = decodeBuffer(buf, utf8Shape());
  if (!decoded.ok) return { reason: decoded.reason };
  return { text: decoded.text, bytes: buf.length, encoding: decoded.encoding, facts: decoded.facts };
}

/**
 * readTextSync for what NearDup reads of a file: a notebook's cells (its container text, not its
 * JSON; a broken notebook gives its reason), a component's text; with `container`, the parts of
 * a container file — for a notebook, `notebookLineOf(container, line)` (core/containers) says
 * which cell and line of the notebook a line of `text` is. The CLI's `--locate` re-read uses it.
 */
export function readDocumentSync(
  file: FileToFingerprint,
  settings: EngineSettings,
): { text: string; bytes: number; encoding: string; container?: ContainerText } | { reason: string } {
  const read = readTextSync(file, settings);
  if ('reason' in read) return read;
  const container = containerText(file.relPath, read.text);
  if (!container) return read;
  if ('reason' in container) return { reason: container.reason };
  return { text: container.text, bytes: read.bytes, encoding: read.encoding, container };
}

/** First pass of TF-IDF: counts the file's distinct shingles into the shared table. */
export function countFileShinglesSync(file: FileToFingerprint, settings: EngineSettings, table: DocumentFrequencyTable): boolean {
  const read = readDocumentSync(file, settings);
  if ('reason' in read || isMinified(read.text) || isRepetitive(read.text)) return false;
  return countDocumentShingles(read.text, file.relPath, { ...fingerprintOptions(file.relPath, settings), container: read.container }, table);
}

export async function countFileShingles(file: FileToFingerprint, settings: EngineSettings, table: DocumentFrequencyTable): Promise<boolean> {
  return countFileShinglesSync(file, settings, table);
}

/**
 * Reads, decodes and fingerprints one file. With `cjk: 'defer'`, a file whose text needs jieba
 * while this thread has not loaded it comes back with `retry: 'cjk'` (see {@link CjkMode}). With
 * `regions`, its region document too; with `regionBuffers` as well, a code file the kernel
 * fingerprints gives it as the kernel's buffer (`regionBuffer`: no views made here).
 */
export function fingerprintFileSync(file: FileToFingerprint, settings: EngineSettings, df?: SharedFrequencies, cjk?: CjkMode, regions = false, regionBuffers = false): FileOutcome {
  // With regions, a code file the kernel fingerprints gives its region document from the same
  // tokenize (one pass: documentFromKernel), a prose file from the same tokens or at least the
  // same marked and folded text (proseRegionDocument); any other file is read again by regionDocumentOf.
  const made: { region?: RegionDocument; buffer?: RegionBuffer } = {};
  const hooks: TokenizedHooks | undefined = regions
    ? {
        kernelTokenized: regionBuffers
          ? (kernel) => void (made.buffer = regionBufferOf(kernel, DEFAULT_CODE_ANCHORING))
          : (kernel) => void (made.region = documentFromKernel(kernel, DEFAULT_CODE_ANCHORING)),
        proseTokenized: (tokens, text, plain) => void (made.region = proseRegionDocument(file.relPath, tokens, text, plain)),
      }
    : undefined;
  // A plain UTF-8 code file: read, decoded and tokenised by the kernel in one call (fastCode);
  // any other file by the usual path, from the bytes that call read when it read them.
  const fast = fastCode(file, settings, df, scratch, Math.min(settings.maxFileSizeBytes, MAX_TEXT_BYTES), hooks?.kernelTokenized);
  if (fast && 'outcome' in fast) {
    if (made.buffer) fast.outcome.regionBuffer = made.buffer;
    else if (made.region) fast.outcome.region = made.region;
    return fast.outcome;
  }
  const read = fast ? decodeRead(scratch.subarray(0, fast.bytes)) : readTextSync(file, settings);
  if ('reason' in read) return { relPath: file.relPath, ok: false, reason: read.reason };
  const outcome = fingerprintDecoded(file.relPath, read.text, read.bytes, read.encoding, settings, df, cjk, hooks, read.facts);
  if (regions && outcome.ok) {
    if (made.buffer) outcome.regionBuffer = made.buffer;
    else outcome.region = made.region ?? regionDocumentOf(file.relPath, read.text, settings) ?? undefined;
  }
  return outcome;
}

export async function fingerprintFile(file: FileToFingerprint, settings: EngineSettings, df?: SharedFrequencies): Promise<FileOutcome> {
  return fingerprintFileSync(file, settings, df);
}
