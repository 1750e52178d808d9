/**
 * A document as the region finder sees it: the token hashes of the text (as read), for code a
 * second stream with identifiers replaced by one placeholder (literals and keywords kept), the
 * token start offsets and the text's line starts (to turn token ranges into 1-based line ranges).
 */
import { fnv1a64, out } from '../text/hash';
import { languageOf, type LanguageInfo } from '../text/languages';
import { TokenBuffer, tokenizeCode, tokenizeProse } from '../text/tokenize';
import { kernelLanguage } from '../fingerprint/fingerprint';
import type { CjkSegmenter, CodeKernel, ContentKind } from '../types';

/** One stream of 64-bit token hashes (two halves), aligned with the document's tokens. */
export interface TokenStream {
  hi: Uint32Array;
  lo: Uint32Array;
}

export interface RegionDocument {
  kind: ContentKind;
  /** Number of tokens. */
  length: number;
  /** The tokens as read. */
  raw: TokenStream;
  /**
   * Code only: the same tokens with every identifier (not keyword) replaced by one placeholder;
   * numbers and strings stay as read. Null for prose.
   */
  ids: TokenStream | null;
  /** Code only: 1 where the token is an identifier (the positions `ids` replaced). */
  isIdent: Uint8Array | null;
  /** Start offset (UTF-16) of each token. */
  start: Int32Array;
  /** Offset of the first character of each line (line i + 1 starts at lineStarts[i]). */
  lineStarts: Int32Array;
  /**
   * The line a report gives for each line of the text (a notebook's text: its cell lines, see
   * core/containers/cellLines.ts; 0 outside every cell). Absent: the text's own lines.
   */
  reportLines?: Int32Array;
  /**
   * A code document with prose parts (a notebook's Markdown cells): 1 at their tokens, which are
   * anchored as prose is, so that they match prose documents. Absent otherwise.
   */
  proseTokens?: Uint8Array;
  /** Its anchors under findRegions' default options (regions.ts defaultAnchors), when made with it. */
  anchors?: { hash: Uint32Array; pos: Int32Array };
}

export interface RegionDocumentOptions {
  /** Segments CJK runs into words (jieba, injected); used only with cjkWords. */
  segmenter?: CjkSegmenter;
  /**
   * CJK runs as the segmenter's words instead of character bigrams. Default false: an edit inside
   * a Chinese sentence makes jieba re-cut the words around it, so few word k-grams survive a 20 %
   * edit, while a changed character breaks only the bigrams that hold it (docs/localisation.md).
   */
  cjkWords?: boolean;
  /** A native kernel: code is tokenised by it, prose's words found by it (the same tokens as tokenizeCode and tokenizeProse, faster). */
  kernel?: CodeKernel;
}

/**
 * The placeholder hash of tokenize.ts for a normalised identifier: FNV-1a 64 of '\u0001id' (no
 * finaliser). A unit test checks that tokenizeCode with normalizeIdentifiers gives this hash.
 */
fnv1a64('\u0001id');
export const IDENT_HI = out.hi;
export const IDENT_LO = out.lo;

/** Offsets of the line starts of a text (\n ends a line; \r\n too, as its \n). */
export function lineStartsOf(text: string): Int32Array {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  const starts = new Int32Array(n);
  let k = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
  return starts;
}

/** The 1-based line of an offset (binary search in the line starts). */
export function lineOfOffset(lineStarts: Int32Array, offset: number): number {
  let a = 0;
  let b = lineStarts.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (lineStarts[m] <= offset) a = m + 1;
    else b = m;
  }
  return Math.max(1, a);
}

const copy = (buf: TokenBuffer): TokenStream => ({ hi: buf.hi.slice(0, buf.length), lo: buf.lo.slice(0, buf.length) });

/**
 * A RegionDocument from token buffers already made (e.g. by a native kernel later): `raw` as read,
 * `normalized` the same text tokenised with normalizeIdentifiers (code; null for prose). Both
 * must hold the same tokens at the same offsets. Only identifiers are taken from `normalized`.
 */
