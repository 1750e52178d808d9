/**
 * SimHash over token k-gram shingles, with a bottom-k MinHash sketch of the same shingle set.
 *
 * Hot path: a file's shingles are hashed once, into a ShingleSequence: one finalised 64-bit hash
 * per position (combined from the tokens' hashes, then mix64), and for each position the previous
 * position holding the same shingle (found with an open-addressing table reused across calls).
 * Any token range of the file — the whole file, each of its sections — is then fingerprinted
 * from that sequence without hashing again: a shingle is new in the range when its previous
 * occurrence lies before the range. The 64 bit counters are packed four to a 32-bit word
 * (8-bit lanes), flushed before they can overflow.
 */
import { fmix32 } from './hash';
import type { TokenBuffer } from './tokenize';
import type { ItemFingerprint, Weighting } from './types';

export interface SimHashOptions {
  /** Tokens per shingle (k-gram size); default 3. */
  shingleSize?: number;
  /** 'none' counts each distinct shingle once; 'tf' weights by 1 + ln(count). */
  weighting?: Weighting;
  /** Bottom-k sketch size; default 128. */
  sketchSize?: number;
  /** For 'tfidf': inverse document frequency of a shingle (given its hash halves). */
  idf?: (hi: number, lo: number) => number;
}

/** The shingle size used for a range of `tokens` tokens: a range shorter than k is one shingle. */
export function effectiveShingleSize(shingleSize: number | undefined, tokens: number): number {
  return Math.max(1, Math.min(shingleSize ?? 3, tokens));
}

/**
 * The shingles of tokens [from, to) of a TokenBuffer, shingle size k: the shingle at position p
 * covers tokens from + p … from + p + k − 1. Built once per file, reused for every range inside.
 */
export class ShingleSequence {
  /** Finalised 64-bit hash of each shingle (two halves). */
  hi = new Uint32Array(1024);
  lo = new Uint32Array(1024);
  /** Position of the previous shingle equal to this one, or −1. */
  prev = new Int32Array(1024);
  /** Number of shingles (positions). */
  length = 0;
  /** First token covered, and tokens per shingle. */
  from = 0;
  k = 1;

  /** Hashes the shingles of tokens [from, to) (to − from ≥ k ≥ 1) and links the repeats. */
  build(buf: TokenBuffer, from: number, to: number, k: number): void {
    const count = to - from - k + 1;
    if (this.hi.length < count) {
      const cap = Math.max(count, this.hi.length * 2);
      this.hi = new Uint32Array(cap);
      this.lo = new Uint32Array(cap);
      this.prev = new Int32Array(cap);
    }
    this.length = count;
    this.from = from;
    this.k = k;
    hashShingles(buf, from, count, k, this.hi, this.lo);
    linkRepeats(this.hi, this.lo, this.prev, count);
  }

  /** Shingle positions of tokens [from, to): [first, end). */
  first(from: number): number {
    return from - this.from;
  }
  end(to: number): number {
    return to - this.from - this.k + 1;
  }
}

/**
 * Shingle hashes of `count` positions starting at token `from`: the k token hashes folded with a
 * rotate-xor-multiply per half, then mix64 (inlined: the hot loop's only finaliser).
 */
function hashShingles(buf: TokenBuffer, from: number, count: number, k: number, outHi: Uint32Array, outLo: Uint32Array): void {
  const thi = buf.hi;
  const tlo = buf.lo;
  for (let p = 0; p < count; p++) {
    const i = from + p;
    let a = tlo[i];
    let b = thi[i];
    for (let j = 1; j < k; j++) {
      a = Math.imul(((a << 5) | (a >>> 27)) ^ tlo[i + j], 0x9e3779b1);
      b = Math.imul(((b << 7) | (b >>> 25)) ^ thi[i + j], 0x85ebca77);
    }
    const m = fmix32((a ^ Math.imul(b, 0x9e3779b1) ^ (b >>> 15)) >>> 0);
    const hi = fmix32((b ^ Math.imul(m, 0x27d4eb2f) ^ 0x165667b1) >>> 0);
    outHi[p] = hi;
    outLo[p] = fmix32((m ^ Math.imul(hi, 0x85ebca77)) >>> 0);
  }
}

