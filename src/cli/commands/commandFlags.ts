/**
 * What the CLI's commands are given: the flags of `scan` and `fingerprints` (ScanFlags) and of
 * `join` (JoinFlags) as commander hands them over, the engine settings those flags make
 * (settingsOf), and the version the reports name.
 */
import type { CloneKind } from '../../core/types';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../node/settings/engineSettings';
import type { ScanOptions } from '../../node/scan/scan';
import { applyCliV8Flags } from '../process/v8Tiering';
import type { ProgressBar } from '../progress';
import { skipNotices } from './cliOutput';

export const VERSION = '0.1.0';

export interface ScanFlags {
  format: 'json' | 'sarif' | 'text' | 'markdown' | 'codeclimate' | 'html' | 'junit';
  baseline?: string;
  writeBaseline?: string;
  maxDistance: number;
  sectionMaxDistance: number;
  minTokens: number;
  minSimilarity: number;
  include?: string[];
  exclude?: string[];
  sections: boolean;
  failOnPairs?: number;
  /** `--fail-on-kind`: only pairs of these clone kinds count for --fail-on-pairs (alone: threshold 1). */
  failOnKind?: CloneKind[];
  normalizeIdentifiers: boolean;
  stopWords: boolean;
  weighting: 'none' | 'tf' | 'tfidf';
  cjkSegmenter: 'jieba' | 'bigram';
  foldVariants: boolean;
  maxFileSize: number;
  gitignore: boolean;
  workers?: number;
  progress: boolean;
  quiet: boolean;
  locate: boolean;
  /** `--changed-since REF`: only pairs with a side in a file changed since REF (git). */
  changedSince?: string;
  /** `--config FILE` (a path), `--no-config` (false), or neither (undefined). */
  config?: string | boolean;
}

export interface JoinFlags {
  format: 'json' | 'sarif' | 'text';
  maxDistance: number;
  sectionMaxDistance: number;
  minSimilarity: number;
  sections: boolean;
  failOnPairs?: number;
  failOnKind?: CloneKind[];
  engine: 'local' | 'dask';
  scheduler?: string;
  progress: boolean;
  quiet: boolean;
}

/** The engine settings the flags (with the project's configuration applied) say; defaults for the rest. */
export function settingsOf(flags: ScanFlags): EngineSettings {
  return {
    ...DEFAULT_ENGINE_SETTINGS,
    maxDistance: flags.maxDistance ?? DEFAULT_ENGINE_SETTINGS.maxDistance,
    sectionMaxDistance: flags.sectionMaxDistance ?? DEFAULT_ENGINE_SETTINGS.sectionMaxDistance,
    minTokens: flags.minTokens,
    minSimilarity: flags.minSimilarity ?? DEFAULT_ENGINE_SETTINGS.minSimilarity,
    sections: flags.sections,
    normalizeIdentifiers: flags.normalizeIdentifiers,
    stopWords: flags.stopWords,
    weighting: flags.weighting,
    cjkSegmenter: flags.cjkSegmenter,
    foldVariants: flags.foldVariants,
    maxFileSizeBytes: flags.maxFileSize * 1024,
  };
}

/**
 * The nice value of the CLI's batch threads (ScanOptions.batchThreadNice): the main thread gets a
 * core first whenever it wants one (on 2 cores it competes with two batch threads).
 */
export const BATCH_THREAD_NICE = 5;

/** What `scan` and `fingerprints` both give scanDirectory from their flags: the tree, its rules, the workers, the skip notices. */
export function scanOptionsOf(root: string, settings: EngineSettings, flags: ScanFlags, progress: ProgressBar): ScanOptions {
  return {
    root,
    settings,
    include: flags.include,
    exclude: flags.exclude,
    gitignore: flags.gitignore,
    workers: flags.workers,
    quiet: flags.quiet,
    // (the batches' threads yield to this one: measured in bench/README.md, "The batches' threads
    // yield to the main thread")
    batchThreadNice: BATCH_THREAD_NICE,
    onWorkersOnline: applyCliV8Flags,
    onSkip: skipNotices(flags.quiet, progress),
  };
}
