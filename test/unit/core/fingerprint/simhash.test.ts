import { strict as assert } from 'node:assert';
import { mix64, out } from '../../../../src/core/text/hash';
import { hammingDistance } from '../../../../src/core/index/hamming';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { estimateJaccard, simhashTokens } from '../../../../src/core/fingerprint/simhash';
import { TokenBuffer } from '../../../../src/core/text/tokenize';
import { mulberry32 } from '../../helpers/random';

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');
function randomText(rnd: () => number, words: number): string {
  const r: string[] = [];
  for (let i = 0; i < words; i++) r.push(WORDS[Math.floor(rnd() * WORDS.length)] + Math.floor(rnd() * 50));
  return r.join(' ');
}

describe('simhash', () => {
  it('packed counters give the same fingerprint as 64 separate counters (over 255 features)', () => {
    const rnd = mulberry32(1);
    for (const n of [1, 2, 254, 255, 256, 1000, 5000]) {
      const buf = new TokenBuffer(8);
      for (let i = 0; i < n; i++) buf.push((rnd() * 2 ** 32) >>> 0, (rnd() * 2 ** 32) >>> 0, i);
      const fp = simhashTokens(buf, 0, n, { shingleSize: 1 })!;
      // Naive: shingle of one token = mix64 of its hash; +1/−1 per bit.
      const sums = new Array(64).fill(0);
      for (let i = 0; i < n; i++) {
        mix64(buf.hi[i], buf.lo[i]);
        for (let b = 0; b < 32; b++) {
          sums[b] += (out.lo >>> b) & 1 ? 1 : -1;
          sums[32 + b] += (out.hi >>> b) & 1 ? 1 : -1;
        }
      }
      let lo = 0;
      let hi = 0;
      for (let b = 0; b < 32; b++) {
        if (sums[b] > 0) lo |= 1 << b;
        if (sums[32 + b] > 0) hi |= 1 << b;
      }
      assert.equal(fp.lo, lo >>> 0, `lo for n=${n}`);
      assert.equal(fp.hi, hi >>> 0, `hi for n=${n}`);
      assert.equal(fp.features, n);
      assert.equal(fp.tokens, n);
    }
  });

  it('counts each shingle once by default: a repeated line does not dominate', () => {
    const base = 'function f(a, b) { return a + b; }\n';
    const once = fingerprintText(base + 'let x = compute(1, 2, 3);\n'.repeat(1), 'a.ts', { minTokens: 1 }).file!;
    const many = fingerprintText(base + 'let x = compute(1, 2, 3);\n'.repeat(50), 'a.ts', { minTokens: 1 }).file!;
    assert.ok(many.features < once.features + 20, 'repeats add only the few shingles that span a boundary');
    const tfMany = fingerprintText(base + 'let x = compute(1, 2, 3);\n'.repeat(50), 'a.ts', { minTokens: 1, weighting: 'tf' }).file!;
    assert.equal(tfMany.features, many.features);
  });

  it('identical texts give identical fingerprints; small edits give small distances; unrelated ≈ 32', () => {
    const rnd = mulberry32(42);
    let smallSum = 0;
    let farSum = 0;
    const trials = 40;
    for (let t = 0; t < trials; t++) {
      const text = randomText(rnd, 400);
      const a = fingerprintText(text, 'a.md').file!;
      const same = fingerprintText(text, 'b.md').file!;
      assert.equal(hammingDistance(a.hi, a.lo, same.hi, same.lo), 0);
      const words = text.split(' ');
      words[Math.floor(rnd() * words.length)] = 'edited';
      const edited = fingerprintText(words.join(' '), 'b.md').file!;
      smallSum += hammingDistance(a.hi, a.lo, edited.hi, edited.lo);
      const other = fingerprintText(randomText(rnd, 400), 'c.md').file!;
      farSum += hammingDistance(a.hi, a.lo, other.hi, other.lo);
    }
    assert.ok(smallSum / trials < 4, `mean distance after one edit ${smallSum / trials}`);
    assert.ok(Math.abs(farSum / trials - 32) < 4, `mean distance of unrelated texts ${farSum / trials}`);
  });

  it('sketch holds the bottom-k distinct shingle values, ascending; exact Jaccard for small sets', () => {
    const a = fingerprintText('one two three four five six seven eight', 'a.md', { minTokens: 1 }).file!;
    assert.equal(a.features, 6);
    assert.equal(a.sketch.length, 6);
    for (let i = 1; i < a.sketch.length; i++) assert.ok(a.sketch[i - 1] < a.sketch[i]);
    // b shares "one two three", "two three four" … "five six seven" (5 of 6) and adds 1 → J = 5/7.
    const b = fingerprintText('one two three four five six seven nine', 'a.md', { minTokens: 1 }).file!;
    assert.equal(estimateJaccard(a.sketch, b.sketch), 5 / 7);
    // Treated as truncated sketches of capacity 6, only the 6 smallest of the union count.
    assert.ok(estimateJaccard(a.sketch, b.sketch, 6) <= 5 / 6);
    assert.equal(estimateJaccard(a.sketch, a.sketch), 1);
  });

  it('estimateJaccard tracks true Jaccard on large sets (bottom-128)', () => {
    const rnd = mulberry32(9);
    const universe = Array.from({ length: 6000 }, () => (rnd() * 2 ** 32) >>> 0);
    const sorted = (xs: number[]) => Uint32Array.from(xs).sort().slice(0, 128);
    for (const [shared, only] of [[900, 100], [700, 300], [500, 500]]) {
      const A = universe.slice(0, shared + only);
      const B = [...universe.slice(0, shared), ...universe.slice(3000, 3000 + only)];
      const truth = shared / (shared + 2 * only);
      const est = estimateJaccard(sorted(A), sorted(B));
      assert.ok(Math.abs(est - truth) < 0.12, `estimate ${est} vs truth ${truth}`);
    }
  });

  it('returns null for an empty range; a range shorter than k is one shingle', () => {
    const buf = new TokenBuffer();
    assert.equal(simhashTokens(buf, 0, 0), null);
    buf.push(1, 2, 0);
    buf.push(3, 4, 1);
    const fp = simhashTokens(buf, 0, 2, { shingleSize: 3 })!;
    assert.equal(fp.features, 1);
  });
});
