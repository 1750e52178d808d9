#!/usr/bin/env node
'use strict';
// What `neardup.locate` (located copies in the engine, src/node/engine/regions) costs the
// extension's engine: EngineState with its PoolFingerprinter over dist/worker.js indexes a tree
// with located copies off, then (another process) on, in the same run:
//
//   node bench/incremental/locate.js [--tree DIR] [--edits 5]
//
// Per configuration: the full index (wall and CPU time of the process, workers included; when its
// first report came, the SimHash pairs, before the located ones), a warm start (another engine
// over the caches the first one wrote, in a process of its own, as when VS Code opens the
// workspace again: its caches' read, its index and first report; the same in the first process,
// its code already optimised, apart), the
// engine's heap after a full garbage collection (what it holds), the peak RSS, and the update of
// one file (a copy of one of the tree's files, edited: read, matched, its located copies found
// again) as the median of `--edits` edits (and the first edit's apart: later ones find its partners' region documents kept). With locate on, also the anchors the region index holds
// and the located pairs. Default tree: bench/.cache/trees/small.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { REPO, loadEngine, ensureDist, median, fmt, table, log, writeResult, parseArgs } = require('../lib/common');

const MB = 1024 * 1024;
/** The engine's fingerprint workers: cores − 1 (1 to 4), as the extension has them. */
const POOL_SIZE = Math.max(1, Math.min(4, os.cpus().length - 1));

/** An engine of the bundle `E` with its pool over dist/worker.js; the times of its reports and its events' types. */
function engineOf(E) {
  const fp = new E.PoolFingerprinter({ script: path.join(REPO, 'dist', 'worker.js'), size: POOL_SIZE });
  const reports = [];
  const events = [];
  const state = new E.EngineState(fp, (e) => e.type !== 'progress' && events.push(e.type) && e.type === 'report' && reports.push(performance.now()), { saveDelayMs: 3600e3, progressIntervalMs: 1000 });
  return { state, fp, reports, events };
}

/** A warm start in this fresh process: an engine over the caches a child left in `ws` (`cachePath`). */
async function warmChild(ws, cachePath, locate) {
  const E = loadEngine();
  const { state, fp, reports } = engineOf(E);
  const i0 = performance.now();
  await state.init({ config: { settings: { ...E.DEFAULT_ENGINE_SETTINGS }, include: [], exclude: [], roots: [{ path: ws, exclude: [] }], locate }, cachePath });
  const w0 = performance.now();
  const stats = await state.reindex();
  const done = performance.now();
  await fp.close();
  return { initMs: Math.round(w0 - i0), indexMs: Math.round(done - w0), firstMs: Math.round(reports[0] - i0), hits: stats.cacheHits };
}

async function child(tree, locate, edits, ws) {
  const E = loadEngine();
  fs.rmSync(ws, { recursive: true, force: true });
  const files = [];
  const walk = (dir, rel) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.isFile()) files.push(r);
    }
  };
  walk(tree, '');
  for (const r of files) {
    const dst = path.join(ws, 'tree', ...r.split('/'));
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    try {
      fs.linkSync(path.join(tree, ...r.split('/')), dst);
    } catch {
      fs.copyFileSync(path.join(tree, ...r.split('/')), dst);
    }
  }
  // The edited file: a copy of a mid-sized code file of the tree (not a hard link).
  const source = files.filter((r) => /\.(js|ts)$/.test(r)).map((r) => ({ r, size: fs.statSync(path.join(tree, r)).size })).filter((f) => f.size > 8000 && f.size < 30000)[0];
  const target = path.join(ws, 'edited.js');
  const text = fs.readFileSync(path.join(tree, source.r), 'utf8');
  fs.writeFileSync(target, text);

  const settings = { ...E.DEFAULT_ENGINE_SETTINGS };
  const cachePath = `${ws}.cache`;
  const engine = () => engineOf(E);
  const { state, reports: coldReports } = engine();
  const reportAt = coldReports;
  await state.init({ config: { settings, include: [], exclude: [], roots: [{ path: ws, exclude: [] }], locate }, cachePath });
  global.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const stats = await state.reindex();
  const indexMs = performance.now() - t0;
  // The index's first report (its SimHash pairs) and its last (with located pairs, when on).
  const firstMs = coldReports[0] - t0;
  const lastMs = coldReports.at(-1) - t0;
  const cpu = process.cpuUsage(cpu0);
  global.gc();
  const heap = process.memoryUsage().heapUsed;
  const report = state.getReport();
  const located = report.groups.filter((g) => g.located).length;
  const times = [];
  const firstReport = [];
  let mtime = Date.now() / 1000;
  for (let i = 0; i < edits; i++) {
    const lines = text.split('\n');
    lines[(i * 7919) % lines.length] += ` const __edit${i} = ${i};`;
    fs.writeFileSync(target, lines.join('\n'));
    mtime += 10;
    fs.utimesSync(target, mtime, mtime);
    reportAt.length = 0;
    const a = performance.now();
    await state.update({ upserts: [target], removes: [], renames: [] });
    times.push(performance.now() - a);
    firstReport.push(reportAt.length > 0 ? reportAt[0] - a : NaN);
  }
  const regions = state.regions.stats();
  await state.shutdown();
  const peakRss = process.resourceUsage().maxRSS; // (of the first engine: not its warm start's)
  // A warm start in this process (its code optimised by the index): another engine over the
  // caches the first one wrote (no file read again); the parent times one in a fresh process.
  const warm = engine();
  await warm.state.init({ config: { settings, include: [], exclude: [], roots: [{ path: ws, exclude: [] }], locate }, cachePath });
  const w0 = performance.now();
  const warmStats = await warm.state.reindex();
  const warmMs = performance.now() - w0;
  const warmFirstMs = warm.reports[0] - w0;
  await warm.state.shutdown();
  return {
    locate,
    files: stats.files,
    indexMs: Math.round(indexMs),
    firstMs: Math.round(firstMs),
    lastMs: Math.round(lastMs),
    warmMs: Math.round(warmMs),
    warmFirstMs: Math.round(warmFirstMs),
    warmHits: warmStats.cacheHits,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    heapMB: +((heap - heap0) / MB).toFixed(1),
    heapTotalMB: +(heap / MB).toFixed(1),
    peakRssMB: +(peakRss / 1024).toFixed(0),
    updateMs: +median(times).toFixed(1),
    // The change's first report (its SimHash result; the located copies' report follows).
    firstReportMs: +median(firstReport).toFixed(1),
    // The first edit's update: its partners read (later edits find them kept, engineRegions.ts).
    firstUpdateMs: +times[0].toFixed(1),
    locatedGroups: located,
    regions,
    edited: source.r,
  };
}

