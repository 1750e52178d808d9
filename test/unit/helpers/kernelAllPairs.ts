/**
 * The test reference of matchPairList's native loop (src/core/report/compare.ts): allPairsBatch's
 * pairs taken from the native kernel's candidates (nativeCandidates, in the kernel's order), with
 * `accept` and `maxPairs` applied as allPairsBatch applies them (its PairSink: the same cap's cut);
 * the TypeScript search when the kernel declines (more candidates than it holds).
 */
import { allPairsBatch, checkMaxPairs, nativeCandidates } from '../../../src/core/index/allPairs';
import { PAIR_LIMIT_REACHED, PairSink, type PairList } from '../../../src/core/index/pairSink';
import type { CodeKernel } from '../../../src/core/types';

export function allPairsByKernel(
  fp: Uint32Array,
  k: number,
  kernel: Pick<CodeKernel, 'allPairs'>,
  options: { maxPairs?: number; accept?: (a: number, b: number, distance: number) => boolean } = {},
): PairList {
  const native = nativeCandidates(fp, k, kernel);
  if (!native) return allPairsBatch(fp, k, options);
  const sink = new PairSink(checkMaxPairs(options.maxPairs ?? Infinity), options.accept);
  try {
    for (let p = 0; p < native.a.length; p++) sink.push(native.a[p], native.b[p], native.distance[p]);
  } catch (e) {
    if (e !== PAIR_LIMIT_REACHED) throw e;
  }
  return sink.result();
}
