// The CLI on notebooks and components (dist/cli.js): near-duplicate cells found across notebooks
// (and a Python file), reported by cell and line in the text, JSON, SARIF and Markdown formats;
// a function copied between a Vue and a Svelte file reported at its lines in each file; broken
// notebooks skipped with their reason. Expected places are read from the files written, not typed in.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { runCli } from '../helpers/cli';

interface Side {
  path: string;
  startLine?: number;
  endLine?: number;
  cell?: number;
}
interface JsonReport {
  pairs: Array<{ kind: string; a: Side; b: Side; distance: number }>;
  groups: Array<{ kind: string; members: string[] }>;
}

const NORMALISE = `def normalise_rows(rows, columns, fill_value=None):
    """Return rows as dicts with every column present."""
    result = []
    for row in rows:
        entry = {}
        for column in columns:
            value = row.get(column, fill_value)
            if isinstance(value, str):
                value = value.strip().lower()
            entry[column] = value
        result.append(entry)
    return result
`;
const TOTAL = `function totalPrice(list, discount) {
  let sum = 0;
  for (const entry of list) {
    if (entry.quantity <= 0) continue;
    sum += entry.price * entry.quantity;
  }
  const reduced = sum - sum * discount;
  return Math.round(reduced * 100) / 100;
}
`;

type Cell = { cell_type: string; source: string | string[]; outputs?: object[] };
const notebook = (cells: Cell[]): string =>
  JSON.stringify({ cells: cells.map((c) => ({ metadata: {}, ...(c.cell_type === 'code' ? { outputs: [], execution_count: null } : {}), ...c })), metadata: { kernelspec: { language: 'python', name: 'python3' } }, nbformat: 4, nbformat_minor: 5 }, null, 1);

const A_CELLS: Cell[] = [
  { cell_type: 'markdown', source: '# Survey\n\nWe read the survey answers from the export and drop the rows without an identifier.\n' },
  { cell_type: 'code', source: 'import pandas as pd\nframe = pd.read_csv("answers.csv")\nframe = frame.dropna(subset=["id"])\nprint(frame.describe())\n', outputs: [{ output_type: 'stream', name: 'stdout', text: ['count 10\n'] }] },
  { cell_type: 'code', source: NORMALISE.split(/(?<=\n)/) },
];
const B_CELLS: Cell[] = [
  { cell_type: 'code', source: 'import numpy as np\nvalues = np.arange(100).reshape(10, 10)\nprint(values.sum(axis=0), values.mean())\nprint(np.linalg.norm(values))\n' },
  { cell_type: 'raw', source: 'not read' },
  // The same function, lightly edited, one cell later and below another line.
  { cell_type: 'code', source: 'COLUMNS = ["id", "name", "city"]\n' + NORMALISE.replace('.lower()', '.upper()') },
];

/** The lines of cell `cell` (1-based) of notebook `cells`. */
const cellLines = (cells: Cell[], cell: number): string[] => {
  const s = cells[cell - 1].source;
  return (typeof s === 'string' ? s : s.join('')).replace(/\n$/, '').split('\n');
};

