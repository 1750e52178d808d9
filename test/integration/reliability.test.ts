// Reliability inside the real extension host: the engine worker killed while indexing (and given
// up after repeated crashes), rapid saves, a branch switch of a few hundred files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import type { ViewReport } from '../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/node/settings/engineSettings';
import { scanDirectory } from '../../src/node/scan/scan';
import { EXTENSION_ID, canonReport, closeAllEditors, fileGroups, fixture, getApi, sectionGroups, waitForReport, waitUntil, workspaceRoot } from './helpers';

const MB = 1024 * 1024;
const count = (lines: string[], re: RegExp) => lines.filter((l) => re.test(l)).length;

/** Gives every fixture file a new mtime (same content), so the next walk reads them all again. */
function touchAll(root: string, seconds: number): void {
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else fs.utimesSync(p, new Date(), new Date(Date.now() + seconds * 1000));
    }
  };
  walk(root);
}

describe('reliability: the engine worker dies', () => {
  let api: NearDupApi;
  let baseline: string;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
    await api.index.restart(); // a fresh supervisor: no crash counted yet
    await api.index.whenIdle();
    baseline = canonReport(api.index.getReport()!);
  });

  it('killed at points of indexing (kill, exit, uncaught error; a fingerprint worker too): restarted with back-off, the same report, one log line per crash', async () => {
    const restartsBefore = api.index.engineRestarts();
    const mark = api.log.count();
    // [how, when]: the engine dies as soon as the refresh reaches that point.
    const plan: Array<['kill' | 'exit' | 'throw' | 'pool', 'indexing' | 'walking' | 'reading' | 'matching']> = [
      ['kill', 'indexing'],
      ['pool', 'reading'],
      ['exit', 'reading'],
      ['throw', 'walking'],
      ['kill', 'matching'],
    ];
    let round = 0;
    let expectedRestarts = restartsBefore;
    for (const [how, when] of plan) {
      touchAll(workspaceRoot().fsPath, ++round * 60); // every file is read again
      let fired = false;
      const point = waitUntil(
        () => {
          const p = api.index.progress();
          return api.index.state() === 'indexing' && (when === 'indexing' || p?.phase === when) ? true : undefined;
        },
        [api.index.onDidChangeState],
        `the refresh to reach ${when}`,
      ).then(async () => {
        fired = await api.index.debugKillEngine(how);
      });
      await api.index.refresh(); // answered by the restarted engine when it died
      await point;
      if (how !== 'pool') {
        assert.ok(fired, `${how} at ${when}`);
        // The kill may land just after the refresh ended: wait for that restart too.
        expectedRestarts++;
        await waitUntil(() => api.index.engineRestarts() >= expectedRestarts || undefined, [api.index.onDidChangeState, api.index.onDidUpdate], `restart after ${how} at ${when}`);
      } // (a pool may have no worker left to kill)
      await api.index.whenIdle();
      assert.strictEqual(canonReport(api.index.getReport()!), baseline, `the report after ${how} at ${when}`);
    }
    const engineKills = plan.filter(([how]) => how !== 'pool').length;
    assert.strictEqual(api.index.engineRestarts() - restartsBefore, engineKills);
    const fresh = api.log.since(mark);
    assert.strictEqual(count(fresh, /^warn: the engine worker stopped unexpectedly .*; restarting it in \d+ ms$/), engineKills, fresh.join('\n'));
    assert.strictEqual(count(fresh, /^info: engine restarted and caught up/), engineKills, fresh.join('\n'));
    assert.strictEqual(count(fresh, /^error:/), 0, fresh.join('\n'));
    assert.strictEqual(api.index.state(), 'ready');
    await api.index.restart();
  });

  it('six crashes in a row: given up with one clear line in the NearDup output (no popup), state error; Refresh starts it again', async () => {
    await api.index.restart(); // a fresh supervisor: no crash counted yet
    await api.index.whenIdle();
    const mark = api.log.count();
    const restarts = api.index.engineRestarts();
    for (let i = 0; i < 6; i++) {
      if (i > 0) {
        // The restarted engine catching up (its recovery re-indexes): kill it again.
        await waitUntil(() => (api.index.engineRestarts() === restarts + i && api.index.progress()) || undefined, [api.index.onDidChangeState], `restart ${i}`, 20_000);
      }
      assert.ok(await api.index.debugKillEngine('kill'), `kill ${i + 1}`);
    }
    await waitUntil(() => api.index.state() === 'error' || undefined, [api.index.onDidChangeState], 'the error state');
    await api.index.whenIdle();
    const lines = api.log.since(mark);
    assert.deepStrictEqual(
      lines.filter((l) => /restarting it in/.test(l)).map((l) => Number(/in (\d+) ms/.exec(l)![1])),
      [100, 200, 400, 800, 1600],
      lines.join('\n'),
    );
    const errors = lines.filter((l) => l.startsWith('error:'));
    assert.strictEqual(errors.length, 1, lines.join('\n'));
    assert.match(errors[0], /stopped 6 times in a row and is not restarted again.*NearDup: Refresh/);
    assert.strictEqual(api.status().text, '$(error) NearDup');
    // The user's Refresh brings it back.
    await api.index.refresh();
    await api.index.whenIdle();
    assert.strictEqual(api.index.state(), 'ready');
    assert.strictEqual(canonReport(api.index.getReport()!), baseline);
  });
});

