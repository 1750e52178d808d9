/**
 * The huge pages of the native addon's region documents (native/hugepages.c, regionblocks.c): a
 * scan's first region blocks are a trial of huge and 4 KB pages whose cheaper kind is the verdict
 * for the rest; NEARDUP_HUGE_PAGES=0 or 1 decides instead. Driven through the CLI (its trace says
 * what the addon decided), on a tree whose region documents pass the trial's 2 × 8 MB; the report
 * is the same whatever the pages.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../helpers/cli';

/** ~10 MB of JavaScript in 40 files, no two alike (a seeded generator): ~30 MB of region documents. */
function writeTree(dir: string): void {
  let seed = 0x9e3779b9;
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const word = (): string => {
    let w = '';
    for (let i = 0, n = 3 + Math.floor(next() * 8); i < n; i++) w += String.fromCharCode(97 + Math.floor(next() * 26));
    return w;
  };
  for (let f = 0; f < 40; f++) {
    const lines: string[] = [];
    while (lines.length < 9000) {
      const name = word();
      lines.push(`function ${name}(${word()}, ${word()}) {`);
      for (let i = 0, n = 2 + Math.floor(next() * 6); i < n; i++) lines.push(`  const ${word()} = ${word()}.${word()}(${Math.floor(next() * 1e6)}, '${word()}') + ${word()};`);
      lines.push(`  return ${word()};`, '}');
    }
    fs.writeFileSync(path.join(dir, `f${f}.js`), lines.join('\n') + '\n');
  }
}

/** The trace's huge pages line of a default scan of `dir` (NEARDUP_HUGE_PAGES as given), and its report without the time. */
function scan(dir: string, forced?: '0' | '1'): { pages: string; report: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NEARDUP_TRACE: '1' };
  delete env.NEARDUP_HUGE_PAGES;
  if (forced) env.NEARDUP_HUGE_PAGES = forced;
  const r = runCli(['scan', dir, '--format', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  const pages = r.stderr.split('\n').find((l) => l.startsWith('neardup: trace huge pages '));
  assert.ok(pages, `no huge pages line in\n${r.stderr}`);
  return { pages, report: r.stdout.replace(/"elapsedMs": \d+/, '"elapsedMs": 0') };
}

describe('huge pages of the region documents (native/hugepages.c, regionblocks.c)', function () {
  this.timeout(120000);
  let dir: string;
  before(function () {
    // (readCodeBatchAsync, whose jobs write the region documents, is POSIX's)
    if (process.platform === 'win32') this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-huge-'));
    writeTree(dir);
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a default scan measures both kinds of page and uses the cheaper; forced, it measures nothing; the same report every way', () => {
    const trial = scan(dir);
    const m = /^neardup: trace huge pages (in use|not in use) \(CPU ms a MB of region documents first written: huge pages (\d+\.\d+), 4 KB pages (\d+\.\d+)\)$/.exec(trial.pages);
    assert.ok(m, trial.pages);
    const huge = Number(m[2]);
    const small = Number(m[3]);
    assert.ok(huge > 0 && small > 0, trial.pages);
    // (the verdict compares the figures before they are rounded to two decimals)
    if (Math.abs(huge - small) > 0.01) assert.equal(m[1] === 'in use', huge < small, trial.pages);
    const off = scan(dir, '0');
    assert.equal(off.pages, 'neardup: trace huge pages not in use');
    const on = scan(dir, '1');
    assert.equal(on.pages, 'neardup: trace huge pages in use');
    assert.equal(JSON.parse(trial.report).stats.files, 40);
    assert.equal(off.report, trial.report);
    assert.equal(on.report, trial.report);
  });
});
