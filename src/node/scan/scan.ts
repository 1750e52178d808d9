/**
 * A whole scan of a folder, as the CLI runs it: walk (ignore rules, globs, size limit), fingerprint
 * in a pool of worker threads, then match and group (scanReport.ts).
 *
 * The walk and the fingerprinting overlap: the workers are started first, the walk runs in short
 * synchronous slices on this thread, and each batch of files goes to a worker as soon as it is
 * full, up to {@link PIPELINE} batches per worker ahead, so a worker never waits for this thread.
 * Within one directory, every file is listed and stat'ed before the first of them is sent (so a
 * file that changes after the listing is always seen changed by the reading worker).
 */
import { nativeKernel, nativeLister } from '../workers/nativeKernel';
import { releaseRegionDocument } from '../workers/regionPacking';
import { startScanPool } from './scanWorkers';
import { filesHereBudget, fingerprintNatively, foldTableWhenReady, nativeBatchesChosen, FILES_HERE_MAX_FILES, type WalkedFile } from './nativeBatches';
import * as path from 'node:path';
import type { FingerprintedDocument, Report } from '../../core/report/report';
import { inParallel, matchDocuments } from './scanReport';
import { BatchQueue } from './batchQueue';
import type { EngineSettings } from '../settings/engineSettings';
import { DF_TABLE_BITS } from '../../core/fingerprint/documentFrequency';
import type { CjkMode, SharedFrequencies, WorkerRequest, WorkerResponse } from '../workers/messages';
import type { CjkSegmenterInUse, FileOutcome, FileToFingerprint } from '../workers/fileOutcome';
import { unpackOutcomes, type PackedOutcomes } from '../workers/packing';
import { walkFilesSync, type WalkEntry } from '../files/walk';
import { WorkerPool } from '../workers/workerPool';
import type { RegionDocument } from '../../core/regions/document';

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
  /**
   * Also make each file's region document in the workers (ScanResult.regions), for the CLI's
   * --locate: the files are read once, and code is tokenised by the workers' kernels.
   */
  regions?: boolean;
  /**
   * With `regions`: once the files walked hold more bytes than this, no more region documents are
   * asked for (the walk ends long before the fingerprinting: a tree over the limit costs the
   * workers almost nothing more), and once the files read do, or earlier, once the text the walk
   * promises is well over it ({@link REGIONS_LET_GO_OVER}), those made are let go (the caller
   * refuses such a tree: --locate's limit). A tree whose text is under the limit though its files
   * walked are not (binary or skipped files) names the files read without one in
   * ScanResult.regionsNotMade. Default: none.
   */
  regionsMaxBytes?: number;
  /**
   * With `regions`: from this many workers up the region documents come on shared memory (the
   * caller hands them on to the workers: --locate's region jobs); with fewer, the documents the
   * kernel made come in their own buffers, transferred, not copied. Default 1: always shared. Or
   * a function of the number of workers saying whether they are shared.
   */
  regionsSharedFrom?: number | ((workers: number) => boolean);
  /** CJK characters sent back before every worker takes Chinese text (default {@link CJK_EVERY_WORKER_CHARS}). */
  cjkEveryWorkerChars?: number;
  /** Most files per message to a worker (default {@link DEFAULT_BATCH_FILES}). */
  batchSize?: number;
  /** A batch is sent once its files hold this many bytes (default {@link DEFAULT_BATCH_BYTES}). */
  batchBytes?: number;
  /**
   * Called after each batch of results: files done, and files found so far (the walk may still
   * be going on: `total` grows until it ends).
   */
  onProgress?: (done: number, total: number) => void;
  onSkip?: (relPath: string, reason: string) => void;
  /** Drop the workers' one-time notices (printed once per scan on stderr otherwise). */
  quiet?: boolean;
  signal?: AbortSignal;
  /**
   * Called as each phase ends, with the time since the process started (performance.now()):
   * 'workers started', 'walked', 'first result', 'fingerprinted', 'files matched' (when in a
   * worker), 'sections matched', 'reported'. For profiling (the CLI prints them with NEARDUP_TRACE=1).
   */
  onPhase?: (phase: string, atMs: number) => void;
  /** Called once the workers this scan starts are online (all, or the one a tree of one batch needs). */
  onWorkersOnline?: () => void;
  /**
   * Called once the walk is over and its last batches are on their way, when this thread has
   * little to do but wait for their results: for work the scan will need of it later (the CLI
   * loads its locate step's bundle here, not after the fingerprints, where it is on the
   * critical path).
   */
  onWalked?: () => void;
  /**
   * Called with each batch a worker answered: its files (the files sent back for their Chinese
   * text come again, in the batch that does them), the worker's thread id, and what that worker
   * segments Chinese with after it (thread 0: the addon's threads; -1: this thread, filesHere.ts).
   * For diagnostics and tests (NEARDUP_TRACE=1 sums them up).
   */
  onBatch?: (batch: { files: number; thread: number; cjk: CjkSegmenterInUse }) => void;
  /**
   * The code files fingerprinted on the addon's threads, the workers started only for other files
   * (nativeBatches.ts). Default: where the addon has it, unless NEARDUP_NATIVE_BATCHES=0.
   */
  nativeBatches?: boolean;
  /**
   * With `nativeBatches`: the files the addon's threads leave are fingerprinted on this thread,
   * no worker started for them, while they are at most this many files (and 4 MB: nativeBatches.ts
   * filesHereBudget). Default {@link FILES_HERE_MAX_FILES}; 0: always a worker.
   */
  filesHereMax?: number;
  /**
   * With `nativeBatches`, on Linux: the addon's threads that run the batches (libuv's pool) take
   * this nice value (a lower priority) from their first batch on, for good, so that this thread's
   * work — the walk, the batches' outcomes, the files left to it, the report — never waits for a
   * core behind them. For a process of its own, as the CLI's (its pool runs nothing else).
   * Default 0: as they are.
   */
  batchThreadNice?: number;
  /** False: fingerprint only, no pairs (`neardup fingerprints`). Default true. */
  match?: boolean;
  /**
   * Work for the scan's workers before they are let go (the CLI's `--locate`: the region finder's
   * buckets): begun once the files are fingerprinted (the workers take it up while this thread
   * matches sections), finished with the scan's result, whose result is the scan's.
   */
  withWorkers?: (fingerprinted: Pick<ScanResult, 'root' | 'documents' | 'regions' | 'regionsNotMade' | 'stats'>, pool: ScanPool) => (result: ScanResult) => Promise<ScanResult>;
}

