import { strict as assert } from 'node:assert';
import { formatJson, formatJsonPieces } from '../../../src/cli/formatJson';
import { CELL_LINE_STRIDE } from '../../../src/core/containers/cellLines';
import type { ReportGroup, ReportPair } from '../../../src/core/report/report';
import type { ScanResult } from '../../../src/node/scan/scan';

/** The report as one JSON.stringify(…, null, 2) writes it (notebook sides and members as formatJson shows them, given here). */
function oneText(result: ScanResult, root: string, pairs: unknown[], groups: unknown[]): string {
  const { files, sections, bytes, elapsedMs } = result.stats;
  const report = { version: 1, root, stats: { files, sections, bytes, elapsedMs }, pairs, groups, ...(result.truncated ? { truncated: result.truncated } : {}) };
  return JSON.stringify(report, null, 2) + '\n';
}

function filePair(i: number, path = `src/f${i}.ts`): ReportPair {
  return { kind: 'file', a: { path }, b: { path: `src/g${i}.ts` }, distance: i % 7, similarity: 1 - (i % 7) / 64, clone: i % 2 ? 'edited' : 'exact' };
}

function sectionGroup(i: number): ReportGroup {
  const locations = [0, 1, 2].map((k) => ({ path: `doc/${i}.md`, startLine: 10 * k + 1, endLine: 10 * k + 8 }));
  return { kind: 'section', members: locations.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), maxDistance: i % 11, locations };
}

function resultOf(pairs: ReportPair[], groups: ReportGroup[], paths: string[] = []): ScanResult {
  return {
    root: '/w',
    stats: { files: 3, sections: 9, bytes: 1234, elapsedMs: 56, skipped: 0 },
    documents: paths.map((path) => ({ path, doc: { kind: 'code', file: null, sections: [] } })),
    pairs,
    groups,
  };
}

describe('formatJson: the report in pieces', () => {
  for (const count of [0, 1, 299, 300, 301, 1000]) {
    it(`joins to JSON.stringify's text with ${count} pairs and groups (and pieces stay small)`, () => {
      const pairs = Array.from({ length: count }, (_, i) => filePair(i));
      const groups = Array.from({ length: count }, (_, i) => sectionGroup(i));
      const result = resultOf(pairs, groups);
      const want = oneText(result, 'the root', pairs, groups.map((g) => ({ kind: g.kind, members: g.members, maxDistance: g.maxDistance })));
      const pieces = [...formatJsonPieces(result, 'the root')];
      assert.equal(pieces.join(''), want);
      assert.equal(formatJson(result, 'the root'), want);
      assert.ok(pieces.every((p) => p.length < 200_000), 'no piece holds the whole report');
      if (count >= 1000) assert.ok(pieces.length > 4);
    });
  }

  it('with `truncated` and a baseline, located pairs with regions, notebook cells and names to escape', () => {
    const cell = (c: number, line: number) => c * CELL_LINE_STRIDE + line;
    const odd = 'src/\u202eevil\u0085.ts';
    const pairs: ReportPair[] = [
      { ...filePair(1, odd), located: true, regions: [{ a: { startLine: 1, endLine: 9 }, b: { startLine: 3, endLine: 11 }, clone: 'renamed', similarity: 0.75 }] },
      { kind: 'section', a: { path: 'n.ipynb', startLine: cell(2, 1), endLine: cell(2, 5) }, b: { path: 'm.py', startLine: 4, endLine: 8 }, distance: 3, similarity: 1 - 3 / 64, clone: 'edited' },
      ...Array.from({ length: 400 }, (_, i) => filePair(i)),
    ];
    const groups: ReportGroup[] = [
      { kind: 'file', members: [odd, 'src/g1.ts'], maxDistance: 1, located: true },
      { kind: 'section', members: ['n.ipynb:x', 'm.py:4-8'], maxDistance: 3, locations: [pairs[1].a, pairs[1].b] },
    ];
    const result = { ...resultOf(pairs, groups, [odd, 'n.ipynb']), truncated: { files: true, sections: false } };
    const text = [...formatJsonPieces(result, '/w', { file: 'base.json', matched: 2, new: 402 })].join('');
    assert.equal(text, formatJson(result, '/w', { file: 'base.json', matched: 2, new: 402 }));
    assert.ok(!/[\u0085\u202e]/.test(text), 'controls escaped');
    assert.ok(text.includes('\\u202eevil\\u0085'));
    const j = JSON.parse(text);
    assert.deepEqual(Object.keys(j), ['version', 'root', 'stats', 'baseline', 'pairs', 'groups', 'truncated']);
    assert.deepEqual(j.baseline, { file: 'base.json', matched: 2, new: 402 });
    assert.equal(j.pairs.length, 402);
    assert.equal(j.pairs[0].a.path, odd);
    assert.deepEqual(j.pairs[0].regions, pairs[0].regions);
    assert.deepEqual(j.pairs[1].a, { path: 'n.ipynb', startLine: 1, endLine: 5, cell: 2 });
    assert.deepEqual(j.groups[0], { kind: 'file', members: [odd, 'src/g1.ts'], maxDistance: 1, located: true });
    assert.deepEqual(j.groups[1].members, ['n.ipynb:cell2:1-5', 'm.py:4-8']);
    // The whole text, as one JSON.stringify of the report writes it and then escapes it.
    const shown = j.pairs.map((p: unknown) => p);
    const want = oneText(result, '/w', shown, j.groups).replace('\n  "pairs"', '\n  "baseline": {\n    "file": "base.json",\n    "matched": 2,\n    "new": 402\n  },\n  "pairs"');
    assert.equal(text, want.replace(/[\u0085\u202e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  });
});
