import { strict as assert } from 'node:assert';
import { compactDiff, diffBlock, lineDiff, MAX_DIFF_CELLS } from '../../../../src/extension/editor/compactDiff';

const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

describe('compact diff (hover)', () => {
  it('identical ranges (whitespace aside) have no entries', () => {
    const d = lineDiff(['  a  b', 'c'], ['a b', '\tc ']);
    assert.deepEqual(d.map((x) => x.op), [' ', ' ']);
    assert.deepEqual(compactDiff(d), { entries: [], hiddenChanges: 0 });
  });

  it('a changed line: the twin\'s line with +, this range\'s with -, one line of context, gaps counted', () => {
    const here = numbered(20);
    const twin = [...here];
    twin[9] = 'line 10 edited';
    const { entries, hiddenChanges } = compactDiff(lineDiff(here, twin));
    assert.deepEqual(entries, [
      { op: '…', skipped: 8 },
      { op: ' ', text: 'line 9' },
      { op: '-', text: 'line 10' },
      { op: '+', text: 'line 10 edited' },
      { op: ' ', text: 'line 11' },
    ]);
    assert.equal(hiddenChanges, 0);
  });

  it('insertions and deletions line up (longest common subsequence)', () => {
    const d = lineDiff(['a', 'b', 'c', 'd', 'e'], ['a', 'x', 'b', 'c', 'e', 'f']);
    assert.deepEqual(
      d.map((x) => x.op + x.text),
      [' a', '+x', ' b', ' c', '-d', ' e', '+f'],
    );
  });

  it('shows at most maxLines lines and counts the differing lines left out', () => {
    const here = numbered(60);
    const twin = here.map((l, i) => (i % 5 === 0 ? `${l} changed` : l));
    const { entries, hiddenChanges } = compactDiff(lineDiff(here, twin), 1, 12);
    const shown = entries.filter((e) => e.op !== '…');
    assert.equal(shown.length, 12);
    const changes = 24; // 12 lines changed, each a - and a +
    const shownChanges = shown.filter((e) => e.op !== ' ').length;
    assert.equal(hiddenChanges, changes - shownChanges);
    assert.ok(hiddenChanges > 0);
  });

  it('focus: the differences from a given line of this range on come first; the gap above counts its differing lines', () => {
    const here = numbered(60);
    const twin = here.map((l, i) => (i === 5 || i === 40 ? `${l} changed` : l));
    const { entries, hiddenChanges } = compactDiff(lineDiff(here, twin), 1, 12, 30);
    assert.deepEqual(entries.slice(0, 4), [
      { op: '…', skipped: 40, changed: 2 },
      { op: ' ', text: 'line 40' },
      { op: '-', text: 'line 41' },
      { op: '+', text: 'line 41 changed' },
    ]);
    assert.equal(hiddenChanges, 2, 'the two differing lines above are counted');
    // Focus past the last difference, or at the top: from the top.
    assert.deepEqual(compactDiff(lineDiff(here, twin), 1, 12, 55).entries[0], { op: '…', skipped: 4 });
    assert.deepEqual(compactDiff(lineDiff(here, twin), 1, 12, 0).entries[0], { op: '…', skipped: 4 });
    // Focus inside a run of differences: that run, from its first line.
    assert.deepEqual(compactDiff(lineDiff(here, twin), 1, 12, 40).entries[1], { op: ' ', text: 'line 40' });
  });

  it('long ranges beyond the table size are compared by their common start and end only', () => {
    const n = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 10;
    const here = numbered(n + 2);
    const twin = ['line 1', ...numbered(n, 'other'), `line ${n + 2}`];
    const d = lineDiff(here, twin);
    assert.equal(d[0].op, ' ');
    assert.equal(d[d.length - 1].op, ' ');
    assert.equal(d.filter((x) => x.op === '-').length, n);
    assert.equal(d.filter((x) => x.op === '+').length, n);
  });

  it('diffBlock: a fenced diff block whose fence no line can close; long lines clipped', () => {
    const block = diffBlock(
      [
        { op: '…', skipped: 3 },
        { op: '-', text: 'const s = `x`; // ```' },
        { op: '+', text: 'y'.repeat(200) },
      ],
      (n) => `… ${n} unchanged`,
    );
    const lines = block.split('\n');
    assert.equal(lines[0], '````diff');
    assert.equal(lines[lines.length - 1], '````');
    assert.equal(lines[1], '  … 3 unchanged');
    assert.equal(lines[2], '- const s = `x`; // ```');
    assert.equal(lines[3].length, 2 + 120);
    assert.ok(lines[3].endsWith('…'));
  });
});
