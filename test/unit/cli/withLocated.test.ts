// withLocated (src/node/locate/locate.ts): the scan's result with the located outcome folded in, in
// one pass — its pairs in order with their clone kinds and regions (copies; the scan's own pairs
// untouched), the section pairs the regions split left out with their two-member section groups,
// the located pairs and groups after the scan's own.
import { strict as assert } from 'node:assert';
import type { ReportGroup, ReportPair } from '../../../src/core/report/report';
import { withLocated, type LocateOutcome } from '../../../src/node/locate/locate';
import type { ScanResult } from '../../../src/node/scan/scan';

type Located = Extract<LocateOutcome, { ok: true }>;

const section = (a: string, as: number, b: string, bs: number): ReportPair => ({ kind: 'section', a: { path: a, startLine: as, endLine: as + 9 }, b: { path: b, startLine: bs, endLine: bs + 9 }, distance: 3, similarity: 0.9 }) as unknown as ReportPair; // (no clone kind yet: the keys added come after the pair's own)
const fileP = (a: string, b: string): ReportPair => ({ kind: 'file', a: { path: a }, b: { path: b }, distance: 2, similarity: 0.95 }) as unknown as ReportPair;
const groupOf = (p: ReportPair): ReportGroup => ({ kind: 'section', members: [`${p.a.path}:${p.a.startLine}`, `${p.b.path}:${p.b.startLine}`], maxDistance: p.distance, locations: [p.a, p.b] });

describe('withLocated', () => {
  const scanPairs = [fileP('a.ts', 'b.ts'), section('c.ts', 1, 'd.ts', 5), section('e.ts', 10, 'f.ts', 20), fileP('g.ts', 'h.ts'), section('i.ts', 3, 'j.ts', 3)];
  const groups = scanPairs.filter((p) => p.kind === 'section').map(groupOf);
  const scanned = { pairs: scanPairs, groups } as unknown as ScanResult;
  const before = JSON.stringify(scanned);
  const locatedPair: ReportPair = { ...section('k.ts', 1, 'l.ts', 1), clone: 'exact', located: true };
  const locatedGroup: ReportGroup = { kind: 'section', members: ['k.ts:1', 'l.ts:1'], maxDistance: 0, located: true };
  const region = { a: { startLine: 1, endLine: 9 }, b: { startLine: 2, endLine: 10 }, clone: 'renamed' as const, similarity: 0.97 };
  const outcome = (replaced: number[]): Located =>
    ({
      ok: true,
      pairs: [locatedPair],
      groups: [locatedGroup],
      sides: undefined,
      cloneOf: new Map([
        [0, 'edited'],
        [1, 'exact'],
        [2, 'edited'],
      ]),
      regionsOf: new Map([
        [0, [region]],
        [3, [region]],
      ]),
      replaced: new Set(replaced),
      stats: { files: 0, tokens: 0, found: 0, dropped: 0, attached: 0, elapsedMs: 0 },
    }) as unknown as Located;

  it("keeps the scan's pairs in order with their clone kinds and regions (keys after the pair's own), then the located pairs", () => {
    const r = withLocated(scanned, outcome([]));
    assert.deepEqual(r.pairs, [{ ...scanPairs[0], clone: 'edited', regions: [region] }, { ...scanPairs[1], clone: 'exact' }, { ...scanPairs[2], clone: 'edited' }, { ...scanPairs[3], regions: [region] }, scanPairs[4], locatedPair]);
    assert.deepEqual(Object.keys(r.pairs[0]), [...Object.keys(scanPairs[0]), 'clone', 'regions']);
    assert.equal(r.pairs[4], scanPairs[4], 'a pair the regions leave as it is: the same object');
    assert.deepEqual(r.groups, [...groups, locatedGroup]);
    assert.equal(JSON.stringify(scanned), before, "the scan's result untouched");
  });

  it('leaves out the section pairs the regions split, with their two-member section groups', () => {
    const r = withLocated(scanned, outcome([2, 4]));
    assert.deepEqual(r.pairs, [{ ...scanPairs[0], clone: 'edited', regions: [region] }, { ...scanPairs[1], clone: 'exact' }, { ...scanPairs[3], regions: [region] }, locatedPair]);
    assert.deepEqual(r.groups, [groups[0], locatedGroup]);
    assert.equal(JSON.stringify(scanned), before, "the scan's result untouched");
  });
});