/** The scan's pool of fingerprint workers (ScanOptions.withWorkers). */
export type ScanPool = WorkerPool<WorkerRequest, WorkerResponse>;

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
  /**
   * With the CLI's `--locate` (see locate.ts): the content hash of each located side, by
   * `path\0startLine\0endLine` (the baseline key of a located pair's side), made when asked for.
   */
  locatedSides?: { get(at: string): string | undefined };
  /** With `regions`: each fingerprinted document's region document (core/regions), by path. */
  regions?: ReadonlyMap<string, RegionDocument>;
  /**
   * With `regions`, under `regionsMaxBytes`: the documents fingerprinted after the files walked
   * passed the limit, or whose region documents were let go (REGIONS_LET_GO_OVER), so without a
   * region document (the caller makes them, e.g. locate.ts reads them again). Absent when there
   * are none.
   */
  regionsNotMade?: ReadonlySet<string>;
}

export const DEFAULT_BATCH_FILES = 64;
export const DEFAULT_BATCH_BYTES = 256 * 1024;
/**
 * The same for the batches on the addon's threads: their per-batch cost is this thread's (the
 * call, its promise, the outcomes' arrays), so fewer, larger ones (measured on the large bench
 * tree, 2 cores: wall ×0.93 of 64 files / 256 KB; a partial batch still goes when a thread would wait).
 */
export const NATIVE_BATCH_FILES = 512;
/**
 * The first batches on the addon's threads are smaller: 1/8, 1/4, 1/2 of the bytes, then all of
 * them. A small tree's walk is over before its first batch is done, so with full batches from the
 * start its few batches are one 2 MB batch on one lane and the rest on the other (this repository's
 * src/, 2.3 MB: one lane busy ~21 ms, the other ~1); with the ramp both lanes share them (the
 * default scan 122 → 114 ms, medians of 21). A large tree has three batches more (the small bench
 * tree: 655 against 663 ms, within noise).
 */
