// The native kernel's regionGroups (native/regiongroups.c through kernelbuckets.c): the groups of
// regions as a bucket search gives them (a bucket's two documents, each side's token range), read
// by groupsOfFlat, are groupRegions' of the same pairs — on 300 random sets (few and many
// documents, overlapping and apart, repeats inside one document), none, and bad arguments refused.
import { strict as assert } from 'node:assert';
import { groupRegions, groupsOfFlat } from '../../../../src/core/regions/groups';
import { mulberry32 as rng } from '../../helpers/random';
import { threadedNativeKernel } from './kernelsUnderTest';

/** BUCKET_PAIR_INTS of native/buckets.h: bucket, a's start and end, b's start and end, two more. */
const ROW = 7;

/** Random buckets (docA <= docB) and regions of them in bucket order, with the pairs they stand for. */
function randomRegions(r: () => number, docs: number, buckets: number, regions: number, span: number) {
  const cuts = new Uint32Array(3 * buckets);
  for (let b = 0; b < buckets; b++) {
    const x = Math.floor(r() * docs);
    const y = Math.floor(r() * docs);
    cuts.set([Math.min(x, y), Math.max(x, y), b], 3 * b);
  }
  const rows: number[][] = [];
  for (let i = 0; i < regions; i++) {
    const range = () => {
      const start = Math.floor(r() * span);
      return [start, start + 1 + Math.floor(r() * span * 0.3)];
    };
    rows.push([Math.floor(r() * buckets), ...range(), ...range(), Math.floor(r() * 100), Math.floor(r() * 100)]);
  }
  rows.sort((p, q) => p[0] - q[0]);
  const ints = Int32Array.from(rows.flat());
  const pairs = rows.map(([b, as, ae, bs, be]) => ({ a: { doc: cuts[3 * b], start: as, end: ae }, b: { doc: cuts[3 * b + 1], start: bs, end: be } }));
  return { cuts, ints, pairs };
}

describe('the native kernel\'s regionGroups', function () {
  let kernel: ReturnType<typeof threadedNativeKernel>;

  before(function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    kernel = threadedNativeKernel(true);
    assert.equal(typeof kernel.regionGroups, 'function', 'the addon has regionGroups');
  });

  it('groups as groupRegions does, on 300 random sets of regions', () => {
    const r = rng(31);
    let joined = 0;
    for (let t = 0; t < 300; t++) {
      const { cuts, ints, pairs } = randomRegions(r, 1 + Math.floor(r() * 10), 1 + Math.floor(r() * 20), Math.floor(r() * 80), 20 + Math.floor(r() * 300));
      const expected = groupRegions(pairs);
      assert.deepEqual(groupsOfFlat(kernel.regionGroups!(cuts, ints), pairs), expected, `set ${t}`);
      if (expected.some((g) => g.pairs.length > 1)) joined++;
    }
    assert.ok(joined > 100, `sets where regions join into one group (${joined})`);
  });

  it('gives no group for no regions, and refuses regions outside the buckets or rows cut short', () => {
    const cuts = Uint32Array.from([0, 1, 5]);
    assert.equal(kernel.regionGroups!(cuts, new Int32Array(0)).length, 0);
    assert.throws(() => kernel.regionGroups!(cuts, Int32Array.from([1, 0, 5, 0, 5, 0, 0])), /outside the buckets/);
    assert.throws(() => kernel.regionGroups!(cuts, Int32Array.from([-1, 0, 5, 0, 5, 0, 0])), /outside the buckets/);
    assert.throws(() => kernel.regionGroups!(cuts, Int32Array.from([0, 0, 5, 0, 5, 0])), /regions/);
    assert.throws(() => kernel.regionGroups!(Uint32Array.from([0, 1]), new Int32Array(0)), /buckets/);
  });
});
