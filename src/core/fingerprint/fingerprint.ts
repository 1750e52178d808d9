/**
 * The document pipeline: text → tokens → whole-file fingerprint + section fingerprints; container
 * files (notebooks, Vue and Svelte components: core/containers) part by part, each in its language.
 */
import { cellLine, MAX_CELL } from '../containers/cellLines';
import { applyContainerIgnoreMarkers, containerText, type ContainerText } from '../containers/container';
import { applyIgnoreMarkers } from '../text/ignoreMarkers';
import { languageOf, type LanguageInfo } from '../text/languages';
import { codeSections } from '../sections/codeSections';
import { proseSections } from '../sections/proseSections';
import type { DocumentFrequencyTable } from './documentFrequency';
import { hashes, hashStreams } from './cloneHashes';
import { effectiveShingleSize, forEachDistinct, ShingleSequence, simhashRange, simhashTokens } from './simhash';
import { TokenBuffer, tokenizeCode, tokenizeProse } from '../text/tokenize';
import type { CjkSegmenter, CodeKernel, DocumentFingerprint, ItemFingerprint, SectionFingerprint, SimHashFingerprint, TextFold, TextRange, Weighting } from '../types';

export interface FingerprintOptions {
  /** Items (files and sections) with fewer tokens are not fingerprinted. Default 50. */
  minTokens?: number;
  /** Tokens per shingle. Default 3. */
  shingleSize?: number;
  /** Fingerprint sections as well as whole files. Default true. */
  sections?: boolean;
  /** Replace identifiers and literals in code by placeholders. Default false. */
  normalizeIdentifiers?: boolean;
  /** Drop English and Chinese stop words from prose. Default false. */
  stopWords?: boolean;
  weighting?: Weighting;
  /** Segments CJK runs into words; character bigrams when absent. */
  segmenter?: CjkSegmenter;
  /**
   * Applied to the text before anything else (tokens, sections, the kernel): e.g. Chinese
   * Traditional and variant characters folded to Simplified. Keeps lengths (see TextFold).
   */
  fold?: TextFold;
  idf?: (hi: number, lo: number) => number;
  /**
   * A compiled code path giving the same results (see CodeKernel): tokenises and fingerprints code
   * with weighting 'none' or 'tf'; fingerprints the tokens of prose, containers and languages it
   * cannot tokenise (fingerprintTokens), tokenised here (prose's words found by its proseTokens);
   * tfidf stays here.
   */
  kernel?: CodeKernel;
  /**
   * The file's container text (containerText of core/containers), when the caller has it already
   * (the Node layer reads a notebook's cells once); else fingerprintText makes it from the file
   * name and text. A container is tokenised part by part, its code in TypeScript (the kernel's
   * tokenize reads one language per text); the results do not depend on the kernel.
   */
  container?: ContainerText;
  /**
   * Called when the kernel has tokenised the text (a code file it takes, not a container): the
   * tokenize was made with `region`, so the caller may ask the kernel for the text's region
   * document (CodeKernel.region) without tokenising it again.
   */
  kernelTokenized?: (kernel: CodeKernel) => void;
  /**
   * Called when prose (not a container) has been tokenised, with its tokens (fingerprintText's
   * buffer: read them during the call) and the text they were read from (markers applied,
   * folded); `plain`: they are tokenizeProse's without options (no stop word dropped, no CJK run
   * given to a segmenter). The caller may make the text's region document from them without
   * tokenising it again.
   */
  proseTokenized?: (tokens: TokenBuffer, text: string, plain: boolean) => void;
  /**
   * The caller found no `neardup-ignore-` in the text (IGNORE_MARKER_PREFIX): its markers are not
   * searched for again. A container (core/containers) is searched part by part, as without it.
   */
  unmarked?: boolean;
}

export const DEFAULT_MIN_TOKENS = 50;
/** Bottom-k sketch capacities of whole files and of sections. */
export const FILE_SKETCH_SIZE = 128;
export const SECTION_SKETCH_SIZE = 64;

const buffer = new TokenBuffer();
/** The shingles of the whole file, shared by the file's fingerprint and its sections'. */
const fileShingles = new ShingleSequence();