describe('reliability: rapid saves and a branch switch', () => {
  let api: NearDupApi;
  let baseline: string;

  before(async () => {
    api = await getApi();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
    await api.index.whenIdle();
    baseline = canonReport(api.index.getReport()!);
  });

  after(async () => {
    await closeAllEditors();
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('one file saved 200 times in a few seconds (file writes), then 10 editor saves: coalesced into few engine batches; memory bounded; the report ends as before', async () => {
    const uri = fixture('code/orderServiceCopy.ts');
    const original = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    const unique = Buffer.from(await vscode.workspace.fs.readFile(fixture('notes/unique-meeting-notes.md'))).toString('utf8');
    const batchesBefore = api.index.eventBatches();
    const hostBefore = api.memoryUsage().heapUsed;
    const engineBefore = (await api.index.engineStats())!.heapUsed;
    const t0 = performance.now();
    let lastWritten = '';
    for (let i = 0; i < 200; i++) {
      lastWritten = i % 2 ? `${original}\n// save ${i}\n` : `${unique}\n${i}\n`;
      await vscode.workspace.fs.writeFile(uri, Buffer.from(lastWritten));
    }
    const writesMs = Math.round(performance.now() - t0);
    const editor = await vscode.window.showTextDocument(uri);
    // VS Code may still be reloading the document from disk after the burst of writes; an edit
    // made meanwhile is refused (edit() resolves false). Edit only once it shows the last write.
    await waitUntil(() => editor.document.getText() === lastWritten || undefined, [vscode.workspace.onDidChangeTextDocument], 'the editor showing the last write', 20_000);
    /** Applies an edit; retried if a reload from disk raced it (edit() resolves false then). */
    const edit = async (apply: (b: vscode.TextEditorEdit) => void, what: string) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        if (await editor.edit(apply)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`${what}: refused 5 times`);
    };
    for (let i = 0; i < 10; i++) {
      await edit((b) => b.insert(new vscode.Position(0, 0), `// edit ${i}\n`), `edit ${i}`);
      assert.ok(await editor.document.save(), `editor save ${i}`);
    }
    await edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), original), 'restoring the original');
    assert.ok(await editor.document.save());
    await waitForReport(api, (r) => canonReport(r) === baseline, 'the report as before the saves', 30_000);
    const batches = api.index.eventBatches() - batchesBefore;
    const hostGrowth = (api.memoryUsage().heapUsed - hostBefore) / MB;
    const engineGrowth = ((await api.index.engineStats())!.heapUsed - engineBefore) / MB;
    console.log(`      211 saves (200 writes in ${writesMs} ms): ${batches} engine batches; heap growth host ${hostGrowth.toFixed(1)} MB, engine ${engineGrowth.toFixed(1)} MB`);
    assert.ok(batches >= 1 && batches <= 40, `${batches} batches for 211 saves`);
    assert.ok(hostGrowth < 50 && engineGrowth < 50, `heap growth host ${hostGrowth.toFixed(1)} MB, engine ${engineGrowth.toFixed(1)} MB`);
  });

  it('a branch switch: 300 files appear, then all change, 60 go and 60 come at once: the groups of a fresh scan; memory bounded', async function () {
    this.timeout(180_000);
    const root = workspaceRoot().fsPath;
    const dir = path.join(root, 'branch');
    const base = fs.readFileSync(fixture('code/orderService.ts').fsPath, 'utf8');
    const prose = fs.readFileSync(fixture('docs/en/backup-guide.md').fsPath, 'utf8');
    /** Branch b's variant of a file: copies of the fixture's code and prose, differently edited. */
    const variant = (i: number, b: number) =>
      (i % 2 ? base : prose)
        .split('\n')
        .map((l, n) => ((n * 7 + i * 13 + b) % 11 === 0 ? `${l} ${b === 0 ? 'alpha' : 'beta'}${i}` : l))
        .join('\n');
    const fileOf = (i: number) => path.join(dir, `m${i % 10}`, `f${i}.${i % 2 ? 'ts' : 'md'}`);
    const writeBranch = (b: number, from: number, to: number) => {
      for (let i = from; i < to; i++) {
        fs.mkdirSync(path.dirname(fileOf(i)), { recursive: true });
        fs.writeFileSync(fileOf(i), variant(i, b));
      }
    };
    const hostBefore = api.memoryUsage().heapUsed;
    /**
     * Runs `change` and waits until its file events reached the engine. Folders are made one level
     * at a time this way: the watcher only watches a new folder once it has seen it appear, and
     * what is written into it before is never reported (the burst re-walk catches those files,
     * but a later change inside a folder it never watched would go unnoticed).
     */
    const settle = async (what: string, change: () => void) => {
      const batches = api.index.eventBatches();
      change();
      await waitUntil(() => api.index.eventBatches() > batches || undefined, [api.index.onDidChangeState, api.index.onDidUpdate], what);
      await api.index.whenIdle();
    };
    try {
      await settle('the branch folder seen', () => fs.mkdirSync(dir));
      await settle('its subfolders seen', () => {
        for (let m = 0; m < 10; m++) fs.mkdirSync(path.join(dir, `m${m}`));
      });
      writeBranch(0, 0, 300);
      await waitForReport(api, (r) => r.files === JSON.parse(baseline).files + 300, 'the 300 new files indexed', 60_000);
      const engineBefore = (await api.index.engineStats())!.heapUsed;
      // The switch: every file changes, 60 go, 60 come.
      writeBranch(1, 0, 240);
      for (let i = 240; i < 300; i++) fs.rmSync(fileOf(i));
      writeBranch(1, 300, 360);
      const fresh = await scanDirectory({
        root,
        settings: { ...DEFAULT_ENGINE_SETTINGS },
        exclude: ['**/*.min.*', '**/*.map', '**/package-lock.json', '**/yarn.lock', '**/pnpm-lock.yaml'],
        workerScript: path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'worker.js'),
        workers: 2,
        quiet: true,
      });
      const sorted = (xs: string[][]) => xs.map((g) => [...g].sort()).sort((a, b) => (a.join() < b.join() ? -1 : 1));
      const expected = JSON.stringify({
        files: sorted(fresh.groups.filter((g) => g.kind === 'file').map((g) => g.members)),
        sections: sorted(fresh.groups.filter((g) => g.kind === 'section').map((g) => g.members)),
      });
      const actual = (r: ViewReport) => JSON.stringify({ files: sorted(fileGroups(r)), sections: sorted(sectionGroups(r)) });
      const r = await waitForReport(api, (x) => actual(x) === expected, 'the groups of a fresh scan', 90_000).catch((e: Error) => {
        const now = api.index.getReport()!;
        const mine = new Set((JSON.parse(actual(now)) as { files: string[][] }).files.map((g) => g.join()));
        const theirs = new Set((JSON.parse(expected) as { files: string[][] }).files.map((g) => g.join()));
        throw new Error(
          `${e.message}: ${now.files} files indexed, ${fresh.stats.files} scanned; state ${api.index.state()}; ` +
            `only in the index: ${[...mine].filter((g) => !theirs.has(g)).join(' / ').slice(0, 2000)}; only in the scan: ${[...theirs].filter((g) => !mine.has(g)).join(' / ').slice(0, 2000)}`,
        );
      });
      assert.ok(fresh.groups.length > 10, `${fresh.groups.length} groups`);
      assert.strictEqual(r.files, fresh.stats.files);
      const hostGrowth = (api.memoryUsage().heapUsed - hostBefore) / MB;
      const engineGrowth = ((await api.index.engineStats())!.heapUsed - engineBefore) / MB;
      console.log(`      branch switch of 360 files: ${fresh.groups.length} groups as a fresh scan; heap growth host ${hostGrowth.toFixed(1)} MB, engine ${engineGrowth.toFixed(1)} MB`);
      assert.ok(hostGrowth < 100 && engineGrowth < 100, `heap growth host ${hostGrowth.toFixed(1)} MB, engine ${engineGrowth.toFixed(1)} MB`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await waitForReport(api, (r) => canonReport(r) === baseline, 'the fixture report again', 60_000);
  });
});