async function main() {
  const o = parseArgs(process.argv.slice(2), { tree: path.join(REPO, 'bench', '.cache', 'trees', 'small'), edits: 5, child: '', ws: '' });
  if (o.child === 'warm-on' || o.child === 'warm-off') {
    process.stdout.write(JSON.stringify(await warmChild(o.ws, `${o.ws}.cache`, o.child === 'warm-on')) + '\n');
    process.exit(0);
  }
  if (o.child) {
    const r = await child(o.tree, o.child === 'on', Number(o.edits), o.ws);
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  ensureDist();
  const runs = [];
  const last = (out) => JSON.parse(out.trim().split('\n').pop());
  for (const mode of ['off', 'on']) {
    log('locate', `engine with neardup.locate ${mode} on ${o.tree}`);
    // (the workspace and its caches: the index's process writes them, a fresh one starts warm on them)
    const ws = path.join(os.tmpdir(), `neardup-locate-bench-${process.pid}-${mode}`);
    try {
      const run = last(execFileSync(process.execPath, ['--expose-gc', __filename, '--tree', o.tree, '--edits', String(o.edits), '--child', mode, '--ws', ws], { encoding: 'utf8', maxBuffer: 1 << 26 }));
      run.fresh = last(execFileSync(process.execPath, [__filename, '--child', `warm-${mode}`, '--ws', ws], { encoding: 'utf8', maxBuffer: 1 << 26 }));
      runs.push(run);
    } finally {
      for (const f of [ws, `${ws}.cache`, `${ws}.cache.regions`]) fs.rmSync(f, { recursive: true, force: true });
    }
  }
  const [off, on] = runs;
  console.log(`\nneardup.locate in the engine: ${off.files} files of ${o.tree}; one file edited ${o.edits} times (${on.edited})\n`);
  console.log(
    table(
      runs.map((r) => [r.locate ? 'on' : 'off', fmt(r.indexMs / 1000, 2), fmt(r.firstMs / 1000, 2), fmt(r.cpuMs / 1000, 1), fmt(r.fresh.initMs / 1000, 2), fmt(r.fresh.firstMs / 1000, 2), fmt(r.fresh.indexMs / 1000, 2), `${fmt(r.warmFirstMs / 1000, 2)} / ${fmt(r.warmMs / 1000, 2)}`, r.heapMB, r.peakRssMB, fmt(r.firstReportMs, 1), fmt(r.updateMs, 1), fmt(r.firstUpdateMs, 1), r.locatedGroups]),
      ['locate', 'index s', 'first report s', 'CPU s', 'warm: caches read s', 'warm: first report s', 'warm: index s', 'warm in the same process: first report / index s', 'engine heap MB', 'peak RSS MB', 'update → report ms', 'update done ms (located)', 'first edit\'s', 'located groups'],
    ),
  );
  const rs = on.regions;
  console.log(`\n   on / off: CPU ×${fmt(on.cpuMs / off.cpuMs, 2)}, heap +${fmt(on.heapMB - off.heapMB, 1)} MB, peak RSS ×${fmt(on.peakRssMB / off.peakRssMB, 2)}, update → report ×${fmt(on.firstReportMs / off.firstReportMs, 2)}, update done ×${fmt(on.updateMs / off.updateMs, 2)}`);
  console.log(`   region index: ${rs.files} files, ${rs.anchors} anchors (${fmt(rs.anchorBytes / MB, 1)} MB of arrays), ${rs.pairs} located pairs${rs.keptDocs !== undefined ? `; region documents kept: ${rs.keptDocs} (${fmt(rs.keptDocBytes / MB, 1)} MB)` : ''}`);
  const file = writeResult('locate-engine', { tree: o.tree, edits: Number(o.edits), off, on });
  log('locate', `wrote ${path.relative(REPO, file)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
