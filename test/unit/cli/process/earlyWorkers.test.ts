// The CLI's first scan worker, started before its set-up (src/cli/process/earlyWorkers.ts) and
// adopted by the scan (node/scan/scanWorkers.ts); the others started only when the walk finds a
// second batch of files. Counted on the built CLI: the Workers it constructs. With the code files
// on the addon's threads (node/scan/nativeBatches.ts; off here, NEARDUP_NATIVE_BATCHES=0, but in
// its own test below) one worker, and libuv's pool sized for the batches.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as EarlyWorkers from '../../../../src/cli/process/earlyWorkers';
import { CLI_INTERRUPT_BUDGET } from '../../../../src/cli/process/v8Tiering';
import { codeBatchAsyncAvailable } from '../../../../src/node/workers/codeBatch';

// Loaded with the opt-out set, so that loading it (not a scan: it sets V8's flags at once) does not retune this test process's V8.
const saved = process.env.NEARDUP_V8_DEFAULTS;
process.env.NEARDUP_V8_DEFAULTS = '1';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startsScanWorkers, earlyWorkerCount, useBatchThreads } = require('../../../../src/cli/process/earlyWorkers') as typeof EarlyWorkers;
if (saved === undefined) delete process.env.NEARDUP_V8_DEFAULTS;
else process.env.NEARDUP_V8_DEFAULTS = saved;

const CLI = path.join(__dirname, '../../../../dist/cli.js');

/** Runs the built CLI with `args`, counting the worker threads it constructs (and printing their scripts). */
function run(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; workers: string[]; events: string[]; uv?: string } {
  // Also the order of the workers' 'online' events and of V8's flags set (events).
  const probe =
    `const wt=require('node:worker_threads');const W=wt.Worker;const made=[];const events=[];` +
    `wt.Worker=class extends W{constructor(s,o){super(s,o);made.push(require('node:path').basename(String(s)));this.once('online',()=>events.push('online'))}};` +
    `const v8=require('node:v8');const set=v8.setFlagsFromString;v8.setFlagsFromString=(f)=>{events.push('flags '+f);return set(f)};` +
    `process.on('exit',()=>process.stderr.write('WORKERS '+JSON.stringify({made,events,uv:process.env.UV_THREADPOOL_SIZE})+'\\n'));` +
    `process.argv=[process.argv[0],${JSON.stringify(CLI)},...${JSON.stringify(args)}];require(${JSON.stringify(CLI)});`;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NEARDUP_V8_DEFAULTS: '', NEARDUP_NATIVE_BATCHES: '0', UV_THREADPOOL_SIZE: undefined, ...env } });
  const m = /WORKERS (\{.*\})/.exec(r.stderr);
  assert.ok(m, r.stderr);
  const seen = JSON.parse(m[1]) as { made: string[]; events: string[]; uv?: string };
  return { status: r.status, stdout: r.stdout, workers: seen.made, events: seen.events, uv: seen.uv };
}

