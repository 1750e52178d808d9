import { strict as assert } from 'node:assert';
import { hammingDistance } from '../../../../src/core/index/hamming';
import { SimHashIndex } from '../../../../src/core/index/simhashIndex';
import { allPairsBatch } from '../../../../src/core/index/allPairs';
import { planBlocks } from '../../../../src/core/index/blockLayout';
import { mulberry32Uint as mulberry32 } from '../../helpers/random';

interface Fp {
  hi: number;
  lo: number;
}

/** `fp` with exactly `d` distinct bits flipped (bits 0..31 in lo, 32..63 in hi). */
function flip(rnd: () => number, fp: Fp, d: number): Fp {
  const bits = new Set<number>();
  while (bits.size < d) bits.add(rnd() % 64);
  let { hi, lo } = fp;
  for (const b of bits) {
    if (b >= 32) hi ^= 1 << (b - 32);
    else lo ^= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

const dist = (a: Fp, b: Fp) => hammingDistance(a.hi, a.lo, b.hi, b.lo);

type Pair = { a: number; b: number; distance: number };

function brutePairs(ids: number[], fps: Fp[], k: number): Pair[] {
  const out: Pair[] = [];
  for (let i = 0; i < fps.length; i++) {
    for (let j = i + 1; j < fps.length; j++) {
      const d = dist(fps[i], fps[j]);
      if (d <= k) out.push(ids[i] < ids[j] ? { a: ids[i], b: ids[j], distance: d } : { a: ids[j], b: ids[i], distance: d });
    }
  }
  return out.sort((p, q) => p.distance - q.distance || p.a - q.a || p.b - q.b);
}

function bruteQuery(items: Map<number, Fp>, q: Fp, k: number): Array<{ id: number; distance: number }> {
  const out: Array<{ id: number; distance: number }> = [];
  for (const [id, fp] of items) {
    const d = dist(q, fp);
    if (d <= k) out.push({ id, distance: d });
  }
  return out.sort((x, y) => x.distance - y.distance || x.id - y.id);
}

function interleave(fps: Fp[]): Uint32Array {
  const fp = new Uint32Array(2 * fps.length);
  fps.forEach((f, i) => {
    fp[2 * i] = f.hi;
    fp[2 * i + 1] = f.lo;
  });
  return fp;
}

function sortedBatch(fps: Fp[], k: number, options?: { blocks?: number }): Pair[] {
  const list = allPairsBatch(interleave(fps), k, options);
  const out: Pair[] = [];
  for (let i = 0; i < list.length; i++) {
    assert.ok(list.a[i] < list.b[i], 'a < b');
    out.push({ a: list.a[i], b: list.b[i], distance: list.distance[i] });
  }
  return out.sort((p, q) => p.distance - q.distance || p.a - q.a || p.b - q.b);
}

/**
 * Random fingerprints plus planted pairs at distances k−1, k and k+1 (`planted` of each), and a
 * few small families derived from one another (chains within ~k).
 */
function dataset(seed: number, random: number, k: number, planted = 25) {
  const rnd = mulberry32(seed);
  const fps: Fp[] = [];
  for (let i = 0; i < random; i++) fps.push({ hi: rnd(), lo: rnd() });
  const plantedPairs: Array<{ i: number; j: number; d: number }> = [];
  for (const d of [k - 1, k, k + 1]) {
    if (d < 0) continue;
    for (let c = 0; c < planted; c++) {
      const base = { hi: rnd(), lo: rnd() };
      fps.push(base, flip(rnd, base, d));
      plantedPairs.push({ i: fps.length - 2, j: fps.length - 1, d });
    }
  }
  for (let f = 0; f < 10; f++) {
    let cur = { hi: rnd(), lo: rnd() };
    for (let m = 0; m < 5; m++) {
      fps.push(cur);
      cur = flip(rnd, cur, Math.max(1, (rnd() % (k + 2)) >> 1));
    }
  }
  return { fps, plantedPairs };
}

const hasPair = (pairs: Pair[], a: number, b: number) => pairs.some((p) => p.a === Math.min(a, b) && p.b === Math.max(a, b));

describe('planBlocks', () => {
  it('chooses b > k, C(b, k) tables within the cap, and more blocks for more items', () => {
    assert.deepEqual(
      { ...planBlocks(0, 1000), estimatedWork: 0 },
      { blocks: 1, tables: 1, estimatedWork: 0 },
    );
    const small = planBlocks(3, 10_000);
    assert.deepEqual([small.blocks, small.tables], [4, 4]);
    const large = planBlocks(3, 1_000_000);
    assert.deepEqual([large.blocks, large.tables], [5, 10]);
    const k6 = planBlocks(6, 100_000);
    assert.deepEqual([k6.blocks, k6.tables], [8, 28]);
    for (const n of [100, 10_000, 1_000_000]) {
      for (let k = 0; k <= 20; k++) {
        const p = planBlocks(k, n, { maxTables: 40 });
        assert.ok(p.blocks === 0 || (p.blocks > k && p.tables <= 40), `k=${k} n=${n}`);
      }
    }
  });

  it('falls back to a linear scan when no layout beats it', () => {
    assert.equal(planBlocks(20, 1_000_000).blocks, 0);
    assert.equal(planBlocks(3, 2).blocks, 0);
  });
});

describe('allPairsBatch', () => {
  it('equals brute force at k = 12 with many tables (b = 15: 455, b = 16: 1820)', () => {
    const { fps } = dataset(1012, 1500, 12);
    const expected = brutePairs(fps.map((_, i) => i), fps, 12);
    for (const blocks of [15, 16]) assert.deepEqual(sortedBatch(fps, 12, { blocks }), expected, `b = ${blocks}`);
  });

  for (const k of [0, 3, 6, 10, 12]) {
    it(`equals brute force at k = ${k}, including pairs at exactly k and not at k + 1`, () => {
      const { fps, plantedPairs } = dataset(1000 + k, 1500, k);
      const ids = fps.map((_, i) => i);
      const expected = brutePairs(ids, fps, k);
      const got = sortedBatch(fps, k);
      assert.deepEqual(got, expected);
      for (const p of plantedPairs) {
        assert.equal(hasPair(got, p.i, p.j), p.d <= k, `planted pair at distance ${p.d}`);
      }
      assert.ok(got.some((p) => p.distance === k), 'some pair at exactly k');
    });
  }

  const layouts: Array<[number, number[]]> = [
    [0, [1, 2, 5]],
    [1, [2, 3]],
    [3, [4, 5, 6, 8]],
    [6, [7, 8, 9]],
    [10, [11, 12]],
  ];
  for (const [k, blockChoices] of layouts) {
    it(`equals brute force at k = ${k} with every forced block count ${blockChoices.join(', ')}`, () => {
      const { fps } = dataset(77 + k, 600, k, 10);
      const expected = brutePairs(
        fps.map((_, i) => i),
        fps,
        k,
      );
      for (const blocks of blockChoices) assert.deepEqual(sortedBatch(fps, k, { blocks }), expected, `b = ${blocks}`);
    });
  }

  it('splits large groups by a second block (tables sharing two kept blocks): same pairs as other layouts', () => {
    // 40,000 items at k = 6 with 9 blocks (7 bits each): level-1 groups of ~300 items, above the
    // split threshold, so tables sharing their first two kept blocks hash the parts (scanFamily);
    // 7 blocks (one kept block per table) never split. Copies and near copies included.
    const k = 6;
    const { fps, plantedPairs } = dataset(77, 40000, k, 40);
    const rnd = mulberry32(78);
    for (let c = 0; c < 30; c++) fps.push({ ...fps[rnd() % 1000] }); // copies
    const split = sortedBatch(fps, k, { blocks: 9 });
    assert.deepEqual(split, sortedBatch(fps, k, { blocks: 7 }));
    for (const p of split) assert.equal(dist(fps[p.a], fps[p.b]), p.distance);
    for (const p of plantedPairs) assert.equal(hasPair(split, p.i, p.j), dist(fps[p.i], fps[p.j]) <= k, `planted at ${p.d}`);
    assert.ok(split.length >= 40 * 2 + 30);
  });

  it('reports hundreds of identical fingerprints and their near neighbours once each', () => {
    const rnd = mulberry32(5);
    const x = { hi: rnd(), lo: rnd() };
    // y differs from x in the last block only, so table 0 (which drops blocks 0..k−1) cannot
    // report x–y: a later table must, and expand it to all copies of both.
    const y = { hi: x.hi, lo: (x.lo ^ 0b111) >>> 0 };
    const z = flip(rnd, x, 2);
    const fps: Fp[] = [];
    for (let i = 0; i < 300; i++) fps.push(x);
    for (let i = 0; i < 120; i++) fps.push(y);
    fps.push(z);
    for (let i = 0; i < 200; i++) fps.push({ hi: rnd(), lo: rnd() });
    // shuffle so that copies are not adjacent
    for (let i = fps.length - 1; i > 0; i--) {
      const j = rnd() % (i + 1);
      [fps[i], fps[j]] = [fps[j], fps[i]];
    }
    const ids = fps.map((_, i) => i);
    const key = (pairs: Pair[]) => pairs.map((p) => `${p.a},${p.b},${p.distance}`).join(' ');
    for (const [k, blocks] of [[0, undefined], [3, undefined], [3, 5], [6, undefined], [6, 9]]) {
      const expected = brutePairs(ids, fps, k!);
      const got = sortedBatch(fps, k!, { blocks });
      assert.equal(got.length, expected.length, `k = ${k}, b = ${blocks}`);
      assert.ok(key(got) === key(expected), `k = ${k}, b = ${blocks}`);
    }
    // 300·299/2 + 120·119/2 identical pairs; at k = 3 also x–y (3), x–z (2) and y–z if within 3.
    const within3 = sortedBatch(fps, 3);
    assert.equal(within3.filter((p) => p.distance === 0).length, 44850 + 7140);
    assert.equal(within3.filter((p) => p.distance === 3 && dist(fps[p.a], x) + dist(fps[p.b], x) === 3).length, 300 * 120);
  });

  it('handles empty, single and two-item inputs', () => {
    assert.equal(allPairsBatch(new Uint32Array(0), 3).length, 0);
    assert.equal(allPairsBatch(new Uint32Array([1, 2]), 3).length, 0);
    const two = allPairsBatch(new Uint32Array([1, 2, 1, 3]), 1);
    assert.deepEqual([two.length, two.a[0], two.b[0], two.distance[0]], [1, 0, 1, 1]);
    assert.throws(() => allPairsBatch(new Uint32Array(3), 1), RangeError);
    assert.throws(() => allPairsBatch(new Uint32Array(4), 21), RangeError);
    assert.throws(() => allPairsBatch(new Uint32Array(4), 3, { blocks: 3 }), RangeError);
  });
});

describe('SimHashIndex', () => {
  it('rejects radii and ids out of range', () => {
    assert.throws(() => new SimHashIndex({ maxDistance: 21 }), RangeError);
    assert.throws(() => new SimHashIndex({ maxDistance: -1 }), RangeError);
    assert.throws(() => new SimHashIndex({ maxDistance: 1.5 }), RangeError);
    const index = new SimHashIndex({ maxDistance: 3 });
    assert.throws(() => index.query(0, 0, 4), RangeError);
    assert.throws(() => index.allPairs(4), RangeError);
    assert.throws(() => index.add(-1, 0, 0), RangeError);
    assert.throws(() => index.add(0.5, 0, 0), RangeError);
    assert.deepEqual(index.query(0, 0), []);
    assert.deepEqual(index.allPairs(), []);
  });

  for (const k of [0, 3, 6, 10]) {
    it(`query and allPairs equal brute force at k = ${k} (and at smaller radii)`, () => {
      const { fps, plantedPairs } = dataset(2000 + k, 2000, k);
      const rnd = mulberry32(k);
      // sparse ids, added in a shuffled order
      const ids = fps.map((_, i) => 3 * i + 7);
      const index = new SimHashIndex({ maxDistance: k, expectedSize: fps.length });
      const order = fps.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = rnd() % (i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      for (const i of order) index.add(ids[i], fps[i].hi, fps[i].lo);
      assert.equal(index.size, fps.length);

      const all = index.allPairs();
      assert.deepEqual(all, brutePairs(ids, fps, k));
      for (const p of plantedPairs) assert.equal(hasPair(all, ids[p.i], ids[p.j]), p.d <= k);

      const items = new Map(ids.map((id, i) => [id, fps[i]] as [number, Fp]));
      for (let q = 0; q < 150; q++) {
        const base = fps[rnd() % fps.length];
        const probe = q % 3 === 0 ? { hi: rnd(), lo: rnd() } : flip(rnd, base, rnd() % (k + 2));
        assert.deepEqual(index.query(probe.hi, probe.lo), bruteQuery(items, probe, k));
        if (k > 0) {
          const smaller = rnd() % k;
          assert.deepEqual(index.query(probe.hi, probe.lo, smaller), bruteQuery(items, probe, smaller), `k' = ${smaller}`);
        }
      }
      if (k > 0) assert.deepEqual(index.allPairs(k - 1), brutePairs(ids, fps, k - 1));
    });
  }

  it('query equals brute force with every forced block count', () => {
    const k = 4;
    const { fps } = dataset(31, 800, k, 10);
    const items = new Map(fps.map((f, i) => [i, f] as [number, Fp]));
    const rnd = mulberry32(9);
    for (const blocks of [5, 6, 7, 9]) {
      const index = new SimHashIndex({ maxDistance: k, blocks });
      fps.forEach((f, i) => index.add(i, f.hi, f.lo));
      for (let q = 0; q < 60; q++) {
        const probe = flip(rnd, fps[rnd() % fps.length], rnd() % (k + 2));
        const kq = rnd() % (k + 1);
        assert.deepEqual(index.query(probe.hi, probe.lo, kq), bruteQuery(items, probe, kq), `b = ${blocks}, k = ${kq}`);
      }
    }
  });

  it('stays equal to brute force through adds, replacements and removals', () => {
    const k = 5;
    const rnd = mulberry32(42);
    const index = new SimHashIndex({ maxDistance: k, expectedSize: 16 });
    const model = new Map<number, Fp>();
    const pool: Fp[] = [];
    const fresh = (): Fp => {
      // often near an earlier fingerprint, so that there is something to find
      const fp = pool.length > 0 && rnd() % 2 === 0 ? flip(rnd, pool[rnd() % pool.length], rnd() % (k + 3)) : { hi: rnd(), lo: rnd() };
      pool.push(fp);
      return fp;
    };
    const check = (label: string, queries: number) => {
      assert.equal(index.size, model.size, label);
      for (let q = 0; q < queries; q++) {
        const probe = pool.length > 0 && q % 2 === 0 ? flip(rnd, pool[rnd() % pool.length], rnd() % (k + 1)) : { hi: rnd(), lo: rnd() };
        const kq = rnd() % (k + 1);
        assert.deepEqual(index.query(probe.hi, probe.lo, kq), bruteQuery(model, probe, kq), label);
      }
    };
    let nextId = 0;
    for (let step = 0; step < 6000; step++) {
      const r = rnd() % 10;
      const ids = [...model.keys()];
      if (r < 5 || ids.length < 10) {
        const fp = fresh();
        index.add(nextId, fp.hi, fp.lo);
        model.set(nextId++, fp);
      } else if (r < 7) {
        const id = ids[rnd() % ids.length];
        const fp = fresh();
        index.add(id, fp.hi, fp.lo); // replace
        model.set(id, fp);
      } else if (r < 9) {
        const id = ids[rnd() % ids.length];
        assert.equal(index.remove(id), true);
        model.delete(id);
        assert.equal(index.has(id), false);
      } else {
        assert.equal(index.remove(1_000_000 + step), false);
      }
      // Frequent queries: some land while added items are still pending, some right after a
      // merge, a compaction or a rebuild.
      if (step % 7 === 0) check(`step ${step}`, 2);
    }
    check('end', 50);
    const ids = [...model.keys()];
    assert.deepEqual(
      index.allPairs(),
      brutePairs(
        ids,
        ids.map((id) => model.get(id)!),
        k,
      ),
    );
    // Remove everything, then reuse the index.
    for (const id of ids) index.remove(id);
    assert.equal(index.size, 0);
    assert.deepEqual(index.query(1, 2), []);
    index.add(5, 0xffffffff, 0);
    index.add(6, 0xffffffff, 1);
    assert.deepEqual(index.query(0xffffffff, 0), [
      { id: 5, distance: 0 },
      { id: 6, distance: 1 },
    ]);
  });

  it('queryMany equals one query per fingerprint, with items pending, merged and removed', () => {
    const k = 6;
    const rnd = mulberry32(77);
    const { fps } = dataset(5, 3000, k, 30);
    const index = new SimHashIndex({ maxDistance: k });
    const model = new Map<number, Fp>();
    fps.forEach((f, i) => {
      index.add(i, f.hi, f.lo);
      model.set(i, f);
    });
    index.prepare();
    assert.ok(index.queryLayout && index.queryLayout.tables > 1);
    for (let round = 0; round < 8; round++) {
      // Some changes (they stay pending, or get merged / compacted by the next call).
      for (let c = 0; c < 40 * round; c++) {
        const id = rnd() % (fps.length + 500);
        if (rnd() % 3 === 0) {
          index.remove(id);
          model.delete(id);
        } else {
          const f = flip(rnd, fps[rnd() % fps.length], rnd() % (k + 2));
          index.add(id, f.hi, f.lo);
          model.set(id, f);
        }
      }
      const probes: Fp[] = [];
      for (let q = 0; q < 25; q++) probes.push(q % 5 === 0 ? { hi: rnd(), lo: rnd() } : flip(rnd, fps[rnd() % fps.length], rnd() % (k + 2)));
      for (const kq of [k, 2]) {
        const many = index.queryMany(interleave(probes), kq);
        assert.equal(many.length, probes.length);
        probes.forEach((p, q) => {
          assert.deepEqual(many[q], index.query(p.hi, p.lo, kq), `round ${round}, probe ${q}`);
          assert.deepEqual(many[q], bruteQuery(model, p, kq), `round ${round}, probe ${q}, brute force`);
        });
      }
    }
    assert.deepEqual(index.queryMany([]), []);
    assert.throws(() => index.queryMany([1]), RangeError);
  });

  it('maxTableBytes caps the layout (down to maxDistance + 1 tables); results stay exact', () => {
    const k = 10;
    const { fps } = dataset(8, 4000, k, 20);
    const items = new Map(fps.map((f, i) => [i, f] as [number, Fp]));
    const free = new SimHashIndex({ maxDistance: k, maxTables: 128 });
    const capped = new SimHashIndex({ maxDistance: k, maxTables: 128, maxTableBytes: 1 });
    fps.forEach((f, i) => {
      free.add(i, f.hi, f.lo);
      capped.add(i, f.hi, f.lo);
    });
    free.prepare();
    capped.prepare();
    assert.ok(free.queryLayout!.tables > k + 1, `unconstrained: ${JSON.stringify(free.queryLayout)}`);
    assert.deepEqual(capped.queryLayout, { blocks: k + 1, tables: k + 1 });
    const rnd = mulberry32(4);
    for (let q = 0; q < 100; q++) {
      const probe = flip(rnd, fps[rnd() % fps.length], rnd() % (k + 2));
      const expected = bruteQuery(items, probe, k);
      assert.deepEqual(free.query(probe.hi, probe.lo), expected);
      assert.deepEqual(capped.query(probe.hi, probe.lo), expected);
    }
    assert.throws(() => new SimHashIndex({ maxDistance: 3, maxTableBytes: 0 }), RangeError);
  });

  it('finds identical fingerprints, each pair once', () => {
    const index = new SimHashIndex({ maxDistance: 2 });
    for (let i = 0; i < 150; i++) index.add(i, 0xabcdef01, 0x23456789);
    index.add(150, 0xabcdef01, 0x23456788);
    index.add(151, 0x12345678, 0x9abcdef0);
    const hits = index.query(0xabcdef01, 0x23456789);
    assert.equal(hits.length, 151);
    assert.deepEqual(hits[150], { id: 150, distance: 1 });
    assert.deepEqual(
      hits.slice(0, 150).map((h) => h.id),
      Array.from({ length: 150 }, (_, i) => i),
    );
    const pairs = index.allPairs();
    assert.equal(pairs.length, (150 * 149) / 2 + 150);
    assert.equal(new Set(pairs.map((p) => `${p.a},${p.b}`)).size, pairs.length);
    assert.deepEqual(index.allPairs(0).length, (150 * 149) / 2);
  });

  it('works for large radii through the linear scan', () => {
    const rnd = mulberry32(3);
    const fps: Fp[] = [];
    for (let i = 0; i < 300; i++) fps.push(i % 2 === 0 ? { hi: rnd(), lo: rnd() } : flip(rnd, fps[i - 1], 20));
    const index = new SimHashIndex({ maxDistance: 20 });
    fps.forEach((f, i) => index.add(i, f.hi, f.lo));
    const items = new Map(fps.map((f, i) => [i, f] as [number, Fp]));
    assert.deepEqual(index.query(fps[0].hi, fps[0].lo), bruteQuery(items, fps[0], 20));
    assert.deepEqual(
      index.allPairs(),
      brutePairs(
        fps.map((_, i) => i),
        fps,
        20,
      ),
    );
  });
});

describe('allPairsBatch accept filter', () => {
  it('counts only accepted pairs towards maxPairs', () => {
    // 60 identical fingerprints: 1,770 pairs; accept only pairs whose smaller id is even.
    const fp = new Uint32Array(120).fill(0x5a5a5a5a);
    const all = allPairsBatch(fp, 3, { accept: (a) => a % 2 === 0 });
    let expected = 0;
    for (let a = 0; a < 60; a += 2) expected += 59 - a;
    assert.equal(all.length, expected);
    assert.equal(all.truncated, false);
    for (let i = 0; i < all.length; i++) assert.equal(all.a[i] % 2, 0);
    const capped = allPairsBatch(fp, 3, { maxPairs: expected, accept: (a) => a % 2 === 0 });
    assert.equal(capped.length, expected, 'rejected candidates do not use up the cap');
    assert.equal(capped.truncated, false);
  });
});
