import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { ReportPair } from '../../../../src/core/report/report';
import { MAX_OVERVIEW_FILES, type ViewGroup, type ViewItem } from '../../../../src/node/engine/engineProtocol';
import { buildOverview, duplicatedLines, itemsOfPath } from '../../../../src/node/engine/reportView';

const twin = { path: '/w/b.ts', distance: 1, similarity: 0.98 };
const section = (startLine: number, endLine: number): ViewItem => ({ kind: 'section', loc: { path: '/w/a.ts', startLine, endLine }, twins: [twin], moreTwins: 0 });
const file: ViewItem = { kind: 'file', loc: { path: '/w/a.ts' }, twins: [twin], moreTwins: 0 };

describe('report view: lines in near duplicates', () => {
  it('a file item counts every line; sections count the union of their ranges', () => {
    assert.equal(duplicatedLines([file, section(3, 9)], 120), 120);
    assert.equal(duplicatedLines([section(11, 40)], 70), 30);
    // Overlapping and nested ranges count once; touching ranges join.
    assert.equal(duplicatedLines([section(20, 30), section(10, 25), section(12, 14), section(31, 31)], 100), 22);
    assert.equal(duplicatedLines([], 10), 0);
  });

  it('lines not known: sections still count, a file item does not', () => {
    assert.equal(duplicatedLines([section(5, 9)], undefined), 5);
    assert.equal(duplicatedLines([file], undefined), 0);
  });
});

describe('report view: the Overview', () => {
  const root = path.join(path.sep, 'w');
  const at = (...parts: string[]) => path.join(root, ...parts);
  const files = [
    { path: at('src', 'a.ts'), lines: 100, duplicated: 100 },
    { path: at('src', 'b.ts'), lines: 50, duplicated: 10 },
    { path: at('src', 'deep', 'c.ts'), lines: 30, duplicated: 0 },
    { path: at('README.md'), lines: 20, duplicated: 0 },
  ];
  const pairs: ReportPair[] = [
    { kind: 'file', a: { path: at('src', 'a.ts') }, b: { path: at('lib', 'a.ts') }, distance: 2, similarity: 0.97, clone: 'edited' },
    { kind: 'section', a: { path: at('src', 'b.ts'), startLine: 1, endLine: 10 }, b: { path: at('src', 'a.ts'), startLine: 5, endLine: 14 }, distance: 0, similarity: 1, clone: 'edited' },
    { kind: 'section', a: { path: at('src', 'b.ts'), startLine: 20, endLine: 29 }, b: { path: at('src', 'a.ts'), startLine: 40, endLine: 49 }, distance: 0, similarity: 1, clone: 'edited' },
  ];
  const groups: ViewGroup[] = [
    { kind: 'section', key: 's', maxDistance: 0, members: [{ path: at('src', 'b.ts'), startLine: 1, endLine: 10, distance: 0, similarity: 1 }, { path: at('src', 'a.ts'), startLine: 5, endLine: 14, distance: 0, similarity: 1 }] },
    { kind: 'file', key: 'f', maxDistance: 2, members: [{ path: at('src', 'a.ts'), distance: 0, similarity: 1 }, { path: at('src', 'b.ts'), distance: 2, similarity: 0.97 }] },
  ];
  const thresholds = { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 };
  const linesOf = (p: string) => files.find((f) => f.path === p)?.lines;

  it('folders sum their files; children largest first; distances by kind; largest groups first', () => {
    const o = buildOverview(files, [root], pairs, groups, linesOf, thresholds);
    assert.equal(o.roots.length, 1);
    const r = o.roots[0];
    assert.deepEqual([r.lines, r.duplicated], [200, 110]);
    assert.deepEqual(r.children!.map((c) => [c.name, c.lines, c.duplicated, !!c.children]), [['src', 180, 110, true], ['README.md', 20, 0, false]]);
    const src = r.children![0];
    assert.deepEqual(src.children!.map((c) => [c.name, c.lines]), [['a.ts', 100], ['b.ts', 50], ['deep', 30]]);
    assert.equal(o.distances.file[2], 1);
    assert.equal(o.distances.section[0], 2);
    assert.equal(o.distances.file.reduce((a, b) => a + b, 0) + o.distances.section.reduce((a, b) => a + b, 0), 3);
    // The file group (100 + 50 lines) before the section group (10 + 10).
    assert.deepEqual(o.groups.map((g) => [g.kind, g.copies, g.lines]), [['file', 2, 150], ['section', 2, 20]]);
    assert.equal(o.files, 4);
    assert.equal(o.filesDrawn, true);
  });

  it(`more than ${MAX_OVERVIEW_FILES} files: folders only, with the same sums`, () => {
    const many = Array.from({ length: MAX_OVERVIEW_FILES + 1 }, (_, i) => ({ path: at(i % 2 ? 'x' : 'y', `f${i}.ts`), lines: 2, duplicated: i % 3 === 0 ? 2 : 0 }));
    const o = buildOverview(many, [root], [], [], () => 2, thresholds);
    assert.equal(o.filesDrawn, false);
    const r = o.roots[0];
    assert.equal(r.lines, 2 * many.length);
    assert.equal(r.duplicated, many.filter((f) => f.duplicated).length * 2);
    assert.ok(r.children!.every((c) => c.children && c.children.length === 0), 'no file leaves');
  });
});

describe('report view: a file\'s items', () => {
  it('two items that begin on the same line come by their end line, whatever the order of the pairs', () => {
    const pair = (startLine: number, endLine: number, other: number): ReportPair => ({
      kind: 'section',
      a: { path: 'f.ts', startLine, endLine },
      b: { path: 'g.ts', startLine: other, endLine: other + 9 },
      distance: 3,
      similarity: 0.9,
      clone: 'edited',
    });
    const pairs = [pair(125, 135, 220), pair(125, 134, 202), pair(10, 20, 40)];
    const ranges = (items: ViewItem[]) => items.map((i) => `${i.loc.startLine}-${i.loc.endLine}`);
    assert.deepEqual(ranges(itemsOfPath('f.ts', pairs)), ['10-20', '125-134', '125-135']);
    assert.deepEqual(ranges(itemsOfPath('f.ts', [...pairs].reverse())), ['10-20', '125-134', '125-135']);
  });
});
