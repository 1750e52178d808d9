/**
 * A scan's code files fingerprinted on the addon's threads (issue 16): each batch's plain UTF-8
 * code files read, checked and fingerprinted by one readCodeBatchAsync job on a thread of libuv's
 * pool, each job with a kernel of its own on a lane's working memory (native/readcode.c), the same outcomes as a worker's
 * batch; the batch's other files (prose, notebooks, components, files that are not plain text)
 * are fingerprinted on the scan's thread while they are few (filesHere.ts, {@link filesHereBudget}),
 * then by the scan's workers, which start only when such files come. So a tree of code with a few
 * Markdown files boots no worker thread, not one per core (a Node worker's start and its bundle's
 * compile: ~90 ms of CPU each, ~25 MB of fresh memory). For a process of its own, as the CLI's: a job
 * queued beyond its lanes waits on a thread of libuv's pool (native/readcode.c), which the
 * extension host shares with every other extension (its engine keeps its workers).
 */
import * as fs from 'node:fs';
import type { EngineSettings } from '../settings/engineSettings';
import { readyVariantTable, variantTable } from '../cjk/variants';
import { codeBatchAsync, codeBatchAsyncAvailable, useKernelFoldTable } from '../workers/codeBatch';
import type { CjkSegmenterInUse, FileOutcome, FileToFingerprint, KernelWordsOutcome } from '../workers/fileOutcome';
import type { CjkMode, SharedFrequencies } from '../workers/messages';
import { kernelCandidates } from '../workers/nativeKernel';
import { outcomesOfWords } from '../workers/packing';
import { prefetchJiebaDictionary, takePrefetchedJiebaDictionary } from '../cjk/jiebaPrefetch';
import type * as FilesHere from './filesHere';

/** NEARDUP_NATIVE_BATCHES=0: every file goes to the workers, as before (benches, tests of the workers). */
const TURNED_OFF = (): boolean => process.env.NEARDUP_NATIVE_BATCHES === '0';

/**
 * A guess, before the addon is loaded, that a scan here fingerprints its code files on the addon's
 * threads: not on Windows (no readCodeBatch there), the addon beside the bundle or in the
 * checkout, nothing turned off. The CLI then starts one worker before its scan, not one per core
 * (earlyWorkers.ts); a wrong guess only starts the others a little later.
 */
export function nativeBatchesExpected(): boolean {
  const env = process.env;
  if (process.platform === 'win32' || TURNED_OFF() || env.NEARDUP_FAST_READ === '0' || env.NEARDUP_NATIVE === '0') return false;
  if (env.NEARDUP_KERNEL === 'ts' || env.NEARDUP_KERNEL === 'wasm') return false;
  return kernelCandidates().some((p) => fs.existsSync(p));
}

/** What the addon decided of its big arrays' pages (the batches' region documents are its trial of huge and 4 KB pages: native/regionblocks.c), for the CLI's trace. */
export { hugePagesState, type HugePagesState } from '../workers/nativeKernel';

/** Whether this scan fingerprints its code files on the addon's threads (`asked`: ScanOptions.nativeBatches). */
export function nativeBatchesChosen(asked: boolean | undefined, settings: EngineSettings): boolean {
  return (asked ?? !TURNED_OFF()) && settings.weighting !== 'tfidf' && codeBatchAsyncAvailable();
}

/** What {@link foldTableWhenReady} gives a scan. */
export interface FoldTableForBatches {
  /** Before each batch: the table one of the scan's workers has made, if any (never waits). */
  check(): void;
  /** The table now, made by this thread if no worker has (~4 ms, once a process): whether the addon has it. */
  makeNow(): boolean;
  /** When the scan is over (the kernel is the thread's, the next scan's too). */
  release(): void;
}

