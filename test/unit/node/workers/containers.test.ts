// Container files in the worker (src/node/workers/fingerprintFile.ts): a notebook read as its
// cells (readDocumentSync, the --locate re-read: the text and the map back to cells), a broken
// notebook skipped with its reason, the checks (minified, ignore markers) on the text that is
// fingerprinted; and the kernels' path gives what the TypeScript gives on notebooks, Vue and
// Svelte files (containers are tokenised part by part in TypeScript either way; a kernel hashes
// the tokens, fingerprintTokens).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { notebookLineOf } from '../../../../src/core/containers/container';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { IGNORE_FILE_REASON } from '../../../../src/core/text/ignoreMarkers';
import type { CodeKernel, DocumentFingerprint } from '../../../../src/core/types';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { fingerprintDecoded, readDocumentSync, readTextSync } from '../../../../src/node/workers/fingerprintFile';
import { KERNELS } from './kernelsUnderTest';
import { mulberry32 } from '../../helpers/corpus';

const settings = { ...DEFAULT_ENGINE_SETTINGS, minTokens: 10 };
const notebook = (cells: Array<{ cell_type: string; source: string | string[]; outputs?: object[] }>, language = 'python'): string =>
  JSON.stringify({ cells: cells.map((c) => ({ metadata: {}, ...c })), metadata: { kernelspec: { language, name: language } }, nbformat: 4, nbformat_minor: 5 }, null, 1);

const FUNCTION = 'def total(rows, key):\n    out = 0\n    for row in rows:\n        if row.get(key) is not None:\n            out += row[key] * 2\n    return out\n';
const NOTEBOOK = notebook([
  { cell_type: 'markdown', source: ['# Totals\n', '\n', 'Sums one column of the rows, skipping the rows that lack it.'] },
  { cell_type: 'code', source: FUNCTION.split(/(?<=\n)/), outputs: [{ output_type: 'display_data', data: { 'image/png': 'iVBOR'.repeat(20000) } }] },
  { cell_type: 'raw', source: 'raw' },
  { cell_type: 'code', source: 'rows = [{"a": 1}, {"a": 2}, {"b": 3}]\nprint(total(rows, "a"))\n' },
]);

