/**
 * Anchors: winnowed k-gram hashes of a token stream (Schleimer, Wilkerson & Aiken, SIGMOD 2003).
 * Every k consecutive tokens get a 32-bit hash; of each window of w consecutive k-gram hashes the
 * minimum (the rightmost on ties) is kept, once, with its token position. Any run of at least
 * w + k − 1 tokens shared by two streams yields a shared anchor; density ≈ 2 / (w + 1).
 */
import { fmix32 } from '../text/hash';
import type { CodeKernel } from '../types';
import type { TokenStream } from './document';

/** The 32-bit hash of tokens [i, i + k) of a stream; `salt` separates streams. */
export function kgramHash(s: TokenStream, i: number, k: number, salt = 0): number {
  let h = (0x9747b28c ^ salt ^ k) | 0;
  for (let j = i; j < i + k; j++) {
    h = Math.imul(h ^ s.lo[j], 0xcc9e2d51);
    h = (h << 15) | (h >>> 17);
    h = Math.imul(h ^ s.hi[j], 0x1b873593);
    h = (h << 13) | (h >>> 19);
  }
  return fmix32(h >>> 0);
}

/** Hashes of every k-gram of tokens [from, to) of a stream: entry i is the k-gram at from + i. */
export function kgramHashes(s: TokenStream, from: number, to: number, k: number, salt = 0): Uint32Array {
  const n = Math.max(0, to - from - k + 1);
  const h = new Uint32Array(n);
  for (let i = 0; i < n; i++) h[i] = kgramHash(s, from + i, k, salt);
  return h;
}

export interface Anchors {
  hash: Uint32Array;
  /** Token position of each anchor's k-gram (its first token), ascending. */
  pos: Int32Array;
}

/**
 * Robust winnowing of k-gram hashes (entry i at token position i): the minimum of each window of
 * w, the rightmost on ties, recorded when it changes. Fewer than w k-grams: their minimum.
 */
export function winnow(hashes: Uint32Array, w: number): Anchors {
  const n = hashes.length;
  if (n === 0) return { hash: new Uint32Array(0), pos: new Int32Array(0) };
  // At most one anchor per k-gram; typically 2 / (w + 1) of them (scratch, copied out at the end).
  if (scratch.hash.length < n) scratch.hash = new Uint32Array(Math.max(n, 2 * scratch.hash.length));
  if (scratch.pos.length < n) scratch.pos = new Int32Array(Math.max(n, 2 * scratch.pos.length));
  const width = Math.max(1, Math.min(w, n));
  const m = winnowInto(hashes, n, width, width - 1, scratch.hash, scratch.pos);
  return { hash: scratch.hash.slice(0, m), pos: scratch.pos.slice(0, m) };
}

/*
 * The loops of winnow and anchorsOf are functions of their own, with nothing before or after the
 * loop that V8 would have to type: when one is optimised during a long call (on-stack
 * replacement) or after its feedback was first allocated in the middle of one, no property read,
 * allocation or arithmetic outside the loop is left without type feedback (that cost a
 * deoptimisation and a recompile, per thread, on the first documents of a scan with --locate).
 */

/** winnow's loop: the anchors of `hashes` (n of them, windows of `width`) into hash and pos from 0; returns how many. */
function winnowInto(hashes: Uint32Array, n: number, width: number, first: number, hash: Uint32Array, pos: Int32Array): number {
  let m = 0;
  let last = -1;
  let min = -1;
  for (let end = first; end < n; end++) {
    const start = end - width + 1;
    if (min < start) {
      // The previous minimum left the window: rescan it (rightmost minimum).
      min = start;
      for (let i = start + 1; i <= end; i++) if (hashes[i] <= hashes[min]) min = i;
    } else if (hashes[end] <= hashes[min]) {
      min = end;
    }
    if (min !== last) {
      hash[m] = hashes[min];
      pos[m] = min;
      m++;
      last = min;
    }
  }
  return m;
}

/**
 * Arrays reused by anchorsOf and winnow (one thread's: a scan's worker anchors thousands of
 * documents, and arrays sized by each were much of its garbage); dropped when over SCRATCH_KEEP.
 */
