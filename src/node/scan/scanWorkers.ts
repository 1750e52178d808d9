/**
 * The start of a scan's worker threads: their workerData (the shared kernel tables, variant table
 * and notice bits, made once per scan), and a first worker started before the scan is asked for
 * ({@link prestartScanWorkers}: the CLI does it before its own set-up, so that the worker's boot
 * overlaps that of the main thread; issue 16), which scanDirectory then adopts with its data.
 */
import * as path from 'node:path';
import { fillKernelTables, kernelTablesBuffer } from '../workers/nativeKernel';
import { variantTableBuffer } from '../cjk/variants';
import type { FingerprintWorkerData, WorkerRequest, WorkerResponse } from '../workers/messages';
import { prestartWorker, WorkerPool, type PrestartedWorker } from '../workers/workerPool';

/** The bundled worker entry beside this bundle (dist/worker.js). */
export function defaultScanWorkerScript(): string {
  return path.join(__dirname, 'worker.js');
}

/** Fresh workerData for one scan's workers; quiet or not is said later ({@link setScanWorkersQuiet}). */
export function scanWorkerData(): FingerprintWorkerData {
  return { logged: new SharedArrayBuffer(8), quiet: false, kernelTables: kernelTablesBuffer(), variantTable: variantTableBuffer() };
}

/** The workers' one-time notices are dropped (the word after `logged`'s bits; the workers read it when they would print). */
export function setScanWorkersQuiet(data: FingerprintWorkerData, quiet: boolean): void {
  if (data.logged.byteLength >= 8) Atomics.store(new Int32Array(data.logged), 1, quiet ? 1 : 0);
  else data.quiet = quiet;
}

let prestarted: { script: string; data: FingerprintWorkerData; workers: PrestartedWorker[] } | undefined;

/** Starts `count` workers of the next scan now, with the bundled worker entry (at most once a process). */
export function prestartScanWorkers(count: number): void {
  if (prestarted) return;
  const script = defaultScanWorkerScript();
  const data = scanWorkerData();
  const workers: PrestartedWorker[] = [];
  try {
    for (let i = 0; i < count; i++) workers.push(prestartWorker(script, data));
  } catch {
    // not startable now (e.g. no such file): the scan starts its own, and says why
  }
  prestarted = { script, data, workers };
}

/** The workers started by {@link prestartScanWorkers} and their data, when they run `script` (once; then undefined). */
export function takePrestartedScanWorkers(script: string): { data: FingerprintWorkerData; workers: PrestartedWorker[] } | undefined {
  const p = prestarted;
  if (!p || p.script !== script) return undefined;
  prestarted = { ...p, workers: [] };
  return p.workers.length ? { data: p.data, workers: p.workers } : undefined;
}

/**
 * A scan's pool: the workers started before it adopted, the first started now and the others
 * once the walk finds a second batch of files (`warmRest`: a tree of one batch never reaches
 * them, ~30–45 ms of CPU each spared), or all now (`allAtOnce`: work for them after the
 * fingerprints); `onWorkersOnline` once the workers started are online. `fillTables` makes the
 * kernel's tables, once, in this thread (called once the first files are on their way: the
 * workers boot meanwhile, and wait for them at their first code file).
 */
export function startScanPool(o: { workerScript?: string; workers?: number; quiet?: boolean; pipeline: number; allAtOnce: boolean; lazy?: boolean; onWorkersOnline?: () => void }) {
  const script = o.workerScript ?? defaultScanWorkerScript();
  const early = takePrestartedScanWorkers(script);
  const workerData = early?.data ?? scanWorkerData();
  setScanWorkersQuiet(workerData, o.quiet ?? false);
  const pool = new WorkerPool<WorkerRequest, WorkerResponse>({ script, size: o.workers, workerData, pipeline: o.pipeline, prestarted: early?.workers });
  // `lazy`: no worker but one started before the scan until a task comes (the code files on the
  // addon's threads: nativeBatches.ts).
  let warmed = o.allAtOnce || o.lazy === true;
  if (!o.lazy) pool.warm(warmed ? Infinity : 1);
  else if (early) pool.warm(1);
  const online = () => void pool.whenOnline().then(o.onWorkersOnline);
  if (warmed) online();
  let tablesFilled = false;
  return {
    pool,
    /** The fold table's room the scan's workers share (made by the first that meets Han text). */
    variantTable: workerData.variantTable,
    fillTables(): void {
      if (!tablesFilled) fillKernelTables(workerData.kernelTables!);
      tablesFilled = true;
    },
    /** The walk so far: `batches` made, `walked` whether it is over. */
    warmRest(batches: number, walked: boolean): void {
      if (warmed) return;
      warmed = true;
      if (!walked || batches > 1) pool.warm();
      online();
    },
  };
}
