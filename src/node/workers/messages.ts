/**
 * Typed messages between the main thread (CLI or extension host) and the fingerprinting worker.
 */
import type { MatchOptions } from '../../core/report/compare';
import type { EngineSettings } from '../settings/engineSettings';
import type { FileOutcome, FileToFingerprint } from './fileOutcome';
import type { PackedItems, PackedOutcomes, PackedPairs, PackedRegionPairs } from './packing';
import type { RegionDocument } from '../../core/regions/document';
import type { ResolvedRegionOptions } from '../../core/regions/regions';

/**
 * How a worker treats Chinese text: `load` (default) loads jieba on the first CJK run it meets;
 * `defer` does not, and returns such a file with `retry: 'cjk'` unless this worker has loaded
 * jieba already; `whole` loads jieba with its whole dictionary at once (no subset first). Loading
 * jieba's whole dictionary costs ~0.1–0.3 s of CPU per thread (a worker loads it past jieba.ts's
 * SUBSET_BUDGET_CHARS of Chinese; before, a subset costs a few ms), so a scan lets one worker load
 * it and sends it every such file, until the files sent back hold so much Chinese that every
 * worker takes them (`whole`: see scan.ts, CJK_EVERY_WORKER_CHARS).
 */
export type CjkMode = 'load' | 'defer' | 'whole';

/** Shingle document frequencies for TF-IDF: a table shared by all workers, and the corpus size. */
export interface SharedFrequencies {
  buffer: SharedArrayBuffer;
  documents: number;
}

/**
 * workerData of the fingerprinting worker: where its one-time notices (e.g. jieba missing) go.
 * `logged` is a bit set shared by all workers of a pool, so a notice is printed once per scan,
 * not once per worker; `quiet` drops them, and so does a 1 in the word after the bits (when
 * `logged` has one: set after the workers started, node/scan/scanWorkers.ts).
 */
export interface FingerprintWorkerData {
  logged: SharedArrayBuffer;
  quiet: boolean;
  /** The native kernel's tables, filled by the starting thread (nativeKernel.ts, kernelTablesBuffer). */
  kernelTables?: SharedArrayBuffer;
  /** Room for the Chinese variant fold table, made by the first worker that needs it (variants.ts, variantTableBuffer). */
  variantTable?: SharedArrayBuffer;
}

export type WorkerRequest =
  | {
      type: 'fingerprintFiles';
      files: FileToFingerprint[];
      settings: EngineSettings;
      df?: SharedFrequencies;
      cjk?: CjkMode;
      /** Answer with {@link PackedOutcomes} (transferred) instead of FileOutcome[]. */
      pack?: boolean;
      /** Also each file's region document (core/regions), for the CLI's --locate. */
      regions?: boolean;
      /**
       * With `pack` and `regions`: the asker keeps the region documents for itself (hands them on
       * to no worker), so those the kernel made are transferred in their own buffers, not copied
       * onto shared memory (packing.ts packOutcomes).
       */
      regionsOwned?: boolean;
      /**
       * With `pack` and `regions`: the region documents are all the asker reads (the engine's
       * region index): the plain code files the kernel takes are not fingerprinted (their
       * fingerprints empty documents); the others are, as usual.
       */
      regionsOnly?: boolean;
    }
  | { type: 'fingerprintText'; relPath: string; text: string; settings: EngineSettings; df?: SharedFrequencies }
  | { type: 'countShingles'; files: FileToFingerprint[]; settings: EngineSettings; table: SharedArrayBuffer }
  /** `matchPairs` over packed items (without `accept`), e.g. a report's files while the caller matches its sections. */
  | { type: 'matchPairs'; items: PackedItems; options: MatchOptions }
  /** Region pairs of seed buckets (the copies located inside files; regionJob.ts). */
  | RegionBucketsRequest;

export interface WorkerResponseMap {
  fingerprintFiles: FileOutcome[] | PackedOutcomes;
  fingerprintText: FileOutcome;
  /** Number of documents counted. */
  countShingles: number;
  matchPairs: PackedPairs;
  regionBuckets: RegionBucketsResponse;
}

export type WorkerResponse = WorkerResponseMap[keyof WorkerResponseMap];

export interface RegionBucketsRequest {
  type: 'regionBuckets';
  /** Which set of documents the buckets index (one per region search). */
  docsId: number;
  /** The documents, the first time this worker is sent this set (views on shared memory). */
  docs?: RegionDocument[];
  options: ResolvedRegionOptions;
  /** (docA, docB, end) per bucket: the end of its seed pairs in `seeds` (the cuts of core/regions planRegions). */
  buckets: Uint32Array;
  /** The buckets' seeds, (a, b) position pairs one bucket after another. */
  seeds: Int32Array;
  /** Also what the report says of each pair's sides (regionSides.ts), with these options. */
  sides?: SideOptions;
}

/** Region pairs packed: {@link PAIR_INTS} integers and {@link PAIR_FLOATS} floats per pair. */
export type RegionBucketsResponse = PackedRegionPairs | { missingDocs: true };

/** How a located side's SimHash is made (node/regions/regionSides.ts): the scan's settings, tfidf as tf. */
export interface SideOptions {
  normalizeIdentifiers: boolean;
  weighting: 'none' | 'tf';
}