/** Tokenises text into `buffer`; returns the CJK runs prose met (tokenizeProse's count; 0 for code). */
function tokenizeInto(text: string, lang: LanguageInfo, options: FingerprintOptions, reset = true): number {
  if (reset) buffer.reset();
  if (lang.kind !== 'code') return tokenizeProse(text, { stopWords: options.stopWords, segmenter: options.segmenter, kernel: options.kernel }, buffer);
  tokenizeCode(text, lang, { normalizeIdentifiers: options.normalizeIdentifiers }, buffer);
  return 0;
}

/**
 * Fingerprints a whole text and its sections. `path` decides code versus prose. The text's
 * `neardup-ignore-…` markers are applied first (see ignoreMarkers.ts): a file marked whole has no
 * fingerprints, and ignored regions no tokens. Code the kernel takes is tokenised and hashed there;
 * any other text is tokenised here (prose's words found by the kernel's proseTokens), then hashed
 * by fingerprintTokens.
 */
export function fingerprintText(text: string, path: string, options: FingerprintOptions = {}): DocumentFingerprint {
  const container = options.container ?? containerText(path, text);
  if (container) return 'reason' in container ? { kind: 'code', file: null, sections: [] } : fingerprintContainer(container, options);
  const lang = languageOf(path);
  // Ignore markers (ignoreMarkers.ts) first: a file marked whole gives nothing; ignored regions
  // are blanked (same offsets and lines), for the kernel as for the code below.
  const kept = options.unmarked ? text : applyIgnoreMarkers(text, lang);
  if (kept === null) return { kind: lang.kind, file: null, sections: [] };
  text = kept;
  if (options.fold) text = options.fold(text);
  const minTokens = minTokensOf(options);
  const kernel = options.kernel;
  if (kernel && lang.kind === 'code' && options.weighting !== 'tfidf') {
    const id = kernelLanguage(kernel, lang);
    if (id >= 0) return fingerprintWithKernel(kernel, id, text, options, minTokens);
  }
  const cjkRuns = tokenizeInto(text, lang, options);
  if (options.proseTokenized && lang.kind !== 'code') options.proseTokenized(buffer, text, options.stopWords !== true && (cjkRuns === 0 || !options.segmenter));
  if (buffer.length < minTokens) return { kind: lang.kind, file: null, sections: [] };
  sectionRanges.length = 0;
  if (options.sections !== false) {
    for (const r of lang.kind === 'code' ? codeSections(text) : proseSections(text)) {
      sectionRanges.push(buffer.lowerBound(r.startOffset), buffer.lowerBound(r.endOffset), r.startLine, r.endLine);
    }
  }
  return fingerprintTokens(lang.kind, options, minTokens);
}

/** Token ranges of the sections of the text in `buffer`: from to startLine endLine each (fingerprintTokens' input). */
class RangeList {
  words = new Int32Array(256);
  /** Ranges held. */
  length = 0;

  push(from: number, to: number, startLine: number, endLine: number): void {
    if (this.words.length < (this.length + 1) * 4) {
      const bigger = new Int32Array(this.words.length * 2);
      bigger.set(this.words);
      this.words = bigger;
    }
    const w = this.length++ * 4;
    this.words[w] = from;
    this.words[w + 1] = to;
    this.words[w + 2] = startLine;
    this.words[w + 3] = endLine;
  }
}
const sectionRanges = new RangeList();
/**
 * Most tokens handed to a kernel's fingerprintTokens: the WebAssembly kernel copies them (12 bytes
 * a token) into a memory that never shrinks; a bigger stream (a huge prose file) is hashed here.
 */
const KERNEL_TOKENS = 1 << 20;

/**
 * The fingerprints of the tokens in `buffer` (at least minTokens) and of the sections in
 * sectionRanges: by the kernel when it has fingerprintTokens (the same words as its own tokenize
 * gives fingerprint; not tf-idf, whose weights are here), else here. The text is tokenised once
 * and its shingles hashed once (fileShingles); the file and every section are fingerprinted from
 * ranges of that sequence. A section shorter than the shingle size (possible only when minTokens
 * is below it) has shorter shingles of its own and is hashed apart.
 */
