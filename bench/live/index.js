#!/usr/bin/env node
// bench/live — instant feedback in the real VS Code (issue 19): save → panel and Problems (a pair
// leaving, a pair coming back), the last keystroke → the unsaved result, a paste → its notice, and
// the extension host's longest blocked slice during them. Each workspace is one run of the
// integration harness (scripts/run-vscode-tests.js: code-server + Chromium, the extension under
// development) with test/integration/liveBench.test.ts switched on (NEARDUP_BENCH_LIVE=1); that
// test prints `LIVEBENCH {…}`, read here. Figures and MET / MISSED against the targets; nothing is
// asserted on time.
//
//   node bench/live                       fixture workspace, then 10,000 generated files
//   node bench/live --sizes 0,10000,100000 --rounds 20 --no-build
//   node bench/live --builtins both       each workspace with code-server's built-in extensions
//                                         (as a user has them) and without (NearDup alone: no
//                                         other extension's save participants); with | without
//
// Saves go through Ctrl+S's command (workbench.action.files.save).
'use strict';
const { spawnSync } = require('child_process');
const path = require('path');
const { REPO, table, verdict, environment, writeResult, parseArgs } = require('../lib/common');

const opts = parseArgs(process.argv.slice(2), { sizes: '0,10000', rounds: 20, noBuild: false, builtins: 'both' });
const variants = { both: [true, false], with: [true], without: [false] }[opts.builtins];
if (!variants) throw new Error('--builtins must be both, with or without');
const sizes = String(opts.sizes)
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 0);
const rounds = Math.max(1, Number(opts.rounds) || 20);

const TARGETS = {
  saveToPanelMedianMs: 100,
  saveToPanelP90Ms: 200,
  lastKeystrokeToUnsavedMs: 500,
  hostBlockedMs: 10,
};

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, out: `${r.stdout || ''}${r.stderr || ''}` };
}

console.log(`bench/live — ${environment()}`);
if (!opts.noBuild) {
  for (const [cmd, args] of [
    ['node', ['esbuild.js']],
    ['node', ['scripts/build-tests.js']],
  ]) {
    const r = run(cmd, args, {});
    if (r.code !== 0) {
      console.error(r.out);
      process.exit(2);
    }
  }
}

const results = [];
for (const n of sizes) for (const builtins of variants) {
  const label = `${n === 0 ? 'fixture (9 files)' : `fixture + ${n.toLocaleString('en')} generated`}${builtins ? '' : ', NearDup alone'}`;
  process.stderr.write(`[live] ${label}: running VS Code…\n`);
  const args = [path.join('scripts', 'run-vscode-tests.js'), '--grep', '^bench: live', '--timeout', '3600'];
  if (n > 0) args.push('--scale-files', String(n));
  if (!builtins) args.push('--no-builtin-extensions');
  const t0 = Date.now();
  const r = run('node', args, { NEARDUP_BENCH_LIVE: '1', NEARDUP_BENCH_ROUNDS: String(rounds), NEARDUP_TEST_TIMEOUT: String(3600_000) });
  // The whole output of the run (VS Code's console lines included), for what the figures do not say.
  require('fs').writeFileSync(path.join(REPO, 'bench', 'results', `live-${n}-${builtins ? 'builtins' : 'alone'}.log`), r.out);
  const line = r.out.split('\n').find((l) => l.includes('LIVEBENCH {'));
  if (!line) {
    console.error(r.out.split('\n').slice(-60).join('\n'));
    console.error(`[live] ${label}: no LIVEBENCH line (exit ${r.code})`);
    process.exitCode = 1;
    continue;
  }
  const data = JSON.parse(line.slice(line.indexOf('{')));
  results.push({ size: n, builtins, label, wallS: Math.round((Date.now() - t0) / 1000), ...data });
  // The save participants' own complaints (VS Code's log of the main thread and extension host).
  const aborted = r.out.split('\n').filter((l) => /onWillSave|save participant/i.test(l));
  results[results.length - 1].participantLines = aborted.length;
  if (aborted.length > 0) process.stderr.write(`[live] ${label}: ${aborted.length} lines about save participants, e.g. ${aborted[0].trim().slice(0, 200)}\n`);
}

