/**
 * `neardup join SHARD...`: the shards' fingerprints matched exactly as `neardup scan` matches a
 * tree's (core/report: planReport, the permuted-table all-pairs join of core/index, the sketches'
 * confirmation, nested section pairs dropped, groups), so a tree scanned whole and the same tree
 * exported in parts and joined give the same pairs. Paths read `shard:path`.
 *
 * With an `engine` (daskJoin.ts), the candidate search and confirmation run there; its confirmed
 * pairs take the place of matchFileItems / matchSectionItems here, and finishReport makes the
 * report from them the same way.
 */
import { finishReport, matchFileItems, planReport, type MatchedItems, type ReportOptions, type ReportPlan } from '../../core/report/report';
import type { ScanResult } from '../scan/scan';
import type { EngineSettings } from '../settings/engineSettings';
import { nativeKernel } from '../workers/nativeKernel';
import { loadShards, type LoadedShards } from './readShards';

export interface JoinOptions {
  settings: Pick<EngineSettings, 'maxDistance' | 'sectionMaxDistance' | 'minSimilarity' | 'sections'>;
  onProgress?: (items: number, shard: number) => void;
  /** Called once the shards are read (before matching). */
  onLoaded?: (loaded: LoadedShards) => void;
  /**
   * Another engine's confirmed pairs (item numbers of the plan), instead of matching here: files,
   * and sections without the rule on paired files (finishReport applies it).
   */
  engine?: (loaded: LoadedShards, plan: ReportPlan, options: ReportOptions) => Promise<{ files: MatchedItems; sections: MatchedItems | null }>;
}

export interface JoinResult extends ScanResult {
  loaded: LoadedShards;
  /** Time spent reading the shards and matching, in ms. */
  readMs: number;
  matchMs: number;
}

export async function joinShards(files: readonly string[], options: JoinOptions): Promise<JoinResult> {
  const started = performance.now();
  const loaded = await loadShards(files, options.onProgress);
  options.onLoaded?.(loaded);
  const readMs = performance.now() - started;
  const s = options.settings;
  // The shards were made with `sections` on or off: a join cannot compare sections they lack.
  const sections = s.sections && loaded.header.settings.sections;
  const reportOptions: ReportOptions = {
    maxDistance: s.maxDistance,
    sectionMaxDistance: s.sectionMaxDistance,
    minSimilarity: s.minSimilarity,
    sections,
    kernel: nativeKernel(),
  };
  const plan = planReport(loaded.documents);
  let report;
  if (options.engine) {
    const found = await options.engine(loaded, plan, reportOptions);
    report = finishReport(plan, reportOptions, found.files, found.sections);
  } else {
    report = finishReport(plan, reportOptions, matchFileItems(plan, reportOptions), null);
  }
  let sectionCount = 0;
  for (const d of loaded.documents) sectionCount += d.doc.sections.length;
  const elapsedMs = performance.now() - started;
  return {
    root: loaded.names.join(','),
    ...report,
    documents: loaded.documents,
    stats: { files: loaded.documents.length, sections: sectionCount, bytes: loaded.bytes, elapsedMs: Math.round(elapsedMs), skipped: 0 },
    loaded,
    readMs,
    matchMs: elapsedMs - readMs,
  };
}
