import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkerPool, WorkerCrashError, WorkerTaskError, prestartWorker } from '../../../../src/node/workers/workerPool';

/** A worker implementing the protocol by hand (plain CommonJS, requires nothing from TS). */
const WORKER_JS = `
const fs = require('node:fs');
const { parentPort, workerData, threadId } = require('node:worker_threads');
// With workerData.signals (an Int32Array over a SharedArrayBuffer), a worker counts itself in
// signals[0] once its script has run, and a 'hang' task counts itself in signals[1]: the tests wait
// for these instead of sleeping.
const signals = workerData && workerData.signals instanceof Int32Array ? workerData.signals : null;
const signal = (i) => { if (signals) { Atomics.add(signals, i, 1); Atomics.notify(signals, i); } };
signal(0);
parentPort.on('message', async ({ id, req }) => {
  const ok = (res) => parentPort.postMessage({ id, ok: true, res });
  try {
    switch (req.op) {
      case 'echo': return ok(req.value);
      case 'bytes': return ok(req.buf.byteLength);
      case 'thread': return ok(threadId);
      case 'workerData': return ok(workerData);
      case 'sleep': await new Promise((r) => setTimeout(r, req.ms)); return ok('slept');
      case 'hang': signal(1); return new Promise(() => {}); // never answers
      case 'throw': throw new Error('boom: ' + req.value);
      case 'exit': process.exit(1);
      case 'exit0': process.exit(0);
      case 'exitOnce':
        if (!fs.existsSync(req.marker)) { fs.writeFileSync(req.marker, 'x'); process.exit(3); }
        return ok('survived');
      case 'uncaught': setTimeout(() => { throw new Error('async uncaught'); }, 1); return;
      case 'oom': { const keep = []; for (;;) keep.push(new Array(1e4).fill({ a: Math.random() })); } // small arrays: see engineWorker.ts debugCrash
      default: throw new Error('unknown op ' + req.op);
    }
  } catch (e) {
    parentPort.postMessage({ id, ok: false, error: e.message });
  }
});
`;

type Req =
  | { op: 'echo'; value: unknown }
  | { op: 'bytes'; buf: ArrayBuffer }
  | { op: 'thread' | 'workerData' | 'exit' | 'exit0' | 'uncaught' | 'oom' | 'hang' }
  | { op: 'sleep'; ms: number }
  | { op: 'throw'; value: string }
  | { op: 'exitOnce'; marker: string };

/** Indices of the workers' signals (see WORKER_JS). */
const STARTED = 0;
const HANGING = 1;