function fingerprintTokens(kind: DocumentFingerprint['kind'], options: FingerprintOptions, minTokens: number): DocumentFingerprint {
  const total = buffer.length;
  const k = effectiveShingleSize(options.shingleSize, total);
  const altIsRaw = options.normalizeIdentifiers === true;
  const kernel = options.kernel;
  if (kernel?.fingerprintTokens && options.weighting !== 'tfidf' && total <= KERNEL_TOKENS) {
    const call = (out: Uint32Array): number =>
      kernel.fingerprintTokens!(buffer.hi, buffer.lo, buffer.alt, total, altIsRaw, sectionRanges.words, sectionRanges.length, k, options.weighting === 'tf', FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE, minTokens, out);
    return kernelDocument(kind, call);
  }
  const simOptions = {
    shingleSize: options.shingleSize,
    weighting: options.weighting,
    sketchSize: FILE_SKETCH_SIZE,
    idf: options.idf,
  };
  fileShingles.build(buffer, 0, total, k);
  const file = withCloneHashes(simhashRange(fileShingles, 0, total, simOptions), 0, total, altIsRaw);
  const sections: SectionFingerprint[] = [];
  const sectionOptions = { ...simOptions, sketchSize: SECTION_SKETCH_SIZE };
  const r = sectionRanges.words;
  for (let i = 0; i < sectionRanges.length * 4; i += 4) pushSection(sections, r[i], r[i + 1], r[i + 2], r[i + 3], total, k, minTokens, sectionOptions, altIsRaw);
  return { kind, file, sections };
}

/**
 * Adds the section of tokens from..to (of `buffer`, shingled in fileShingles with size k) unless
 * it is too short or holds (nearly) every token of the file, which would only repeat the file's pair.
 */
function pushSection(
  sections: SectionFingerprint[],
  from: number,
  to: number,
  startLine: number,
  endLine: number,
  total: number,
  k: number,
  minTokens: number,
  sectionOptions: Parameters<typeof simhashRange>[3],
  altIsRaw: boolean,
): void {
  if (to - from < minTokens || to - from >= total * 0.95) return;
  const fp = to - from >= k ? simhashRange(fileShingles, from, to, sectionOptions) : simhashTokens(buffer, from, to, sectionOptions);
  if (!fp) return;
  // Spelt out rather than spread ({ ...fp }): same fields in the same order, much cheaper.
  const { hi, lo, tokens, features, sketch } = fp;
  hashStreams(buffer.lo, buffer.alt, from, to, altIsRaw);
  const { rawHi, rawLo, normHi, normLo } = hashes;
  sections.push({ hi, lo, tokens, features, sketch, rawHi, rawLo, normHi, normLo, startLine, endLine });
}

/** A SimHash of tokens [from, to) of `buffer` with their clone hashes (cloneHashes.ts). */
function withCloneHashes(fp: SimHashFingerprint, from: number, to: number, altIsRaw: boolean): ItemFingerprint {
  hashStreams(buffer.lo, buffer.alt, from, to, altIsRaw);
  const { hi, lo, tokens, features, sketch } = fp;
  const { rawHi, rawLo, normHi, normLo } = hashes;
  return { hi, lo, tokens, features, sketch, rawHi, rawLo, normHi, normLo };
}

// ------------------------------------------------------------------------------ containers

/** Tokenises a container's parts, each in its language, into `buffer` (offsets in the whole text). */
function tokenizeParts(text: string, c: ContainerText, options: FingerprintOptions): void {
  buffer.reset();
  for (const p of c.parts) {
    const from = buffer.length;
    tokenizeInto(text.slice(p.startOffset, p.endOffset), p.lang, options, false);
    if (p.startOffset > 0) for (let i = from; i < buffer.length; i++) buffer.start[i] += p.startOffset;
  }
}

/** Offsets where the lines of a text start. */
function lineStarts(text: string): Int32Array {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  const starts = new Int32Array(n);
  let l = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[l++] = i + 1;
  return starts;
}

/** The 1-based line of an offset, by lineStarts. */
function lineOf(starts: Int32Array, offset: number): number {
  let a = 0;
  let b = starts.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (starts[m] <= offset) a = m + 1;
    else b = m;
  }
  return a;
}