export const NATIVE_BATCH_RAMP = 3;
export const NATIVE_BATCH_BYTES = 2 * 1024 * 1024;
/** Batches sent to one worker ahead of its answers. */
export const PIPELINE = 2;
/** Longest synchronous slice of the walk before this thread looks at the workers' answers. */
const WALK_SLICE_MS = 4;
/** Files the addon's threads leave (nativeBatches.ts) sent to the first worker alone, before any worker may take them (when they are a quarter of the files). */
const LEFT_TO_ONE_WORKER = 2 * DEFAULT_BATCH_FILES;
/**
 * Once the files sent back for their Chinese text (`cjk: 'defer'`) hold this many CJK characters,
 * every worker takes Chinese text, each with jieba's whole dictionary at once (`cjk: 'whole'`): a
 * Chinese-heavy tree uses every core, for one more load of the dictionary per worker (~0.14 s of
 * CPU, ~30 MB). Below, one worker cuts it all (a subset of the dictionary for a little Chinese).
 * Measured (bench/README.md, issue 16): the zh corpus (235,000 CJK characters) would gain ~30
 * ms of its busiest worker's CPU for ~130 ms more in all, so it stays below; six copies of it (1.4
 * million) gain ~230 ms for ~250 ms (wall ×0.93). English files with a few Chinese names never pass it.
 */
export const CJK_EVERY_WORKER_CHARS = 256 * 1024;

interface Batch {
  index: number;
  files: WalkedFile[];
  /** The walk's size of its files. */
  bytes: number;
}

/**
 * Region documents made are let go before the files read pass the limit once the text the walk
 * promises is this many times over it: the bytes walked at the share of them read as text so far
 * (measured from at least an eighth of the limit). A tree walked over the limit is let go early
 * (its documents no longer held while the rest is fingerprinted: +30–60 MB of peak on the large
 * bench tree otherwise); one that ends under it after all has its files read again by the locate
 * pass (ScanResult.regionsNotMade), the same result.
 */
export const REGIONS_LET_GO_OVER = 1.25;

