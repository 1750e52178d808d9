/**
 * The locate pass of `neardup scan` (on by default; `--no-locate` leaves it out): after the scan, the region
 * documents (core/regions) its workers made of the text files they fingerprinted (same ignore
 * markers and variant folding; code tokenised by the kernel) are searched for copied regions;
 * each region pair becomes a section pair of the report with its clone kind and `located: true`,
 * each group of copies a section group. See README "Locating copies inside files". The CLI runs
 * it with the scan's workers still up (beginLocateInPool): where the native kernel is built its
 * threads plan and search the seed buckets (node/locate/regionThreads.ts), else on 3 cores or more
 * the workers chain and align them (node/locate/regionJobs.ts) or this thread does; this thread makes
 * the report (node/locate/locatedReport.ts). A result
 * without region documents (a scan run without `regions`) has its files read again here, with the
 * scan's reading, decoding and skip rules; so have the files a scan fingerprinted once the files it
 * walked passed the byte limit, when its text did not (ScanResult.regionsNotMade).
 *
 * - `similarity` is the region's (the smaller side's share of matched 3-grams), not 1 − d/64;
 *   `distance` is real: the Hamming distance of the SimHash of the two sides' tokens as the region
 *   finder reads them (identifier-normalised code under normalizeIdentifiers, CJK as character
 *   bigrams, stop words kept; shingles of 3; tfidf as tf).
 * - A region of two files the scan pairs as files is that file pair's: it goes into the pair's
 *   `regions` (identical files: one exact region of the whole file, not searched), and the pair
 *   gets a clone kind (its one region's when that spans both files, else `edited`).
 * - Two files the scan does not pair whose regions hold at least {@link FILE_COVER} of the tokens of
 *   each are an edited copy of a file: a `located` file pair (distance of their file SimHash,
 *   similarity the regions' token-weighted one, kind `edited` unless one region spans both) that
 *   carries those regions, and a `located` file group of the files such pairs link.
 * - A region pair is dropped when a SimHash section pair of the same two files already says it: on
 *   both sides the section holds at least 80 % of the region's lines and the region at least half
 *   of the section's. A tighter region (under half of a long section), or one the section holds
 *   only part of (a copy cut across sections), is kept beside it.
 *   The SimHash pair stays and gets the `clone` kind: the region's when the region spans its
 *   sections' lines (± 1 line at each end), else `edited` (only part of the sections is copied).
 *   But a SimHash section pair that two or more regions split (regionPlaces.ts splitsSection:
 *   copies that are neighbours in both files) leaves the report, with its two-member section
 *   group; the regions inside it stand.
 * - Each located side has a content hash (of its tokens as read, so line shifts keep it): the
 *   baseline key of its side (`ScanResult.locatedSides`).
 * - A code side's leading closers (`;` `}` `)` `]` `,`: the end of the statement before the copy,
 *   taken along by a 3-gram) do not count for its lines nor its content hash.
 * - Trees whose text is over {@link LOCATE_MAX_BYTES} are refused (memory: ~6.5 bytes a byte of text at the peak).
 * - Read again (no region documents): a file that changed since the scan so that the scan would
 *   not take it now (deleted, unreadable, not a regular file, too large, binary, minified,
 *   repetitive, marked `neardup-ignore-file`) is left out with the scan's reason (`onSkip`);
 *   nothing here throws for bad input.
 */
