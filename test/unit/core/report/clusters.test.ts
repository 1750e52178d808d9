import { strict as assert } from 'node:assert';
import { UnionFind, clusterPairs } from '../../../../src/core/report/clusters';

describe('UnionFind', () => {
  it('works on sparse ids with union by size and path compression', () => {
    const uf = new UnionFind();
    assert.equal(uf.size, 0);
    assert.equal(uf.union(1_000_000_000, 5), true);
    assert.equal(uf.union(5, 42), true);
    assert.equal(uf.union(42, 1_000_000_000), false); // already together
    uf.add(7);
    assert.equal(uf.size, 4);
    assert.equal(uf.count, 2);
    assert.equal(uf.connected(42, 1_000_000_000), true);
    assert.equal(uf.connected(7, 5), false);
    assert.equal(uf.find(42), uf.find(5));
    assert.notEqual(uf.find(7), uf.find(5));
    assert.equal(uf.sizeOf(5), 3);
    assert.equal(uf.sizeOf(7), 1);
    assert.equal(uf.has(8), false);
    assert.deepEqual(uf.components(), [[5, 42, 1_000_000_000], [7]]);
  });

  it('keeps the larger set as the root and stays shallow on a long chain', () => {
    const uf = new UnionFind();
    uf.union(1, 2);
    uf.union(1, 3);
    const big = uf.find(1);
    uf.union(9, big); // a singleton joins the larger set
    assert.equal(uf.find(9), big);
    for (let i = 100; i < 20_100; i++) uf.union(i, i + 1);
    assert.equal(uf.sizeOf(100), 20_001);
    assert.equal(uf.find(100), uf.find(20_100));
    assert.equal(uf.count, 2);
  });
});

describe('clusterPairs', () => {
  it('groups a hand-made graph: members ascending, groups by (maxDistance, larger first, first member)', () => {
    const pairs = [
      { a: 1, b: 2, distance: 3 }, // A = {1, 2, 3}, max 3
      { a: 3, b: 2, distance: 1 },
      { a: 11, b: 10, distance: 0 }, // B = {10, 11}, max 0
      { a: 20, b: 21, distance: 2 }, // C = {20, 21, 22, 23}, max 2
      { a: 22, b: 23, distance: 1 },
      { a: 21, b: 22, distance: 2 },
      { a: 7, b: 5, distance: 2 }, // D = {5, 7}, max 2
      { a: 100, b: 101, distance: 1 }, // E = {100, 101, 102}, max 1
      { a: 101, b: 102, distance: 1 },
      { a: 100, b: 102, distance: 1 },
      { a: 200, b: 201, distance: 4 }, // F = {200, 201, 300, 301}: two parts joined by a 0 edge, max 4
      { a: 300, b: 301, distance: 1 },
      { a: 301, b: 200, distance: 0 },
      { a: 4, b: 6, distance: 2 }, // G = {4, 6}, max 2: same max and size as D, later first member
    ];
    assert.deepEqual(clusterPairs(pairs), [
      { members: [10, 11], maxDistance: 0 },
      { members: [100, 101, 102], maxDistance: 1 },
      { members: [20, 21, 22, 23], maxDistance: 2 },
      { members: [4, 6], maxDistance: 2 },
      { members: [5, 7], maxDistance: 2 },
      { members: [1, 2, 3], maxDistance: 3 },
      { members: [200, 201, 300, 301], maxDistance: 4 },
    ]);
  });

  it('takes the largest distance of any pair inside a group, whatever the order', () => {
    const edges = [
      { a: 1, b: 2, distance: 1 },
      { a: 3, b: 4, distance: 5 },
      { a: 2, b: 3, distance: 2 },
      { a: 4, b: 1, distance: 3 }, // closes a cycle
    ];
    for (const order of [edges, [...edges].reverse(), [edges[2], edges[0], edges[3], edges[1]]]) {
      assert.deepEqual(clusterPairs(order), [{ members: [1, 2, 3, 4], maxDistance: 5 }]);
    }
  });

  it('accepts any iterable once, ignores self-pairs, and returns [] for no pairs', () => {
    function* gen() {
      yield { a: 9, b: 9, distance: 0 };
      yield { a: 8, b: 9, distance: 2 };
    }
    assert.deepEqual(clusterPairs(gen()), [{ members: [8, 9], maxDistance: 2 }]);
    assert.deepEqual(clusterPairs([]), []);
    assert.deepEqual(clusterPairs([{ a: 1, b: 1, distance: 0 }]), []);
  });
});
