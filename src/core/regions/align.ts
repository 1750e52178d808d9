/**
 * From a chain of seeds to a matched region of two documents: the chain's span widened by a
 * margin, every shared k-gram (all of them, not only anchors; size coverK) near the chain's
 * diagonal marks its tokens as matched on both sides, the region is trimmed to the first and last
 * matched token of each side, and scored: the fraction of each side's tokens matched on the
 * tokens as read (raw) and on the identifier-normalised stream (code), and the consistency of the
 * identifier renames the normalised matches imply (a bijection: one name ↔ one name).
 */
import { kgramHashes } from './anchors';
import type { CodeKernel } from '../types';
import type { RegionDocument, TokenStream } from './document';

export interface AlignOptions {
  /** Anchor k-gram size: the chain's seeds cover [a, a + k). */
  k: number;
  /** Size of the k-grams that mark matched tokens inside a region (smaller finds more of an edited copy). */
  coverK: number;
  /** Tokens around the chain searched for matches (the seeds are winnowed: the first and last matches may lie outside them). */
  margin: number;
  /** Largest distance from the chain's nearest seed diagonal of a k-gram match. */
  band: number;
  /** Unmatched tokens a region's ends may bridge beyond its seeds. */
  fringeGap: number;
  /** Renames at least this consistent make an unbroken normalised run a renamed copy. */
  minConsistency: number;
}

export interface Alignment {
  /** Token ranges, end exclusive. */
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
  /** Shares of each side's coverK-grams matched on the tokens as read. */
  rawA: number;
  rawB: number;
  /** The same on the identifier-normalised stream, unsupported renames excluded (code; equal to raw for prose). */
  idsA: number;
  idsB: number;
  /** Identifier pairs aligned by normalised matches, and how consistent their mapping is (0…1; 1 when none). */
  identPairs: number;
  consistency: number;
  /** Distinct identifiers of side a mapped to another name. */
  renames: number;
  /** Same tokens, one for one. */
  exact: boolean;
  /** Same tokens once identifiers are normalised, one for one. */
  sameShape: boolean;
}

/** The side-b position of each side-a token a match aligned, per window (−1 when none). */
interface Marks {
  covA: Uint8Array;
  covB: Uint8Array;
  /** 1 where a matched k-gram starts. */
  startA: Uint8Array;
  startB: Uint8Array;
  alignedB: Int32Array;
}

/**
 * Marks the tokens of windows [a0, a1) × [b0, b1) matched by equal coverK-grams of stream sa / sb
 * within `band` of the diagonal the nearest seed gives.
 */
function mark(sa: TokenStream, sb: TokenStream, a0: number, a1: number, b0: number, b1: number, seedA: number[], diag: number[], o: AlignOptions, self: boolean): Marks {
  const kc = o.coverK;
  const covA = new Uint8Array(Math.max(0, a1 - a0));
  const covB = new Uint8Array(Math.max(0, b1 - b0));
  const startA = new Uint8Array(Math.max(0, a1 - a0));
  const startB = new Uint8Array(Math.max(0, b1 - b0));
  const alignedB = new Int32Array(Math.max(0, a1 - a0)).fill(-1);
  const hb = kgramHashes(sb, b0, b1, kc);
  const ha = kgramHashes(sa, a0, a1, kc);
  let s = 0; // nearest seed index, advanced with i
  let lastDiag = NaN;
  for (let i = 0; i < ha.length; i++) {
    const pa = a0 + i;
    while (s + 1 < seedA.length && Math.abs(seedA[s + 1] - pa) <= Math.abs(seedA[s] - pa)) s++;
    // Within the band of the nearest seed's diagonal (scanned in place: the k-grams of side b
    // there, lowest position first); the diagonal of the previous match first (a run continues),
    // else the nearest to the seed's.
    const h = ha[i];
    const centre = pa + diag[s] - b0;
    let lo = Math.max(0, centre - o.band);
    const hi = Math.min(hb.length - 1, centre + o.band);
    if (self) lo = Math.max(lo, pa + kc - b0);
    let best = -1;
    let bestOff = o.band + 1;
    for (let j = lo; j <= hi; j++) {
      if (hb[j] !== h) continue;
      const pb = b0 + j;
      const cost = pb - pa === lastDiag ? -1 : Math.abs(j - centre);
      if (cost < bestOff) {
        bestOff = cost;
        best = j;
      }
    }
    if (best < 0) continue;
    lastDiag = b0 + best - pa;
    startA[i] = 1;
    startB[best] = 1;
    for (let t = 0; t < kc; t++) {
      covA[i + t] = 1;
      covB[best + t] = 1;
      if (alignedB[i + t] < 0) alignedB[i + t] = b0 + best + t;
    }
  }
  return { covA, covB, startA, startB, alignedB };
}

