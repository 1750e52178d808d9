import { strict as assert } from 'node:assert';
import { clusterPairs } from '../../../../src/core/report/clusters';
import { groupPairs } from '../../../../src/core/report/compare';
import { FILE_SKETCH_SIZE, fingerprintText, SECTION_SKETCH_SIZE } from '../../../../src/core/fingerprint/fingerprint';
import {
  buildReport,
  finishReport,
  MAX_REPORT_PAIRS,
  matchFileItems,
  matchSectionItems,
  planReport,
  type FingerprintedDocument,
  type Location,
  type Report,
  type ReportGroup,
  type ReportOptions,
  type ReportPair,
} from '../../../../src/core/report/report';
import { estimateJaccard } from '../../../../src/core/fingerprint/simhash';
import { allPairsBatch } from '../../../../src/core/index/allPairs';
import type { ItemFingerprint } from '../../../../src/core/types';
import { cloneKind } from '../../../../src/core/fingerprint/cloneHashes';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import { packItems, packOutcomes, packPairs, transferablesOf, unpackItems, unpackOutcomes, unpackPairs } from '../../../../src/node/workers/packing';
import { codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';

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

/**
 * The report as it was built before the scan's speed work (objects per pair, string keys,
 * clusterPairs), kept here as the reference that the faster paths must match exactly.
 */
function referenceReport(docs: readonly FingerprintedDocument[], options: ReportOptions): Report {
  type Pair = { a: number; b: number; distance: number; similarity: number };
  type It = { doc: number; fp: ItemFingerprint; startLine: number; endLine: number };
  const maxPairs = options.maxPairs ?? MAX_REPORT_PAIRS;
  const match = (items: ItemFingerprint[], k: number, sketchSize: number, info: { truncated: boolean }, accept?: (a: number, b: number) => boolean): Pair[] => {
    if (items.length < 2) return [];
    const fp = new Uint32Array(items.length * 2);
    items.forEach((x, i) => {
      fp[2 * i] = x.hi;
      fp[2 * i + 1] = x.lo;
    });
    const c = allPairsBatch(fp, k, {
      maxPairs,
      accept: (a, b) => (!accept || accept(a, b)) && estimateJaccard(items[a].sketch, items[b].sketch, sketchSize) >= options.minSimilarity,
    });
    if (c.truncated) info.truncated = true;
    const out: Pair[] = [];
    for (let p = 0; p < c.length; p++) out.push({ a: c.a[p], b: c.b[p], distance: c.distance[p], similarity: 1 - c.distance[p] / 64 });
    return out.sort((x, y) => x.distance - y.distance || x.a - y.a || x.b - y.b);
  };
  const loc = (it: It, kind: string): Location => (kind === 'file' ? { path: docs[it.doc].path } : { path: docs[it.doc].path, startLine: it.startLine, endLine: it.endLine });
  const toPair = (kind: 'file' | 'section', x: It, y: It, p: Pair): ReportPair => {
    let a = loc(x, kind);
    let b = loc(y, kind);
    if (a.path > b.path || (a.path === b.path && (a.startLine ?? 0) > (b.startLine ?? 0))) [a, b] = [b, a];
    return { kind, a, b, distance: p.distance, similarity: p.similarity, clone: cloneKind(x.fp, y.fp) };
  };
  const fileItems: It[] = [];
  docs.forEach((d, doc) => d.doc.file && fileItems.push({ doc, fp: d.doc.file, startLine: 0, endLine: 0 }));
  const fileInfo = { truncated: false };
  const sectionInfo = { truncated: false };
  const filePairs = match(fileItems.map((i) => i.fp), options.maxDistance, FILE_SKETCH_SIZE, fileInfo);
  const pairs: ReportPair[] = [];
  const paired = new Set<string>();
  for (const p of filePairs) {
    const a = fileItems[p.a].doc;
    const b = fileItems[p.b].doc;
    paired.add(`${Math.min(a, b)}:${Math.max(a, b)}`);
    pairs.push(toPair('file', fileItems[p.a], fileItems[p.b], p));
  }
  const groups: ReportGroup[] = clusterPairs(filePairs).map((g) => ({ kind: 'file', members: g.members.map((m) => docs[fileItems[m].doc].path), maxDistance: g.maxDistance }));
  if (options.sections) {
    const items: It[] = [];
    docs.forEach((d, doc) => d.doc.sections.forEach((s) => items.push({ doc, fp: s, startLine: s.startLine, endLine: s.endLine })));
    const accept = (x: number, y: number): boolean => {
      const a = items[x];
      const b = items[y];
      if (a.doc === b.doc) return a.endLine < b.startLine || b.endLine < a.startLine;
      return !paired.has(`${Math.min(a.doc, b.doc)}:${Math.max(a.doc, b.doc)}`);
    };
    const found = match(items.map((i) => i.fp), options.sectionMaxDistance, SECTION_SKETCH_SIZE, sectionInfo, accept);
    // Nested pairs: a pair is dropped when an accepted pair of the same two documents joins a
    // container of each of its items (by decreasing span, in order).
    const contains = (o: It, i: It) => o.doc === i.doc && o.startLine <= i.startLine && i.endLine <= o.endLine;
    const span = (p: Pair) => items[p.a].endLine - items[p.a].startLine + items[p.b].endLine - items[p.b].startLine;
    const byDocs = new Map<string, Pair[]>();
    for (const p of found) {
      const key = `${Math.min(items[p.a].doc, items[p.b].doc)}:${Math.max(items[p.a].doc, items[p.b].doc)}`;
      byDocs.set(key, [...(byDocs.get(key) ?? []), p]);
    }
    const kept = new Set<Pair>();
    for (const list of byDocs.values()) {
      const accepted: Pair[] = [];
      for (const p of [...list].sort((x, y) => span(y) - span(x))) {
        const nested = accepted.some(
          (q) =>
            (contains(items[q.a], items[p.a]) && contains(items[q.b], items[p.b])) || (contains(items[q.a], items[p.b]) && contains(items[q.b], items[p.a])),
        );
        if (!nested) {
          accepted.push(p);
          kept.add(p);
        }
      }
    }
    const sectionPairs = found.filter((p) => kept.has(p));
    for (const p of sectionPairs) pairs.push(toPair('section', items[p.a], items[p.b], p));
    for (const g of clusterPairs(sectionPairs)) {
      const locations = g.members.map((m) => loc(items[m], 'section'));
      groups.push({ kind: 'section', members: locations.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), maxDistance: g.maxDistance, locations });
    }
  }
  const report: Report = { pairs, groups };
  if (fileInfo.truncated || sectionInfo.truncated) report.truncated = { files: fileInfo.truncated, sections: sectionInfo.truncated };
  return report;
}