/**
 * Gives the addon the variant fold table, so that the batches fold code files with Han text
 * themselves: the one a worker of the scan has made on its shared memory (for prose, say) once
 * it is ready, or this thread's as soon as a batch leaves a code file for its Han text alone
 * (makeNow: the file is then fingerprinted by the addon, not by a worker's JavaScript; issue 16).
 * `log`: why the table folds nothing, if opencc-js cannot be loaded (then neither does a worker's).
 */
export function foldTableWhenReady(settings: EngineSettings, buffer: SharedArrayBuffer | undefined, log?: (msg: string) => void): FoldTableForBatches {
  const off = settings.foldVariants === false;
  let done = off || buffer === undefined;
  let given = false;
  return {
    check() {
      if (done) return;
      const table = readyVariantTable(buffer!);
      if (!table) return;
      done = true;
      given = useKernelFoldTable(table);
    },
    makeNow() {
      if (given || off) return given;
      done = true;
      given = useKernelFoldTable((buffer && readyVariantTable(buffer)) || variantTable(log));
      return given;
    },
    release() {
      done = true;
      if (given) useKernelFoldTable(null);
      given = false;
    },
  };
}

/**
 * The outcomes of a batch, by its files' order: its code files by the addon's threads (at most
 * `lanes` batches at once, the scan's workers: more may be queued, to follow without a pause), the others
 * by `others` (this thread or the workers), both under way at once once the job says which are left; undefined
 * when the batch has no file the job takes (then all of them are the workers'). With `regions`,
 * the region documents as the kernel made them, kept by this thread (`ownedRegions`) or copied
 * onto shared memory for the workers (packOutcomes). `onNativeDone` once the addon's part is done
 * when `others` has files to do (the scan's place for the batch is then free: batchQueue.ts);
 * `others` is told when some of them are prose left for their CJK text (jieba's to cut).
 * `nice`: codeBatchAsync's (ScanOptions.batchThreadNice).
 */
export function fingerprintNatively(
  files: readonly FileToFingerprint[],
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  regions: { asked: boolean; owned: boolean },
  lanes: number,
  others: (files: FileToFingerprint[], cjkText?: boolean) => Promise<FileOutcome[]>,
  onTaken?: (files: number) => void,
  foldNow?: () => boolean,
  onNativeDone?: () => void,
  nice = 0,
): Promise<FileOutcome[]> | undefined {
  let han: number[] = [];
  let cjkText = false;
  const job = codeBatchAsync(files, settings, df, regions.asked, lanes, (left, cjk) => ((han = left), (cjkText ||= cjk.length > 0)), nice);
  if (!job) return undefined;
  return job.then(async (made) => {
    // Code files left for their Han text alone: again, once the addon has the fold table.
    const again = han.length > 0 && foldNow?.() ? codeBatchAsync(han.map((i) => files[i]), settings, df, regions.asked, lanes, (_, cjk) => (cjkText ||= cjk.length > 0), nice) : undefined;
    if (again) {
      const redone = await again;
      for (let k = 0; k < han.length; k++) made[han[k]] ??= redone[k];
    }
    const taken: KernelWordsOutcome[] = [];
    const takenAt: number[] = [];
    const left: FileToFingerprint[] = [];
    const leftAt: number[] = [];
    for (let i = 0; i < files.length; i++) {
      const o = made[i];
      if (o) {
        taken.push(o);
        takenAt.push(i);
      } else {
        left.push(files[i]);
        leftAt.push(i);
      }
    }
    // (with files left for `others`, the lane is free for the next batch meanwhile; else when the batch's outcomes are taken)
    if (left.length > 0) onNativeDone?.();
    const fromOthers = left.length > 0 ? others(left, cjkText) : undefined;
    const out: FileOutcome[] = new Array(files.length);
    if (taken.length > 0) {
      const unpacked = outcomesOfWords(taken, { ownedRegions: regions.owned });
      for (let k = 0; k < takenAt.length; k++) out[takenAt[k]] = unpacked[k];
      onTaken?.(taken.length);
    }
    if (fromOthers) {
      const rest = await fromOthers;
      for (let k = 0; k < leftAt.length; k++) out[leftAt[k]] = rest[k];
    }
    return out;
  });
}