/**
 * The matched extent of one side (window-relative, [start, end)): the seeds' span [from, to)
 * shrunk to its first and last matched token, then grown outwards over matched tokens separated
 * by at most `gap` unmatched ones. Matches in the margin that do not touch the copy (a common
 * statement a few tokens before it on both sides) stay out. Null when nothing is matched.
 */
function extent(cov: Uint8Array, from: number, to: number, gap: number): [number, number] | null {
  let s = Math.max(0, from);
  let e = Math.min(cov.length, to);
  while (s < e && !cov[s]) s++;
  while (e > s && !cov[e - 1]) e--;
  if (s >= e) return null;
  for (let grown = true; grown; ) {
    grown = false;
    for (let j = s - 1; j >= Math.max(0, s - 1 - gap); j--) {
      if (cov[j]) {
        s = j;
        grown = true;
        break;
      }
    }
  }
  for (let grown = true; grown; ) {
    grown = false;
    for (let j = e; j < Math.min(cov.length, e + 1 + gap); j++) {
      if (cov[j]) {
        e = j + 1;
        grown = true;
        break;
      }
    }
  }
  return shave(cov, s, e);
}

/** Uncovered tokens that separate an end island, and the matched tokens an island needs to stay. */
const ISLAND_GAP = 4;
const ISLAND_MIN = 12;

/**
 * Drops islands at the ends of [s, e): runs of matched tokens with fewer than ISLAND_MIN matched
 * tokens, cut from the rest by ISLAND_GAP or more unmatched tokens — a common statement that
 * happens to sit next to the copy on both sides (`for (let i = 0; i <`), not part of it.
 */
function shave(cov: Uint8Array, s: number, e: number): [number, number] {
  for (;;) {
    let covered = 0;
    let gap = 0;
    let next = -1;
    for (let i = s; i < e; i++) {
      if (cov[i]) {
        if (gap >= ISLAND_GAP) {
          next = i;
          break;
        }
        covered++;
        gap = 0;
      } else gap++;
    }
    if (next < 0 || covered >= ISLAND_MIN) break;
    s = next;
  }
  for (;;) {
    let covered = 0;
    let gap = 0;
    let prev = -1;
    for (let i = e - 1; i >= s; i--) {
      if (cov[i]) {
        if (gap >= ISLAND_GAP) {
          prev = i + 1;
          break;
        }
        covered++;
        gap = 0;
      } else gap++;
    }
    if (prev < 0 || covered >= ISLAND_MIN) break;
    e = prev;
  }
  return [s, e];
}

/** A number that identifies a 64-bit token hash (53 of its bits). */
const key = (s: TokenStream, i: number): number => (s.hi[i] & 0x1fffff) * 4294967296 + s.lo[i];

interface Renames {
  pairs: number;
  consistency: number;
  renames: number;
  /** 1 at the identifiers (side a, side b; window-relative) whose pairing no other occurrence supports. */
  unsupportedA: Uint8Array;
  unsupportedB: Uint8Array;
}

