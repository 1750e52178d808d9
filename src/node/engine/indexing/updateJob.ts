/**
 * The engine's update job (`update`: a batch of file events): the batch planned (updatePlan.ts),
 * then either a walk (an ignore file changed, a folder appeared: the index job, indexJob.ts) or
 * the files new or changed read and the change matched incrementally (its report, then its
 * located copies); the cache written a little later.
 */
import type { IndexEntry } from '../documentEntries';
import type { IndexStats, UpdateResult } from '../engineProtocol';
import { eligible } from './engineRules';
import { readFiles, runIndex, type IndexJobHost } from './indexJob';
import { planUpdate, type UpdatePlanHost } from './updatePlan';

/** The engine's parts an update needs (EngineState provides them). */
export interface UpdateJobHost extends IndexJobHost {
  entries: IndexJobHost['entries'] & UpdatePlanHost<IndexEntry>['entries'];
  /** A change's report (posted), then its located copies. */
  changeReport(stats: IndexStats, changed: Set<string>): Promise<void>;
}

/** Applies a batch of file events (paths absolute or relative to the process's folder). Run in the engine's serial queue. */
export async function runUpdate(h: UpdateJobHost, batch: { upserts: string[]; removes: string[]; renames: Array<{ from: string; to: string }> }): Promise<UpdateResult> {
  const started = performance.now();
  const settings = h.config().settings;
  const plan = await planUpdate(
    { entries: h.entries, eligible: (abs) => eligible(h.rules(), abs), skip: (abs, reason) => h.notices.skip(abs, reason), maxFileSizeBytes: settings.maxFileSizeBytes },
    batch,
  );
  const { toRead, changed, upserts, needsWalk, removed } = plan;
  let skipped = plan.skipped;

  if (needsWalk) {
    for (const r of h.rules()) r.git.clear();
    const stats = await runIndex(h);
    return { ...stats, removed: stats.removed + removed, rewalked: true };
  }

  const job = new AbortController();
  let reread = 0;
  if (toRead.length > 0) {
    const r = await readFiles(h, toRead, job.signal, 0, toRead.length, (p, reason) => {
      skipped++;
      h.notices.skip(p, reason);
    });
    reread = r.read;
  }
  h.notices.flushSkips();
  const stats: UpdateResult = {
    files: h.entries.docs.size,
    reread,
    cacheHits: upserts.size - toRead.length,
    removed,
    skipped,
    cancelled: false,
    elapsedMs: 0,
    matchMs: 0,
    rewalked: false,
  };
  // Nothing changed (e.g. the watcher's echo of a save already handled): no new report.
  if (changed.size === 0) {
    stats.elapsedMs = Math.round(performance.now() - started);
    return stats;
  }
  stats.elapsedMs = Math.round(performance.now() - started);
  await h.changeReport(stats, changed);
  stats.elapsedMs = Math.round(performance.now() - started);
  h.cache.schedule();
  return stats;
}