describe('container files in the worker', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-containers-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return { path: path.join(dir, name), relPath: name };
  };

  it('readDocumentSync: a notebook gives its cells and the map back to (cell, line); readTextSync still gives the JSON', () => {
    const f = file('totals.ipynb', NOTEBOOK);
    const read = readDocumentSync(f, settings);
    assert.ok(!('reason' in read), 'reason' in read ? read.reason : '');
    assert.equal(read.bytes, Buffer.byteLength(NOTEBOOK));
    assert.ok(read.container && read.container.notebook);
    assert.equal(read.text, read.container.text);
    assert.ok(!read.text.includes('iVBOR') && !read.text.includes('"cell_type"'));
    const lines = read.text.split('\n');
    const at = lines.indexOf('            out += row[key] * 2');
    assert.deepEqual(notebookLineOf(read.container, at + 1), { cell: 2, line: 5 });
    assert.deepEqual(notebookLineOf(read.container, lines.indexOf('print(total(rows, "a"))') + 1), { cell: 4, line: 2 });
    const raw = readTextSync(f, settings);
    assert.ok(!('reason' in raw) && raw.text === NOTEBOOK);
  });

  it('readDocumentSync: a component keeps its text (with its parts); other files as readTextSync reads them', () => {
    const vue = '<template><p>x</p></template>\n<script>\nexport default {};\n</script>\n';
    const read = readDocumentSync(file('A.vue', vue), settings);
    assert.ok(!('reason' in read) && read.text === vue && read.container && !read.container.notebook && read.container.parts.length === 2);
    const ts = readDocumentSync(file('a.ts', 'export const x = 1;\n'), settings);
    assert.ok(!('reason' in ts) && ts.container === undefined);
  });

  it('a broken notebook is skipped with a clear reason (read and fingerprint), never thrown', () => {
    for (const [name, text, reason] of [
      ['broken.ipynb', '{"cells": [', /^not a readable notebook: invalid JSON/],
      ['list.ipynb', '[]', /^not a readable notebook: the JSON is not an object$/],
      ['nocells.ipynb', '{"metadata": {}}', /no "cells" list/],
      ['badcell.ipynb', '{"cells": [{"cell_type": "code", "source": {"x": 1}}]}', /cell 1's source/],
    ] as const) {
      const f = file(name, text);
      const read = readDocumentSync(f, settings);
      assert.ok('reason' in read && reason.test(read.reason), `${name}: ${JSON.stringify(read)}`);
      const out = fingerprintDecoded(name, text, text.length, 'utf-8', settings);
      assert.ok(!out.ok && reason.test(out.reason), `${name}: ${JSON.stringify(out)}`);
    }
  });

  it('an image in the outputs does not make a notebook "minified"; a minified cell does; neardup-ignore-file in the first cell skips it', () => {
    const ok = fingerprintDecoded('totals.ipynb', NOTEBOOK, NOTEBOOK.length, 'utf-8', settings);
    assert.ok(ok.ok, ok.ok ? '' : ok.reason);
    assert.ok(ok.doc.file && ok.doc.sections.length >= 1);
    const long = notebook([{ cell_type: 'code', source: `x = [${'1, '.repeat(20000)}]` }]);
    const minified = fingerprintDecoded('long.ipynb', long, long.length, 'utf-8', settings);
    assert.ok(!minified.ok && /minified/.test(minified.reason));
    const marked = notebook([{ cell_type: 'code', source: '# neardup-ignore-file\n' + FUNCTION }]);
    const ignored = fingerprintDecoded('marked.ipynb', marked, marked.length, 'utf-8', settings);
    assert.ok(!ignored.ok && ignored.reason === IGNORE_FILE_REASON);
    // In the JSON the marker is on line 1 of the cell text, not of the file: what counts is the cell.
    const late = notebook([{ cell_type: 'code', source: FUNCTION.repeat(3) + '# neardup-ignore-file\n' }]);
    assert.ok(fingerprintDecoded('late.ipynb', late, late.length, 'utf-8', settings).ok, 'a marker after the first 10 lines does not count');
  });

  for (const under of KERNELS) describe(`the ${under.name} kernel gives what the TypeScript gives on containers`, function () {
    let kernel: CodeKernel | undefined;
    before(function () {
      kernel = under.kernel();
      if (!kernel) this.skip();
    });
    const canon = (d: DocumentFingerprint) => JSON.stringify(d, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
    const OPTIONS: FingerprintOptions[] = [{}, { minTokens: 5 }, { minTokens: 1, shingleSize: 1 }, { sections: false }, { weighting: 'tf', minTokens: 5 }, { normalizeIdentifiers: true, minTokens: 5 }];

    it('on notebooks, Vue and Svelte files of random cells and blocks, every option set', () => {
      const rnd = mulberry32(20261125);
      const code = [FUNCTION, 'import os\nprint(os.listdir("."))  # list\n', 'for i in range(10):\n    print(i * i)\n', 'class A:\n    def f(self):\n        return 1\n'];
      const prose = ['# Title\n\nSome words about the data.', '数据清洗：删除缺失值，然后计算平均数。', 'A list:\n- one\n- two'];
      const scripts = ['export function f(a, b) {\n  // sum\n  return a + b;\n}\n', 'const x = ref(0); /* counter */\nwatch(x, (v) => console.log(v));\n'];
      let compared = 0;
      for (let i = 0; i < 40; i++) {
        const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
        const cells = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => (rnd() < 0.6 ? { cell_type: 'code', source: pick(code) } : rnd() < 0.8 ? { cell_type: 'markdown', source: pick(prose).split(/(?<=\n)/) } : { cell_type: 'raw', source: 'raw' }));
        const nb = notebook(cells, rnd() < 0.8 ? 'python' : 'r');
        const sfc = `<template>\n  <div>{{ x }}</div>\n</template>\n<script${rnd() < 0.5 ? ' setup lang="ts"' : ''}>\n${pick(scripts)}${pick(scripts)}</script>\n<style${rnd() < 0.5 ? ' lang="scss"' : ''}>\n.a { color: red; } // note\n</style>\n`;
        for (const [text, name] of [[nb, 'n.ipynb'], [sfc, 'C.vue'], [sfc.replace('<template>\n', '').replace('</template>\n', ''), 'C.svelte']]) {
          for (const options of OPTIONS) {
            const ts = canon(fingerprintText(text, name, options));
            assert.equal(canon(fingerprintText(text, name, { ...options, kernel: kernel! })), ts, `${name} ${JSON.stringify(options)}`);
            compared++;
          }
        }
      }
      assert.equal(compared, 40 * 3 * OPTIONS.length);
    });

    it('through fingerprintDecoded, with and without the kernel in this thread: the same fingerprints', () => {
      const out = fingerprintDecoded('totals.ipynb', NOTEBOOK, NOTEBOOK.length, 'utf-8', settings);
      assert.ok(out.ok);
      const ts = fingerprintText(NOTEBOOK, 'totals.ipynb', { minTokens: settings.minTokens, fold: undefined });
      assert.equal(canon(out.doc), canon(ts));
    });
  });
});
