// The region finder's buckets on the native kernel's threads (node/scan/regionThreads.ts) find what
// findRegions finds on one thread, pair for pair and in the same order, with the same groups and
// counts: on this repository's sources with blocks pasted into other files and into themselves,
// with 1 to 4 threads, with buckets held back until the caller says which to search; two searches'
// results joined in bucket order; the WebAssembly kernel has no threads (the caller keeps its path).
import { strict as assert } from 'node:assert';
import type { RegionDocument } from '../../../../src/core/regions/document';
import { findRegions, planRegions, wantedBuckets } from '../../../../src/core/regions/regions';
import { searchBuckets } from '../../../../src/core/regions/kernelBuckets';
import { inBucketOrder, startRegionsOnThreads, threadedKernelOf, type ThreadedBucketKernel } from '../../../../src/node/scan/regionThreads';
import { nativeKernel, nativeKernelProblem } from '../../../../src/node/workers/nativeKernel';
import { committedWasmKernel } from '../workers/kernelsUnderTest';
import { pastedSources } from '../../helpers/pastedSources';

describe('the region finder on the native kernel\'s threads (regionThreads)', function () {
  this.timeout(120000);
  let kernel: ThreadedBucketKernel & NonNullable<ReturnType<typeof nativeKernel>>;
  let docs: RegionDocument[];

  before(function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    const k = threadedKernelOf(nativeKernel());
    assert.ok(k, `the native kernel with threads: ${nativeKernelProblem() ?? 'loaded without regionBucketsAsync'}`);
    kernel = k;
    // (document 1, src/core/regions/align.ts, has no paste: its twin is identical to it)
    docs = pastedSources(12, ['src/core/regions', 'src/core/report'], { twinOf: 1 });
  });

  it('finds what findRegions finds on one thread (1 to 4 threads): the same pairs in the same order, groups and counts', async () => {
    const one = findRegions(docs, { kernel });
    assert.ok(one.pairs.length >= 10, `the corpus has copies to find (${one.pairs.length})`);
    assert.ok(one.pairs.some((p) => p.a.doc === p.b.doc), 'a repeat inside a file among them');
    for (const threads of [1, 2, 3, 4]) {
      const found = await startRegionsOnThreads(docs, { kernel }, threads).result();
      assert.deepEqual(found.pairs, one.pairs, `${threads} threads`);
      assert.deepEqual(found.groups, one.groups);
      assert.deepEqual(found.stats, one.stats);
      assert.deepEqual(found.frequent, one.frequent);
    }
  });

  it('holds back the buckets `defer` names until result(), and searches those `keep` keeps (the rest as skipped)', async () => {
    const again = docs.length - 3; // twin.ts: the same text as document 1
    const held = (a: number, b: number) => a === 1 || b === again || (a + b) % 4 === 0;
    const keep = (a: number, b: number) => (a * 7 + b) % 3 !== 0;
    let asked = 0;
    const begun = startRegionsOnThreads(docs, { kernel }, 2, (a, b) => {
      asked++;
      return held(a, b);
    });
    assert.ok(asked > 0, 'defer asked of the buckets when the search began');
    const found = await begun.result(keep);
    const expected = findRegions(docs, { kernel, skipPair: (a, b) => held(a, b) && !keep(a, b) });
    assert.ok(expected.pairs.some((p) => held(p.a.doc, p.b.doc)) && expected.pairs.some((p) => !held(p.a.doc, p.b.doc)), 'pairs of held and of other buckets');
    assert.ok(findRegions(docs, { kernel }).pairs.length > expected.pairs.length, 'some held buckets with regions not kept');
    assert.deepEqual(found.pairs, expected.pairs);
    assert.deepEqual(found.groups, expected.groups);
    assert.deepEqual(found.stats, expected.stats);
    // Keeping every held bucket: findRegions' whole result.
    assert.deepEqual((await startRegionsOnThreads(docs, { kernel }, 3, held).result()).pairs, findRegions(docs, { kernel }).pairs);
  });

  it('inBucketOrder joins two searches of different buckets into the search of both', () => {
    const plan = planRegions(docs, { kernel });
    const wanted = wantedBuckets(plan.bucketCuts, plan.options);
    const odd = wanted.map((w, b) => (w && b % 2 ? 1 : 0));
    const even = wanted.map((w, b) => (w && b % 2 === 0 ? 1 : 0));
    const run = (w: Uint8Array) => searchBuckets(kernel, docs, plan.seedPairs, plan.bucketCuts, w, plan.options);
    const both = run(wanted);
    assert.ok(both.ints.length > 70, 'regions in many buckets');
    assert.deepEqual(inBucketOrder(run(odd), run(even)), both);
    assert.deepEqual(inBucketOrder(run(even), run(odd)), both);
    assert.deepEqual(inBucketOrder(run(new Uint8Array(wanted.length)), both), both);
  });

  it('the WebAssembly kernel has no threaded search (its callers keep the one-thread or the workers\' path)', () => {
    assert.equal(threadedKernelOf(committedWasmKernel()), undefined);
    assert.equal(threadedKernelOf(undefined), undefined);
  });
});
