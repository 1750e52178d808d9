// The scan's batches on their way (src/node/scan/batchQueue.ts): at most `limit` hold a place, in
// order; a place freed early (free) lets the next start while the batch is still running; drained
// waits for every batch; the first failure stops the dispatch.
import { strict as assert } from 'node:assert';
import { BatchQueue } from '../../../../src/node/scan/batchQueue';

/** A run whose batches end (or free their place) when the test says. */
function controlled() {
  const started: number[] = [];
  const ends = new Map<number, { done: () => void; fail: (e: Error) => void; free: () => void }>();
  const run = (b: number, free: () => void) =>
    new Promise<void>((done, fail) => {
      started.push(b);
      ends.set(b, { done, fail, free });
    });
  return { started, ends, run };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the scan’s batch queue', () => {
  it('starts at most `limit` batches, in order, the next as a place frees (early by free, or at the end)', async () => {
    const c = controlled();
    const q = new BatchQueue<number>(2, c.run);
    q.ready.push(1, 2, 3, 4, 5);
    q.dispatch();
    assert.deepEqual(c.started, [1, 2]);
    assert.equal(q.hasRoom, false);
    c.ends.get(1)!.free(); // batch 1 still running, its place given back
    assert.deepEqual(c.started, [1, 2, 3]);
    c.ends.get(1)!.free(); // twice: once
    assert.deepEqual(c.started, [1, 2, 3]);
    let drained = false;
    const waiting = q.drained().then(() => (drained = true));
    c.ends.get(1)!.done(); // its place already free: nothing more starts
    await turn();
    assert.deepEqual(c.started, [1, 2, 3]);
    c.ends.get(2)!.done();
    await turn();
    assert.deepEqual(c.started, [1, 2, 3, 4]);
    for (const b of [3, 4]) c.ends.get(b)!.done();
    await turn();
    assert.deepEqual(c.started, [1, 2, 3, 4, 5]);
    assert.equal(drained, false, 'batch 5 still running');
    c.ends.get(5)!.done();
    await waiting;
    assert.equal(drained, true);
    assert.equal(q.failure, null);
  });

  it('stops at the first failure: nothing more starts, drained returns, the failure kept', async () => {
    const c = controlled();
    const q = new BatchQueue<number>(1, c.run);
    q.ready.push(1, 2, 3);
    q.dispatch();
    const waiting = q.drained();
    const boom = new Error('boom');
    c.ends.get(1)!.fail(boom);
    await waiting;
    assert.deepEqual(c.started, [1]);
    assert.equal(q.failure?.error, boom);
    q.dispatch();
    assert.deepEqual(c.started, [1], 'no dispatch after a failure');
  });
});
