/**
 * The settings that decide fingerprints and matches, shared by the CLI, the worker and the
 * extension, with their defaults and valid ranges (one place, so every front end agrees).
 */
import type { Weighting } from '../../core/types';

export interface EngineSettings {
  /** Items with fewer tokens are not fingerprinted. */
  minTokens: number;
  /** Compare sections (functions, blocks, heading sections) as well as whole files. */
  sections: boolean;
  /** Replace identifiers and literals in code by placeholders. */
  normalizeIdentifiers: boolean;
  /** Drop English and Chinese stop words from prose. */
  stopWords: boolean;
  weighting: Weighting;
  /** CJK word segmentation: jieba, or character bigrams. */
  cjkSegmenter: 'jieba' | 'bigram';
  /** Fold Chinese Traditional and variant characters to Simplified before segmentation (fingerprints only). */
  foldVariants: boolean;
  /** Hamming radius for whole files. */
  maxDistance: number;
  /** Hamming radius for sections. */
  sectionMaxDistance: number;
  /** Minimum estimated Jaccard similarity of shingle sets to confirm a candidate (0 = off). */
  minSimilarity: number;
  /** Larger files are skipped. */
  maxFileSizeBytes: number;
}

export const DEFAULT_ENGINE_SETTINGS: Readonly<EngineSettings> = Object.freeze({
  minTokens: 50,
  sections: true,
  normalizeIdentifiers: false,
  stopWords: false,
  weighting: 'none',
  cjkSegmenter: 'jieba',
  foldVariants: true,
  maxDistance: 12,
  sectionMaxDistance: 10,
  minSimilarity: 0.75,
  maxFileSizeBytes: 2 * 1024 * 1024,
});

/**
 * Names skipped at any depth when `defaultExcludes` is on: VCS metadata, node_modules, and
 * Jupyter's checkpoints (each an autosaved copy of a notebook beside it: always a duplicate).
 * The Node walk (node/files/walk.ts) and the web extension's file search both skip them.
 */
export const DEFAULT_EXCLUDED_NAMES: readonly string[] = ['.git', '.hg', '.svn', '.bzr', '.jj', 'node_modules', '.ipynb_checkpoints'];

/** Valid ranges of the numeric settings. */
export const SETTING_RANGES = {
  minTokens: { min: 5, max: 100000 },
  maxDistance: { min: 0, max: 20 },
  sectionMaxDistance: { min: 0, max: 20 },
  minSimilarity: { min: 0, max: 1 },
  maxFileSizeBytes: { min: 1024, max: 1024 * 1024 * 1024 },
} as const;