/**
 * fingerprintText for a container: every part's tokens (code in the part's language, prose as
 * prose) make the file's fingerprint; the sections are each part (a cell, a block: from its first
 * to its last token's line) and the code or prose sections inside it. A notebook's section lines
 * are cell lines (cellLines.ts).
 */
function fingerprintContainer(c: ContainerText, options: FingerprintOptions): DocumentFingerprint {
  const minTokens = Math.max(1, options.minTokens ?? DEFAULT_MIN_TOKENS);
  const kept = applyContainerIgnoreMarkers(c);
  if (kept === null) return { kind: 'code', file: null, sections: [] };
  const text = options.fold ? options.fold(kept) : kept;
  tokenizeParts(text, c, options);
  if (buffer.length < minTokens) return { kind: 'code', file: null, sections: [] };
  sectionRanges.length = 0;
  if (options.sections !== false) containerRanges(text, c);
  return fingerprintTokens('code', options, minTokens);
}

/**
 * The sections of a container into sectionRanges: each part (from its first to its last token's
 * line) and the code or prose sections inside it (but one covering the whole part); a notebook's
 * section lines are cell lines (cellLines.ts).
 */
function containerRanges(text: string, c: ContainerText): void {
  const starts = lineStarts(text);
  for (const p of c.parts) {
    if (c.notebook && (p.cell === undefined || p.cell > MAX_CELL)) continue;
    const shift = p.startLine - 1;
    // Lines of the text → the lines sections carry (a notebook's: cell lines).
    const at = (line: number): number => (c.notebook ? cellLine(p.cell!, line - shift) : line);
    const from = buffer.lowerBound(p.startOffset);
    const to = buffer.lowerBound(p.endOffset);
    if (to === from) continue;
    const first = lineOf(starts, buffer.start[from]);
    const last = lineOf(starts, buffer.start[to - 1]);
    if (at(first) < 0 || at(last) < 0) continue;
    sectionRanges.push(from, to, at(first), at(last));
    const part = text.slice(p.startOffset, p.endOffset);
    for (const r of p.lang.kind === 'code' ? codeSections(part) : proseSections(part)) {
      const startLine = r.startLine + shift;
      const endLine = r.endLine + shift;
      if ((startLine <= first && endLine >= last) || at(startLine) < 0 || at(endLine) < 0) continue;
      sectionRanges.push(buffer.lowerBound(r.startOffset + p.startOffset), buffer.lowerBound(r.endOffset + p.startOffset), at(startLine), at(endLine));
    }
  }
}

/** Language ids of a kernel, by comment syntax (shared constants), then quote rule + 2 × regex rule. */
const kernelLanguages = new WeakMap<CodeKernel, Map<LanguageInfo['comments'], number[]>>();

/** A kernel's id for a language's comment syntax, quote and regex rules (defined on first use), or −1 when it cannot take it. */
export function kernelLanguage(kernel: CodeKernel, lang: LanguageInfo): number {
  let byComments = kernelLanguages.get(kernel);
  if (!byComments) kernelLanguages.set(kernel, (byComments = new Map()));
  let ids = byComments.get(lang.comments);
  if (!ids) byComments.set(lang.comments, (ids = [-2, -2, -2, -2]));
  const q = (lang.singleQuoteStrings ? 1 : 0) | (lang.regexLiterals ? 2 : 0);
  if (ids[q] === -2) {
    const { line, block, lineStart = [], lineBlock = [] } = lang.comments;
    ids[q] = kernel.defineLanguage(
      line,
      block.map((b) => b[0]),
      block.map((b) => b[1]),
      lang.singleQuoteStrings,
      lineStart,
      lineBlock.map((b) => b[0]),
      lineBlock.map((b) => b[1]),
      lang.regexLiterals,
    );
  }
  return ids[q];
}

/** Scratch of fingerprintWithKernel: the kernel's fingerprints (grown on demand). */
let kernelOut = new Uint32Array(8192);

/** The fewest tokens a text (and a section) is fingerprinted from: options.minTokens, at least 1. */
export function minTokensOf(options: Pick<FingerprintOptions, 'minTokens'>): number {
  return Math.max(1, options.minTokens ?? DEFAULT_MIN_TOKENS);
}

