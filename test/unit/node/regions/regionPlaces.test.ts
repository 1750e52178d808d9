// Unit tests of src/node/regions/regionPlaces.ts (the CLI's and the engine's rule): when a SimHash section pair already says a located
// region (samePlace), and when located regions split a section pair into separate copies
// (splitsSection), gathered region by region (SectionSplits).
import { strict as assert } from 'node:assert';
import { samePlace, SectionSplits, splitsSection } from '../../../../src/node/regions/regionPlaces';

const L = (startLine: number, endLine: number) => ({ startLine, endLine });

describe('node/regions/regionPlaces', () => {
  it('samePlace: the section holds 80 % of the region and the region half of the section', () => {
    assert.ok(samePlace(L(1, 24), L(1, 22)));
    assert.ok(!samePlace(L(1, 24), L(1, 5)), 'a region much tighter than its section is not said by it');
    assert.ok(!samePlace(L(10, 20), L(1, 15)), 'a region the section holds only part of');
  });

  it('splitsSection: two copies next to each other inside one section pair (seed 1 of the planted-copy bench)', () => {
    // problem.md 1-24 ~ npm-publish.md 177-200: a pasted paragraph run (1-5 ~ 180-184) and the
    // workspaces paragraphs both files hold (10-22 ~ 186-198).
    const section = { a: L(1, 24), b: L(177, 200) };
    const regions = [
      { a: L(1, 5), b: L(180, 184) },
      { a: L(10, 22), b: L(186, 198) },
    ];
    assert.ok(splitsSection(section, regions));
    // One region, however tight, does not split it (it is kept beside it, or said by it).
    assert.ok(!splitsSection(section, [regions[0]]));
    assert.ok(!splitsSection(section, [{ a: L(1, 22), b: L(180, 198) }]));
  });

  it('splitsSection: the regions must lie inside the section (± 1 line) and hold half of its lines on both sides', () => {
    const section = { a: L(1, 40), b: L(101, 140) };
    // Two small copies inside: 10 of 40 lines on each side, the rest of the sections alike to SimHash only.
    assert.ok(!splitsSection(section, [{ a: L(1, 5), b: L(101, 105) }, { a: L(30, 34), b: L(130, 134) }]));
    // Half of the lines on side a, not on side b (the same lines of b twice).
    assert.ok(!splitsSection(section, [{ a: L(1, 10), b: L(101, 110) }, { a: L(21, 30), b: L(101, 110) }]));
    assert.ok(splitsSection(section, [{ a: L(1, 10), b: L(101, 110) }, { a: L(21, 30), b: L(121, 130) }]));
    // A region reaching beyond the section by more than a line is not inside it.
    assert.ok(!splitsSection(section, [{ a: L(1, 20), b: L(101, 120) }, { a: L(21, 43), b: L(121, 143) }]));
    assert.ok(splitsSection(section, [{ a: L(1, 20), b: L(101, 120) }, { a: L(21, 41), b: L(121, 141) }]));
    // Regions in the section pair's order only: swapped sides are not inside.
    assert.ok(!splitsSection(section, [{ a: L(101, 110), b: L(1, 10) }, { a: L(121, 130), b: L(21, 30) }]));
  });

  it('SectionSplits: the regions of either order beside section pairs of the same files, each section pair split or not by those inside it', () => {
    const P = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine });
    const sections = [
      { a: P('x', 1, 40), b: P('y', 101, 140) },
      { a: P('y', 201, 240), b: P('x', 301, 340) }, // the other order of the two files
      { a: P('x', 1, 40), b: P('y', 101, 140) }, // one region inside only
    ];
    const splits = new SectionSplits<string>();
    const regions = [
      [P('x', 1, 10), P('y', 101, 110)],
      [P('x', 21, 30), P('y', 121, 130)],
      [P('y', 201, 220), P('x', 301, 320)],
      [P('x', 322, 341), P('y', 222, 241)], // swapped sides of the second section pair, inside ± 1 line
      [P('x', 50, 60), P('y', 150, 160)], // outside every section
    ];
    for (const [a, b] of regions) {
      splits.add('first', sections[0], a, b);
      splits.add('second', sections[1], a, b);
    }
    splits.add('third', sections[2], regions[0][0], regions[0][1]);
    splits.add('third', sections[2], regions[4][0], regions[4][1]);
    assert.deepEqual([...splits.split()].sort(), ['first', 'second']);
    // The same as splitsSection over every region of the two files, in the section pair's order.
    const ordered = (s: (typeof sections)[number]) => regions.map(([a, b]) => (a.path === s.a.path ? { a, b } : { a: b, b: a }));
    assert.deepEqual(sections.map((s, i) => (i < 2 ? splitsSection(s, ordered(s)) : splitsSection(s, [ordered(s)[0], ordered(s)[4]]))), [true, true, false]);
  });
});
