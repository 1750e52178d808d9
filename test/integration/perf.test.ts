// Opt-in measurements on a large workspace (not part of the normal run):
//   NEARDUP_PERF=1 node scripts/run-vscode-tests.js --workspace /tmp/big-workspace --grep perf
// Reports activation time, first-index time, save-to-diagnostics latency, warm-start time and
// the extension host's memory. NEARDUP_PERF_OUT=<file> also writes them as JSON.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { getApi, waitForDiagnostics, waitForReport } from './helpers';

const MB = 1024 * 1024;

describe('perf (opt-in: NEARDUP_PERF=1)', function () {
  this.timeout(20 * 60_000);
  let api: NearDupApi;
  const results: Record<string, unknown> = {};

  before(async function () {
    if (!process.env.NEARDUP_PERF) this.skip();
    api = await getApi();
  });

  after(() => {
    if (!process.env.NEARDUP_PERF) return;
    console.log(`PERF ${JSON.stringify(results, null, 2)}`);
    if (process.env.NEARDUP_PERF_OUT) fs.writeFileSync(process.env.NEARDUP_PERF_OUT, JSON.stringify(results, null, 2) + '\n');
  });

  it('first index of the workspace', async () => {
    await waitForReport(api, (r) => r.lastJob !== null, 'the first index', 15 * 60_000);
    await api.index.whenIdle();
    const stats = api.index.lastIndexStats();
    const report = api.index.getReport()!;
    const mem = api.memoryUsage();
    const engine = await api.index.engineStats();
    Object.assign(results, {
      activateMs: Number(api.timings.activateMs.toFixed(2)),
      firstIndexMs: api.timings.firstIndexMs(),
      files: report.files,
      sections: report.sections,
      pairs: report.pairs,
      groups: report.groups.length,
      firstIndex: stats,
      hostMemoryAtActivation: { rssMB: +(api.timings.memoryAtActivation.rss / MB).toFixed(1), heapUsedMB: +(api.timings.memoryAtActivation.heapUsed / MB).toFixed(1) },
      hostMemoryAfterIndex: { rssMB: +(mem.rss / MB).toFixed(1), heapUsedMB: +(mem.heapUsed / MB).toFixed(1) },
      engineHeapMB: engine ? +(engine.heapUsed / MB).toFixed(1) : undefined,
    });
    assert.ok(report.files >= 5000, `only ${report.files} files`);
  });

  it('save-to-diagnostics latency', async () => {
    const report = api.index.getReport()!;
    const withDiag = new Set(report.items.map((i) => i.loc.path));
    // Sources: files in a file group of two; targets: files with no near duplicates.
    const sources = report.groups.filter((g) => g.kind === 'file' && g.members.length === 2).map((g) => g.members[0].path);
    const all = (await vscode.workspace.findFiles('**/*.{js,ts}', '**/node_modules/**', 4000)).map((u) => u.fsPath);
    const targets = all.filter((p) => !withDiag.has(p)).slice(0, 5);
    assert.ok(sources.length >= 5 && targets.length >= 5, 'enough material');
    const latencies: number[] = [];
    const details: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const target = vscode.Uri.file(targets[i]);
      const source = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(sources[i]))).toString('utf8');
      const editor = await vscode.window.showTextDocument(target);
      const original = editor.document.getText();
      await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), source));
      const t0 = performance.now();
      await editor.document.save();
      const savedMs = Math.round(performance.now() - t0);
      await waitForDiagnostics(target, (d) => d.length > 0, 'diagnostics after the save', 60_000);
      latencies.push(Math.round(performance.now() - t0));
      details.push({ totalMs: latencies[latencies.length - 1], savedMs, engine: api.index.lastUpdateStats(), report: api.timings.lastReport() });
      await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), original));
      await editor.document.save();
      await waitForDiagnostics(target, (d) => d.length === 0, 'diagnostics gone after restoring', 60_000);
      await api.index.whenIdle();
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    results.saveToDiagnostics = { details };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const afterSave = details.map((d) => (d as { totalMs: number; savedMs: number }).totalMs - (d as { savedMs: number }).savedMs);
    // From the save() call (includes the workbench's own save), and from save() resolving.
    results.saveToDiagnosticsMs = { runs: latencies, median: median(latencies), afterSaveRuns: afterSave, afterSaveMedian: median(afterSave) };
  });

  it('warm start from the cache', async () => {
    const t0 = performance.now();
    const stats = await api.index.restart();
    results.warmStart = { ms: Math.round(performance.now() - t0), stats };
    const mem = api.memoryUsage();
    results.hostMemoryEnd = { rssMB: +(mem.rss / MB).toFixed(1), heapUsedMB: +(mem.heapUsed / MB).toFixed(1) };
    assert.strictEqual(stats?.reread, 0);
  });
});
