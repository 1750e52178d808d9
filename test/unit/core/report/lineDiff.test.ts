import { strict as assert } from 'node:assert';
import { sideBySide } from '../../../../src/core/report/lineDiff';

describe('sideBySide (the HTML report’s pair view)', () => {
  it('puts common lines side by side and pairs up each run of differing lines, numbering each side', () => {
    const left = ['a', 'b', 'old 1', 'old 2', 'c', 'gone', 'd'];
    const right = ['a', 'b', 'new 1', 'c', 'd', 'added'];
    const rows = sideBySide(left, right);
    assert.deepEqual(
      rows.map((r) => [r.op, r.left?.line, r.left?.text, r.right?.line, r.right?.text]),
      [
        ['same', 1, 'a', 1, 'a'],
        ['same', 2, 'b', 2, 'b'],
        ['changed', 3, 'old 1', 3, 'new 1'],
        ['left', 4, 'old 2', undefined, undefined],
        ['same', 5, 'c', 4, 'c'],
        ['left', 6, 'gone', undefined, undefined],
        ['same', 7, 'd', 5, 'd'],
        ['right', undefined, undefined, 6, 'added'],
      ],
    );
  });

  it('shows every line of both sides exactly once, in order, each side with its own text (whitespace-only changes count as the same)', () => {
    const left = ['x', '  indented  y', 'z', 'only left'];
    const right = ['x', 'indented y', 'z'];
    const rows = sideBySide(left, right);
    assert.deepEqual(rows.filter((r) => r.left).map((r) => r.left!.text), left);
    assert.deepEqual(rows.filter((r) => r.right).map((r) => r.right!.text), right);
    assert.deepEqual(rows.map((r) => r.op), ['same', 'same', 'same', 'left']);
  });

  it('empty sides', () => {
    assert.deepEqual(sideBySide([], []), []);
    assert.deepEqual(sideBySide([], ['a']).map((r) => r.op), ['right']);
  });
});
