// Unit tests of src/node/locate/locateGroups.ts: the section groups of --locate from the region
// finder's groups and the pairs the report keeps.
import { strict as assert } from 'node:assert';
import { regionDocument } from '../../../../src/core/regions/document';
import { groupRegions } from '../../../../src/core/regions/groups';
import { groupRowsOf, rowsOfPairs } from '../../../../src/node/regions/regionRows';
import type { RegionPair } from '../../../../src/core/regions/regions';
import type { ReportPair } from '../../../../src/core/report/report';
import { linesOf } from '../../../../src/node/regions/regionSides';
import { locatedSectionGroups } from '../../../../src/node/locate/locateGroups';

describe('node/locate/locateGroups', () => {
  // Three documents of 60 lines, one token range per line block.
  const text = (p: string) => Array.from({ length: 60 }, (_, i) => `const ${p}${i} = compute(${i}, "${p}");`).join('\n');
  const docs = ['a.ts', 'b.ts', 'c.ts'].map((path, i) => ({ path, region: regionDocument(text('abc'[i]), path) }));
  const perLine = docs[0].region.length / 60;
  const range = (doc: number, fromLine: number, toLine: number) => ({ doc, start: Math.round((fromLine - 1) * perLine), end: Math.round(toLine * perLine) });
  const pair = (a: ReturnType<typeof range>, b: ReturnType<typeof range>): RegionPair => ({ a, b, similarity: 1, clone: 'exact' }) as RegionPair;
  const report = (distance: number) => ({ distance }) as ReportPair;
  /** The section groups of region pairs `found` (their rows, their groups flat: what the report reads). */
  const sectionGroups = (found: RegionPair[], kept: ReadonlyArray<ReportPair | null>) => locatedSectionGroups(groupRowsOf(groupRegions(found)), rowsOfPairs(found), kept, docs);
  const where = (doc: number, r: ReturnType<typeof range>) => {
    const l = linesOf(docs[doc].region, r.start, r.end);
    return `${docs[doc].path}:${l.startLine}-${l.endLine}`;
  };

  it('a block pasted in three files: one group of three places, the largest distance of the pairs kept', () => {
    const found = [pair(range(0, 1, 10), range(1, 20, 29)), pair(range(0, 1, 10), range(2, 40, 49)), pair(range(1, 20, 29), range(2, 40, 49))];
    const groups = sectionGroups(found, [report(2), report(5), report(3)]);
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0].members, [where(0, range(0, 1, 10)), where(1, range(1, 20, 29)), where(2, range(2, 40, 49))]);
    assert.equal(groups[0].maxDistance, 5);
    assert.deepEqual(groups[0].locations?.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), groups[0].members);
    assert.equal(groups[0].located, true);
  });

  it('only the pairs kept link places: a dropped pair splits a group, a place linked by none is left out', () => {
    const found = [pair(range(0, 1, 10), range(1, 20, 29)), pair(range(1, 20, 29), range(2, 40, 49)), pair(range(0, 30, 39), range(2, 1, 10))];
    const kept = [report(4), null, report(1)];
    const groups = sectionGroups(found, kept);
    assert.deepEqual(
      groups.map((g) => [g.members, g.maxDistance]),
      [
        [[where(0, range(0, 1, 10)), where(1, range(1, 20, 29))], 4],
        [[where(0, range(0, 30, 39)), where(2, range(2, 1, 10))], 1],
      ],
    );
    assert.deepEqual(sectionGroups(found, [null, null, null]), [], 'no pair kept: no group');
  });

  it('a place that is the very range of a kept pair\'s side has that side\'s lines; a place wider than its sides has its own', () => {
    // Place 0 of a.ts is two overlapping sides (lines 1-10 and 3-12: one place, 1-12); b.ts's and c.ts's are one side each.
    const found = [pair(range(0, 1, 10), range(1, 20, 29)), pair(range(0, 3, 12), range(2, 40, 49))];
    const sideLines = (doc: number, r: ReturnType<typeof range>) => ({ path: docs[doc].path, ...linesOf(docs[doc].region, r.start, r.end) });
    const kept = found.map((p, i) => ({ distance: i + 1, a: sideLines(p.a.doc, p.a), b: sideLines(p.b.doc, p.b) }) as ReportPair);
    const groups = sectionGroups(found, kept);
    const expected = [`a.ts:${linesOf(docs[0].region, range(0, 1, 12).start, range(0, 3, 12).end).startLine}-12`, where(1, range(1, 20, 29)), where(2, range(2, 40, 49))];
    assert.deepEqual(groups.map((g) => g.members), [expected]);
    assert.deepEqual(sectionGroups(found, found.map((_, i) => report(i + 1))), groups, 'the same lines made here');
    // The kept pair's lines are taken as they are (the report made them of the same trimmed range).
    const marked = kept.map((p) => ({ ...p, b: { ...p.b, startLine: 1000 + p.b.startLine! } }));
    assert.deepEqual(sectionGroups(found, marked)[0].members, [expected[0], 'b.ts:1020-29', 'c.ts:1040-49']);
    const wider = kept.map((p) => ({ ...p, a: { ...p.a, startLine: 1000 } }));
    assert.deepEqual(sectionGroups(found, wider)[0].members, expected, 'a.ts\'s place is wider than either side: its own lines');
  });
});
