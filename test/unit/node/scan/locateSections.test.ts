// Unit tests of src/node/scan/locateSections.ts: the scan's section pairs by their two files, and
// the regions they hold (SectionSplits.add's test) or already say (samePlace on both sides).
import { strict as assert } from 'node:assert';
import type { ReportPair } from '../../../../src/core/report/report';
import { SectionPairsByFiles } from '../../../../src/node/scan/locateSections';

const section = (a: string, a0: number, a1: number, b: string, b0: number, b1: number): ReportPair => ({
  kind: 'section',
  a: { path: a, startLine: a0, endLine: a1 },
  b: { path: b, startLine: b0, endLine: b1 },
  distance: 3,
  similarity: 0.9,
  clone: 'edited',
});
const key = (x: number, y: number) => (x <= y ? x * 0x4000000 + y : y * 0x4000000 + x);

describe('node/scan/locateSections', () => {
  const docIndex = new Map([
    ['a.ts', 0],
    ['b.ts', 1],
    ['c.ts', 2],
  ]);
  const scanPairs: ReportPair[] = [
    section('a.ts', 1, 24, 'b.ts', 177, 200),
    { kind: 'file', a: { path: 'a.ts' }, b: { path: 'c.ts' }, distance: 2, similarity: 0.95, clone: 'edited' },
    section('b.ts', 10, 20, 'a.ts', 40, 50),
    section('a.ts', 1, 24, 'gone.ts', 1, 24), // a file not searched: listed nowhere
    section('c.ts', 5, 9, 'c.ts', 30, 34), // two sections of one file
  ];
  const sections = new SectionPairsByFiles(scanPairs, docIndex, key);

  it('lists the section pairs of two files in either order, in the scan order; file pairs and files not searched are left out', () => {
    assert.deepEqual(sections.of(key(0, 1)), [0, 2]);
    assert.deepEqual(sections.of(key(1, 0)), [0, 2]);
    assert.equal(sections.of(key(0, 2)), undefined, 'a file pair is no section pair');
    assert.deepEqual(sections.of(key(2, 2)), [4]);
  });

  it('holds: a region inside a section pair on both sides (± 1 line), either order of its sides', () => {
    assert.ok(sections.holds(0, 0, 1, 5, 1, 180, 184));
    assert.ok(sections.holds(0, 1, 180, 184, 0, 1, 5), 'the region found the other way round');
    assert.ok(sections.holds(0, 0, 0, 25, 1, 176, 201), 'one line past each end');
    assert.ok(!sections.holds(0, 0, 1, 26, 1, 180, 184), 'two lines past the end of side a');
    assert.ok(!sections.holds(0, 0, 1, 5, 1, 100, 110), 'outside side b');
  });

  it('reporting: the first section pair that already says the region, with whether the region spans it; else -1', () => {
    const list = sections.of(key(0, 1))!;
    assert.equal(sections.reporting(list, 0, 1, 24, 1, 177, 200), 2 * 0 + 1, 'the same lines: said, spanned');
    assert.equal(sections.reporting(list, 0, 2, 22, 1, 179, 198), 2 * 0, 'said (80 % of the region, half of the section), not spanned');
    assert.equal(sections.reporting(list, 1, 177, 200, 0, 1, 24), 2 * 0 + 1, 'the region found the other way round');
    assert.equal(sections.reporting(list, 0, 40, 50, 1, 10, 20), 2 * 2 + 1, 'the section pair with b.ts as its side a');
    assert.equal(sections.reporting(list, 0, 1, 5, 1, 180, 184), -1, 'a region much tighter than the section is kept');
    assert.equal(sections.reporting(list, 0, 100, 120, 1, 177, 200), -1, 'side a elsewhere');
  });
});
