// The region finder's buckets on the native kernel's threads (node/locate/regionThreads.ts) find what
// findRegions finds on one thread, pair for pair and in the same order, with the same groups and
// counts: on this repository's sources with blocks pasted into other files and into themselves,
// with 1 to 4 threads, with buckets held back until the caller says which to search; two searches'
// results joined in bucket order; the WebAssembly kernel has no threads (the caller keeps its path).
// With the documents' stored anchors (as the scan's workers make them) the plan is the kernel's
// job too (regionPlanAsync, native/regionplan.c): the same plan, counts, frequent hashes and
// regions, the identical documents found there as identicalDocs.ts finds them.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../../helpers/engineBundle';
import type { RegionDocument } from '../../../../src/core/regions/document';
import { defaultAnchors, findRegions, planRegions, wantedBuckets } from '../../../../src/core/regions/regions';
import { searchBuckets } from '../../../../src/core/regions/kernelBuckets';
import { inBucketOrder, startRegionsOnThreads, threadedKernelOf } from '../../../../src/node/locate/regionThreads';
import { regionDocumentOf } from '../../../../src/node/workers/fingerprintFile';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { identicalClasses } from '../../../../src/node/locate/identicalDocs';
import { SIDE_INTS } from '../../../../src/core/regions/sideFacts';
import { withAnchors } from '../../../../src/core/regions/document';
import { mulberry32, proseText } from '../../helpers/corpus';
import { committedWasmKernel, threadedNativeKernel } from '../workers/kernelsUnderTest';
import { pastedSources } from '../../helpers/pastedSources';

