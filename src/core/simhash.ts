/**
 * SimHash over token k-gram shingles, with a bottom-k MinHash sketch of the same shingle set.
 *
 * Hot path: shingle hashes are combined from the tokens' 64-bit hashes and finalised with mix64;
 * distinct shingles are found with an open-addressing table reused across calls; the 64 bit
 * counters are packed four to a 32-bit word (8-bit lanes), flushed before they can overflow.
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

/* Reused scratch: the distinct-shingle table (keys + counts), stamped per call. */
let tableBits = 0;
let keysHi = new Uint32Array(0);
let keysLo = new Uint32Array(0);
let counts = new Uint32Array(0);
let stamps = new Uint32Array(0);
let stamp = 0;
/** Mask of the table as sized by the last collectDistinct call. */
let tableMask = 0;
let distinctHi = new Uint32Array(1024);
let distinctLo = new Uint32Array(1024);
const counters = new Float64Array(64);

/**
 * Makes the scratch table big enough for `items` shingles and starts a new stamp. Returns the
 * mask to use: sized to this call (not to the largest file seen), so small files stay in cache.
 */
function ensureTable(items: number): number {
  let bits = 8;
  while (1 << bits < items * 2) bits++;
  if (bits > tableBits) {
    tableBits = bits;
    const size = 1 << bits;
    keysHi = new Uint32Array(size);
    keysLo = new Uint32Array(size);
    counts = new Uint32Array(size);
    stamps = new Uint32Array(size);
    stamp = 0;
  }
  if (distinctHi.length < items) {
    distinctHi = new Uint32Array(items);
    distinctLo = new Uint32Array(items);
  }
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    stamps.fill(0);
    stamp = 1;
  }
  return (1 << bits) - 1;
}

/**
 * Finds the distinct shingles of tokens [from, to) into the scratch table; returns their number.
 * Their hashes are then in distinctHi/distinctLo[0 … n) and their counts in the table.
 */
function collectDistinct(buf: TokenBuffer, from: number, to: number, k: number): number {
  const mask = ensureTable(to - from - k + 1);
  tableMask = mask;
  const thi = buf.hi;
  const tlo = buf.lo;
  let distinct = 0;
  for (let i = from; i + k <= to; i++) {
    let a = tlo[i];
    let b = thi[i];
    for (let j = 1; j < k; j++) {
      a = Math.imul(((a << 5) | (a >>> 27)) ^ tlo[i + j], 0x9e3779b1);
      b = Math.imul(((b << 7) | (b >>> 25)) ^ thi[i + j], 0x85ebca77);
    }
    // mix64(b, a), inlined: the hot loop's only finaliser.
    const m = fmix32((a ^ Math.imul(b, 0x9e3779b1) ^ (b >>> 15)) >>> 0);
    const hi = fmix32((b ^ Math.imul(m, 0x27d4eb2f) ^ 0x165667b1) >>> 0);
    const lo = fmix32((m ^ Math.imul(hi, 0x85ebca77)) >>> 0);
    let slot = (lo ^ (hi >>> 7)) & mask;
    for (;;) {
      if (stamps[slot] !== stamp) {
        stamps[slot] = stamp;
        keysHi[slot] = hi;
        keysLo[slot] = lo;
        counts[slot] = 1;
        distinctHi[distinct] = hi;
        distinctLo[distinct] = lo;
        distinct++;
        break;
      }
      if (keysHi[slot] === hi && keysLo[slot] === lo) {
        counts[slot]++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return distinct;
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
  const k = Math.max(1, Math.min(shingleSize, tokens));
  const distinct = collectDistinct(buf, from, to, k);
  for (let s = 0; s < distinct; s++) visit(distinctHi[s], distinctLo[s]);
}

/**
 * Fingerprints tokens [from, to) of a buffer. Returns null when the range has no tokens.
 */
export function simhashTokens(buf: TokenBuffer, from: number, to: number, options: SimHashOptions = {}): ItemFingerprint | null {
  const tokens = to - from;
  if (tokens <= 0) return null;
  const k = Math.max(1, Math.min(options.shingleSize ?? 3, tokens));
  const sketchSize = options.sketchSize ?? 128;
  const distinct = collectDistinct(buf, from, to, k);
  const mask = tableMask;

  // 2. Weighted bit sums.
  let hiBits = 0;
  let loBits = 0;
  const weighting = options.weighting ?? 'none';
  if (weighting === 'none') {
    const c = packedBitCounts(distinct);
    for (let bit = 0; bit < 32; bit++) {
      if (c[bit] * 2 > distinct) loBits |= 1 << bit;
      if (c[32 + bit] * 2 > distinct) hiBits |= 1 << bit;
    }
  } else {
    counters.fill(0);
    const idf = options.idf;
    for (let s = 0; s < distinct; s++) {
      const hi = distinctHi[s];
      const lo = distinctLo[s];
      let slot = (lo ^ (hi >>> 7)) & mask;
      while (keysHi[slot] !== hi || keysLo[slot] !== lo) slot = (slot + 1) & mask;
      let w = 1 + Math.log(counts[slot]);
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
    tokens,
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
