/**
 * SimHash over token k-gram shingles, with a bottom-k MinHash sketch of the same shingle set.
 *
 * Hot path: a file's shingles are hashed once, into a ShingleSequence: equal shingles are found
 * with an open-addressing table reused across calls and numbered, each distinct one is finalised
 * once (mix64), and each position is linked to the previous position holding the same shingle.
 * Any token range of the file — the whole file, each of its sections — is then fingerprinted
 * from that sequence without hashing again: a shingle is new in the range when its previous
 * occurrence lies before the range. The 64 bit counters are packed eight to a 32-bit word (4-bit
 * lanes), then four (8-bit lanes), flushed before they can overflow; the sketch keeps the values
 * under a threshold and sorts them by buckets.
 */
import { fmix32 } from '../text/hash';
import type { TokenBuffer } from '../text/tokenize';
import type { SimHashFingerprint, Weighting } from '../types';

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
 *
 * Equal shingles get one id (0, 1, 2 … in order of first occurrence) and are finalised once:
 * `hi[id]`, `lo[id]` is the shingle's 64-bit hash. Which shingles are equal can be told before
 * the finaliser, because mix64 is a bijection of 64-bit values (each of its steps can be undone):
 * two shingles have equal final hashes exactly when their folded token hashes are equal. About
 * half the positions of real code repeat an earlier shingle and skip the finaliser.
 */
export class ShingleSequence {
  /** Number of shingles (positions) and of distinct shingles. */
  length = 0;
  distinct = 0;
  /** First token covered, and tokens per shingle. */
  from = 0;
  k = 1;
  /** Per position: the shingle's id, and the previous position with the same shingle (or −1). */
  id = new Int32Array(1024);
  prev = new Int32Array(1024);
  /** Per id: the finalised hash (two halves), and occurrences in the whole sequence. */
  hi = new Uint32Array(1024);
  lo = new Uint32Array(1024);
  count = new Uint32Array(1024);

  /** Hashes the shingles of tokens [from, to) (to − from ≥ k ≥ 1), numbers and links them. */
  build(buf: TokenBuffer, from: number, to: number, k: number): void {
    const positions = to - from - k + 1;
    if (this.id.length < positions) {
      const cap = Math.max(positions, this.id.length * 2);
      this.id = new Int32Array(cap);
      this.prev = new Int32Array(cap);
      this.hi = new Uint32Array(cap);
      this.lo = new Uint32Array(cap);
      this.count = new Uint32Array(cap);
    }
    this.length = positions;
    this.from = from;
    this.k = k;
    this.distinct = numberShingles(buf, from, positions, k, this);
  }

  /** Shingle positions of tokens [from, to): [first, end). */
  first(from: number): number {
    return from - this.from;
  }
  end(to: number): number {
    return to - this.from - this.k + 1;
  }
}

/*
 * Reused scratch: the open-addressing table of numberShingles, two int32 words per slot (folded
 * hash a, shingle id + 1; 0 = empty slot), cleared for each call over the part in use; the other
 * folded half b of each id is in foldedB, compared only when a matches.
 */
let table = new Int32Array(0);
/** Per id: the folded half b, and the last position seen (to link the next occurrence to it). */
let foldedB = new Int32Array(1024);
let lastSeen = new Int32Array(1024);

/** Makes the table big enough for `items` keys (at most half full), cleared; returns its size in bits. */
function ensureTable(items: number): number {
  let bits = 8;
  while (1 << bits < items * 2) bits++;
  if (table.length < 2 << bits) table = new Int32Array(2 << bits);
  else table.fill(0, 0, 2 << bits);
  if (lastSeen.length < items) {
    lastSeen = new Int32Array(Math.max(items, lastSeen.length * 2));
    foldedB = new Int32Array(lastSeen.length);
  }
  // Sized to this call, not to the largest file seen, so that small files stay in cache.
  return bits;
}

/**
 * For each of `positions` shingles from token `from`: folds its k token hashes (a rotate-xor-
 * multiply per half), looks the folded pair up in the table, and either links it to the previous
 * occurrence or gives it the next id and finalises it (mix64, inlined). Returns the number of ids.
 */