export async function scanDirectory(options: ScanOptions): Promise<ScanResult> {
  const started = performance.now();
  const root = path.resolve(options.root);
  const settings = options.settings;
  // With the code files on the addon's threads (nativeBatches.ts), no worker until another file
  // comes, and larger batches (each a job: fewer of them, less of this thread's time).
  const native = nativeBatchesChosen(options.nativeBatches, settings);
  const maxFiles = Math.max(1, options.batchSize ?? (native ? NATIVE_BATCH_FILES : DEFAULT_BATCH_FILES));
  const maxBytes = Math.max(1, options.batchBytes ?? (native ? NATIVE_BATCH_BYTES : DEFAULT_BATCH_BYTES));
  /** Batch i's bytes: maxBytes, the first ones smaller on the addon's threads when not given (NATIVE_BATCH_RAMP). */
  const ramp = native && options.batchBytes === undefined ? NATIVE_BATCH_RAMP : 0;
  const bytesOfBatch = (i: number): number => (i >= ramp ? maxBytes : Math.max(1, Math.floor(maxBytes / 2 ** (ramp - i))));
  const signal = options.signal;
  let skipped = 0;
  const skip = (relPath: string, reason: string) => {
    skipped++;
    options.onSkip?.(relPath, reason);
  };

  // The walk's first step (the root's listing) throws for a missing root: before any worker starts.
  const walker = walkFilesSync(root, {
    include: options.include,
    exclude: options.exclude,
    gitignore: options.gitignore,
    maxFileSizeBytes: settings.maxFileSizeBytes,
    onSkip: skip,
    signal,
    lister: nativeLister(), // (the addon's listDir: a directory's entries and lstats in one call)
  });
  let step = walker.next();

  // The workers (the first maybe started before the CLI's set-up), the others once the walk finds
  // a second batch, and the kernel's tables made once, by this thread (scanWorkers.ts).
  const { pool, fillTables, warmRest, variantTable } = startScanPool({ ...options, pipeline: PIPELINE, allAtOnce: options.withWorkers !== undefined, lazy: native });
  const foldTable = foldTableWhenReady(settings, variantTable, options.quiet ? undefined : (msg) => console.error(msg));
  const phase = options.onPhase ? (name: string) => options.onPhase!(name, performance.now()) : () => undefined;
  phase('workers started');
  // One worker (slot 0) loads jieba and gets every file with Chinese text (see CjkMode), until
  // those hold CJK_EVERY_WORKER_CHARS: then every worker takes them.
  let cjk: CjkMode = pool.size > 1 && settings.cjkSegmenter === 'jieba' ? 'defer' : 'load';
  let deferredChars = 0;

  const results: FileOutcome[][] = [];
  let found = 0;
  let done = 0;
  let documents: FingerprintedDocument[] = [];
  const regions = new Map<string, RegionDocument>();
  // Region documents are asked for until the bytes walked pass the limit, let go once the text
  // the walk promises is well over it (REGIONS_LET_GO_OVER) and dropped once the bytes read pass it
  // (memory); the files fingerprinted without one meanwhile are noted.
  const regionsMaxBytes = options.regionsMaxBytes ?? Infinity;
  let wantRegions = options.regions === true;
  let regionsDropped = false;
  let regionsLetGo = false;
  const sharedFrom = options.regionsSharedFrom ?? 1;
  const regionsOwned = typeof sharedFrom === 'function' ? !sharedFrom(pool.size) : pool.size < sharedFrom;
  const regionsNotMade = new Set<string>();
  // (a document in a buffer of its own, the kernel's, is freed at once: not left to a garbage
  // collection that may come only after the peak)
  const releaseBuffer = (nativeKernel() as { releaseBuffer?: (buffer: ArrayBuffer) => boolean } | null)?.releaseBuffer;
  const drop = (o: FileOutcome & { ok: true }) => {
    if (o.region) releaseRegionDocument(o.region, releaseBuffer);
    delete o.region;
  };
  const letGo = (o: FileOutcome & { ok: true }) => {
    drop(o);
    regionsNotMade.add(o.relPath);
  };
  let walkedBytes = 0;
  let regionBytes = 0;
  let doneWalkedBytes = 0;
  let bytes = 0;
  let report: Report;
  let closing: Promise<void> | undefined;

  try {
    // ---- batching of the walk's entries
    // On the addon's threads one batch queued behind the running ones is enough (it starts as one
    // ends, on libuv's thread; each queued batch holds a kernel, its tables copied); such a batch
    // frees its place once its native job is done when its other files wait (filesHere.ts).
    const queue = new BatchQueue<Batch>(native ? pool.size + 1 : pool.size * PIPELINE, (b, free) => runBatch(b, free));
    const ready = queue.ready;
    let current: WalkedFile[] = [];
    let currentBytes = 0;
    let batches = 0;
    const flush = () => {
      if (current.length === 0) return;
      ready.push({ index: batches++, files: current, bytes: currentBytes });
      current = [];
      currentBytes = 0;
    };
    const add = (e: WalkEntry) => {
      found++;
      current.push({ path: e.path, relPath: e.relPath, size: e.size });
      currentBytes += e.size;
      walkedBytes += e.size;
      if (wantRegions && walkedBytes > regionsMaxBytes) {
        wantRegions = false;
        phase('region documents no longer asked for');
      }
      if (current.length >= maxFiles || currentBytes >= bytesOfBatch(batches)) flush();
    };
    /** Walks for one slice of time (or to the end); true when the walk is over. */
    const walkSlice = (sliceMs: number): boolean => {
      const until = performance.now() + sliceMs;
      for (;;) {
        if (step.done) return true;
        add(step.value);
        step = walker.next();
        if (performance.now() >= until) return step.done === true;
      }
    };

    // ---- TF-IDF: a first pass counts each shingle's document frequency into a table the
    // workers share; it needs every file, so the walk ends first.
    let df: SharedFrequencies | undefined;
    if (settings.weighting === 'tfidf') {
      walkSlice(Infinity);
      flush();
      warmRest(batches, true);
      fillTables();
      const table = new SharedArrayBuffer(4 << DF_TABLE_BITS);
      const counted = await inParallel(ready, pool.size * PIPELINE, (b) =>
        pool.run({ type: 'countShingles', files: b.files, settings, table }).then((n) => n as number, () => 0),
      );
      df = { buffer: table, documents: counted.reduce((a, b) => a + b, 0) };
    }

    // ---- fingerprinting
    let walkOver!: () => void;
    const walkEnd = new Promise<void>((resolve) => (walkOver = resolve));
    let leftFiles = 0;
    // The few files the addon's threads leave, on this thread while no worker has started
    // (filesHere.ts), one list a turn once the walk is over (it has the thread until then).
    const here = filesHereBudget(native ? (options.filesHereMax ?? FILES_HERE_MAX_FILES) : 0, pool, { quiet: options.quiet === true, variantTable }, {
      after: walkEnd,
      stopped: () => queue.failure !== null || signal?.aborted === true,
      onMade: options.onBatch ? (files, cjk) => options.onBatch!({ files, thread: -1, cjk }) : undefined,
    });
    /** A batch's outcomes, region documents asked for or not (then its files are noted); `onLaneFree` once its native job is done. */
    const fingerprintRun = (files: FileToFingerprint[], mode: CjkMode, slot?: number, onLaneFree?: () => void): Promise<FileOutcome[]> => {
      const asked = wantRegions;
      const inPool = (list: FileToFingerprint[]) =>
        pool.run({ type: 'fingerprintFiles', files: list, settings, df, cjk: mode, pack: true, regions: asked, ...(asked && regionsOwned ? { regionsOwned } : {}) }, undefined, { slot }).then((res) => {
          const packed = res as PackedOutcomes;
          if (packed.worker) options.onBatch?.({ files: list.length, ...packed.worker });
          return unpackOutcomes(packed, list.map((f) => f.relPath));
        });
      // (thread 0 in onBatch: the addon's threads)
      const onTaken = options.onBatch ? (n: number) => options.onBatch!({ files: n, thread: 0, cjk: 'none' }) : undefined;
      if (native) foldTable.check();
      // The files the addon's threads leave are this thread's while they are few (filesHere.ts),
      // else they go to one worker (the addon's threads keep the cores busy: a second worker's
      // start would be CPU spent for nothing) unless they are many and a large part of the tree
      // (prose, say), then to any. That one is the worker that loads jieba: its Chinese text is
      // cut at once (`defer` would send it back after its text up to the first Chinese was
      // tokenised, to be done again there: ~60 ms of a large tree's CHANGELOG).
      const others = (list: FileToFingerprint[], cjkText?: boolean): Promise<FileOutcome[]> => {
        const made = here.take(list, settings, df, mode, { asked, owned: regionsOwned }, cjkText);
        if (made) return made;
        leftFiles += list.length;
        return leftFiles <= LEFT_TO_ONE_WORKER || leftFiles * 4 < found ? fingerprintRun(list, mode === 'defer' ? 'load' : mode, 0) : inPool(list);
      };
      const run =
        (native && slot === undefined ? fingerprintNatively(files, settings, df, { asked, owned: regionsOwned }, pool.size, others, onTaken, foldTable.makeNow, onLaneFree, options.batchThreadNice) : undefined) ??
        inPool(files);
      return run.then((outcomes) => {
        if (options.regions && !asked && !regionsDropped) for (const o of outcomes) if (o.ok) regionsNotMade.add(o.relPath);
        return outcomes;
      });
    };
    const fingerprint = async (files: FileToFingerprint[], mode: CjkMode, onLaneFree?: () => void): Promise<FileOutcome[]> => {
      try {
        return await fingerprintRun(files, mode, undefined, onLaneFree);
      } catch {
        // A batch whose worker died twice: retry its files one by one so only the culprit is lost.
        const out: FileOutcome[] = [];
        for (const f of files) {
          try {
            out.push(...(await fingerprintRun([f], mode)));
          } catch (e) {
            out.push({ relPath: f.relPath, ok: false, reason: `fingerprinting failed (${(e as Error).message})` });
          }
        }
        return out;
      }
    };
    const runBatch = async (b: Batch, onLaneFree: () => void): Promise<void> => {
      signal?.throwIfAborted();
      const outcomes = await fingerprint(b.files, cjk, onLaneFree);
      if (outcomes.some((o) => !o.ok && o.retry === 'cjk')) {
        const again = b.files.filter((_, i) => { const o = outcomes[i]; return !o.ok && o.retry === 'cjk'; });
        for (const o of outcomes) if (!o.ok && o.retry === 'cjk') deferredChars += o.cjkChars ?? 0;
        if (cjk === 'defer' && deferredChars >= (options.cjkEveryWorkerChars ?? CJK_EVERY_WORKER_CHARS)) {
          cjk = 'whole';
          phase('Chinese text on every worker');
        }
        let redone: FileOutcome[];
        if (cjk === 'whole') {
          // Much Chinese text: to any worker.
          redone = await fingerprint(again, 'whole');
        } else {
          // Chinese text: to the worker that loads jieba (any worker if that one is gone).
          try {
            redone = await fingerprintRun(again, 'load', 0);
          } catch {
            redone = await fingerprint(again, 'load');
          }
        }
        let k = 0;
        for (let i = 0; i < outcomes.length; i++) {
          const o = outcomes[i];
          if (!o.ok && o.retry === 'cjk') outcomes[i] = redone[k++];
        }
      }
      if (queue.failure) return; // the scan is over: nothing more to report
      if (done === 0) phase('first result');
      results[b.index] = outcomes;
      for (const o of outcomes) {
        done++;
        if (!o.ok) skip(o.relPath, o.reason);
        else regionBytes += o.bytes;
      }
      doneWalkedBytes += b.bytes;
      if (
        options.regions && !regionsDropped && !regionsLetGo && walkedBytes > regionsMaxBytes && doneWalkedBytes >= regionsMaxBytes / 8 &&
        (walkedBytes * regionBytes) / doneWalkedBytes > regionsMaxBytes * REGIONS_LET_GO_OVER
      ) {
        // The tree will be over the limit: its documents named, not held.
        wantRegions = false;
        regionsLetGo = true;
        phase('region documents let go');
        for (const list of results) for (const o of list ?? []) if (o.ok && o.region) letGo(o);
      }
      if (regionsLetGo && !regionsDropped) for (const o of outcomes) if (o.ok && o.region) letGo(o); // asked for before
      if (options.regions && !regionsDropped && regionBytes > regionsMaxBytes) {
        wantRegions = false;
        regionsDropped = true;
        regionsNotMade.clear();
        for (const list of results) for (const o of list ?? []) if (o.ok) drop(o);
      }
      if (regionsDropped) for (const o of outcomes) if (o.ok) drop(o); // asked for before the limit was passed
      options.onProgress?.(done, found);
    };

    try {
      let walked = step.done === true;
      while (!walked && !queue.failure) {
        walked = walkSlice(WALK_SLICE_MS);
        // A partial batch goes too when a worker would otherwise wait for it.
        if (walked || (ready.length === 0 && queue.hasRoom)) flush();
        warmRest(batches, walked);
        queue.dispatch();
        fillTables();
        if (!walked) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      flush();
      warmRest(batches, true);
      queue.dispatch();
      fillTables();
      phase('walked');
      walkOver();
      options.onWalked?.();
      await queue.drained();
    } catch (error) {
      queue.failure ??= { error }; // batches still under way report nothing more
    }
    walkOver(); // (a walk that threw: the lists left for this thread are not read)
    fillTables(); // a worker never waits for tables that will not come
    if (queue.failure) throw queue.failure.error;
    signal?.throwIfAborted();
    phase('fingerprinted');

    documents = [];
    for (const outcomes of results) {
      for (const o of outcomes) {
        if (o.ok) {
          bytes += o.bytes;
          documents.push(o.lines === undefined ? { path: o.relPath, doc: o.doc } : { path: o.relPath, doc: o.doc, lines: o.lines });
          if (o.region) regions.set(o.relPath, o.region);
        }
      }
    }
    // The walk's order is already by path; this keeps the contract whatever the walk does.
    documents.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    // The workers are let go as soon as the matching no longer needs them (their ends overlap the
    // rest of the report) unless there is more work for them; the scan resolves once they are gone.
    const release = options.withWorkers ? () => undefined : () => void (closing ??= pool.close());
    let sections = 0;
    for (const d of documents) sections += d.doc.sections.length;
    const stats = () => ({ files: documents.length, sections, bytes, elapsedMs: Math.round(performance.now() - started), skipped });
    let finish: ((result: ScanResult) => Promise<ScanResult>) | undefined;
    const withRegions = options.regions ? { regions, ...(regionsNotMade.size > 0 ? { regionsNotMade } : {}) } : {};
    const begin = options.withWorkers ? () => void (finish = options.withWorkers!({ root, documents, ...withRegions, stats: stats() }, pool)) : undefined;
    // (the files matched here rather than in a worker that would start for it alone)
    const filesHere = native && pool.workerThreadIds().length === 0;
    report = options.match === false ? { pairs: [], groups: [] } : await matchDocuments(documents, settings, pool, phase, release, begin, filesHere);
    if (options.match === false) begin?.();
    phase('reported');
    const result: ScanResult = { root, ...report, documents, ...withRegions, stats: stats() };
    return finish ? await finish(result) : result;
  } finally {
    foldTable.release();
    await (closing ?? pool.close());
    signal?.throwIfAborted();
  }
}
