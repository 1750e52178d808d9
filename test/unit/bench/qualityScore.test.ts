// The scoring rules of the quality benchmark (bench/quality/quality-score.js): lineage (versions,
// twins, mutants), a reported pair judged by lineage or content (Chinese as a reader reads it),
// precision beside the earlier J >= 0.7 truth, recall, mutant recall per rate, pooling and the
// verdict's misses. Pure functions on small objects: no corpus, no CLI.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';

interface FileEntry {
  subset: string;
  kind: 'natural' | 'mutant';
  pkg: string;
  version: string;
  rel: string;
  twinKey: string;
  source?: string;
  rate?: number;
}
interface Judged {
  correct: boolean;
  by: 'content' | 'lineage' | null;
  jaccard: number;
}
interface Precision {
  reported: number;
  correct: number;
  byContent: number;
  byLineage: number;
  strict: number;
  precision: number | null;
  strictPrecision: number | null;
}
interface Recall {
  positives: number;
  found: number;
  recall: number | null;
}
type Mutants = Record<string, { mutants: number; found: number; recall: number | null }>;
interface Score {
  precision: Precision;
  recall: Recall;
  mutants: Mutants;
}
interface QualityScore {
  CONTENT: number;
  STRICT: number;
  POSITIVE: number;
  TARGET: { precision: number; recall: number; mutants: Record<string, number> };
  lineageOf(f: FileEntry): string;
  sameLineage(a: FileEntry, b: FileEntry): boolean;
  judgePair(x: { lineage: boolean; jaccard: number; readerJaccard?: number | null }): { correct: boolean; by: 'content' | 'lineage' | null };
  precisionOf(judged: Judged[]): Precision;
  recallOf(positives: string[], reported: Set<string>): Recall;
  mutantRecall(mutants: Array<{ rate: number; found: boolean }>, rates: number[]): Mutants;
  pooled(scores: Score[]): Score;
  misses(score: Score, target?: QualityScore['TARGET']): string[];
}

const Q = require(path.join(__dirname, '..', '..', '..', 'bench', 'quality', 'quality-score.js')) as QualityScore;
// The corpus builder's twin key, so the lineage tests use the keys the corpus really gives.
const { twinKey } = require(path.join(__dirname, '..', '..', '..', 'bench', 'quality', 'corpus.js')) as { twinKey(rel: string): string };

const natural = (subset: string, pkg: string, version: string, rel: string): FileEntry => ({ subset, kind: 'natural', pkg, version, rel, twinKey: twinKey(rel) });
const mutantOf = (src: FileEntry, srcPath: string, rate: number): FileEntry => ({ ...src, kind: 'mutant', source: srcPath, rate });

