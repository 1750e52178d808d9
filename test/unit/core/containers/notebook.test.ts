// Jupyter notebooks (src/core/containers/notebook.ts, container.ts, cellLines.ts): the JSON read
// as cells (sources as strings or lists of strings, nbformat 3 and 4), broken notebooks given a
// reason, the container text and its map back to cells and lines, the cell lines sections carry,
// and the fingerprints of a notebook (outputs and metadata do not count; sections by cell).
import { strict as assert } from 'node:assert';
import { CELL_LINE_STRIDE, cellLine, cellRange, describeLines, memberLabel, withCell } from '../../../../src/core/containers/cellLines';
import { containerText, notebookLineOf, type ContainerText } from '../../../../src/core/containers/container';
import { cellLanguage, notebookText, parseNotebook, type Notebook } from '../../../../src/core/containers/notebook';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { languageOf } from '../../../../src/core/text/languages';
import { mulberry32 } from '../../helpers/corpus';

type Cell = { cell_type: string; source: string | string[]; metadata?: object; outputs?: object[] };
const notebook = (cells: Cell[], metadata: object = { kernelspec: { language: 'python', name: 'python3' } }): string =>
  JSON.stringify({ cells: cells.map((c) => ({ metadata: {}, ...c })), metadata, nbformat: 4, nbformat_minor: 5 }, null, 1);

const parsed = (json: string): Notebook => {
  const nb = parseNotebook(json);
  assert.ok(!('reason' in nb), 'reason' in nb ? nb.reason : '');
  return nb;
};
const extracted = (json: string): ContainerText => {
  const c = notebookText(json);
  assert.ok(!('reason' in c), 'reason' in c ? c.reason : '');
  return c;
};

/** A function of some 60 tokens, `name` its name, `k` a number in it. */
const pyFunction = (name: string, k: number): string =>
  `def ${name}(rows, columns, fill_value=None):\n    result = []\n    for row in rows:\n        entry = {}\n        for column in columns:\n            value = row.get(column, fill_value)\n            if isinstance(value, str):\n                value = value.strip().lower() * ${k}\n            entry[column] = value\n        result.append(entry)\n    return result\n`;

