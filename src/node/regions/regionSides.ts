/**
 * What the report says of each side of a located region pair, made where the pair is found (a
 * scan worker's region job, or the main thread): the side's token range without the closers of
 * the statement before it, its content key (the baseline key of a located side: SHA-256 of its
 * tokens as read, so line shifts keep it), and the pair's SimHash distance (of the two sides'
 * tokens as the region finder reads them: identifier-normalised code under normalizeIdentifiers,
 * shingles of 3, weighted as the scan; tfidf as tf).
 */
import { simhashTokens } from '../../core/fingerprint/simhash';
import { hammingDistance } from '../../core/index/hamming';
import { CELL_LINE_STRIDE } from '../../core/containers/cellLines';
import { lineOfOffset, type RegionDocument } from '../../core/regions/document';
import type { RegionPair } from '../../core/regions/regions';
import { languageOf } from '../../core/text/languages';
import type { CodeKernel, Weighting } from '../../core/types';
import type { SideRequest } from '../../core/regions/sideFacts';
import { TokenBuffer, tokenizeCode } from '../../core/text/tokenize';
import type { SideOptions } from '../workers/messages';

export type { SideOptions };

export interface PairSides {
  /** Side a's and b's first token once leading closers are dropped (the ends are the pair's). */
  aStart: number;
  bStart: number;
  aKey: string;
  bKey: string;
  /** Hamming distance of the two sides' SimHash (64 when one side has none). */
  distance: number;
}

/** Tokens that close the code before them: a copy does not begin with one (their hashes, hi and lo). */
const CLOSERS = (() => {
  const buf = new TokenBuffer(16);
  tokenizeCode('; } ) ] ,', languageOf('closers.ts'), {}, buf);
  return { hi: buf.hi.slice(0, buf.length), lo: buf.lo.slice(0, buf.length) };
})();

const isCloser = (hi: number, lo: number): boolean => {
  for (let i = 0; i < CLOSERS.hi.length; i++) if (CLOSERS.hi[i] === hi && CLOSERS.lo[i] === lo) return true;
  return false;
};

/** The closers as a kernel takes them (core/regions/sideFacts.ts SideRequest.closers): hi, lo of each. */
export function closerTokens(): Uint32Array {
  const out = new Uint32Array(2 * CLOSERS.hi.length);
  for (let i = 0; i < CLOSERS.hi.length; i++) {
    out[2 * i] = CLOSERS.hi[i];
    out[2 * i + 1] = CLOSERS.lo[i];
  }
  return out;
}

/** Each closer's low hash bits, OR'd: a token with a bit outside them is no closer (one test for most first tokens). */
const CLOSER_LO_BITS = CLOSERS.lo.reduce((bits, lo) => bits | lo, 0);

/**
 * The first token of [start, end) past its leading closers: a region found next to code of the
 * same shape often takes the `;` or `}` that ends the statement before the copy (their 3-gram
 * with the copy's first tokens matches), which would move its first line up to that statement.
 */
export function trimmedStart(d: RegionDocument, start: number, end: number): number {
  if (d.kind !== 'code') return start;
  const { hi, lo } = d.raw;
  while (start < end - 1 && (lo[start] & ~CLOSER_LO_BITS) === 0 && isCloser(hi[start], lo[start])) start++;
  return start;
}

/**
 * Lines of a token range [start, end) of a document, as a report gives them: a notebook's as cell
 * lines (core/containers/cellLines.ts), a range cut at the end of its first cell.
 */
export function linesOf(d: RegionDocument, start: number, end: number): { startLine: number; endLine: number } {
  const startLine = lineOfOffset(d.lineStarts, d.start[start]);
  const endLine = lineOfOffset(d.lineStarts, d.start[end - 1]);
  const cells = d.reportLines;
  if (!cells) return { startLine, endLine };
  const first = cells[startLine - 1];
  const cell = Math.floor(first / CELL_LINE_STRIDE);
  let last = startLine;
  while (last < endLine && Math.floor(cells[last] / CELL_LINE_STRIDE) === cell) last++;
  return { startLine: first, endLine: cells[last - 1] };
}

