// `neardup scan --locate` on notebooks and Vue components: two paragraphs pasted into a notebook's
// Markdown cell among others are located by cell and lines (not by lines of the notebook's JSON),
// and a function pasted into a Vue component's script with `//` comments around it by the
// component's lines.
// Expected places are read from the files written, not typed in.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';

interface Side {
  path: string;
  startLine?: number;
  endLine?: number;
  cell?: number;
}
interface JsonReport {
  pairs: Array<{ kind: string; a: Side; b: Side; located?: boolean; clone?: string }>;
}

const PASTED = `Before a release, the build server signs every archive with the team key and uploads the signature next to it, so that mirrors can serve the files without being trusted themselves.

A user who downloads an archive checks the signature against the published key; a mismatch means the file was changed on its way and must not be installed, whatever the mirror says about it.`;

/** Paragraphs of their own on each side (no two alike). */
const NOTES = [
  'We met the orchard owners on Tuesday; the pear trees along the north wall lost most of their blossom to the late frost, and the cider press will stand idle this autumn.',
  'Soil samples from the lower terraces came back rich in clay. Drainage ditches dug by hand in the 1950s still carry the winter rain towards the stream below the mill.',
  'Ledgers of every harvest since 1872 are kept in the village archive, written in three different hands, with the weather of each week noted in the margin beside the yields.',
  'Next spring the students will graft old local varieties onto young rootstock in the nursery, label each tree with its parent, and map the rows for the archive.',
];
const RELEASE = [
  'Version numbers follow the calendar: the year, the month and a counter for fixes made within that month, so that anyone can tell at a glance how old a build is.',
  'Each release branch is cut from main on the first Monday of the month and receives only fixes; features wait for the next cut, however small they look.',
  'The changelog is written by hand from the merged pull requests. Entries name the user-visible change first and the internal reason, if any, after it.',
];

const MARKDOWN_CELL = `# Field notes\n\n${NOTES[0]}\n\n${NOTES[1]}\n\n${PASTED}\n\n${NOTES[2]}\n\n${NOTES[3]}\n`;

const TS_FUNCTION = `export function chunkBySize<T>(items: readonly T[], size: number): T[][] {
  if (size <= 0) throw new RangeError('size must be positive');
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    chunks.push(items.slice(index, index + size));
  }
  return chunks;
}`;

const notebook = (cells: Array<{ type: 'code' | 'markdown'; source: string }>): string =>
  JSON.stringify(
    {
      cells: cells.map((c) => (c.type === 'code' ? { cell_type: 'code', metadata: {}, outputs: [], execution_count: null, source: c.source } : { cell_type: 'markdown', metadata: {}, source: c.source })),
      metadata: { kernelspec: { language: 'python', name: 'python3' } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  );

/** 1-based line of the first line of `needle` in `text`. */
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('neardup scan --locate on notebooks and components', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-containers-'));
    fs.mkdirSync(path.join(dir, 'nb'));
    fs.mkdirSync(path.join(dir, 'ui'));
    // Two paragraphs pasted into the Markdown cell (the second) of a notebook, among others…
    fs.writeFileSync(path.join(dir, 'nb', 'analysis.ipynb'), notebook([{ type: 'code', source: 'import math\nprint(math.pi * 2)\n' }, { type: 'markdown', source: MARKDOWN_CELL }]));
    // …and in a document, among unrelated paragraphs.
    fs.writeFileSync(path.join(dir, 'release.md'), `# Releases\n\n${RELEASE[0]}\n\n${RELEASE[1]}\n\n${PASTED}\n\n${RELEASE[2]}\n`);
    // A TypeScript function pasted into a Vue component's script, with // and /* */ comments around it.
    fs.writeFileSync(
      path.join(dir, 'ui', 'Table.vue'),
      `<template>\n  <table><tr v-for="row in rows" :key="row.id"><td>{{ row.name }}</td></tr></table>\n</template>\n\n<script setup lang="ts">\nimport { ref } from 'vue';\n// rows shown, a page at a time\nconst rows = ref<Array<{ id: number; name: string }>>([]);\n/* paging helper, copied from utils */\n${TS_FUNCTION}\n// the current page\nconst page = ref(0);\n</script>\n`,
    );
    fs.writeFileSync(path.join(dir, 'ui', 'utils.ts'), `export const VERSION = '1.0.0';\n\nexport function isBlank(value: string): boolean {\n  return value.trim().length === 0;\n}\n\n${TS_FUNCTION}\n`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('locates paragraphs pasted into a notebook cell by cell and lines, and a function pasted into a component by its lines', () => {
    const r = runCli(['scan', dir, '--format', 'json', '-q', '--locate']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as JsonReport;
    const between = (x: string, y: string) => j.pairs.filter((p) => (p.a.path === x && p.b.path === y) || (p.a.path === y && p.b.path === x));
    const side = (p: JsonReport['pairs'][number], file: string) => (p.a.path === file ? p.a : p.b);

    const nbPairs = between('nb/analysis.ipynb', 'release.md');
    assert.equal(nbPairs.length, 1, JSON.stringify(j.pairs));
    assert.equal(nbPairs[0].located, true);
    const nb = side(nbPairs[0], 'nb/analysis.ipynb');
    const first = lineOf(MARKDOWN_CELL, PASTED.slice(0, 40));
    const last = first + PASTED.split('\n').length - 1;
    assert.equal(nb.cell, 2, JSON.stringify(nb));
    assert.ok(Math.abs(nb.startLine! - first) <= 1 && Math.abs(nb.endLine! - last) <= 1, `${JSON.stringify(nbPairs[0])}: lines ${first}–${last} of cell 2`);
    const md = side(nbPairs[0], 'release.md');
    const mdText = fs.readFileSync(path.join(dir, 'release.md'), 'utf8');
    const mdFirst = lineOf(mdText, PASTED.slice(0, 40));
    assert.ok(Math.abs(md.startLine! - mdFirst) <= 1 && Math.abs(md.endLine! - (mdFirst + PASTED.split('\n').length - 1)) <= 1, JSON.stringify(md));
    assert.equal(md.cell, undefined);

    const uiPairs = between('ui/Table.vue', 'ui/utils.ts');
    assert.equal(uiPairs.length, 1, JSON.stringify(j.pairs));
    assert.equal(uiPairs[0].clone, 'exact');
    const vue = side(uiPairs[0], 'ui/Table.vue');
    const vueText = fs.readFileSync(path.join(dir, 'ui', 'Table.vue'), 'utf8');
    const vueFirst = lineOf(vueText, 'export function chunkBySize');
    assert.deepEqual([vue.startLine, vue.endLine], [vueFirst, vueFirst + TS_FUNCTION.split('\n').length - 1], 'the comments around the copy are comments, not code');
  });

  it('the text format names the notebook cell of a located copy', () => {
    const r = runCli(['scan', dir, '-q', '--locate']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /places of a located copy[^\n]*\n(?:[^\n]*\n)?\s+nb\/analysis\.ipynb cell 2, lines \d+–\d+/, r.stdout);
  });
});