import { containerText } from '../../core/containers/container';
import * as path from 'node:path';
import type { ReportPair } from '../../core/report/report';
import type { RegionDocument } from '../../core/regions/document';
import { size, type Doc } from './locateLines';
import { sidesKey } from '../regions/regionPlaces';
import { sideOptionsOf, sideRequestOf, type PairSides } from '../regions/regionSides';
import { findRegions, type RegionResult } from '../../core/regions/regions';
import { rowsResultOf, type RegionRowsResult } from '../regions/regionRows';
import type { FILE_COVER } from '../../core/regions/fileCopies';
import { kernelAligner, type ChainAligner } from '../../core/regions/align';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import type { WorkerPool } from '../workers/workerPool';
import { startRegionsInPool, type RegionsInPool } from './regionJobs';
import { BUCKET_SEARCH_MAX_THREADS } from '../../core/regions/kernelBuckets';
import { startRegionsOnThreads, threadedKernelOf, type RegionsOnThreads } from './regionThreads';
import { identicalClasses } from './identicalDocs';
import { IGNORE_FILE_REASON } from '../../core/text/ignoreMarkers';
import { isMinified, isRepetitive, lineShape } from '../files/decode';
import type { EngineSettings } from '../settings/engineSettings';
import { readTextSync, regionDocumentOf } from '../workers/fingerprintFile';
import { nativeKernel } from '../workers/nativeKernel';
import { locatedReport, scanPairsIndex, type LocateOutcome, type LocateStats, type ScanPairsIndex } from './locatedReport';
import type { ScanResult } from '../scan/scan';
import { eitherOrderKey, pairKeyBase } from '../../core/pairKeys';
import { LOCATE_MAX_BYTES, MIN_WORKERS_FOR_REGION_JOBS } from './locateLimits';

export { LOCATE_MAX_BYTES, MIN_WORKERS_FOR_REGION_JOBS };

/**
 * Whether the native kernel's threads search the buckets (regionThreads.ts): wherever the addon
 * is loaded, unless NEARDUP_REGION_WORKERS asks for the choice above between the scan's workers
 * and this thread (benches, tests). They begin at "locate begun", on the documents already in the
 * addon's reach (no copy, no code compiled again), while this thread makes the report; measured
 * against the workers in docs/localisation.md.
 */
export function regionThreadsChosen(): boolean {
  return !(Number(process.env.NEARDUP_REGION_WORKERS) > 0) && threadedKernelOf(nativeKernel()) !== undefined;
}

/**
 * Whether a pool of `workers` searches the buckets, so that the region documents come on shared
 * memory (ScanOptions.regionsSharedFrom): from MIN_WORKERS_FOR_REGION_JOBS up, unless the native
 * threads do (the kernel is loaded to know only then).
 */
export function regionsShared(workers: number): boolean {
  return workers >= MIN_WORKERS_FOR_REGION_JOBS && !regionThreadsChosen();
}

/**
 * The workers make what the report says of their pairs' sides from this many workers up; with
 * fewer the main thread makes them for the pairs it reports (once per place): a worker makes them
 * for every pair it finds, ~0.4 s of CPU on the small bench tree where the main thread spends
 * ~0.15 s, and on 2 cores that CPU is the other thread's.
 */
const MIN_WORKERS_FOR_SIDES = 3; // = MIN_WORKERS_FOR_REGION_JOBS by default: matters under NEARDUP_REGION_WORKERS

export interface LocateOptions {
  settings: EngineSettings;
  /** Default {@link LOCATE_MAX_BYTES}. */
  maxBytes?: number;
  /** Threads the native kernel's bucket searches may use (regionThreads.ts). Default 1; beginLocateInPool: the pool's size, at most BUCKET_SEARCH_MAX_THREADS. */
  threads?: number;
  /**
   * A file left out because it changed since the scan: it could not be read again, or is no longer
   * text the scan takes. The reason is the scan's (so `IGNORE_FILE_REASON` for a marked file).
   */
  onSkip?: (relPath: string, reason: string) => void;
}

export type { LocateOutcome, LocateStats };

type LocateInput = Pick<ScanResult, 'root' | 'documents' | 'stats' | 'regions' | 'regionsNotMade'>;