/**
 * How consistently aligned identifiers map (side a → side b and back): of all aligned identifier
 * pairs, the share that agree with their name's most frequent partner, the worse direction. A
 * pairing of two different names is supported when both names' most frequent partners are each
 * other and it occurs at least twice: one name once against another once is an edit, not a rename.
 */
function renameConsistency(A: RegionDocument, B: RegionDocument, alignedB: Int32Array, a0: number, b0: number, nB: number, from: number, to: number): Renames {
  const fwd = new Map<number, Map<number, number>>();
  const bwd = new Map<number, Map<number, number>>();
  const unsupportedA = new Uint8Array(alignedB.length);
  const unsupportedB = new Uint8Array(nB);
  let pairs = 0;
  const bump = (m: Map<number, Map<number, number>>, x: number, y: number): void => {
    let inner = m.get(x);
    if (!inner) m.set(x, (inner = new Map()));
    inner.set(y, (inner.get(y) ?? 0) + 1);
  };
  for (let i = from; i < to; i++) {
    const j = alignedB[i - a0];
    if (j < 0 || !A.isIdent![i] || !B.isIdent![j]) continue;
    const x = key(A.raw, i);
    const y = key(B.raw, j);
    bump(fwd, x, y);
    bump(bwd, y, x);
    pairs++;
  }
  if (pairs === 0) return { pairs, consistency: 1, renames: 0, unsupportedA, unsupportedB };
  const top = (inner: Map<number, number>): [number, number] => {
    let t = -1;
    let n = 0;
    for (const [y, c] of inner) if (c > n || (c === n && y < t)) [t, n] = [y, c];
    return [t, n];
  };
  let agreeF = 0;
  let agreeB = 0;
  let renames = 0;
  const topF = new Map<number, [number, number]>();
  const topB = new Map<number, [number, number]>();
  for (const [x, inner] of fwd) {
    const t = top(inner);
    topF.set(x, t);
    agreeF += t[1];
    if (t[0] !== x) renames++;
  }
  for (const [y, inner] of bwd) {
    const t = top(inner);
    topB.set(y, t);
    agreeB += t[1];
  }
  for (let i = from; i < to; i++) {
    const j = alignedB[i - a0];
    if (j < 0 || !A.isIdent![i] || !B.isIdent![j]) continue;
    const x = key(A.raw, i);
    const y = key(B.raw, j);
    if (x === y) continue;
    const f = topF.get(x)!;
    const b = topB.get(y)!;
    if (f[0] !== y || b[0] !== x || f[1] < 2) {
      unsupportedA[i - a0] = 1;
      unsupportedB[j - b0] = 1;
    }
  }
  return { pairs, consistency: Math.min(agreeF, agreeB) / pairs, renames, unsupportedA, unsupportedB };
}

/** Tokens covered by a raw match or by a normalised match without an unsupported rename. */
function goodCover(rawCov: Uint8Array, idsStart: Uint8Array, unsupported: Uint8Array, k: number): Uint8Array {
  const good = rawCov.slice();
  for (let i = 0; i < idsStart.length; i++) {
    if (!idsStart[i]) continue;
    let ok = true;
    for (let t = i; t < i + k && t < good.length; t++) if (unsupported[t]) ok = false;
    if (ok) for (let t = i; t < i + k && t < good.length; t++) good[t] = 1;
  }
  return good;
}

/**
 * The share of the k-grams of [from, to) (window-relative) where a match starts, skipping those
 * that hold an unsupported rename. A range shorter than k counts its one short k-gram.
 */
function shingleShare(start: Uint8Array, unsupported: Uint8Array | null, from: number, to: number, k: number): number {
  const last = Math.max(from, to - k);
  let n = 0;
  for (let i = from; i <= last; i++) {
    if (!start[i]) continue;
    let ok = true;
    if (unsupported) for (let t = i; t < i + k && t < to; t++) if (unsupported[t]) ok = false;
    if (ok) n++;
  }
  return n / (last - from + 1);
}

