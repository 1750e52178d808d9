/**
 * The markers the quick fix *Ignore this duplicate* inserts (core/text/ignoreMarkerEdit.ts): the
 * right comment syntax per language, `next` where it covers the section exactly, start/end where
 * it would not, none where no marker would work; each result checked by the marker reader itself.
 */
import { strict as assert } from 'node:assert';
import { ignoreMarkerEdit, markerComment, type MarkerInsertion } from '../../../../src/core/text/ignoreMarkerEdit';
import { applyIgnoreMarkers } from '../../../../src/core/text/ignoreMarkers';
import { languageOf } from '../../../../src/core/text/languages';

function apply(text: string, ins: MarkerInsertion[]): string {
  const lines = text.split('\n');
  for (const i of [...ins].sort((a, b) => b.line - a.line)) lines.splice(i.line, 0, i.text);
  return lines.join('\n');
}

/** The lines of `text` left (non-blank) after the edit and the markers, by their content. */
function left(path: string, text: string, ins: MarkerInsertion[]): string[] {
  const out = applyIgnoreMarkers(apply(text, ins), languageOf(path));
  return out === null ? [] : out.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim());
}

describe('ignoreMarkerEdit (the quick fix "Ignore this duplicate")', () => {
  it('a braced function: one `// neardup-ignore-next`, indented as the section, leaving the rest', () => {
    const text = ['import x from "y";', '', 'class A {', '  copied(a) {', '    return a + 1;', '  }', '  kept() {', '    return 2;', '  }', '}'].join('\n');
    const ins = ignoreMarkerEdit('src/a.ts', text, { startLine: 3, endLine: 5 });
    assert.deepEqual(ins, [{ line: 3, text: '  // neardup-ignore-next' }]);
    assert.deepEqual(left('src/a.ts', text, ins!), ['import x from "y";', 'class A {', 'kept() {', 'return 2;', '}', '}']);
  });

  it('Python (#), SQL (--), CSS (/* */), Lisp (;), Batch (REM): the language’s own comment', () => {
    const py = ['def copied(x):', '    y = x + 1', '    return y', '', 'def kept():', '    return 0'].join('\n');
    assert.deepEqual(ignoreMarkerEdit('m.py', py, { startLine: 0, endLine: 2 }), [{ line: 0, text: '# neardup-ignore-next' }]);
    assert.deepEqual(left('m.py', py, ignoreMarkerEdit('m.py', py, { startLine: 0, endLine: 2 })!), ['def kept():', 'return 0']);
    assert.equal(markerComment(languageOf('q.sql'), 'next'), '-- neardup-ignore-next');
    const css = ['.a {', '  color: red;', '}', '', '.b { color: blue; }'].join('\n');
    const cssIns = ignoreMarkerEdit('s.css', css, { startLine: 0, endLine: 2 });
    assert.deepEqual(cssIns, [{ line: 0, text: '/* neardup-ignore-next */' }]);
    assert.deepEqual(left('s.css', css, cssIns!), ['.b { color: blue; }']);
    assert.equal(markerComment(languageOf('x.el'), 'start'), '; neardup-ignore-start');
    assert.equal(markerComment(languageOf('run.bat'), 'end'), 'REM neardup-ignore-end');
  });

  it('a section that `next` would not cover exactly (several paragraphs, code without a blank line after): start and end', () => {
    const md = ['# Guide', '', '## Copied', '', 'First paragraph.', '', 'Second paragraph.', '', '## Kept', '', 'Other text.'].join('\n');
    const ins = ignoreMarkerEdit('docs/g.md', md, { startLine: 2, endLine: 6 });
    assert.deepEqual(ins, [
      { line: 2, text: '<!-- neardup-ignore-start -->' },
      { line: 7, text: '<!-- neardup-ignore-end -->' },
    ]);
    assert.deepEqual(left('docs/g.md', md, ins!), ['# Guide', '## Kept', 'Other text.']);
    // Statements with no blank line after: `next` would run on into the kept lines.
    const js = ['let a = 1;', 'let b = 2;', 'let c = 3;', 'let kept = 4;'].join('\n');
    const jsIns = ignoreMarkerEdit('x.js', js, { startLine: 0, endLine: 2 });
    assert.deepEqual(jsIns?.map((i) => i.text), ['// neardup-ignore-start', '// neardup-ignore-end']);
    assert.deepEqual(left('x.js', js, jsIns!), ['let kept = 4;']);
  });

  it('Chinese Markdown: a paragraph section takes `<!-- neardup-ignore-next -->`', () => {
    const md = ['# 茶园', '', '这一段是有意保留的副本，内容与另一篇文章相同。', '', '这一段是原创的。'].join('\n');
    const ins = ignoreMarkerEdit('docs/zh/t.md', md, { startLine: 2, endLine: 2 });
    assert.deepEqual(ins, [{ line: 2, text: '<!-- neardup-ignore-next -->' }]);
    assert.deepEqual(left('docs/zh/t.md', md, ins!), ['# 茶园', '这一段是原创的。']);
  });

  it('a whole file: `neardup-ignore-file` first, after a #! line', () => {
    assert.deepEqual(ignoreMarkerEdit('a.ts', 'const a = 1;\n', 'file'), [{ line: 0, text: '// neardup-ignore-file' }]);
    assert.deepEqual(ignoreMarkerEdit('run.sh', '#!/bin/sh\necho hi\n', 'file'), [{ line: 1, text: '# neardup-ignore-file' }]);
    assert.deepEqual(ignoreMarkerEdit('README.md', '# T\n\ntext\n', 'file'), [{ line: 0, text: '<!-- neardup-ignore-file -->' }]);
    assert.equal(applyIgnoreMarkers(apply('#!/bin/sh\necho hi\n', ignoreMarkerEdit('run.sh', '#!/bin/sh\necho hi\n', 'file')!), languageOf('run.sh')), null);
  });

  it('no edit where no marker works: JSON (no comments), a section inside Markdown fenced code, a range past the end', () => {
    assert.equal(ignoreMarkerEdit('data.json', '{\n  "a": 1\n}\n', 'file'), null);
    assert.equal(ignoreMarkerEdit('data.json', '{\n  "a": 1\n}\n', { startLine: 0, endLine: 2 }), null);
    const md = ['# Code', '', '```js', 'function f() {', '  return 1;', '}', '```'].join('\n');
    assert.equal(ignoreMarkerEdit('c.md', md, { startLine: 3, endLine: 5 }), null);
    assert.equal(ignoreMarkerEdit('a.ts', 'x\n', { startLine: 5, endLine: 9 }), null);
  });

  it('the last lines of a file without a final line break: the end marker goes after them', () => {
    const js = 'let kept = 0;\nlet a = 1;\nlet b = 2;';
    const ins = ignoreMarkerEdit('x.js', js, { startLine: 1, endLine: 2 });
    assert.ok(ins);
    assert.deepEqual(left('x.js', js, ins), ['let kept = 0;']);
  });
});
