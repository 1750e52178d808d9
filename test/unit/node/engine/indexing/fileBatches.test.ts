import * as assert from 'node:assert/strict';
import { batchesOf, ENGINE_BATCH_BYTES, ENGINE_BATCH_FILES, sendInBatches } from '../../../../../src/node/engine/indexing/fileBatches';

const sizes = (batches: number[][]) => batches.map((b) => b.length);

describe('engine/indexing/fileBatches', () => {
  it('batchesOf closes a batch at the file count or once its bytes reach the limit, in order, every item once', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    assert.deepEqual([...batchesOf(items, () => 1, 4, 1e9)], [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    // Sizes 0..9: closed once a batch holds 10 bytes (0+1+2+3+4, 5+6, 7+8, 9).
    assert.deepEqual([...batchesOf(items, (i) => i, 100, 10)], [[0, 1, 2, 3, 4], [5, 6], [7, 8], [9]]);
    // A file larger than the limit goes alone; nothing is dropped or repeated.
    const big = [1, 500, 1, 1];
    assert.deepEqual([...batchesOf(big, (i) => i, 100, 100)], [[1, 500], [1, 1]]);
    assert.deepEqual([...batchesOf([], () => 1, 4, 4)], []);
    // Bad sizes count as 0; limits below 1 as 1.
    assert.deepEqual(sizes([...batchesOf([1, 2, 3], () => NaN, 0, 0)]), [1, 1, 1]);
  });

  it('sendInBatches keeps at most inFlight batches unanswered and waits for all of them', async () => {
    const items = Array.from({ length: 300 }, (_, i) => i);
    let open = 0;
    let most = 0;
    const got: number[] = [];
    await sendInBatches(items, () => 1000, { inFlight: 2 }, async (batch) => {
      open++;
      most = Math.max(most, open);
      await new Promise((r) => setTimeout(r, 1));
      got.push(...batch);
      open--;
    });
    assert.equal(most, 2);
    assert.equal(open, 0);
    assert.deepEqual(
      got.sort((a, b) => a - b),
      items,
    );
  });

  it('sendInBatches uses the engine defaults, and sends nothing more once its signal aborts', async () => {
    const items = Array.from({ length: 3 * ENGINE_BATCH_FILES }, (_, i) => i);
    const batches: number[][] = [];
    await sendInBatches(items, () => 1, { inFlight: 1 }, async (b) => void batches.push(b));
    assert.deepEqual(sizes(batches), [ENGINE_BATCH_FILES, ENGINE_BATCH_FILES, ENGINE_BATCH_FILES]);
    const bySize: number[][] = [];
    await sendInBatches([1, 2, 3], () => ENGINE_BATCH_BYTES, { inFlight: 1 }, async (b) => void bySize.push(b));
    assert.deepEqual(sizes(bySize), [1, 1, 1]);
    const abort = new AbortController();
    const sent: number[][] = [];
    await sendInBatches(items, () => 1, { inFlight: 1, files: 10, signal: abort.signal }, async (b) => {
      sent.push(b);
      if (sent.length === 2) abort.abort();
    });
    assert.equal(sent.length, 2);
  });
});