describe('notebooks', () => {
  describe('parseNotebook', () => {
    it('reads a source given as a string and as a list of strings alike', () => {
      const text = 'import os\nprint(os.getcwd())\n';
      const asString = parsed(notebook([{ cell_type: 'code', source: text }]));
      const asList = parsed(notebook([{ cell_type: 'code', source: text.split(/(?<=\n)/) }]));
      assert.deepEqual(asString.cells, [{ index: 1, kind: 'code', source: text }]);
      assert.deepEqual(asList.cells, asString.cells);
      assert.equal(extracted(notebook([{ cell_type: 'code', source: text }])).text, extracted(notebook([{ cell_type: 'code', source: text.split(/(?<=\n)/) }])).text);
    });

    it('numbers every cell (raw ones too) and knows code, Markdown and raw cells', () => {
      const nb = parsed(notebook([
        { cell_type: 'markdown', source: '# Title' },
        { cell_type: 'raw', source: 'raw text' },
        { cell_type: 'code', source: ['x = 1'] },
      ]));
      assert.deepEqual(nb.cells.map((c) => [c.index, c.kind]), [[1, 'markdown'], [2, 'raw'], [3, 'code']]);
    });

    it("takes the notebook's language from kernelspec, then language_info, else Python; a cell's VS Code language first", () => {
      assert.equal(parsed(notebook([], { kernelspec: { language: 'R' }, language_info: { name: 'julia' } })).language, 'r');
      assert.equal(parsed(notebook([], { language_info: { name: 'Julia' } })).language, 'julia');
      assert.equal(parsed(notebook([], {})).language, 'python');
      assert.equal(parsed(JSON.stringify({ cells: [] })).language, 'python');
      const nb = parsed(notebook([{ cell_type: 'code', source: 'SELECT 1', metadata: { vscode: { languageId: 'sql' } } }]));
      assert.equal(nb.cells[0].language, 'sql');
    });

    it('reads nbformat 3 (worksheets, `input` of code cells)', () => {
      const nb = parsed(JSON.stringify({ metadata: { language: 'python' }, nbformat: 3, worksheets: [{ cells: [{ cell_type: 'code', input: ['a = 1\n', 'b = 2'] }, { cell_type: 'markdown', source: 'text' }] }] }));
      assert.deepEqual(nb.cells.map((c) => [c.kind, c.source]), [['code', 'a = 1\nb = 2'], ['markdown', 'text']]);
    });

    it('gives a reason, never an exception, for what is not a notebook', () => {
      const cases: Array<[string, RegExp]> = [
        ['{"cells": [1, 2', /invalid JSON/],
        ['', /invalid JSON/],
        ['[1, 2, 3]', /not an object/],
        ['"cells"', /not an object/],
        ['null', /not an object/],
        ['{"nbformat": 4}', /no "cells" list/],
        ['{"cells": {}}', /no "cells" list/],
        ['{"cells": [42]}', /cell 1 is not an object/],
        ['{"cells": [{"cell_type": "code", "source": "x"}, {"cell_type": "code", "source": 7}]}', /cell 2's source/],
        ['{"cells": [{"cell_type": "markdown", "source": ["a", 1]}]}', /cell 1's source/],
        ['{"worksheets": [{"nocells": 1}]}', /worksheet/],
      ];
      for (const [json, reason] of cases) {
        const r = parseNotebook(json);
        assert.ok('reason' in r, json);
        assert.match(r.reason, /^not a readable notebook: /, json);
        assert.match(r.reason, reason, json);
        const c = containerText('x.ipynb', json);
        assert.ok(c && 'reason' in c && c.reason === r.reason, 'containerText passes the reason on');
        assert.deepEqual(fingerprintText(json, 'x.ipynb', { minTokens: 1 }), { kind: 'code', file: null, sections: [] });
      }
    });
  });

  it('damaged notebooks (cut short, characters changed, values of other types): a reason or a fingerprint, never an exception', () => {
    const good = notebook([
      { cell_type: 'markdown', source: ['# A title\n', 'Some words.'] },
      { cell_type: 'code', source: pyFunction('f', 1).split(/(?<=\n)/), outputs: [{ output_type: 'stream', text: ['x'] }] },
    ]);
    const rnd = mulberry32(12);
    const swaps = ['null', '1', '"s"', '[]', '{}', 'true', '[1, "a"]'];
    let reasons = 0;
    let read = 0;
    for (let i = 0; i < 400; i++) {
      let text = good;
      const what = i % 3;
      if (what === 0) text = good.slice(0, Math.floor(rnd() * good.length));
      else if (what === 1) {
        const at = Math.floor(rnd() * good.length);
        text = good.slice(0, at) + String.fromCharCode(32 + Math.floor(rnd() * 95)) + good.slice(at + 1);
      } else {
        // A value of the wrong type where a string, list or object stood.
        const keys = [...good.matchAll(/"(cells|source|cell_type|metadata|kernelspec|language|outputs)": /g)];
        const k = keys[Math.floor(rnd() * keys.length)];
        const json = JSON.parse(good);
        const path = k[1];
        const swap = JSON.parse(swaps[Math.floor(rnd() * swaps.length)]);
        if (path === 'cells') json.cells = swap;
        else if (path === 'metadata' || path === 'kernelspec' || path === 'language') json.metadata = path === 'metadata' ? swap : { kernelspec: path === 'kernelspec' ? swap : { language: swap } };
        else json.cells[Math.floor(rnd() * 2)][path] = swap;
        text = JSON.stringify(json);
      }
      const c = containerText('x.ipynb', text);
      assert.ok(c !== null);
      if ('reason' in c) {
        assert.match(c.reason, /^not a readable notebook: /);
        reasons++;
      } else read++;
      fingerprintText(text, 'x.ipynb', { minTokens: 1 });
    }
    assert.ok(reasons > 100 && read > 20, `${reasons} refused, ${read} read`);
  });

  describe('the container text and its line map', () => {
    const json = notebook([
      { cell_type: 'markdown', source: ['# Loading\n', '\n', 'We read the data.'] },
      { cell_type: 'code', source: 'import pandas as pd\ndf = pd.read_csv("a.csv")\n', outputs: [{ output_type: 'stream', text: ['OUTPUT-TEXT\n'] }] },
      { cell_type: 'raw', source: 'RAW-TEXT\n' },
      { cell_type: 'code', source: [] },
      { cell_type: 'code', source: ['print(df)'] },
    ]);
    const c = extracted(json);

    it('holds the code and Markdown cells with text, each ending in a line break; no outputs, raw cells or metadata', () => {
      assert.equal(c.text, '# Loading\n\nWe read the data.\nimport pandas as pd\ndf = pd.read_csv("a.csv")\nprint(df)\n');
      assert.ok(!c.text.includes('OUTPUT-TEXT') && !c.text.includes('RAW-TEXT') && !c.text.includes('kernelspec'));
      assert.equal(c.notebook, true);
      assert.deepEqual(c.parts.map((p) => [p.cell, p.startLine, p.endLine, p.lang.kind]), [[1, 1, 3, 'prose'], [2, 4, 5, 'code'], [5, 6, 6, 'code']]);
      for (const p of c.parts) assert.equal(c.text[p.endOffset - 1], '\n');
      assert.equal(c.parts[1].lang, languageOf('x.py'));
    });

    it('maps each line of the text to its cell and its line in the cell', () => {
      const lines = c.text.split('\n').slice(0, -1);
      const want = [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [5, 1]];
      assert.equal(lines.length, want.length);
      want.forEach(([cell, line], i) => assert.deepEqual(notebookLineOf(c, i + 1), { cell, line }, `line ${i + 1}`));
      assert.equal(notebookLineOf(c, 0), undefined);
      assert.equal(notebookLineOf(c, lines.length + 1), undefined);
      // Each mapped line is that line of the cell's source.
      const nb = parsed(json);
      lines.forEach((text, i) => {
        const at = notebookLineOf(c, i + 1)!;
        assert.equal(nb.cells[at.cell - 1].source.split('\n')[at.line - 1], text);
      });
    });

    it('code cells in the language the notebook names (unknown names: Python)', () => {
      assert.equal(cellLanguage('r'), languageOf('x.r'));
      assert.equal(cellLanguage('julia'), languageOf('x.jl'));
      assert.equal(cellLanguage('c++'), languageOf('x.cpp'));
      assert.equal(cellLanguage('rb'), languageOf('x.rb'));
      assert.equal(cellLanguage('klingon'), languageOf('x.py'));
      const r = extracted(notebook([{ cell_type: 'code', source: 'x <- 1' }], { kernelspec: { language: 'R' } }));
      assert.equal(r.parts[0].lang, languageOf('x.r'));
    });
  });

  describe('cell lines', () => {
    it('encode a cell and a line and decode back; out of range gives −1', () => {
      for (const [cell, line] of [[1, 1], [3, 17], [4095, CELL_LINE_STRIDE - 1]]) {
        const n = cellLine(cell, line);
        assert.ok(n > 0 && n <= 0xffffffff, 'fits a u32');
        assert.deepEqual(cellRange({ path: 'a/b.ipynb', startLine: n, endLine: n }), { cell, startLine: line, endLine: line });
      }
      assert.equal(cellLine(0, 1), -1);
      assert.equal(cellLine(4096, 1), -1);
      assert.equal(cellLine(1, 0), -1);
      assert.equal(cellLine(1, CELL_LINE_STRIDE), -1);
    });

    it('only a notebook path with cell lines reads as a cell; other locations stay as they are', () => {
      const n = cellLine(3, 2);
      assert.deepEqual(cellRange({ path: 'x.ts', startLine: n, endLine: n + 8 }), { startLine: n, endLine: n + 8 });
      assert.deepEqual(cellRange({ path: 'x.IPYNB', startLine: n, endLine: n + 8 }), { cell: 3, startLine: 2, endLine: 10 });
      assert.deepEqual(cellRange({ path: 'x.ipynb', startLine: 2, endLine: 10 }), { startLine: 2, endLine: 10 });
      const file = { path: 'x.ipynb' };
      assert.equal(withCell(file), file);
      assert.deepEqual(withCell({ path: 'x.ipynb', startLine: n, endLine: n + 8 }), { path: 'x.ipynb', startLine: 2, endLine: 10, cell: 3 });
      assert.equal(describeLines(cellRange({ path: 'x.ipynb', startLine: n, endLine: n + 8 })), 'cell 3, lines 2–10');
      assert.equal(describeLines(cellRange({ path: 'x.ipynb', startLine: n, endLine: n })), 'cell 3, line 2');
      assert.equal(describeLines({ startLine: 4, endLine: 9 }), 'lines 4–9');
      assert.equal(memberLabel({ path: 'x.ipynb', startLine: n, endLine: n + 8 }), 'x.ipynb:cell3:2-10');
      assert.equal(memberLabel({ path: 'x.py', startLine: 2, endLine: 10 }), 'x.py:2-10');
    });
  });

  describe('fingerprints', () => {
    const cells = (k: number, outputs: string): Cell[] => [
      { cell_type: 'markdown', source: '# Cleaning the rows\n\nEvery column is filled in, and strings are trimmed and lower-cased before the analysis starts.\n' },
      { cell_type: 'code', source: 'import json\nwith open("rows.json") as f:\n    rows = json.load(f)\n', outputs: [{ output_type: 'stream', text: [outputs] }] },
      { cell_type: 'code', source: pyFunction('normalise_rows', k).split(/(?<=\n)/) },
    ];

    it('outputs and metadata do not count; a change in a cell does', () => {
      const a = fingerprintText(notebook(cells(2, 'one output')), 'a.ipynb', { minTokens: 5 });
      const b = fingerprintText(notebook(cells(2, 'another output entirely, with many words in it'), { language_info: { name: 'python', version: '3.12' } }), 'b.ipynb', { minTokens: 5 });
      const c = fingerprintText(notebook(cells(3, 'one output')), 'c.ipynb', { minTokens: 5 });
      assert.ok(a.file && b.file && c.file);
      assert.deepEqual([a.file.hi, a.file.lo], [b.file.hi, b.file.lo]);
      assert.notDeepEqual([a.file.hi, a.file.lo], [c.file.hi, c.file.lo]);
    });

    it('sections lie in one cell each, their lines cell lines: the function cell and the Markdown cell', () => {
      const doc = fingerprintText(notebook(cells(2, 'x')), 'a.ipynb', { minTokens: 10 });
      const ranges = doc.sections.map((s) => cellRange({ path: 'a.ipynb', startLine: s.startLine, endLine: s.endLine }));
      const fnLines = pyFunction('f', 2).split('\n').length - 1;
      assert.ok(ranges.some((r) => r.cell === 3 && r.startLine === 1 && r.endLine === fnLines), JSON.stringify(ranges));
      assert.ok(ranges.some((r) => r.cell === 1 && r.startLine === 1 && r.endLine === 3), JSON.stringify(ranges));
      for (const r of ranges) assert.ok(r.cell !== undefined && r.startLine! >= 1 && r.endLine! >= r.startLine!, JSON.stringify(r));
    });

    it('the same function in two notebooks at different cells gives the same section fingerprint', () => {
      const one = fingerprintText(notebook(cells(2, 'x')), 'a.ipynb', { minTokens: 10 });
      const other = { cell_type: 'code', source: 'import csv\nwith open("rows.csv") as f:\n    rows = list(csv.DictReader(f))\nprint(len(rows), rows[0])\n' };
      const two = fingerprintText(notebook([other, ...cells(2, 'x').slice(2)]), 'b.ipynb', { minTokens: 10 });
      const fn = (d: typeof one, cell: number) => d.sections.find((s) => cellRange({ path: 'x.ipynb', startLine: s.startLine }).cell === cell && s.startLine % CELL_LINE_STRIDE === 1);
      const a = fn(one, 3);
      const b = fn(two, 2);
      assert.ok(a && b);
      assert.deepEqual([a.hi, a.lo, a.tokens], [b.hi, b.lo, b.tokens]);
    });

    it('Markdown cells are prose (words, no punctuation); code cells keep their punctuation', () => {
      const md = fingerprintText(notebook([{ cell_type: 'markdown', source: 'alpha, beta; gamma! (delta)' }]), 'a.ipynb', { minTokens: 1 });
      const code = fingerprintText(notebook([{ cell_type: 'code', source: 'alpha, beta; gamma! (delta)' }]), 'a.ipynb', { minTokens: 1 });
      assert.equal(md.file?.tokens, 4);
      assert.ok((code.file?.tokens ?? 0) > 4);
    });

    it('comments in the cell language are not fingerprinted; ignore markers work per cell', () => {
      const base = fingerprintText(notebook([{ cell_type: 'code', source: 'x = compute(1, 2)\nprint(x)\n' }]), 'a.ipynb', { minTokens: 1 });
      const commented = fingerprintText(notebook([{ cell_type: 'code', source: '# a comment\nx = compute(1, 2)  # why\nprint(x)\n' }]), 'a.ipynb', { minTokens: 1 });
      assert.deepEqual([commented.file?.hi, commented.file?.lo], [base.file?.hi, base.file?.lo]);
      const ignored = fingerprintText(notebook([{ cell_type: 'code', source: '# neardup-ignore-file\nx = 1\n' }]), 'a.ipynb', { minTokens: 1 });
      assert.equal(ignored.file, null);
      const region = fingerprintText(notebook([{ cell_type: 'code', source: 'x = compute(1, 2)\nprint(x)\n' }, { cell_type: 'code', source: '# neardup-ignore-start\ny = 2\n# neardup-ignore-end\n' }]), 'a.ipynb', { minTokens: 1 });
      assert.deepEqual([region.file?.hi, region.file?.lo], [base.file?.hi, base.file?.lo]);
    });
  });
});
