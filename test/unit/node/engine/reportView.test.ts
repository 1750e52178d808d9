import { strict as assert } from 'node:assert';
import type { ViewItem } from '../../../../src/node/engine/engineProtocol';
import { duplicatedLines } from '../../../../src/node/engine/reportView';

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
