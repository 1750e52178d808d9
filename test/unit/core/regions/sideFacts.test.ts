// The regions' sides a kernel's plan job makes with its search (core/regions/sideFacts.ts,
// native/regionsides.c; asked by node/locate/regionThreads.ts startRegionsOnThreads' `sides`) are
// what the report otherwise computes per region on Node's thread (node/regions/regionSides.ts,
// node/locate/locatedReport.ts): each side's start past its leading closers, the lines of its token
// range, the report's lines of its trimmed range (a notebook's cell lines) and the two sides'
// SimHash distance — on code (lean kernel documents and documents with stored identifier streams),
// notebooks, English and Chinese prose, regions beginning with closers, identifiers normalised or
// not, shingles unweighted or tf-weighted, 1 to 4 threads; buckets held back and searched later
// have rows of −1 (the report makes those), and the pairs are findRegions' all the same. The job
// makes the pairs' groups too (native/regiongroups.c): groupRegions' groups.
import { strict as assert } from 'node:assert';
import { lineOfOffset, withAnchors, type RegionDocument } from '../../../../src/core/regions/document';
import { defaultAnchors, findRegions } from '../../../../src/core/regions/regions';
import { SIDE_A_FIRST, SIDE_A_LAST, SIDE_A_START, SIDE_A_START_LINE, SIDE_B_FIRST, SIDE_B_LAST, SIDE_B_START, SIDE_B_START_LINE, SIDE_DISTANCE, SIDE_INTS, type SideRequest } from '../../../../src/core/regions/sideFacts';
import { closerTokens, linesOf, pairSides, trimmedStart, type SideOptions } from '../../../../src/node/regions/regionSides';
import { startRegionsOnThreads } from '../../../../src/node/locate/regionThreads';
import { identicalClasses } from '../../../../src/node/locate/identicalDocs';
import { regionDocumentOf } from '../../../../src/node/workers/fingerprintFile';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { chineseText, codeFunction, mulberry32, proseText } from '../../helpers/corpus';
import { pastedSources } from '../../helpers/pastedSources';
import { threadedNativeKernel } from '../../node/workers/kernelsUnderTest';