describe("the CLI's early scan worker", function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-early-'));
    fs.mkdirSync(path.join(dir, 'one'));
    fs.writeFileSync(path.join(dir, 'one', 'a.js'), 'function add(a, b) {\n  return a + b;\n}\n');
    fs.mkdirSync(path.join(dir, 'many'));
    for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(dir, 'many', `f${i}.js`), `function f${i}(a) {\n  return a * ${i} + ${i % 7};\n}\n`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is started for the commands that scan with workers only', () => {
    assert.ok(startsScanWorkers(['node', 'cli.js', 'scan', '.']));
    assert.ok(startsScanWorkers(['node', 'cli.js', 'fingerprints', '.', '--out', 'x.jsonl']));
    assert.ok(!startsScanWorkers(['node', 'cli.js', 'join', 'a.jsonl']));
    assert.ok(!startsScanWorkers(['node', 'cli.js', '--help']));
    assert.ok(!startsScanWorkers(['node', 'cli.js']));
    assert.ok(!startsScanWorkers(['node', 'cli.js', 'scan', '--help']), 'help: no scan');
    assert.ok(!startsScanWorkers(['node', 'cli.js', 'scan', '.', '-h']));
  });

  it('is as many as the scan will have when it locates copies (the default), else one', () => {
    const argv = (...a: string[]) => ['node', 'cli.js', 'scan', '.', ...a];
    assert.equal(earlyWorkerCount(argv(), 4), 4, 'the default locates');
    assert.equal(earlyWorkerCount(argv('--no-locate'), 4), 1);
    assert.equal(earlyWorkerCount(argv('--locate', '--no-locate'), 4), 1, 'the last flag wins');
    assert.equal(earlyWorkerCount(argv('--no-locate', '--locate'), 4), 4);
    assert.equal(earlyWorkerCount(['node', 'cli.js', 'fingerprints', '.', '--out', 'x.jsonl'], 4), 1, 'fingerprints locate nothing');
    assert.equal(earlyWorkerCount(argv('--locate'), 4), 4);
    assert.equal(earlyWorkerCount(argv('--locate', '--workers', '2'), 4), 2);
    assert.equal(earlyWorkerCount(argv('--workers=3', '--locate'), 4), 3);
    assert.equal(earlyWorkerCount(argv('--locate', '--workers', '16'), 4), 4, 'no more than the cores');
    assert.equal(earlyWorkerCount(argv('--locate', '--workers', 'x'), 2), 2, 'a bad value: commander says so; one per core meanwhile');
    const r = run(['scan', path.join(dir, 'one'), '--format', 'json', '--locate', '--workers', '2']);
    assert.equal(r.status, 0);
    assert.deepEqual(r.workers, ['worker.js', 'worker.js'], 'both started first, adopted');
    // V8's flags once both are online, never before. (A one-file scan can end before the second
    // is: on a loaded machine CI saw ['online'] alone — the flags then never set, which is right.)
    const flags = `flags --interrupt-budget=${CLI_INTERRUPT_BUDGET}`;
    if (r.events.includes(flags)) assert.deepEqual(r.events, ['online', 'online', flags]);
    else assert.ok(r.events.length >= 1 && r.events.every((e) => e === 'online'), r.events.join(', '));
  });

  it('is the one worker of a scan whose files fit one batch, adopted (not started again)', () => {
    const r = run(['scan', path.join(dir, 'one'), '--format', 'json', '--workers', '2', '--no-locate']);
    assert.equal(r.status, 0);
    assert.deepEqual(r.workers, ['worker.js']);
    assert.equal((JSON.parse(r.stdout) as { stats: { files: number } }).stats.files, 1);
  });

  it('is joined by the others once the walk finds a second batch', () => {
    const r = run(['scan', path.join(dir, 'many'), '--format', 'json', '--workers', '3', '--no-locate']);
    assert.equal(r.status, 0);
    assert.deepEqual(r.workers, ['worker.js', 'worker.js', 'worker.js']);
    assert.equal((JSON.parse(r.stdout) as { stats: { files: number } }).stats.files, 150);
  });

  it("boots before V8's flags are set (with Node's code cache); the flags are set once the scan's workers are online", () => {
    const flags = `flags --interrupt-budget=${CLI_INTERRUPT_BUDGET}`;
    const one = run(['scan', path.join(dir, 'one'), '--format', 'json', '--no-locate']);
    assert.deepEqual(one.events, ['online', flags]);
    const many = run(['scan', path.join(dir, 'many'), '--format', 'json', '--workers', '2', '--no-locate']);
    assert.deepEqual(many.events, ['online', 'online', flags]);
    const shard = path.join(dir, 'many.jsonl');
    assert.deepEqual(run(['fingerprints', path.join(dir, 'many'), '--out', shard, '-q']).events, ['online', 'online', flags]);
    // Any other command sets them at once; NEARDUP_V8_DEFAULTS=1 keeps V8's.
    assert.deepEqual(run(['join', shard, '-q']).events, [flags]);
    assert.deepEqual(run(['scan', path.join(dir, 'one'), '--no-locate'], { NEARDUP_V8_DEFAULTS: '1' }).events, ['online']);
    // The default (locating) starts the workers first, one per core or --workers N.
    assert.deepEqual(run(['scan', path.join(dir, 'one'), '--format', 'json', '--workers', '2']).events, ['online', 'online', flags]);
  });

  it('is let go with the process when the run ends before its scan', () => {
    const r = run(['scan', path.join(dir, 'no-such-folder'), '--no-locate']);
    assert.equal(r.status, 2);
    assert.deepEqual(r.workers, ['worker.js']);
    assert.deepEqual(run(['scan', path.join(dir, 'no-such-folder'), '--workers', '2']).workers, ['worker.js', 'worker.js']);
    assert.equal(run(['join']).workers.length, 0);
  });

  (codeBatchAsyncAvailable() ? it : it.skip)("is none, for a scan whose code files go to the addon's threads (its few other files on its own thread); libuv's pool sized for them", () => {
    const native = { NEARDUP_NATIVE_BATCHES: '1' };
    const flags = `flags --interrupt-budget=${CLI_INTERRUPT_BUDGET}`;
    const many = run(['scan', path.join(dir, 'many'), '--format', 'json', '--workers', '3', '--no-locate'], native);
    assert.equal(many.status, 0);
    assert.equal((JSON.parse(many.stdout) as { stats: { files: number } }).stats.files, 150);
    assert.deepEqual(many.workers, [], 'none started');
    // The flags once, no worker to wait for.
    assert.deepEqual(many.events, [flags]);
    assert.equal(many.uv, String(Math.max(4, 2 * os.availableParallelism())));
    const locating = run(['scan', path.join(dir, 'many'), '--format', 'json', '--workers', '2'], native);
    assert.equal(locating.status, 0);
    assert.deepEqual(locating.workers, []);
    // A few Markdown files (one with Chinese text) beside the code: on the scan's thread, by the
    // bundle's own code (dist/cliExtras.js), no worker; the same report as the workers give.
    const mixed = path.join(dir, 'mixed');
    fs.cpSync(path.join(dir, 'many'), mixed, { recursive: true });
    const prose = `# Totals\n\n${'This package adds numbers and keeps the totals of each day, week and month for every account. '.repeat(4)}\n`;
    fs.writeFileSync(path.join(mixed, 'README.md'), prose);
    fs.writeFileSync(path.join(mixed, 'COPY.md'), prose);
    fs.writeFileSync(path.join(mixed, 'zh.md'), '# 用法\n\n这个包把数字加起来并且保存每天、每周和每月的总数。\n');
    const here = run(['scan', mixed, '--format', 'json', '--no-locate'], native);
    assert.equal(here.status, 0);
    assert.deepEqual(here.workers, []);
    const hereReport = JSON.parse(here.stdout) as { stats: { files: number }; pairs: Array<{ a: { path: string }; b: { path: string } }> };
    assert.equal(hereReport.stats.files, 153);
    assert.ok(hereReport.pairs.some((p) => [p.a.path, p.b.path].sort().join() === 'COPY.md,README.md'), 'the prose copy found');
    const inWorkers = run(['scan', mixed, '--format', 'json', '--no-locate']);
    assert.ok(inWorkers.workers.length > 0, 'the workers of a scan without the addon');
    assert.equal(here.stdout.replace(/"elapsedMs": \d+/, ''), inWorkers.stdout.replace(/"elapsedMs": \d+/, ''));
    assert.equal(run(['scan', path.join(dir, 'many'), '--no-locate', '-q'], { ...native, UV_THREADPOOL_SIZE: '3' }).uv, '3', "the environment's size kept");
    assert.equal(run(['join']).uv, undefined, 'other commands leave it');
    // The same report as the workers give.
    assert.equal(many.stdout.replace(/"elapsedMs": \d+/, ''), run(['scan', path.join(dir, 'many'), '--format', 'json', '--workers', '3', '--no-locate']).stdout.replace(/"elapsedMs": \d+/, ''));
    const env: NodeJS.ProcessEnv = {};
    useBatchThreads(2, env);
    assert.equal(env.UV_THREADPOOL_SIZE, '4', 'four at least');
    const eight: NodeJS.ProcessEnv = {};
    useBatchThreads(8, eight);
    assert.equal(eight.UV_THREADPOOL_SIZE, '16', 'two per core');
  });
});