// node:crypto on first use: a run that makes no content key (no baseline) does not load it with
// the CLI's --locate code (issue 16).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createHash = (algorithm: string) => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);

/** The content key of tokens [start, end): `region:<tokens>:<24 hex digits of SHA-256>`. */
export function contentKey(d: RegionDocument, start: number, end: number): string {
  const { hi, lo } = d.raw;
  const h = createHash('sha256');
  h.update(Buffer.from(hi.buffer, hi.byteOffset + 4 * start, 4 * (end - start)));
  h.update(Buffer.from(lo.buffer, lo.byteOffset + 4 * start, 4 * (end - start)));
  return `region:${end - start}:${h.digest('hex').slice(0, 24)}`;
}

/** The options of a located side's SimHash, from a scan's settings (tf-idf as tf). */
export const sideOptionsOf = (settings: { normalizeIdentifiers: boolean; weighting: Weighting }): SideOptions => ({
  normalizeIdentifiers: settings.normalizeIdentifiers,
  weighting: settings.weighting === 'tfidf' ? 'tf' : settings.weighting,
});

/** What a kernel's plan job makes the regions' sides with (sideOptionsOf's SimHash, the closers). */
export const sideRequestOf = (settings: { normalizeIdentifiers: boolean; weighting: Weighting }): SideRequest => {
  const o = sideOptionsOf(settings);
  return { normalizeIdentifiers: o.normalizeIdentifiers, tf: o.weighting === 'tf', closers: closerTokens() };
};

/** A side's SimHash from a kernel (CodeKernel.simhashTokens). */
const kernelOut = new Uint32Array(2);

/**
 * The SimHash of tokens [start, end) of a document (null when too short for one); with a kernel
 * that has simhashTokens, made by it (the same bits).
 */
export function sideSimhash(d: RegionDocument, start: number, end: number, o: SideOptions, kernel?: Pick<CodeKernel, 'simhashTokens'> | null): { hi: number; lo: number } | null {
  const s = o.normalizeIdentifiers && d.ids ? d.ids : d.raw;
  if (kernel?.simhashTokens) {
    if (kernel.simhashTokens(s.hi, s.lo, start, end, SIDE_SHINGLE, o.weighting === 'tf', kernelOut) === 0) return null;
    return { hi: kernelOut[0], lo: kernelOut[1] };
  }
  const buf = sideBuffer;
  buf.hi = s.hi;
  buf.lo = s.lo;
  buf.start = d.start;
  buf.length = d.length;
  try {
    return simhashTokens(buf, start, end, { shingleSize: SIDE_SHINGLE, weighting: o.weighting, sketchSize: 1 });
  } finally {
    buf.length = 0; // let go of the document's arrays
    buf.hi = buf.lo = EMPTY_U32;
    buf.start = EMPTY_I32;
  }
}

/** A side's shingles: 3 tokens (simhashTokens' default). */
const SIDE_SHINGLE = 3;

/** The one buffer sideSimhash points at a document's streams (one a call, none held between calls). */
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_I32 = new Int32Array(0);
const sideBuffer = new TokenBuffer(0);

/** The sides of a region pair of documents A and B (SimHashes by the kernel when given one). */
export function pairSides(A: RegionDocument, B: RegionDocument, p: RegionPair, o: SideOptions, kernel?: Pick<CodeKernel, 'simhashTokens'> | null): PairSides {
  const aStart = trimmedStart(A, p.a.start, p.a.end);
  const bStart = trimmedStart(B, p.b.start, p.b.end);
  const fa = sideSimhash(A, aStart, p.a.end, o, kernel);
  const fb = sideSimhash(B, bStart, p.b.end, o, kernel);
  return {
    aStart,
    bStart,
    aKey: contentKey(A, aStart, p.a.end),
    bKey: contentKey(B, bStart, p.b.end),
    distance: fa && fb ? hammingDistance(fa.hi, fa.lo, fb.hi, fb.lo) : 64,
  };
}
