// Unit tests of src/node/regions/regionRows.ts: the region pairs as rows of numbers that the scan's
// --locate report reads. Rows of region pairs give the pairs back; the rows of a search on the
// native kernel's threads (node/locate/regionThreads.ts rows()) are its result()'s pairs, groups,
// counts and sides — with the plan job's sides and groups, with held buckets searched after it
// (lines made here, groups made again), without the kernel's grouping (groupRegions') and without
// its plan job (the plan made on this thread).
import { strict as assert } from 'node:assert';
import { defaultAnchors, findRegions, type RegionPair } from '../../../../src/core/regions/regions';
import { withAnchors, type RegionDocument } from '../../../../src/core/regions/document';
import { closerTokens } from '../../../../src/node/regions/regionSides';
import { groupRowsOf, pairOfRow, pairsOfRows, rowsOfPairs, rowsResultOf, sideOfRow, ROW_INTS, type RegionRowsResult } from '../../../../src/node/regions/regionRows';
import { startRegionsOnThreads } from '../../../../src/node/locate/regionThreads';
import { identicalClasses } from '../../../../src/node/locate/identicalDocs';
import { pastedSources } from '../../helpers/pastedSources';
import { threadedNativeKernel } from '../workers/kernelsUnderTest';

describe('node/regions/regionRows: region pairs as rows', function () {
  this.timeout(120000);
  let docs: RegionDocument[];

  before(() => {
    // (document 1 has no paste: its twin is identical to it; stored anchors, as the scan's workers make them)
    docs = pastedSources(21, ['src/core/regions', 'src/core/report'], { twinOf: 1 }).map((d) => (d.length >= 30 && !d.anchors ? withAnchors(d, defaultAnchors(d)) : d));
  });

  it('rows of region pairs give the same pairs back, a side or a pair at a time (either way round), and the groups flat', () => {
    const found = findRegions(docs);
    assert.ok(found.pairs.length >= 10 && found.groups.length >= 3, `copies to find (${found.pairs.length})`);
    assert.ok(new Set(found.pairs.map((p) => p.clone)).size >= 2, 'of more than one clone kind');
    const rows = rowsOfPairs(found.pairs);
    assert.equal(rows.count, found.pairs.length);
    assert.equal(rows.ints.length, ROW_INTS * rows.count);
    assert.deepEqual(pairsOfRows(rows), found.pairs);
    found.pairs.forEach((p, i) => {
      assert.deepEqual(sideOfRow(rows, i, false), p.a);
      assert.deepEqual(sideOfRow(rows, i, true), p.b);
      assert.deepEqual(pairOfRow(rows, i, true), { ...p, a: p.b, b: p.a });
    });
    const flat = groupRowsOf(found.groups);
    let at = 0;
    for (const g of found.groups) {
      assert.deepEqual([flat[at], flat[at + 1]], [g.places.length, g.pairs.length]);
      at += 2;
      for (const p of g.places) {
        assert.deepEqual([...flat.subarray(at, at + 3)], [p.doc, p.start, p.end]);
        at += 3;
      }
      assert.deepEqual([...flat.subarray(at, at + g.pairs.length)], g.pairs);
      at += g.pairs.length;
    }
    assert.equal(at, flat.length);
    const result = rowsResultOf(found);
    assert.deepEqual(pairsOfRows(result.rows), found.pairs);
    assert.equal(result.stats, found.stats);
    assert.equal(rowsOfPairs([]).count, 0);
  });

  describe('on the native kernel\'s threads', () => {
    let kernel: ReturnType<typeof threadedNativeKernel>;
    before(function () {
      if (process.env.NEARDUP_NATIVE === '0') this.skip();
      kernel = threadedNativeKernel(true);
    });

    /** Asserts that rows() of a search is its result(): the same pairs, groups, counts, frequent hashes and sides. */
    const same = (rows: RegionRowsResult, result: ReturnType<typeof findRegions>, what: string) => {
      assert.deepEqual(pairsOfRows(rows.rows), result.pairs, `${what}: the pairs`);
      assert.deepEqual(rows.groups, groupRowsOf(result.groups), `${what}: the groups`);
      assert.deepEqual(rows.stats, result.stats, `${what}: the counts`);
      assert.deepEqual(rows.frequent, result.frequent, `${what}: the frequent hashes`);
      assert.deepEqual(rows.sideFacts, result.sideFacts, `${what}: the sides`);
    };
    const sides = { normalizeIdentifiers: false, tf: false, closers: closerTokens() };

    it('rows() is result() as rows: with the plan job\'s sides and groups, 1 and 2 threads', async () => {
      for (const threads of [1, 2]) {
        const rows = await startRegionsOnThreads(docs, { kernel }, threads, undefined, sides).rows();
        const result = await startRegionsOnThreads(docs, { kernel }, threads, undefined, sides).result();
        assert.ok(rows.sideFacts && rows.rows.count >= 10, 'the job made the sides');
        same(rows, result, `${threads} threads`);
        assert.deepEqual(pairsOfRows(rows.rows), findRegions(docs).pairs);
      }
    });

    it('with the identical documents\' buckets held back: searched after the job (their lines made here, the groups made again) or not', async () => {
      const classes = identicalClasses(docs);
      const held = (a: number, b: number) => a !== b && classes[a] >= 0 && classes[a] === classes[b];
      const all = await startRegionsOnThreads(docs, { kernel }, 2, 'identical', sides).rows();
      assert.ok(pairsOfRows(all.rows).some((p: RegionPair) => held(p.a.doc, p.b.doc)), 'regions of held buckets');
      same(all, await startRegionsOnThreads(docs, { kernel }, 2, 'identical', sides).result(), 'all kept');
      const none = await startRegionsOnThreads(docs, { kernel }, 2, 'identical', sides).rows(() => false);
      same(none, await startRegionsOnThreads(docs, { kernel }, 2, 'identical', sides).result(() => false), 'none kept');
      assert.ok(none.rows.count < all.rows.count);
    });

    it('without the kernel\'s grouping of the regions searched after the job (groupRegions\' groups), and without the job (the plan made here)', async () => {
      const ungrouped = Object.create(kernel, { regionGroups: { value: undefined } }) as typeof kernel;
      const rows = await startRegionsOnThreads(docs, { kernel: ungrouped }, 2, 'identical').rows();
      same(rows, await startRegionsOnThreads(docs, { kernel: ungrouped }, 2, 'identical').result(), 'groupRegions');
      assert.deepEqual(rows.groups, groupRowsOf(findRegions(docs).groups));
      const planless = Object.create(kernel, { regionPlanAsync: { value: undefined } }) as typeof kernel;
      const here = await startRegionsOnThreads(docs, { kernel: planless }, 2, 'identical').rows();
      same(here, await startRegionsOnThreads(docs, { kernel: planless }, 2, 'identical').result(), 'the plan made here');
      assert.deepEqual(pairsOfRows(here.rows), findRegions(docs).pairs);
    });
  });
});