/** What locateCopies does around the region finder (locateSteps). */
interface LocateSteps {
  /** The documents to search. */
  docs: RegionDocument[];
  kernel: ReturnType<typeof nativeKernel>;
  /** The kernel's aligner, one for the whole search and fileCopies' searches again (one call target: no deopt). */
  aligner: ChainAligner | undefined;
  /** Two documents hold the same tokens. */
  identical: (a: number, b: number) => boolean;
  /** The identical documents' classes as the kernel found them (identicalDocs.ts identicalClasses), instead of finding them here. */
  useClasses: (classOf: Int32Array) => void;
  /** The pairs of documents the region finder skips, given the scan's pairs (identical files it pairs). */
  skipOf: (pairs: readonly ReportPair[]) => (a: number, b: number) => boolean;
  /** What the outcome takes of the scan's pairs alone (made before the regions are found, or by finish). */
  prepare: (pairs: readonly ReportPair[]) => ScanPairsIndex;
  /** The outcome from the scan's pairs (prepare's of them, when made) and the regions found (as pairs, or rows). */
  finish: (pairs: readonly ReportPair[], found: (RegionResult | RegionRowsResult) & { sides?: ReadonlyArray<PairSides | undefined> }, prepared?: ScanPairsIndex) => LocateOutcome;
}

/** Finds the copied regions of the scanned files; refuses a tree over the byte limit. */
export function locateCopies(result: LocateInput & Pick<ScanResult, 'pairs'>, options: LocateOptions): LocateOutcome {
  const steps = locateSteps(result, options);
  if ('ok' in steps) return steps;
  let found: RegionResult;
  try {
    found = findRegions(steps.docs, { skipPair: steps.skipOf(result.pairs), kernel: steps.kernel, aligner: steps.aligner });
  } catch (e) {
    return { ok: false, reason: `the region finder failed (${(e as Error).message})` };
  }
  return steps.finish(result.pairs, found);
}

/**
 * locateCopies with the region finder's buckets worked by the scan's workers, begun as soon as the
 * files are fingerprinted (while this thread matches their sections): the same outcome. Pairs of
 * identical files wait for the report (searched only when the scan does not pair them as files).
 */
export function beginLocateInPool(input: LocateInput, options: LocateOptions, pool: WorkerPool<WorkerRequest, WorkerResponse>): (pairs: readonly ReportPair[]) => Promise<LocateOutcome> {
  const threads = options.threads ?? Math.max(1, Math.min(BUCKET_SEARCH_MAX_THREADS, pool.size));
  const steps = locateSteps(input, { ...options, threads });
  if ('ok' in steps) return () => Promise.resolve(steps);
  const threaded = regionThreadsChosen() ? threadedKernelOf(steps.kernel) : undefined;
  if (threaded) {
    // The kernel's threads search the buckets now, while this thread matches sections and makes
    // the report; pairs of identical files wait for the report (searched unless the scan pairs them).
    let begun: RegionsOnThreads;
    try {
      // (a document with itself is never skipped: its buckets are not held)
      // (the job makes the regions' sides as well: the report reads them, sideFacts.ts)
      begun = startRegionsOnThreads(steps.docs, { kernel: threaded }, threads, 'identical', sideRequestOf(options.settings));
    } catch (e) {
      const failed: LocateOutcome = { ok: false, reason: `the region finder failed (${(e as Error).message})` };
      return () => Promise.resolve(failed);
    }
    return async (pairs) => {
      void pool.close(); // done with the workers: their memory goes before the report is made (peak)
      // (what the report takes of the scan's pairs alone: made while the kernel's job searches)
      const prepared = steps.prepare(pairs);
      let found: RegionRowsResult;
      try {
        const classes = await begun.classes();
        if (classes) steps.useClasses(classes);
        const skip = steps.skipOf(pairs);
        found = await begun.rows((a, b) => !skip(a, b));
      } catch (e) {
        return { ok: false, reason: `the region finder failed (${(e as Error).message})` };
      }
      return steps.finish(pairs, found, prepared);
    };
  }
  if (pool.size < MIN_WORKERS_FOR_REGION_JOBS) {
    // Too few cores to gain: the work handed over costs more than it saves (docs/localisation.md).
    return (pairs) => {
      void pool.close(); // done with the workers: their memory goes before the region finder's (peak: −20 MB)
      let found: RegionResult;
      try {
        found = findRegions(steps.docs, { skipPair: steps.skipOf(pairs), kernel: steps.kernel, aligner: steps.aligner });
      } catch (e) {
        return Promise.resolve({ ok: false, reason: `the region finder failed (${(e as Error).message})` });
      }
      return Promise.resolve(steps.finish(pairs, found));
    };
  }
  let begun: RegionsInPool;
  try {
    begun = startRegionsInPool(steps.docs, { kernel: steps.kernel }, pool, steps.identical, pool.size >= MIN_WORKERS_FOR_SIDES ? sideOptionsOf(options.settings) : undefined);
  } catch (e) {
    const failed: LocateOutcome = { ok: false, reason: `the region finder failed (${(e as Error).message})` };
    return () => Promise.resolve(failed);
  }
  return async (pairs) => {
    let found: RegionResult & { sides: Array<PairSides | undefined> };
    try {
      const skip = steps.skipOf(pairs);
      found = await begun.result((a, b) => !skip(a, b));
      void pool.close(); // done with the workers: their memory goes before the report is made (peak)
    } catch (e) {
      return { ok: false, reason: `the region finder failed (${(e as Error).message})` };
    }
    return steps.finish(pairs, found);
  };
}