/** fingerprintText's code path through a kernel: the same tokens, sections and fingerprints. */
function fingerprintWithKernel(kernel: CodeKernel, langId: number, text: string, options: FingerprintOptions, minTokens: number): DocumentFingerprint {
  const total = kernel.tokenize(text, langId, options.normalizeIdentifiers === true, options.kernelTokenized !== undefined);
  return kernelTokenizedDocument(kernel, total, options, minTokens);
}

/**
 * fingerprintWithKernel once the kernel has tokenised the text (`total` tokens, with `region` when
 * options.kernelTokenized is set): the hook called, then the document. Also the Node workers' fast
 * path, whose kernel reads and tokenises a file itself (src/node/workers/fingerprintFile.ts fastCode).
 */
export function kernelTokenizedDocument(kernel: CodeKernel, total: number, options: FingerprintOptions, minTokens: number): DocumentFingerprint {
  options.kernelTokenized?.(kernel);
  if (total < minTokens) return { kind: 'code', file: null, sections: [] };
  const k = effectiveShingleSize(options.shingleSize, total);
  const tf = options.weighting === 'tf';
  const withSections = options.sections !== false;
  return kernelDocument('code', (out) => kernel.fingerprint(k, tf, FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE, minTokens, withSections, out));
}

/**
 * The document a kernel's fingerprint words give (CodeKernel.fingerprint's layout): `call` writes
 * them into the buffer it is given and returns their count, or minus the words it needs.
 */
function kernelDocument(kind: DocumentFingerprint['kind'], call: (out: Uint32Array) => number): DocumentFingerprint {
  let words = call(kernelOut);
  if (words < 0) {
    kernelOut = new Uint32Array(-words);
    words = call(kernelOut);
  }
  // One copy of what the kernel wrote; the sketches are views into it (one allocation per text,
  // not one per section, as the unpacked fingerprints of packing.ts are).
  const out = kernelOut.slice(0, words);
  // hi lo tokens features rawHi rawLo normHi normLo n sketch[n]
  const n = out[8];
  const file: ItemFingerprint = {
    hi: out[0],
    lo: out[1],
    tokens: out[2],
    features: out[3],
    sketch: out.subarray(9, 9 + n),
    rawHi: out[4],
    rawLo: out[5],
    normHi: out[6],
    normLo: out[7],
  };
  const sections: SectionFingerprint[] = [];
  for (let w = 9 + n; w < words; ) {
    // startLine endLine hi lo tokens features rawHi rawLo normHi normLo n sketch[n]
    const m = out[w + 10];
    sections.push({
      hi: out[w + 2],
      lo: out[w + 3],
      tokens: out[w + 4],
      features: out[w + 5],
      sketch: out.subarray(w + 11, w + 11 + m),
      rawHi: out[w + 6],
      rawLo: out[w + 7],
      normHi: out[w + 8],
      normLo: out[w + 9],
      startLine: out[w],
      endLine: out[w + 1],
    });
    w += 11 + m;
  }
  return { kind, file, sections };
}

/**
 * Adds a text's distinct shingles (of the whole file) to a document-frequency table: the first
 * pass of TF-IDF weighting. Returns whether the text was counted (enough tokens).
 */
export function countDocumentShingles(
  text: string,
  path: string,
  options: FingerprintOptions,
  table: DocumentFrequencyTable,
): boolean {
  const container = options.container ?? containerText(path, text);
  if (container) {
    const kept = 'reason' in container ? null : applyContainerIgnoreMarkers(container);
    if (kept === null) return false;
    tokenizeParts(options.fold ? options.fold(kept) : kept, container as ContainerText, options);
  } else {
    const lang = languageOf(path);
    const kept = applyIgnoreMarkers(text, lang);
    if (kept === null) return false;
    tokenizeInto(options.fold ? options.fold(kept) : kept, lang, options);
  }
  const total = buffer.length;
  if (total < Math.max(1, options.minTokens ?? DEFAULT_MIN_TOKENS)) return false;
  fileShingles.build(buffer, 0, total, effectiveShingleSize(options.shingleSize, total));
  forEachDistinct(fileShingles, (_hi, lo) => table.add(lo));
  table.documents++;
  return true;
}
