/**
 * The state of the extension's engine worker: the fingerprints of every indexed document, the
 * file rules, the fingerprint cache and the current report. The worker entry
 * (src/worker/engineWorker.ts) only dispatches messages to this class, which answers them and
 * runs the jobs; their steps live in rooms of their own, each given a narrow host: the walk and
 * the reads (indexing/indexJob.ts), a batch of file events (indexing/updateJob.ts), the file
 * rules (indexing/engineRules.ts), the cache's writes (indexing/cacheWriter.ts), the report
 * (report/engineReport.ts), a saved document (savedText.ts), a pasted block
 * (editorText/textQuery.ts), the located copies (regions/engineRegions.ts).
 *
 * - Jobs that change the index (reindex, update, setThresholds) run one at a time, in order; a
 *   new reindex supersedes (aborts) a running one. `cancel` aborts the running walk/read.
 * - Files are read and fingerprinted by a {@link Fingerprinter} (a WorkerPool over dist/worker.js
 *   in production), never on this thread's hot path; this thread walks, matches and answers.
 * - Documents are keyed by absolute path. An entry keeps size and mtime, so a warm start (from
 *   the cache) or a re-walk re-reads only files whose size or mtime changed.
 */
import { kernelKind, kernelSummary, nativeKernel } from '../workers/nativeKernel';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { MAX_REPORT_PAIRS } from '../../core/report/report';
import type { DocumentFingerprint } from '../../core/types';
import type {
  EngineConfig,
  EngineEvent,
  EngineStats,
  EngineTuning,
  IndexStats,
  InitRequest,
  InitResult,
  QueryResult,
  SaveTextResult,
  TextQueryResult,
  Thresholds,
  UpdateResult,
  OverviewData,
  ViewReport,
} from './engineProtocol';
import { MAX_QUERY_MATCHES } from './engineProtocol';
import type { EngineSettings } from '../settings/engineSettings';
import { fingerprintKey, loadCache, nodeCacheIo, type CacheIo } from './fingerprintCache';
import { DocumentEntries, type IndexEntry } from './documentEntries';
import { applySavedText, type SavedTextHost } from './savedText';
import { matchText, type TextQueryHost } from './editorText/textQuery';
import type { FileOutcome, FileToFingerprint } from '../workers/fileOutcome';
import type { HtmlScanData } from './export/htmlScanData';
import { BaselineMarks } from '../baseline/baselineMarks';
import { findTwins, type TwinLimit } from './twins';
import { EngineReport } from './report/engineReport';
import { RegionCacheKeeper, regionCachePath } from './regions/regionCache';
import { EngineRegions } from './regions/engineRegions';
import { regionsHost } from './regions/regionsHost';
import { BUCKET_SEARCH_MAX_THREADS } from '../../core/regions/kernelBuckets';
import { eligible, folderOf, rulesOf, type RootRules } from './indexing/engineRules';
import { CacheWriter } from './indexing/cacheWriter';
import { JobNotices } from './indexing/jobNotices';
import { runIndex, type FileReader } from './indexing/indexJob';
import { runUpdate, type UpdateJobHost } from './indexing/updateJob';
import { ENGINE_BATCH_BYTES, ENGINE_BATCH_FILES } from './indexing/fileBatches';

/** Reads and fingerprints files, off the engine's thread (`size`, `fingerprintFiles`: indexing/indexJob.ts' {@link FileReader}). */
export interface Fingerprinter extends FileReader {
  regionDocuments?(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]>; // with their region documents (none: no located copies)
  fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome>;
  close(): Promise<void>;
}

export interface EngineStateOptions extends EngineTuning {
  /** The cache's file operations (tests inject failures). */
  cacheIo?: CacheIo;
}

export { fingerprintKey };

function thresholdsOf(s: EngineSettings): Thresholds {
  return { maxDistance: s.maxDistance, sectionMaxDistance: s.sectionMaxDistance, minSimilarity: s.minSimilarity };
}

