#!/usr/bin/env node
// Runs every test level in sequence and sums the counts:
//   unit         mocha + tsx over test/unit (counts from scripts/lib/mocha-counting-reporter.cjs)
//   integration  scripts/run-vscode-tests.js (tests inside a real VS Code; needs
//                `node scripts/build-tests.js`; the offline VS Code and Chromium are installed on
//                first use by scripts/lib/vscode-offline.js, as for `npm start`)
//   scale        the same runner on a workspace of 100,000 generated files present before VS Code
//                starts (--scale-files; NEARDUP_SCALE_FILES=N for another count), running only
//                the "large workspace" test (~1.5–2.5 min, most of it generating and indexing)
//   web          test/web: VS Code for the Web's engine (dist/web/engineWorker.js built from the
//                sources) in headless Chromium, against the Node engine (mocha, counted as unit;
//                Chromium installed on first use as for integration)
//   e2e          test/e2e/e2e.js on neardup.vsix (needs `npm run package`)
// Ends with the line `N passed, N failed`; the exit code is non-zero if anything failed or a
// level could not run.
//
//   node scripts/test-all.js [--package] [--only unit,integration,scale,web,e2e] [--vsix FILE]
//
// --package first runs `npm run package` (typecheck + production build + vsce) into a fresh
// neardup.vsix. If that fails, the run goes on (unit and integration results still count), the
// failure counts as one failed test, and e2e fails for want of a package.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(ROOT, 'test-results');
/** Files of the workspace of the `scale` level. */
const SCALE_FILES = Number(process.env.NEARDUP_SCALE_FILES) || 100_000;

function parseArgs(argv) {
  const opts = { only: null, vsix: path.join(ROOT, 'neardup.vsix'), package: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--package') opts.package = true;
    else if (argv[i] === '--only') opts.only = argv[++i].split(',').map((s) => s.trim());
    else if (argv[i] === '--vsix') opts.vsix = path.resolve(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

/** Runs a command with inherited stdin/stderr, echoing and capturing stdout. */
function run(cmd, args, { env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on('error', (err) => resolve({ code: 127, out: `${out}\n${err.message}` }));
    child.on('close', (code, signal) => {
      // Killed by a signal: say which (a crash of node itself is SIGSEGV or SIGABRT, not a failed test).
      if (signal) process.stdout.write(`\n${cmd} ${args.slice(0, 2).join(' ')}: killed by ${signal}\n`);
      resolve({ code: code ?? 128 + (os.constants.signals[signal] ?? 0), out });
    });
  });
}

/** Counts from the last `<label>: N passed, N failed[, N skipped]` line of the output. */
function parseSummary(label, out) {
  const re = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?\\s*$`, 'gm');
  let m;
  let last = null;
  while ((m = re.exec(out))) last = m;
  return last ? { passed: +last[1], failed: +last[2], skipped: +(last[3] || 0) } : null;
}

const levels = {
  async unit() {
    const statsFile = path.join(RESULTS, 'unit-stats.json');
    fs.rmSync(statsFile, { force: true });
    const mochaBin = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const { code } = await run(process.execPath, [
      mochaBin, '--config', '.mocharc.json',
      '--reporter', path.join(__dirname, 'lib', 'mocha-counting-reporter.cjs'),
      '--reporter-option', `stats=${statsFile}`,
    ]);
    const counts = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : null;
    return { code, counts };
  },
  async integration() {
    const { code, out } = await run(process.execPath, [path.join(__dirname, 'run-vscode-tests.js')]);
    return { code, counts: parseSummary('integration', out) };
  },
  async scale() {
    const { code, out } = await run(process.execPath, [
      path.join(__dirname, 'run-vscode-tests.js'),
      '--scale-files', String(SCALE_FILES),
      '--grep', '^large workspace',
    ]);
    return { code, counts: parseSummary('integration', out) };
  },
  async web() {
    // Debian's chromium comes with the offline VS Code's setup (first use only).
    require('./lib/vscode-offline').resolveInstall();
    const statsFile = path.join(RESULTS, 'web-stats.json');
    fs.rmSync(statsFile, { force: true });
    const { code } = await run(process.execPath, [
      path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
      '--no-config', '--require', 'tsx/cjs', '--timeout', '180000', 'test/web/**/*.test.ts',
      '--reporter', path.join(__dirname, 'lib', 'mocha-counting-reporter.cjs'),
      '--reporter-option', `stats=${statsFile}`,
    ]);
    const counts = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : null;
    return { code, counts };
  },
  async e2e(opts) {
    const { code, out } = await run(process.execPath, [path.join(ROOT, 'test', 'e2e', 'e2e.js'), opts.vsix]);
    return { code, counts: parseSummary('e2e', out) };
  },
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  fs.mkdirSync(RESULTS, { recursive: true });
  const names = (opts.only || Object.keys(levels)).filter((n) => {
    if (!levels[n]) throw new Error(`unknown level ${n}`);
    return true;
  });
  const rows = [];
  if (opts.package) {
    console.log('\n=== package ===');
    const t0 = Date.now();
    fs.rmSync(opts.vsix, { force: true }); // never test a stale package
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { code } = await run(npm, ['run', 'package']);
    const ok = code === 0 && fs.existsSync(opts.vsix);
    const seconds = (Date.now() - t0) / 1000;
    if (ok) console.log(`=== package: ${path.relative(ROOT, opts.vsix)} (${(fs.statSync(opts.vsix).size / 1048576).toFixed(2)} MiB) in ${seconds.toFixed(1)} s`);
    else {
      console.log(`=== package: FAILED (exit code ${code}) in ${seconds.toFixed(1)} s`);
      rows.push({ name: 'package', seconds, passed: 0, failed: 1, skipped: 0, note: `npm run package: exit code ${code}` });
    }
  }
  for (const name of names) {
    console.log(`\n=== ${name} ===`);
    const t0 = Date.now();
    let { code, counts } = await levels[name](opts);
    const seconds = (Date.now() - t0) / 1000;
    counts = counts ? { ...counts } : { passed: 0, failed: 0, skipped: 0 };
    // A level that failed without reporting a failed test (crash, build error, timeout) counts as
    // one failure; so does a level that ran no test at all.
    const note = [];
    if (code !== 0 && counts.failed === 0) {
      counts.failed = 1;
      note.push(`exit code ${code}`);
    }
    if (code === 0 && counts.passed === 0 && counts.failed === 0) {
      counts.failed = 1;
      note.push('ran no test');
    }
    rows.push({ name, seconds, ...counts, note: note.join(', ') });
    console.log(`=== ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${seconds.toFixed(1)} s${note.length ? ` (${note.join(', ')})` : ''}`);
  }

  console.log('\nlevel         passed  failed  skipped   seconds');
  for (const r of rows) {
    console.log(`${r.name.padEnd(12)} ${String(r.passed).padStart(7)} ${String(r.failed).padStart(7)} ${String(r.skipped).padStart(8)} ${r.seconds.toFixed(1).padStart(9)}${r.note ? `  (${r.note})` : ''}`);
  }
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  fs.writeFileSync(path.join(RESULTS, 'summary.json'), JSON.stringify({ levels: rows, passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped') }, null, 2));
  console.log(`${sum('passed')} passed, ${sum('failed')} failed`);
  return sum('failed') > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err && err.stack ? err.stack : err);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