/**
 * The region a chain (flat seeds a0, b0, a1, b1, …) marks between documents A and B, or null when
 * nothing is left (a chain of one document that overlaps itself).
 */
export function alignChain(A: RegionDocument, B: RegionDocument, seeds: ArrayLike<number>, o: AlignOptions, self: boolean): Alignment | null {
  const m = seeds.length >> 1;
  const seedA: number[] = new Array(m);
  const diag: number[] = new Array(m);
  for (let i = 0; i < m; i++) {
    seedA[i] = seeds[2 * i];
    diag[i] = seeds[2 * i + 1] - seeds[2 * i];
  }
  const firstA = seeds[0];
  const lastA = seeds[2 * m - 2];
  const firstB = seeds[1];
  const lastB = seeds[2 * m - 1];
  const a0 = Math.max(0, firstA - o.margin);
  let a1 = Math.min(A.length, lastA + o.k + o.margin);
  let b0 = Math.max(0, firstB - o.margin);
  const b1 = Math.min(B.length, lastB + o.k + o.margin);
  if (self) {
    if (lastA + o.k > firstB) return null;
    a1 = Math.min(a1, firstB);
    b0 = Math.max(b0, lastA + o.k);
  }
  const raw = mark(A.raw, B.raw, a0, a1, b0, b1, seedA, diag, o, self);
  const ids = A.ids && B.ids ? mark(A.ids, B.ids, a0, a1, b0, b1, seedA, diag, o, self) : null;
  const kc = o.coverK;
  // Identifier renames over the whole window; a normalised match holding an unsupported rename
  // (one name once against another once) neither extends nor scores the region.
  const ren = ids ? renameConsistency(A, B, ids.alignedB, a0, b0, Math.max(0, b1 - b0), a0, a1) : null;
  const goodA = ids ? goodCover(raw.covA, ids.startA, ren!.unsupportedA, kc) : raw.covA;
  const goodB = ids ? goodCover(raw.covB, ids.startB, ren!.unsupportedB, kc) : raw.covB;
  const ea = extent(goodA, firstA - a0, lastA + o.k - a0, o.fringeGap);
  const eb = extent(goodB, firstB - b0, lastB + o.k - b0, o.fringeGap);
  if (!ea || !eb) return null;
  let al = score(A, B, raw, ids, a0, b0, b1, a0 + ea[0], a0 + ea[1], b0 + eb[0], b0 + eb[1], kc);
  // A verbatim copy pasted next to look-alike code (the same family on both sides, on the same
  // diagonal) is an unbroken run that meets a stretch of much lower match density: that stretch
  // is not the copy, and goes (each end on its own; the rest is scored again). Code only: a
  // renamed or edited prose copy (no identifier stream) falls below that density inside the copy.
  const rawRun = longestRun(A.raw, B.raw, raw.alignedB, a0, al.aStart, al.aEnd);
  const cut = ids ? cutAtRun(raw, rawRun, al, a0, b0, kc) : null;
  if (cut) al = score(A, B, raw, ids, a0, b0, b1, cut[0], cut[1], cut[2], cut[3], kc);
  // A verbatim (or consistently renamed) copy is one unbroken run on one diagonal: when such a run
  // holds nearly all of the region, the region is that run (what a few tokens of look-alike code
  // around it added goes), and the copy is exact (renamed). The run found above is still the
  // longest of the region it was cut to.
  const longer = Math.max(al.aEnd - al.aStart, al.bEnd - al.bStart);
  if (rawRun[1] - rawRun[0] >= EXACT_SHARE * longer) return asRun(al, rawRun, raw.alignedB[rawRun[0] - a0], true);
  if (ids && al.consistency >= o.minConsistency) {
    const idsRun = longestRun(A.ids!, B.ids!, ids.alignedB, a0, al.aStart, al.aEnd);
    if (idsRun[1] - idsRun[0] >= EXACT_SHARE * longer) return asRun(al, idsRun, ids.alignedB[idsRun[0] - a0], false);
  }
  return al;
}

