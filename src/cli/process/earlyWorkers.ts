/**
 * The CLI's scan workers started first (imported right after v8Tiering, before any other module's
 * set-up): `neardup scan` and `neardup fingerprints` start their first worker thread now, so that
 * its boot (~40 ms of a thread) overlaps the ~30 ms this thread spends setting up the CLI and its
 * commander parse; the scan then adopts it (node/scan/scanWorkers.ts; issue 16), unless the scan's
 * code files go to the addon's threads (then no worker starts unless needed: scan/filesHere.ts).
 * It boots before V8's flags are set (v8Tiering.ts), with Node's code cache. A run that ends before
 * its scan (a usage error, a missing folder) lets it go with the process; `--help` starts none.
 */
import * as os from 'node:os';
import { nativeBatchesExpected } from '../../node/scan/nativeBatches';
import { prestartScanWorkers } from '../../node/scan/scanWorkers';
import { applyCliV8Flags } from './v8Tiering';

/** Whether node's arguments name a command that scans a folder with workers (and do not ask for its help). */
export function startsScanWorkers(argv: readonly string[]): boolean {
  if (argv[2] !== 'scan' && argv[2] !== 'fingerprints') return false;
  return !argv.slice(3).some((a) => a === '--help' || a === '-h');
}

/**
 * How many workers to start first: one (a tree of one batch needs no more), or for a scan that
 * locates copies (the default; work for every worker after the fingerprints) as many as the scan
 * will have: one per core, or `--workers N` (a guess at the flags, the last of `--locate` and
 * `--no-locate` winning; a worker too many is let go when the scan ends, as with a
 * `.neardup.json` that sets `"locate": false`, which is read later).
 */
export function earlyWorkerCount(argv: readonly string[], cores: number): number {
  if (argv[2] !== 'scan' || argv.lastIndexOf('--no-locate') > argv.lastIndexOf('--locate')) return 1;
  const i = argv.findIndex((a) => a === '--workers' || a.startsWith('--workers='));
  const n = i < 0 ? NaN : Number(argv[i].startsWith('--workers=') ? argv[i].slice('--workers='.length) : argv[i + 1]);
  return Math.max(1, Math.min(Number.isInteger(n) && n > 0 ? n : cores, cores, 64));
}

/**
 * libuv's pool for the scan's batches on the addon's threads: two per core (each lane a batch
 * running and one queued behind it, nativeBatches.ts), four at least (libuv's default), unless
 * the environment says how many. Read by libuv when its pool first runs: set before anything runs there.
 */
export function useBatchThreads(cores: number, env: NodeJS.ProcessEnv = process.env): void {
  if (env.UV_THREADPOOL_SIZE === undefined) env.UV_THREADPOOL_SIZE = String(Math.max(4, Math.min(2 * cores, 256)));
}

// V8's flags: for a scan once its workers are online (commands/scanCommand.ts: onWorkersOnline),
// else now. A scan whose code files go to the addon's threads (nativeBatches.ts) starts no worker
// now: the few other files are fingerprinted on this thread (scan/filesHere.ts) and a worker starts
// only for more of them (its boot, ~0.17 s of CPU, costs more than a few Markdown files).
if (startsScanWorkers(process.argv)) {
  const native = nativeBatchesExpected();
  if (native) useBatchThreads(os.availableParallelism());
  else prestartScanWorkers(earlyWorkerCount(process.argv, os.availableParallelism()));
} else applyCliV8Flags();
