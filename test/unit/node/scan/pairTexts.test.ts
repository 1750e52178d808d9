/**
 * The scan's own pairs' JSON text made on a worker of its pool (node/scan/pairTexts.ts): the real
 * worker (dist/worker.js) makes what this thread makes; a `--locate` scan's report carries it and
 * its JSON is the very text made without it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatJson } from '../../../../src/cli/formatJson';
import { pairsBytes, pairsText } from '../../../../src/core/report/pairsJson';
import { beginLocateInPool, regionsShared, regionThreadsChosen, withLocated } from '../../../../src/node/scan/locate';
import { pairTextsOf } from '../../../../src/node/scan/pairTexts';
import { scanDirectory, type ScanResult } from '../../../../src/node/scan/scan';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import type { WorkerRequest, WorkerResponse } from '../../../../src/node/workers/messages';
import { WorkerPool } from '../../../../src/node/workers/workerPool';
import { writeLocateFixture } from '../../cli/locateFixture';
import { mulberry32 } from '../../helpers/corpus';
import { scanLikePairs } from '../../helpers/reportPairs';

const WORKER = path.join(__dirname, '..', '..', '..', '..', 'dist', 'worker.js');

/**
 * Two documents sharing four near sections (every 40th word another) and not near as files:
 * SimHash section pairs that no located copy repeats or splits.
 */
function writeProse(dir: string): void {
  const rnd = mulberry32(5);
  const words = Array.from({ length: 400 }, () => Array.from({ length: 3 + Math.floor(rnd() * 7) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join(''));
  const word = () => words[Math.floor(rnd() * words.length)];
  const parts = Array.from({ length: 4 }, () => Array.from({ length: 120 }, word));
  const more = Array.from({ length: 6 }, () => Array.from({ length: 120 }, word));
  const doc = (title: string, edit: boolean) =>
    `# ${title}\n\n` + (edit ? [...parts, ...more] : parts).map((w, i) => `## Part ${i}\n\n${w.map((x, k) => (edit && k % 40 === 0 ? word() : x)).join(' ')}`).join('\n\n') + '\n';
  fs.writeFileSync(path.join(dir, 'a.md'), doc('A', false));
  fs.writeFileSync(path.join(dir, 'b.md'), doc('B', true));
}

describe('pairTexts: the scan\'s own pairs\' JSON made on a worker', function () {
  this.timeout(60000);
  before(() => assert.ok(fs.existsSync(WORKER), 'dist/worker.js is built (node esbuild.js)'));

  it('is the text this thread makes, from the one worker a shrunk pool keeps', async () => {
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: WORKER, size: 2 });
    try {
      pool.warm();
      await pool.whenOnline();
      assert.equal(pool.workerThreadIds().length, 2);
      pool.shrink(1);
      assert.equal(pool.workerThreadIds().length, 1, 'the second worker let go');
      const pairs = scanLikePairs(1234);
      const texts = await pairTextsOf(pairs).send(pool);
      assert.ok(texts);
      assert.equal(texts.pairs, pairs);
      const here = pairsBytes(pairsText(pairs));
      assert.deepEqual(texts.bytes, here.bytes);
      assert.deepEqual(texts.ends, here.ends);
      // none to send, or not of the scan's shape: made as before
      assert.equal(await pairTextsOf([]).send(pool), undefined);
      assert.equal(await pairTextsOf([{ ...pairs[0], located: true }]).send(pool), undefined);
    } finally {
      await pool.close();
    }
  });

  it('is undefined when the worker cannot make it (the pool closed)', async () => {
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script: WORKER, size: 1 });
    await pool.close();
    assert.equal(await pairTextsOf(scanLikePairs(3)).send(pool), undefined);
  });

  it('comes with a --locate scan\'s report (on the kernel\'s threads), whose JSON it leaves as it was', async function () {
    if (!regionThreadsChosen()) this.skip(); // the region finder's threads are the native kernel's
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-pairtexts-'));
    try {
      writeLocateFixture(tmp);
      writeProse(tmp);
      const settings = DEFAULT_ENGINE_SETTINGS;
      const result: ScanResult = await scanDirectory({
        root: tmp,
        settings,
        workers: 2,
        workerScript: WORKER,
        quiet: true,
        regions: true,
        regionsSharedFrom: regionsShared,
        withWorkers: (fingerprinted, pool) => {
          const located = beginLocateInPool(fingerprinted, { settings }, pool);
          return async (scanned) => {
            const outcome = await located(scanned.pairs);
            assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
            return withLocated(scanned, outcome);
          };
        },
      });
      assert.ok(result.pairTexts, 'the own pairs\' text made on the worker');
      assert.ok(result.pairs.some((p) => p.located) && result.pairs.some((p) => !p.located));
      assert.ok(result.pairs.some((p) => result.pairTexts!.pairs.includes(p)), 'some pairs written from it');
      const { shown } = result.pairTexts;
      assert.ok(shown && shown.pairs === result.pairs, 'each report pair\'s number in it, from withLocated');
      assert.deepEqual([...shown.at], result.pairs.map((p) => result.pairTexts!.pairs.indexOf(p)));
      assert.equal(formatJson(result, 'tree'), formatJson({ ...result, pairTexts: undefined }, 'tree'));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
