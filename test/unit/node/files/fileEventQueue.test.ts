import { strict as assert } from 'node:assert';
import { FileEventQueue, type FileEventBatch, type QueueClock } from '../../../../src/node/files/fileEventQueue';

/** Virtual time: timers fire only when the test advances the clock (microtasks run in between). */
class VirtualClock implements QueueClock {
  t = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      let id = -1;
      let at = Infinity;
      for (const [k, v] of this.timers) if (v.at <= end && v.at < at) [id, at] = [k, v.at];
      if (id < 0) break;
      const { fn } = this.timers.get(id)!;
      this.timers.delete(id);
      this.t = at;
      fn();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    this.t = end;
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

describe('FileEventQueue (coalescing file events)', () => {
  let clock: VirtualClock;
  let batches: FileEventBatch[];
  /** The engine takes `engineMs` of virtual time per batch. */
  let engineMs: number;
  let queue: FileEventQueue;
  let idle: number;
  let bursts: number[];

  beforeEach(() => {
    clock = new VirtualClock();
    batches = [];
    engineMs = 100;
    idle = 0;
    bursts = [];
    queue = new FileEventQueue(
      (b) => {
        batches.push(b);
        return new Promise((r) => clock.setTimeout(() => r(undefined), engineMs));
      },
      { clock, debounceMs: 300, maxWaitMs: 2000, onIdle: () => idle++, burstPaths: 200, onBurstEnd: (n) => bursts.push(n) },
    );
  });

  it('500 saves of one file in 2.5 s (each with a watcher echo): a handful of one-path batches; the queue holds one entry', async () => {
    let maxSize = 0;
    for (let i = 0; i < 500; i++) {
      queue.add('/w/a.ts', 'upsert'); // the save
      queue.add('/w/a.ts', 'upsert'); // the watcher's echo
      maxSize = Math.max(maxSize, queue.size);
      await clock.advance(5);
    }
    await clock.advance(5000);
    assert.equal(maxSize, 1);
    assert.ok(batches.length >= 2 && batches.length <= 10, `${batches.length} batches`);
    for (const b of batches) assert.deepEqual(b, { upserts: ['/w/a.ts'], removes: [], renames: [] });
    assert.ok(queue.idle);
    assert.ok(idle > 0);
    assert.deepEqual(bursts, [], 'one path saved again and again is no burst');
  });

  it('a branch switch (3,000 files at once, then 3,000 more while the engine works): two batches, every path once', async () => {
    engineMs = 4000;
    const paths = Array.from({ length: 3000 }, (_, i) => `/w/src/f${i}.ts`);
    for (const p of paths) queue.add(p, 'upsert');
    await clock.advance(300);
    assert.equal(batches.length, 1);
    // While the engine works on the first batch: everything changes again, some files go away.
    for (const p of paths) queue.add(p, 'upsert');
    for (const p of paths.slice(0, 500)) queue.add(p, 'remove');
    assert.equal(queue.size, 3000, 'bounded by the distinct paths');
    await clock.advance(3000);
    assert.equal(batches.length, 1, 'nothing more while a batch is in flight');
    await clock.advance(2000);
    assert.equal(batches.length, 2);
    assert.equal(batches[0].upserts.length, 3000);
    assert.equal(batches[1].upserts.length, 2500);
    assert.deepEqual(batches[1].removes, paths.slice(0, 500));
    assert.deepEqual(bursts, []);
    await clock.advance(5000);
    assert.ok(queue.idle);
    assert.deepEqual(bursts, [6000], 'one re-walk once the burst is over (the watcher may have lost events)');
  });

  it('forget drops a waiting upsert (a save indexed the file with its text), not a remove', async () => {
    queue.add('/w/a.ts', 'upsert');
    queue.add('/w/b.ts', 'remove');
    queue.add('/w/c.ts', 'upsert');
    queue.forget('/w/a.ts');
    queue.forget('/w/b.ts');
    await clock.advance(1000);
    assert.deepEqual(batches, [{ upserts: ['/w/c.ts'], removes: ['/w/b.ts'], renames: [] }]);
    queue.add('/w/a.ts', 'upsert');
    queue.forget('/w/a.ts');
    await clock.advance(1000);
    assert.equal(batches.length, 1, 'nothing left to send');
  });

  it('a steady stream still goes out every maxWaitMs', async () => {
    for (let i = 0; i < 50; i++) {
      queue.add(`/w/n${i}.md`, 'upsert');
      await clock.advance(100);
    }
    await clock.advance(1000);
    assert.ok(batches.length >= 3 && batches.length <= 4, `${batches.length} batches`);
    assert.equal(batches.flatMap((b) => b.upserts).length, 50);
  });

  it('the latest operation of a path wins; renames keep their order; a failed batch does not stall the queue', async () => {
    let fail = true;
    const sent: FileEventBatch[] = [];
    const q = new FileEventQueue(
      async (b) => {
        sent.push(b);
        if (fail) {
          fail = false;
          throw new Error('engine stopped');
        }
      },
      { clock, debounceMs: 10 },
    );
    q.add('/a', 'upsert');
    q.add('/a', 'remove');
    q.add('/b', 'remove');
    q.add('/b', 'upsert');
    q.rename('/c', '/d');
    q.rename('/d', '/e');
    await clock.advance(20);
    assert.deepEqual(sent[0], { upserts: ['/b'], removes: ['/a'], renames: [{ from: '/c', to: '/d' }, { from: '/d', to: '/e' }] });
    q.add('/z', 'upsert');
    await clock.advance(20);
    assert.deepEqual(sent[1], { upserts: ['/z'], removes: [], renames: [] });
    assert.ok(q.idle);
  });

  it('a flood larger than maxBatchPaths goes out in batches of at most that many, oldest first, each once; the queue times its own tasks', async () => {
    const sent: FileEventBatch[] = [];
    let tasks = 0;
    const q = new FileEventQueue(
      (b) => {
        sent.push(b);
        return new Promise((r) => clock.setTimeout(() => r(undefined), 50));
      },
      { clock, debounceMs: 10, maxBatchPaths: 1000, runTask: (t) => (tasks++, t()) },
    );
    q.rename('/r0', '/r1');
    for (let i = 0; i < 2500; i++) q.add(`/w/f${i}`, i % 10 === 9 ? 'remove' : 'upsert');
    await clock.advance(20);
    assert.equal(sent.length, 1, 'one batch in flight at a time');
    await clock.advance(1000);
    assert.deepEqual(sent.map((b) => b.upserts.length + b.removes.length + b.renames.length), [1000, 1000, 501]);
    assert.deepEqual(sent[0].renames, [{ from: '/r0', to: '/r1' }]);
    const paths = sent.flatMap((b) => [...b.upserts, ...b.removes]);
    assert.equal(new Set(paths).size, 2500);
    assert.equal(sent[0].upserts[0], '/w/f0');
    assert.equal(sent[2].removes[sent[2].removes.length - 1], '/w/f2499');
    assert.ok(q.idle);
    assert.ok(tasks >= 3, `${tasks} tasks run through runTask`);
  });
});
