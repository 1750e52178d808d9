// Unit tests of src/node/scan/locateLines.ts: when a SimHash section pair already says a located
// region (samePlace), when located regions split a section pair into separate copies
// (splitsSection), and the located sides' content keys (LocatedSides).
import { strict as assert } from 'node:assert';
import { regionDocument } from '../../../../src/core/regions/document';
import { contentKey } from '../../../../src/node/regions/regionSides';
import { LocatedSides, samePlace, sideKey, splitsSection } from '../../../../src/node/scan/locateLines';

const L = (startLine: number, endLine: number) => ({ startLine, endLine });

describe('node/scan/locateLines', () => {
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

  it('LocatedSides: the content key of the first side added at a place, made when asked for; a worker\'s key as given', () => {
    const text = Array.from({ length: 30 }, (_, i) => `const v${i} = compute(${i}, "x${i}");`).join('\n');
    const d = regionDocument(text, 'a.ts');
    const B = regionDocument(text.replace(/v/g, 'w'), 'b.ts');
    const sides = new LocatedSides();
    const at = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine });
    sides.add(at('a.ts', 1, 3), d, 0, 30);
    sides.add(at('a.ts', 1, 3), d, 1, 30); // the same lines again: the first side's key stays
    sides.add(at('b.ts', 2, 4), B, 10, 40, 'region:30:made-by-a-worker');
    assert.equal(sides.get(sideKey(at('a.ts', 1, 3))), contentKey(d, 0, 30));
    assert.notEqual(contentKey(d, 0, 30), contentKey(d, 1, 30));
    assert.equal(sides.get(sideKey(at('b.ts', 2, 4))), 'region:30:made-by-a-worker');
    assert.equal(sides.get(sideKey(at('a.ts', 1, 4))), undefined, 'no side at those lines');
    // A side added after a first look-up is found too.
    sides.add(at('b.ts', 9, 9), B, 50, 60);
    assert.equal(sides.get(sideKey(at('b.ts', 9, 9))), contentKey(B, 50, 60));
  });
});
