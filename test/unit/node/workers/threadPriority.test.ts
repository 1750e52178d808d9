import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE, lowerThreadPriority } from '../../../../src/node/workers/threadPriority';

const MODULE = path.join(__dirname, '..', '..', '..', '..', 'src', 'node', 'workers', 'threadPriority.ts');

/** Runs `code` in a worker thread (with `lower` = lowerThreadPriority); resolves with what it posts. */
function inWorker(code: string): Promise<unknown> {
  const src = `require('tsx/cjs');
    const os = require('node:os');
    const { Worker, parentPort } = require('node:worker_threads');
    const { lowerThreadPriority: lower } = require(${JSON.stringify(MODULE)});
    (async () => { ${code} })().then((r) => parentPort.postMessage(r), (e) => parentPort.postMessage({ error: String(e) }));`;
  return new Promise((resolve, reject) => {
    const w = new Worker(src, { eval: true });
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

describe('thread priority of the engine (background work yields to the editor)', () => {
  it('elsewhere than Linux nothing is done (the priority would be the whole process\'s)', () => {
    const before = os.getPriority(0);
    assert.equal(lowerThreadPriority(BACKGROUND_NICE, 'darwin'), false);
    assert.equal(lowerThreadPriority(BACKGROUND_NICE, 'win32'), false);
    assert.equal(os.getPriority(0), before);
  });

  it('on Linux: the calling thread only is lowered, and the threads it starts inherit it', async function () {
    if (process.platform !== 'linux') this.skip();
    this.timeout(20_000);
    const main = os.getPriority(0);
    const r = (await inWorker(`
      const ok = lower();
      const own = os.getPriority(0);
      const child = await new Promise((resolve) => {
        const w = new Worker("require('node:worker_threads').parentPort.postMessage(require('node:os').getPriority(0))", { eval: true });
        w.once('message', (m) => { resolve(m); w.terminate(); });
      });
      return { ok, own, child, again: lower() };
    `)) as { ok: boolean; own: number; child: number; again: boolean };
    assert.deepEqual(r, { ok: true, own: Math.max(main, BACKGROUND_NICE), child: Math.max(main, BACKGROUND_NICE), again: true });
    assert.equal(os.getPriority(0), main, 'the main thread keeps its priority');
  });
});