/*
 * Reused scratch: the open-addressing table of linkRepeats, four int32 words per slot (hash
 * high half, low half, last position seen, stamp) so that a probe touches one cache line. A slot
 * is in use when its stamp is the current call's: nothing is cleared between calls.
 */
let table = new Int32Array(0);
let tableBits = 0;
let stamp = 0;

/** Makes the table big enough for `items` keys (at most half full); returns its slot mask. */
function ensureTable(items: number): number {
  let bits = 8;
  while (1 << bits < items * 2) bits++;
  if (bits > tableBits) {
    tableBits = bits;
    table = new Int32Array(4 << bits);
    stamp = 0;
  }
  stamp = (stamp + 1) | 0;
  if (stamp === 0) {
    table.fill(0);
    stamp = 1;
  }
  // Sized to this call, not to the largest file seen, so that small files stay in cache.
  return (1 << bits) - 1;
}

/** prev[p] = the last position before p with the same 64-bit hash, or −1. */
function linkRepeats(hi: Uint32Array, lo: Uint32Array, prev: Int32Array, count: number): void {
  const mask = ensureTable(count);
  const t = table;
  const st = stamp;
  for (let p = 0; p < count; p++) {
    const h = hi[p] | 0;
    const l = lo[p] | 0;
    let slot = (l ^ (h >>> 7)) & mask;
    for (;;) {
      const w = slot << 2;
      if (t[w + 3] !== st) {
        t[w] = h;
        t[w + 1] = l;
        t[w + 2] = p;
        t[w + 3] = st;
        prev[p] = -1;
        break;
      }
      if (t[w] === h && t[w + 1] === l) {
        prev[p] = t[w + 2];
        t[w + 2] = p;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
}

/* Reused scratch of one item: its distinct shingles in order of first occurrence (and counts). */
let distinctHi = new Uint32Array(1024);
let distinctLo = new Uint32Array(1024);
let distinctCount = new Uint32Array(1024);
/** For each position of the item: the index of its shingle among the distinct ones (tf only). */
let distinctIndex = new Int32Array(1024);
const counters = new Float64Array(64);

function ensureItemScratch(positions: number): void {
  if (distinctHi.length < positions) {
    const cap = Math.max(positions, distinctHi.length * 2);
    distinctHi = new Uint32Array(cap);
    distinctLo = new Uint32Array(cap);
    distinctCount = new Uint32Array(cap);
    distinctIndex = new Int32Array(cap);
  }
}

/**
 * The distinct shingles of positions [first, end) into distinctHi/Lo, in order of first
 * occurrence; returns their number. A position is a first occurrence in the range exactly when
 * the previous equal shingle lies before `first` (or there is none).
 */
function gatherDistinct(seq: ShingleSequence, first: number, end: number): number {
  ensureItemScratch(end - first);
  const { hi, lo, prev } = seq;
  let distinct = 0;
  for (let p = first; p < end; p++) {
    if (prev[p] < first) {
      distinctHi[distinct] = hi[p];
      distinctLo[distinct] = lo[p];
      distinct++;
    }
  }
  return distinct;
}

/**
 * gatherDistinct, also counting each distinct shingle's occurrences in the range (for tf
 * weighting): a repeat takes the index of its previous occurrence, which is in the range.
 */
function gatherDistinctCounted(seq: ShingleSequence, first: number, end: number): number {
  ensureItemScratch(end - first);
  const { hi, lo, prev } = seq;
  let distinct = 0;
  for (let p = first; p < end; p++) {
    const q = prev[p];
    if (q < first) {
      distinctHi[distinct] = hi[p];
      distinctLo[distinct] = lo[p];
      distinctCount[distinct] = 1;
      distinctIndex[p - first] = distinct++;
    } else {
      const d = distinctIndex[q - first];
      distinctCount[d]++;
      distinctIndex[p - first] = d;
    }
  }
  return distinct;
}

/** Calls `visit` once for each distinct shingle of a built sequence (for document frequencies). */
export function forEachDistinct(seq: ShingleSequence, visit: (hi: number, lo: number) => void): void {
  const { hi, lo, prev } = seq;
  for (let p = 0; p < seq.length; p++) if (prev[p] < 0) visit(hi[p], lo[p]);
}

/** Calls `visit` once for each distinct shingle of tokens [from, to) (for document frequencies). */
export function forEachDistinctShingle(
  buf: TokenBuffer,
  from: number,
  to: number,
  shingleSize: number,
  visit: (hi: number, lo: number) => void,
): void {
  const tokens = to - from;
  if (tokens <= 0) return;
  spare.build(buf, from, to, effectiveShingleSize(shingleSize, tokens));
  forEachDistinct(spare, visit);
}

/** The sequence simhashTokens builds for a single range. */
const spare = new ShingleSequence();

/**
 * Fingerprints tokens [from, to) of a buffer. Returns null when the range has no tokens.
 */
export function simhashTokens(buf: TokenBuffer, from: number, to: number, options: SimHashOptions = {}): ItemFingerprint | null {
  const tokens = to - from;
  if (tokens <= 0) return null;
  spare.build(buf, from, to, effectiveShingleSize(options.shingleSize, tokens));
  return simhashRange(spare, from, to, options);
}

/**
 * Fingerprints tokens [from, to) from a sequence built over them or over a longer range around
 * them with the same shingle size (to − from ≥ seq.k).
 */
export function simhashRange(seq: ShingleSequence, from: number, to: number, options: SimHashOptions): ItemFingerprint {
  const first = seq.first(from);
  const end = seq.end(to);
  const sketchSize = options.sketchSize ?? 128;
  const weighting = options.weighting ?? 'none';
  let hiBits = 0;
  let loBits = 0;
  let distinct: number;
  if (weighting === 'none') {
    distinct = gatherDistinct(seq, first, end);
    const c = packedBitCounts(distinct);
    for (let bit = 0; bit < 32; bit++) {
      if (c[bit] * 2 > distinct) loBits |= 1 << bit;
      if (c[32 + bit] * 2 > distinct) hiBits |= 1 << bit;
    }
  } else {
    distinct = gatherDistinctCounted(seq, first, end);
    counters.fill(0);
    const idf = options.idf;
    for (let s = 0; s < distinct; s++) {
      const hi = distinctHi[s];
      const lo = distinctLo[s];
      let w = 1 + Math.log(distinctCount[s]);
      if (weighting === 'tfidf' && idf) w *= idf(hi, lo);
      for (let bit = 0; bit < 32; bit++) {
        counters[bit] += (lo >>> bit) & 1 ? w : -w;
        counters[32 + bit] += (hi >>> bit) & 1 ? w : -w;
      }
    }
    for (let bit = 0; bit < 32; bit++) {
      if (counters[bit] > 0) loBits |= 1 << bit;
      if (counters[32 + bit] > 0) hiBits |= 1 << bit;
    }
  }

  return {
    hi: hiBits >>> 0,
    lo: loBits >>> 0,
    tokens: to - from,
    features: distinct,
    sketch: bottomK(distinct, sketchSize),
  };
}

const bitCounts = new Int32Array(64);

/**
 * Per-bit counts of ones over the distinct shingles, with packed counters: the word
 * (x >>> j) & 0x01010101 adds one to four 8-bit lanes at once (bits j, j+8, j+16, j+24);
 * sixteen such accumulators cover all 64 bits and are flushed every 255 shingles.
 */
function packedBitCounts(distinct: number): Int32Array {
  bitCounts.fill(0);
  let s = 0;
  while (s < distinct) {
    const end = Math.min(distinct, s + 255);
    let l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0;
    let h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0;
    for (; s < end; s++) {
      const lo = distinctLo[s];
      const hi = distinctHi[s];
      l0 += lo & 0x01010101;
      l1 += (lo >>> 1) & 0x01010101;
      l2 += (lo >>> 2) & 0x01010101;
      l3 += (lo >>> 3) & 0x01010101;
      l4 += (lo >>> 4) & 0x01010101;
      l5 += (lo >>> 5) & 0x01010101;
      l6 += (lo >>> 6) & 0x01010101;
      l7 += (lo >>> 7) & 0x01010101;
      h0 += hi & 0x01010101;
      h1 += (hi >>> 1) & 0x01010101;
      h2 += (hi >>> 2) & 0x01010101;
      h3 += (hi >>> 3) & 0x01010101;
      h4 += (hi >>> 4) & 0x01010101;
      h5 += (hi >>> 5) & 0x01010101;
      h6 += (hi >>> 6) & 0x01010101;
      h7 += (hi >>> 7) & 0x01010101;
    }
    flushLanes(l0, 0); flushLanes(l1, 1); flushLanes(l2, 2); flushLanes(l3, 3);
    flushLanes(l4, 4); flushLanes(l5, 5); flushLanes(l6, 6); flushLanes(l7, 7);
    flushLanes(h0, 32); flushLanes(h1, 33); flushLanes(h2, 34); flushLanes(h3, 35);
    flushLanes(h4, 36); flushLanes(h5, 37); flushLanes(h6, 38); flushLanes(h7, 39);
  }
  return bitCounts;
}

/** Adds the four 8-bit lanes of an accumulator to the counters of bits j, j+8, j+16, j+24. */
function flushLanes(acc: number, j: number): void {
  bitCounts[j] += acc & 0xff;
  bitCounts[j + 8] += (acc >>> 8) & 0xff;
  bitCounts[j + 16] += (acc >>> 16) & 0xff;
  bitCounts[j + 24] += acc >>> 24;
}

/** The k smallest distinct shingle values (their high halves), ascending. */
function bottomK(distinct: number, k: number): Uint32Array {
  if (k <= 0) return new Uint32Array(0);
  if (distinct <= k) {
    const all = distinctHi.slice(0, distinct);
    all.sort();
    return dedupeSorted(all);
  }
  // Max-heap of size k over the high halves.
  const heap = new Uint32Array(k);
  for (let i = 0; i < k; i++) heapPush(heap, i, distinctHi[i]);
  for (let i = k; i < distinct; i++) {
    const v = distinctHi[i];
    if (v < heap[0]) {
      heap[0] = v;
      siftDown(heap, k);
    }
  }
  heap.sort();
  return dedupeSorted(heap);
}

function heapPush(heap: Uint32Array, n: number, v: number): void {
  let i = n;
  heap[i] = v;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (heap[p] >= heap[i]) break;
    const t = heap[p];
    heap[p] = heap[i];
    heap[i] = t;
    i = p;
  }
}

function siftDown(heap: Uint32Array, n: number): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const r = l + 1;
    const m = r < n && heap[r] > heap[l] ? r : l;
    if (heap[m] <= heap[i]) return;
    const t = heap[m];
    heap[m] = heap[i];
    heap[i] = t;
    i = m;
  }
}

function dedupeSorted(a: Uint32Array): Uint32Array {
  let w = 0;
  for (let r = 0; r < a.length; r++) {
    if (r === 0 || a[r] !== a[r - 1]) a[w++] = a[r];
  }
  return w === a.length ? a : a.slice(0, w);
}

/**
 * Estimated Jaccard similarity of two shingle sets from their bottom-k sketches (k = `size`, the
 * sketch capacity): among the k smallest values of the union, the share found in both. When both
 * sketches hold fewer than k values they are the whole sets, and the answer is exact.
 */
export function estimateJaccard(a: Uint32Array, b: Uint32Array, size = 128): number {
  if (a.length === 0 && b.length === 0) return 1;
  const limit = a.length < size && b.length < size ? Infinity : size;
  let i = 0;
  let j = 0;
  let seen = 0;
  let both = 0;
  while (seen < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) i++;
    else if (i >= a.length || b[j] < a[i]) j++;
    else {
      both++;
      i++;
      j++;
    }
    seen++;
  }
  return both / seen;
}
