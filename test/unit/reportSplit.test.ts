import { strict as assert } from 'node:assert';
import { clusterPairs } from '../../src/core/clusters';
import { groupPairs } from '../../src/core/compare';
import { fingerprintText } from '../../src/core/fingerprint';
import { buildReport, finishReport, matchFileItems, matchSectionItems, planReport, type FingerprintedDocument, type ReportOptions } from '../../src/core/report';
import type { FileOutcome } from '../../src/node/messages';
import { packItems, packOutcomes, packPairs, transferablesOf, unpackItems, unpackOutcomes, unpackPairs } from '../../src/node/packing';
import { codeFile, editLines, mulberry32, proseText } from './helpers/corpus';

/** A corpus with twins, copies, edited copies and shared functions. */
function corpus(seed: number, files: number): FingerprintedDocument[] {
  const rnd = mulberry32(seed);
  const texts: Array<[string, string]> = [];
  const pool: string[] = [];
  for (let i = 0; i < files; i++) {
    const r = rnd();
    let text: string;
    if (pool.length > 0 && r < 0.15) text = pool[Math.floor(rnd() * pool.length)]; // an exact copy
    else if (pool.length > 0 && r < 0.35) text = editLines(pool[Math.floor(rnd() * pool.length)], rnd, 0.05); // a near copy
    else if (pool.length > 0 && r < 0.5) text = pool[Math.floor(rnd() * pool.length)].split('\n').slice(0, 30).join('\n') + '\n' + codeFile(rnd, 3); // shares a part
    else text = r < 0.9 ? codeFile(rnd, 2 + Math.floor(rnd() * 6)) : proseText(rnd, 4);
    pool.push(text);
    texts.push([`d${String(Math.floor(rnd() * 5))}/f${String(i).padStart(4, '0')}.${r < 0.9 ? 'ts' : 'md'}`, text]);
  }
  texts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return texts.map(([path, text]) => ({ path, doc: fingerprintText(text, path, { minTokens: 30 }) }));
}

function split(docs: FingerprintedDocument[], options: ReportOptions) {
  const plan = planReport(docs);
  return finishReport(plan, options, matchFileItems(plan, options), matchSectionItems(plan, options, null));
}

describe('report: files and sections matched apart (as the scan does on two threads)', function () {
  this.timeout(60000);
  const options: ReportOptions = { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75, sections: true };

  it('gives the same report as buildReport', () => {
    for (const seed of [1, 2, 3]) {
      const docs = corpus(seed, 150);
      const want = buildReport(docs, options);
      assert.ok(want.pairs.some((p) => p.kind === 'file') && want.pairs.some((p) => p.kind === 'section'), 'the corpus has both kinds');
      assert.deepEqual(split(docs, options), want);
      const loose = { ...options, minSimilarity: 0 };
      assert.deepEqual(split(docs, loose), buildReport(docs, loose));
    }
  });

  it('gives the same report as buildReport when a cap is reached (of sections, of files)', () => {
    const docs = corpus(7, 150);
    const full = buildReport(docs, options);
    const sections = full.pairs.filter((p) => p.kind === 'section').length;
    const files = full.pairs.filter((p) => p.kind === 'file').length;
    for (const maxPairs of [Math.max(1, Math.floor(sections / 2)), Math.max(1, Math.floor(files / 2)), 1]) {
      const capped = { ...options, maxPairs };
      const want = buildReport(docs, capped);
      assert.ok(want.truncated, `capped at ${maxPairs}`);
      assert.deepEqual(split(docs, capped), want);
    }
  });

  it('leaves out the sections of copies while matching (they would fill the cap)', () => {
    const rnd = mulberry32(5);
    const text = codeFile(rnd, 6);
    const docs: FingerprintedDocument[] = [];
    for (let i = 0; i < 60; i++) docs.push({ path: `copy${String(i).padStart(2, '0')}.ts`, doc: fingerprintText(text, 'a.ts', { minTokens: 30 }) });
    const plan = planReport(docs);
    assert.ok(plan.sectionItems.length >= 60 * 3);
    const sections = matchSectionItems(plan, options, null);
    assert.equal(sections.pairs.length, 0);
    const capped = { ...options, maxPairs: 2000 };
    assert.deepEqual(split(docs, capped), buildReport(docs, capped));
  });
});

describe('groupPairs', () => {
  it('gives the groups of clusterPairs, in the same order', () => {
    const rnd = mulberry32(9);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rnd() * 60);
      const pairs = Array.from({ length: Math.floor(rnd() * 80) }, () => {
        const a = Math.floor(rnd() * n);
        const b = rnd() < 0.05 ? a : Math.floor(rnd() * n);
        return { a: Math.min(a, b), b: Math.max(a, b), distance: Math.floor(rnd() * 13) };
      });
      assert.deepEqual(groupPairs(pairs), clusterPairs(pairs));
    }
    const sparse = [{ a: 3, b: 1e9, distance: 2 }, { a: 1e9, b: 7, distance: 1 }];
    assert.deepEqual(groupPairs(sparse), clusterPairs(sparse));
  });
});

describe('packing', () => {
  it('outcomes, items and pairs come back as they went', () => {
    const rnd = mulberry32(11);
    const outcomes: FileOutcome[] = [
      { relPath: 'a.ts', ok: true, bytes: 1234, encoding: 'utf-8', doc: fingerprintText(codeFile(rnd, 5), 'a.ts', { minTokens: 30 }) },
      { relPath: 'b.bin', ok: false, reason: 'binary file (NUL bytes)' },
      { relPath: 'c.md', ok: true, bytes: 99, encoding: 'gb18030', doc: fingerprintText(proseText(rnd, 3), 'c.md', { minTokens: 30 }) },
      { relPath: 'd.md', ok: false, reason: 'deferred: CJK text needs jieba', retry: 'cjk' },
      { relPath: 'e.ts', ok: true, bytes: 3, encoding: 'utf-8', doc: fingerprintText('x', 'e.ts') },
    ];
    const packed = packOutcomes(outcomes);
    assert.equal(transferablesOf(packed).length, 3);
    const back = unpackOutcomes(structuredClone(packed), outcomes.map((o) => o.relPath));
    assert.deepEqual(back, outcomes);

    const items = outcomes.flatMap((o) => (o.ok ? [...(o.doc.file ? [o.doc.file] : []), ...o.doc.sections.map(({ hi, lo, tokens, features, sketch }) => ({ hi, lo, tokens, features, sketch }))] : []));
    assert.ok(items.length > 3);
    assert.deepEqual(unpackItems(structuredClone(packItems(items))), items);

    const pairs = [
      { a: 0, b: 3, distance: 2, similarity: 1 - 2 / 64, jaccard: 0.8125 },
      { a: 1, b: 2, distance: 0, similarity: 1, jaccard: 1 },
    ];
    assert.deepEqual(unpackPairs(structuredClone(packPairs(pairs, true))), { pairs, truncated: true });
    assert.deepEqual(transferablesOf({ x: 1 }), []);
  });
});