describe('neardup scan on notebooks and Vue / Svelte components (CLI)', function () {
  this.timeout(120000);
  let dir: string;
  const files: Record<string, string> = {};
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-containers-'));
    files['nb/a.ipynb'] = notebook(A_CELLS);
    files['nb/b.ipynb'] = notebook(B_CELLS);
    files['nb/broken.ipynb'] = '{"cells": [{"cell_type": "code", "source": "x = 1"';
    files['nb/nocells.ipynb'] = '{"metadata": {}, "nbformat": 4}';
    files['ui/List.vue'] = `<template>\n  <ul class="list">\n    <li v-for="item in items" :key="item.id">{{ item.name }}</li>\n  </ul>\n</template>\n\n<script setup>\nimport { computed, ref } from 'vue';\nconst items = ref([]);\n\n${TOTAL}\nconst total = computed(() => totalPrice(items.value, 0.1));\n</script>\n\n<style scoped lang="scss">\n.list { margin: 0; }\n</style>\n`;
    files['ui/Cart.svelte'] = `<script>\n  export let name;\n  export let cart = [];\n\n${TOTAL.replace(/^(?=.)/gm, '  ')}</script>\n\n<h1>Hello {name}!</h1>\n<p>Total: {totalPrice(cart, 0)}</p>\n\n<style>\n  h1 { color: purple; }\n</style>\n`;
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const scan = (...args: string[]) => runCli(['scan', dir, '--min-tokens', '20', '--no-progress', ...args]);
  const json = (): JsonReport => {
    const r = scan('--format', 'json', '-q');
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as JsonReport;
  };
  /** The text of a side: the lines of its cell, or of its file. */
  const textOf = (side: Side): string[] => {
    if (side.cell !== undefined) {
      const cells = side.path.endsWith('a.ipynb') ? A_CELLS : B_CELLS;
      return cellLines(cells, side.cell).slice(side.startLine! - 1, side.endLine);
    }
    return files[side.path].split('\n').slice(side.startLine! - 1, side.endLine);
  };
  const notebookPair = (j: JsonReport) => j.pairs.find((p) => p.kind === 'section' && p.a.path.endsWith('.ipynb') && p.b.path.endsWith('.ipynb'));

  it('JSON: the copied function cells, each side with its cell and lines inside that cell', () => {
    const pair = notebookPair(json());
    assert.ok(pair, 'a section pair between the notebooks');
    const sides = [pair.a, pair.b].sort((x, y) => x.path.localeCompare(y.path));
    assert.deepEqual(sides.map((s) => [s.path, s.cell]), [['nb/a.ipynb', 3], ['nb/b.ipynb', 3]]);
    for (const s of sides) {
      assert.ok(s.startLine! >= 1 && s.endLine! >= s.startLine!, JSON.stringify(s));
      const lines = textOf(s);
      assert.equal(lines.length, s.endLine! - s.startLine! + 1, `the lines exist in cell ${s.cell}: ${JSON.stringify(s)}`);
      assert.ok(lines.some((l) => l.startsWith('def normalise_rows')) && lines.some((l) => l.includes('return result')), lines.join('\n'));
    }
    // Group members name the cell.
    const group = json().groups.find((g) => g.members.some((m) => m.startsWith('nb/a.ipynb')));
    assert.ok(group && group.members.every((m) => /^nb\/[ab]\.ipynb:cell\d+:\d+-\d+$/.test(m)), JSON.stringify(group));
  });

  it('text: "nb.ipynb cell 3, lines 1–13", the same places as the JSON', () => {
    const pair = notebookPair(json())!;
    const r = scan('-q');
    assert.equal(r.code, 0, r.stderr);
    for (const s of [pair.a, pair.b]) {
      const want = s.startLine === s.endLine ? `${s.path} cell ${s.cell}, line ${s.startLine}` : `${s.path} cell ${s.cell}, lines ${s.startLine}–${s.endLine}`;
      assert.ok(r.stdout.includes(want), `${want} in\n${r.stdout}`);
    }
    assert.ok(!/ipynb:\d{7,}/.test(r.stdout), 'no raw cell lines');
  });

  it('SARIF: schema-valid; a notebook side has the cell and its lines in its properties, no line region; Markdown names the cell', () => {
    const r = scan('--format', 'sarif', '-q');
    assert.equal(r.code, 0, r.stderr);
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    const log = JSON.parse(r.stdout) as { runs: Array<{ results: unknown[] }> };
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    type Phys = { artifactLocation: { uri: string }; region?: object; properties?: { cell: number; startLine: number; endLine: number } };
    const results = log.runs[0].results as Array<{ locations: Array<{ physicalLocation: Phys }>; message: { text: string } }>;
    const nb = results.find((x) => x.locations[0].physicalLocation.artifactLocation.uri.endsWith('.ipynb'));
    assert.ok(nb);
    const p = nb.locations[0].physicalLocation;
    assert.equal(p.region, undefined);
    assert.equal(p.properties!.cell, 3);
    assert.match(nb.message.text, /ipynb cell 3, lines \d+–\d+/);
    const md = scan('--format', 'markdown', '-q');
    assert.match(md.stdout, /`nb\/[ab]\.ipynb` cell 3, lines \d+–\d+/);
  });

  it('a notebook cell and a Python file with the same function pair up, each at its place', () => {
    const extra = path.join(dir, 'lib', 'rows.py');
    fs.mkdirSync(path.dirname(extra), { recursive: true });
    files['lib/rows.py'] = `import csv\n\n\n${NORMALISE}\n\ndef read_rows(name):\n    with open(name) as f:\n        return list(csv.DictReader(f))\n`;
    fs.writeFileSync(extra, files['lib/rows.py']);
    try {
      const pair = json().pairs.find((p) => p.kind === 'section' && [p.a.path, p.b.path].includes('lib/rows.py') && [p.a.path, p.b.path].includes('nb/a.ipynb'));
      assert.ok(pair, 'a pair between the .py file and notebook a');
      const py = pair.a.path === 'lib/rows.py' ? pair.a : pair.b;
      assert.equal(py.cell, undefined);
      assert.ok(textOf(py)[0].startsWith('def normalise_rows'), textOf(py).join('\n'));
    } finally {
      fs.rmSync(extra);
      delete files['lib/rows.py'];
    }
  });

  it('Vue and Svelte: the copied function at its own lines of each file', () => {
    const pair = json().pairs.find((p) => p.kind === 'section' && p.a.path.startsWith('ui/') && p.b.path.startsWith('ui/'));
    assert.ok(pair, 'a section pair between the components');
    for (const s of [pair.a, pair.b]) {
      assert.equal(s.cell, undefined);
      const lines = textOf(s);
      assert.ok(lines.some((l) => l.includes('function totalPrice')) && lines.some((l) => l.includes('Math.round')), `${s.path}: ${lines.join('\n')}`);
      // No template or style lines in it.
      assert.ok(!lines.some((l) => /<\/?(template|style|ul|h1)\b/.test(l)), lines.join('\n'));
    }
  });

  it('broken notebooks: one line each on stderr with the reason, exit code 0, the rest still scanned', () => {
    const r = scan();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skipped nb\/broken\.ipynb: not a readable notebook: invalid JSON/);
    assert.match(r.stderr, /skipped nb\/nocells\.ipynb: not a readable notebook: no "cells" list/);
    assert.match(r.stdout, /ipynb cell 3/);
  });
});