const scratch = { kgrams: new Uint32Array(4096), hash: new Uint32Array(4096), pos: new Int32Array(4096) };
const SCRATCH_KEEP = 1 << 20;

/**
 * Anchors of a whole stream of `length` tokens: winnow(kgramHashes(s, 0, length, k, salt), w);
 * by `kernel` when it makes them (CodeKernel.anchors: the same anchors).
 */
export function anchorsOf(s: TokenStream, length: number, k: number, w: number, salt = 0, kernel?: CodeKernel): Anchors {
  const n = Math.max(0, length - k + 1);
  if (kernel?.anchors && k >= 1) return kernelAnchorsOf(kernel, s, length, n, k, w, salt);
  if (scratch.kgrams.length < n) scratch.kgrams = new Uint32Array(Math.max(n, 2 * scratch.kgrams.length));
  const h = scratch.kgrams;
  hashKgrams(s.hi, s.lo, n, k, (0x9747b28c ^ salt ^ k) | 0, h);
  const anchors = winnow(h.subarray(0, n), w);
  if (scratch.kgrams.length > SCRATCH_KEEP) scratch.kgrams = new Uint32Array(4096);
  if (scratch.hash.length > SCRATCH_KEEP) scratch.hash = new Uint32Array(4096);
  if (scratch.pos.length > SCRATCH_KEEP) scratch.pos = new Int32Array(4096);
  return anchors;
}

/** anchorsOf by a kernel's `anchors` (n k-grams: at most n anchors), out of the scratch arrays. */
function kernelAnchorsOf(kernel: CodeKernel, s: TokenStream, length: number, n: number, k: number, w: number, salt: number): Anchors {
  if (scratch.hash.length < n) scratch.hash = new Uint32Array(Math.max(n, 2 * scratch.hash.length));
  if (scratch.pos.length < n) scratch.pos = new Int32Array(Math.max(n, 2 * scratch.pos.length));
  const m = kernel.anchors!(s.hi, s.lo, length, k, w, salt >>> 0, scratch.hash, scratch.pos);
  if (m < 0) throw new Error(`anchors: ${-m} anchors of ${n} k-grams`); // never: at most one per k-gram
  const anchors = { hash: scratch.hash.slice(0, m), pos: scratch.pos.slice(0, m) };
  if (scratch.hash.length > SCRATCH_KEEP) scratch.hash = new Uint32Array(4096);
  if (scratch.pos.length > SCRATCH_KEEP) scratch.pos = new Int32Array(4096);
  return anchors;
}

/** anchorsOf's loop: h[i] = kgramHash(s, i, k, salt) for i < n (seed: kgramHash's first value), inlined. */
function hashKgrams(hi: Uint32Array, lo: Uint32Array, n: number, k: number, seed: number, h: Uint32Array): void {
  for (let i = 0; i < n; i++) {
    let x = seed;
    for (let j = i; j < i + k; j++) {
      x = Math.imul(x ^ lo[j], 0xcc9e2d51);
      x = (x << 15) | (x >>> 17);
      x = Math.imul(x ^ hi[j], 0x1b873593);
      x = (x << 13) | (x >>> 19);
    }
    h[i] = fmix32(x >>> 0);
  }
}

/**
 * Anchors of a code stream whose tokens marked in `prose` are prose (a notebook's Markdown cells):
 * a k-gram of prose tokens only is hashed as a prose document's is (no salt), any other with
 * `salt` — the salt of code's identifier-normalised stream.
 */
export function mixedAnchorsOf(s: TokenStream, length: number, k: number, w: number, salt: number, prose: Uint8Array): Anchors {
  const n = Math.max(0, length - k + 1);
  const h = new Uint32Array(n);
  let run = 0; // prose tokens in [i, i + k)
  for (let t = 0; t < Math.min(k, length); t++) run += prose[t];
  for (let i = 0; i < n; i++) {
    if (i > 0) run += prose[i + k - 1] - prose[i - 1];
    h[i] = kgramHash(s, i, k, run === k ? 0 : salt);
  }
  return winnow(h, w);
}
