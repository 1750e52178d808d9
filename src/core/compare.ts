/**
 * From fingerprints to reported pairs and groups: candidates within a Hamming radius through the
 * permuted-table index, confirmed by the sketches' Jaccard estimate, then clustered.
 */
import { clusterPairs } from './clusters';
import { similarity } from './hamming';
import { allPairsBatch } from './simhashIndex';
import { estimateJaccard } from './simhash';
import type { ItemFingerprint } from './types';

export interface MatchOptions {
  /** Hamming radius (of 64 bits) within which fingerprints are candidates. */
  maxDistance: number;
  /**
   * Candidates must also have an estimated Jaccard similarity of their shingle sets (from the
   * bottom-k sketches) of at least this much. 0 reports every candidate (plain SimHash).
   */
  minSimilarity: number;
  /** Capacity of the items' bottom-k sketches. */
  sketchSize: number;
  /**
   * Stop looking for candidates after this many (default: no limit). Then `truncated` of
   * `info` is set and the result holds only some of the pairs.
   */
  maxPairs?: number;
}

export interface Candidate {
  a: number;
  b: number;
  distance: number;
}

export interface MatchedPair extends Candidate {
  /** 1 − distance/64. */
  similarity: number;
  /** Estimated Jaccard similarity of the two shingle sets. */
  jaccard: number;
}

/**
 * All pairs of items within `maxDistance` that pass verification, each once with a < b.
 * `accept` may veto a pair (e.g. overlapping sections of one file) before verification.
 */
export function matchPairs(
  items: readonly ItemFingerprint[],
  options: MatchOptions,
  accept?: (a: number, b: number) => boolean,
  info?: { truncated: boolean },
): MatchedPair[] {
  if (items.length < 2) return [];
  // Batch all-pairs over the permuted block tables; fingerprints interleaved as (hi, lo).
  const fp = new Uint32Array(items.length * 2);
  for (let i = 0; i < items.length; i++) {
    fp[2 * i] = items[i].hi;
    fp[2 * i + 1] = items[i].lo;
  }
  // Candidates are vetted and verified as the tables find them, so the pair cap counts only
  // pairs that will be reported.
  const jaccardOf = new Map<number, number>();
  const candidates = allPairsBatch(fp, options.maxDistance, {
    maxPairs: options.maxPairs,
    accept: (a, b) => {
      if (accept && !accept(a, b)) return false;
      const jaccard = estimateJaccard(items[a].sketch, items[b].sketch, options.sketchSize);
      if (jaccard < options.minSimilarity) return false;
      jaccardOf.set(a * items.length + b, jaccard);
      return true;
    },
  });
  if (info && candidates.truncated) info.truncated = true;
  const result: MatchedPair[] = [];
  for (let p = 0; p < candidates.length; p++) {
    const a = candidates.a[p];
    const b = candidates.b[p];
    const distance = candidates.distance[p];
    const jaccard = jaccardOf.get(a * items.length + b) ?? 0;
    result.push({ a, b, distance, similarity: similarity(distance), jaccard });
  }
  result.sort((x, y) => x.distance - y.distance || x.a - y.a || x.b - y.b);
  return result;
}

/** Connected components of matched pairs, as groups of item numbers. */
export function groupPairs(pairs: readonly Candidate[]): Array<{ members: number[]; maxDistance: number }> {
  return clusterPairs(pairs);
}
