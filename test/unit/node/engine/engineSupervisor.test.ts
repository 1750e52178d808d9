import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineConfig, EngineTuning, ViewReport } from '../../../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { EngineStoppedError, EngineSupervisor, type CrashInfo, type EngineSupervisorOptions, type RecoveryInfo } from '../../../../src/node/engine/engineSupervisor';
import { chineseText, codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';
import { canonReport as canon, writeFileAt as write } from '../../helpers/engineFixtures';
import { buildEngineWorkers } from '../../helpers/engineBundle';

/** A tree of code, prose and Chinese files, every seventh an edited copy of an earlier one. */
function makeTree(root: string, files: number, seed: number): string[] {
  const rnd = mulberry32(seed);
  const texts: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    let rel: string;
    let text: string;
    if (i % 7 === 6) {
      const j = Math.floor(rnd() * texts.length);
      text = editLines(texts[j], rnd, 0.05);
      rel = paths[j].replace(/(\.\w+)$/, `-copy${i}$1`);
    } else if (i % 29 === 3) {
      text = chineseText(rnd, 4);
      rel = `zh/doc${i}.md`;
    } else if (i % 5 === 0) {
      text = proseText(rnd, 5);
      rel = `docs/d${i % 4}/doc${i}.md`;
    } else {
      text = codeFile(rnd, 4);
      rel = `src/m${i % 6}/file${i}.ts`;
    }
    texts.push(text);
    paths.push(rel);
    write(root, rel, text);
  }
  return paths.map((p) => path.join(root, ...p.split('/')));
}

/** A stand-in engine worker (plain JS): answers init/reindex, and dies where it is told to. */
const FAKE_ENGINE = `
const { parentPort } = require('node:worker_threads');
if (process.env.NEARDUP_FAKE_DIE_AT_START === '1') process.exit(2);
parentPort.on('message', ({ id, req }) => {
  const ok = (res) => parentPort.postMessage({ kind: 'response', id, ok: true, res });
  switch (req.type) {
    case 'init': return ok({ cacheStatus: 'none', cacheEntries: 0 });
    case 'reindex': return ok({ files: 0, reread: 0, cacheHits: 0, removed: 0, skipped: 0, cancelled: false, elapsedMs: 0, matchMs: 0 });
    case 'update': process.exit(3); // a poisonous request: kills every worker it reaches
    default: return ok(null);
  }
});
`;

