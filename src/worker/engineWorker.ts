/**
 * The extension's engine worker (dist/engineWorker.js): a dispatch loop over the typed messages
 * of src/node/engine/engineProtocol.ts, delegating to {@link EngineState}. Files are fingerprinted by a
 * nested pool of dist/worker.js threads.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { EngineEvent, EngineMessage, EngineRequest, EngineRequestEnvelope } from '../node/engine/engineProtocol';
import { EngineState } from '../node/engine/engineState';
import { PoolFingerprinter } from '../node/engine/poolFingerprinter';
import { htmlReport } from '../node/htmlReport/fromScan';
import { REPORT_PART_WEIGHT, splitReport } from '../node/engine/reportParts';
import { lowerThreadPriority } from '../node/workers/threadPriority';

const port = parentPort;
if (!port) throw new Error('engineWorker must run in a worker thread');
// Indexing is background work: on Linux this thread and the fingerprint workers it starts run at
// a lower priority than the editor (see threadPriority.ts).
lowerThreadPriority();

const post = (msg: EngineMessage) => port.postMessage(msg);
let reportPartWeight = REPORT_PART_WEIGHT;
/** Events to the host; a large report goes in parts (each message is one task on the host). */
const emit = (event: EngineEvent) => {
  if (event.type !== 'report') return post({ kind: 'event', event });
  for (const e of splitReport(event.report, reportPartWeight)) post({ kind: 'event', event: e });
};

let state: EngineState | null = null;
let pool: PoolFingerprinter | null = null;
/** Heap limit of each fingerprint worker: a runaway file ends that worker, not the extension host. */
const POOL_HEAP_MB = 2048;

function engine(): EngineState {
  if (!state) throw new Error('engine not initialised (send init first)');
  return state;
}

function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(4, cores - 1));
}

async function handle(req: EngineRequest): Promise<unknown> {
  switch (req.type) {
    case 'init': {
      if (state) await state.shutdown();
      pool = new PoolFingerprinter({
        script: req.workerScript ?? path.join(__dirname, 'worker.js'),
        size: req.poolSize ?? defaultPoolSize(),
        resourceLimits: { maxOldGenerationSizeMb: POOL_HEAP_MB },
      });
      reportPartWeight = Math.max(1, req.tuning?.reportPartWeight ?? REPORT_PART_WEIGHT);
      state = new EngineState(pool, emit, req.tuning);
      return state.init(req);
    }
    case 'reindex':
      return engine().reindex(req.config);
    case 'setThresholds':
      return engine().setThresholds(req.thresholds);
    case 'update':
      return engine().update(req);
    case 'saveText':
      return engine().saveText(req.path, req.text);
    case 'getReport':
      return engine().getReport();
    case 'queryFile':
      return engine().query(req.path, req.text);
    case 'matchText':
      return engine().matchText(req.path, req.text);
    case 'cancel':
      return { cancelled: state ? state.cancel() : false };
    case 'stats':
      return engine().stats();
    case 'overview':
      return engine().overview();
    case 'htmlReport': {
      // The page is drawn by the Overview's script, bundled beside this one (dist/overview.js).
      const { scan, thresholds, maxFileSizeBytes } = engine().htmlScan();
      const overviewScript = fs.readFileSync(path.join(__dirname, 'overview.js'), 'utf8');
      return htmlReport(scan, { title: path.basename(scan.root) || scan.root, thresholds, overviewScript, maxFileSizeBytes });
    }
    case 'setBaselines':
      return engine().setBaselines(req.baselines);
    case 'addToBaseline':
      return engine().baselines.addPairs(req.root, req.file, req.pairs);
    case 'flushCache':
      await engine().flushCache();
      return null;
    case 'shutdown':
      if (state) await state.shutdown();
      return null;
    case 'debugCrash':
      return debugCrash(req.target, req.how ?? 'exit');
  }
}

/** Fault injection for the reliability tests (see DebugCrashRequest). */
function debugCrash(target: 'engine' | 'pool', how: 'exit' | 'throw' | 'oom'): { terminated: number } {
  if (target === 'pool') return { terminated: pool?.terminateWorker() ? 1 : 0 };
  if (how === 'exit') process.exit(70);
  if (how === 'throw') {
    setImmediate(() => {
      throw new Error('debugCrash: an uncaught error in the engine worker');
    });
  } else {
    // Many small arrays: the shape of allocation whose heap-limit failure Node turns into
    // ERR_WORKER_OUT_OF_MEMORY for this worker. One allocation that no longer fits (an array
    // of 100,000 slots, 800 KB at once) can instead end in V8's fatal out-of-memory error,
    // which aborts the whole process (resourceLimits are best-effort).
    setImmediate(() => {
      const hog: unknown[][] = [];
      for (;;) hog.push(new Array(1e4).fill({ n: hog.length }));
    });
  }
  return { terminated: 0 };
}

port.on('message', (msg: EngineRequestEnvelope) => {
  const id = msg?.id;
  Promise.resolve()
    .then(() => handle(msg.req))
    .then(
      (res) => post({ kind: 'response', id, ok: true, res: res ?? null }),
      (e: unknown) => post({ kind: 'response', id, ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
});

process.on('unhandledRejection', (e) => emit({ type: 'log', level: 'error', message: `engine: ${String((e as Error)?.stack ?? e)}` }));
