/**
 * The fingerprinting worker: a thin dispatch loop over typed messages.
 */
import { fingerprintDecoded, fingerprintFile } from '../node/fingerprintFile';
import type { WorkerRequest, WorkerResponse } from '../node/messages';
import { serveWorker } from '../node/workerPool';

async function handle(req: WorkerRequest): Promise<WorkerResponse> {
  switch (req.type) {
    case 'fingerprintFiles': {
      const results = [];
      for (const f of req.files) results.push(await fingerprintFile(f, req.settings));
      return results;
    }
    case 'fingerprintText':
      return fingerprintDecoded(req.relPath, req.text, Buffer.byteLength(req.text), 'utf-8', req.settings);
  }
}

serveWorker<WorkerRequest, WorkerResponse>(handle);