describe('the region finder on the native kernel\'s threads (regionThreads)', function () {
  this.timeout(120000);
  let kernel: ReturnType<typeof threadedNativeKernel>;
  let docs: RegionDocument[];

  before(function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    kernel = threadedNativeKernel();
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
    // Runs of several buckets from each (copied a run at a time), and the sides one of them made kept, −1 rows for the other's.
    const block = (first: boolean) => wanted.map((w, b) => (w && b % 6 < 3 === first ? 1 : 0));
    const x = run(block(true));
    const y = run(block(false));
    assert.deepEqual(inBucketOrder(x, y), both);
    const nx = x.ints.length / 7;
    const withSides = { ...x, sides: Int32Array.from({ length: SIDE_INTS * nx }, (_, i) => i) };
    const joined = inBucketOrder(withSides, y);
    assert.deepEqual({ ...joined, sides: undefined }, { ...both, sides: undefined });
    const expected: number[] = [];
    for (let r = 0, i = 0; r < joined.ints.length / 7; r++) {
      const fromX = i < nx && joined.ints[7 * r] === x.ints[7 * i] && joined.ints[7 * r + 1] === x.ints[7 * i + 1] && block(true)[joined.ints[7 * r]] === 1;
      for (let c = 0; c < SIDE_INTS; c++) expected.push(fromX ? SIDE_INTS * i + c : -1);
      if (fromX) i++;
    }
    assert.ok(nx > 5 && y.ints.length > 35, 'regions on both sides');
    assert.deepEqual(Array.from(joined.sides!), expected);
  });

  it('the WebAssembly kernel has no threaded search (its callers keep the one-thread or the workers\' path)', () => {
    assert.equal(threadedKernelOf(committedWasmKernel()), undefined);
    assert.equal(threadedKernelOf(undefined), undefined);
  });

  describe('the plan as the kernel\'s job (regionPlanAsync)', () => {
    let stored: RegionDocument[];
    /** The kernel, counting its plan jobs and its groupings of regions. */
    const counting = () => {
      const counter = { jobs: 0, groupings: 0, kernel: kernel };
      counter.kernel = Object.create(kernel, {
        regionPlanAsync: {
          value: (...args: Parameters<NonNullable<typeof kernel.regionPlanAsync>>) => {
            counter.jobs++;
            return kernel.regionPlanAsync!(...args);
          },
        },
        regionGroups: {
          value: (...args: Parameters<NonNullable<typeof kernel.regionGroups>>) => {
            counter.groupings++;
            return kernel.regionGroups!(...args);
          },
        },
      }) as typeof kernel;
      return counter;
    };

    before(function () {
      assert.equal(typeof kernel.regionPlanAsync, 'function', 'the addon has regionPlanAsync');
      // The documents as the scan's workers make them (stored anchors; code lean, from the kernel):
      // pasted blocks, a file twice, three copies of a prose text, a short file twice, and two
      // documents of as many tokens that differ in one (the identical documents' edge cases).
      const rnd = mulberry32(7);
      const sources = pastedSources(5, ['src/core/regions'], { twinOf: 2 });
      const settings = { ...DEFAULT_ENGINE_SETTINGS };
      const made: RegionDocument[] = [];
      const files = ['src/core/regions/chain.ts', 'src/core/regions/groups.ts', 'src/core/regions/anchors.ts', 'src/core/regions/chain.ts'];
      for (const f of files) made.push(regionDocumentOf(f, fs.readFileSync(path.join(REPO, f), 'utf8'), settings)!);
      const prose = `${proseText(rnd, 200)}\n\n${proseText(rnd, 80)}\n`;
      for (const name of ['p1.md', 'p2.md', 'p3.md']) made.push(regionDocumentOf(name, prose, settings)!);
      made.push(regionDocumentOf('tiny.ts', 'export const a = 1;\n', settings)!, regionDocumentOf('tiny2.ts', 'export const a = 1;\n', settings)!);
      made.push(regionDocumentOf('one.ts', 'export const a = 1;\nexport const b = 2;\n', settings)!, regionDocumentOf('two.ts', 'export const a = 1;\nexport const c = 2;\n', settings)!);
      stored = [...sources.map((d) => (d.length >= 30 ? withAnchors(d, defaultAnchors(d)) : d)), ...made];
      assert.ok(stored.every((d) => d.length < 30 || d.anchors), 'every document of 30 tokens and more has its anchors');
    });

    it('plans and searches in one job: findRegions\' pairs, groups, counts and frequent hashes (1 to 4 threads)', async () => {
      const one = findRegions(stored, { kernel });
      assert.ok(one.pairs.length >= 10 && one.frequent, `copies to find (${one.pairs.length}) and frequent hashes`);
      for (const threads of [1, 2, 4]) {
        const c = counting();
        const found = await startRegionsOnThreads(stored, { kernel: c.kernel }, threads).result();
        assert.equal(c.jobs, 1, 'the plan made by the kernel\'s job');
        assert.deepEqual(found.pairs, one.pairs, `${threads} threads`);
        assert.deepEqual(found.groups, one.groups);
        assert.deepEqual(found.stats, one.stats);
        assert.deepEqual(found.frequent, one.frequent);
      }
    });

    it('finds the identical documents as identicalDocs.ts does, holds their buckets back and searches those `keep` keeps', async () => {
      const classes = identicalClasses(stored);
      const twins = [...classes].filter((c) => c >= 0).length;
      assert.ok(twins >= 9, `identical documents among them (${twins})`);
      const held = (a: number, b: number) => a !== b && classes[a] >= 0 && classes[a] === classes[b];
      const never = () => false;
      for (const keep of [() => true, never, (a: number, b: number) => (a + b) % 2 === 0]) {
        const c = counting();
        const begun = startRegionsOnThreads(stored, { kernel: c.kernel }, 2, 'identical');
        assert.deepEqual(await begun.classes(), classes);
        const found = await begun.result(keep);
        assert.equal(c.jobs, 1);
        const expected = findRegions(stored, { kernel, skipPair: (a, b) => held(a, b) && !keep(a, b) });
        assert.deepEqual(found.pairs, expected.pairs);
        assert.deepEqual(found.groups, expected.groups);
        assert.deepEqual(found.stats, expected.stats);
        // (held buckets searched here: the kernel groups the job's regions and theirs again; none: the job's groups)
        const searchedHere = expected.pairs.some((p) => held(p.a.doc, p.b.doc));
        if (searchedHere) assert.equal(c.groupings, 1, 'the kernel grouped the regions again');
        if (keep === never) assert.equal(c.groupings, 0, 'no held bucket searched: the job\'s groups');
        if (searchedHere) {
          const without = Object.create(kernel, { regionGroups: { value: undefined } }) as typeof kernel;
          assert.deepEqual((await startRegionsOnThreads(stored, { kernel: without }, 2, 'identical').result(keep)).groups, expected.groups, 'groupRegions without the kernel\'s');
        }
      }
      assert.ok(findRegions(stored, { kernel }).pairs.some((p) => held(p.a.doc, p.b.doc)), 'regions between identical documents (held back, then searched or not)');
    });

    it('without the job (no regionPlanAsync, or a document without its anchors): the plan made on this thread, the same result and classes', async () => {
      const without = Object.create(kernel, { regionPlanAsync: { value: undefined } }) as typeof kernel;
      const begun = startRegionsOnThreads(stored, { kernel: without }, 2, 'identical');
      const viaJob = startRegionsOnThreads(stored, { kernel }, 2, 'identical');
      assert.deepEqual(await begun.classes(), await viaJob.classes());
      assert.deepEqual(await begun.result(), await viaJob.result());
      const c = counting();
      const bare = [...stored];
      bare[0] = withAnchors(stored[0], stored[0].anchors!);
      delete bare[0].anchors;
      assert.deepEqual((await startRegionsOnThreads(bare, { kernel: c.kernel }, 2).result()).pairs, findRegions(bare, { kernel }).pairs);
      assert.equal(c.jobs, 0, 'a document of 30 tokens without its anchors: planned here');
    });

    it('rejects anchors outside their document (result() reports it)', async () => {
      const bad = stored.map((d) => d);
      const d = stored.findIndex((x) => x.anchors && x.anchors.hash.length > 0);
      const pos = Int32Array.from(stored[d].anchors!.pos);
      pos[0] = stored[d].length + 3;
      bad[d] = withAnchors(stored[d], { hash: stored[d].anchors!.hash, pos });
      await assert.rejects(startRegionsOnThreads(bad, { kernel }, 2).result(), /an anchor outside its document/);
    });

    it('rejects a document with anchors and no postings cap, in those words', async () => {
      type Args = Parameters<NonNullable<typeof kernel.regionPlanAsync>>;
      const capless = Object.create(kernel, {
        regionPlanAsync: { value: (...args: Args) => kernel.regionPlanAsync!(...(args.map((a, i) => (i === 4 ? new Uint32Array(0) : a)) as Args)) },
      }) as typeof kernel;
      await assert.rejects(startRegionsOnThreads(stored, { kernel: capless }, 2).result(), /^Error: regionPlanAsync: a document with anchors and no postings cap$/);
    });

    it('rejects a token stream shorter than its document, in the plan job\'s name', async () => {
      const bad = stored.map((d) => d);
      const d = stored.findIndex((x) => x.anchors && x.anchors.hash.length > 0);
      const short = withAnchors(stored[d], stored[d].anchors!);
      short.raw = { hi: stored[d].raw.hi.slice(0, stored[d].length - 1), lo: stored[d].raw.lo.slice(0, stored[d].length - 1) };
      bad[d] = short;
      // (refused as the job starts: startRegionsOnThreads throws, beginLocateInPool reports it)
      assert.throws(() => startRegionsOnThreads(bad, { kernel }, 2), /^Error: regionPlanAsync: token streams are Uint32Arrays of the documents' lengths$/);
    });

    it("makes the seeds of over 65,536 anchors on the job's threads (seedsthreads.c): the one-thread job's result, on 2 and 3 threads", async () => {
      // Every TypeScript source of src/ as the scan's workers make it (stored anchors): ~100,000
      // anchors, past THREADED_MIN_ANCHORS, under which seeds.c alone makes them.
      const files: string[] = [];
      const walk = (dir: string): void => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) walk(p);
          else if (p.endsWith('.ts')) files.push(p);
        }
      };
      walk(path.join(REPO, 'src'));
      files.sort();
      const settings = { ...DEFAULT_ENGINE_SETTINGS };
      const big: RegionDocument[] = [];
      for (const f of files) {
        const d = regionDocumentOf(path.relative(REPO, f), fs.readFileSync(f, 'utf8'), settings);
        if (d) big.push(d.length >= 30 ? withAnchors(d, defaultAnchors(d)) : d);
      }
      const anchors = big.reduce((n, d) => n + (d.anchors?.hash.length ?? 0), 0);
      assert.ok(anchors > 65536, `anchors: ${anchors}`);
      const one = await startRegionsOnThreads(big, { kernel }, 1).result();
      assert.ok(one.pairs.length >= 50 && one.frequent, `copies found in src/ (${one.pairs.length}) and frequent hashes`);
      for (const threads of [2, 3]) {
        const found = await startRegionsOnThreads(big, { kernel }, threads).result();
        assert.deepEqual(found.pairs, one.pairs, `${threads} threads`);
        assert.deepEqual(found.groups, one.groups);
        assert.deepEqual(found.stats, one.stats);
        assert.deepEqual(found.frequent, one.frequent);
      }
    });
  });
});
