/**
 * The report of a scan's documents (scan.ts): the files and the sections matched, the files in a
 * worker while this thread matches the sections when there are enough of them; and a helper that
 * runs a scan's calls a few at a time.
 */
import { nativeKernel } from '../workers/nativeKernel';
import {
  fileMatchOptions,
  finishReport,
  matchFileItems,
  matchSectionItems,
  planReport,
  type FingerprintedDocument,
  type MatchedItems,
  type Report,
  type ReportOptions,
} from '../../core/report/report';
import type { EngineSettings } from '../settings/engineSettings';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import { packItems, unpackPairs, type PackedPairs } from '../workers/packing';
import type { WorkerPool } from '../workers/workerPool';

/**
 * With at least this many file fingerprints (and sections on), a worker matches the files while
 * this thread matches the sections; below, both here (a message costs more than it saves).
 */
export const PARALLEL_MATCH_MIN_FILES = 500;

/**
 * The report of the documents: with sections and enough files, the files are matched in a worker
 * while this thread matches the sections (without their rule on paired files, applied after: see
 * matchSectionItems); the same report as buildReport.
 */
export async function matchDocuments(
  documents: FingerprintedDocument[],
  settings: EngineSettings,
  pool: WorkerPool<WorkerRequest, WorkerResponse>,
  phase: (name: string) => void,
  release: () => void,
  beforeSections?: () => void,
  filesHere = false,
): Promise<Report> {
  const options: ReportOptions = {
    maxDistance: settings.maxDistance,
    sectionMaxDistance: settings.sectionMaxDistance,
    minSimilarity: settings.minSimilarity,
    sections: settings.sections,
    kernel: nativeKernel(),
    // While this thread matches the sections the workers are idle but for the files' match: the
    // kernel's tables on as many threads as the pool has workers (the same pairs).
    sectionThreads: pool.size,
  };
  beforeSections?.(); // e.g. work sent to the workers or the kernel's threads while this thread matches (its plan too)
  const plan = planReport(documents);
  if (filesHere || !settings.sections || plan.fileItems.length < PARALLEL_MATCH_MIN_FILES || plan.sectionItems.length < 2) {
    release();
    return finishReport(plan, options, matchFileItems(plan, options), null);
  }
  const items = packItems(plan.fileItems.map((i) => i.fp));
  const filesJob = pool
    .run({ type: 'matchPairs', items, options: fileMatchOptions(options) }, [items.fp.buffer, items.offsets.buffer, items.sketches.buffer] as ArrayBuffer[])
    .then(
      (res) => {
        phase('files matched');
        return unpackPairs(res as PackedPairs) satisfies MatchedItems;
      },
      () => null, // the worker failed: match them here
    );
  const sections = matchSectionItems(plan, options, null);
  phase('sections matched');
  const files = (await filesJob) ?? matchFileItems(plan, options);
  release();
  return finishReport(plan, options, files, sections);
}

/** Runs `fn` over the items with at most `limit` calls under way; results in input order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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