export type { HtmlScanData };

export class EngineState {
  private config: EngineConfig | null = null;
  private rules: RootRules[] = [];
  private readonly entries = new DocumentEntries<IndexEntry>();
  private thresholds: Thresholds = { maxDistance: 0, sectionMaxDistance: 0, minSimilarity: 0 };
  private queue: Promise<unknown> = Promise.resolve();
  private indexJob: AbortController | null = null;
  /** The running index job while its walk and reads go on (what a cancel stops); null after them. */
  private cancellable: AbortController | null = null;
  private pendingReindex: { config?: EngineConfig; promise: Promise<IndexStats> } | null = null;
  /** The folders' baselines: their pairs' twins marked as items leave the engine (node/baseline). */
  readonly baselines = new BaselineMarks((p) => this.entries.docs.get(p), () => this.config?.settings, (p, s, e) => this.regions.sideKey(p, s, e));
  private readonly maxPairs: number | undefined;
  /** The fingerprint cache's writes (and its file, `cache.path`). */
  private readonly cache: CacheWriter;
  /** Located copies (`neardup.locate`): the region index, brought up to date after each job. */
  private readonly regions: EngineRegions;
  /** The current report: matched, viewed and posted (report/engineReport.ts). */
  private readonly report: EngineReport;
  /** The region index kept between sessions (regions/regionCache.ts). */
  private readonly regionCache: RegionCacheKeeper;
  /** The skips and progress the jobs post. */
  private readonly notices: JobNotices;
  /** The engine's parts its index and update jobs need (indexing/indexJob.ts). */
  private readonly jobs: UpdateJobHost;

  constructor(
    private readonly fingerprinter: Fingerprinter,
    private readonly emit: (event: EngineEvent) => void,
    options: EngineStateOptions = {},
  ) {
    const batch = { files: options.batchSize ?? ENGINE_BATCH_FILES, bytes: options.batchBytes ?? ENGINE_BATCH_BYTES };
    this.maxPairs = options.maxPairs;
    this.cache = new CacheWriter({ settings: () => this.config?.settings, entries: this.entries, emit }, options.cacheIo ?? nodeCacheIo, options.saveDelayMs ?? 1500);
    const regionThreads = options.regionThreads ?? Math.min(BUCKET_SEARCH_MAX_THREADS, os.availableParallelism?.() ?? os.cpus().length);
    this.regions = new EngineRegions(regionsHost(this.entries, this.fingerprinter, () => this.requireConfig().settings, emit, batch), nativeKernel(), options.regionsMaxBytes, undefined, Math.max(1, regionThreads));
    this.regionCache = new RegionCacheKeeper(
      this.regions,
      () => (this.config ? fingerprintKey(this.config.settings) : undefined),
      options.cacheIo ?? nodeCacheIo,
      options.saveDelayMs ?? 1500,
      (level, message) => emit({ type: 'log', level, message }),
    );
    this.report = new EngineReport(
      {
        entries: this.entries,
        regions: this.regions,
        baselines: this.baselines,
        settings: () => this.config?.settings,
        thresholds: () => this.thresholds,
        roots: () => this.rules.map((r) => r.path),
        folderOf: (p) => folderOf(this.rules, p),
        emit,
      },
      options.incrementalLimit ?? 500,
      options.maxPairs,
    );
    this.notices = new JobNotices(emit, options.progressIntervalMs ?? 100);
    this.jobs = {
      config: () => this.requireConfig(),
      rules: () => this.rules,
      entries: this.entries,
      regions: this.regions,
      notices: this.notices,
      cache: this.cache,
      fingerprinter: this.fingerprinter,
      batch,
      checkpointMs: options.checkpointMs ?? 10_000,
      emit,
      started: (job) => {
        this.indexJob = job;
        this.cancellable = job;
      },
      readsOver: (job) => {
        if (this.cancellable === job) this.cancellable = null;
      },
      ended: (job) => {
        if (this.indexJob === job) this.indexJob = null;
        if (this.cancellable === job) this.cancellable = null;
      },
      report: async (stats) => {
        this.report.compute(stats);
        await this.locate();
        this.regionCache.schedule();
      },
      changeReport: (stats, changed) => this.changeReport(stats, changed),
    };
  }

