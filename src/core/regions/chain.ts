/**
 * Chaining seeds along near-diagonals: the shared anchors of two documents, as position pairs
 * (a, b), become chains of pairs that advance on both sides, each step at most `maxGap` tokens
 * on either side and drifting off its diagonal (b − a) by at most maxDrift + driftRate × step —
 * insertions and deletions shift the diagonal a little, unrelated matches land far from it.
 * Greedy, in one sweep by position a: a seed joins the open chain it continues with the smallest
 * drift, or starts a new chain. Chains of one document with itself never overlap themselves.
 */

export interface ChainOptions {
  /** Largest step between two seeds of a chain, in tokens, on either side. */
  maxGap: number;
  /** Drift off the diagonal allowed per step: maxDrift + driftRate × the step's length. */
  maxDrift: number;
  driftRate: number;
}

/**
 * Whether the tokens between two chains, [la, a) on side a and [lb, b) on side b, are one
 * insertion or deletion: their common prefix and common suffix (by `same(i, j)`) together hold
 * all of the shorter gap but `slack` tokens (small edits next to the indel).
 */
export function indelExplains(la: number, lb: number, a: number, b: number, same: (i: number, j: number) => boolean, slack: number): boolean {
  const ga = a - la;
  const gb = b - lb;
  const short = Math.min(ga, gb);
  let p = 0;
  while (p < short && same(la + p, lb + p)) p++;
  let q = 0;
  while (q < short - p && same(a - 1 - q, b - 1 - q)) q++;
  return p + q + slack >= short;
}

/** The chains of one bucket, flat: chain j's seeds are seeds[2 × ends[j − 1] … 2 × ends[j]) (ends[−1] = 0). */
export interface FlatChains {
  /** a0, b0, a1, b1, … of every chain, chain after chain. */
  seeds: Int32Array;
  /** Seed count at the end of each chain (cumulative). */
  ends: Int32Array;
  count: number;
}

/** Scratch arrays of bucketChains, grown on demand (one thread's; a result is valid until the next call). */
let cap = 0;
let seedA = new Int32Array(0);
let seedB = new Int32Array(0);
let nextSeed = new Int32Array(0); // linked list of a chain's seeds (−1 ends it)
let head = new Int32Array(0);
let tail = new Int32Array(0);
let size = new Int32Array(0);
let firstA = new Int32Array(0);
let firstB = new Int32Array(0);
let lastA = new Int32Array(0);
let lastB = new Int32Array(0);
let open = new Int32Array(0);
let done = new Int32Array(0);
let out = new Int32Array(0);
let cand = new Int32Array(0);
let order = new Uint32Array(0);
let flatSeeds = new Int32Array(0);
let flatEnds = new Int32Array(0);

function ensure(m: number): void {
  if (m <= cap) return;
  cap = Math.max(m, 2 * cap, 1024);
  const i32 = () => new Int32Array(cap);
  [seedA, seedB, nextSeed, head, tail, size, firstA, firstB, lastA, lastB, open, done, out, cand, flatEnds] = Array.from({ length: 15 }, i32);
  order = new Uint32Array(cap);
  flatSeeds = new Int32Array(2 * cap);
}

/**
 * joinChains(chainSeeds(pairs, options, self), joinGap, self, minSeeds, explains), chain for chain
 * and seed for seed, without an object or array per chain: the region finder's per-bucket
 * chaining (a scan of the small bench tree makes ~390,000 chains). Chains are linked lists of
 * seeds in typed arrays, joined in place; chains that can no longer be joined (their last seed
 * more than joinGap behind the chain being placed: later chains start further on) are no longer
 * looked at. The unit tests check it against that reference (test/unit/core/regions/chainReference.ts) on random seeds.
 */
