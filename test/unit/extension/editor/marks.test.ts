import { strict as assert } from 'node:assert';
import type { ViewItem } from '../../../../src/node/engine/engineProtocol';
import { closenessOf, markedLines, marksAt, marksOf, paint, sharePercent, shiftMarks, spanOf, type Mark } from '../../../../src/extension/editor/marks';

const section = (start: number, end: number, distance: number): ViewItem => ({
  kind: 'section',
  loc: { path: '/w/a.ts', startLine: start, endLine: end },
  twins: [{ path: '/w/b.ts', startLine: 1, endLine: end - start + 1, distance, similarity: 1 - distance / 64 }],
  moreTwins: 0,
});
const file = (distance: number): ViewItem => ({ kind: 'file', loc: { path: '/w/a.ts' }, twins: [{ path: '/w/c.ts', distance, similarity: 1 - distance / 64 }], moreTwins: 0 });
const lines = (ms: Mark[]) => ms.map((m) => [m.start, m.end]);

describe('editor marks', () => {
  it('closeness: 0 identical, 1–3 close, 4+ distant', () => {
    assert.deepEqual([0, 1, 3, 4, 12].map(closenessOf), ['identical', 'close', 'close', 'distant', 'distant']);
  });

  it('marks of items: sections on their 0-based lines, a file item on every line', () => {
    const ms = marksOf([file(5), section(11, 40, 0)]);
    assert.deepEqual(ms.map((m) => [m.kind, m.distance]), [['file', 5], ['section', 0]]);
    assert.deepEqual(spanOf(ms[0], 82), { start: 0, end: 81 });
    assert.deepEqual(spanOf(ms[1], 82), { start: 10, end: 39 });
    assert.equal(spanOf(ms[1], 5), null, 'a section past the end of a shortened text is not drawn');
  });

  it('an edit above a section moves it; below leaves it; inside grows or shrinks it', () => {
    const ms = marksOf([section(11, 40, 2)]);
    // Two lines inserted at line 3 (0-based), i.e. text with two line breaks typed there.
    assert.deepEqual(lines(shiftMarks(ms, { start: 3, end: 3, newLines: 2 })), [[12, 41]]);
    // Lines 0..4 removed (a range from line 0 to line 5, nothing typed).
    assert.deepEqual(lines(shiftMarks(ms, { start: 0, end: 5, newLines: 0 })), [[5, 34]]);
    // Below the section.
    assert.deepEqual(lines(shiftMarks(ms, { start: 50, end: 52, newLines: 0 })), [[10, 39]]);
    // A line typed inside it; three lines joined inside it.
    assert.deepEqual(lines(shiftMarks(ms, { start: 20, end: 20, newLines: 1 })), [[10, 40]]);
    assert.deepEqual(lines(shiftMarks(ms, { start: 20, end: 22, newLines: 0 })), [[10, 37]]);
    // An Enter typed on the line the section ends on: the rest of that line moves down with it.
    assert.deepEqual(lines(shiftMarks(ms, { start: 39, end: 39, newLines: 1 })), [[10, 40]]);
  });

  it('text typed at the beginning of a section\'s first line: a line break pushes the section down, other text stays in it', () => {
    const ms = marksOf([section(1, 6, 0), section(11, 20, 0)]);
    assert.deepEqual(lines(shiftMarks(ms, { start: 0, end: 0, newLines: 1, atLineStart: true })), [[1, 6], [11, 20]]);
    assert.deepEqual(lines(shiftMarks(ms, { start: 0, end: 0, newLines: 0, atLineStart: true })), [[0, 5], [10, 19]]);
    // Typed in the middle of the first line: the section keeps it and grows.
    assert.deepEqual(lines(shiftMarks(ms, { start: 0, end: 0, newLines: 1, atLineStart: false })), [[0, 6], [11, 20]]);
    // Whole lines removed from the beginning of a section's first line: those lines go, the rest moves up.
    assert.deepEqual(lines(shiftMarks(ms, { start: 10, end: 12, newLines: 0, atLineStart: true })), [[0, 5], [10, 17]]);
    // Every line of a section removed, from the beginning of its first line to the line after it.
    assert.deepEqual(lines(shiftMarks(ms, { start: 10, end: 20, newLines: 0, atLineStart: true })), [[0, 5]]);
  });

  it('a section whose lines are all removed disappears; one cut at an end keeps the rest', () => {
    const ms = marksOf([section(11, 40, 2)]);
    assert.deepEqual(lines(shiftMarks(ms, { start: 5, end: 45, newLines: 0 })), []);
    // The removal runs from line 30 to past the end of the section: lines 10..30 stay.
    assert.deepEqual(lines(shiftMarks(ms, { start: 30, end: 45, newLines: 0 })), [[10, 30]]);
    // The removal starts before the section and ends inside it: it starts where the removal ended.
    assert.deepEqual(lines(shiftMarks(ms, { start: 5, end: 20, newLines: 0 })), [[5, 24]]);
  });

  it('file marks never move, and shifting makes new marks (the old list is unchanged)', () => {
    const ms = marksOf([file(3), section(11, 40, 2)]);
    const moved = shiftMarks(ms, { start: 0, end: 0, newLines: 10 });
    assert.equal(moved[0], ms[0]);
    assert.deepEqual(lines(moved.slice(1)), [[20, 49]]);
    assert.deepEqual(lines(ms.slice(1)), [[10, 39]]);
  });

  it('a sequence of edits (several changes in one event, last in the document first)', () => {
    let ms = marksOf([section(11, 20, 0), section(31, 40, 6)]);
    for (const c of [{ start: 25, end: 25, newLines: 3 }, { start: 2, end: 4, newLines: 0 }]) ms = shiftMarks(ms, c);
    assert.deepEqual(lines(ms), [[8, 17], [31, 40]]);
  });

  it('paint: each line takes the closest covering mark; runs are joined and do not overlap', () => {
    const ms = marksOf([file(6), section(11, 20, 0), section(15, 30, 2)]);
    assert.deepEqual(paint(ms, 40), [
      { start: 0, end: 9, closeness: 'distant' },
      { start: 10, end: 19, closeness: 'identical' },
      { start: 20, end: 29, closeness: 'close' },
      { start: 30, end: 39, closeness: 'distant' },
    ]);
    assert.equal(markedLines(ms, 40), 40);
    const two = marksOf([section(1, 5, 2), section(6, 9, 3), section(20, 21, 9)]);
    assert.deepEqual(paint(two, 30), [
      { start: 0, end: 8, closeness: 'close' },
      { start: 19, end: 20, closeness: 'distant' },
    ]);
    assert.equal(markedLines(two, 30), 11);
    assert.deepEqual(paint([], 10), []);
  });

  it('marksAt: the marks covering a line, innermost first, the file mark last', () => {
    const ms = marksOf([file(6), section(11, 40, 4), section(15, 20, 1)]);
    assert.deepEqual(marksAt(ms, 16).map((m) => [m.kind, m.start]), [['section', 14], ['section', 10], ['file', 0]]);
    assert.deepEqual(marksAt(ms, 2).map((m) => m.kind), ['file']);
    assert.deepEqual(marksAt(marksOf([section(11, 40, 4)]), 2), []);
  });

  it('sharePercent: whole percentages, never 0% or 100% unless exactly', () => {
    assert.deepEqual(
      [sharePercent(30, 70), sharePercent(1, 1000), sharePercent(999, 1000), sharePercent(0, 10), sharePercent(10, 10), sharePercent(5, 0)],
      ['43%', '1%', '99%', '0%', '100%', '0%'],
    );
  });
});
