// A scan's workerData and its first worker started before the scan (src/node/scan/scanWorkers.ts).
import { strict as assert } from 'node:assert';
import { prestartScanWorkers, scanWorkerData, setScanWorkersQuiet, takePrestartedScanWorkers, defaultScanWorkerScript } from '../../../../src/node/scan/scanWorkers';
import { kernelTablesBuffer } from '../../../../src/node/workers/nativeKernel';
import { variantTableBuffer } from '../../../../src/node/cjk/variants';

describe("a scan's workers, started before it", () => {
  it('makes fresh shared buffers for each scan, sized as the kernel and variant tables want', () => {
    const a = scanWorkerData();
    const b = scanWorkerData();
    assert.notEqual(a.kernelTables, b.kernelTables);
    assert.equal(a.kernelTables!.byteLength, kernelTablesBuffer().byteLength);
    assert.equal(a.variantTable!.byteLength, variantTableBuffer().byteLength);
    assert.equal(a.quiet, false);
  });

  it('says quiet after the workers started, in the word after the notice bits (or in `quiet` when there is none)', () => {
    const data = scanWorkerData();
    const words = new Int32Array(data.logged);
    setScanWorkersQuiet(data, true);
    assert.equal(Atomics.load(words, 1), 1);
    assert.equal(Atomics.load(words, 0), 0, 'the notice bits untouched');
    setScanWorkersQuiet(data, false);
    assert.equal(Atomics.load(words, 1), 0);
    const old = { logged: new SharedArrayBuffer(4), quiet: false };
    setScanWorkersQuiet(old, true);
    assert.equal(old.quiet, true);
  });

  it('hands its workers once, and only to a scan of the same worker script', async () => {
    prestartScanWorkers(1);
    prestartScanWorkers(1); // once a process: no second worker
    assert.equal(takePrestartedScanWorkers('/elsewhere/worker.js'), undefined);
    const taken = takePrestartedScanWorkers(defaultScanWorkerScript());
    assert.ok(taken);
    assert.equal(taken.workers.length, 1);
    assert.equal(taken.workers[0].workerData, taken.data);
    assert.equal(takePrestartedScanWorkers(defaultScanWorkerScript()), undefined, 'taken already');
    await taken.workers[0].release().terminate();
  });
});