/**
 * The region [aStart, aEnd) × [bStart, bEnd) scored: the shares of matched coverK-grams on the
 * tokens as read and (code) on the normalised stream, and the renames inside it.
 */
function score(A: RegionDocument, B: RegionDocument, raw: Marks, ids: Marks | null, a0: number, b0: number, b1: number, aStart: number, aEnd: number, bStart: number, bEnd: number, kc: number): Alignment {
  const rawA = shingleShare(raw.startA, null, aStart - a0, aEnd - a0, kc);
  const rawB = shingleShare(raw.startB, null, bStart - b0, bEnd - b0, kc);
  let idsA = rawA;
  let idsB = rawB;
  let r: Omit<Renames, 'unsupportedA' | 'unsupportedB'> = { pairs: 0, consistency: 1, renames: 0 };
  if (ids) {
    // The renames again, over the trimmed region only (what the region's score and kind depend on).
    const inside = renameConsistency(A, B, ids.alignedB, a0, b0, Math.max(0, b1 - b0), aStart, aEnd);
    idsA = Math.max(rawA, shingleShare(ids.startA, inside.unsupportedA, aStart - a0, aEnd - a0, kc));
    idsB = Math.max(rawB, shingleShare(ids.startB, inside.unsupportedB, bStart - b0, bEnd - b0, kc));
    r = inside;
  }
  return { aStart, aEnd, bStart, bEnd, rawA, rawB, idsA, idsB, identPairs: r.pairs, consistency: r.consistency, renames: r.renames, exact: false, sameShape: false };
}

/** The shortest unbroken run that can cut a region, and the share of the region it must hold. */
const CUT_MIN_RUN = 30;
const CUT_RUN_SHARE = 0.4;
/** A stretch between a region's end and its run goes when fewer of its coverK-grams than this match (both sides pooled). */
const CUT_SHARE = 0.5;

/**
 * The region cut at the ends of its longest unbroken run [rs, re) (side a; side b from its
 * aligned position) where the stretch beyond the run matches a share of its coverK-grams below
 * CUT_SHARE (both sides pooled) — look-alike code, not the copy; null when neither end goes.
 * Only a run of CUT_MIN_RUN tokens or more holding CUT_RUN_SHARE of the region cuts it.
 */
function cutAtRun(raw: Marks, run: [number, number], al: Alignment, a0: number, b0: number, kc: number): [number, number, number, number] | null {
  const [rs, re] = run;
  const n = re - rs;
  if (n < CUT_MIN_RUN || n < CUT_RUN_SHARE * Math.max(al.aEnd - al.aStart, al.bEnd - al.bStart)) return null;
  const bs = raw.alignedB[rs - a0];
  const be = bs + n;
  if (bs < al.bStart || be > al.bEnd) return null;
  // A stretch is sparse when few of its coverK-grams match, both sides' pooled (a stretch shorter
  // than coverK counts its one short k-gram, as shingleShare does).
  const grams = (from: number, to: number): number => (to > from ? Math.max(from, to - kc) - from + 1 : 0);
  const matched = (start: Uint8Array, from: number, to: number): number => {
    let hits = 0;
    for (let i = from, last = from + grams(from, to); i < last; i++) hits += start[i];
    return hits;
  };
  const sparse = (fa: number, ta: number, fb: number, tb: number): boolean =>
    (ta > fa || tb > fb) && matched(raw.startA, fa - a0, ta - a0) + matched(raw.startB, fb - b0, tb - b0) < CUT_SHARE * (grams(fa, ta) + grams(fb, tb));
  const left = sparse(al.aStart, rs, al.bStart, bs);
  const right = sparse(re, al.aEnd, be, al.bEnd);
  if (!left && !right) return null;
  return [left ? rs : al.aStart, right ? re : al.aEnd, left ? bs : al.bStart, right ? be : al.bEnd];
}

