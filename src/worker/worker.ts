/**
 * The fingerprinting worker: a thin dispatch loop over typed messages.
 */
import { DocumentFrequencyTable } from '../core/fingerprint/documentFrequency';
import { threadId, workerData } from 'node:worker_threads';
import { hashString64, out } from '../core/text/hash';
import { cjkSegmenterInUse, countFileShinglesSync, fingerprintDecoded, fingerprintFileSync, setEngineLog } from '../node/workers/fingerprintFile';
import { matchPairList } from '../core/report/compare';
import type { FingerprintWorkerData, WorkerRequest, WorkerResponse } from '../node/workers/messages';
import { packOutcomes, packPairs, transferablesOf, unpackItems } from '../node/workers/packing';
import { serveWorker } from '../node/workers/workerPool';
import { codeBatch } from '../node/workers/codeBatch';
import type { FileToFingerprint } from '../node/workers/fileOutcome';
import { nativeKernel, useKernelTables } from '../node/workers/nativeKernel';
import { useVariantTableBuffer } from '../node/cjk/variants';
import type * as RegionJob from '../node/regions/regionJob';

const data = workerData as Partial<FingerprintWorkerData> | null | undefined;
if (data?.kernelTables instanceof SharedArrayBuffer) useKernelTables(data.kernelTables);
if (data?.variantTable instanceof SharedArrayBuffer) useVariantTableBuffer(data.variantTable);
if (data?.logged instanceof SharedArrayBuffer) {
  const logged = new Int32Array(data.logged);
  // Quiet from the start, or said later in the word after the bits (a worker started before its scan: scanWorkers.ts).
  const quiet = () => data.quiet === true || (logged.length > 1 && Atomics.load(logged, 1) === 1);
  setEngineLog((msg) => {
    if (quiet()) return;
    hashString64(msg);
    const bit = 1 << (out.lo & 31);
    if ((Atomics.or(logged, 0, bit) & bit) === 0) console.error(msg); // first worker to say it
  });
}

/**
 * The region finder's worker side (--locate with 3 workers and more), loaded on its first job: a
 * plain scan's workers do not run its set-up (node:crypto, its tokenised closers) while they boot.
 */
function regionJob(): typeof RegionJob {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../node/regions/regionJob') as typeof RegionJob;
}

function handle(req: WorkerRequest): WorkerResponse {
  switch (req.type) {
    case 'fingerprintFiles': {
      // Documents packed for a receiver that keeps them: the kernel's buffers sent as they are.
      const buffers = req.pack === true && req.regionsOwned === true;
      const fingerprint = (f: FileToFingerprint) => fingerprintFileSync(f, req.settings, req.df, req.cjk, req.regions === true, buffers);
      if (!req.pack) return req.files.map(fingerprint);
      // Packed: the plain code files by the kernel in one call, the others one by one.
      const batch = codeBatch(req.files, req.settings, req.df, req.regions === true, buffers, req.regionsOnly === true);
      const results = req.files.map((f, i) => batch?.[i] ?? fingerprint(f));
      return { ...packOutcomes(results, { ownedRegions: req.regionsOwned === true }), worker: { thread: threadId, cjk: cjkSegmenterInUse() } };
    }
    case 'fingerprintText':
      return fingerprintDecoded(req.relPath, req.text, Buffer.byteLength(req.text), 'utf-8', req.settings, req.df);
    case 'countShingles': {
      const table = new DocumentFrequencyTable(req.table);
      let counted = 0;
      for (const f of req.files) if (countFileShinglesSync(f, req.settings, table)) counted++;
      return counted;
    }
    case 'matchPairs': {
      return packPairs(matchPairList(unpackItems(req.items), { ...req.options, kernel: nativeKernel() }));
    }
    case 'regionBuckets':
      return regionJob().runRegionBuckets(req);
  }
}

serveWorker<WorkerRequest, WorkerResponse>(handle, { transfer: transferablesOf });