/**
 * The work of locateCopies around the region finder: the documents to search and its options, or
 * the refusal; then what makes the outcome of the regions found.
 */
function locateSteps(
  result: LocateInput,
  options: LocateOptions,
): LocateSteps | Extract<LocateOutcome, { ok: false }> {
  const started = performance.now();
  const settings = options.settings;
  const maxBytes = options.maxBytes ?? LOCATE_MAX_BYTES;
  if (result.stats.bytes > maxBytes) {
    return { ok: false, reason: `the scanned text (${size(result.stats.bytes)}) is over the ${size(maxBytes)} --locate takes` };
  }

  // The native kernel tokenises and aligns when it is built (the same results, faster).
  const kernel = nativeKernel();
  const aligner = kernel ? kernelAligner(kernel) : undefined;

  // ---- the scan's region documents (made by its workers), or read again what it fingerprinted
  // (all of it when it made none, or what it fingerprinted once the files walked passed the limit)
  const docs: Doc[] = [];
  for (const d of result.documents) {
    const made = result.regions?.get(d.path);
    if (made) {
      docs.push({ path: d.path, region: made });
      continue;
    }
    if (result.regions && !result.regionsNotMade?.has(d.path)) continue; // marked neardup-ignore-file
    const read = readTextSync({ path: path.join(result.root, ...d.path.split('/')), relPath: d.path }, settings);
    if ('reason' in read) {
      options.onSkip?.(d.path, read.reason);
      continue;
    }
    // Changed since the scan into a file it skips: the same reasons (fingerprintFile.ts), on
    // the text it checks (a notebook's cells).
    const container = containerText(d.path, read.text);
    if (container && 'reason' in container) {
      options.onSkip?.(d.path, container.reason);
      continue;
    }
    const checked = container ? container.text : read.text;
    const shape = lineShape(checked);
    if (isMinified(checked, shape)) {
      options.onSkip?.(d.path, 'minified or generated (very long lines)');
      continue;
    }
    if (isRepetitive(checked, shape)) {
      options.onSkip?.(d.path, 'repetitive content (the same few lines over and over)');
      continue;
    }
    const region = regionDocumentOf(d.path, read.text, settings);
    if (!region) {
      options.onSkip?.(d.path, IGNORE_FILE_REASON);
      continue;
    }
    docs.push({ path: d.path, region });
  }
  let tokens = 0;
  for (const d of docs) tokens += d.region.length;

  // ---- identical documents (the same tokens as read): their pairs are not searched when the scan
  // pairs them as files (they get one exact region of the whole file); found when first asked
  // (identicalDocs.ts), unless the kernel's plan found them (useClasses)
  let classOf: Int32Array | undefined;
  const identical = (x: number, y: number): boolean => {
    const c = (classOf ??= identicalClasses(regionDocs));
    return c[x] >= 0 && c[x] === c[y];
  };
  /** Two documents as one number (either order; core/pairKeys.ts). */
  const base = pairKeyBase(docs.length);
  const docsKey = eitherOrderKey(base);
  /** A document's index by its path (made once, for skipOf and the report). */
  let docIndex: Map<string, number> | undefined;
  const docIndexOf = (): Map<string, number> => (docIndex ??= new Map(docs.map((d, i) => [d.path, i])));
  /** Pairs of identical documents the scan pairs as files: not searched. */
  const skipOf = (pairs: readonly ReportPair[]): ((a: number, b: number) => boolean) => {
    const docIndex = docIndexOf();
    const skipped = new Set<number>();
    for (const p of pairs) {
      if (p.kind !== 'file') continue;
      const x = docIndex.get(p.a.path);
      const y = docIndex.get(p.b.path);
      if (x !== undefined && y !== undefined && identical(x, y)) skipped.add(docsKey(x, y));
    }
    return (a, b) => skipped.has(a * base + b);
  };

  // One array of the documents for the region finder and fileCopies' searches again: the kernel's
  // streams of them are made once (kernelBuckets.ts documentStreams; the WebAssembly kernel keeps
  // its copy of the last array it was given).
  const regionDocs = docs.map((d) => d.region);
  return {
    docs: regionDocs,
    kernel,
    aligner,
    identical,
    useClasses: (c) => void (classOf = c),
    skipOf,
    prepare: (scanPairs) => scanPairsIndex({ docIndex: docIndexOf(), documents: result.documents }, scanPairs),
    finish: (scanPairs, found, prepared) =>
      locatedReport(
        { docs, regionDocs, docIndex: docIndexOf(), identical, kernel, aligner, threads: options.threads, sideOptions: sideOptionsOf(settings), documents: result.documents, tokens, started },
        scanPairs,
        'rows' in found ? found : { ...rowsResultOf(found), ...(found.sides ? { sides: found.sides } : {}) },
        prepared,
      ),
  };
}

