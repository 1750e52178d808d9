// Unit tests of src/core/regions/chain.ts' bucketChains: the region finder's per-bucket chaining
// in typed arrays gives joinChains(chainSeeds(…)) chain for chain and seed for seed — on random
// seeds along a few diagonals with noise, sorted or not, with repeated pairs, for two documents
// and for a document with itself, under several gaps and join rules.
import { strict as assert } from 'node:assert';
import { bucketChains, type FlatChains } from '../../../../src/core/regions/chain';
import { chainSeeds, joinChains } from './chainReference';
import { mulberry32 as rng } from '../../helpers/random';

/** Seeds of copies along a few diagonals (small drifts, gaps, repeats) and unrelated noise. */
function randomSeeds(r: () => number, self: boolean): number[] {
  const pairs: number[] = [];
  const copies = 1 + Math.floor(r() * 4);
  for (let c = 0; c < copies; c++) {
    let a = Math.floor(r() * 2000);
    let b = self ? a + 50 + Math.floor(r() * 2000) : Math.floor(r() * 2000);
    const n = 1 + Math.floor(r() * 60);
    for (let i = 0; i < n; i++) {
      pairs.push(a, b);
      if (r() < 0.1) pairs.push(a, b); // the same pair from the other stream
      const step = 1 + Math.floor(r() * (r() < 0.1 ? 60 : 12));
      a += step;
      b += step + (r() < 0.2 ? Math.floor(r() * 9) - 4 : 0);
    }
  }
  const noise = Math.floor(r() * 40);
  for (let i = 0; i < noise; i++) {
    const a = Math.floor(r() * 4000);
    pairs.push(a, self ? a + 1 + Math.floor(r() * 4000) : Math.floor(r() * 4000));
  }
  return pairs.filter((_, i) => !self || i % 2 === 1 || pairs[i] < pairs[i + 1]);
}

const sortPairs = (pairs: number[]): number[] => {
  const idx = Array.from({ length: pairs.length / 2 }, (_, i) => i);
  idx.sort((x, y) => pairs[2 * x] - pairs[2 * y] || pairs[2 * x + 1] - pairs[2 * y + 1]);
  return idx.flatMap((i) => [pairs[2 * i], pairs[2 * i + 1]]);
};

const flat = (f: FlatChains): number[][] => {
  const out: number[][] = [];
  for (let c = 0, from = 0; c < f.count; from = f.ends[c++]) out.push(Array.from(f.seeds.subarray(2 * from, 2 * f.ends[c])));
  return out;
};

describe('core/regions chain: bucketChains', () => {
  it('gives joinChains(chainSeeds(…)) on 3,000 random buckets (sorted or not, self or not, several options)', () => {
    const r = rng(12);
    let joined = 0;
    let chains = 0;
    for (let t = 0; t < 3000; t++) {
      const self = r() < 0.3;
      let pairs = randomSeeds(r, self);
      if (r() < 0.7) pairs = sortPairs(pairs);
      const options = { maxGap: [15, 40][t % 2], maxDrift: [2, 4][(t >> 1) % 2], driftRate: [0, 0.25][(t >> 2) % 2] };
      const joinGap = [0, 20, 40][t % 3];
      const minSeeds = [2, 3][(t >> 3) % 2];
      // An explanation of the gap that depends on where it is (as the token comparison does).
      const explains = (la: number, lb: number, a: number, b: number): boolean => (la * 7 + lb * 3 + a + b) % 5 !== 0;
      const expected = joinChains(chainSeeds(pairs, options, self), joinGap, self, minSeeds, explains).map((c) => c.seeds);
      const got = flat(bucketChains(pairs, options, self, joinGap, minSeeds, explains));
      assert.deepEqual(got, expected, `bucket ${t}`);
      chains += expected.length;
      joined += expected.filter((c) => c.length >= 2 * minSeeds).length;
    }
    assert.ok(chains > 10000 && joined > 1000, `the buckets have chains to join (${chains}, ${joined} long)`);
  });

  it('no seeds: no chains; one seed: one chain', () => {
    const o = { maxGap: 40, maxDrift: 4, driftRate: 0.25 };
    assert.equal(bucketChains([], o, false, 40, 3, () => true).count, 0);
    assert.deepEqual(flat(bucketChains([5, 9], o, false, 40, 3, () => true)), [[5, 9]]);
  });
});
