import { strict as assert } from 'node:assert';
import { HostTasks, threadCpuMs, type HostClock } from '../../../src/extension/hostTasks';

/**
 * The clock HostTasks reads, moved by the test: `work(ms)` is a task's work of exactly `ms` wall
 * time (and `cpu` ms of CPU time). Nothing here depends on how fast or loaded the machine is.
 */
class TestClock implements HostClock {
  private wall = 1000;
  private cpu = 20;
  now(): number {
    return this.wall;
  }
  cpuMs(): number {
    return this.cpu;
  }
  work(ms: number, cpu = ms): void {
    this.wall += ms;
    this.cpu += cpu;
  }
}

describe('HostTasks (our tasks on the extension host: timed, and sliced)', () => {
  it('figures: count, total, max, p99 (to the 0.1 ms bin) and tasks over 50 ms, overall and per kind', () => {
    const t = new HostTasks();
    for (let i = 1; i <= 100; i++) t.record('a', i); // 1 … 100 ms
    t.record('b', 0.25);
    const f = t.figures();
    assert.equal(f.count, 101);
    assert.equal(f.maxMs, 100);
    assert.equal(f.over50, 50);
    assert.ok(f.p99Ms >= 99 && f.p99Ms <= 100.1, `p99 ${f.p99Ms}`);
    assert.equal(f.byKind.a.count, 100);
    assert.equal(f.byKind.a.totalMs, 5050);
    assert.deepEqual(f.byKind.b, { count: 1, totalMs: 0.25, maxMs: 0.25, p99Ms: 0.25, over50: 0 });
    // Beyond the histogram: p99 is the maximum.
    t.reset();
    for (let i = 0; i < 10; i++) t.record('c', 1);
    t.record('c', 900);
    assert.equal(t.figures().maxMs, 900);
    assert.equal(t.figures().p99Ms, 900);
    assert.equal(t.figures().count, 11);
  });

  it('time() measures a synchronous task, also one that throws', () => {
    const clock = new TestClock();
    const t = new HostTasks(undefined, clock);
    assert.equal(
      t.time('x', () => (clock.work(3, 2), 42)),
      42,
    );
    assert.throws(() =>
      t.time('x', () => {
        clock.work(1.5, 1);
        assert.fail('boom');
      }),
    );
    const f = t.figures().byKind.x;
    assert.equal(f.count, 2);
    assert.equal(f.maxMs, 3);
    assert.equal(f.totalMs, 4.5);
    assert.deepEqual(f.cpu, { totalMs: 3, maxMs: 2, p99Ms: 2, over50: 0 });
    // The product's clock: wall time always, CPU time where Node tells this thread's.
    const real = new HostTasks();
    real.time('y', () => undefined);
    const r = real.figures().byKind.y;
    assert.equal(r.count, 1);
    assert.ok(r.maxMs >= 0);
    assert.equal(r.cpu !== undefined, Number.isFinite(threadCpuMs()));
  });

  it('run(): the job starts in a task of its own, is cut into slices of the budget that let other work in between, and counts as running until it ends', async () => {
    const clock = new TestClock();
    const t = new HostTasks(4, clock);
    let idleCalls = 0;
    t.onIdle(() => idleCalls++);
    let started = false;
    let slices = 0;
    const between: number[] = [];
    let units = 0;
    const job = t.run('work', async (s) => {
      started = true;
      for (let i = 0; i < 60; i++) {
        clock.work(0.5); // 30 ms of work in all
        units++;
        if (s.due) {
          slices++;
          const before = units;
          setImmediate(() => between.push(before)); // other work, queued before the yield
          await s.yield();
        }
      }
    });
    assert.equal(started, false, 'not inside the caller\'s task');
    assert.equal(t.idle, false);
    await job;
    assert.equal(units, 60);
    assert.ok(t.idle);
    assert.equal(idleCalls, 1);
    // Due once a slice has used its 4 ms: after every 8 units of 0.5 ms (7 times in 60 units).
    assert.equal(slices, 7);
    assert.equal(between.length, slices, 'what was queued ran at each yield, before the job went on');
    const f = t.figures().byKind.work;
    assert.equal(f.count, slices + 1);
    assert.equal(f.totalMs, 30);
    assert.equal(f.maxMs, 4);
    assert.equal(f.cpu?.totalMs, 30);
    assert.equal(t.figures().jobs, 1);
  });

  it('a job that throws still ends (idle again) and rejects', async () => {
    const t = new HostTasks();
    await assert.rejects(
      t.run('bad', () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.ok(t.idle);
    assert.equal(t.figures().byKind.bad.count, 1);
  });

  it('the collector\'s pauses are taken out of the tasks they fell in (reported before or after the task ends), and counted apart', () => {
    const clock = new TestClock(); // wall 1000 ms, CPU 20 ms
    const t = new HostTasks(undefined, clock);
    t.time('a', () => clock.work(60, 58)); // 1000–1060: 58 ms of CPU, 40 of them a pause
    t.collectorPause(1010, 40); // reported after the task ended
    t.collectorPause(1075, 30); // a pause reported before the task it fell in ends
    t.time('b', () => clock.work(40, 45)); // 1060–1100: 45 ms of CPU, 25 of them a pause
    t.time('c', () => clock.work(20, 20)); // 1100–1120: the pause's last 5 ms
    t.collectorPause(1200, 80); // in no task
    const f = t.figures();
    assert.equal(f.cpu?.maxMs, 58, 'the histograms keep what was measured');
    assert.deepEqual(
      f.longest.map((w) => [w.kind, w.cpuMs, w.gcMs]),
      [
        ['a', 58, 40],
        ['b', 45, 25],
        ['c', 20, 5],
      ],
    );
    assert.equal(f.ownMaxMs, 20, 'a: 18, b: 20, c: 15');
    assert.deepEqual(f.collector, { count: 3, totalMs: 150, maxMs: 80 });
    t.reset();
    assert.equal(t.figures().longest.length, 0);
    assert.equal(t.figures().collector, undefined);
  });

  it('ownMaxMs is an upper bound: a task left out of the longest kept counts at the shortest kept', () => {
    const clock = new TestClock();
    const t = new HostTasks(undefined, clock);
    for (let i = 0; i < 16; i++) t.time('long', () => clock.work(30)); // each one all pause
    for (let i = 0; i < 16; i++) t.collectorPause(1000 + 30 * i, 30);
    assert.equal(t.figures().ownMaxMs, 0);
    t.time('short', () => clock.work(12)); // not kept: counted at 30
    const f = t.figures();
    assert.equal(f.longest.length, 16);
    assert.ok(f.longest.every((w) => w.kind === 'long'));
    assert.equal(f.ownMaxMs, 30);
  });

  it('observeCollector() reports V8\'s pauses on this thread (Node reports them)', async () => {
    const t = new HostTasks();
    const stop = t.observeCollector();
    try {
      const until = performance.now() + 10_000;
      let keep: number[][] = [];
      while (!t.figures().collector && performance.now() < until) {
        for (let i = 0; i < 2000; i++) keep.push(new Array(64).fill(i));
        if (keep.length > 20_000) keep = [];
        await new Promise((resolve) => setImmediate(resolve));
      }
      const c = t.figures().collector;
      assert.ok(c && c.count > 0 && c.maxMs > 0 && c.totalMs >= c.maxMs, JSON.stringify(c));
    } finally {
      stop();
    }
  });
});