/**
 * The scan's result with the located pairs and groups after its own, and its pairs' clone kinds.
 * In one pass over the scan's pairs (tens of thousands on a tree with many copies, on the CLI's
 * serial end): a pair the regions leave as it is kept as it is, one with a clone kind or regions
 * copied once with them, one the regions split left out.
 */
export function withLocated(result: ScanResult, located: Extract<LocateOutcome, { ok: true }>): ScanResult {
  const { cloneOf, regionsOf, replaced } = located;
  const scanPairs = result.pairs;
  const pairs: ReportPair[] = [];
  for (let i = 0; i < scanPairs.length; i++) {
    if (replaced.has(i)) continue;
    const p = scanPairs[i];
    const clone = cloneOf.get(i);
    const regions = regionsOf.get(i);
    pairs.push(clone ? (regions ? { ...p, clone, regions } : { ...p, clone }) : regions ? { ...p, regions } : p);
  }
  for (let j = 0; j < located.pairs.length; j++) pairs.push(located.pairs[j]);
  // A section pair the regions split goes, and the section group of its two sides alone with it
  // (a group's key made only when a file of such a pair holds its first side).
  const gone = new Set([...replaced].map((i) => sidesKey(scanPairs[i].a, scanPairs[i].b)));
  const files = new Set([...replaced].flatMap((i) => [scanPairs[i].a.path, scanPairs[i].b.path]));
  const groups =
    gone.size === 0
      ? result.groups
      : result.groups.filter((g) => !(g.kind === 'section' && g.locations?.length === 2 && files.has(g.locations[0].path) && gone.has(sidesKey(g.locations[0], g.locations[1]))));
  return { ...result, pairs, groups: [...groups, ...located.groups], locatedSides: located.sides };
}
