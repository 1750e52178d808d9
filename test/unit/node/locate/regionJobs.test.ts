// The region finder spread over workers (node/locate/regionJobs.ts) finds what findRegions finds on
// one thread, pair for pair and in the same order, with the same groups and counts: on this
// repository's sources with blocks pasted into other files and into themselves, and prose with a
// pasted paragraph, and on corpora of other random pastes; a run of buckets searched by the
// kernel in one call, by its aligner chain by chain and by the TypeScript alike; with real pools of one to three
// fingerprint workers, this thread taking runs too; with more runs than workers (the documents
// sent once per worker); with buckets held back until the caller says which to work; and when no
// worker can run a job (every run done here).
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { RegionDocument } from '../../../../src/core/regions/document';
import { pastedSources } from '../../helpers/pastedSources';
import { bucketWanted, findRegions, planRegions } from '../../../../src/core/regions/regions';
import { findRegionsInPool, regionSlots, startRegionsInPool } from '../../../../src/node/locate/regionJobs';
import type { WorkerRequest, WorkerResponse } from '../../../../src/node/workers/messages';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { runBuckets, runRegionBuckets } from '../../../../src/node/regions/regionJob';
import { pairSides } from '../../../../src/node/regions/regionSides';
import { WorkerPool } from '../../../../src/node/workers/workerPool';
import { buildEngineWorkers, REPO } from '../../helpers/engineBundle';

/** This repository's region finder, report and text sources with pastes, and two prose files sharing a paragraph. */
function corpus(seed = 12): RegionDocument[] {
  return pastedSources(seed, ['src/core/regions', 'src/core/report', 'src/core/text']);
}