export function documentFromTokens(kind: ContentKind, raw: TokenBuffer, normalized: TokenBuffer | null, lineStarts: Int32Array): RegionDocument {
  const n = raw.length;
  const doc: RegionDocument = { kind, length: n, raw: copy(raw), ids: null, isIdent: null, start: raw.start.slice(0, n), lineStarts };
  if (kind === 'code' && normalized) {
    if (normalized.length !== n) throw new Error(`regions: the normalised stream has ${normalized.length} tokens, the raw one ${n}`);
    const hi = doc.raw.hi.slice();
    const lo = doc.raw.lo.slice();
    const isIdent = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (normalized.hi[i] === IDENT_HI && normalized.lo[i] === IDENT_LO) {
        hi[i] = IDENT_HI;
        lo[i] = IDENT_LO;
        isIdent[i] = 1;
      }
    }
    doc.ids = { hi, lo };
    doc.isIdent = isIdent;
  }
  return doc;
}

/** Appends the tokens of text[from, to) in language `lang` to `raw` (and `norm`: identifiers normalised; prose as raw), offsets in `text`. */
function tokenizePart(text: string, from: number, to: number, lang: LanguageInfo, raw: TokenBuffer, norm: TokenBuffer, options: RegionDocumentOptions): void {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  const r0 = raw.length;
  const n0 = norm.length;
  const shift = (buf: TokenBuffer, at: number) => {
    if (from !== 0) for (let i = at; i < buf.length; i++) buf.start[i] += from;
  };
  if (lang.kind !== 'code') {
    // (the words found by the kernel when there is one: the same tokens, ~9x as fast)
    tokenizeProse(part, { stopWords: false, segmenter: options.cjkWords ? options.segmenter : undefined, kernel: options.kernel }, raw);
    shift(raw, r0);
    for (let i = r0; i < raw.length; i++) norm.push(raw.hi[i], raw.lo[i], raw.start[i]);
    return;
  }
  const id = options.kernel ? kernelLanguage(options.kernel, lang) : -1;
  if (id >= 0) {
    const kernel = options.kernel!;
    for (const [buf, normalize] of [[raw, false], [norm, true]] as const) {
      const n = kernel.tokenize(part, id, normalize);
      while (buf.hi.length < buf.length + n) buf.grow();
      kernel.tokens(buf.hi.subarray(buf.length), buf.lo.subarray(buf.length), buf.start.subarray(buf.length));
      buf.length += n;
    }
  } else {
    tokenizeCode(part, lang, {}, raw);
    tokenizeCode(part, lang, { normalizeIdentifiers: true }, norm);
  }
  shift(raw, r0);
  shift(norm, n0);
}

/** How documentFromKernel anchors: k-grams of k tokens of the normalised stream, salted with `salt`, winnowed by w (anchors.ts). */
export interface KernelAnchoring {
  k: number;
  w: number;
  salt: number;
}

/**
 * A code document as the kernel's `region` gives it (CodeKernel.region): one ArrayBuffer holding
 * nothing else, rawHi rawLo start (`length` words each), lineStarts (`lines`), anchorHash anchorPos
 * (`anchors` each), then isIdent (`length` bytes). A worker sends it as it is, without making the
 * document's views (regionBufferDocument makes them where it is read).
 */
export interface RegionBuffer {
  buffer: ArrayBuffer;
  length: number;
  lines: number;
  anchors: number;
  /** A prose file's (its tokens its words, none an identifier; its anchors of them): documentFromTokens('prose', …)'s document. */
  prose?: true;
}

/** The byte offsets in a {@link RegionBuffer} of rawHi rawLo start lineStarts anchorHash anchorPos isIdent. */
export function regionBufferOffsets(b: Omit<RegionBuffer, 'buffer'>): [number, number, number, number, number, number, number] {
  const n = b.length * 4;
  const ahash = 3 * n + b.lines * 4;
  return [0, n, 2 * n, 3 * n, ahash, ahash + b.anchors * 4, ahash + b.anchors * 8];
}

