// Unit tests of src/node/locate/locateLines.ts: the located sides' content keys (LocatedSides).
// (samePlace and splitsSection: test/unit/node/regions/regionPlaces.test.ts.)
import { strict as assert } from 'node:assert';
import { regionDocument } from '../../../../src/core/regions/document';
import { contentKey } from '../../../../src/node/regions/regionSides';
import { LocatedSides } from '../../../../src/node/locate/locateLines';
import { sideKey } from '../../../../src/node/regions/regionPlaces';

describe('node/locate/locateLines', () => {
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

  it('LocatedSides: the same keys whatever its capacity (none, fewer sides than added, more), workers\' keys among them', () => {
    const text = Array.from({ length: 60 }, (_, i) => `const v${i} = compute(${i}, "x${i}");`).join('\n');
    const d = regionDocument(text, 'a.ts');
    const at = (startLine: number) => ({ path: 'a.ts', startLine, endLine: startLine + 2 });
    // 40 sides: every fifth a worker's key, every seventh at the lines of the one before (its key stays the first's)
    const added = Array.from({ length: 40 }, (_, i) => ({ line: i % 7 === 6 ? i : i + 1, start: 3 * i, end: 3 * i + 40, key: i % 5 === 0 ? `worker:${i}` : undefined }));
    const keysWith = (capacity?: number) => {
      const sides = new LocatedSides(capacity);
      for (const a of added) sides.add(at(a.line), d, a.start, a.end, a.key);
      return Array.from({ length: 42 }, (_, l) => sides.get(sideKey(at(l))));
    };
    const expected = keysWith();
    assert.ok(expected.filter((k) => k?.startsWith('worker:')).length >= 7 && expected.filter((k) => k !== undefined && !k.startsWith('worker:')).length >= 25, 'both kinds of key met');
    assert.equal(expected[0], undefined, 'no side at line 0');
    assert.equal(expected[1], 'worker:0');
    assert.equal(expected[2], contentKey(d, 3, 43));
    for (const capacity of [0, 3, 8, 40, 100]) assert.deepEqual(keysWith(capacity), expected, `capacity ${capacity}`);
  });
});
