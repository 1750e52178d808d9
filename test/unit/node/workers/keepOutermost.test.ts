// The native kernel's choice of the outermost section pairs (native/dropnested.c, the binding
// keepOutermostPairs of kernelpairs.c) held to core/report/report.ts dropNestedPairs: the same
// pairs kept, for short runs (each pair against those kept) and long ones (through containers).
import { strict as assert } from 'node:assert';
import { dropNestedPairs, finishReport, planReport, type FingerprintedDocument, type Item, type ReportOptions } from '../../../../src/core/report/report';
import type { PairArrays } from '../../../../src/core/report/compare';
import type { CodeKernel, ItemFingerprint } from '../../../../src/core/types';
import { kernelKind, nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { mulberry32 } from '../../helpers/corpus';

const FP: ItemFingerprint = { hi: 0, lo: 0, tokens: 50, features: 50, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 };

/** Sections of `docs` documents: nested ranges (a class and its methods, a few levels) and flat runs. */
function itemsOf(docs: number, rnd: () => number): Item[] {
  const items: Item[] = [];
  for (let d = 0; d < docs; d++) {
    const flat = rnd() < 0.3;
    let line = 1;
    for (let top = 0, tops = 1 + Math.floor(rnd() * (flat ? 60 : 6)); top < tops; top++) {
      const span = flat ? 1 + Math.floor(rnd() * 3) : 20 + Math.floor(rnd() * 60);
      const start = line;
      const end = start + span;
      items.push({ doc: d, fp: FP, startLine: start, endLine: end });
      if (!flat) {
        // methods inside, some nested again, one the same range as its class now and then
        for (let m = start + 1; m + 4 < end; m += 3 + Math.floor(rnd() * 8)) {
          const e = Math.min(end - 1, m + 2 + Math.floor(rnd() * 10));
          items.push({ doc: d, fp: FP, startLine: m, endLine: e });
          if (rnd() < 0.3 && e - m > 2) items.push({ doc: d, fp: FP, startLine: m + 1, endLine: e - 1 });
        }
        if (rnd() < 0.1) items.push({ doc: d, fp: FP, startLine: start, endLine: end });
      }
      line = end + 1 + Math.floor(rnd() * 3);
    }
  }
  return items;
}

/** Random pairs of items (never an item with itself), a few document pairs given many. */
function pairsOf(items: Item[], count: number, rnd: () => number): PairArrays {
  const a: number[] = [];
  const b: number[] = [];
  const byDoc = new Map<number, number[]>();
  items.forEach((it, i) => byDoc.set(it.doc, [...(byDoc.get(it.doc) ?? []), i]));
  const docs = [...byDoc.keys()];
  const pick = (list: number[]) => list[Math.floor(rnd() * list.length)];
  while (a.length < count) {
    // mostly pairs of two documents chosen among few, so that runs are long (> 64) as well as short
    const da = docs[Math.floor(rnd() * Math.min(docs.length, rnd() < 0.5 ? 3 : docs.length))];
    const db = rnd() < 0.15 ? da : docs[Math.floor(rnd() * Math.min(docs.length, rnd() < 0.5 ? 3 : docs.length))];
    const x = pick(byDoc.get(da)!);
    const y = pick(byDoc.get(db)!);
    if (x === y) continue;
    a.push(x);
    b.push(y);
  }
  return { length: count, a: Uint32Array.from(a), b: Uint32Array.from(b), distance: Uint8Array.from(a, (_, i) => i % 7) };
}

const arrays = (p: PairArrays) => ({ a: Array.from(p.a.subarray(0, p.length)), b: Array.from(p.b.subarray(0, p.length)), distance: Array.from(p.distance.subarray(0, p.length)) });

function ranges(items: Item[]) {
  return { docOf: Int32Array.from(items, (i) => i.doc), startOf: Int32Array.from(items, (i) => i.startLine), endOf: Int32Array.from(items, (i) => i.endLine) };
}

/** The pairs the kernel keeps, in their order. */
function kept(kernel: CodeKernel, pairs: PairArrays, items: Item[]): PairArrays {
  const { docOf, startOf, endOf } = ranges(items);
  const keep = kernel.keepOutermostPairs!(pairs.a, pairs.b, docOf, startOf, endOf);
  assert.equal(keep.length, pairs.length);
  const idx = [...keep.keys()].filter((p) => keep[p] === 1);
  return { length: idx.length, a: Uint32Array.from(idx, (p) => pairs.a[p]), b: Uint32Array.from(idx, (p) => pairs.b[p]), distance: Uint8Array.from(idx, (p) => pairs.distance[p]) };
}

describe('native kernel: the outermost section pairs (keepOutermostPairs)', function () {
  let kernel: CodeKernel | undefined;
  before(function () {
    kernel = kernelKind() === 'native' ? (nativeKernel() ?? undefined) : undefined;
    if (!kernel?.keepOutermostPairs) this.skip();
  });

  it("keeps dropNestedPairs' pairs: a class pair over its methods' pairs, crossed and same-file pairs kept", () => {
    // two files, each a class (1–40) with methods 2–10 and 12–20; file 1 also a class 50–60
    const items: Item[] = [
      { doc: 0, fp: FP, startLine: 1, endLine: 40 },
      { doc: 0, fp: FP, startLine: 2, endLine: 10 },
      { doc: 0, fp: FP, startLine: 12, endLine: 20 },
      { doc: 1, fp: FP, startLine: 1, endLine: 40 },
      { doc: 1, fp: FP, startLine: 2, endLine: 10 },
      { doc: 1, fp: FP, startLine: 12, endLine: 20 },
      { doc: 1, fp: FP, startLine: 50, endLine: 60 },
      { doc: 0, fp: FP, startLine: 1, endLine: 40 }, // a second section of the class's lines
    ];
    // the class's second section ~ the class, then the class ~ the class (as wide: the first is
    // kept, the second held by it), method~method (nested: dropped), a method ~ the other class
    // of file 1 (not held by a kept pair: kept), and within file 1 its method ~ its second class
    const pairs: PairArrays = { length: 5, a: Uint32Array.from([7, 0, 1, 2, 5]), b: Uint32Array.from([3, 3, 4, 6, 6]), distance: Uint8Array.from([0, 1, 2, 3, 4]) };
    const expected = arrays(dropNestedPairs(pairs, items));
    assert.deepEqual(expected, { a: [7, 2, 5], b: [3, 6, 6], distance: [0, 3, 4] });
    assert.deepEqual(arrays(kept(kernel!, pairs, items)), expected);
  });

  it('keeps the same pairs as dropNestedPairs on random nested and flat sections, short runs and runs over 64', () => {
    let longRuns = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const rnd = mulberry32(seed);
      const items = itemsOf(4 + seed * 3, rnd);
      const pairs = pairsOf(items, 400 + seed * 200, rnd);
      const runs = new Map<string, number>();
      for (let p = 0; p < pairs.length; p++) {
        const da = items[pairs.a[p]].doc;
        const db = items[pairs.b[p]].doc;
        const key = da < db ? `${da} ${db}` : `${db} ${da}`;
        runs.set(key, (runs.get(key) ?? 0) + 1);
      }
      longRuns += [...runs.values()].filter((n) => n > 64).length;
      const expected = arrays(dropNestedPairs(pairs, items));
      assert.ok(expected.a.length < pairs.length && expected.a.length > 0, `seed ${seed}: some pairs nested (${expected.a.length} of ${pairs.length} kept)`);
      assert.deepEqual(arrays(kept(kernel!, pairs, items)), expected, `seed ${seed}`);
    }
    assert.ok(longRuns >= 6, `runs over 64 pairs tested: ${longRuns}`);
  });

  it("gives finishReport the same report as dropNestedPairs, and the same again when the kernel's call fails", () => {
    const rnd = mulberry32(11);
    const items = itemsOf(8, rnd);
    const docs: FingerprintedDocument[] = [];
    for (const it of items) {
      while (docs.length <= it.doc) docs.push({ path: `f${docs.length}.ts`, doc: { kind: 'code', file: null, sections: [] } });
      docs[it.doc].doc.sections.push({ ...FP, startLine: it.startLine, endLine: it.endLine });
    }
    const plan = planReport(docs);
    const pairs = pairsOf(plan.sectionItems, 900, rnd);
    // (as matchPairList gives them: a < b, by distance)
    const order = [...Array(pairs.length).keys()].sort((x, y) => pairs.distance[x] - pairs.distance[y] || x - y);
    const matched = {
      length: pairs.length,
      a: Uint32Array.from(order, (p) => Math.min(pairs.a[p], pairs.b[p])),
      b: Uint32Array.from(order, (p) => Math.max(pairs.a[p], pairs.b[p])),
      distance: Uint8Array.from(order, (p) => pairs.distance[p]),
      truncated: false,
    };
    const none = { length: 0, a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), truncated: false };
    const options: ReportOptions = { maxDistance: 3, sectionMaxDistance: 10, minSimilarity: 0, sections: true };
    const inTypeScript = finishReport(plan, options, none, matched);
    assert.ok(inTypeScript.pairs.length > 0 && inTypeScript.pairs.length < matched.length, `some pairs nested (${inTypeScript.pairs.length} of ${matched.length} kept)`);
    assert.deepEqual(finishReport(plan, { ...options, kernel: kernel! }, none, matched), inTypeScript);
    const failing = Object.create(kernel!, { keepOutermostPairs: { value: () => { throw new Error('out of memory'); } } }) as CodeKernel;
    assert.deepEqual(finishReport(plan, { ...options, kernel: failing }, none, matched), inTypeScript);
  });

  it('keeps no pair of none, and refuses pairs outside the items or of one item', () => {
    const items = itemsOf(2, mulberry32(9));
    const { docOf, startOf, endOf } = ranges(items);
    assert.equal(kernel!.keepOutermostPairs!(new Uint32Array(0), new Uint32Array(0), docOf, startOf, endOf).length, 0);
    assert.throws(() => kernel!.keepOutermostPairs!(Uint32Array.of(0), Uint32Array.of(items.length), docOf, startOf, endOf), /not below/);
    assert.throws(() => kernel!.keepOutermostPairs!(Uint32Array.of(1), Uint32Array.of(1), docOf, startOf, endOf), /one item/);
    assert.throws(() => kernel!.keepOutermostPairs!(Uint32Array.of(0, 1), Uint32Array.of(1), docOf, startOf, endOf), /keepOutermostPairs\(/);
  });
});