  // ------------------------------------------------------------------------------ requests

  async init(req: Pick<InitRequest, 'config' | 'cachePath'>): Promise<InitResult> {
    return this.serial(async () => {
      this.applyConfig(req.config);
      this.cache.path = req.cachePath;
      this.regionCache.file = req.cachePath ? regionCachePath(req.cachePath) : null;
      this.entries.clear();
      if (!req.cachePath) return { cacheStatus: 'none', cacheEntries: 0 };
      const loaded = await loadCache(req.cachePath, fingerprintKey(req.config.settings), this.cache.io);
      for (const e of loaded.entries) this.entries.set(e.path, { size: e.size, mtimeMs: e.mtimeMs, doc: e.doc, reason: e.reason, lines: e.lines });
      // The located copies' index as the last session left it (its files compared at the first step).
      await this.regionCache.load();
      if (loaded.status === 'discarded') {
        this.emit({ type: 'log', level: 'info', message: `fingerprint cache discarded (${loaded.reason}); rebuilding it` });
        return { cacheStatus: 'discarded', cacheReason: loaded.reason, cacheEntries: 0 };
      }
      return { cacheStatus: loaded.status, cacheEntries: loaded.entries.length };
    });
  }

  /** Walks every root (with a new config, if given) and re-reads what changed. */
  reindex(config?: EngineConfig): Promise<IndexStats> {
    // A queued reindex that has not started yet absorbs this one.
    if (this.pendingReindex) {
      if (config) this.pendingReindex.config = config;
      return this.pendingReindex.promise;
    }
    this.indexJob?.abort(new Error('superseded'));
    const pending: { config?: EngineConfig; promise: Promise<IndexStats> } = { config, promise: null as never };
    pending.promise = this.serial(async () => {
      if (this.pendingReindex === pending) this.pendingReindex = null;
      if (pending.config) this.applyConfig(pending.config);
      return runIndex(this.jobs);
    });
    this.pendingReindex = pending;
    return pending.promise;
  }

  setThresholds(thresholds: Thresholds): Promise<{ generation: number }> {
    return this.serial(async () => {
      this.thresholds = { ...thresholds };
      if (this.config) this.config.settings = { ...this.config.settings, ...thresholds };
      return { generation: this.report.compute(null).generation };
    });
  }

  update(batch: { upserts: string[]; removes: string[]; renames: Array<{ from: string; to: string }> }): Promise<UpdateResult> {
    return this.serial(() => runUpdate(this.jobs, batch));
  }

  /** A document saved in the editor, indexed from its text (savedText.ts). */
  saveText(file: string, text: string): Promise<SaveTextResult> {
    return this.serial(() => applySavedText(this.savedTextHost, file, text));
  }

  private readonly savedTextHost: SavedTextHost = {
    settings: () => this.requireConfig().settings,
    eligible: async (abs) => (await eligible(this.rules, abs)).ok,
    setEntry: (abs, e) => this.entries.set(abs, e),
    fingerprintText: (abs, text, settings) => this.fingerprinter.fingerprintText(abs, text, settings),
    skip: (abs, reason) => (this.notices.skip(abs, reason), this.notices.flushSkips()),
    update: (abs) => runUpdate(this.jobs, { upserts: [abs], removes: [], renames: [] }),
    commit: async (stats, changed) => (await this.changeReport(stats, changed), this.cache.schedule()),
    documents: () => this.entries.docs.size,
  };

  /** The whole current report (every item). */
  getReport(): ViewReport {
    return this.report.all();
  }

