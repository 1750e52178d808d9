import { strict as assert } from 'node:assert';
import { hammingDistance } from '../../../../src/core/index/hamming';
import { SimHashIndex } from '../../../../src/core/index/simhashIndex';
import { SubstringTables, substringCost, substringRadii } from '../../../../src/core/index/substringIndex';
import { mulberry32Uint as mulberry32 } from '../../helpers/random';

/** A store of n fingerprints: clusters around a few centres (so matches exist at every distance) plus random ones. */
function store(rnd: () => number, n: number): Uint32Array {
  const fp = new Uint32Array(2 * n);
  for (let s = 0; s < n; s++) {
    if (s > 0 && s % 3 === 0) {
      const c = rnd() % s;
      let hi = fp[2 * c];
      let lo = fp[2 * c + 1];
      const d = rnd() % 16;
      for (let j = 0; j < d; j++) {
        const b = rnd() % 64;
        if (b >= 32) hi ^= 1 << (b - 32);
        else lo ^= 1 << b;
      }
      fp[2 * s] = hi >>> 0;
      fp[2 * s + 1] = lo >>> 0;
    } else {
      fp[2 * s] = rnd();
      fp[2 * s + 1] = rnd();
    }
  }
  return fp;
}

function naive(fp: Uint32Array, n: number, hi: number, lo: number, k: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < n; s++) {
    const d = hammingDistance(hi, lo, fp[2 * s], fp[2 * s + 1]);
    if (d <= k) out.push(`${s}:${d}`);
  }
  return out.sort();
}

describe('substringIndex', () => {
  it('radii cover every distance by pigeonhole: Σ (r_i + 1) > k', () => {
    for (let k = 0; k <= 20; k++) {
      const r = substringRadii(k);
      assert.equal(r.length, 4);
      assert.ok(r.reduce((a, x) => a + x + 1, 0) > k, `k = ${k}: ${r}`);
      assert.ok(Math.max(...r) - Math.min(...r) <= 1);
    }
    assert.deepEqual(substringRadii(10), [2, 2, 2, 1]);
    assert.ok(substringCost(10, 250_000) < substringCost(10, 500_000));
  });

  for (const n of [1, 500, 5000]) {
    for (const k of [0, 3, 6, 10, 14]) {
      it(`finds exactly the naive set, each once (n = ${n}, k = ${k})`, () => {
        const rnd = mulberry32(n * 31 + k);
        const fp = store(rnd, n);
        const tables = new SubstringTables(fp, n);
        for (let q = 0; q < 40; q++) {
          const from = q % 2 === 0 ? rnd() % n : -1;
          const hi = from >= 0 ? (fp[2 * from] ^ (1 << rnd() % 32)) >>> 0 : rnd();
          const lo = from >= 0 ? fp[2 * from + 1] : rnd();
          const got: string[] = [];
          tables.query(fp, hi, lo, k, (s, d) => got.push(`${s}:${d}`));
          got.sort();
          assert.deepEqual(got, naive(fp, n, hi, lo, k));
        }
      });
    }
  }

  it('SimHashIndex answers through them at 20k items and k = 10, the same as a naive check, across adds and removes', () => {
    const rnd = mulberry32(7);
    const n = 20_000;
    const fp = store(rnd, n);
    const index = new SimHashIndex({ maxDistance: 10 });
    for (let s = 0; s < n; s++) index.add(s, fp[2 * s], fp[2 * s + 1]);
    const check = (live: (s: number) => boolean) => {
      const qs: number[] = [];
      for (let q = 0; q < 30; q++) {
        const s = rnd() % n;
        qs.push(fp[2 * s], fp[2 * s + 1] ^ (1 << rnd() % 32));
      }
      for (const k of [10, 7, 2]) {
        const got = index.queryMany(qs, k);
        for (let q = 0; q < 30; q++) {
          const want = naive(fp, n, qs[2 * q], qs[2 * q + 1] >>> 0, k).filter((x) => live(Number(x.split(':')[0])));
          const have = got[q].map((x) => `${x.id}:${x.distance}`).sort();
          assert.deepEqual(have, want);
        }
      }
    };
    check(() => true);
    // Removes (tombstones, then a compaction) and re-adds (pending slots scanned linearly).
    for (let s = 0; s < n; s += 7) index.remove(s);
    check((s) => s % 7 !== 0);
    for (let s = 0; s < n; s += 14) index.add(s, fp[2 * s], fp[2 * s + 1]);
    check((s) => s % 7 !== 0 || s % 14 === 0);
  });
});