function numberShingles(buf: TokenBuffer, from: number, positions: number, k: number, seq: ShingleSequence): number {
  const bits = ensureTable(positions);
  const mask = (1 << bits) - 1;
  const shift = 32 - bits;
  const t = table;
  const last = lastSeen;
  const keyB = foldedB;
  const { id, prev, hi: outHi, lo: outLo, count } = seq;
  const thi = buf.hi;
  const tlo = buf.lo;
  let ids = 0;
  for (let p = 0; p < positions; p++) {
    const i = from + p;
    let a = tlo[i] | 0;
    let b = thi[i] | 0;
    for (let j = 1; j < k; j++) {
      a = Math.imul(((a << 5) | (a >>> 27)) ^ tlo[i + j], 0x9e3779b1);
      b = Math.imul(((b << 7) | (b >>> 25)) ^ thi[i + j], 0x85ebca77);
    }
    // Multiplicative hashing: the top bits of the product select the slot.
    let slot = Math.imul(a ^ Math.imul(b, 0x27d4eb2f), 0x9e3779b1) >>> shift;
    for (;;) {
      const w = slot << 1;
      const entry = t[w + 1];
      if (entry === 0) {
        t[w] = a;
        t[w + 1] = ids + 1;
        keyB[ids] = b;
        id[p] = ids;
        prev[p] = -1;
        last[ids] = p;
        count[ids] = 1;
        // mix64(b, a): the shingle's final hash.
        const m = fmix32((a ^ Math.imul(b, 0x9e3779b1) ^ (b >>> 15)) >>> 0);
        const h = fmix32((b ^ Math.imul(m, 0x27d4eb2f) ^ 0x165667b1) >>> 0);
        outHi[ids] = h;
        outLo[ids] = fmix32((m ^ Math.imul(h, 0x85ebca77)) >>> 0);
        ids++;
        break;
      }
      if (t[w] === a && keyB[entry - 1] === b) {
        const d = entry - 1;
        id[p] = d;
        prev[p] = last[d];
        last[d] = p;
        count[d]++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return ids;
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
  const { id, prev, hi, lo } = seq;
  let distinct = 0;
  for (let p = first; p < end; p++) {
    if (prev[p] < first) {
      const d = id[p];
      distinctHi[distinct] = hi[d];
      distinctLo[distinct] = lo[d];
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
  const { id, prev, hi, lo } = seq;
  let distinct = 0;
  for (let p = first; p < end; p++) {
    const q = prev[p];
    if (q < first) {
      const d = id[p];
      distinctHi[distinct] = hi[d];
      distinctLo[distinct] = lo[d];
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
  for (let d = 0; d < seq.distinct; d++) visit(seq.hi[d], seq.lo[d]);
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
export function simhashTokens(buf: TokenBuffer, from: number, to: number, options: SimHashOptions = {}): SimHashFingerprint | null {
  const tokens = to - from;
  if (tokens <= 0) return null;
  spare.build(buf, from, to, effectiveShingleSize(options.shingleSize, tokens));
  return simhashRange(spare, from, to, options);
}

/**
 * Fingerprints tokens [from, to) from a sequence built over them or over a longer range around
 * them with the same shingle size (to − from ≥ seq.k). The whole sequence needs no gathering: its
 * distinct shingles are the ids, already in order of first occurrence, with their counts.
 */
export function simhashRange(seq: ShingleSequence, from: number, to: number, options: SimHashOptions): SimHashFingerprint {
  const first = seq.first(from);
  const end = seq.end(to);
  const whole = first === 0 && end === seq.length;
  const weighting = options.weighting ?? 'none';
  let hiArr: Uint32Array;
  let loArr: Uint32Array;
  let countArr: Uint32Array;
  let distinct: number;
  if (whole) {
    [hiArr, loArr, countArr, distinct] = [seq.hi, seq.lo, seq.count, seq.distinct];
  } else {
    distinct = weighting === 'none' ? gatherDistinct(seq, first, end) : gatherDistinctCounted(seq, first, end);
    [hiArr, loArr, countArr] = [distinctHi, distinctLo, distinctCount];
  }
  let hiBits = 0;
  let loBits = 0;
  if (weighting === 'none') {
    const c = packedBitCounts(hiArr, loArr, distinct);
    for (let bit = 0; bit < 32; bit++) {
      if (c[bit] * 2 > distinct) loBits |= 1 << bit;
      if (c[32 + bit] * 2 > distinct) hiBits |= 1 << bit;
    }
  } else {
    counters.fill(0);
    const idf = options.idf;
    for (let s = 0; s < distinct; s++) {
      const hi = hiArr[s];
      const lo = loArr[s];
      let w = 1 + Math.log(countArr[s]);
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
    sketch: bottomK(hiArr, distinct, options.sketchSize ?? 128),
  };
}

const bitCounts = new Int32Array(64);

/**
 * Per-bit counts of ones over `count` 64-bit values, with packed counters in two levels:
 *
 * - (v >>> j) & 0x11111111 adds one to eight 4-bit lanes at once (bits j, j+4, …, j+28 of v);
 *   four such accumulators per half (j = 0…3) count all 32 bits, for up to 15 values;
 * - every 15 values each is split into its even and odd lanes (& 0x0F0F0F0F, >>> 4 & 0x0F0F0F0F),
 *   which add into 8-bit lanes (bits j, j+8, j+16, j+24 and j+4, j+12, …), for up to 255
 *   values, then flushed into the 64 counters.
 *
 * About 3 operations per bit-quadruple instead of one per bit. (`| 0` keeps the accumulators
 * int32: a full top lane wraps the sign, which the unsigned shifts of the flushes undo.)
 */
function packedBitCounts(hiArr: Uint32Array, loArr: Uint32Array, count: number): Int32Array {
  bitCounts.fill(0);
  let s = 0;
  while (s < count) {
    const end255 = Math.min(count, s + 255);
    // 8-bit lanes: l/h = low/high half, digit = j, e/o = even/odd 4-bit lanes.
    let l0e = 0, l1e = 0, l2e = 0, l3e = 0, l0o = 0, l1o = 0, l2o = 0, l3o = 0;
    let h0e = 0, h1e = 0, h2e = 0, h3e = 0, h0o = 0, h1o = 0, h2o = 0, h3o = 0;
    while (s < end255) {
      const end15 = Math.min(end255, s + 15);
      // 4-bit lanes.
      let l0 = 0, l1 = 0, l2 = 0, l3 = 0, h0 = 0, h1 = 0, h2 = 0, h3 = 0;
      for (; s < end15; s++) {
        const lo = loArr[s];
        const hi = hiArr[s];
        l0 = (l0 + (lo & 0x11111111)) | 0;
        l1 = (l1 + ((lo >>> 1) & 0x11111111)) | 0;
        l2 = (l2 + ((lo >>> 2) & 0x11111111)) | 0;
        l3 = (l3 + ((lo >>> 3) & 0x11111111)) | 0;
        h0 = (h0 + (hi & 0x11111111)) | 0;
        h1 = (h1 + ((hi >>> 1) & 0x11111111)) | 0;
        h2 = (h2 + ((hi >>> 2) & 0x11111111)) | 0;
        h3 = (h3 + ((hi >>> 3) & 0x11111111)) | 0;
      }
      l0e = (l0e + (l0 & 0x0f0f0f0f)) | 0;
      l0o = (l0o + ((l0 >>> 4) & 0x0f0f0f0f)) | 0;
      l1e = (l1e + (l1 & 0x0f0f0f0f)) | 0;
      l1o = (l1o + ((l1 >>> 4) & 0x0f0f0f0f)) | 0;
      l2e = (l2e + (l2 & 0x0f0f0f0f)) | 0;
      l2o = (l2o + ((l2 >>> 4) & 0x0f0f0f0f)) | 0;
      l3e = (l3e + (l3 & 0x0f0f0f0f)) | 0;
      l3o = (l3o + ((l3 >>> 4) & 0x0f0f0f0f)) | 0;
      h0e = (h0e + (h0 & 0x0f0f0f0f)) | 0;
      h0o = (h0o + ((h0 >>> 4) & 0x0f0f0f0f)) | 0;
      h1e = (h1e + (h1 & 0x0f0f0f0f)) | 0;
      h1o = (h1o + ((h1 >>> 4) & 0x0f0f0f0f)) | 0;
      h2e = (h2e + (h2 & 0x0f0f0f0f)) | 0;
      h2o = (h2o + ((h2 >>> 4) & 0x0f0f0f0f)) | 0;
      h3e = (h3e + (h3 & 0x0f0f0f0f)) | 0;
      h3o = (h3o + ((h3 >>> 4) & 0x0f0f0f0f)) | 0;
    }
    flushLanes(l0e, 0); flushLanes(l1e, 1); flushLanes(l2e, 2); flushLanes(l3e, 3);
    flushLanes(l0o, 4); flushLanes(l1o, 5); flushLanes(l2o, 6); flushLanes(l3o, 7);
    flushLanes(h0e, 32); flushLanes(h1e, 33); flushLanes(h2e, 34); flushLanes(h3e, 35);
    flushLanes(h0o, 36); flushLanes(h1o, 37); flushLanes(h2o, 38); flushLanes(h3o, 39);
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

/** Scratch of bottomK: the values under its threshold, and the same sorted. */
let candidates = new Uint32Array(256);
let sorted = new Uint32Array(256);
const TWO_32 = 4294967296;

/**
 * The k smallest of `count` values (high halves of distinct shingles), ascending, without
 * repeats. The values are uniform hashes, so the k-th smallest lies near k / count of their
 * range: only the values under a threshold a little above that (about 1.25 k + 8 of them) are
 * kept and sorted; in the rare case fewer than k fall under it, the threshold doubles and they are
 * taken again. The k smallest of those are the k smallest of all.
 */
function bottomK(values: Uint32Array, count: number, k: number): Uint32Array {
  if (k <= 0) return new Uint32Array(0);
  let limit = count <= k ? TWO_32 : Math.min(TWO_32, Math.ceil(((k * 1.25 + 8) / count) * TWO_32));
  let m: number;
  for (;;) {
    m = valuesBelow(values, count, limit);
    if (m >= k || m === count) break;
    limit = Math.min(TWO_32, limit * 2);
  }
  sortBelow(m, limit);
  return dedupeSorted(sorted.slice(0, Math.min(k, m)));
}

/** Copies the values under `limit` into `candidates`; returns how many. */
function valuesBelow(values: Uint32Array, count: number, limit: number): number {
  if (candidates.length < count) {
    candidates = new Uint32Array(Math.max(count, candidates.length * 2));
    sorted = new Uint32Array(candidates.length);
  }
  const out = candidates;
  let m = 0;
  for (let s = 0; s < count; s++) {
    const v = values[s];
    if (v < limit) out[m++] = v;
  }
  return m;
}

/** Bucket start offsets of sortBelow (one spare entry). */
let buckets = new Int32Array(257);

/**
 * Sorts candidates[0, m), all uniform in [0, limit), into `sorted`: a counting sort on the value's
 * position in [0, limit) (about one value per bucket), then an insertion sort that only has to
 * swap the few neighbours that shared a bucket. Linear time on hash values, where a comparison
 * sort of a typed array costs far more for these small arrays.
 */
function sortBelow(m: number, limit: number): void {
  let nb = 16;
  while (nb < m) nb *= 2;
  if (buckets.length < nb + 1) buckets = new Int32Array(nb + 1);
  const start = buckets;
  start.fill(0, 0, nb + 1);
  const scale = nb / limit;
  const from = candidates;
  for (let s = 0; s < m; s++) start[Math.floor(from[s] * scale) + 1]++;
  for (let b = 1; b <= nb; b++) start[b] += start[b - 1];
  const to = sorted;
  for (let s = 0; s < m; s++) {
    const v = from[s];
    to[start[Math.floor(v * scale)]++] = v;
  }
  for (let s = 1; s < m; s++) {
    const v = to[s];
    let j = s - 1;
    while (j >= 0 && to[j] > v) {
      to[j + 1] = to[j];
      j--;
    }
    to[j + 1] = v;
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