  /** Reads the folders' baselines, then sends the report again with every item compared. */
  setBaselines(sources: Array<{ root: string; file: string }>): Promise<{ problems: string[] }> {
    return this.serial(async () => {
      const marked = this.baselines.active;
      const problems = this.baselines.load(sources);
      for (const message of problems) this.emit({ type: 'log', level: 'warn', message });
      if (this.report.current && (marked || this.baselines.active)) this.report.resend();
      return { problems };
    });
  }

  /**
   * Stops the running index job's walk and reads (what was read is kept): whether it did. Once the
   * reads are over the job only makes its report, which it finishes (not cancelled): false then.
   */
  cancel(): boolean {
    if (!this.cancellable || this.cancellable.signal.aborted) return false;
    this.cancellable.abort(new Error('cancelled'));
    return true;
  }

  stats(): EngineStats {
    let sections = 0;
    let documents = 0;
    for (const e of this.entries.values()) {
      if (!e.doc) continue;
      documents++;
      sections += e.doc.sections.length;
    }
    const fingerprinting = kernelKind() === 'native' ? 'native' : kernelKind() === 'wasm' ? 'wasm' : (`typescript: ${kernelSummary()}` as const);
    return { documents, sections, indexing: this.indexJob !== null, heapUsed: liveHeapUsed(), poolSize: this.fingerprinter.size, fingerprinting };
  }

  async query(file: string, text?: string): Promise<QueryResult> {
    const settings = this.requireConfig().settings;
    const abs = path.resolve(file);
    const elig = await eligible(this.rules, abs);
    if (!elig.ok) return { status: elig.why, matches: [] };
    let doc: DocumentFingerprint;
    const tooLarge = (): QueryResult => ({ status: 'tooLarge', reason: `larger than ${Math.round(settings.maxFileSizeBytes / 1024)} KB`, matches: [] });
    const skipped = (reason: string): QueryResult => (/^larger than/.test(reason) ? tooLarge() : { status: 'skipped', reason, matches: [] });
    if (text !== undefined) {
      if (Buffer.byteLength(text, 'utf8') > settings.maxFileSizeBytes) return tooLarge();
      const o = await this.fingerprinter.fingerprintText(abs, text, settings);
      if (!o.ok) return skipped(o.reason);
      doc = o.doc;
    } else {
      let st;
      try {
        st = await fsp.stat(abs);
      } catch {
        return skipped('cannot be read');
      }
      if (!st.isFile()) return skipped('not a regular file');
      if (st.size > settings.maxFileSizeBytes) return tooLarge();
      const e = this.entries.get(abs);
      if (e && e.size === st.size && e.mtimeMs === st.mtimeMs && !e.transient) {
        if (!e.doc) return skipped(e.reason ?? 'skipped');
        doc = e.doc;
      } else {
        const [o] = await this.fingerprinter.fingerprintFiles([{ path: abs, relPath: abs }], settings);
        if (!o.ok) return skipped(o.reason);
        doc = o.doc;
      }
    }
    if (!doc.file && doc.sections.length === 0) {
      return { status: 'tooSmall', reason: `fewer than ${settings.minTokens} tokens`, matches: [] };
    }
    // The matcher's live index (the documents of the last report) when it has these thresholds.
    const options = { ...this.thresholds, sections: settings.sections };
    const limit: TwinLimit = { maxPairs: this.maxPairs ?? MAX_REPORT_PAIRS, truncated: false };
    const matches = this.report.matcher.twins(abs, doc, options, limit) ?? findTwins(abs, doc, this.documents(), options, limit);
    if (matches.length <= MAX_QUERY_MATCHES && !limit.truncated) return { status: 'ok', matches };
    return { status: 'ok', matches: matches.slice(0, MAX_QUERY_MATCHES), total: matches.length };
  }

