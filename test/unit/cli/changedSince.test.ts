/**
 * Issue 15, pull-request mode: `neardup scan <dir> --changed-since REF` reports only the pairs with
 * a side in a file changed between REF and the working tree (committed, staged, modified, or
 * untracked but not ignored), matched against the whole tree; with a baseline, only the new ones.
 * The fixture is a git repository made here (`git init`, two commits, then working-tree changes).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeFile, editLines, mulberry32 } from '../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[], cwd?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, cwd });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Loc {
  path: string;
}
interface JsonReport {
  pairs: Array<{ kind: string; a: Loc; b: Loc }>;
  groups: Array<{ members: string[] }>;
  baseline?: { file: string; matched: number; new: number };
}
const pairName = (p: { a: Loc; b: Loc }) => [p.a.path, p.b.path].sort().join(' ~ ');

const hasGit = spawnSync('git', ['--version']).status === 0;

describe('neardup scan --changed-since REF (CLI, a git repository made by the test)', function () {
  this.timeout(120000);
  let tmp: string;
  let repo: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=NearDup Test', '-c', 'user.email=test@neardup.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };
  const read = (rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');
  const pairs = (...args: string[]) => {
    const r = run(['scan', repo, '--format', 'json', '-q', '--no-sections', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as JsonReport).pairs.map(pairName).sort();
  };

  before(function () {
    if (!hasGit) this.skip();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-changed-'));
    repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    const rnd = mulberry32(1515);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const code = codeFile(rnd, 6);
      w(`src/${name}1.ts`, code);
      if (name !== 'd' && name !== 'e') w(`src/${name}2.ts`, editLines(code, mulberry32(name.charCodeAt(0)), 0.03));
    }
    w('sub/g1.ts', codeFile(mulberry32(7), 6));
    w('sub/g2.ts', read('sub/g1.ts'));
    w('.gitignore', 'build/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    // Commit two: b2 edited.
    w('src/b2.ts', read('src/b2.ts') + '\n// reviewed\n');
    git('commit', '-q', '-am', 'two');
    // The working tree: a2 edited and staged, f2 edited, d2 new (untracked), e2 new but ignored, g2 edited.
    w('src/a2.ts', read('src/a2.ts') + '\n// staged\n');
    git('add', 'src/a2.ts');
    w('src/f2.ts', read('src/f2.ts') + '\n// modified\n');
    w('src/d2.ts', read('src/d1.ts'));
    w('build/e2.ts', read('src/e1.ts'));
    w('sub/g2.ts', read('sub/g2.ts') + '\n// modified\n');
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it('the whole tree has every planted pair (the baseline of this test)', () => {
    assert.deepEqual(pairs('--no-gitignore'), [
      'build/e2.ts ~ src/e1.ts',
      'src/a1.ts ~ src/a2.ts',
      'src/b1.ts ~ src/b2.ts',
      'src/c1.ts ~ src/c2.ts',
      'src/d1.ts ~ src/d2.ts',
      'src/f1.ts ~ src/f2.ts',
      'sub/g1.ts ~ sub/g2.ts',
    ]);
  });

  it('HEAD: staged, modified and untracked files; not committed ones, not ignored ones, not untouched ones', () => {
    assert.deepEqual(pairs('--no-gitignore', '--changed-since', 'HEAD'), ['src/a1.ts ~ src/a2.ts', 'src/d1.ts ~ src/d2.ts', 'src/f1.ts ~ src/f2.ts', 'sub/g1.ts ~ sub/g2.ts']);
  });

  it('HEAD~1: also what the last commit changed; the stderr line counts', () => {
    assert.deepEqual(pairs('--no-gitignore', '--changed-since', 'HEAD~1'), [
      'src/a1.ts ~ src/a2.ts',
      'src/b1.ts ~ src/b2.ts',
      'src/d1.ts ~ src/d2.ts',
      'src/f1.ts ~ src/f2.ts',
      'sub/g1.ts ~ sub/g2.ts',
    ]);
    const r = run(['scan', repo, '--no-progress', '--no-sections', '--changed-since', 'HEAD~1']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /--changed-since HEAD~1: 5 changed files; 5 of 6 pairs touch them\./);
    assert.doesNotMatch(r.stdout, /c1\.ts/);
  });

  it('a folder inside the repository: its paths, its changes', () => {
    const r = run(['scan', path.join(repo, 'sub'), '--format', 'json', '-q', '--no-sections', '--changed-since', 'HEAD'], tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as JsonReport).pairs.map(pairName), ['g1.ts ~ g2.ts']);
  });

  it('with a baseline and --fail-on-pairs (the pull-request run): only the new pair touching the changes fails it, in Markdown', () => {
    const base = path.join(tmp, 'baseline.json');
    const d2 = read('src/d2.ts');
    fs.rmSync(path.join(repo, 'src/d2.ts'));
    try {
      assert.equal(run(['scan', repo, '-q', '--write-baseline', base]).code, 0);
    } finally {
      w('src/d2.ts', d2);
    }
    const r = run(['scan', repo, '-q', '--baseline', base, '--changed-since', 'HEAD~1', '--format', 'markdown', '--fail-on-pairs', '1']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /src\/d2\.ts/);
    assert.doesNotMatch(r.stdout, /src\/(a|b|c|f)2\.ts/);
    const j = run(['scan', repo, '-q', '--baseline', base, '--changed-since', 'HEAD~1', '--format', 'json']);
    const report = JSON.parse(j.stdout) as JsonReport;
    assert.deepEqual(report.pairs.map(pairName), ['src/d1.ts ~ src/d2.ts']);
    assert.equal(report.baseline?.new, 1);
    assert.ok((report.baseline?.matched ?? 0) >= 4, JSON.stringify(report.baseline));
    // SARIF: the results touching the changes, each marked new or unchanged.
    const s = run(['scan', repo, '-q', '--no-sections', '--baseline', base, '--changed-since', 'HEAD', '--format', 'sarif']);
    const results = JSON.parse(s.stdout).runs[0].results as Array<{ baselineState: string; message: { text: string } }>;
    assert.deepEqual(results.map((x) => x.baselineState).sort(), ['new', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('in CI, from the repository: `neardup scan . --baseline .neardup-baseline.json --changed-since HEAD~1 --format markdown --fail-on-pairs 1` shows only what the change added; a committed .neardup.json naming the baseline does the same without the flag', () => {
    const d2 = read('src/d2.ts');
    fs.rmSync(path.join(repo, 'src/d2.ts'));
    try {
      const written = run(['scan', '.', '-q', '--write-baseline', '.neardup-baseline.json'], repo);
      assert.equal(written.code, 0, written.stderr);
    } finally {
      w('src/d2.ts', d2);
    }
    try {
      const rows = (md: string) => md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
      const r = run(['scan', '.', '--baseline', '.neardup-baseline.json', '--changed-since', 'HEAD~1', '--format', 'markdown', '--fail-on-pairs', '1'], repo);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(rows(r.stdout).length, 1, r.stdout);
      assert.match(rows(r.stdout)[0], /`src\/d1\.ts`<br>`src\/d2\.ts`/);
      assert.doesNotMatch(r.stdout, /src\/(a|b|c|f)[12]\.ts|sub\/g/);
      // d2 is d1 copied as it is: the row says so, and --fail-on-kind picks the kinds that fail the run.
      assert.match(rows(r.stdout)[0], /\| 1 exact \|/);
      const ci = ['scan', '.', '--baseline', '.neardup-baseline.json', '--changed-since', 'HEAD~1', '--format', 'markdown', '--fail-on-pairs', '1'];
      assert.equal(run([...ci, '--fail-on-kind', 'exact'], repo).code, 1);
      assert.equal(run([...ci, '--fail-on-kind', 'renamed,edited'], repo).code, 0, 'the new pair is exact: no renamed or edited pair was added');
      // The same run with the baseline named by the project's config.
      w('.neardup.json', '{\n  // accepted pairs\n  "baseline": ".neardup-baseline.json"\n}\n');
      const c = run(['scan', '.', '--changed-since', 'HEAD~1', '--format', 'markdown', '--fail-on-pairs', '1'], repo);
      assert.equal(c.code, 1, c.stderr);
      assert.deepEqual(rows(c.stdout), rows(r.stdout));
      // Nothing added since the baseline (d2 gone again): exit 0, no table row.
      fs.rmSync(path.join(repo, 'src/d2.ts'));
      const none = run(['scan', '.', '--changed-since', 'HEAD~1', '--format', 'markdown', '--fail-on-pairs', '1'], repo);
      assert.equal(none.code, 0, none.stderr);
      assert.deepEqual(rows(none.stdout), []);
    } finally {
      w('src/d2.ts', d2);
      fs.rmSync(path.join(repo, '.neardup.json'), { force: true });
      fs.rmSync(path.join(repo, '.neardup-baseline.json'), { force: true });
    }
  });

  it('a bad revision, an option in its place, or no repository: one line, exit code 2, git never given an option from the command line', () => {
    const bad = run(['scan', repo, '--changed-since', 'no-such-branch']);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr.trimEnd().split('\n').length, 1, bad.stderr);
    assert.match(bad.stderr, /'no-such-branch' is not a commit of this repository/);
    const out = path.join(tmp, 'pwned.txt');
    const opt = run(['scan', repo, '--changed-since=--output=' + out]);
    assert.equal(opt.code, 2);
    assert.ok(!fs.existsSync(out), 'no file written by git');
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    const none = run(['scan', plain, '--changed-since', 'HEAD'], tmp);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--changed-since needs a git work tree/);
  });

  it("the repository's own programs never run (core.fsmonitor is switched off)", () => {
    const marker = path.join(tmp, 'fsmonitor-ran');
    const hook = path.join(tmp, 'fsmonitor.sh');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    git('config', 'core.fsmonitor', hook);
    try {
      assert.ok(pairs('--changed-since', 'HEAD').length > 0);
      assert.ok(!fs.existsSync(marker), 'core.fsmonitor ran');
    } finally {
      git('config', '--unset', 'core.fsmonitor');
    }
  });
});
