import { strict as assert } from 'node:assert';
import { finishReport, planReport, type FingerprintedDocument, type MatchedItems, type ReportOptions } from '../../../../src/core/report/report';
import type { SectionFingerprint } from '../../../../src/core/types';

/** A section fingerprint whose only meaningful fields are its lines (the pairs are given). */
function section(startLine: number, endLine: number, raw: number): SectionFingerprint {
  return { hi: 0, lo: 0, tokens: 50, features: 40, sketch: new Uint32Array(0), rawHi: raw, rawLo: 0, normHi: 0, normLo: 0, startLine, endLine };
}

function doc(path: string, ranges: Array<[number, number]>): FingerprintedDocument {
  return { path, doc: { kind: 'code', file: null, sections: ranges.map(([s, e], i) => section(s, e, i)) } };
}

/** Pairs (a < b, ordered by distance, a, b as matchPairList gives them) of plan section items. */
function pairList(pairs: Array<[number, number, number]>): MatchedItems {
  const sorted = [...pairs].sort((x, y) => x[2] - y[2] || x[0] - y[0] || x[1] - y[1]);
  return {
    length: sorted.length,
    a: Uint32Array.from(sorted.map((p) => p[0])),
    b: Uint32Array.from(sorted.map((p) => p[1])),
    distance: Uint8Array.from(sorted.map((p) => p[2])),
    truncated: false,
  };
}

const NONE: MatchedItems = { length: 0, a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), truncated: false };
const OPTIONS: ReportOptions = { maxDistance: 3, sectionMaxDistance: 10, minSimilarity: 0, sections: true };

describe('report: nested section pairs', () => {
  it('keeps the outermost pair of two documents, and every pair of documents that have one', () => {
    // a.ts: class 1-100 holding methods 10-20 and 30-40; b.ts the same; c.ts one method.
    const docs = [doc('a.ts', [[1, 100], [10, 20], [30, 40]]), doc('b.ts', [[1, 100], [10, 20], [30, 40]]), doc('c.ts', [[5, 15]])];
    const plan = planReport(docs);
    // Items: a 0-2, b 3-5, c 6.
    const sections = pairList([
      [1, 4, 1], // method ~ method: inside class ~ class
      [0, 3, 2], // class ~ class
      [2, 5, 3], // method ~ method: inside class ~ class
      [1, 6, 2], // a's method ~ c: the only pair of a and c
      [4, 6, 4], // b's method ~ c
      [1, 2, 5], // two methods of a: same document, not nested in one another
    ]);
    const report = finishReport(plan, OPTIONS, NONE, sections);
    const got = report.pairs.map((p) => `${p.a.path}:${p.a.startLine}-${p.a.endLine} ${p.b.path}:${p.b.startLine}-${p.b.endLine} ${p.distance}`);
    assert.deepEqual(got, ['a.ts:1-100 b.ts:1-100 2', 'a.ts:10-20 c.ts:5-15 2', 'b.ts:10-20 c.ts:5-15 4', 'a.ts:10-20 a.ts:30-40 5']);
  });
});
