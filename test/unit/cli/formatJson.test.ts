import { strict as assert } from 'node:assert';
import { formatJson, formatJsonPieces } from '../../../src/cli/formatJson';
import { CELL_LINE_STRIDE } from '../../../src/core/containers/cellLines';
import type { ReportGroup, ReportPair } from '../../../src/core/report/report';
import type { ScanResult } from '../../../src/node/scan/scan';
import { pairsBytes, pairsText } from '../../../src/core/report/pairsJson';
import { scanLikePairs } from '../helpers/reportPairs';

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

  describe('with the text of the scan\'s own pairs made elsewhere (pairTexts, --locate)', () => {
    const own = scanLikePairs(1000);
    const made = { pairs: own, ...pairsBytes(pairsText(own)) };
    const regions = [{ a: { startLine: 1, endLine: 9 }, b: { startLine: 3, endLine: 11 }, clone: 'renamed' as const, similarity: 0.75 }];
    const located: ReportPair[] = Array.from({ length: 350 }, (_, i) => ({
      kind: 'section',
      a: { path: i % 2 ? 'n.ipynb' : `src/\u2028l${i}.ts`, startLine: i % 2 ? 2 * CELL_LINE_STRIDE + 1 : 1, endLine: i % 2 ? 2 * CELL_LINE_STRIDE + 5 : 9 },
      b: { path: `src/m${i}.ts`, startLine: 4, endLine: 8 },
      distance: 2,
      similarity: 0.5,
      clone: 'edited',
      located: true,
    }));
    /** The report with and without the texts made elsewhere: the same text, in small pieces. */
    const same = (pairs: ReportPair[], root = '/w', baseline?: { file: string; matched: number; new: number }, truncated = false) => {
      const groups = [sectionGroup(1), sectionGroup(2)];
      const plain = { ...resultOf(pairs, groups, ['src/\u202eodd\u00851.ts']), ...(truncated ? { truncated: { files: false, sections: true } } : {}) };
      const pieces = [...formatJsonPieces({ ...plain, pairTexts: made }, root, baseline)];
      assert.equal(Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString(), formatJson(plain, root, baseline));
      assert.equal(formatJson({ ...plain, pairTexts: made }, root, baseline), formatJson(plain, root, baseline));
      // each pair's number in made given for these very pairs (withLocated), or for others (then by identity)
      const at = Int32Array.from(pairs, (p) => own.indexOf(p));
      assert.equal(formatJson({ ...plain, pairTexts: { ...made, shown: { pairs, at } } }, root, baseline), formatJson(plain, root, baseline));
      assert.equal(formatJson({ ...plain, pairTexts: { ...made, shown: { pairs: [...pairs], at: at.fill(0) } } }, root, baseline), formatJson(plain, root, baseline));
      assert.ok(pieces.every((p) => p.length < 200_000), 'no piece holds the whole report');
      return pieces;
    };

    it('takes every own pair\'s text from it, in runs, the located pairs after them', () => {
      const pieces = same([...own, ...located]);
      assert.ok(pieces.length < 20, `${pieces.length} pieces`);
    });

    it('writes the text made of the very pair object it was made of, and of no other', () => {
      // (marked: the same length, so each pair's end is where it was)
      const text0 = pairsText(own);
      const marked = { pairs: own, ...pairsBytes({ ...text0, text: text0.text.replace(/"distance"/g, '"DISTANCE"') }) };
      const kept = own.filter((_, i) => i % 3 !== 0).map((p, i) => (i % 5 === 0 ? { ...p } : p));
      const utf8 = new TextDecoder();
      const pairs = [...kept, ...located];
      const fromMade = kept.filter((p) => own.includes(p)).length;
      for (const shown of [undefined, { pairs, at: Int32Array.from(pairs, (p) => own.indexOf(p)) }]) {
        const text = [...formatJsonPieces({ ...resultOf(pairs, []), pairTexts: { ...marked, shown } }, '/w')].map((p) => (typeof p === 'string' ? p : utf8.decode(p))).join('');
        assert.equal(text.split('"DISTANCE"').length - 1, fromMade);
        assert.equal(text.split('"distance"').length - 1, kept.length - fromMade + located.length);
      }
    });

    it('leaves out the pairs the located copies replaced, and writes those made anew (clone kinds, regions) here', () => {
      const kept = own.flatMap((p, i) => (i % 7 === 3 ? [] : i % 11 === 5 ? [{ ...p, clone: 'exact' as const }] : i % 13 === 0 && p.kind === 'file' ? [{ ...p, regions }] : [p]));
      same([...kept, ...located]);
      same(kept.slice(0, 1)); // one pair
      same(kept.slice(1, 2));
    });

    it('holds for pairs in another order or cut (a baseline, --changed-since), an escaped root, `truncated`, no pairs', () => {
      same([...own].reverse(), '/w\u009b', { file: 'base\u202e.json', matched: 3, new: 997 }, true);
      same(own.filter((_, i) => i % 2 === 0 || i > 600), '/w', { file: 'b.json', matched: 200, new: 800 });
      same([...located.slice(0, 3), ...own.slice(0, 500), ...located.slice(3)]);
      same([]);
      same(located);
    });
  });
});