describe('bench/quality scorer (lineage and content truth)', () => {
  describe('lineage', () => {
    const expressOld = natural('code', 'express', '4.18.2', 'lib/router/route.js');
    const expressNew = natural('code', 'express', '4.21.2', 'lib/router/route.js');
    it('version twins, transpiled twins (TypeScript beside its CommonJS or ESM output) and zh-cn/zh-tw editions are one lineage', () => {
      assert.ok(Q.sameLineage(expressOld, expressNew), 'version twins');
      assert.ok(Q.sameLineage(natural('code', 'ajv', '8.12.0', 'lib/compile/index.ts'), natural('code', 'ajv', '8.17.1', 'dist/compile/index.js')), 'transpiled + version twin');
      assert.ok(Q.sameLineage(natural('code', 'rxjs', '7.8.1', 'src/internal/operators/map.ts'), natural('code', 'rxjs', '7.8.1', 'dist/esm/internal/operators/map.js')), 'TS beside ESM');
      assert.ok(Q.sameLineage(natural('zh', 'learnyounode', '4.2.2', 'exercises/http_client/problem.zh-cn.md'), natural('zh', 'learnyounode', '3.5.10', 'exercises/http_client/problem.zh-tw.md')), 'zh-cn / zh-tw at two versions');
    });
    it('a mutant is of its source lineage: its source, the source twins and the other mutants of the source', () => {
      const m10 = mutantOf(expressNew, 'code/express@4.21.2/lib/router/route.js', 10);
      const m35 = mutantOf(expressNew, 'code/express@4.21.2/lib/router/route.js', 35);
      assert.ok(Q.sameLineage(m10, expressNew));
      assert.ok(Q.sameLineage(m10, expressOld), 'the source twin');
      assert.ok(Q.sameLineage(m10, m35), 'a sibling mutant');
      assert.equal(Q.lineageOf(m10), Q.lineageOf(expressNew));
    });
    it('other files of a package, the same path in another package and another subset are not', () => {
      assert.ok(!Q.sameLineage(expressOld, natural('code', 'express', '4.18.2', 'lib/router/layer.js')));
      assert.ok(!Q.sameLineage(natural('code', 'semver', '7.5.4', 'ranges/max-satisfying.js'), natural('code', 'semver', '7.5.4', 'ranges/min-satisfying.js')));
      assert.ok(!Q.sameLineage(natural('en', 'axios', '1.6.8', 'README.md'), natural('en', 'express', '4.18.2', 'README.md')));
      assert.ok(!Q.sameLineage(natural('en', 'javascripting', '2.6.1', 'problems/scope/problem.md'), natural('zh', 'javascripting', '2.6.1', 'problems/scope/problem_zh-cn.md')));
      const m = mutantOf(expressNew, 'code/express@4.21.2/lib/router/route.js', 10);
      assert.ok(!Q.sameLineage(m, natural('code', 'express', '4.21.2', 'lib/router/layer.js')), 'a mutant and another file of its package');
    });
  });

  describe('judging a reported pair', () => {
    it('content first: J >= CONTENT is correct by content whatever the lineage', () => {
      assert.equal(Q.CONTENT, 0.5);
      assert.deepEqual(Q.judgePair({ lineage: false, jaccard: 0.5 }), { correct: true, by: 'content' });
      assert.deepEqual(Q.judgePair({ lineage: true, jaccard: 0.93 }), { correct: true, by: 'content' });
    });
    it('below CONTENT: correct only by lineage', () => {
      assert.deepEqual(Q.judgePair({ lineage: true, jaccard: 0.31 }), { correct: true, by: 'lineage' });
      assert.deepEqual(Q.judgePair({ lineage: false, jaccard: 0.499 }), { correct: false, by: null });
    });
    it('Chinese: the Jaccard of the texts converted to Simplified counts as content too', () => {
      assert.deepEqual(Q.judgePair({ lineage: false, jaccard: 0.16, readerJaccard: 0.74 }), { correct: true, by: 'content' });
      assert.deepEqual(Q.judgePair({ lineage: false, jaccard: 0.16, readerJaccard: 0.3 }), { correct: false, by: null });
      assert.deepEqual(Q.judgePair({ lineage: false, jaccard: 0.16, readerJaccard: null }), { correct: false, by: null });
    });
  });

  describe('precision, recall, mutant recall', () => {
    it('precision counts lineage-only pairs as correct; the earlier truth (raw J >= 0.7) beside it', () => {
      const judged: Judged[] = [
        { correct: true, by: 'content', jaccard: 0.95 },
        { correct: true, by: 'content', jaccard: 0.6 },
        { correct: true, by: 'lineage', jaccard: 0.4 },
        { correct: false, by: null, jaccard: 0.2 },
      ];
      const p = Q.precisionOf(judged);
      assert.deepEqual(p, { reported: 4, correct: 3, byContent: 2, byLineage: 1, strict: 1, precision: 0.75, strictPrecision: 0.25 });
      assert.equal(Q.precisionOf([]).precision, null, 'nothing reported: no precision, not 0');
    });
    it('recall of the positives by the reported keys; mutant recall per rate, a rate without mutants is null', () => {
      assert.deepEqual(Q.recallOf(['a', 'b', 'c', 'd'], new Set(['a', 'c', 'x'])), { positives: 4, found: 2, recall: 0.5 });
      const m = Q.mutantRecall(
        [
          { rate: 10, found: true },
          { rate: 10, found: true },
          { rate: 10, found: false },
          { rate: 20, found: false },
        ],
        [10, 20, 35],
      );
      assert.deepEqual(m[10], { mutants: 3, found: 2, recall: 2 / 3 });
      assert.deepEqual(m[20], { mutants: 1, found: 0, recall: 0 });
      assert.deepEqual(m[35], { mutants: 0, found: 0, recall: null });
    });
    it('pooled adds the counts of the subsets (not the means of their ratios)', () => {
      const s = (reported: number, correct: number, pos: number, found: number, m10: [number, number]): Score => ({
        precision: { reported, correct, byContent: correct, byLineage: 0, strict: correct, precision: correct / reported, strictPrecision: correct / reported },
        recall: { positives: pos, found, recall: found / pos },
        mutants: { 10: { mutants: m10[0], found: m10[1], recall: m10[1] / m10[0] } },
      });
      const all = Q.pooled([s(100, 99, 10, 10, [36, 36]), s(10, 5, 90, 81, [26, 13])]);
      assert.equal(all.precision.reported, 110);
      assert.equal(all.precision.precision, 104 / 110);
      assert.equal(all.recall.recall, 91 / 100);
      assert.deepEqual(all.mutants[10], { mutants: 62, found: 49, recall: 49 / 62 });
    });
  });

  describe('the verdict: issue 12 targets', () => {
    const score = (precision: number, recall: number, m10: number, m20: number): Score => ({
      precision: { reported: 100, correct: 0, byContent: 0, byLineage: 0, strict: 0, precision, strictPrecision: null },
      recall: { positives: 100, found: 0, recall },
      mutants: { 10: { mutants: 36, found: 0, recall: m10 }, 20: { mutants: 36, found: 0, recall: m20 } },
    });
    it('all met: no misses; each target missed is named with its value', () => {
      assert.deepEqual(Q.TARGET, { precision: 0.98, recall: 0.98, mutants: { 10: 0.95, 20: 0.8 } });
      assert.deepEqual(Q.misses(score(0.98, 0.98, 0.95, 0.8)), []);
      assert.deepEqual(Q.misses(score(0.979, 1, 1, 1)), ['precision 0.979 < 0.98']);
      assert.deepEqual(Q.misses(score(1, 0.97, 0.944, 0.75)), ['recall 0.970 < 0.98', '10 % mutants 0.944 < 0.95', '20 % mutants 0.750 < 0.8']);
    });
    it('nothing to measure is not a miss (no pair reported, no positives, no mutants)', () => {
      const s = score(1, 1, 1, 1);
      s.precision.precision = null;
      s.recall.recall = null;
      s.mutants[10].recall = null;
      delete s.mutants[20];
      assert.deepEqual(Q.misses(s), []);
    });
  });
});