describe('the region finder on workers (regionJobs)', function () {
  this.timeout(120000);
  let docs: RegionDocument[];
  let workerScript: string;

  before(async () => {
    docs = corpus();
    ({ workerScript } = await buildEngineWorkers());
  });

  it('finds what findRegions finds on one thread: the same pairs in the same order, groups and counts', async () => {
    const one = findRegions(docs, { kernel: nativeKernel() });
    assert.ok(one.pairs.length >= 10, `the corpus has copies to find (${one.pairs.length})`);
    assert.ok(one.pairs.some((p) => p.a.doc === p.b.doc), 'a repeat inside a file among them');
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size: 2 });
    try {
      const many = await findRegionsInPool(docs, { kernel: nativeKernel() }, pool);
      assert.deepEqual(many.pairs, one.pairs);
      assert.deepEqual(many.groups, one.groups);
      assert.deepEqual(many.stats, one.stats);
      // Again with the same pool: a new set of documents, sent again.
      const again = await findRegionsInPool(docs.slice(0, docs.length - 2), {}, pool);
      assert.deepEqual(again.pairs, findRegions(docs.slice(0, docs.length - 2)).pairs);
    } finally {
      await pool.close();
    }
  });

  it("a run of buckets (runBuckets, a worker's job): the kernel's one-call bucket search, its aligner chain by chain and the TypeScript find the same pairs", () => {
    const kernel = nativeKernel();
    assert.ok(kernel?.regionBuckets, 'a kernel with the bucket search');
    const plan = planRegions(docs, { kernel });
    const run = plan.buckets.filter((b, i) => i % 2 === 0 && bucketWanted(b, plan.options));
    let end = 0;
    const buckets = Uint32Array.from(run.flatMap((b) => [b.docA, b.docB, (end += b.pairs.length / 2)]));
    const seeds = Int32Array.from(run.flatMap((b) => Array.from(b.pairs)));
    const found = [kernel, { alignChain: kernel.alignChain.bind(kernel) }, undefined].map((k) => {
      const stats = { chains: 0, aligned: 0 };
      return { pairs: runBuckets(docs, buckets, seeds, plan.options, k, stats), stats };
    });
    assert.ok(found[2].pairs.length >= 5, `pairs to compare (${found[2].pairs.length})`);
    assert.deepEqual(found[0], found[2]);
    assert.deepEqual(found[1], found[2]);
  });

  it('this thread takes runs too: with one worker sent runs, both work buckets, and the result is the same', async () => {
    const o = { normalizeIdentifiers: false, weighting: 'none' as const };
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size: 2 });
    try {
      assert.equal(regionSlots(pool.size), 1);
      const res = await startRegionsInPool(docs, { kernel: nativeKernel() }, pool, undefined, o).result();
      const one = findRegions(docs, { kernel: nativeKernel() });
      assert.deepEqual(res.pairs, one.pairs);
      assert.ok(res.workedHere > 0, 'this thread worked some buckets');
      // The worker's pairs come with their sides, this thread's without.
      assert.ok(res.sides.some((s) => s !== undefined), 'the worker found some of the pairs');
      assert.ok(res.sides.some((s) => s === undefined), 'this thread found some of the pairs');
    } finally {
      await pool.close();
    }
  });

  it('on random pastes (three seeds), pools of one, two and three workers find what findRegions finds', async () => {
    for (const seed of [1, 2, 3]) {
      const random = corpus(seed);
      const one = findRegions(random, { kernel: nativeKernel() });
      assert.ok(one.pairs.length >= 10, `seed ${seed}: copies to find (${one.pairs.length})`);
      for (const size of [1, 2, 3]) {
        const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size });
        try {
          const many = await findRegionsInPool(random, { kernel: nativeKernel() }, pool);
          assert.deepEqual(many.pairs, one.pairs, `seed ${seed}, ${size} workers`);
          assert.deepEqual(many.groups, one.groups, `seed ${seed}, ${size} workers`);
          assert.deepEqual(many.stats, one.stats, `seed ${seed}, ${size} workers`);
        } finally {
          await pool.close();
        }
      }
    }
  });

  it('sends runs to one worker fewer than the pool (this thread is a core too), at least one', () => {
    assert.deepEqual([1, 2, 3, 8].map(regionSlots), [1, 1, 2, 7]);
  });

  it('skips what skipPair skips, as findRegions does', async () => {
    const skipPair = (a: number, b: number) => (a + b) % 2 === 0;
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size: 2 });
    try {
      const many = await findRegionsInPool(docs, { skipPair }, pool);
      const one = findRegions(docs, { skipPair });
      assert.deepEqual(many.pairs, one.pairs);
      assert.ok(many.pairs.length < findRegions(docs).pairs.length, 'some pairs were skipped');
    } finally {
      await pool.close();
    }
  });

  it('holds back the buckets `defer` names until result(), and works those `keep` keeps (the rest as skipped)', async () => {
    const defer = (a: number, b: number) => (a * 7 + b) % 3 === 0;
    const keep = (a: number, b: number) => a % 2 === 0;
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size: 2 });
    try {
      const begun = startRegionsInPool(docs, {}, pool, defer);
      const many = await begun.result(keep);
      const one = findRegions(docs, { skipPair: (a, b) => defer(a, b) && !keep(a, b) });
      assert.deepEqual(many.pairs, one.pairs);
      assert.ok(one.pairs.some((p) => defer(p.a.doc, p.b.doc)), 'some held-back buckets were kept and worked');
      assert.ok(one.pairs.length < findRegions(docs).pairs.length, 'some held-back buckets were dropped');
    } finally {
      await pool.close();
    }
  });

  it("with `sides`, each pair a worker found has its trimmed starts, content keys and distance as made on this thread", async () => {
    const o = { normalizeIdentifiers: false, weighting: 'none' as const };
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: workerScript, size: 2 });
    try {
      const res = await startRegionsInPool(docs, {}, pool, undefined, o).result();
      assert.ok(res.pairs.length > 0);
      assert.equal(res.sides.length, res.pairs.length);
      // Pairs found on this thread (it takes runs too) have none: the caller makes them.
      res.pairs.forEach((p, i) => res.sides[i] && assert.deepEqual(res.sides[i], pairSides(docs[p.a.doc], docs[p.b.doc], p, o)));
      assert.ok(res.sides.some((s) => s !== undefined), 'the workers made some');
    } finally {
      await pool.close();
    }
  });

  it('does the runs on this thread when no worker can (a worker script that fails to start)', async () => {
    const bad = path.join(REPO, 'out', 'test', 'unit-workers', 'no-such-worker.js');
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: bad, size: 2, maxRestarts: 1 });
    try {
      const many = await findRegionsInPool(docs, {}, pool);
      assert.deepEqual(many.pairs, findRegions(docs).pairs);
    } finally {
      await pool.close();
    }
  });

  it('a worker without the documents of a job says so (it restarted), rather than guessing', () => {
    const res = runRegionBuckets({ type: 'regionBuckets', docsId: -7, options: {} as never, buckets: new Uint32Array(0), seeds: new Int32Array(0) });
    assert.deepEqual(res, { missingDocs: true });
  });
});