export function bucketChains(
  pairs: ArrayLike<number>,
  options: ChainOptions,
  self: boolean,
  joinGap: number,
  minSeeds: number,
  explains: (la: number, lb: number, a: number, b: number) => boolean,
): FlatChains {
  const m = pairs.length >> 1;
  ensure(m);
  const { maxGap, maxDrift, driftRate } = options;
  let sorted = true;
  for (let i = 1; i < m && sorted; i++) sorted = pairs[2 * i - 2] < pairs[2 * i] || (pairs[2 * i - 2] === pairs[2 * i] && pairs[2 * i - 1] <= pairs[2 * i + 1]);
  let ord: Uint32Array | null = null;
  if (!sorted) {
    ord = order.subarray(0, m);
    for (let i = 0; i < m; i++) ord[i] = i;
    ord.sort((x, y) => pairs[2 * x] - pairs[2 * y] || pairs[2 * x + 1] - pairs[2 * y + 1]);
  }
  // ---- chainSeeds: seeds kept (duplicates dropped) 0 … kept − 1, chains 0 … chains − 1
  let kept = 0;
  let chains = 0;
  let openLen = 0;
  let doneLen = 0;
  let prevA = -1;
  let prevB = -1;
  for (let r = 0; r < m; r++) {
    const i = ord ? ord[r] : r;
    const a = pairs[2 * i];
    const b = pairs[2 * i + 1];
    if (a === prevA && b === prevB) continue; // the same pair from another stream
    prevA = a;
    prevB = b;
    let best = -1;
    let bestCost = Infinity;
    for (let c = 0; c < openLen; c++) {
      const ch = open[c];
      if (lastA[ch] + maxGap < a) {
        // Too far behind: no later seed can continue it either.
        done[doneLen++] = ch;
        open[c] = open[--openLen];
        c--;
        continue;
      }
      const da = a - lastA[ch];
      const db = b - lastB[ch];
      if (da <= 0 || db <= 0 || db > maxGap) continue;
      const drift = Math.abs(db - da);
      if (drift > maxDrift + driftRate * Math.max(da, db)) continue;
      if (self && a >= firstB[ch]) continue; // side a would run into side b
      const cost = drift * 4 + da;
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    const s = kept++;
    seedA[s] = a;
    seedB[s] = b;
    nextSeed[s] = -1;
    if (best >= 0) {
      const ch = open[best];
      nextSeed[tail[ch]] = s;
      tail[ch] = s;
      size[ch]++;
      lastA[ch] = a;
      lastB[ch] = b;
    } else {
      const ch = chains++;
      head[ch] = tail[ch] = s;
      size[ch] = 1;
      firstA[ch] = lastA[ch] = a;
      firstB[ch] = lastB[ch] = b;
      open[openLen++] = ch;
    }
  }
  for (let c = 0; c < openLen; c++) done[doneLen++] = open[c];
  // First seeds are distinct (each seed is in one chain): any sort gives chainSeeds' order.
  const byStart = done.subarray(0, doneLen).sort((x, y) => firstA[x] - firstA[y] || firstB[x] - firstB[y]);

  // ---- joinChains: out holds the joined chains in order; cand, those still joinable (≥ minSeeds seeds, in out's order)
  let outLen = 0;
  let candLen = 0;
  for (let k = 0; k < doneLen; k++) {
    const c = byStart[k];
    const a = firstA[c];
    const b = firstB[c];
    let best = -1;
    let bestGap = Infinity;
    if (size[c] >= minSeeds) {
      let w = 0;
      for (let j = 0; j < candLen; j++) {
        const x = cand[j];
        const la = lastA[x];
        const ga = a - la;
        if (ga > joinGap) continue; // dropped: never joinable again
        cand[w++] = x;
        const gb = b - lastB[x];
        if (ga <= 0 || gb <= 0 || gb > joinGap) continue;
        if (self && lastA[c] >= firstB[x]) continue;
        if (!explains(la, lastB[x], a, b)) continue;
        if (ga + gb < bestGap) {
          bestGap = ga + gb;
          best = x;
        }
      }
      candLen = w;
    }
    if (best >= 0) {
      nextSeed[tail[best]] = head[c];
      tail[best] = tail[c];
      size[best] += size[c];
      lastA[best] = lastA[c];
      lastB[best] = lastB[c];
    } else {
      out[outLen++] = c;
      if (size[c] >= minSeeds) cand[candLen++] = c;
    }
  }
  // ---- flat, in out's order
  let at = 0;
  for (let j = 0; j < outLen; j++) {
    for (let s = head[out[j]]; s >= 0; s = nextSeed[s]) {
      flatSeeds[2 * at] = seedA[s];
      flatSeeds[2 * at + 1] = seedB[s];
      at++;
    }
    flatEnds[j] = at;
  }
  return { seeds: flatSeeds, ends: flatEnds, count: outLen };
}
