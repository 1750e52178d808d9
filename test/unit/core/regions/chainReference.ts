// The reference of the region finder's chaining (test only): src/core/regions/chain.ts'
// bucketChains does, in reused typed arrays, what chainSeeds then joinChains below do with an
// array per chain; they are its readable statement, and chain.test.ts holds bucketChains to them
// on random buckets (they were the product's code before bucketChains).
import type { ChainOptions } from '../../../../src/core/regions/chain';

export interface Chain {
  /** Seeds in order: a0, b0, a1, b1, … (a and b both increasing). */
  seeds: number[];
}

/**
 * Chains of the seeds of one pair of documents (flat pairs a0, b0, a1, b1, …; any order).
 * `self`: the documents are one document (then a < b in every seed, and a chain whose sides
 * would overlap is cut where they meet).
 */
export function chainSeeds(pairs: ArrayLike<number>, options: ChainOptions, self = false): Chain[] {
  const m = pairs.length >> 1;
  const order = new Uint32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < m && sorted; i++) sorted = pairs[2 * i - 2] < pairs[2 * i] || (pairs[2 * i - 2] === pairs[2 * i] && pairs[2 * i - 1] <= pairs[2 * i + 1]);
  if (!sorted) order.sort((x, y) => pairs[2 * x] - pairs[2 * y] || pairs[2 * x + 1] - pairs[2 * y + 1]);
  const open: { seeds: number[]; lastA: number; lastB: number }[] = [];
  const done: Chain[] = [];
  let prevA = -1;
  let prevB = -1;
  for (let r = 0; r < m; r++) {
    const a = pairs[2 * order[r]];
    const b = pairs[2 * order[r] + 1];
    if (a === prevA && b === prevB) continue; // the same pair from another stream
    prevA = a;
    prevB = b;
    let best = -1;
    let bestCost = Infinity;
    for (let c = 0; c < open.length; c++) {
      const ch = open[c];
      if (ch.lastA + options.maxGap < a) {
        // Too far behind: no later seed can continue it either.
        done.push({ seeds: ch.seeds });
        open[c] = open[open.length - 1];
        open.pop();
        c--;
        continue;
      }
      const da = a - ch.lastA;
      const db = b - ch.lastB;
      if (da <= 0 || db <= 0 || db > options.maxGap) continue;
      const drift = Math.abs(db - da);
      if (drift > options.maxDrift + options.driftRate * Math.max(da, db)) continue;
      if (self && a >= ch.seeds[1]) continue; // side a would run into side b
      const cost = drift * 4 + da;
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    if (best >= 0) {
      const ch = open[best];
      ch.seeds.push(a, b);
      ch.lastA = a;
      ch.lastB = b;
    } else {
      open.push({ seeds: [a, b], lastA: a, lastB: b });
    }
  }
  for (const ch of open) done.push({ seeds: ch.seeds });
  done.sort((x, y) => x.seeds[0] - y.seeds[0] || x.seeds[1] - y.seeds[1]);
  return done;
}

/**
 * Joins chains that follow each other on both sides within `joinGap` tokens, whatever their
 * diagonals: a deleted or inserted line shifts the diagonal by more than a chain step allows, and
 * would otherwise cut one copy into two regions. Chains in order of their first seed; each joins
 * the earlier (joined) chain it follows with the smallest gap. Only chains of at least `minSeeds`
 * seeds join, and only where `explains` says the tokens between them are an insertion or a
 * deletion (see indelExplains): a common statement shape next to a copy must not pull unrelated
 * code into it.
 */
export function joinChains(chains: Chain[], joinGap: number, self = false, minSeeds = 3, explains: (la: number, lb: number, a: number, b: number) => boolean = () => true): Chain[] {
  const sorted = chains.slice().sort((x, y) => x.seeds[0] - y.seeds[0] || x.seeds[1] - y.seeds[1]);
  const out: Chain[] = [];
  for (const c of sorted) {
    const a = c.seeds[0];
    const b = c.seeds[1];
    let best = -1;
    let bestGap = Infinity;
    for (let i = 0; i < out.length && c.seeds.length >= 2 * minSeeds; i++) {
      const s = out[i].seeds;
      if (s.length < 2 * minSeeds) continue;
      const la = s[s.length - 2];
      const lb = s[s.length - 1];
      const ga = a - la;
      const gb = b - lb;
      if (ga <= 0 || gb <= 0 || ga > joinGap || gb > joinGap) continue;
      if (self && c.seeds[c.seeds.length - 2] >= s[1]) continue;
      if (!explains(la, lb, a, b)) continue;
      if (ga + gb < bestGap) {
        bestGap = ga + gb;
        best = i;
      }
    }
    if (best >= 0) out[best] = { seeds: out[best].seeds.concat(c.seeds) };
    else out.push({ seeds: c.seeds.slice() });
  }
  return out;
}