/** A file walked, with the walk's size (the files fingerprinted on the scan's thread count it: {@link filesHereBudget}). */
export type WalkedFile = FileToFingerprint & { size: number };

/**
 * The files the addon's threads leave are fingerprinted on the scan's thread while no worker has
 * started and they are at most this many, of at most {@link FILES_HERE_MAX_BYTES} in all (the walk's
 * sizes), once the walk is over (scan.ts: the thread then mostly waits for the addon's threads): a
 * worker's boot (~0.17 s of CPU) costs more than ~2 MB of prose here (~10 MB/s). The bench trees
 * leave 19 files (0.35 MB, small) and 210 (2.5 MB, large); past either limit a worker starts and
 * takes the rest.
 */
export const FILES_HERE_MAX_FILES = 256;
export const FILES_HERE_MAX_BYTES = 4 * 1024 * 1024;

/** What {@link filesHereBudget} gives a scan. */
export interface FilesHereBudget {
  /**
   * The outcomes of files the addon's threads left, made on this thread (counted now, made in
   * their turn); undefined when they go to a worker (one has started, or they would pass the limits).
   */
  take(
    files: readonly FileToFingerprint[],
    settings: EngineSettings,
    df: SharedFrequencies | undefined,
    cjk: CjkMode,
    regions: { asked: boolean; owned: boolean },
    cjkText?: boolean,
  ): Promise<FileOutcome[]> | undefined;
}

/** When and how a scan's thread takes its files (filesHereBudget). */
export interface FilesHereTurns {
  /** The first turn: the walk's end (until then the walk has the thread). */
  after: Promise<void>;
  /** Whether the scan stopped or failed meanwhile: its lists are then not read ('the scan stopped'). */
  stopped: () => boolean;
  /** Told of each list made: its files and what this thread segments Chinese with after it. */
  onMade?: (files: number, cjk: CjkSegmenterInUse) => void;
}

/**
 * The scan's files fingerprinted on its own thread (filesHere.ts, required on the first: in the
 * CLI's bundle, dist/cliExtras.js): at most `maxFiles` (0: none) while `pool` has started no
 * worker, one list a turn from `turns.after` on.
 */
export function filesHereBudget(maxFiles: number, pool: { workerThreadIds(): number[] }, setup: FilesHere.FilesHereSetup, turns: FilesHereTurns): FilesHereBudget {
  let files = 0;
  let bytes = 0;
  let last = turns.after;
  const hereSetup: FilesHere.FilesHereSetup = { ...setup, jiebaDictionary: takePrefetchedJiebaDictionary };
  return {
    take(list, settings, df, cjk, regions, cjkText) {
      if (maxFiles <= 0 || pool.workerThreadIds().length > 0) return undefined;
      let more = 0;
      for (const f of list) more += (f as Partial<WalkedFile>).size ?? 0;
      if (files + list.length > maxFiles || bytes + more > FILES_HERE_MAX_BYTES) return undefined;
      files += list.length;
      bytes += more;
      // Chinese text to cut here: jieba's dictionary read ahead by libuv's pool (jiebaPrefetch.ts) while the walk runs on.
      const dictionary = cjkText && settings.cjkSegmenter !== 'bigram' ? prefetchJiebaDictionary() : undefined;
      const turn = Promise.all([last, dictionary])
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then((): FileOutcome[] => {
          if (turns.stopped()) return list.map((f) => ({ relPath: f.relPath, ok: false, reason: 'the scan stopped' }));
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const made = (require('./filesHere') as typeof FilesHere).fingerprintFilesHere(list, settings, df, cjk, regions, hereSetup);
          turns.onMade?.(list.length, made.cjk);
          return made.outcomes;
        });
      last = turn.then(() => undefined, () => undefined);
      return turn;
    },
  };
}
