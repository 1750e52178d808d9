import { strict as assert } from 'node:assert';
import { matchPairList, orderPairList, type MatchOptions } from '../../../../src/core/report/compare';
import { estimateJaccard } from '../../../../src/core/fingerprint/simhash';
import { fingerprintText, SECTION_SKETCH_SIZE } from '../../../../src/core/fingerprint/fingerprint';
import type { ItemFingerprint } from '../../../../src/core/types';
import { KERNELS } from '../../node/workers/kernelsUnderTest';
import { codeFile, editLines, mulberry32 } from '../../helpers/corpus';
import { allPairsByKernel } from '../../helpers/kernelAllPairs';
import type { CodeKernel } from '../../../../src/core/types';

/** Section fingerprints of a corpus with copies and edited copies: many candidates, some confirmed. */
function sections(seed: number, files: number): ItemFingerprint[] {
  const rnd = mulberry32(seed);
  const pool: string[] = [];
  const items: ItemFingerprint[] = [];
  for (let i = 0; i < files; i++) {
    const r = rnd();
    const text = pool.length > 0 && r < 0.3 ? pool[Math.floor(rnd() * pool.length)] : pool.length > 0 && r < 0.6 ? editLines(pool[Math.floor(rnd() * pool.length)], rnd, 0.15) : codeFile(rnd, 3);
    pool.push(text);
    items.push(...fingerprintText(text, `f${i}.ts`, { minTokens: 20 }).sections);
  }
  return items;
}

/** matchPairList before the kernel's candidates were confirmed in one loop: allPairsBatch's filters over them, then the order. */
function throughAllPairsBatch(items: readonly ItemFingerprint[], options: MatchOptions & { kernel: Pick<CodeKernel, 'allPairs'> }, accept?: (a: number, b: number) => boolean) {
  const fp = new Uint32Array(2 * items.length);
  items.forEach((it, i) => {
    fp[2 * i] = it.hi;
    fp[2 * i + 1] = it.lo;
  });
  const found = allPairsByKernel(fp, options.maxDistance, options.kernel, {
    maxPairs: options.maxPairs,
    accept: (a, b) => (!accept || accept(a, b)) && estimateJaccard(items[a].sketch, items[b].sketch, options.sketchSize) >= options.minSimilarity,
  });
  return orderPairList(found, items.length);
}

describe('compare: matchPairList with a kernel', () => {
  for (const { name, kernel: kernelOf } of KERNELS) {
    it(`gives the pairs, order and cap of allPairsBatch's native path (${name} kernel)`, function () {
      const kernel = kernelOf();
      if (!kernel) this.skip();
      const items = sections(3, 60);
      assert.ok(items.length > 100, `${items.length} sections`);
      const odd = (a: number, b: number) => (a + b) % 3 !== 0;
      let confirmed = 0;
      for (const minSimilarity of [0, 0.5, 0.75]) {
        for (const accept of [undefined, odd]) {
          const options: MatchOptions & { kernel: CodeKernel } = { maxDistance: 10, minSimilarity, sketchSize: SECTION_SKETCH_SIZE, kernel: kernel! };
          const whole = matchPairList(items, options, accept);
          assert.deepEqual(whole, throughAllPairsBatch(items, options, accept));
          // Without the kernel (the TypeScript search): the same pairs when no cap cuts them.
          assert.deepEqual(whole, matchPairList(items, { ...options, kernel: undefined }, accept));
          confirmed += whole.length;
          for (const maxPairs of [0, 1, Math.floor(whole.length / 2), whole.length, whole.length + 1]) {
            const capped = matchPairList(items, { ...options, maxPairs }, accept);
            assert.deepEqual(capped, throughAllPairsBatch(items, { ...options, maxPairs }, accept), `maxPairs ${maxPairs}`);
            assert.equal(capped.truncated, whole.length > maxPairs);
            assert.equal(capped.length, Math.min(maxPairs, whole.length));
          }
        }
      }
      assert.ok(confirmed > 50, `${confirmed} pairs confirmed: the corpus has copies`);
      assert.throws(() => matchPairList(items, { maxDistance: 10, minSimilarity: 0, sketchSize: SECTION_SKETCH_SIZE, kernel, maxPairs: -1 }), RangeError);
    });
  }
});