/** CodeKernel.region's counts (one thread's). */
const regionCounts = new Int32Array(3);

/**
 * The {@link RegionBuffer} of a kernel's last tokenize (made with `region`); with `anchoring`, its
 * anchors (anchorsOf(doc.ids, length, k, w, salt)), made by the kernel.
 */
export function regionBufferOf(kernel: CodeKernel, anchoring?: KernelAnchoring): RegionBuffer {
  const buffer = kernel.region(anchoring?.k ?? 0, anchoring?.w ?? 0, anchoring?.salt ?? 0, regionCounts);
  return { buffer, length: regionCounts[0], lines: regionCounts[1], anchors: regionCounts[2] };
}

/**
 * The lean code document ({@link leanDocument}) of a {@link RegionBuffer}: views of its buffer;
 * with its anchors unless `anchored` is false. A prose one's: its words, no identifier stream
 * (documentFromTokens('prose', …)'s document).
 */
export function regionBufferDocument(b: RegionBuffer, anchored = true): RegionDocument {
  const { buffer, length: n, lines, anchors: m } = b;
  const at = regionBufferOffsets(b);
  if (b.prose) {
    const prose: RegionDocument = {
      kind: 'prose',
      length: n,
      raw: { hi: new Uint32Array(buffer, at[0], n), lo: new Uint32Array(buffer, at[1], n) },
      ids: null,
      isIdent: null,
      start: new Int32Array(buffer, at[2], n),
      lineStarts: new Int32Array(buffer, at[3], lines),
    };
    if (anchored) prose.anchors = { hash: new Uint32Array(buffer, at[4], m), pos: new Int32Array(buffer, at[5], m) };
    return prose;
  }
  const doc = leanDocument({
    length: n,
    raw: { hi: new Uint32Array(buffer, at[0], n), lo: new Uint32Array(buffer, at[1], n) },
    isIdent: new Uint8Array(buffer, at[6], n),
    start: new Int32Array(buffer, at[2], n),
    lineStarts: new Int32Array(buffer, at[3], lines),
  });
  if (anchored) doc.anchors = { hash: new Uint32Array(buffer, at[4], m), pos: new Int32Array(buffer, at[5], m) };
  return doc;
}

/**
 * The code RegionDocument of a kernel's last tokenize, made with `region` (CodeKernel.region):
 * regionDocument's for the same text, in one pass of the kernel; with `anchoring`, its anchors
 * too (anchorsOf(doc.ids, length, k, w, salt)), made by the kernel. Lean ({@link leanDocument}):
 * its `ids` are made when first read.
 */
export function documentFromKernel(kernel: CodeKernel, anchoring?: KernelAnchoring): RegionDocument {
  return regionBufferDocument(regionBufferOf(kernel, anchoring), anchoring !== undefined);
}

/** The identifier-normalised stream of code tokens as read: every identifier (isIdent) the placeholder. */
export function normalizedStream(raw: TokenStream, isIdent: Uint8Array, length: number): TokenStream {
  const hi = raw.hi.slice(0, length);
  const lo = raw.lo.slice(0, length);
  for (let i = 0; i < length; i++) {
    if (isIdent[i]) {
      hi[i] = IDENT_HI;
      lo[i] = IDENT_LO;
    }
  }
  return { hi, lo };
}

/**
 * A lean code document: its identifier-normalised stream (`ids`, 8 bytes a token) is not stored
 * but made from `raw` and `isIdent` when first read, then kept. The kernels' bucket search
 * (kernelBuckets.ts) reads the document without making it ({@link idsDerived}); so a scan's
 * region documents cross from the workers and stay on the main thread without that stream.
 */
export function leanDocument(parts: Pick<RegionDocument, 'length' | 'raw' | 'start' | 'lineStarts'> & { isIdent: Uint8Array }): RegionDocument {
  const doc = { kind: 'code', length: parts.length, raw: parts.raw, isIdent: parts.isIdent, start: parts.start, lineStarts: parts.lineStarts } as Omit<RegionDocument, 'ids'>;
  Object.defineProperty(doc, 'ids', LEAN_IDS);
  return doc as RegionDocument;
}