/** A notebook of cells: [markdown | code, source]. */
const notebook = (cells: Array<['markdown' | 'code', string]>): string =>
  JSON.stringify({
    cells: cells.map(([kind, source]) => ({ cell_type: kind, metadata: {}, source: source.split(/(?<=\n)/), ...(kind === 'code' ? { execution_count: 1, outputs: [] } : {}) })),
    metadata: { kernelspec: { language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  });

/** Python code of `n` small functions. */
const python = (rnd: () => number, n: number): string =>
  Array.from({ length: n }, (_, i) => `def f${i}_${Math.floor(rnd() * 1000)}(x, y):\n    z = x * ${i} + y\n    if z > ${Math.floor(rnd() * 50)}:\n        return g(z, ${i})\n    return [z, y, x]\n`).join('\n');

/**
 * The test's documents, as the scan's workers make them (stored anchors): this repository's
 * sources with pastes, code whose copies follow the closers of the statement before them,
 * notebooks sharing cells, prose and Chinese prose sharing paragraphs.
 */
function documents(): RegionDocument[] {
  const rnd = mulberry32(31);
  const settings = { ...DEFAULT_ENGINE_SETTINGS };
  const docs: RegionDocument[] = pastedSources(9, ['src/core/regions'], { twinOf: 1 });
  const shared = [codeFunction(rnd, 14), codeFunction(rnd, 10)];
  for (let i = 0; i < 4; i++) {
    // a copy right after `});` or `];` or `),`: the region takes the closers along
    const before = ['const a = f(g(1), [2]);', 'register(() => {\n  run();\n});', 'const list = [\n  1,\n  2,\n];', 'call(x, (y),'][i];
    const text = `${codeFunction(rnd, 6)}\n${before}\n${shared[i % 2]}\n${codeFunction(rnd, 5)}\n${before}\n${shared[(i + 1) % 2]}`;
    docs.push(regionDocumentOf(`closers${i}.ts`, text, settings)!);
  }
  const cell = python(rnd, 6);
  for (let i = 0; i < 3; i++) {
    const cells: Array<['markdown' | 'code', string]> = [['markdown', proseText(rnd, 1)], ['code', python(rnd, 2)], ['code', cell], ['markdown', proseText(rnd, 1)], ['code', i === 2 ? cell : python(rnd, 3)]];
    docs.push(regionDocumentOf(`nb${i}.ipynb`, notebook(cells), settings)!);
  }
  const para = proseText(rnd, 2);
  const zh = chineseText(rnd, 2);
  docs.push(regionDocumentOf('p1.md', `${proseText(rnd, 3)}\n\n${para}\n\n${zh}\n`, settings)!);
  docs.push(regionDocumentOf('p2.md', `${para}\n\n${proseText(rnd, 2)}\n\n${zh}\n${para}\n`, settings)!);
  return docs.map((d) => (d.length >= 30 && !d.anchors ? withAnchors(d, defaultAnchors(d)) : d));
}

const OPTIONS: SideOptions[] = [
  { normalizeIdentifiers: false, weighting: 'none' },
  { normalizeIdentifiers: false, weighting: 'tf' },
  { normalizeIdentifiers: true, weighting: 'none' },
  { normalizeIdentifiers: true, weighting: 'tf' },
];

const requestOf = (o: SideOptions): SideRequest => ({ normalizeIdentifiers: o.normalizeIdentifiers, tf: o.weighting === 'tf', closers: closerTokens() });

describe('core/regions/sideFacts: the regions\' sides made by the kernel\'s plan job', function () {
  this.timeout(120000);
  let kernel: ReturnType<typeof threadedNativeKernel>;
  let docs: RegionDocument[];

  before(function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    kernel = threadedNativeKernel(true);
    docs = documents();
  });

  /** Asserts that row i of `facts` is what the TypeScript makes of pair i; returns what it covered. */
  const check = (facts: Int32Array, i: number, p: ReturnType<typeof findRegions>['pairs'][number], o: SideOptions) => {
    const A = docs[p.a.doc];
    const B = docs[p.b.doc];
    const row = facts.subarray(SIDE_INTS * i, SIDE_INTS * (i + 1));
    const aStart = trimmedStart(A, p.a.start, p.a.end);
    const bStart = trimmedStart(B, p.b.start, p.b.end);
    assert.equal(row[SIDE_A_START], aStart, `pair ${i}: side a's trimmed start`);
    assert.equal(row[SIDE_B_START], bStart, `pair ${i}: side b's trimmed start`);
    assert.deepEqual([row[SIDE_A_FIRST], row[SIDE_A_LAST]], [lineOfOffset(A.lineStarts, A.start[p.a.start]), lineOfOffset(A.lineStarts, A.start[p.a.end - 1])]);
    assert.deepEqual([row[SIDE_B_FIRST], row[SIDE_B_LAST]], [lineOfOffset(B.lineStarts, B.start[p.b.start]), lineOfOffset(B.lineStarts, B.start[p.b.end - 1])]);
    const la = linesOf(A, aStart, p.a.end);
    const lb = linesOf(B, bStart, p.b.end);
    assert.deepEqual([row[SIDE_A_START_LINE], row[SIDE_A_START_LINE + 1]], [la.startLine, la.endLine], `pair ${i}: side a's report lines`);
    assert.deepEqual([row[SIDE_B_START_LINE], row[SIDE_B_START_LINE + 1]], [lb.startLine, lb.endLine], `pair ${i}: side b's report lines`);
    // (the SimHashes made in full, by the TypeScript and by the kernel: the job's shortcut for exact copies gives the same)
    const ts = pairSides(A, B, p, o);
    assert.equal(row[SIDE_DISTANCE], ts.distance, `pair ${i}: distance`);
    assert.equal(row[SIDE_DISTANCE], pairSides(A, B, p, o, kernel).distance);
    return { trimmed: aStart !== p.a.start || bStart !== p.b.start, notebook: !!(A.reportLines || B.reportLines), prose: A.kind === 'prose' || B.kind === 'prose', near: row[SIDE_DISTANCE] > 0 && row[SIDE_DISTANCE] < 64 };
  };

  for (const o of OPTIONS) {
    it(`match the TypeScript's for every region found (${o.normalizeIdentifiers ? 'identifiers normalised' : 'tokens as read'}, ${o.weighting}; 1, 2 and 4 threads)`, async () => {
      const one = findRegions(docs, { kernel });
      assert.ok(one.pairs.length >= 20, `copies to find (${one.pairs.length})`);
      for (const threads of [1, 2, 4]) {
        const found = await startRegionsOnThreads(docs, { kernel }, threads, undefined, requestOf(o)).result();
        assert.deepEqual(found.pairs, one.pairs, `${threads} threads: findRegions' pairs`);
        assert.deepEqual(found.groups, one.groups);
        const facts = found.sideFacts;
        assert.ok(facts, 'the job made the sides');
        assert.equal(facts.length, SIDE_INTS * found.pairs.length);
        const seen = { trimmed: 0, notebook: 0, prose: 0, near: 0, again: 0 };
        const sides = new Set<string>();
        found.pairs.forEach((p, i) => {
          const c = check(facts, i, p, o);
          for (const k of Object.keys(c) as Array<keyof typeof c>) if (c[k]) seen[k]++;
          // a side (document, trimmed start, end) whose SimHash was computed for an earlier region (a
          // distance over 0: both sides' computed), again: the job's thread remembers it
          if (facts[SIDE_INTS * i + SIDE_DISTANCE] > 0) {
            for (const key of [`${p.a.doc}:${facts[SIDE_INTS * i + SIDE_A_START]}:${p.a.end}`, `${p.b.doc}:${facts[SIDE_INTS * i + SIDE_B_START]}:${p.b.end}`]) {
              if (sides.has(key)) seen.again++;
              sides.add(key);
            }
          }
        });
        for (const [k, v] of Object.entries(seen)) assert.ok(v > 0, `regions ${k} among them (${JSON.stringify(seen)})`);
      }
    });
  }

  it('leaves rows of −1 for the buckets held back and searched later (the pairs still findRegions\'), and makes none unasked', async () => {
    const o = OPTIONS[3];
    const classes = identicalClasses(docs);
    const held = (a: number, b: number) => a !== b && classes[a] >= 0 && classes[a] === classes[b];
    const found = await startRegionsOnThreads(docs, { kernel }, 2, 'identical', requestOf(o)).result();
    const all = findRegions(docs, { kernel });
    assert.deepEqual(found.pairs, all.pairs);
    assert.deepEqual(found.groups, all.groups, 'the groups of all the pairs (made here: the job\'s were of its own)');
    const none = await startRegionsOnThreads(docs, { kernel }, 2, 'identical', requestOf(o)).result(() => false);
    assert.deepEqual(none.groups, findRegions(docs, { kernel, skipPair: held }).groups, 'the job\'s groups when no held bucket is searched');
    const facts = found.sideFacts!;
    let later = 0;
    found.pairs.forEach((p, i) => {
      if (held(p.a.doc, p.b.doc)) {
        later++;
        assert.ok(facts.subarray(SIDE_INTS * i, SIDE_INTS * (i + 1)).every((x) => x === -1), `pair ${i} searched later: no sides made`);
      } else check(facts, i, p, o);
    });
    assert.ok(later > 0, 'regions of held buckets');
    assert.equal((await startRegionsOnThreads(docs, { kernel }, 2).result()).sideFacts, undefined);
  });

  it('refuses places that do not fit their documents, in the plan job\'s words', () => {
    const d = docs.findIndex((x) => x.length > 100);
    const bad = docs.map((x, i) => (i === d ? Object.assign(withAnchors(x, x.anchors!), { start: x.start.subarray(0, x.length - 1) }) : x));
    assert.throws(() => startRegionsOnThreads(bad, { kernel }, 2, undefined, requestOf(OPTIONS[0])), /^Error: regionPlanAsync: places are/);
  });
});
