/**
 * The fingerprinting worker: a thin dispatch loop over typed messages.
 */
import { DocumentFrequencyTable } from '../core/documentFrequency';
import { countFileShingles, fingerprintDecoded, fingerprintFile } from '../node/fingerprintFile';
import type { WorkerRequest, WorkerResponse } from '../node/messages';
import { serveWorker } from '../node/workerPool';

async function handle(req: WorkerRequest): Promise<WorkerResponse> {
  switch (req.type) {
    case 'fingerprintFiles': {
      const results = [];
      for (const f of req.files) results.push(await fingerprintFile(f, req.settings, req.df));
      return results;
    }
    case 'fingerprintText':
      return fingerprintDecoded(req.relPath, req.text, Buffer.byteLength(req.text), 'utf-8', req.settings, req.df);
    case 'countShingles': {
      const table = new DocumentFrequencyTable(req.table);
      let counted = 0;
      for (const f of req.files) if (await countFileShingles(f, req.settings, table)) counted++;
      return counted;
    }
  }
}

serveWorker<WorkerRequest, WorkerResponse>(handle);
