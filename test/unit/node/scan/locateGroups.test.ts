// Unit tests of src/node/scan/locateGroups.ts: the section groups of --locate from the region
// finder's groups and the pairs the report keeps.
import { strict as assert } from 'node:assert';
import { regionDocument } from '../../../../src/core/regions/document';
import { groupRegions } from '../../../../src/core/regions/groups';
import type { RegionPair } from '../../../../src/core/regions/regions';
import type { ReportPair } from '../../../../src/core/report/report';
import { linesOf } from '../../../../src/node/regions/regionSides';
import { locatedSectionGroups } from '../../../../src/node/scan/locateGroups';

describe('node/scan/locateGroups', () => {
  // Three documents of 60 lines, one token range per line block.
  const text = (p: string) => Array.from({ length: 60 }, (_, i) => `const ${p}${i} = compute(${i}, "${p}");`).join('\n');
  const docs = ['a.ts', 'b.ts', 'c.ts'].map((path, i) => ({ path, region: regionDocument(text('abc'[i]), path) }));
  const perLine = docs[0].region.length / 60;
  const range = (doc: number, fromLine: number, toLine: number) => ({ doc, start: Math.round((fromLine - 1) * perLine), end: Math.round(toLine * perLine) });
  const pair = (a: ReturnType<typeof range>, b: ReturnType<typeof range>): RegionPair => ({ a, b, similarity: 1, clone: 'exact' }) as RegionPair;
  const report = (distance: number) => ({ distance }) as ReportPair;
  const where = (doc: number, r: ReturnType<typeof range>) => {
    const l = linesOf(docs[doc].region, r.start, r.end);
    return `${docs[doc].path}:${l.startLine}-${l.endLine}`;
  };

  it('a block pasted in three files: one group of three places, the largest distance of the pairs kept', () => {
    const found = [pair(range(0, 1, 10), range(1, 20, 29)), pair(range(0, 1, 10), range(2, 40, 49)), pair(range(1, 20, 29), range(2, 40, 49))];
    const groups = locatedSectionGroups(groupRegions(found), found, [report(2), report(5), report(3)], docs);
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0].members, [where(0, range(0, 1, 10)), where(1, range(1, 20, 29)), where(2, range(2, 40, 49))]);
    assert.equal(groups[0].maxDistance, 5);
    assert.deepEqual(groups[0].locations?.map((l) => `${l.path}:${l.startLine}-${l.endLine}`), groups[0].members);
    assert.equal(groups[0].located, true);
  });

  it('only the pairs kept link places: a dropped pair splits a group, a place linked by none is left out', () => {
    const found = [pair(range(0, 1, 10), range(1, 20, 29)), pair(range(1, 20, 29), range(2, 40, 49)), pair(range(0, 30, 39), range(2, 1, 10))];
    const kept = [report(4), null, report(1)];
    const groups = locatedSectionGroups(groupRegions(found), found, kept, docs);
    assert.deepEqual(
      groups.map((g) => [g.members, g.maxDistance]),
      [
        [[where(0, range(0, 1, 10)), where(1, range(1, 20, 29))], 4],
        [[where(0, range(0, 30, 39)), where(2, range(2, 1, 10))], 1],
      ],
    );
    assert.deepEqual(locatedSectionGroups(groupRegions(found), found, [null, null, null], docs), [], 'no pair kept: no group');
  });
});