type WaitAsync = (a: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Resolves once signals[index] ≥ n (no timer: a signal that never comes fails by the test's timeout). */
async function signalled(signals: Int32Array, index: number, n: number): Promise<void> {
  for (let v = Atomics.load(signals, index); v < n; v = Atomics.load(signals, index)) {
    const w = waitAsync(signals, index, v);
    if (w.async) await w.value;
  }
}

describe('WorkerPool', function () {
  this.timeout(10000);
  let dir: string;
  let script: string;
  const pools: WorkerPool<Req, unknown>[] = [];
  const pool = (opts: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}): WorkerPool<Req, unknown> => {
    const p = new WorkerPool<Req, unknown>({ script, size: 2, ...opts });
    pools.push(p);
    return p;
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-pool-'));
    script = path.join(dir, 'worker.js');
    fs.writeFileSync(script, WORKER_JS);
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs tasks on up to `size` workers and returns their results in order', async () => {
    const p = pool({ size: 3 });
    assert.equal(p.size, 3);
    const values = Array.from({ length: 50 }, (_, i) => ({ n: i, s: `v${i}` }));
    const results = await Promise.all(values.map((value) => p.run({ op: 'echo', value })));
    assert.deepEqual(results, values);
    const threads = new Set(await Promise.all(Array.from({ length: 12 }, () => p.run({ op: 'thread' }))));
    assert.ok(threads.size >= 1 && threads.size <= 3, `threads: ${[...threads]}`);
  });

  it('defaults size to the available parallelism', () => {
    const p = pool({ size: undefined });
    assert.equal(p.size, os.availableParallelism());
  });

  it('passes workerData and transfers buffers', async () => {
    const p = pool({ workerData: { hello: 'world' } });
    assert.deepEqual(await p.run({ op: 'workerData' }), { hello: 'world' });
    const buf = new ArrayBuffer(1024);
    assert.equal(await p.run({ op: 'bytes', buf }, [buf]), 1024);
    assert.equal(buf.byteLength, 0, 'the buffer was moved, not copied');
  });

  it('rejects a task whose handler throws, and keeps the worker', async () => {
    const p = pool({ size: 1 });
    const t1 = await p.run({ op: 'thread' });
    await assert.rejects(p.run({ op: 'throw', value: 'bad input' }), (e: Error) => {
      assert.ok(e instanceof WorkerTaskError);
      assert.equal(e.message, 'boom: bad input');
      return true;
    });
    assert.equal(await p.run({ op: 'thread' }), t1, 'same worker thread');
  });

  it('rejects a poisonous task after one retry, restarts the worker, and the others go on', async () => {
    const p = pool({ size: 2 });
    const others = Array.from({ length: 20 }, (_, i) => p.run({ op: 'echo', value: i }));
    const poison = p.run({ op: 'exit' });
    await assert.rejects(poison, (e: Error) => {
      assert.ok(e instanceof WorkerCrashError, String(e));
      assert.match(e.message, /crashed twice.*exit code 1/);
      return true;
    });
    assert.deepEqual(await Promise.all(others), Array.from({ length: 20 }, (_, i) => i));
    assert.equal(await p.run({ op: 'echo', value: 'after' }), 'after');
  });

  it('restarts a crashed worker only after a back-off', async () => {
    // One slot: the retry has no other worker to go to, so it must wait for the restart.
    const p = pool({ size: 1 });
    await p.run({ op: 'thread' });
    const crashedAt = performance.now();
    await assert.rejects(p.run({ op: 'exit' }), WorkerCrashError);
    // First crash → 50 ms back-off before the retry's worker starts (timers may fire ~1 ms early).
    // A lower bound on a timer, on the monotonic clock: load only makes the wait longer.
    const waited = performance.now() - crashedAt;
    assert.ok(waited >= 45, `waited ${waited} ms`);
    assert.equal(await p.run({ op: 'echo', value: 'after' }), 'after');
  });

  it('retries a task once on a new worker when the first attempt crashed', async () => {
    const p = pool({ size: 1 });
    const before = await p.run({ op: 'thread' });
    const marker = path.join(dir, 'exit-once-marker');
    assert.equal(await p.run({ op: 'exitOnce', marker }), 'survived');
    assert.ok(fs.existsSync(marker));
    assert.notEqual(await p.run({ op: 'thread' }), before, 'a new worker thread');
  });

  it('treats an uncaught asynchronous error and a clean exit as crashes', async () => {
    const p = pool({ size: 1 });
    await assert.rejects(p.run({ op: 'uncaught' }), /crashed twice.*async uncaught/);
    await assert.rejects(p.run({ op: 'exit0' }), /crashed twice.*exit code 0/);
    assert.equal(await p.run({ op: 'echo', value: 1 }), 1);
  });

  it('rejects a task that runs out of memory under resourceLimits', async () => {
    const p = pool({ size: 1, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 } });
    await assert.rejects(p.run({ op: 'oom' }), (e: Error) => {
      assert.ok(e instanceof WorkerCrashError);
      assert.match(e.message, /ERR_WORKER_OUT_OF_MEMORY|out of memory/i);
      return true;
    });
    assert.equal(await p.run({ op: 'echo', value: 'alive' }), 'alive');
  });

  it('does not retry a crashed task whose buffers were transferred', async () => {
    const p = pool({ size: 1 });
    const buf = new ArrayBuffer(8);
    // 'exit' ignores the buffer; a retry would send a detached one.
    await assert.rejects(
      p.run({ op: 'exit', buf } as unknown as Req, [buf]),
      /not retried because its buffers were transferred/,
    );
  });

  it('gives up on a worker script that always crashes', async () => {
    const bad = path.join(dir, 'bad.js');
    fs.writeFileSync(bad, 'this is not javascript(');
    const p = pool({ script: bad, size: 1, maxRestarts: 2 });
    await assert.rejects(p.run({ op: 'echo', value: 1 }), /crashed twice.*SyntaxError/);
    await assert.rejects(p.run({ op: 'echo', value: 2 }), WorkerCrashError);
    await assert.rejects(p.run({ op: 'echo', value: 3 }), /giving up/);
  });

  it('close() rejects pending tasks, terminates workers, and refuses new ones', async () => {
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const p = pool({ size: 1, workerData: { signals } });
    const running = p.run({ op: 'hang' }); // never answers: only terminating its worker ends it
    const queued = p.run({ op: 'echo', value: 1 });
    await signalled(signals, HANGING, 1); // the worker is inside the task
    assert.equal(p.workerThreadIds().length, 1);
    const rejected = Promise.all([assert.rejects(running, /closed/), assert.rejects(queued, /closed/)]);
    // close() resolves when the worker has exited (Worker.terminate()): had it waited for the
    // task, it would never resolve, and the test would fail by its timeout.
    await p.close();
    assert.deepEqual(p.workerThreadIds(), []);
    await rejected;
    await assert.rejects(p.run({ op: 'echo', value: 2 }), /closed/);
  });

  it('serveWorker answers requests from a worker entry', async () => {
    const entry = path.join(dir, 'served.js');
    fs.writeFileSync(
      entry,
      `const { serveWorker } = require(${JSON.stringify(path.resolve(__dirname, '../../../../src/node/workers/workerPool.ts'))});
       serveWorker(async (req) => { if (req.fail) throw new Error('nope ' + req.x); return { doubled: req.x * 2 }; });`,
    );
    const p = new WorkerPool<{ x: number; fail?: boolean }, { doubled: number }>({
      script: entry,
      size: 1,
      execArgv: ['--require', require.resolve('tsx/cjs')],
    });
    try {
      assert.deepEqual(await p.run({ x: 21 }), { doubled: 42 });
      await assert.rejects(p.run({ x: 1, fail: true }), (e: Error) => {
        assert.ok(e instanceof WorkerTaskError);
        assert.equal(e.message, 'nope 1');
        assert.match((e as WorkerTaskError).workerStack ?? '', /nope 1/);
        return true;
      });
    } finally {
      await p.close();
    }
  });

  it('pipelines tasks to a worker (pipeline > 1) and still returns each result to its task', async () => {
    const p = pool({ size: 2, pipeline: 3 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => p.run({ op: 'echo', value: i })));
    assert.deepEqual(results, Array.from({ length: 30 }, (_, i) => i));
    // Out-of-order answers (a slow task first) are matched by id.
    const slow = p.run({ op: 'sleep', ms: 100 });
    const fast = p.run({ op: 'echo', value: 'fast' });
    assert.equal(await fast, 'fast');
    assert.equal(await slow, 'slept');
  });

  it('with a pipeline, a crash retries the running task and requeues the ones that had not started', async () => {
    const p = pool({ size: 1, pipeline: 4 });
    const marker = path.join(dir, 'pipeline-exit-once-marker');
    const tasks = [p.run({ op: 'exitOnce', marker }), p.run({ op: 'echo', value: 1 }), p.run({ op: 'echo', value: 2 })];
    assert.deepEqual(await Promise.all(tasks), ['survived', 1, 2]);
    const poison = p.run({ op: 'exit' });
    const after = [p.run({ op: 'echo', value: 3 }), p.run({ op: 'echo', value: 4 })];
    await assert.rejects(poison, /crashed twice/);
    assert.deepEqual(await Promise.all(after), [3, 4], 'tasks queued behind the poison are not charged with its crashes');
  });

  it('runs a task pinned to a slot on that slot only', async () => {
    const p = pool({ size: 2 });
    p.warm();
    const threads = new Set<unknown>();
    for (let i = 0; i < 6; i++) threads.add(await p.run({ op: 'thread' }, undefined, { slot: 1 }));
    assert.equal(threads.size, 1);
    const other = await p.run({ op: 'thread' }, undefined, { slot: 0 });
    assert.ok(!threads.has(other));
    await assert.rejects(p.run({ op: 'thread' }, undefined, { slot: 2 }), RangeError);
  });

  it('warm() starts the workers before any task', async () => {
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const p = pool({ size: 2, workerData: { signals } });
    assert.deepEqual(p.workerThreadIds(), [], 'no worker before warm() or a task');
    p.warm();
    const warmed = p.workerThreadIds();
    assert.equal(warmed.length, 2);
    // Both have run their script, though no task was ever queued.
    await signalled(signals, STARTED, 2);
    assert.equal(Atomics.load(signals, STARTED), 2);
    // The tasks then run on those workers: none was started for them.
    const threads = await Promise.all(Array.from({ length: 6 }, () => p.run({ op: 'thread' })));
    for (const t of threads) assert.ok(warmed.includes(t as number), `thread ${String(t)} is not one of the warmed ${warmed.join(', ')}`);
    assert.deepEqual(p.workerThreadIds(), warmed);
    assert.equal(Atomics.load(signals, STARTED), 2, 'no other worker started');
  });

  it('warm(n) starts the first n slots only; the others start with the tasks they get', async () => {
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const p = pool({ size: 2, workerData: { signals } });
    p.warm(1);
    const first = p.workerThreadIds();
    assert.equal(first.length, 1);
    await signalled(signals, STARTED, 1);
    assert.equal(await p.run({ op: 'thread' }), first[0], 'one task: the warmed worker');
    assert.equal(Atomics.load(signals, STARTED), 1, 'the second slot not started');
    p.warm();
    assert.equal(p.workerThreadIds().length, 2);
    assert.equal(p.workerThreadIds()[0], first[0]);
  });

  it('takes prestarted workers for its first slots and terminates those never taken at close()', async () => {
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const workerData = { signals };
    const early = [prestartWorker(script, workerData), prestartWorker(script, workerData), prestartWorker(script, workerData)];
    const otherData = prestartWorker(script, { signals });
    await signalled(signals, STARTED, 4);
    const p = pool({ size: 2, workerData, prestarted: [otherData, ...early] });
    p.warm();
    assert.deepEqual(p.workerThreadIds(), [early[0].threadId, early[1].threadId], 'slots 0 and 1: the first two of the same script and data');
    const threads = await Promise.all([0, 1, 0, 1].map((slot) => p.run({ op: 'thread' }, undefined, { slot })));
    assert.deepEqual(threads, [early[0].threadId, early[1].threadId, early[0].threadId, early[1].threadId]);
    assert.equal(Atomics.load(signals, STARTED), 4, 'no worker started for the pool');
    assert.ok(early[2].threadId > 0 && otherData.threadId > 0);
    await p.close();
    assert.equal(early[2].threadId, -1, 'the one never taken was terminated');
    assert.equal(early[0].threadId, -1);
    assert.ok(otherData.threadId > 0, 'a worker of other data is not the pool\'s');
    await otherData.release().terminate();
  });

  it('passes over a prestarted worker that exited before it was taken', async () => {
    // The first worker of this script exits at once; the later ones serve the protocol.
    const once = path.join(dir, 'exitOnce.js');
    fs.writeFileSync(once, `const { workerData } = require('node:worker_threads');
      if (Atomics.add(workerData.first, 0, 1) === 0) process.exit(0);
      require(${JSON.stringify(script)});`);
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const workerData = { signals, first: new Int32Array(new SharedArrayBuffer(4)) };
    const gone = prestartWorker(once, workerData);
    while (!gone.exited) await new Promise((resolve) => setTimeout(resolve, 5));
    const p = pool({ script: once, size: 1, workerData, prestarted: [gone] });
    assert.equal(await p.run({ op: 'echo', value: 'x' }), 'x');
    assert.equal(Atomics.load(workerData.first, 0), 2, 'a worker of its own started');
    assert.equal(Atomics.load(signals, STARTED), 1);
  });

  it('whenOnline() resolves once every worker started is online (at once when none is booting)', async () => {
    const signals = new Int32Array(new SharedArrayBuffer(8));
    const p = pool({ size: 2, workerData: { signals } });
    await p.whenOnline(); // none started
    const early = prestartWorker(script, { signals });
    const q = pool({ size: 2, workerData: early.workerData, prestarted: [early] });
    p.warm();
    q.warm();
    let online = false;
    const both = Promise.all([p.whenOnline(), q.whenOnline()]).then(() => (online = true));
    await Promise.resolve();
    assert.equal(online, false, "not before the workers' 'online' (a message of the event loop)");
    await both;
    // Online: their scripts may still be loading, but Node's bootstrap is over; each then runs its script.
    await signalled(signals, STARTED, 4);
    assert.equal(p.workerThreadIds().length, 2);
    assert.equal(q.workerThreadIds()[0], early.threadId);
  });

  it('a prestarted worker never taken does not keep the process alive', async () => {
    const prog = path.join(dir, 'prestarted.js');
    fs.writeFileSync(
      prog,
      `const { prestartWorker } = require(${JSON.stringify(path.resolve(__dirname, '../../../../src/node/workers/workerPool.ts'))});
       prestartWorker(${JSON.stringify(script)}, {});
       console.log('started');`,
    );
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--require', require.resolve('tsx/cjs'), prog], { timeout: 8000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      );
    });
    assert.equal(out.trim(), 'started');
  });

  it('idle workers do not keep the process alive', async () => {
    const prog = path.join(dir, 'idle.js');
    fs.writeFileSync(
      prog,
      `const { WorkerPool } = require(${JSON.stringify(path.resolve(__dirname, '../../../../src/node/workers/workerPool.ts'))});
       const p = new WorkerPool({ script: ${JSON.stringify(script)}, size: 2 });
       p.run({ op: 'echo', value: 'x' }).then((v) => console.log('got ' + v));`,
    );
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--require', require.resolve('tsx/cjs'), prog], { timeout: 8000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      );
    });
    assert.equal(out.trim(), 'got x');
  });
});