const f = (x) => (x === undefined || x === null ? 'n/a' : String(x));
console.log();
console.log(
  table(
    results.flatMap((r) => [
      [r.label, 'Ctrl+S → VS Code\'s save event', f(r.saveEvent.median), f(r.saveEvent.p90), f(r.saveEvent.max)],
      [r.label, '… of a file NearDup ignores', f(r.saveEventUnindexed?.median), f(r.saveEventUnindexed?.p90), f(r.saveEventUnindexed?.max)],
      [r.label, 'save event → panel, pair leaving', f(r.saveEventToPanel.leave.median), f(r.saveEventToPanel.leave.p90), f(r.saveEventToPanel.leave.max)],
      [r.label, 'save event → panel, coming back', f(r.saveEventToPanel.back.median), f(r.saveEventToPanel.back.p90), f(r.saveEventToPanel.back.max)],
      [r.label, 'save → panel, pair leaving', f(r.saveToPanel.leave.median), f(r.saveToPanel.leave.p90), f(r.saveToPanel.leave.max)],
      [r.label, 'save → panel, pair coming back', f(r.saveToPanel.back.median), f(r.saveToPanel.back.p90), f(r.saveToPanel.back.max)],
      [r.label, 'save → Problems, leaving', f(r.saveToProblems.leave.median), f(r.saveToProblems.leave.p90), f(r.saveToProblems.leave.max)],
      [r.label, 'save → Problems, coming back', f(r.saveToProblems.back.median), f(r.saveToProblems.back.p90), f(r.saveToProblems.back.max)],
      [r.label, 'save → idle (located copies too)', f(r.saveToSettled?.median), f(r.saveToSettled?.p90), f(r.saveToSettled?.max)],
      [r.label, 'last keystroke → unsaved result', f(r.lastKeystrokeToUnsaved.median), f(r.lastKeystrokeToUnsaved.p90), f(r.lastKeystrokeToUnsaved.max)],
      [r.label, 'paste → notice', f(r.pasteToNotice.median), f(r.pasteToNotice.p90), f(r.pasteToNotice.max)],
    ]),
    ['workspace', `ms (${rounds} rounds each)`, 'median', 'p90', 'max'],
  ),
);
console.log();
console.log(
  table(
    results.map((r) => [
      r.label,
      f(r.files),
      `${r.extensions?.all ?? 'n/a'} / ${r.extensions?.active.length ?? 'n/a'}`,
      f(r.nearDupTasks.maxMs),
      f(r.nearDupTasks.cpuMaxMs),
      f(r.nearDupTasks.ownMaxMs),
      f(r.nearDupTasks.cpuP99Ms),
      f(r.hostLoop.maxMs),
      f(r.hostLoop.worst?.[0]?.cpuMs),
      f(r.hostLoop.p99Ms),
      f(r.hostLoop.busyP99Ms),
      f(r.hostLoop.busyMaxMs),
    ]),
    ['workspace', 'files', 'extensions / active', 'NearDup task max ms', 'its CPU max ms', 'less GC pauses', 'CPU p99', 'host loop max ms', 'thread CPU in it', 'loop p99', 'loop busy p99', 'busy max'],
  ),
);
console.log();
for (const r of results) {
  const v = (name, value, target) => console.log(`  ${r.label}: ${name} ${f(value)} ms (target ≤ ${target}) — ${verdict(value, target)}`);
  // From the save event: what NearDup adds once VS Code has written the file.
  v('save event → panel median', r.saveEventToPanel.all.median, TARGETS.saveToPanelMedianMs);
  v('save event → panel p90', r.saveEventToPanel.all.p90, TARGETS.saveToPanelP90Ms);
  // From Ctrl+S's command: VS Code's save participants and its write included (code-server: through its remote file system).
  v('Ctrl+S → panel median (VS Code\'s save included)', r.saveToPanel.all.median, TARGETS.saveToPanelMedianMs);
  v('Ctrl+S → panel p90 (VS Code\'s save included)', r.saveToPanel.all.p90, TARGETS.saveToPanelP90Ms);
  v('last keystroke → unsaved result p90', r.lastKeystrokeToUnsaved.p90, TARGETS.lastKeystrokeToUnsavedMs);
  // NearDup's own work on the host thread (CPU time: the OS suspending the thread is not work).
  v("NearDup's longest host task (CPU)", r.nearDupTasks.cpuMaxMs ?? r.nearDupTasks.maxMs, TARGETS.hostBlockedMs);
  // The same less the pauses of V8's collector within it (set by the whole host's heap).
  if (r.nearDupTasks.ownMaxMs !== undefined) v("NearDup's longest host task (CPU, collector's pauses aside)", r.nearDupTasks.ownMaxMs, TARGETS.hostBlockedMs);
  v('host event loop longest stall (any cause)', r.hostLoop.maxMs, TARGETS.hostBlockedMs);
  // The part of any stall during which the host thread ran (any extension's code, a collection): what blocked it, not the OS suspending it.
  if (r.hostLoop.busyMaxMs !== undefined) v('host thread busy in one stall, longest (any code)', r.hostLoop.busyMaxMs, TARGETS.hostBlockedMs);
}
const file = writeResult('live', { rounds, targets: TARGETS, results });
console.log(`\nwrote ${path.relative(REPO, file)}`);
