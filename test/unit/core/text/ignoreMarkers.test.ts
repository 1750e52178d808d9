import { strict as assert } from 'node:assert';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { applyIgnoreMarkers, blankIgnoredRegions, hasIgnoreFileMarker, IGNORE_FILE_LINES } from '../../../../src/core/text/ignoreMarkers';
import { languageOf } from '../../../../src/core/text/languages';
import { chineseText, codeFunction, mulberry32, proseText } from '../../helpers/corpus';

const lang = (p: string) => languageOf(p);
const blanked = (text: string, p: string) => blankIgnoredRegions(text, lang(p));

/** The lines of `out` that are blank but were not in `text` (0-based), after checking lengths and breaks. */
function blankedLines(text: string, out: string): number[] {
  assert.equal(out.length, text.length, 'same length');
  const a = text.split('\n');
  const b = out.split('\n');
  assert.equal(b.length, a.length, 'same lines');
  const lines: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    assert.equal(b[i], a[i].replace(/[^\r]/g, ' '), `line ${i} is either kept or all spaces`);
    lines.push(i);
  }
  return lines;
}

describe('ignore markers (core/text/ignoreMarkers)', () => {
  it('a text without markers comes back as the same string', () => {
    const t = 'const a = 1;\n// nothing to see\n';
    assert.equal(applyIgnoreMarkers(t, lang('a.ts')), t);
  });

  it('JavaScript: start … end blanks the markers and the lines between, keeping length, \\r\\n and line numbers', () => {
    const t = 'a();\n  // neardup-ignore-start\nb();\r\nc();\n/* neardup-ignore-end */\nd();\n';
    const out = blanked(t, 'x.js');
    assert.deepEqual(blankedLines(t, out), [1, 2, 3, 4]);
    assert.ok(out.includes('\r\n'), 'line breaks stay');
  });

  it('an unterminated start runs to the end of the file; a stray end does nothing', () => {
    const t = 'a();\n// neardup-ignore-end\nb();\n// neardup-ignore-start\nc();\nd();';
    assert.deepEqual(blankedLines(t, blanked(t, 'x.ts')), [3, 4, 5]);
  });

  it('Python: # markers, and a marker inside a string literal or after code does not count', () => {
    const t = ['s = "# neardup-ignore-start"', 'x = 1  # neardup-ignore-start', '# neardup-ignore-start', 'hidden = 2', '## neardup-ignore-end', 'kept = 3'].join('\n');
    assert.deepEqual(blankedLines(t, blanked(t, 'x.py')), [2, 3, 4]);
    assert.equal(hasIgnoreFileMarker('s = "# neardup-ignore-file"\n', lang('x.py')), false);
    assert.equal(hasIgnoreFileMarker('const s = "// neardup-ignore-file";\n', lang('x.js')), false);
  });

  it('the marker word must end: neardup-ignore-startle is no marker; other languages use their own openers', () => {
    assert.equal(blanked('// neardup-ignore-startle\nx\n', 'a.ts'), '// neardup-ignore-startle\nx\n');
    assert.deepEqual(blankedLines('-- neardup-ignore-next\nSELECT 1;\n\nSELECT 2;', blanked('-- neardup-ignore-next\nSELECT 1;\n\nSELECT 2;', 'q.sql')), [0, 1]);
    assert.deepEqual(blankedLines(';; neardup-ignore-next\n(defn f [] 1)\n(defn g [] 2)', blanked(';; neardup-ignore-next\n(defn f [] 1)\n(defn g [] 2)', 'a.clj')), [0, 1, 2]);
    assert.deepEqual(blankedLines('<!-- neardup-ignore-start -->\n<p>x</p>\n<!-- neardup-ignore-end -->\n<p>y</p>', blanked('<!-- neardup-ignore-start -->\n<p>x</p>\n<!-- neardup-ignore-end -->\n<p>y</p>', 'a.html')), [0, 1, 2]);
    // `//` is no comment in Python, `#` none in JavaScript.
    assert.equal(blanked('// neardup-ignore-start\nx = 1\n', 'a.py'), '// neardup-ignore-start\nx = 1\n');
    assert.equal(blanked('# neardup-ignore-start\nx = 1\n', 'a.js'), '# neardup-ignore-start\nx = 1\n');
  });

  it('neardup-ignore-next, code: a braced function up to its closing brace (blank lines inside included)', () => {
    const t = 'a();\n// neardup-ignore-next\n\nfunction f() {\n  x(")");\n\n  y();\n}\nfunction g() {}\n';
    assert.deepEqual(blankedLines(t, blanked(t, 'a.js')), [1, 3, 4, 6, 7]); // 2 and 5 were blank already
  });

  it('neardup-ignore-next, JavaScript: a quote, backtick or bracket inside a regular expression opens nothing; a division is no regex', () => {
    const t = "a();\n// neardup-ignore-next\nfunction f(s) {\n  if (/[`'(]/.test(s)) return /}/;\n  return s.length / 2 / 3;\n}\nfunction g() { return '`'; }\n";
    assert.deepEqual(blankedLines(t, blanked(t, 'a.js')), [1, 2, 3, 4, 5]);
    // Without regex literals (Java) the backtick opens a string to the end, so the block runs on.
    assert.deepEqual(blankedLines(t, blanked(t, 'a.java')), [1, 2, 3, 4, 5, 6]);
  });

  it('neardup-ignore-next, code: an indented Python block, blank lines inside included', () => {
    const t = 'x = 1\n# neardup-ignore-next\n@dec\ndef f(a):\n    return a\n\n    pass\n\ndef g():\n    pass\n';
    assert.deepEqual(blankedLines(t, blanked(t, 'a.py')), [1, 2, 3, 4, 6]); // 5 was blank already
  });

  it('neardup-ignore-next, code: without brackets, up to the next blank line', () => {
    const t = '// neardup-ignore-next\nlet a = 1;\nlet b = 2;\n\nlet c = 3;\n';
    assert.deepEqual(blankedLines(t, blanked(t, 'a.ts')), [0, 1, 2]);
  });

  it('Markdown: HTML-comment markers; next is the next paragraph; markers in a fenced code block do not count', () => {
    const t = 'para\n\n<!-- neardup-ignore-next -->\nline one\nline two\n\nkept\n```\n<!-- neardup-ignore-start -->\n```\nkept too\n// neardup-ignore-start\nstill kept\n';
    assert.deepEqual(blankedLines(t, blanked(t, 'README.md')), [2, 3, 4]);
  });

  it('Chinese Markdown: a copied paragraph run between start and end markers is blanked, offsets unchanged', () => {
    const zh = chineseText(mulberry32(9), 4);
    const t = `# 标题\n\n<!-- neardup-ignore-start -->\n${zh}\n<!-- neardup-ignore-end -->\n\n结尾的段落。\n`;
    const out = blanked(t, '文档.md');
    const lines = blankedLines(t, out);
    assert.equal(lines[0], 2);
    assert.equal(lines[lines.length - 1], t.split('\n').indexOf('<!-- neardup-ignore-end -->'));
    assert.ok(!/[\u4e00-\u9fff]/.test(out.slice(out.indexOf('\n\n') + 2, out.lastIndexOf('结尾'))), 'no Han character left in the region');
    assert.ok(out.startsWith('# 标题\n') && out.endsWith('结尾的段落。\n'));
  });

  it(`neardup-ignore-file counts only on the first ${IGNORE_FILE_LINES} lines, and makes fingerprintText give nothing`, () => {
    const body = codeFunction(mulberry32(3), 40);
    const at = (n: number) => '\n'.repeat(n) + '// neardup-ignore-file\n' + body;
    assert.equal(hasIgnoreFileMarker(at(IGNORE_FILE_LINES - 1), lang('a.ts')), true);
    assert.equal(hasIgnoreFileMarker(at(IGNORE_FILE_LINES), lang('a.ts')), false);
    assert.equal(applyIgnoreMarkers(at(0), lang('a.ts')), null);
    const doc = fingerprintText(at(0), 'a.ts', { minTokens: 10 });
    assert.equal(doc.file, null);
    assert.deepEqual(doc.sections, []);
    assert.ok(fingerprintText(at(IGNORE_FILE_LINES), 'a.ts', { minTokens: 10 }).file, 'a marker further down is ignored');
    assert.equal(fingerprintText('<!-- neardup-ignore-file -->\n' + proseText(mulberry32(4), 5), 'a.md', { minTokens: 10 }).file, null);
  });

  it('fingerprintText: an ignored region gives the tokens of blank lines, section line numbers unchanged', () => {
    const rnd = mulberry32(11);
    const head = codeFunction(rnd, 30);
    const skipped = codeFunction(rnd, 30);
    const tail = codeFunction(rnd, 30);
    const marked = `${head}\n// neardup-ignore-start\n${skipped}\n// neardup-ignore-end\n${tail}`;
    const sp = (x: string) => x.replace(/[^\n]/g, ' ');
    const blankedByHand = `${head}\n${sp('// neardup-ignore-start')}\n${sp(skipped)}\n${sp('// neardup-ignore-end')}\n${tail}`;
    const options = { minTokens: 20 };
    const doc = fingerprintText(marked, 'a.ts', options);
    assert.deepEqual(doc, fingerprintText(blankedByHand, 'a.ts', options));
    assert.notDeepEqual(doc.file, fingerprintText(`${head}\n\n${skipped}\n\n${tail}`, 'a.ts', options).file, 'the ignored function is not in the file fingerprint');
    const lineOf = (offset: number) => marked.slice(0, offset).split('\n').length;
    const from = lineOf(marked.indexOf('// neardup-ignore-start'));
    const to = lineOf(marked.indexOf('// neardup-ignore-end'));
    const tailStart = lineOf(marked.indexOf(tail));
    assert.ok(doc.sections.some((s) => s.startLine === tailStart), `a section starts at line ${tailStart}: the lines did not move`);
    assert.ok(doc.sections.every((s) => s.endLine < from || s.startLine > to), 'no section in the ignored region');
  });
});
