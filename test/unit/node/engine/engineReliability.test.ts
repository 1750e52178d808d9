/**
 * EngineState under faults: a damaged, old or unwritable cache, a full disk, fingerprint workers
 * that die, an engine that dies mid-index (checkpoints), a branch switch of 3,000 files and
 * hundreds of rapid saves. Every case ends with the report of an undisturbed, fresh scan.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { EngineConfig, EngineEvent, ViewReport } from '../../../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { EngineState, fingerprintKey, type EngineStateOptions, type Fingerprinter } from '../../../../src/node/engine/engineState';
import { CACHE_FORMAT_VERSION, loadCache, nodeCacheIo, type CacheIo } from '../../../../src/node/engine/fingerprintCache';
import { fingerprintDecoded, fingerprintFile } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint } from '../../../../src/node/workers/fileOutcome';
import { codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';
import { canonReport as canon, writeFileAt as write } from '../../helpers/engineFixtures';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heapMB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Fingerprints on the test's thread; can act as a pool whose worker dies on given files. */
class InlineFingerprinter implements Fingerprinter {
  readonly size = 2;
  read: string[] = [];
  /** Path → how many more attempts die (like a fingerprint worker crashing on it). */
  dieOn = new Map<string, number>();
  /** Resolves each batch only after this hook (lets a test hold the index mid-way). */
  gate: (() => Promise<void>) | null = null;
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    if (this.gate) await this.gate();
    for (const f of files) {
      const left = this.dieOn.get(f.path) ?? 0;
      if (left > 0) {
        this.dieOn.set(f.path, left - 1);
        throw new Error('worker crashed twice while processing this task (exit code 1)');
      }
    }
    const out: FileOutcome[] = [];
    for (const f of files) {
      this.read.push(f.path);
      out.push(await fingerprintFile(f, settings));
    }
    return out;
  }
  async fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    return fingerprintDecoded(relPath, text, Buffer.byteLength(text), 'utf-8', settings);
  }
  async close(): Promise<void> {}
}

/** `n` files of branch `seed`: code and prose, every sixth an edited copy of an earlier one. */
function branchFiles(n: number, seed: number, small = false): Map<string, string> {
  const rnd = mulberry32(seed);
  const out = new Map<string, string>();
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    let text: string;
    if (i % 6 === 5) text = editLines(texts[Math.floor(rnd() * texts.length)], rnd, 0.05);
    else if (i % 4 === 0) text = proseText(rnd, small ? 2 : 4);
    else text = codeFile(rnd, small ? 2 : 4);
    texts.push(text);
    out.set(i % 4 === 0 ? `docs/p${i % 9}/n${i}.md` : `src/m${i % 13}/f${i}.ts`, text);
  }
  return out;
}

