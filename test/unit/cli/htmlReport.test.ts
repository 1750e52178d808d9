import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS } from '../../../src/node/settings/engineSettings';
import { scanDirectory } from '../../../src/node/scan/scan';
import { htmlReport } from '../../../src/node/htmlReport/fromScan';
import { escapeHtml } from '../../../src/node/htmlReport/htmlPage';
import { codeFile, codeFunction, editLines, mulberry32, proseText } from '../helpers/corpus';
import { writeLocateFixture, type LocatedReport } from './locateFixture';

const DIST = path.join(__dirname, '..', '..', '..', 'dist');
const CLI = path.join(DIST, 'cli.js');
const WORKER = path.join(DIST, 'worker.js');

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Loc {
  path: string;
  startLine?: number;
  endLine?: number;
}
const where = (l: Loc) => (l.startLine === undefined ? l.path : `${l.path}:${l.startLine}-${l.endLine}`);

/** A name and a text that try to end the page's script or add markup. */
// A folder `x<` holding `script>…`: the path reads `evil/x</script><script>…`.
const HOSTILE_NAME = `x</script><script>alert("x")<&'`;
const HOSTILE_LINE = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>';

/** The inline scripts and styles of a page, and its CSP directives. */
function pageParts(html: string) {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(csp, 'a Content-Security-Policy meta tag');
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0], d.slice(1)] as const));
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attrs: m[1], body: m[2] }));
  const styles = [...html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)].map((m) => ({ attrs: m[1], body: m[2] }));
  return { directives, scripts, styles };
}

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('neardup scan --format html', function () {
  this.timeout(60000);
  let dir: string;

  before(() => {
    assert.ok(fs.existsSync(CLI) && fs.existsSync(path.join(DIST, 'overview.js')), 'dist/cli.js and dist/overview.js are built');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-html-'));
    const rnd = mulberry32(1414);
    const w = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    const code = codeFile(rnd, 8);
    w('src/alpha.ts', code);
    w('src/alpha-copy.ts', editLines(code, mulberry32(5), 0.05));
    const shared = codeFunction(rnd, 30);
    w('src/host1.ts', codeFile(rnd, 5) + '\n' + shared);
    w('src/host2.ts', shared + '\n' + codeFile(rnd, 5));
    const doc = proseText(rnd, 8);
    w('docs/guide.md', doc);
    w('docs/guide-old.md', editLines(doc, mulberry32(6), 0.05));
    // Hostile: a file name and lines of text that pair.
    const hostile = codeFile(mulberry32(9), 6).split('\n');
    hostile.splice(3, 0, `// ${HOSTILE_LINE}`);
    fs.mkdirSync(path.join(dir, 'evil', 'x<'), { recursive: true });
    w(`evil/${HOSTILE_NAME}.ts`, hostile.join('\n'));
    w('evil/twin.ts', hostile.join('\n').replace(HOSTILE_LINE, `${HOSTILE_LINE} & changed`));
    w('notes/unique.md', proseText(rnd, 4));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes one self-contained page: every group and every pair, side by side with the differing lines marked; no remote anything; scripts and style allowed by their hashes', () => {
    const json = run(['scan', dir, '--format', 'json', '--no-progress']);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { pairs: Array<{ a: Loc; b: Loc }>; groups: unknown[] };
    assert.ok(report.pairs.length >= 4, `pairs found: ${report.pairs.length}`);
    assert.ok(report.pairs.some((p) => p.a.path.startsWith('evil/') && p.b.path.startsWith('evil/')), 'the hostile files pair');
    const r = run(['scan', dir, '--format', 'html', '--no-progress']);
    assert.equal(r.code, 0, r.stderr);
    const html = r.stdout;
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    const { directives, scripts, styles } = pageParts(html);
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    // Three scripts: the data block (not run), the webview stand-in and the Overview's bundle.
    assert.equal(scripts.length, 3);
    assert.match(scripts[0].attrs, /type="application\/json"/);
    const run1 = scripts.filter((s) => !/type=/.test(s.attrs));
    assert.equal(run1.length, 2);
    assert.deepEqual(directives.get('script-src')?.sort(), run1.map((s) => hash(s.body)).sort());
    assert.equal(styles.length, 1);
    assert.deepEqual(directives.get('style-src'), [hash(styles[0].body)]);
    // The Overview's own script, inlined (without its source map comment).
    const bundle = fs.readFileSync(path.join(DIST, 'overview.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
    assert.equal(run1[1].body, bundle);
    // Nothing loaded: no src or href attribute, no url(), no remote address outside the SVG namespace.
    const markup = html.replace(/(<script[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
    assert.doesNotMatch(markup, /<[a-z][^>]*\s(src|href|srcset|action|formaction|poster|data|background)\s*=/i);
    assert.doesNotMatch(markup, /url\(|@import/);
    assert.deepEqual([...new Set(html.match(/https?:\/\/[^\s"'`)]+/g) ?? [])], ['http://www.w3.org/2000/svg']);
    // Every group; every pair with its side-by-side table; differing lines marked.
    assert.equal((html.match(/<details class="group"/g) ?? []).length, report.groups.length);
    const pairs = [...html.matchAll(/<div class="pair" id="p\d+" data-pair="([^"]*)">/g)].map((m) => m[1]);
    assert.deepEqual(pairs.sort(), report.pairs.map((p) => escapeHtml(`${where(p.a)} | ${where(p.b)}`)).sort());
    assert.equal((html.match(/<table class="sbs">/g) ?? []).length, report.pairs.length);
    assert.ok((html.match(/<tr class="(changed|left|right)">/g) ?? []).length > 0, 'differing lines are marked');
    // The data the Overview draws: relative paths only (the machine's folders stay out of the page).
    const data = JSON.parse(scripts[0].body) as { overview: { roots: Array<{ path: string; children: Array<{ name: string }> }> } };
    assert.equal(data.overview.roots.length, 1);
    assert.deepEqual(data.overview.roots[0].children.map((c) => c.name).sort(), ['docs', 'evil', 'notes', 'src']);
    assert.equal(html.split(dir).length - 1, 2, 'the folder as named on the command line appears in the title and the heading only');
  });

  it('escapes hostile file names and file text everywhere: no markup, no script end, the data block closed only once', () => {
    const html = run(['scan', dir, '--format', 'html', '--no-progress']).stdout;
    // The raw strings never appear; their escaped forms do (the name in the group, the pair and the table head).
    assert.ok(!html.includes(HOSTILE_NAME), 'raw name');
    assert.ok(!html.includes(HOSTILE_LINE), 'raw text');
    assert.ok(html.includes(escapeHtml(`evil/${HOSTILE_NAME}.ts`)));
    assert.ok(html.includes(escapeHtml(`// ${HOSTILE_LINE}`)));
    assert.equal((html.match(/<\/script>/g) ?? []).length, 3);
    assert.equal((html.match(/<script/g) ?? []).length, 3);
    assert.equal((html.match(/<img/g) ?? []).length, 0);
    assert.equal((html.match(/<!--/g) ?? []).length, 0);
    // In the JSON data block, '<' is \u003c and the name still parses back whole.
    const block = /<script type="application\/json" id="neardup-data">([\s\S]*?)<\/script>/.exec(html)![1];
    assert.ok(!block.includes('<'));
    const parsed = JSON.parse(block) as { anchors: Record<string, string> };
    assert.ok(Object.keys(parsed.anchors).includes(`evil/${HOSTILE_NAME}.ts`));
  });

  it('with --locate: the located pairs (with their clone kind) and the regions of file pairs are on the page, each pair side by side', () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-html-locate-'));
    try {
      writeLocateFixture(tree);
      const rnd = mulberry32(77);
      const fns = Array.from({ length: 8 }, () => codeFunction(rnd, 12));
      fs.writeFileSync(path.join(tree, 'whole-a.ts'), fns.join('\n'));
      fs.writeFileSync(path.join(tree, 'whole-c.ts'), [...fns.slice(0, 4), codeFunction(rnd, 12), ...fns.slice(5)].join('\n'));
      const j = JSON.parse(run(['scan', tree, '--format', 'json', '-q', '--locate']).stdout) as LocatedReport;
      const located = j.pairs.filter((p) => p.located);
      const withRegions = j.pairs.filter((p) => p.regions?.length);
      assert.ok(located.length > 0 && withRegions.length > 0, `located ${located.length}, with regions ${withRegions.length}`);
      const r = run(['scan', tree, '--format', 'html', '-q', '--locate']);
      assert.equal(r.code, 0, r.stderr);
      const html = r.stdout;
      assert.equal((html.match(/<details class="group"/g) ?? []).length, j.groups.length);
      assert.equal((html.match(/<table class="sbs">/g) ?? []).length, j.pairs.length);
      const block = (p: (typeof j.pairs)[number]) => {
        const at = html.indexOf(`data-pair="${escapeHtml(`${where(p.a)} | ${where(p.b)}`)}"`);
        assert.ok(at > 0, `${where(p.a)} | ${where(p.b)} on the page`);
        return html.slice(at, html.indexOf('</table>', at));
      };
      for (const p of located) assert.match(block(p), new RegExp(`· located, ${p.clone}</h4>`));
      for (const p of withRegions) {
        const b = block(p);
        for (const g of p.regions!) assert.ok(b.includes(`<li>lines ${g.a.startLine}–${g.a.endLine} ↔ ${g.b.startLine}–${g.b.endLine} (${g.clone}, `), `region ${JSON.stringify(g)}`);
      }
      assert.ok(j.groups.some((g) => g.located) && html.includes('sections, located'), 'a located group is named so');
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });

  it('a notebook section is shown by cell, with the lines of that cell (not the notebook\'s JSON)', () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-html-nb-'));
    try {
      const fn = [
        'def normalise_rows(rows, columns, fill_value=None):',
        '    """Return rows as dicts with every column present."""',
        '    result = []',
        '    for row in rows:',
        '        entry = {}',
        '        for column in columns:',
        '            value = row.get(column, fill_value)',
        '            if isinstance(value, str):',
        '                value = value.strip().lower()',
        '            entry[column] = value',
        '        result.append(entry)',
        '    return result',
      ];
      const nb = (cells: string[]) =>
        JSON.stringify({ cells: cells.map((c) => ({ cell_type: 'code', metadata: {}, outputs: [], execution_count: null, source: c.split(/(?<=\n)/) })), metadata: { kernelspec: { language: 'python', name: 'python3' } }, nbformat: 4, nbformat_minor: 5 }, null, 1);
      fs.writeFileSync(path.join(tree, 'a.ipynb'), nb(['import pandas as pd\nframe = pd.read_csv("answers.csv")\n', fn.join('\n') + '\n']));
      fs.writeFileSync(path.join(tree, 'b.ipynb'), nb(['import numpy as np\nvalues = np.arange(100)\nprint(values.sum())\n', 'x = 1\n', 'COLUMNS = ["id"]\n' + fn.join('\n').replace('.lower()', '.upper()') + '\n']));
      const j = JSON.parse(run(['scan', tree, '--format', 'json', '-q', '--min-tokens', '20']).stdout) as { pairs: Array<{ kind: string; a: Loc & { cell?: number }; b: Loc & { cell?: number } }> };
      const pair = j.pairs.find((p) => p.kind === 'section');
      assert.ok(pair && pair.a.cell !== undefined && pair.b.cell !== undefined, JSON.stringify(j.pairs));
      const html = run(['scan', tree, '--format', 'html', '-q', '--min-tokens', '20']).stdout;
      const label = (l: Loc & { cell?: number }) => `${l.path}:cell${l.cell}:${l.startLine}-${l.endLine}`;
      const at = html.indexOf(`data-pair="${label(pair.a)} | ${label(pair.b)}"`);
      assert.ok(at > 0, `the pair ${label(pair.a)} | ${label(pair.b)} on the page`);
      const table = html.slice(at, html.indexOf('</table>', at));
      assert.ok(table.includes(`<td class="l">${escapeHtml(fn[0])}</td>`) || table.includes(`<td class="r">${escapeHtml(fn[0])}</td>`), 'the cell\'s text');
      assert.ok(!table.includes('execution_count') && !table.includes('cell_type'), 'not the JSON');
      assert.match(table, /<tr class="changed"><td class="n">\d+<\/td><td class="l">.*lower\(\)<\/td><td class="n">\d+<\/td><td class="r">.*upper\(\)<\/td><\/tr>/);
      assert.doesNotMatch(html, /ipynb:\d{7,}/, 'no raw cell lines');
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });

  it('caps what it embeds and says so: the first pairs with text, the next listed, the rest counted in their groups', async () => {
    const result = await scanDirectory({ root: dir, settings: DEFAULT_ENGINE_SETTINGS, workers: 1, workerScript: WORKER, quiet: true });
    const n = result.pairs.length;
    assert.ok(n >= 4);
    const html = htmlReport(result, {
      title: 'capped',
      thresholds: { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 },
      overviewScript: '/* the Overview */',
      maxFileSizeBytes: DEFAULT_ENGINE_SETTINGS.maxFileSizeBytes,
      maxPairsWithText: 1,
      maxPairsListed: 2,
    });
    assert.equal((html.match(/<table class="sbs">/g) ?? []).length, 1);
    assert.equal((html.match(/<div class="pair"/g) ?? []).length, 2);
    assert.ok(html.includes(`1 of ${n} pairs are shown with their text (at most 1); 2 are listed, the other ${n - 2} counted in their groups.`));
    const counted = [...html.matchAll(/…and (\d+) more pairs? not listed\./g)].reduce((s, m) => s + Number(m[1]), 0);
    assert.equal(counted, n - 2);
    assert.equal((html.match(/<details class="group"/g) ?? []).length, result.groups.length, 'every group is still there');
  });

  it('a pair whose file changed since the scan is listed without text, saying why', async () => {
    const result = await scanDirectory({ root: dir, settings: DEFAULT_ENGINE_SETTINGS, workers: 1, workerScript: WORKER, quiet: true });
    const gone = result.pairs.find((p) => p.kind === 'file')!;
    const moved = path.join(dir, ...gone.a.path.split('/'));
    fs.renameSync(moved, `${moved}.away`);
    try {
      const html = htmlReport(result, { title: 't', thresholds: { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 }, overviewScript: '', maxFileSizeBytes: 1 << 20 });
      const at = html.indexOf(`data-pair="${escapeHtml(`${where(gone.a)} | ${where(gone.b)}`)}"`);
      assert.ok(at > 0);
      const block = html.slice(at, html.indexOf('</div>', at));
      assert.ok(!block.includes('<table'));
      assert.ok(block.includes('The text could not be read again'));
    } finally {
      fs.renameSync(`${moved}.away`, moved);
    }
  });
});
