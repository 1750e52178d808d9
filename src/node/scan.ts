/**
 * A whole scan of a folder, as the CLI runs it: walk (ignore rules, globs, size limit), fingerprint
 * in a pool of worker threads, then match and group.
 */
import * as path from 'node:path';
import { buildReport, type Report } from '../core/report';
import type { EngineSettings } from './engineSettings';
import { DF_TABLE_BITS } from '../core/documentFrequency';
import type { FileOutcome, FileToFingerprint, FingerprintWorkerData, SharedFrequencies, WorkerRequest, WorkerResponse } from './messages';
import { walkFiles } from './walk';
import { WorkerPool } from './workerPool';
import type { FingerprintedDocument } from '../core/report';

export interface ScanOptions {
  root: string;
  settings: EngineSettings;
  include?: string[];
  exclude?: string[];
  gitignore?: boolean;
  /** Worker threads; default: one per core. */
  workers?: number;
  /** Path of the bundled worker entry; default: worker.js beside this bundle. */
  workerScript?: string;
  /** Files per message to a worker. */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  onSkip?: (relPath: string, reason: string) => void;
  /** Drop the workers' one-time notices (printed once per scan on stderr otherwise). */
  quiet?: boolean;
  signal?: AbortSignal;
}

export interface ScanStats {
  files: number;
  sections: number;
  bytes: number;
  elapsedMs: number;
  skipped: number;
}

export interface ScanResult extends Report {
  root: string;
  stats: ScanStats;
  /** The fingerprinted documents, sorted by path. */
  documents: FingerprintedDocument[];
}

export async function scanDirectory(options: ScanOptions): Promise<ScanResult> {
  const started = performance.now();
  const root = path.resolve(options.root);
  const settings = options.settings;
  const batchSize = options.batchSize ?? 16;
  let skipped = 0;
  const skip = (relPath: string, reason: string) => {
    skipped++;
    options.onSkip?.(relPath, reason);
  };
  const pool = new WorkerPool<WorkerRequest, WorkerResponse>({
    script: options.workerScript ?? path.join(__dirname, 'worker.js'),
    size: options.workers,
    workerData: { logged: new SharedArrayBuffer(4), quiet: options.quiet ?? false } satisfies FingerprintWorkerData,
  });
  const documents: FingerprintedDocument[] = [];
  let bytes = 0;
  let done = 0;

  try {
    const files: FileToFingerprint[] = [];
    for await (const entry of walkFiles(root, {
      include: options.include,
      exclude: options.exclude,
      gitignore: options.gitignore,
      maxFileSizeBytes: settings.maxFileSizeBytes,
      onSkip: skip,
      signal: options.signal,
    })) {
      files.push({ path: entry.path, relPath: entry.relPath });
    }
    const batches: FileToFingerprint[][] = [];
    for (let i = 0; i < files.length; i += batchSize) batches.push(files.slice(i, i + batchSize));

    // TF-IDF: a first pass counts each shingle's document frequency into a table the workers share.
    let df: SharedFrequencies | undefined;
    if (settings.weighting === 'tfidf') {
      const table = new SharedArrayBuffer(4 << DF_TABLE_BITS);
      const counted = await inParallel(batches, pool.size * 2, (files) =>
        pool.run({ type: 'countShingles', files, settings, table }).then((n) => n as number, () => 0),
      );
      df = { buffer: table, documents: counted.reduce((a, b) => a + b, 0) };
    }

    const collect = (outcomes: FileOutcome[]) => {
      for (const o of outcomes) {
        done++;
        if (o.ok) {
          bytes += o.bytes;
          documents.push({ path: o.relPath, doc: o.doc });
        } else {
          skip(o.relPath, o.reason);
        }
      }
      options.onProgress?.(done, files.length);
    };
    await inParallel(batches, pool.size * 2, async (batch) => {
      options.signal?.throwIfAborted();
      try {
        collect((await pool.run({ type: 'fingerprintFiles', files: batch, settings, df })) as FileOutcome[]);
      } catch {
        // A batch whose worker died twice: retry its files one by one so only the culprit is lost.
        for (const f of batch) {
          try {
            collect((await pool.run({ type: 'fingerprintFiles', files: [f], settings, df })) as FileOutcome[]);
          } catch (e) {
            collect([{ relPath: f.relPath, ok: false, reason: `fingerprinting failed (${(e as Error).message})` }]);
          }
        }
      }
    });
  } finally {
    await pool.close();
  }
  options.signal?.throwIfAborted();

  documents.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const report = buildReport(documents, {
    maxDistance: settings.maxDistance,
    sectionMaxDistance: settings.sectionMaxDistance,
    minSimilarity: settings.minSimilarity,
    sections: settings.sections,
  });
  let sections = 0;
  for (const d of documents) sections += d.doc.sections.length;
  return {
    root,
    ...report,
    documents,
    stats: {
      files: documents.length,
      sections,
      bytes,
      elapsedMs: Math.round(performance.now() - started),
      skipped,
    },
  };
}

/** Runs `fn` over the items with at most `limit` calls under way; results in input order. */
async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(lanes);
  return results;
}
