import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { plantTree } from '../helpers/shardTree';

// `neardup join --engine dask` on a real Dask cluster: Debian's python3-dask and
// python3-distributed (.ci/run installs them). The job starts a local cluster of 2 worker
// processes, or joins the scheduler given with --scheduler (started here with `dask scheduler`
// and `dask worker`). Its pairs must equal the local join's exactly.

const ROOT = path.join(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeSynthShards } = require(path.join(ROOT, 'bench', 'shards', 'synth.js')) as {
  writeSynthShards: (o: { out: string; items: number; shards: number; near: number; far: number; k: number; gzip?: boolean }) => Promise<{ files: string[]; near: Array<[string, string, number]>; far: Array<[string, string, number]> }>;
};
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

interface JsonReport {
  stats: Record<string, number>;
  pairs: Array<{ kind: string; a: { path: string }; b: { path: string }; distance: number }>;
  groups: unknown[];
}

/** The report without its timing. */
function body(stdout: string): JsonReport {
  const r = JSON.parse(stdout) as JsonReport;
  delete r.stats.elapsedMs;
  return r;
}

describe('neardup join --engine dask (a real Dask cluster)', function () {
  this.timeout(300000);
  let dir: string;
  let shards: string[];

  before(async function () {
    const probe = spawnSync(PYTHON, ['-c', 'import dask, distributed, numpy'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `python3 with dask, distributed and numpy is needed (apt-get install python3-dask python3-distributed python3-numpy): ${probe.stderr}`);
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-dask-'));
    plantTree(path.join(dir, 'tree'), 4242);
    shards = [path.join(dir, 'alpha.jsonl.gz'), path.join(dir, 'beta.jsonl'), path.join(dir, 'src.jsonl.gz')];
    for (const [folder, out] of [[path.join(dir, 'tree', 'alpha'), shards[0]], [path.join(dir, 'tree', 'beta'), shards[1]], [path.join(ROOT, 'src'), shards[2]]]) {
      const r = await run(['fingerprints', folder, '--out', out, '--quiet']);
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives exactly the local join\'s report on real shards (files and sections; JSON)', async () => {
    const local = await run(['join', ...shards, '--format', 'json', '--quiet']);
    assert.equal(local.code, 0, local.stderr);
    const dask = await run(['join', ...shards, '--format', 'json', '--engine', 'dask']);
    assert.equal(dask.code, 0, dask.stderr);
    assert.match(dask.stderr, /2 workers \(local cluster\)/);
    assert.match(dask.stderr, /sections: C\(\d+,\d+\) = \d+ tables/);
    const l = body(local.stdout);
    const d = body(dask.stdout);
    assert.ok(l.pairs.filter((p) => p.kind === 'section').length >= 3, `pairs: ${l.pairs.map((p) => p.kind).join(' ')}`);
    assert.ok(l.pairs.some((p) => p.kind === 'file' && p.a.path.startsWith('alpha:') && p.b.path.startsWith('beta:')));
    assert.deepEqual(d, l);
  });

  for (const k of [3, 12]) {
    it(`synthetic shards at --max-distance ${k}: every planted pair within ${k} found, none at ${k + 1}, the same pairs as the local join`, async () => {
      const out = path.join(dir, `syn${k}`);
      const truth = await writeSynthShards({ out, items: 9000, shards: 3, near: 260, far: 60, k });
      const args = ['join', ...truth.files, '--format', 'json', '--quiet', '--max-distance', String(k)];
      const local = await run(args);
      assert.equal(local.code, 0, local.stderr);
      const dask = await run([...args, '--engine', 'dask']);
      assert.equal(dask.code, 0, dask.stderr);
      const l = body(local.stdout);
      assert.deepEqual(body(dask.stdout), l);
      const found = new Map(l.pairs.map((p) => [`${p.a.path} ${p.b.path}`, p.distance]));
      for (const [a, b, dist] of truth.near) assert.equal(found.get(`${a} ${b}`), dist, `planted ${a} ~ ${b} at ${dist}`);
      for (const [a, b] of truth.far) assert.ok(!found.has(`${a} ${b}`), `${a} ~ ${b} is at ${k + 1}`);
      assert.equal(l.pairs.length, truth.near.length, 'nothing but the planted pairs');
      assert.ok(truth.near.some(([, , dd]) => dd === k), 'pairs at exactly k are planted');
    });
  }

  it('--scheduler: the job runs on a scheduler and 2 workers started apart (dask scheduler / dask worker)', async () => {
    const port = await freePort();
    const procs: ChildProcess[] = [];
    const start = (args: string[]) => {
      const p = spawn(PYTHON, ['-m', ...args], { stdio: 'ignore' });
      procs.push(p);
    };
    try {
      start(['distributed.cli.dask_scheduler', '--host', '127.0.0.1', '--port', String(port), '--no-dashboard']);
      start(['distributed.cli.dask_worker', `tcp://127.0.0.1:${port}`, '--nworkers', '2', '--nthreads', '1', '--no-dashboard']);
      // The workers register within seconds; the job reports how many it sees.
      const args = ['join', shards[0], shards[1], '--format', 'json', '--engine', 'dask', '--scheduler', `tcp://127.0.0.1:${port}`];
      let dask = await run(args);
      for (let i = 0; i < 20 && (dask.code !== 0 || !/2 workers \(scheduler/.test(dask.stderr)); i++) {
        await new Promise((r) => setTimeout(r, 1000));
        dask = await run(args);
      }
      assert.equal(dask.code, 0, dask.stderr);
      assert.match(dask.stderr, /2 workers \(scheduler tcp:\/\/127\.0\.0\.1:\d+\)/);
      const local = await run(['join', shards[0], shards[1], '--format', 'json', '--quiet']);
      assert.deepEqual(body(dask.stdout), body(local.stdout));
    } finally {
      for (const p of procs) p.kill('SIGTERM');
    }
  });

  it('a scheduler that cannot be reached, or --scheduler without dask: one message, exit code 2', async () => {
    const port = await freePort();
    const r = await run(['join', shards[0], '--engine', 'dask', '--scheduler', `tcp://127.0.0.1:${port}`, '--quiet']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^neardup: the Dask job failed: .*(Timed out|connect)/i);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    const s = await run(['join', shards[0], '--scheduler', 'tcp://127.0.0.1:1', '--quiet']);
    assert.equal(s.code, 2);
    assert.match(s.stderr, /--scheduler goes with --engine dask/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