describe('EngineSupervisor (the real engine worker, killed)', function () {
  this.timeout(60_000);
  let engineScript: string;
  let workerScript: string;
  let tmp: string;
  let root: string;
  let storage: string;
  const supervisors: EngineSupervisor[] = [];
  const tuning: EngineTuning = { progressIntervalMs: 0, checkpointMs: 30, saveDelayMs: 20 };

  const config = (): EngineConfig => ({ settings: { ...DEFAULT_ENGINE_SETTINGS }, include: [], exclude: [], roots: [{ path: root, exclude: [] }] });

  function supervisor(opts: Partial<EngineSupervisorOptions> = {}): EngineSupervisor {
    const s = new EngineSupervisor({ script: engineScript, ...opts });
    supervisors.push(s);
    return s;
  }

  /** An undisturbed engine's report of the tree as it is now (no cache). */
  async function undisturbed(): Promise<ViewReport> {
    const s = supervisor();
    s.start();
    await s.request({ type: 'init', config: config(), cachePath: null, workerScript, poolSize: 2, tuning });
    await s.request({ type: 'reindex' });
    const report = await s.request({ type: 'getReport' });
    await s.stop();
    return report;
  }

  before(async () => {
    ({ engineScript, workerScript } = await buildEngineWorkers());
  });

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-supervisor-'));
    root = path.join(tmp, 'ws');
    storage = path.join(tmp, 'storage');
  });

  afterEach(async () => {
    for (const s of supervisors.splice(0)) s.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('killed at 40 random points (kill, exit, uncaught error; fingerprint workers too) while indexing and updating: nothing lost, same report as an undisturbed run', async function () {
    this.timeout(120_000);
    const files = makeTree(root, 280, 11);
    const rnd = mulberry32(99);
    const KILLS = 40;
    const sup = supervisor({ backoffInitialMs: 5, backoffMaxMs: 40, maxRestarts: 1000 });
    const crashes: CrashInfo[] = [];
    const recoveries: RecoveryInfo[] = [];
    const gaveUp: string[] = [];
    const pending: Array<Promise<unknown>> = [];
    let poolKills = 0;
    let eventsOfWorker = 0;
    let onEventHook: (() => void) | null = null;
    let onCrashHook: (() => void) | null = null;
    let onSpawnHook: (() => void) | null = null;
    let killPoolWhileReading = false;
    sup.onEvent((e) => {
      eventsOfWorker++;
      // A fingerprint worker dies too, while files are being read.
      if (killPoolWhileReading && e.type === 'progress' && e.phase === 'reading' && e.done < e.total) {
        killPoolWhileReading = false;
        pending.push(sup.request({ type: 'debugCrash', target: 'pool' }).then((r) => (poolKills += r.terminated)));
      }
      onEventHook?.();
    });
    sup.onSpawn(() => {
      eventsOfWorker = 0;
      onSpawnHook?.();
    });
    sup.onCrash((c) => {
      crashes.push(c);
      onCrashHook?.();
    });
    sup.onRecovered((r) => recoveries.push(r));
    sup.onGiveUp((m) => gaveUp.push(m));

    sup.start();
    pending.push(sup.request({ type: 'init', config: config(), cachePath: path.join(storage, 'fingerprints.bin'), workerScript, poolSize: 2, tuning }));
    pending.push(sup.request({ type: 'reindex' }));
    const modes = ['kill', 'exit', 'throw'] as const;
    const used = new Map<string, number>();
    let edits = 0;

    for (let kill = 0; kill < KILLS; kill++) {
      if (sup.phase === 'waiting') await new Promise<void>((r) => (onSpawnHook = r));
      onSpawnHook = null;
      // Half the time let the restarted worker catch up first (then the kill hits live updates,
      // a later reindex or an idle engine); else it dies during its own recovery.
      if (rnd() < 0.5) {
        await sup.whenSettled();
        if (rnd() < 0.5) pending.push(sup.request({ type: 'reindex' }));
      }
      // A random point: after k more events of this worker, or after t ms if it is quiet.
      const k = Math.floor(rnd() * 40);
      const t = Math.floor(rnd() * 80);
      const start = eventsOfWorker;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, t);
        function done() {
          clearTimeout(timer);
          onEventHook = null;
          resolve();
        }
        onEventHook = () => {
          if (eventsOfWorker - start >= k) done();
        };
        if (k === 0) done();
      });
      // Meanwhile the workspace changes: an edit (sizes always change) and its update.
      if (rnd() < 0.35) {
        const f = files[Math.floor(rnd() * files.length)];
        fs.appendFileSync(f, `\n// edit ${edits++}: ${'x'.repeat(1 + Math.floor(rnd() * 40))}\n`);
        pending.push(sup.request({ type: 'update', upserts: [f], removes: [], renames: [] }));
      }
      if (rnd() < 0.5) killPoolWhileReading = true;
      const mode = sup.phase === 'running' ? modes[Math.floor(rnd() * modes.length)] : 'kill';
      used.set(mode, (used.get(mode) ?? 0) + 1);
      const crashed = new Promise<void>((r) => (onCrashHook = r));
      if (mode === 'kill') assert.ok(sup.kill(), 'a worker to kill');
      else void sup.request({ type: 'debugCrash', target: 'engine', how: mode });
      await crashed;
      onCrashHook = null;
    }

    const settled = await Promise.allSettled(pending);
    const rejected = settled.filter((s) => s.status === 'rejected');
    assert.deepEqual(rejected, [], 'every request was answered');
    await sup.whenSettled();
    const final = await sup.request({ type: 'getReport' });
    await sup.stop();

    assert.equal(crashes.length, KILLS);
    assert.equal(sup.restarts, KILLS);
    assert.ok(recoveries.length >= 5, `${recoveries.length} recoveries completed`);
    assert.deepEqual(gaveUp, []);
    assert.ok(crashes.every((c) => c.restartInMs !== null && c.restartInMs <= 40));
    for (const m of modes) assert.ok((used.get(m) ?? 0) > 0, `kill mode ${m} used`);
    assert.ok(poolKills > 0, 'fingerprint workers were killed too');
    // Work done before a crash was kept: some restarts started from a checkpoint of the cache.
    assert.ok(recoveries.some((r) => (r.stats?.cacheHits ?? 0) > 0), 'a restart reused fingerprints read before the crash');
    // Dead writers' temporary files do not pile up in the storage folder: the fingerprint cache
    // and the located copies' (regions/regionCache.ts) are all there is.
    assert.deepEqual(fs.readdirSync(storage).sort(), ['fingerprints.bin', 'fingerprints.bin.regions']);

    const expected = await undisturbed();
    assert.ok(expected.groups.length >= 20, `planted groups found (${expected.groups.length})`);
    assert.equal(canon(final), canon(expected));
    console.log(`      ${KILLS} engine kills (${[...used].map(([m, n]) => `${m} ${n}`).join(', ')}), ${poolKills} fingerprint-worker kills, ${edits} edits; ` + `${recoveries.length} recoveries completed, median ${recoveries.map((r) => r.ms).sort((a, b) => a - b)[recoveries.length >> 1]} ms`);
  });

  it('an engine that runs out of memory (under its heap limit) is restarted, not the process; results unchanged', async () => {
    makeTree(root, 60, 5);
    const sup = supervisor({ backoffInitialMs: 5, resourceLimits: { maxOldGenerationSizeMb: 96 } });
    const crashes: CrashInfo[] = [];
    sup.onCrash((c) => crashes.push(c));
    sup.start();
    await sup.request({ type: 'init', config: config(), cachePath: path.join(storage, 'fingerprints.bin'), workerScript, poolSize: 1, tuning });
    const first = await sup.request({ type: 'reindex' });
    const before = await sup.request({ type: 'getReport' });
    await sup.request({ type: 'flushCache' });
    const recovered = new Promise<RecoveryInfo>((r) => sup.onRecovered(r));
    void sup.request({ type: 'debugCrash', target: 'engine', how: 'oom' });
    const r = await recovered;
    assert.equal(crashes.length, 1);
    assert.match(crashes[0].reason, /out of memory|ERR_WORKER_OUT_OF_MEMORY/i);
    assert.equal(r.init?.cacheStatus, 'loaded');
    assert.equal(r.stats?.reread, 0, 'the restarted engine read nothing again');
    assert.equal(r.stats?.cacheHits, first.reread);
    assert.equal(canon(await sup.request({ type: 'getReport' })), canon(before));
  });

  it('a restarted engine reads the folders’ baselines again: the twins they hold stay marked after a crash (issue 15)', async () => {
    makeTree(root, 30, 4);
    const sup = supervisor({ backoffInitialMs: 5 });
    sup.start();
    await sup.request({ type: 'init', config: config(), cachePath: null, workerScript, poolSize: 1, tuning });
    await sup.request({ type: 'reindex' });
    const items = (await sup.request({ type: 'getReport' })).items;
    const pairs = items.flatMap((i) => i.twins.filter((t) => i.loc.path < t.path).map((t) => ({ kind: i.kind, a: i.loc, b: { path: t.path, startLine: t.startLine, endLine: t.endLine } })));
    assert.ok(pairs.length >= 4, `planted pairs (${pairs.length})`);
    const file = path.join(tmp, 'baseline.json');
    const made = await sup.request({ type: 'addToBaseline', root, file, pairs });
    assert.ok('text' in made, JSON.stringify(made));
    fs.writeFileSync(file, made.text);
    await sup.request({ type: 'setBaselines', baselines: [{ root, file }] });
    const marks = (r: { items: Array<{ twins: Array<{ baseline?: boolean }> }> }) => r.items.flatMap((i) => i.twins.map((t) => t.baseline === true));
    const before = marks(await sup.request({ type: 'getReport' }));
    assert.ok(before.length > 0 && before.every(Boolean), 'every twin marked');
    const recovered = new Promise<RecoveryInfo>((r) => sup.onRecovered(r));
    void sup.request({ type: 'debugCrash', target: 'engine', how: 'exit' });
    await recovered;
    assert.deepEqual(marks(await sup.request({ type: 'getReport' })), before);
  });

  it('fingerprint workers killed during a long read: no file is lost or wrongly skipped', async () => {
    makeTree(root, 200, 23);
    const sup = supervisor();
    sup.start();
    const skipped: string[] = [];
    let kills = 0;
    let reading = 0;
    const killing: Array<Promise<unknown>> = [];
    sup.onEvent((e) => {
      if (e.type === 'skipped') skipped.push(...e.items.map((i) => `${path.basename(i.path)}: ${i.reason}`));
      // Kill a fingerprint worker at every third progress event of the read.
      if (e.type === 'progress' && e.phase === 'reading' && ++reading % 3 === 0) {
        killing.push(sup.request({ type: 'debugCrash', target: 'pool' }).then((r) => (kills += r.terminated)));
      }
    });
    await sup.request({ type: 'init', config: config(), cachePath: null, workerScript, poolSize: 2, tuning: { ...tuning, batchSize: 4 } });
    await sup.request({ type: 'reindex' });
    await Promise.all(killing);
    const report = await sup.request({ type: 'getReport' });
    assert.ok(kills >= 5, `${kills} fingerprint workers killed`);
    assert.equal(sup.restarts, 0, 'the engine itself did not restart');
    assert.deepEqual(skipped, []);
    assert.equal(canon(report), canon(await undisturbed()));
  });

  describe('back-off and giving up (a stand-in worker)', () => {
    let fake: string;
    beforeEach(() => {
      fake = path.join(tmp, 'fake-engine.js');
      fs.writeFileSync(fake, FAKE_ENGINE);
    });
    afterEach(() => {
      delete process.env.NEARDUP_FAKE_DIE_AT_START;
    });

    it('restarts after 100, 200, 400, 800, 1600 ms, then gives up once with one message; start() tries again', async function () {
      this.timeout(20_000);
      process.env.NEARDUP_FAKE_DIE_AT_START = '1';
      const sup = new EngineSupervisor({ script: fake });
      supervisors.push(sup);
      const delays: Array<number | null> = [];
      const gaveUp: string[] = [];
      sup.onCrash((c) => delays.push(c.restartInMs));
      const given = new Promise<void>((r) =>
        sup.onGiveUp((m) => {
          gaveUp.push(m);
          r();
        }),
      );
      sup.start();
      const init = sup.request({ type: 'init', config: config(), cachePath: null });
      await assert.rejects(init, (e: Error) => e instanceof EngineStoppedError && /6 times in a row/.test(e.message));
      await given;
      assert.deepEqual(delays, [100, 200, 400, 800, 1600, null]);
      assert.equal(gaveUp.length, 1);
      assert.match(gaveUp[0], /stopped 6 times in a row.*exit code 2/);
      assert.equal(sup.phase, 'failed');
      assert.equal(sup.running, false);
      await assert.rejects(sup.request({ type: 'stats' }), EngineStoppedError);
      sup.start();
      assert.equal(sup.phase, 'running');
    });

    it('caps the back-off at backoffMaxMs', async () => {
      process.env.NEARDUP_FAKE_DIE_AT_START = '1';
      const sup = new EngineSupervisor({ script: fake, backoffInitialMs: 10, backoffMaxMs: 25, maxRestarts: 4 });
      supervisors.push(sup);
      const delays: Array<number | null> = [];
      sup.onCrash((c) => delays.push(c.restartInMs));
      sup.start();
      await assert.rejects(sup.request({ type: 'init', config: config(), cachePath: null }), EngineStoppedError);
      assert.deepEqual(delays, [10, 20, 25, 25, null]);
    });

    it('a request that kills every worker it reaches is given up, not replayed forever; earlier requests were answered', async () => {
      const sup = new EngineSupervisor({ script: fake, backoffInitialMs: 5, maxRestarts: 4 });
      supervisors.push(sup);
      const recoveries: RecoveryInfo[] = [];
      sup.onRecovered((r) => recoveries.push(r));
      sup.start();
      assert.equal((await sup.request({ type: 'init', config: config(), cachePath: null })).cacheStatus, 'none');
      assert.equal((await sup.request({ type: 'reindex' })).cancelled, false);
      await assert.rejects(sup.request({ type: 'update', upserts: ['/x'], removes: [], renames: [] }), EngineStoppedError);
      // Each new worker was brought back (init + reindex) before the update was sent again.
      assert.equal(recoveries.length, 4);
      assert.ok(recoveries.every((r) => r.init?.cacheStatus === 'none' && r.stats !== null));
      assert.equal(sup.phase, 'failed');
    });

    it('requests made during a restart wait for it; a cancel while no worker runs is answered at once', async () => {
      const sup = new EngineSupervisor({ script: fake, backoffInitialMs: 30 });
      supervisors.push(sup);
      sup.start();
      await sup.request({ type: 'init', config: config(), cachePath: null });
      const crashed = new Promise<void>((r) => sup.onCrash(() => r()));
      sup.kill();
      await crashed;
      assert.equal(sup.phase, 'waiting');
      assert.deepEqual(await sup.request({ type: 'cancel' }), { cancelled: false });
      const stats = sup.request({ type: 'stats' });
      const init = sup.request({ type: 'init', config: config(), cachePath: null });
      assert.equal(await stats, null);
      assert.equal((await init).cacheStatus, 'none');
      assert.equal(sup.phase, 'running');
      assert.equal(sup.restarts, 1);
    });
  });
});
