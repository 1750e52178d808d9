import { strict as assert } from 'node:assert';
import { CUT_MEMORY_MS, noticeMatch, pastedBlock, pastedSpan, shiftSpan, type Change } from '../../../../src/extension/live/pasteBlock';
import type { TextMatch } from '../../../../src/node/engine/engineProtocol';

const insert = (line: number, text: string, character = 0): Change => ({ startLine: line, startCharacter: character, endLine: line, rangeLength: 0, text });
const block = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n') + '\n';

describe('live/pasteBlock: a paste as it lands', () => {
  it('pastedSpan: one insertion of at least minLines lines of text; a final line break ends the block', () => {
    assert.deepEqual(pastedSpan(insert(10, block(5)), 5), { start: 10, end: 14 });
    assert.deepEqual(pastedSpan(insert(10, block(5).slice(0, -1), 4), 5), { start: 10, end: 14 });
    assert.equal(pastedSpan(insert(10, block(4)), 5), undefined);
    assert.deepEqual(pastedSpan(insert(9, '\n' + block(5), 7), 5), { start: 10, end: 14 }, 'put after the end of line 9');
    assert.equal(pastedSpan(insert(0, '\n\n\n\n\n\nx\n'), 5), undefined, 'blank lines do not count');
    assert.equal(pastedSpan(insert(0, 'a b c'), 1)?.end, 0);
  });

  it('shiftSpan: edits above move it, edits inside resize it, edits below leave it; undoing the paste removes it', () => {
    const span = { start: 10, end: 14 };
    assert.deepEqual(shiftSpan(span, insert(2, 'a\nb\n')), { start: 12, end: 16 });
    assert.deepEqual(shiftSpan(span, { startLine: 2, startCharacter: 0, endLine: 5, rangeLength: 30, text: '' }), { start: 7, end: 11 });
    assert.deepEqual(shiftSpan(span, insert(12, 'x')), span);
    assert.deepEqual(shiftSpan(span, insert(12, 'x\ny\n')), { start: 10, end: 16 });
    assert.deepEqual(shiftSpan(span, insert(20, 'x\ny\n')), span);
    // Undo of the paste: the pasted range (10,0)-(15,0) replaced by nothing.
    assert.equal(shiftSpan(span, { startLine: 10, startCharacter: 0, endLine: 15, rangeLength: 40, text: '' }), undefined);
    // The lines selected and deleted (without the last line break).
    assert.equal(shiftSpan(span, { startLine: 10, startCharacter: 0, endLine: 14, rangeLength: 34, text: '' }), undefined);
    // The whole document replaced (a revert, a formatter): the paste is gone too.
    assert.equal(shiftSpan(span, { startLine: 0, startCharacter: 0, endLine: 30, rangeLength: 900, text: block(16) }), undefined);
  });

  it('pastedBlock: the one block among an event\'s changes, moved by the import line added above it; none when two are blocks', () => {
    // Last in the document first: the paste at line 80, then an import line at line 0.
    const got = pastedBlock([insert(80, block(9)), insert(0, "import { x } from './x';\n")], 5);
    assert.deepEqual(got?.span, { start: 81, end: 89 });
    assert.equal(got?.text, block(9));
    assert.equal(pastedBlock([insert(80, block(9)), insert(10, block(6))], 5), undefined);
    assert.equal(pastedBlock([insert(80, 'a'), insert(10, 'b')], 5), undefined);
  });

  it('noticeMatch: the best match, except the file a block of that size was just cut from (a move)', () => {
    const m = (path: string, distance: number): TextMatch => ({ kind: 'section', path, startLine: 1, endLine: 9, self: { startLine: 1, endLine: 9 }, covered: 1, distance, similarity: 1 });
    const matches = [m('/w/a.ts', 0), m('/w/b.ts', 2)];
    assert.equal(noticeMatch(matches, { chars: 100, at: 1000 }, undefined)?.path, '/w/a.ts');
    assert.equal(noticeMatch(matches, { chars: 100, at: 1000 }, { path: '/w/a.ts', chars: 100, at: 900 })?.path, '/w/b.ts');
    assert.equal(noticeMatch(matches, { chars: 100, at: 1000 }, { path: '/w/a.ts', chars: 60, at: 900 })?.path, '/w/a.ts', 'another block was cut');
    assert.equal(noticeMatch(matches, { chars: 100, at: 1000 + CUT_MEMORY_MS + 1 }, { path: '/w/a.ts', chars: 100, at: 0 })?.path, '/w/a.ts', 'long ago');
    assert.equal(noticeMatch([m('/w/a.ts', 0)], { chars: 100, at: 1000 }, { path: '/w/a.ts', chars: 100, at: 900 }), undefined);
  });

  it('noticeMatch: not the pasted lines\' own place (a document given its saved text again), but another place of the same file', () => {
    const at = (startLine: number, endLine: number): TextMatch => ({ kind: 'section', path: '/w/a.ts', startLine, endLine, self: { startLine: 1, endLine: 9 }, covered: 1, distance: 0, similarity: 1 });
    const pasted = { chars: 100, at: 1000, path: '/w/a.ts', span: { start: 0, end: 8 } }; // lines 1–9
    assert.equal(noticeMatch([at(1, 9)], pasted, undefined), undefined, 'itself');
    assert.equal(noticeMatch([at(5, 20)], pasted, undefined), undefined, 'overlapping itself');
    assert.equal(noticeMatch([{ ...at(1, 9), kind: 'file', startLine: undefined, endLine: undefined }], pasted, undefined), undefined, 'its whole file');
    assert.deepEqual(noticeMatch([at(1, 9), at(30, 38)], pasted, undefined)?.startLine, 30, 'a repeat elsewhere in the file');
    assert.equal(noticeMatch([at(1, 9)], { ...pasted, path: '/w/b.ts' }, undefined)?.path, '/w/a.ts', 'another file');
  });
});
