/**
 * `allPairsBatch`: every pair of fingerprints within a Hamming radius, each once, by the TypeScript
 * search (tableScan.ts), or by comparing all pairs when no table layout beats that; and the native
 * kernel's candidates (`nativeCandidates`), which matchPairList (core/report/compare.ts) vets and
 * confirms in one loop of its own (test/unit/helpers/kernelAllPairs.ts: its reference, through
 * this file's filters), falling back to allPairsBatch when the kernel declines.
 */
import type { CodeKernel } from '../types';
import { checkBlocks, checkRadius, DEFAULT_BATCH_MAX_TABLES, layoutFor, MAX_INDEX_DISTANCE, planBlocks } from './blockLayout';
import { popcount32 } from './hamming';
import { PAIR_LIMIT_REACHED, PairSink, type PairList } from './pairSink';
import { TableScan } from './tableScan';

/**
 * Above this many candidate pairs the native search gives up (it holds them all, 9 bytes each,
 * before accept and maxPairs filter them) and the TypeScript search, which filters as it goes, runs.
 */
export const NATIVE_MAX_CANDIDATES = 4_000_000;

/**
 * Every pair of items i < j whose fingerprints are within Hamming distance k (0..20), each
 * exactly once, in no particular order. `fp` holds the fingerprints interleaved: item i is
 * (fp[2i], fp[2i+1]) = (hi, lo), so one fingerprint is one memory access.
 *
 * The tables are never stored: see TableScan. Memory beyond the input (8 bytes per item) and
 * the output (9 bytes per pair): 12 bytes per item (items regrouped with their fingerprints),
 * 256 KiB of counters, scratch for the largest level-1 group (≤ 20 bytes per member; groups hold
 * n / 2^blockWidth items on random data), and 5 bytes per item once a duplicate is seen.
 * When no layout beats comparing all pairs (a few dozen items, or k ≥ 15), it does that.
 * `options.maxTables` caps the tables (default 2048); `options.blocks` forces b, for tests.
 * `options.maxPairs` stops the search once that many pairs are found (then `truncated` is set and
 * which pairs are kept depends only on the input): a cluster of m near-identical items has
 * m(m − 1)/2 pairs, so without a cap a few thousand copies exhaust memory.
 * `options.accept(a, b, distance)` (a < b) filters candidates as they are found: only accepted
 * pairs are kept and count towards `maxPairs`.
 */
export function allPairsBatch(
  fp: Uint32Array,
  k: number,
  options: {
    maxTables?: number;
    blocks?: number;
    maxPairs?: number;
    accept?: (a: number, b: number, distance: number) => boolean;
  } = {},
): PairList {
  checkPairsInput(fp, k);
  const maxPairs = checkMaxPairs(options.maxPairs ?? Infinity);
  const n = fp.length >>> 1;
  const sink = new PairSink(maxPairs, options.accept);
  try {
    findPairs(fp, n, k, options, sink);
  } catch (e) {
    if (e !== PAIR_LIMIT_REACHED) throw e;
  }
  return sink.result();
}

/**
 * The native kernel's candidates: allPairsBatch's pairs without `accept` and `maxPairs` (every pair
 * a < b within distance k), in the kernel's order; null when there are fewer than two items or more
 * candidates than the kernel holds (then the caller runs allPairsBatch). `threads`: the kernel's
 * tables searched on that many threads (the same pairs in the same order).
 */
export function nativeCandidates(fp: Uint32Array, k: number, kernel: Pick<CodeKernel, 'allPairs'>, threads = 1): { a: Uint32Array; b: Uint32Array; distance: Uint8Array } | null {
  checkPairsInput(fp, k);
  return fp.length >= 4 ? kernel.allPairs(fp, k, NATIVE_MAX_CANDIDATES, threads) : null;
}

/** A pair cap as allPairsBatch takes it: a non-negative integer or Infinity (else RangeError). */
export function checkMaxPairs(maxPairs: number): number {
  if (!(maxPairs >= 0) || (maxPairs !== Infinity && !Number.isInteger(maxPairs))) {
    throw new RangeError(`maxPairs must be a non-negative integer, got ${maxPairs}`);
  }
  return maxPairs;
}

function checkPairsInput(fp: Uint32Array, k: number): void {
  checkRadius(k, MAX_INDEX_DISTANCE);
  if (fp.length % 2 !== 0) throw new RangeError('fp must hold (hi, lo) pairs');
}

function findPairs(fp: Uint32Array, n: number, k: number, options: { maxTables?: number; blocks?: number }, sink: PairSink): void {
  if (n < 2) return;
  const blocks =
    options.blocks !== undefined
      ? checkBlocks(options.blocks, k)
      : planBlocks(k, n, { maxTables: options.maxTables ?? DEFAULT_BATCH_MAX_TABLES, batch: true }).blocks;
  if (blocks === 0) {
    for (let x = 0; x < n; x++) {
      const hx = fp[2 * x];
      const lx = fp[2 * x + 1];
      for (let y = x + 1; y < n; y++) {
        const d = popcount32(hx ^ fp[2 * y]) + popcount32(lx ^ fp[2 * y + 1]);
        if (d <= k) sink.push(x, y, d);
      }
    }
    return;
  }
  new TableScan(fp, n, k, layoutFor(blocks, k), sink).run();
}
