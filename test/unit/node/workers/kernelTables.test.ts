// The native kernel's tables made once by a scan's thread and shared with its workers
// (src/node/workers/nativeKernel.ts: kernelTablesBuffer, fillKernelTables, useKernelTables): the
// shared tables are exactly the ones each thread would make, and a worker whose tables come late,
// or who is told to make its own, fingerprints exactly as a worker given none.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kernelTables } from '../../../../src/core/wasm/wasmKernel';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { fillKernelTables, kernelKind, kernelTablesBuffer } from '../../../../src/node/workers/nativeKernel';
import type { FingerprintWorkerData, WorkerRequest, WorkerResponse } from '../../../../src/node/workers/messages';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import { WorkerPool } from '../../../../src/node/workers/workerPool';

const WORKER = path.join(__dirname, '..', '..', '..', '..', 'dist', 'worker.js');
const SAMPLE = [
  'export function total(items: { price: number; qty: number }[]): number {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price * item.qty; // naïve: no rounding',
  '  return sum;',
  '}',
  '',
  'export class Cart {',
  '  private items: { price: number; qty: number }[] = [];',
  "  add(price: number, qty = 1): void { this.items.push({ price, qty }); } // 'λ' ünïcödé",
  '  get total(): number { return total(this.items); }',
  '}',
  '',
].join('\n');

/** The outcome of fingerprintText in a worker started with `tables` (none: it makes its own), filled by `fill` once it is started. */
async function inWorker(tables: SharedArrayBuffer | undefined, fill: () => void): Promise<FileOutcome> {
  const pool = new WorkerPool<WorkerRequest, WorkerResponse>({
    script: WORKER,
    size: 1,
    workerData: { logged: new SharedArrayBuffer(4), quiet: true, ...(tables ? { kernelTables: tables } : {}) } satisfies FingerprintWorkerData,
  });
  try {
    const answer = pool.run({ type: 'fingerprintText', relPath: 'cart.ts', text: SAMPLE, settings: DEFAULT_ENGINE_SETTINGS });
    setTimeout(fill, 150);
    return (await answer) as FileOutcome;
  } finally {
    await pool.close();
  }
}

function canon(o: FileOutcome): string {
  assert.ok(o.ok, 'fingerprinted');
  return JSON.stringify(o.doc, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
}

describe('the native kernel tables shared with the workers', function () {
  this.timeout(30000);
  before(function () {
    assert.ok(fs.existsSync(WORKER), 'dist/worker.js is built (node esbuild.js)');
    if (kernelKind() !== 'native') this.skip(); // the tables are the addon's
  });

  it('are exactly the tables a thread makes for itself, marked ready', () => {
    const shared = kernelTablesBuffer();
    fillKernelTables(shared);
    assert.equal(Atomics.load(new Int32Array(shared, 0, 1), 0), 1);
    const own = kernelTables();
    const log = new Float64Array(shared, 8, own.logTable.length);
    const word = new Uint8Array(shared, 8 + own.logTable.length * 8, own.wordTable.length);
    assert.equal(shared.byteLength, 8 + own.logTable.length * 8 + own.wordTable.length);
    assert.deepEqual(Buffer.from(log.buffer, log.byteOffset, log.byteLength), Buffer.from(own.logTable.buffer));
    assert.deepEqual(Buffer.from(word), Buffer.from(own.wordTable));
  });

  it('a worker waits for tables filled after it started, and fingerprints as one given none', async () => {
    const want = canon(await inWorker(undefined, () => undefined));
    assert.ok(want.includes('"sections":[{'), 'the sample has sections');
    const tables = kernelTablesBuffer();
    const outcome = await inWorker(tables, () => fillKernelTables(tables));
    assert.equal(Atomics.load(new Int32Array(tables, 0, 1), 0), 1);
    assert.equal(canon(outcome), want);
  });

  it('a worker told to make its own tables (state 2) fingerprints the same', async () => {
    const tables = kernelTablesBuffer();
    const late = await inWorker(tables, () => {
      const state = new Int32Array(tables, 0, 1);
      Atomics.store(state, 0, 2);
      Atomics.notify(state, 0);
    });
    assert.equal(canon(late), canon(await inWorker(undefined, () => undefined)));
  });
});
