// groupRegions (src/core/regions/groups.ts) against its reference (groupsReference.ts) on random
// pairs: the same groups, places (shapes too) and pairs, in the same order.
import { strict as assert } from 'node:assert';
import { groupRegions } from '../../../../src/core/regions/groups';
import { groupRegionsReference } from './groupsReference';
import { mulberry32 as rng } from '../../helpers/random';

type Side = { doc: number; start: number; end: number; startLine: number; endLine: number };

function randomPairs(r: () => number, docs: number, pairs: number, span: number): Array<{ a: Side; b: Side }> {
  const side = (): Side => {
    const start = Math.floor(r() * span);
    const end = start + 1 + Math.floor(r() * span * 0.3);
    return { doc: Math.floor(r() * docs), start, end, startLine: 1 + start, endLine: 1 + end };
  };
  return Array.from({ length: pairs }, () => ({ a: side(), b: side() }));
}

describe('core/regions/groups groupRegions', () => {
  it('gives the reference grouping on 400 random sets of pairs (few and many documents, overlapping and apart)', () => {
    const r = rng(12);
    for (let t = 0; t < 400; t++) {
      const pairs = randomPairs(r, 1 + Math.floor(r() * 12), Math.floor(r() * 60), 20 + Math.floor(r() * 400));
      assert.deepEqual(groupRegions(pairs), groupRegionsReference(pairs), `set ${t}`);
    }
  });

  it('orders by a comparator, the same, when the sides do not pack into 53 bits', () => {
    // (a document number of 2^22 and a start of 2^30 with 6 sides: over 2^53)
    const big = 2 ** 30;
    const far = 2 ** 22;
    const pairs = [
      { a: { doc: far, start: big + 10, end: big + 60 }, b: { doc: 0, start: 5, end: 50 } },
      { a: { doc: far, start: big, end: big + 40 }, b: { doc: 1, start: 0, end: 40 } },
      { a: { doc: 0, start: 0, end: 45 }, b: { doc: 2, start: 7, end: 30 } },
    ];
    const g = groupRegions(pairs);
    assert.deepEqual(g, groupRegionsReference(pairs));
    assert.deepEqual(g.map((x) => x.places.map((p) => [p.doc, p.start, p.end])), [
      [
        [0, 0, 50],
        [1, 0, 40],
        [2, 7, 30],
        [far, big, big + 60],
      ],
    ]);
  });

  it('gives no group for no pairs', () => {
    assert.deepEqual(groupRegions([]), []);
  });
});
