// Shared helpers of the integration tests (not a test file itself). They run inside the real
// extension host: the extension's API is what activate() returned.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import type { HostTaskFigures } from '../../src/extension/hostTasks';
import type { DuplicateNode, GroupNode, MemberNode } from '../../src/extension/duplicatesTreeProvider';
import type { ViewReport } from '../../src/node/engine/engineProtocol';

export const EXTENSION_ID = 'neardup.neardup';

export async function getApi(): Promise<NearDupApi> {
  const ext = vscode.extensions.getExtension<NearDupApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} not found`);
  const api = await ext.activate();
  assert.ok(api && api.index && api.tree, 'activate() returns the test API');
  return api;
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return folder.uri;
}

export function fixture(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...rel.split('/'));
}

export function relOf(fsPath: string): string {
  return path.relative(workspaceRoot().fsPath, fsPath).split(path.sep).join('/');
}

/**
 * Resolves when `check()` returns a truthy value: checked now and after every firing of the
 * given events; rejects after `timeoutMs` with `what` and the last value seen.
 */
export function waitUntil<T>(
  check: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  events: Array<vscode.Event<unknown>>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const subs: vscode.Disposable[] = [];
    const finish = (err: Error | null, value?: T) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subs.forEach((s) => s.dispose());
      if (err) reject(err);
      else resolve(value as T);
    };
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    const test = async () => {
      try {
        const v = await check();
        if (v) finish(null, v);
      } catch (e) {
        finish(e as Error);
      }
    };
    for (const ev of events) subs.push(ev(() => void test()));
    void test();
  });
}

/** Waits for a report that satisfies `predicate` (the current one counts) and an idle index. */
export async function waitForReport(api: NearDupApi, predicate: (r: ViewReport) => boolean, what: string, timeoutMs = 20_000): Promise<ViewReport> {
  const report = await waitUntil(
    () => {
      const r = api.index.getReport();
      return r && predicate(r) ? r : undefined;
    },
    [api.index.onDidUpdate],
    what,
    timeoutMs,
  );
  await api.index.whenIdle();
  return api.index.getReport() ?? report;
}

export function waitForDiagnostics(uri: vscode.Uri, predicate: (d: vscode.Diagnostic[]) => boolean, what: string, timeoutMs = 20_000): Promise<vscode.Diagnostic[]> {
  return waitUntil(
    () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'neardup');
      return predicate(d) ? d : undefined;
    },
    [vscode.languages.onDidChangeDiagnostics],
    what,
    timeoutMs,
  );
}

/** File groups as sorted lists of workspace-relative paths. */
export function fileGroups(r: ViewReport): string[][] {
  return r.groups
    .filter((g) => g.kind === 'file')
    .map((g) => g.members.map((m) => relOf(m.path)).sort())
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

export function sectionGroups(r: ViewReport): string[][] {
  return r.groups
    .filter((g) => g.kind === 'section')
    .map((g) => g.members.map((m) => `${relOf(m.path)}:${m.startLine}-${m.endLine}`).sort());
}

export function groupNodes(api: NearDupApi): GroupNode[] {
  const out: GroupNode[] = [];
  const visit = (nodes: DuplicateNode[]) => {
    for (const n of nodes) {
      if (n.type === 'group') out.push(n);
      else if (n.type === 'category') visit(api.tree.getChildren(n));
    }
  };
  visit(api.tree.getChildren());
  return out;
}

export function memberNodes(api: NearDupApi): MemberNode[] {
  return groupNodes(api).flatMap((g) => api.tree.getChildren(g) as MemberNode[]);
}

/** The expected near duplicates of the fixture workspace (test/fixtures/workspace). */
export const FIXTURE_FILE_GROUPS = [
  ['code/orderService.ts', 'code/orderServiceCopy.ts'],
  ['docs/en/backup-guide-2023.md', 'docs/en/backup-guide.md'],
  ['docs/zh/tea-garden-copy.md', 'docs/zh/tea-garden.md'],
];
export const FIXTURE_SECTION_GROUPS = [['code/logParser.ts:15-44', 'code/salesReport.ts:11-40']];

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Sets a `neardup.*` user setting (undefined removes it). User settings live outside the
 * workspace, so changing them causes no file event in it.
 */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('neardup').update(key, value, vscode.ConfigurationTarget.Global);
}

/** What must not change across restarts and recoveries: counts, groups and items of a report. */
export function canonReport(r: ViewReport): string {
  return JSON.stringify({ files: r.files, sections: r.sections, pairs: r.pairs, groups: r.groups, items: [...r.items].sort((a, b) => (JSON.stringify(a.loc) < JSON.stringify(b.loc) ? -1 : 1)) });
}

/** Files of a folder (recursively) with size and mtime: what a test compares to see writes. */
export function snapshotTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        out.set(path.relative(root, p) + '/', 'dir');
        walk(p);
      } else {
        const st = fs.statSync(p);
        out.set(path.relative(root, p), `${st.size}:${st.mtimeMs}`);
      }
    }
  };
  walk(root);
  return out;
}

/**
 * Samples the extension host's event loop while it runs: a histogram (perf_hooks) and a 10 ms
 * interval whose drift counts the stalls (and keeps the five longest, with when they happened,
 * in ms since the start). Any task of any extension shows up here.
 */
export function monitorEventLoop(): {
  stop(): {
    maxMs: number;
    p99Ms: number;
    p50Ms: number;
    /**
     * The p99 of each delay's part during which this thread ran (its CPU time in the sample, at
     * most the delay): the delay work on the thread caused, not the machine suspending it.
     * Present where the thread's CPU time is known.
     */
    busyP99Ms?: number;
    /** The longest such part (any code on this thread: an extension's task, a garbage collection). */
    busyMaxMs?: number;
    stallsOver50: number;
    samples: number;
    worst: Array<{ atMs: number; ms: number; cpuMs?: number }>;
  };
} {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // This thread's CPU time (Node ≥ 23.9): a stall during which it hardly grows is the thread
  // waiting (suspended by the OS, blocked), not a long task running on it.
  const threadCpu = (process as unknown as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
  const cpuMs = threadCpu ? () => { const u = threadCpu.call(process); return (u.user + u.system) / 1000; } : undefined;
  const start = performance.now();
  let last = start;
  let lastCpu = cpuMs?.() ?? 0;
  let stalls = 0;
  let maxDrift = 0;
  let samples = 0;
  let worst: Array<{ atMs: number; ms: number; cpuMs?: number }> = [];
  const busy: number[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = cpuMs?.() ?? 0;
    const drift = now - last - 10;
    const cpuSpent = cpu - lastCpu;
    last = now;
    lastCpu = cpu;
    samples++;
    if (drift > maxDrift) maxDrift = drift;
    if (cpuMs) busy.push(Math.max(0, Math.min(drift, cpuSpent)));
    if (drift > 50) {
      stalls++;
      worst.push({ atMs: Math.round(now - drift - start), ms: Math.round(drift), ...(cpuMs ? { cpuMs: Math.round(cpuSpent) } : {}) });
      if (worst.length > 5) worst = worst.sort((a, b) => b.ms - a.ms).slice(0, 5);
    }
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      h.disable();
      // The histogram records whole timer intervals: the delay is what exceeds the resolution.
      const ms = (ns: number) => +Math.max(0, ns / 1e6 - 10).toFixed(1);
      return {
        maxMs: Math.max(ms(h.max), +maxDrift.toFixed(1)),
        p99Ms: ms(h.percentile(99)),
        p50Ms: ms(h.percentile(50)),
        ...(busy.length > 0 ? { busyP99Ms: +busy.sort((a, b) => a - b)[Math.min(busy.length - 1, Math.floor(busy.length * 0.99))].toFixed(1), busyMaxMs: +busy[busy.length - 1].toFixed(1) } : {}),
        stallsOver50: stalls,
        samples,
        worst: worst.sort((a, b) => b.ms - a.ms),
      };
    },
  };
}

/** NearDup's host tasks as printed by the scale tests: overall, and the longest of each kind. */
export function hostTaskSummary(f: HostTaskFigures): {
  count: number;
  maxMs: number;
  p99Ms: number;
  over50: number;
  cpuMaxMs?: number;
  cpuP99Ms?: number;
  maxByKind: Record<string, number>;
  cpuMaxByKind?: Record<string, number>;
  ownMaxMs: number;
  longest: Array<{ kind: string; wallMs: number; cpuMs?: number; gcMs: number }>;
  collector?: { count: number; totalMs: number; maxMs: number };
} {
  const r = (x: number) => +x.toFixed(1);
  const maxByKind: Record<string, number> = {};
  const cpuMaxByKind: Record<string, number> = {};
  for (const [k, v] of Object.entries(f.byKind)) {
    maxByKind[k] = r(v.maxMs);
    if (v.cpu) cpuMaxByKind[k] = r(v.cpu.maxMs);
  }
  return {
    count: f.count,
    maxMs: r(f.maxMs),
    p99Ms: r(f.p99Ms),
    over50: f.over50,
    ...(f.cpu ? { cpuMaxMs: r(f.cpu.maxMs), cpuP99Ms: r(f.cpu.p99Ms) } : {}),
    maxByKind,
    ...(f.cpu ? { cpuMaxByKind } : {}),
    ownMaxMs: r(f.ownMaxMs),
    longest: f.longest.slice(0, 3).map((t) => ({ kind: t.kind, wallMs: r(t.wallMs), ...(t.cpuMs !== undefined ? { cpuMs: r(t.cpuMs) } : {}), gcMs: r(t.gcMs) })),
    ...(f.collector ? { collector: { count: f.collector.count, totalMs: r(f.collector.totalMs), maxMs: r(f.collector.maxMs) } } : {}),
  };
}

/**
 * Asserts that no task of NearDup's on the extension host did over 50 ms of work: its CPU time
 * where Node tells it (Node >= 23.9: code-server's extension host), else its wall time, less the
 * pauses of V8's collector within it (their length is set by the whole extension host's heap,
 * every extension's and the test runner's; seen here at 35–85 ms for a scavenge; they are
 * printed apart). The wall times are figures only: on a loaded machine the operating system
 * suspends the thread in the middle of any task (a CPU profile of the longest ones shows the
 * thread idle, not working).
 */
export function assertHostTasksShort(f: HostTaskFigures, what: string): void {
  assert.ok(f.count > 0, `no host task measured during ${what}`);
  assert.ok(f.ownMaxMs < 50, `longest NearDup host task during ${what}: ${f.ownMaxMs} ms${f.cpu ? ' of CPU' : ''}, the collector's pauses left out (${JSON.stringify(hostTaskSummary(f))})`);
}