  /** Where a block of text (a paste) matches the index (textQuery.ts). */
  matchText(file: string, text: string): Promise<TextQueryResult> {
    const twins: TextQueryHost['twins'] = (self, doc, o, limit) => this.report.matcher.twins(self, doc, o, limit) ?? findTwins(self, doc, this.documents(), o, limit);
    return matchText({ ...this.savedTextHost, thresholds: () => this.thresholds, twins, linesOf: (abs) => this.entries.get(abs)?.lines }, path.resolve(file), text);
  }

  /**
   * What the HTML report needs (`exportReport`; the page is written in the engine worker, never on
   * the extension host): the index as a scan's result, its paths relative to the workspace folder
   * (several folders: to their common parent folder).
   */
  htmlScan(): { scan: HtmlScanData; thresholds: Thresholds; maxFileSizeBytes: number } {
    const scan = this.report.htmlScan();
    return { scan, thresholds: { ...this.thresholds }, maxFileSizeBytes: this.requireConfig().settings.maxFileSizeBytes };
  }

  /** The Overview's data (on request: O(files), in the engine worker). */
  overview(): OverviewData {
    return this.report.overview();
  }

  async shutdown(): Promise<void> {
    this.indexJob?.abort(new Error('shutdown'));
    await this.queue.catch(() => undefined);
    await this.flushCache();
    await this.fingerprinter.close();
  }

  /** Writes the caches now if anything changed since the last write. */
  async flushCache(): Promise<void> {
    await Promise.all([this.cache.flush(), this.regionCache.flush()]);
  }

  // ------------------------------------------------------------------------------ internals

  /** The located copies brought up to date after a job's report, with a report of their own if they changed (on the job's figures; it read no more files). */
  private async locate(): Promise<void> {
    if (this.regions.on && (await this.regions.step())) this.report.compute(this.report.current?.lastJob ? { ...this.report.current.lastJob, reread: 0 } : null, true, new Set());
  }

  /** A change's report: its SimHash result at once (no wait for partners read again), its located copies right after it (EngineRegions.holdBack). */
  private async changeReport(stats: IndexStats, changed: Set<string>): Promise<void> {
    this.regions.holdBack(changed, (p) => this.report.matcher.pairsOf(p));
    this.report.compute(stats, true, changed);
    await this.locate();
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    // Every job ends with the live index of a full match built (its report was posted before it,
    // EngineReport.compute): the next change does not wait for it.
    const run = this.queue.then(job, job).finally(() => this.report.matcher.prepareIndex());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private requireConfig(): EngineConfig {
    if (!this.config) throw new Error('engine not initialised');
    return this.config;
  }

  private applyConfig(config: EngineConfig): void {
    const old = this.config;
    if (old && fingerprintKey(old.settings) !== fingerprintKey(config.settings)) {
      this.entries.clear(); // every fingerprint changes
      this.cache.dirty = true;
      this.regions.invalidate();
    }
    this.regions.configure(config.locate !== false && !!this.fingerprinter.regionDocuments);
    this.config = { ...config, settings: { ...config.settings } };
    this.thresholds = thresholdsOf(config.settings);
    this.rules = rulesOf(config);
    this.entries.setFolderOf((p) => folderOf(this.rules, p));
  }

  private documents(): Array<[string, DocumentFingerprint]> {
    return [...this.entries.docs];
  }
}

let collectGarbage: (() => void) | undefined;

/**
 * The engine thread's heap. Under NEARDUP_TEST_LIVE_HEAP=1 (set by the integration tests' runner)
 * it is measured after a full garbage collection, so that a memory bound counts what the engine
 * holds, not the garbage an earlier test left (a burst of 3,000 files removed just before).
 */
function liveHeapUsed(): number {
  if (process.env.NEARDUP_TEST_LIVE_HEAP === '1') {
    if (!collectGarbage) {
      v8.setFlagsFromString('--expose-gc');
      collectGarbage = vm.runInNewContext('gc') as () => void;
    }
    collectGarbage();
  }
  return process.memoryUsage().heapUsed;
}