describe('EngineState reliability', function () {
  this.timeout(60_000);
  let tmp: string;
  let root: string;
  let storage: string;
  let cachePath: string;
  const settings = { ...DEFAULT_ENGINE_SETTINGS };
  const config = (): EngineConfig => ({ settings, include: [], exclude: [], roots: [{ path: root, exclude: [] }] });

  function engine(options: EngineStateOptions = {}, fp = new InlineFingerprinter()) {
    const events: EngineEvent[] = [];
    const e = new EngineState(fp, (ev) => events.push(ev), { saveDelayMs: 5, progressIntervalMs: 0, ...options });
    const logs = () => events.flatMap((ev) => (ev.type === 'log' ? [`${ev.level}: ${ev.message}`] : []));
    return { engine: e, fp, events, logs };
  }

  async function freshReport(): Promise<ViewReport> {
    const { engine: e } = engine();
    await e.init({ config: config(), cachePath: null });
    await e.reindex();
    return e.getReport();
  }

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-reliability-'));
    root = path.join(tmp, 'ws');
    storage = path.join(tmp, 'storage');
    cachePath = path.join(storage, 'fingerprints.bin');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  describe('cache faults', () => {
    let expected: string;
    let files: number;
    let good: Buffer;

    beforeEach(async () => {
      for (const [rel, text] of branchFiles(60, 1)) write(root, rel, text);
      expected = canon(await freshReport());
      const { engine: e } = engine();
      await e.init({ config: config(), cachePath });
      files = (await e.reindex()).reread;
      await e.shutdown();
      good = fs.readFileSync(cachePath);
    });

    const faults: Array<[string, () => void, RegExp]> = [
      ['random bytes', () => fs.writeFileSync(cachePath, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) & 255))), /not a NearDup cache/],
      ['truncated', () => fs.writeFileSync(cachePath, good.subarray(0, good.length >> 1)), /truncated/],
      ['an older format version', () => {
        const old = Buffer.from(good);
        old.writeUInt32LE(CACHE_FORMAT_VERSION + 1, 4);
        fs.writeFileSync(cachePath, old);
      }, /format version/],
      ['a flipped byte', () => {
        const bad = Buffer.from(good);
        bad[bad.length - 100] ^= 0x10;
        fs.writeFileSync(cachePath, bad);
      }, /checksum/],
      ['empty', () => fs.writeFileSync(cachePath, ''), /truncated header/],
    ];
    for (const [name, damage, reason] of faults) {
      it(`${name}: discarded with one log line, every file read again, same report, then a good cache`, async () => {
        damage();
        const { engine: e, logs } = engine();
        const init = await e.init({ config: config(), cachePath });
        assert.equal(init.cacheStatus, 'discarded');
        assert.match(init.cacheReason ?? '', reason);
        const stats = await e.reindex();
        assert.equal(stats.reread, files);
        assert.equal(canon(e.getReport()), expected);
        await e.shutdown();
        assert.equal(logs().length, 1, logs().join('\n'));
        assert.match(logs()[0], /^info: fingerprint cache discarded/);
        const again = engine();
        assert.equal((await again.engine.init({ config: config(), cachePath })).cacheStatus, 'loaded');
        assert.equal((await again.engine.reindex()).reread, 0);
      });
    }

    it('a folder where the cache file should be: one line for the read, one for the failed write; indexing unaffected', async () => {
      fs.rmSync(cachePath);
      fs.mkdirSync(cachePath);
      const { engine: e, logs } = engine();
      assert.equal((await e.init({ config: config(), cachePath })).cacheStatus, 'discarded');
      await e.reindex();
      await e.flushCache();
      assert.equal(canon(e.getReport()), expected);
      const f = path.join(root, 'src/m1/f1.ts');
      for (let i = 0; i < 3; i++) {
        fs.appendFileSync(f, `\n// ${'y'.repeat(i + 1)}\n`);
        await e.update({ upserts: [f], removes: [], renames: [] });
        await e.flushCache();
      }
      await e.shutdown();
      assert.deepEqual(logs().map((l) => l.replace(/\(.*\)/, '(…)')), ['info: fingerprint cache discarded (…); rebuilding it', 'warn: could not write the fingerprint cache (…); indexing goes on without it']);
      assert.ok(fs.statSync(cachePath).isDirectory(), 'a folder it did not make is left alone');
    });

    it('unwritable storage (its parent is a regular file): no cache, one warning for any number of saves, same report', async () => {
      const blocker = path.join(tmp, 'blocker');
      fs.writeFileSync(blocker, 'a file, not a folder');
      const { engine: e, logs } = engine();
      const init = await e.init({ config: config(), cachePath: path.join(blocker, 'storage', 'fingerprints.bin') });
      assert.equal(init.cacheStatus, 'missing');
      await e.reindex();
      const f = path.join(root, 'src/m2/f2.ts');
      for (let i = 0; i < 5; i++) {
        fs.appendFileSync(f, `\n// ${'z'.repeat(i + 1)}\n`);
        await e.update({ upserts: [f], removes: [], renames: [] });
        await e.flushCache();
      }
      await e.reindex();
      await e.shutdown();
      assert.equal(logs().length, 1, logs().join('\n'));
      assert.match(logs()[0], /^warn: could not write the fingerprint cache \((ENOTDIR|EEXIST)/);
      fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/\n\/\/ z+\n/g, ''));
      const restored = engine();
      await restored.engine.init({ config: config(), cachePath: null });
      await restored.engine.reindex();
      assert.equal(canon(restored.engine.getReport()), expected);
    });

    it('a full disk (ENOSPC half-way through the write), then a failing rename: one warning; the old cache survives intact; no temp file; written again once the disk has room', async () => {
      let mode: 'enospc' | 'rename' | 'ok' = 'enospc';
      const writes: string[] = [];
      const io: CacheIo = {
        ...nodeCacheIo,
        async writeFile(file, data) {
          writes.push(mode);
          if (mode === 'enospc') {
            await nodeCacheIo.writeFile(file, data.subarray(0, data.length >> 1));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          await nodeCacheIo.writeFile(file, data);
        },
        async rename(from, to) {
          if (mode === 'rename') throw Object.assign(new Error(`EACCES: permission denied, rename '${from}'`), { code: 'EACCES' });
          await nodeCacheIo.rename(from, to);
        },
      };
      // Something changed since the cache was written: the index has new fingerprints to save.
      const f = path.join(root, 'src/m3/f3.ts');
      fs.appendFileSync(f, '\n// changed while closed\n');
      const { engine: e, logs } = engine({ cacheIo: io });
      assert.equal((await e.init({ config: config(), cachePath })).cacheStatus, 'loaded');
      assert.equal((await e.reindex()).reread, 1);
      await e.flushCache();
      for (let i = 0; i < 4; i++) {
        if (i === 2) mode = 'rename';
        fs.appendFileSync(f, `\n// save ${i}\n`);
        await e.update({ upserts: [f], removes: [], renames: [] });
        await e.flushCache();
      }
      assert.ok(writes.filter((w) => w === 'enospc').length >= 3 && writes.includes('rename'), writes.join());
      assert.equal(logs().length, 1, logs().join('\n'));
      assert.match(logs()[0], /^warn: could not write the fingerprint cache \(ENOSPC/);
      assert.deepEqual(fs.readdirSync(storage), ['fingerprints.bin'], 'temporary files removed');
      assert.ok(fs.readFileSync(cachePath).equals(good), 'the previous cache is untouched');
      // The disk has room again.
      mode = 'ok';
      fs.appendFileSync(f, '\n// room again\n');
      await e.update({ upserts: [f], removes: [], renames: [] });
      await e.shutdown();
      assert.equal(logs().length, 2);
      assert.match(logs()[1], /^info: the fingerprint cache is written again/);
      const after = engine();
      assert.equal((await after.engine.init({ config: config(), cachePath })).cacheStatus, 'loaded');
      assert.equal((await after.engine.reindex()).reread, 0);
    });

    it('temporary files of a writer that died mid-write are removed at the next load; a live writer’s are kept', async () => {
      const dead = `${cachePath}.999999999.1.0.tmp`; // no such process
      const own = `${cachePath}.${process.pid}.2.0.tmp`; // this process, starting over
      const live = `${cachePath}.${process.ppid}.3.0.tmp`; // a running process
      for (const t of [dead, own, live]) fs.writeFileSync(t, 'partial');
      fs.writeFileSync(path.join(storage, 'unrelated.tmp'), 'x');
      const { engine: e } = engine();
      assert.equal((await e.init({ config: config(), cachePath })).cacheStatus, 'loaded');
      assert.deepEqual(fs.readdirSync(storage).sort(), ['fingerprints.bin', path.basename(live), 'unrelated.tmp'].sort());
    });
  });

  it('checkpoints: a long index writes the cache as it goes; an engine that dies mid-way is resumed from the last checkpoint', async () => {
    const tree = branchFiles(240, 7, true);
    for (const [rel, text] of tree) write(root, rel, text);
    const expected = canon(await freshReport());
    // The first engine "dies" after its first checkpoint: nothing it writes later reaches the disk.
    // The checkpoint is written alongside the index (not awaited by it). Its first batches take
    // 2 ms each (a checkpoint is due after 1 ms: one comes among them), and every batch after
    // them waits until the test has cancelled, so the index can never finish before the cancel,
    // whenever the checkpoint's write begins or ends (holding the batches only once the write
    // had begun let the last ones through before it, on a loaded machine: all 240 read).
    let checkpointed!: () => void;
    const firstCheckpoint = new Promise<void>((r) => (checkpointed = r));
    let release!: () => void;
    const afterCancel = new Promise<void>((r) => (release = r));
    let dead = false;
    const io: CacheIo = {
      ...nodeCacheIo,
      async writeFile(file, data) {
        if (dead) throw new Error('the engine is dead');
        await nodeCacheIo.writeFile(file, data);
      },
      async rename(from, to) {
        if (dead) throw new Error('the engine is dead');
        await nodeCacheIo.rename(from, to);
        dead = true;
        checkpointed();
      },
    };
    const fp = new InlineFingerprinter();
    let batches = 0;
    fp.gate = () => (++batches <= 10 ? new Promise((r) => setTimeout(r, 2)) : afterCancel);
    const first = engine({ cacheIo: io, checkpointMs: 1, batchSize: 4 }, fp);
    await first.engine.init({ config: config(), cachePath });
    const running = first.engine.reindex();
    await firstCheckpoint;
    first.engine.cancel();
    release();
    const stopped = await running;
    assert.ok(stopped.cancelled, 'the index was cancelled mid-way');
    assert.ok(stopped.reread < tree.size, `read ${stopped.reread} of ${tree.size}`);

    const second = engine();
    const init = await second.engine.init({ config: config(), cachePath });
    assert.equal(init.cacheStatus, 'loaded');
    assert.ok(init.cacheEntries > 0 && init.cacheEntries < tree.size, `checkpoint held ${init.cacheEntries} of ${tree.size}`);
    const resumed = await second.engine.reindex();
    assert.equal(resumed.cacheHits, init.cacheEntries, 'what the checkpoint held is not read again');
    assert.equal(resumed.reread, tree.size - init.cacheEntries);
    assert.equal(canon(second.engine.getReport()), expected);
  });

  it('a file whose fingerprint worker died is skipped for now, never cached as skipped, and read by the next walk', async () => {
    const tree = branchFiles(30, 3);
    for (const [rel, text] of tree) write(root, rel, text);
    const expected = canon(await freshReport());
    const victim = path.join(root, 'src/m1/f1.ts');
    const fp = new InlineFingerprinter();
    fp.dieOn.set(victim, 2); // its batch dies, then it dies alone
    const { engine: e, events } = engine({}, fp);
    await e.init({ config: config(), cachePath });
    await e.reindex();
    const skipped = events.flatMap((ev) => (ev.type === 'skipped' ? ev.items : []));
    assert.deepEqual(skipped.map((s) => s.path), [victim]);
    assert.match(skipped[0].reason, /fingerprinting failed/);
    assert.notEqual(canon(e.getReport()), expected, 'the victim is missing for now');
    await e.flushCache();
    const cached = await loadCache(cachePath, fingerprintKey(settings));
    assert.equal(cached.status, 'loaded');
    assert.ok(cached.entries.length > 0 && !cached.entries.some((x) => x.path === victim), 'the victim is not cached');
    fp.read = [];
    const again = await e.reindex();
    assert.deepEqual(fp.read, [victim]);
    assert.equal(again.reread, 1);
    assert.equal(canon(e.getReport()), expected);
  });

  it('a branch switch: 3,000 files rewritten, 300 deleted, 300 added, delivered as coalesced batches of every size: same report as a fresh scan; memory bounded', async function () {
    this.timeout(120_000);
    const a = branchFiles(3000, 100, true);
    for (const [rel, text] of a) write(root, rel, text);
    const { engine: e, fp, events } = engine({ saveDelayMs: 1000 });
    await e.init({ config: config(), cachePath: null });
    await e.reindex();
    const heapBefore = heapMB();

    // Branch b: every file of a rewritten, the last 300 gone, 300 new ones.
    const b = branchFiles(3000, 200, true);
    const rnd = mulberry32(5);
    const upserts: string[] = [];
    const removes: string[] = [];
    let i = 0;
    for (const [rel, text] of b) {
      const abs = path.join(root, ...rel.split('/'));
      if (i++ >= 2700) {
        fs.rmSync(abs);
        removes.push(abs);
      } else {
        write(root, rel, text);
        upserts.push(abs);
      }
    }
    for (let k = 0; k < 300; k++) upserts.push(write(root, `src/new/g${k}.ts`, codeFile(rnd, 2)));
    // As the watcher delivers them: out of order, with echoes, in batches of 50 to 1,200 paths
    // (small batches are matched incrementally, big ones from scratch).
    const all = [...upserts.map((p) => ({ p, op: 'upsert' as const })), ...removes.map((p) => ({ p, op: 'remove' as const }))];
    all.sort(() => rnd() - 0.5);
    for (const x of all.slice(0, 400)) all.push(x); // echoes
    fp.read = [];
    const reportsBefore = events.filter((ev) => ev.type === 'report').length;
    let batches = 0;
    for (let at = 0; at < all.length; ) {
      const n = [50, 400, 1200, 120, 700][batches % 5];
      const slice = all.slice(at, at + n);
      at += n;
      batches++;
      await e.update({ upserts: slice.filter((x) => x.op === 'upsert').map((x) => x.p), removes: slice.filter((x) => x.op === 'remove').map((x) => x.p), renames: [] });
    }
    const heapAfter = heapMB();
    const switched = e.getReport();
    assert.equal(new Set(fp.read).size, fp.read.length, 'no file read twice');
    assert.equal(fp.read.length, upserts.length);
    assert.ok(events.filter((ev) => ev.type === 'report').length - reportsBefore <= batches);
    const fresh = await freshReport();
    assert.ok(fresh.groups.length > 100, `${fresh.groups.length} groups`);
    assert.equal(canon(switched), canon(fresh));
    const grew = heapAfter - heapBefore;
    console.log(`      heap ${heapBefore.toFixed(1)} MB → ${heapAfter.toFixed(1)} MB after the switch (${batches} batches, ${fp.read.length} files read)`);
    assert.ok(grew < 25, `the heap grew by ${grew.toFixed(1)} MB`);
  });

  it('hundreds of rapid saves of one file, each sent as its own update: one read per save, bounded memory, same report as a fresh scan', async () => {
    const tree = branchFiles(200, 9);
    for (const [rel, text] of tree) write(root, rel, text);
    const { engine: e, fp } = engine({ saveDelayMs: 1000 });
    await e.init({ config: config(), cachePath });
    await e.reindex();
    const heapBefore = heapMB();
    const f = path.join(root, 'src/m5/f5.ts');
    const base = fs.readFileSync(f, 'utf8');
    const rnd = mulberry32(77);
    fp.read = [];
    const pending: Array<Promise<unknown>> = [];
    for (let i = 0; i < 300; i++) {
      // Half the saves make it a copy of another file, half make it unique again.
      fs.writeFileSync(f, i % 2 ? `${base}\n// save ${i}\n` : `${codeFile(rnd, 4)}\n// save ${i}\n`);
      pending.push(e.update({ upserts: [f], removes: [], renames: [] }));
      if (i % 50 === 49) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    await e.flushCache();
    const heapAfter = heapMB();
    assert.ok(fp.read.length <= 300);
    assert.equal(canon(e.getReport()), canon(await freshReport()));
    assert.ok(heapAfter - heapBefore < 10, `the heap grew by ${(heapAfter - heapBefore).toFixed(1)} MB`);
  });
});