/** The share of a region an unbroken run must hold for the region to be that run. */
const EXACT_SHARE = 0.9;

/** The region trimmed to a run [s, e) of side a starting at side-b position b: exact, or renamed. */
function asRun(al: Alignment, run: [number, number], b: number, exact: boolean): Alignment {
  const n = run[1] - run[0];
  return { ...al, aStart: run[0], aEnd: run[1], bStart: b, bEnd: b + n, rawA: exact ? 1 : al.rawA, rawB: exact ? 1 : al.rawB, idsA: 1, idsB: 1, exact, sameShape: true };
}

/**
 * The longest run [s, e) of side-a positions in [from, to) aligned to consecutive side-b
 * positions with equal tokens (of stream sa / sb).
 */
function longestRun(sa: TokenStream, sb: TokenStream, alignedB: Int32Array, a0: number, from: number, to: number): [number, number] {
  let best: [number, number] = [from, from];
  let s = -1;
  for (let i = from; i <= to; i++) {
    const j = i < to ? alignedB[i - a0] : -1;
    const same = j >= 0 && sa.hi[i] === sb.hi[j] && sa.lo[i] === sb.lo[j];
    const continues = same && s >= 0 && j === alignedB[i - 1 - a0] + 1;
    if (continues) continue;
    if (s >= 0 && i - s > best[1] - best[0]) best = [s, i];
    s = same ? i : -1;
  }
  return best;
}

/** A function that aligns a chain as {@link alignChain} does (the TypeScript, or the native kernel's). */
export type ChainAligner = (A: RegionDocument, B: RegionDocument, seeds: ArrayLike<number>, o: AlignOptions, self: boolean) => Alignment | null;

/**
 * alignChain computed by a native kernel (native/align.c), which gives exactly the same
 * alignments (checked by the unit tests); the TypeScript above stays the reference.
 */
export function kernelAligner(kernel: Pick<CodeKernel, 'alignChain'>): ChainAligner {
  const out = new Float64Array(13);
  const params = new Float64Array(7);
  const aligner: ChainAligner = (A, B, seeds, o, self) => {
    params[0] = o.k;
    params[1] = o.coverK;
    params[2] = o.margin;
    params[3] = o.band;
    params[4] = o.fringeGap;
    params[5] = o.minConsistency;
    params[6] = self ? 1 : 0;
    const found = kernel.alignChain(
      A.raw.hi,
      A.raw.lo,
      A.ids?.hi ?? null,
      A.ids?.lo ?? null,
      A.isIdent,
      B.raw.hi,
      B.raw.lo,
      B.ids?.hi ?? null,
      B.ids?.lo ?? null,
      B.isIdent,
      A.length,
      B.length,
      seeds instanceof Int32Array ? seeds : Int32Array.from(seeds),
      params,
      out,
    );
    if (!found) return null;
    return {
      aStart: out[0],
      aEnd: out[1],
      bStart: out[2],
      bEnd: out[3],
      rawA: out[4],
      rawB: out[5],
      idsA: out[6],
      idsB: out[7],
      identPairs: out[8],
      consistency: out[9],
      renames: out[10],
      exact: out[11] === 1,
      sameShape: out[12] === 1,
    };
  };
  alignerKernels.set(aligner, kernel);
  return aligner;
}

/** The kernel of each aligner kernelAligner made. */
const alignerKernels = new WeakMap<ChainAligner, object>();

/** Whether `aligner` is kernelAligner(kernel): the kernel's own alignment (so its bucket search gives the same). */
export function alignsWithKernel(aligner: ChainAligner, kernel: object): boolean {
  return alignerKernels.get(aligner) === kernel;
}
