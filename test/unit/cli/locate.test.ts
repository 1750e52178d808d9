/**
 * `neardup scan` locates copies inside files by default (issue 12; `--locate` says so, a no-op):
 * they are reported as section pairs with their clone kind (or the SimHash pair that already
 * reports them gets it), line ranges as planted; with `--no-locate` the report is the plain one;
 * `--baseline` works with it; SARIF stays schema-valid; a tree over the byte limit is refused,
 * not crashed on.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { DEFAULT_ENGINE_SETTINGS } from '../../../src/node/settings/engineSettings';
import { locateCopies } from '../../../src/node/locate/locate';
import { codeFile, codeFunction, mulberry32 } from '../helpers/corpus';
import { writeLocateFixture, type LocatedPair, type LocatedReport, type PlantedCopy, type Range } from './locateFixture';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[], env: NodeJS.ProcessEnv = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, env: { ...process.env, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}


const near = (x: Range, y: Range) => x.path === y.path && Math.abs(x.startLine - y.startLine) <= 1 && Math.abs(x.endLine - y.endLine) <= 1;
const reports = (p: LocatedPair, c: PlantedCopy) => (near(p.a, c.a) && near(p.b, c.b)) || (near(p.a, c.b) && near(p.b, c.a));

describe('neardup scan: copies located inside files (the default; --no-locate)', function () {
  this.timeout(60000);
  let dir: string;
  let planted: PlantedCopy[];
  let tmp: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-'));
    dir = path.join(tmp, 'tree');
    fs.mkdirSync(dir);
    planted = writeLocateFixture(dir);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reports each planted copy by its line ranges (± 1 line) with the right clone kind, by default and with --locate alike', () => {
    const r = run(['scan', dir, '--format', 'json', '-q']);
    assert.equal(r.code, 0, r.stderr);
    const noTime = (s: string) => s.replace(/"elapsedMs": \d+/, '"elapsedMs": 0');
    assert.equal(noTime(run(['scan', dir, '--format', 'json', '-q', '--locate']).stdout), noTime(r.stdout), '--locate is the default');
    const j = JSON.parse(r.stdout) as LocatedReport;
    for (const c of planted) {
      const p = j.pairs.find((q) => q.kind === 'section' && reports(q, c));
      assert.ok(p, `${c.what}: no pair at ${JSON.stringify(c)}; pairs: ${JSON.stringify(j.pairs.map((q) => [q.a, q.b, q.clone]))}`);
      assert.equal(p.clone, c.clone, c.what);
      assert.ok(p.similarity > 0 && p.similarity <= 1 && Number.isInteger(p.distance) && p.distance >= 0 && p.distance <= 64);
    }
    for (const p of j.pairs.filter((q) => q.located)) {
      assert.equal(p.kind, 'section');
      assert.ok(['exact', 'renamed', 'edited'].includes(p.clone!));
    }
    assert.ok(j.groups.some((g) => g.located && g.kind === 'section'), 'located groups are section groups');
  });

  it('with --no-locate the report is the plain one, with the clone kind of every pair: no located pairs, regions or groups', () => {
    const r = run(['scan', dir, '--format', 'json', '-q', '--no-locate']);
    const j = JSON.parse(r.stdout) as LocatedReport;
    assert.ok(j.pairs.length > 0, r.stderr);
    // The last of --locate and --no-locate wins.
    assert.deepEqual((JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--locate', '--no-locate']).stdout) as LocatedReport).pairs, j.pairs);
    for (const p of j.pairs) {
      assert.deepEqual(Object.keys(p).sort(), ['a', 'b', 'clone', 'distance', 'kind', 'similarity']);
      assert.ok(['exact', 'renamed', 'edited'].includes(p.clone!), p.clone);
      assert.equal(p.similarity, 1 - p.distance / 64);
    }
    for (const g of j.groups) assert.deepEqual(Object.keys(g).sort(), ['kind', 'maxDistance', 'members']);
  });

  it('text output shows located copies with their clone kind', () => {
    const r = run(['scan', dir, '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /places of a located copy/);
    assert.match(r.stdout, /(exact|renamed|edited) copy, similarity \d+\.\d%, distance \d+/);
    assert.match(r.stdout, /src\/repeat\.ts:\d+-\d+  distance 0 \(100\.0%\), exact copy/, 'a SimHash pair shows the clone kind it was given');
  });

  it('--write-baseline and --baseline work with --locate: every pair known, keys stable across line shifts', () => {
    const base = path.join(tmp, 'base.json');
    const w = run(['scan', dir, '-q', '--locate', '--write-baseline', base, '--format', 'json']);
    assert.equal(w.code, 0, w.stderr);
    const all = (JSON.parse(w.stdout) as LocatedReport).pairs.length;
    const again = run(['scan', dir, '-q', '--locate', '--baseline', base, '--format', 'json', '--fail-on-pairs', '1']);
    assert.equal(again.code, 0, again.stderr);
    const j = JSON.parse(again.stdout) as LocatedReport;
    assert.deepEqual(j.baseline, { file: base, matched: all, new: 0 } as unknown as LocatedReport['baseline']);
    assert.equal(j.pairs.length, 0);
    assert.equal(j.groups.length, 0);
    // Lines inserted at the top of the Chinese host move its located copy: still known.
    const zh = path.join(dir, 'docs/zh/甲.md');
    fs.writeFileSync(zh, '新增 的 一行\n\n' + fs.readFileSync(zh, 'utf8'));
    const shifted = JSON.parse(run(['scan', dir, '-q', '--locate', '--baseline', base, '--format', 'json']).stdout) as LocatedReport;
    assert.equal(shifted.pairs.filter((p) => p.located).length, 0, JSON.stringify(shifted.pairs));
    for (const f of ['text', 'markdown', 'codeclimate', 'sarif']) {
      const r = run(['scan', dir, '-q', '--locate', '--baseline', base, '--format', f]);
      assert.equal(r.code, 0, `${f}: ${r.stderr}`);
    }
  });

  it('a baseline written without located copies says so once when they show as new; one written at the default records them', () => {
    const plain = path.join(tmp, 'plain-base.json');
    assert.equal(run(['scan', dir, '-q', '--no-locate', '--write-baseline', plain]).code, 0);
    assert.ok(!('locate' in (JSON.parse(fs.readFileSync(plain, 'utf8')) as { settings: object }).settings), 'a --no-locate baseline records no located copies');
    const r = run(['scan', dir, '--baseline', plain, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const located = (JSON.parse(r.stdout) as LocatedReport).pairs.filter((p) => p.located).length;
    assert.ok(located > 0);
    const notices = r.stderr.split('\n').filter((l) => l.includes('copies located inside files'));
    assert.equal(notices.length, 1, r.stderr);
    assert.match(notices[0], new RegExp(`^neardup: baseline .*plain-base\\.json holds none of the ${located} copies located inside files: .*--write-baseline.*--no-locate\\.$`));
    assert.doesNotMatch(run(['scan', dir, '-q', '--baseline', plain]).stderr, /located inside files/, '-q: no notice');
    assert.doesNotMatch(run(['scan', dir, '--no-locate', '--baseline', plain]).stderr, /located inside files/, 'nothing located: no notice');
    const full = path.join(tmp, 'full-base.json');
    assert.equal(run(['scan', dir, '-q', '--write-baseline', full]).code, 0);
    assert.equal((JSON.parse(fs.readFileSync(full, 'utf8')) as { settings: { locate?: boolean } }).settings.locate, true);
    const known = run(['scan', dir, '--baseline', full, '--format', 'json']);
    assert.doesNotMatch(known.stderr, /located inside files/);
    assert.equal((JSON.parse(known.stdout) as LocatedReport).baseline?.new, 0);
  });

  it('SARIF with --locate validates against the SARIF 2.1.0 schema', () => {
    const r = run(['scan', dir, '-q', '--locate', '--format', 'sarif']);
    assert.equal(r.code, 0, r.stderr);
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    const log = JSON.parse(r.stdout) as { runs: Array<{ results: unknown[] }> };
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    // Each planted copy's result says how it was made, in its properties and its message.
    const results = log.runs[0].results as Array<{ message: { text: string }; properties: { clone?: string; located?: boolean } }>;
    for (const c of planted) {
      assert.ok(
        results.some((x) => x.properties.clone === c.clone && x.message.text.includes(`${c.clone} copy.`)),
        `${c.what}: a result with clone ${c.clone}`,
      );
    }
    assert.ok(results.some((x) => x.properties.located === true));
  });

  it('two copies next to each other in one look-alike SimHash section pair: the located regions replace it (and its group)', () => {
    // Issue 12, planted-copy bench seed 1: a lesson's paragraphs pasted into a page right before
    // the workspaces paragraph the lesson holds too; the lesson has one more paragraph between them.
    const tree = path.join(tmp, 'neighbours');
    fs.mkdirSync(tree);
    const rnd = mulberry32(7);
    const W = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega river stone cloud field light night paper glass metal water'.split(' ');
    const para = (n: number) => Array.from({ length: n }, () => W[Math.floor(rnd() * W.length)] + Math.floor(rnd() * 50)).join(' ');
    const first =
      'Create a program that prints the files of a directory filtered by their extension, where the directory is the first argument and the extension the second one given to the program, which must not assume that the extension comes with a leading dot. Keep in mind that the first arguments of your program are not the first values of the argument array, as the first two values are reserved for system information by the runtime.';
    const extra = 'The list of files should be printed to the console with one file on each line and you must use asynchronous input and output.';
    const second =
      'Set to true to run the command in the context of all configured workspaces, and setting it to false makes commands like install ignore the workspaces altogether; when it is not set, commands that operate on the tree link the workspaces into the modules folder, while commands that do other things operate on the root project unless one or more workspaces are named in the workspace setting.';
    fs.writeFileSync(path.join(tree, 'a.md'), ['## Workspaces', '', first, '', extra, '', second, '', '## Hints', '', para(80), '', para(60)].join('\n') + '\n');
    fs.writeFileSync(path.join(tree, 'b.md'), ['# Config', '', para(70), '', '## Workspaces', '', first, '', second, '', '## Other', '', para(90)].join('\n') + '\n');
    fs.writeFileSync(path.join(tree, 'c.md'), ['# Else', '', para(120)].join('\n') + '\n');
    const lines = (p: LocatedPair) => [p.a.path, p.a.startLine, p.a.endLine, p.b.path, p.b.startLine, p.b.endLine];
    // The plain scan: one SimHash section pair over both copies and the paragraph between them.
    const plain = JSON.parse(run(['scan', tree, '--format', 'json', '-q', '--no-locate']).stdout) as LocatedReport;
    assert.deepEqual(plain.pairs.map(lines), [['a.md', 1, 7, 'b.md', 5, 9]]);
    assert.equal(plain.groups.length, 1);
    // Located (the default): the two copies where they are, each exact; the section pair and its group are gone.
    const j = JSON.parse(run(['scan', tree, '--format', 'json', '-q']).stdout) as LocatedReport;
    assert.deepEqual(
      j.pairs.map((p) => [...lines(p), p.clone, p.located]),
      [
        ['a.md', 1, 3, 'b.md', 5, 7, 'exact', true],
        ['a.md', 7, 7, 'b.md', 9, 9, 'exact', true],
      ],
    );
    assert.deepEqual(
      j.groups.map((g) => [g.members, g.located]),
      [
        [['a.md:1-3', 'b.md:5-7'], true],
        [['a.md:7-7', 'b.md:9-9'], true],
      ],
    );
  });

  it('file pairs carry their matching regions: identical files one exact region of the whole file, an edited twin the regions around the edit; no located pair repeats them', () => {
    const tree = path.join(tmp, 'filePairs');
    fs.mkdirSync(tree);
    const rnd = mulberry32(77);
    const fns = Array.from({ length: 8 }, () => codeFunction(rnd, 12));
    const original = fns.join('\n');
    const edited = [...fns.slice(0, 4), codeFunction(rnd, 12), ...fns.slice(5)].join('\n');
    fs.writeFileSync(path.join(tree, 'a.ts'), original);
    fs.writeFileSync(path.join(tree, 'b.ts'), original);
    fs.writeFileSync(path.join(tree, 'c.ts'), edited);
    fs.writeFileSync(path.join(tree, 'other.ts'), codeFile(mulberry32(5), 6));
    const r = run(['scan', tree, '--format', 'json', '-q', '--locate']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as LocatedReport;
    const fileLines = (f: string) => fs.readFileSync(path.join(tree, f), 'utf8').trimEnd().split('\n').length;
    const filePair = (x: string, y: string) => j.pairs.find((p) => p.kind === 'file' && [p.a.path, p.b.path].sort().join() === [x, y].sort().join());
    const ab = filePair('a.ts', 'b.ts');
    assert.ok(ab, `a.ts and b.ts are a file pair: ${JSON.stringify(j.pairs.map((p) => [p.kind, p.a.path, p.b.path]))}`);
    assert.deepEqual(ab.regions, [{ a: { startLine: 1, endLine: fileLines('a.ts') }, b: { startLine: 1, endLine: fileLines('b.ts') }, clone: 'exact', similarity: 1 }]);
    assert.equal(ab.clone, 'exact');
    // SARIF: the regions as related locations on both files, after the twin.
    const sarif = JSON.parse(run(['scan', tree, '--format', 'sarif', '-q', '--locate']).stdout);
    const res = (sarif.runs[0].results as Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>; relatedLocations: Array<{ id: number; physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; endLine: number } } }> }>).find(
      (x) => ['a.ts', 'b.ts'].includes(x.locations[0].physicalLocation.artifactLocation.uri) && ['a.ts', 'b.ts'].includes(x.relatedLocations[0].physicalLocation.artifactLocation.uri),
    );
    assert.ok(res, 'the SARIF result of a.ts and b.ts');
    assert.deepEqual(
      res.relatedLocations.slice(1).map((l) => [l.id, l.physicalLocation.region]),
      [
        [2, { startLine: 1, endLine: fileLines('a.ts') }],
        [3, { startLine: 1, endLine: fileLines('b.ts') }],
      ],
    );
    const ac = filePair('a.ts', 'c.ts');
    assert.ok(ac, 'a.ts and its edited twin c.ts are a file pair');
    assert.equal(ac.clone, 'edited');
    assert.ok(ac.regions && ac.regions.length >= 1, JSON.stringify(ac));
    // The fifth function (lines of a.ts) is not in c.ts: no region holds it on a's side, and the regions cover the rest.
    const fifth = { start: original.split('\n').length - fns.slice(4).join('\n').split('\n').length + 1 };
    const fifthEnd = fifth.start + fns[4].split('\n').length - 1;
    const sideOf = (reg: NonNullable<LocatedPair['regions']>[number]) => (ac.a.path === 'a.ts' ? reg.a : reg.b);
    const covered = new Set<number>();
    for (const reg of ac.regions) {
      const s = sideOf(reg);
      assert.ok(s.startLine >= 1 && s.endLine <= fileLines('a.ts') && s.startLine <= s.endLine);
      for (let l = s.startLine; l <= s.endLine; l++) covered.add(l);
      assert.ok(['exact', 'renamed', 'edited'].includes(reg.clone) && reg.similarity > 0 && reg.similarity <= 1);
    }
    for (let l = fifth.start + 2; l < fifthEnd - 1; l++) assert.ok(!covered.has(l), `line ${l} of the replaced function is in no region: ${JSON.stringify(ac.regions)}`);
    assert.ok(covered.size >= 0.7 * (fileLines('a.ts') - (fifthEnd - fifth.start + 1)), `the regions cover the kept functions: ${covered.size} lines`);
    const linksTwins = (p: LocatedPair) => p.located && new Set([p.a.path, p.b.path]).size === 2 && ['a.ts', 'b.ts', 'c.ts'].includes(p.a.path) && ['a.ts', 'b.ts', 'c.ts'].includes(p.b.path);
    assert.deepEqual(j.pairs.filter(linksTwins), [], 'no located pair repeats a file pair');
  });

  it('an edited copy of a whole file that SimHash does not pair is a located file pair carrying its regions, in a located file group', () => {
    const tree = path.join(tmp, 'editedFile');
    fs.mkdirSync(tree);
    const original = codeFile(mulberry32(91), 10);
    // Every fourth line edited: too far apart for the file's SimHash, still one copy.
    const edited = original
      .split('\n')
      .map((line, i) => (i % 4 === 2 && line.trim() ? line.replace(/[A-Za-z]+/g, (m) => `${m}Q`) : line))
      .join('\n');
    fs.writeFileSync(path.join(tree, 'source.ts'), original);
    fs.writeFileSync(path.join(tree, 'copy.ts'), edited);
    fs.writeFileSync(path.join(tree, 'other.ts'), codeFile(mulberry32(92), 8));
    const plain = JSON.parse(run(['scan', tree, '--format', 'json', '-q', '--no-locate']).stdout) as LocatedReport;
    assert.equal(plain.pairs.filter((p) => p.kind === 'file').length, 0, 'SimHash alone does not pair the two files');
    const j = JSON.parse(run(['scan', tree, '--format', 'json', '-q', '--locate']).stdout) as LocatedReport;
    const files = j.pairs.filter((p) => p.kind === 'file');
    assert.equal(files.length, 1, JSON.stringify(j.pairs.map((p) => [p.kind, p.a, p.b])));
    const p = files[0];
    assert.deepEqual([p.a.path, p.b.path].sort(), ['copy.ts', 'source.ts']);
    assert.equal(p.located, true);
    assert.equal(p.clone, 'edited');
    assert.ok(p.distance > 0 && p.distance <= 64 && p.similarity > 0 && p.similarity < 1, JSON.stringify(p));
    const lines = original.split('\n').length;
    let covered = 0;
    for (const r of p.regions!) covered += r.a.endLine - r.a.startLine + 1;
    assert.ok(covered >= 0.6 * lines, `regions cover ${covered} of ${lines} lines`);
    assert.equal(j.pairs.filter((q) => q.located && q.kind === 'section' && [q.a.path, q.b.path].includes('copy.ts') && [q.a.path, q.b.path].includes('source.ts')).length, 0, 'its regions are not section pairs too');
    assert.ok(j.groups.some((g) => g.kind === 'file' && g.located && g.members.join() === 'copy.ts,source.ts'), JSON.stringify(j.groups));
    const text = run(['scan', tree, '-q', '--locate']).stdout;
    assert.match(text, /2 files, edited copies located by their regions, largest distance \d+\n\s+copy\.ts\n\s+source\.ts {2}edited copy, similarity \d+\.\d%, distance \d+; regions at lines \d+-\d+/, text);
  });

  it('the region finder on the native kernel\'s threads (the default), on the workers (from NEARDUP_REGION_WORKERS workers up) and on the main thread give the same report', () => {
    const json = (env: NodeJS.ProcessEnv) => {
      const r = run(['scan', dir, '-q', '--locate', '--format', 'json', '--workers', '2'], env);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { stats: { elapsedMs?: number }; pairs: unknown[] };
      delete report.stats.elapsedMs;
      return report;
    };
    const pooled = json({ NEARDUP_REGION_WORKERS: '1' });
    assert.ok(pooled.pairs.length > planted.length);
    assert.deepEqual(pooled, json({ NEARDUP_REGION_WORKERS: '64' }));
    assert.deepEqual(pooled, json({}));
  });

  it('identical files the scan does not pair (under --min-tokens) are still located: only identical file pairs are left unsearched', () => {
    const tree = path.join(tmp, 'identicalSmall');
    fs.mkdirSync(tree);
    const rnd = mulberry32(91);
    const fn = codeFunction(rnd, 14);
    fs.writeFileSync(path.join(tree, 'one.js'), fn);
    fs.writeFileSync(path.join(tree, 'two.js'), fn);
    fs.writeFileSync(path.join(tree, 'other.js'), codeFile(rnd, 3));
    const r = run(['scan', tree, '-q', '--locate', '--format', 'json', '--min-tokens', '100000']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as LocatedReport;
    assert.equal(report.pairs.filter((p) => p.kind === 'file' && !p.located).length, 0, 'the scan pairs no files under --min-tokens 100000');
    const lines = fn.split('\n').length;
    const located = report.pairs.filter((p) => p.located && [p.a.path, p.b.path].sort().join() === 'one.js,two.js');
    assert.equal(located.length, 1, JSON.stringify(report.pairs));
    const p = located[0];
    assert.equal(p.clone, 'exact');
    if (p.kind === 'section') assert.ok(p.a.startLine! <= 2 && p.a.endLine! >= lines - 2, `the whole function: ${JSON.stringify(p)}`);
  });

  it('refuses a tree over the byte limit (a reason for the one notice, no crash)', () => {
    const out = locateCopies({ root: dir, documents: [], pairs: [], stats: { files: 0, sections: 0, bytes: 2048, elapsedMs: 0, skipped: 0 } }, { settings: DEFAULT_ENGINE_SETTINGS, maxBytes: 1024 });
    assert.equal(out.ok, false);
    assert.match((out as { reason: string }).reason, /over the/);
  });
});
