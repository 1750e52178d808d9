/**
 * The plain JSON report of `neardup scan --no-locate` must not change when the scan is made faster (issue 16): the
 * byte-exact text of the CLI's JSON, on the fixture workspace (kept in full under
 * test/fixtures/golden/) and on a generated tree big enough for the scan's parallel paths (many
 * batches, both workers, Chinese files sent to the worker that loads jieba, files matched in a
 * worker while the sections are matched on the main thread), kept as the SHA-256 of its text.
 * `elapsedMs` and the root (a temporary folder) are masked. One worker and the default give the
 * same bytes.
 *
 * When a change is MEANT to change the report, record the new texts with
 * NEARDUP_RECORD_GOLDEN=1 (and say why in the commit); otherwise a difference is a bug. On a
 * difference, the new text is written beside the system's temporary files for a diff.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chineseText, codeFile, codeFunction, editLines, mulberry32, proseText } from '../helpers/corpus';

const REPO = path.join(__dirname, '..', '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const GOLDEN = path.join(REPO, 'test', 'fixtures', 'golden');
const RECORD = process.env.NEARDUP_RECORD_GOLDEN === '1';

/** The CLI's plain JSON text (SimHash pairs: --no-locate) with the root and the elapsed time masked. */
function scanJson(root: string, extra: string[] = []): string {
  const r = spawnSync(process.execPath, [CLI, 'scan', root, '--format', 'json', '--quiet', '--no-config', '--no-locate', ...extra], { encoding: 'utf8', timeout: 120000, maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.replace(/"elapsedMs": ?\d+/, '"elapsedMs": 0').split(JSON.stringify(root).slice(1, -1)).join('<root>');
}

function compare(name: string, text: string, stored: 'text' | 'sha256'): void {
  const file = path.join(GOLDEN, stored === 'text' ? `${name}.json` : `${name}.sha256`);
  const value = stored === 'text' ? text : `${createHash('sha256').update(text).digest('hex')}\n`;
  if (RECORD) {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(file, value);
    return;
  }
  const want = fs.readFileSync(file, 'utf8');
  if (want !== value) {
    const out = path.join(os.tmpdir(), `neardup-golden-${name}.json`);
    fs.writeFileSync(out, text);
    assert.fail(`the JSON report of ${name} changed (new text: ${out}; record with NEARDUP_RECORD_GOLDEN=1 only if the change is meant)`);
  }
}

/**
 * ~700 files: code with edited copies and shared functions, English prose with edited copies,
 * Chinese documents (some Traditional), and unrelated files; in nested folders.
 */
function writeTree(root: string): void {
  const rnd = mulberry32(1616);
  const w = (rel: string, text: string) => {
    const f = path.join(root, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  };
  const shared = Array.from({ length: 12 }, () => codeFunction(rnd, 25));
  for (let i = 0; i < 420; i++) {
    const dir = `pkg${i % 7}/src/${i % 3 === 0 ? 'lib' : 'util'}`;
    let text = codeFile(rnd, 3 + (i % 5));
    if (i % 4 === 0) text += '\n' + shared[i % shared.length];
    w(`${dir}/m${i}.${i % 2 ? 'ts' : 'js'}`, text);
    if (i % 9 === 0) w(`${dir}/m${i}-copy.${i % 2 ? 'ts' : 'js'}`, editLines(text, mulberry32(i), 0.04));
  }
  for (let i = 0; i < 160; i++) {
    const text = proseText(rnd, 3 + (i % 6));
    w(`docs/d${i % 5}/note${i}.md`, text);
    if (i % 7 === 0) w(`docs/d${i % 5}/note${i}-old.md`, editLines(text, mulberry32(500 + i), 0.05));
  }
  for (let i = 0; i < 40; i++) {
    const text = chineseText(rnd, 2 + (i % 4));
    w(`docs/zh/z${i}.md`, text);
    if (i % 5 === 0) w(`docs/zh/z${i}-副本.md`, editLines(text, mulberry32(900 + i), 0.05));
  }
}

describe('scan JSON report: byte-identical (golden)', function () {
  this.timeout(180000);
  let tree: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm test builds it first)');
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-golden-'));
    writeTree(tree);
  });
  after(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('the fixture workspace: the same text as recorded, with one worker and the default', () => {
    const root = path.join(REPO, 'test', 'fixtures', 'workspace');
    const text = scanJson(root);
    assert.ok(JSON.parse(text).pairs.length > 0, 'the fixtures have pairs');
    compare('workspace.scan', text, 'text');
    assert.equal(scanJson(root, ['--workers', '1']), text);
  });

  it('a generated tree of ~700 files (parallel paths): the same text as recorded, with one worker, two and three', () => {
    const text = scanJson(tree);
    const report = JSON.parse(text) as { stats: { files: number }; pairs: Array<{ kind: string }> };
    assert.ok(report.stats.files > 600, `${report.stats.files} files`);
    assert.ok(report.pairs.some((p) => p.kind === 'file') && report.pairs.some((p) => p.kind === 'section'), 'file and section pairs');
    compare('generated.scan', text, 'sha256');
    assert.equal(scanJson(tree, ['--workers', '1']), text);
    assert.equal(scanJson(tree, ['--workers', '2']), text);
    assert.equal(scanJson(tree, ['--workers', '3']), text);
  });
});
