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

describe('report: nested section pairs of many pairs between two documents', () => {
  /** Sections nested three levels deep: blocks of 100 lines holding 10 of 10 lines holding 2 of 4. */
  function nestedRanges(blocks: number): Array<[number, number]> {
    const ranges: Array<[number, number]> = [];
    for (let k = 0; k < blocks; k++) {
      const base = 1 + k * 100;
      ranges.push([base, base + 99]);
      for (let m = 0; m < 10; m++) {
        ranges.push([base + m * 10, base + m * 10 + 9]);
        ranges.push([base + m * 10, base + m * 10 + 3], [base + m * 10 + 5, base + m * 10 + 8]);
      }
    }
    return ranges;
  }

  /** The rule itself, pair by pair: widest first (then in list order), a pair is dropped when an accepted pair of the same two documents holds both its sides. */
  function outermost(docs: FingerprintedDocument[], list: MatchedItems): string[] {
    const plan = planReport(docs);
    const items = plan.sectionItems;
    const holds = (x: number, i: number) => items[x].doc === items[i].doc && items[x].startLine <= items[i].startLine && items[i].endLine <= items[x].endLine;
    const span = (p: number) => items[list.a[p]].endLine - items[list.a[p]].startLine + items[list.b[p]].endLine - items[list.b[p]].startLine;
    const docsOf = (p: number) => [items[list.a[p]].doc, items[list.b[p]].doc].sort().join();
    const order = Array.from({ length: list.length }, (_, p) => p).sort((x, y) => span(y) - span(x) || x - y);
    const accepted: number[] = [];
    for (const p of order) {
      const a = list.a[p];
      const b = list.b[p];
      const nested = accepted.some((q) => docsOf(q) === docsOf(p) && ((holds(list.a[q], a) && holds(list.b[q], b)) || (holds(list.b[q], a) && holds(list.a[q], b))));
      if (!nested) accepted.push(p);
    }
    const kept = accepted.sort((x, y) => x - y);
    return kept.map((p) => {
      const x = items[list.a[p]];
      const y = items[list.b[p]];
      const [u, v] = docs[x.doc].path < docs[y.doc].path || (x.doc === y.doc && x.startLine < y.startLine) ? [x, y] : [y, x];
      return `${docs[u.doc].path}:${u.startLine}-${u.endLine} ${docs[v.doc].path}:${v.startLine}-${v.endLine}`;
    });
  }

  for (const count of [20, 64, 65, 400]) {
    it(`keeps the same pairs as the rule itself with ${count} pairs of two documents`, () => {
      const ranges = nestedRanges(3);
      const docs = [doc('a.ts', ranges), doc('b.ts', ranges), doc('c.ts', [[1, 9]])];
      const n = ranges.length; // a's items 0..n-1, b's n..2n-1, c's 2n
      let seed = count;
      const next = (m: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % m;
      };
      const seen = new Set<string>();
      // One pair of b and c (kept: alone), a's first block ~ b's and a method of each (nested in it).
      const pairs: Array<[number, number, number]> = [[2 * n - 1, 2 * n, 1], [0, n, 0], [1, n + 1, 3]];
      for (const [x, y] of pairs) seen.add(`${x},${y}`);
      while (pairs.length < count) {
        // Mostly a ~ b, some a ~ a (sides that do not overlap): both runs of many pairs.
        const x = next(n);
        const y = next(5) === 0 ? next(n) : n + next(n);
        const [lo, hi] = x < y ? [x, y] : [y, x];
        if (lo === hi || seen.has(`${lo},${hi}`)) continue;
        if (hi < n && !(ranges[lo][1] < ranges[hi][0] || ranges[hi][1] < ranges[lo][0])) continue;
        seen.add(`${lo},${hi}`);
        pairs.push([lo, hi, next(10)]);
      }
      const list = pairList(pairs);
      const report = finishReport(planReport(docs), OPTIONS, NONE, list);
      const got = report.pairs.map((p) => `${p.a.path}:${p.a.startLine}-${p.a.endLine} ${p.b.path}:${p.b.startLine}-${p.b.endLine}`);
      const want = outermost(docs, list);
      assert.ok(want.length < count, 'some pairs are nested');
      assert.deepEqual(got, want);
    });
  }
});