describe('report: buildReport and the split path against the plain reference', function () {
  this.timeout(60000);
  const options: ReportOptions = { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75, sections: true };

  it('the same reports, with and without verification, with and without sections', () => {
    for (const seed of [21, 22]) {
      const docs = corpus(seed, 120);
      for (const o of [options, { ...options, minSimilarity: 0 }, { ...options, sections: false }, { ...options, maxDistance: 3, sectionMaxDistance: 3 }]) {
        const want = referenceReport(docs, o);
        assert.deepEqual(buildReport(docs, o), want);
        assert.deepEqual(split(docs, o), want);
      }
    }
  });

  it('the same reports when a cap is reached', () => {
    const docs = corpus(23, 120);
    for (const maxPairs of [1, 20, 200]) {
      const o = { ...options, maxPairs };
      const want = referenceReport(docs, o);
      assert.ok(want.truncated);
      assert.deepEqual(buildReport(docs, o), want);
      assert.deepEqual(split(docs, o), want);
    }
  });
});

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
    assert.equal(sections.length, 0);
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
      { relPath: 'a.ts', ok: true, bytes: 1234, encoding: 'utf-8', doc: fingerprintText(codeFile(rnd, 5), 'a.ts', { minTokens: 30 }), lines: 87 },
      { relPath: 'b.bin', ok: false, reason: 'binary file (NUL bytes)' },
      { relPath: 'c.md', ok: true, bytes: 99, encoding: 'gb18030', doc: fingerprintText(proseText(rnd, 3), 'c.md', { minTokens: 30 }) },
      { relPath: 'd.md', ok: false, reason: 'deferred: CJK text needs jieba', retry: 'cjk', cjkChars: 12 },
      { relPath: 'e.ts', ok: true, bytes: 3, encoding: 'utf-8', doc: fingerprintText('x', 'e.ts'), lines: 0 },
    ];
    const packed = packOutcomes(outcomes);
    assert.equal(transferablesOf(packed).length, 3);
    const back = unpackOutcomes(structuredClone(packed), outcomes.map((o) => o.relPath));
    assert.deepEqual(back, outcomes);

    const items = outcomes.flatMap((o) => (o.ok ? [...(o.doc.file ? [o.doc.file] : []), ...o.doc.sections.map(({ startLine: _s, endLine: _e, ...item }) => item)] : []));
    assert.ok(items.length > 3);
    assert.deepEqual(unpackItems(structuredClone(packItems(items))), items);

    const list = { length: 2, a: Uint32Array.of(0, 1, 9), b: Uint32Array.of(3, 2, 9), distance: Uint8Array.of(2, 0, 9), truncated: true };
    const back2 = unpackPairs(structuredClone(packPairs(list)));
    assert.deepEqual(back2, { length: 2, a: Uint32Array.of(0, 1), b: Uint32Array.of(3, 2), distance: Uint8Array.of(2, 0), truncated: true });
    assert.deepEqual(transferablesOf({ x: 1 }), []);
  });
});
