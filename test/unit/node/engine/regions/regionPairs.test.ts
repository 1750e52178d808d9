// Unit tests of src/node/engine/regions/regionPairs.ts: where the engine's located pairs stand next
// to the SimHash pairs, the section splits made once (placing) for the merge, a pair standing alone
// and the split keys — the same whether made of the whole report or of one file's pairs.
import { strict as assert } from 'node:assert';
import type { ReportPair } from '../../../../../src/core/report/report';
import { mergeLocated, placing, splitSectionKeys, standsAlone } from '../../../../../src/node/engine/regions/regionPairs';
import { sidesKey } from '../../../../../src/node/regions/regionPlaces';

const side = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine });
const section = (a: ReturnType<typeof side>, b: ReturnType<typeof side>): ReportPair => ({ kind: 'section', a, b, distance: 3, similarity: 0.8, clone: 'edited' });
const located = (a: ReturnType<typeof side>, b: ReturnType<typeof side>): ReportPair => ({ kind: 'section', a, b, distance: 2, similarity: 0.9, clone: 'exact', located: true });

describe('node/engine/regions/regionPairs', () => {
  // a.md 1-40 ~ b.md 101-140 holds two neighbouring copies (split); c.md 1-30 ~ a.md 61-90 says its
  // one copy (dropped); d.ts ~ e.ts are paired as files (their copy goes to the file pair); a copy
  // of a.md and e.ts stands alone (no SimHash pair of those files).
  const simhash: ReportPair[] = [
    section(side('a.md', 1, 40), side('b.md', 101, 140)),
    section(side('c.md', 1, 30), side('a.md', 61, 90)),
    { kind: 'file', a: { path: 'd.ts' }, b: { path: 'e.ts' }, distance: 4, similarity: 0.7, clone: 'edited' },
  ];
  const copies = [
    located(side('a.md', 1, 12), side('b.md', 101, 112)),
    located(side('b.md', 121, 138), side('a.md', 21, 38)), // the other order of the two files
    located(side('a.md', 62, 89), side('c.md', 2, 29)),
    located(side('d.ts', 5, 30), side('e.ts', 8, 33)),
    located(side('a.md', 200, 230), side('e.ts', 40, 70)),
  ];
  const of = (path: string) => ({ simhash: simhash.filter((p) => p.a.path === path || p.b.path === path), located: copies.filter((p) => p.a.path === path || p.b.path === path) });

  it('the split section pair, the pair already said, the file pair and the lone copy; the same of one file as of all', () => {
    const all = placing(simhash, copies);
    assert.deepEqual([...splitSectionKeys(all)], [sidesKey(simhash[0].a, simhash[0].b)]);
    assert.deepEqual(copies.map((x) => standsAlone(x, all)), [true, true, false, false, true]);
    for (const x of copies) {
      for (const path of [x.a.path, x.b.path]) {
        const mine = of(path);
        assert.equal(standsAlone(x, placing(mine.simhash, mine.located)), standsAlone(x, all), `${x.a.path} ~ ${x.b.path}, placed with the pairs of ${path}`);
      }
    }
    assert.deepEqual([...splitSectionKeys(placing(of('b.md').simhash, of('b.md').located))], [...splitSectionKeys(all)]);
    assert.equal(splitSectionKeys(placing(of('c.md').simhash, of('c.md').located)).size, 0);
  });

  it('mergeLocated: the same with its placing made or given; the split section pair out, the file pair with its region', () => {
    const merged = mergeLocated(simhash, copies, placing(simhash, copies));
    assert.deepEqual(merged, mergeLocated(simhash, copies));
    assert.ok(!merged.includes(simhash[0]) && merged.includes(simhash[1]));
    const file = merged.find((p) => p.kind === 'file')!;
    assert.deepEqual(file.regions, [{ a: { startLine: 5, endLine: 30 }, b: { startLine: 8, endLine: 33 }, clone: 'exact', similarity: 0.9 }]);
    assert.deepEqual(merged.filter((p) => p.located), [copies[0], copies[1], copies[4]]);
    assert.equal(mergeLocated(simhash, []), simhash, 'no located pairs: the SimHash pairs as they are');
  });
});