/** The `ids` of a lean document: one getter and setter for all (so that lean documents share their shape). */
const LEAN_IDS: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: RegionDocument): TokenStream {
    const ids = normalizedStream(this.raw, this.isIdent!, this.length);
    Object.defineProperty(this, 'ids', { value: ids, writable: true, enumerable: true, configurable: true });
    return ids;
  },
  set(this: RegionDocument, ids: TokenStream | null) {
    Object.defineProperty(this, 'ids', { value: ids, writable: true, enumerable: true, configurable: true });
  },
};

/** Whether a document's `ids` are still to be made from `raw` and `isIdent` (a {@link leanDocument} whose `ids` were not read). */
export function idsDerived(doc: RegionDocument): boolean {
  return Object.getOwnPropertyDescriptor(doc, 'ids')?.get !== undefined;
}

/** A copy of a document with other anchors, as lean as it is (a spread would make a lean document's `ids`). */
export function withAnchors(doc: RegionDocument, anchors: { hash: Uint32Array; pos: Int32Array }): RegionDocument {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(doc)) as RegionDocument;
  copy.anchors = anchors;
  return copy;
}

/**
 * Tokenises a text with the product's tokenisers (code or prose by the path) into a RegionDocument;
 * code the kernel takes in one pass of it (documentFromKernel), with `anchoring` its anchors too.
 */
export function regionDocument(text: string, path: string, options: RegionDocumentOptions = {}, anchoring?: KernelAnchoring): RegionDocument {
  const lang = languageOf(path);
  const id = options.kernel && lang.kind === 'code' ? kernelLanguage(options.kernel, lang) : -1;
  if (id >= 0) {
    options.kernel!.tokenize(text, id, false, true);
    return documentFromKernel(options.kernel!, anchoring);
  }
  return regionDocumentOfParts(text, [{ startOffset: 0, endOffset: text.length, lang }], options);
}

/** Token buffers reused by regionDocumentOfParts (one thread's; dropped when one grows past 1M tokens). */
const scratch = { raw: new TokenBuffer(16384), norm: new TokenBuffer(16384) };
const SCRATCH_KEEP_TOKENS = 1 << 20;

/**
 * A RegionDocument of a text in parts, each in its own language (a notebook's cells, a
 * component's blocks; text outside every part is not read): code if any part is code, prose
 * parts then count as code without identifiers. Token offsets and lines are the text's.
 */
export function regionDocumentOfParts(text: string, parts: ReadonlyArray<{ startOffset: number; endOffset: number; lang: LanguageInfo }>, options: RegionDocumentOptions = {}): RegionDocument {
  const starts = lineStartsOf(text);
  // Scratch buffers kept between documents (documentFromTokens copies the tokens out): a scan's
  // worker makes thousands of documents, and buffers sized by each text were most of its garbage.
  const raw = scratch.raw;
  const norm = scratch.norm;
  raw.reset();
  norm.reset();
  let code = false;
  let prose = false;
  const proseRanges: number[] = [];
  for (const p of parts) {
    const from = raw.length;
    tokenizePart(text, p.startOffset, p.endOffset, p.lang, raw, norm, options);
    if (p.lang.kind === 'code') code = true;
    else {
      prose = true;
      proseRanges.push(from, raw.length);
    }
  }
  const doc = code ? documentFromTokens('code', raw, norm, starts) : documentFromTokens('prose', raw, null, starts);
  if (raw.hi.length > SCRATCH_KEEP_TOKENS) scratch.raw = new TokenBuffer(16384);
  if (norm.hi.length > SCRATCH_KEEP_TOKENS) scratch.norm = new TokenBuffer(16384);
  if (!code) return doc;
  if (prose) {
    doc.proseTokens = new Uint8Array(doc.length);
    for (let r = 0; r < proseRanges.length; r += 2) doc.proseTokens.fill(1, proseRanges[r], proseRanges[r + 1]);
  }
  return doc;
}
