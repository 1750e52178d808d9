#!/usr/bin/env node
// Runs the unit level (exactly as `npm test` runs it: mocha over test/unit with the counting
// reporter) N times in a row and prints one line per run and the count: the proof that the level
// does not flake. A run fails when mocha exits non-zero, is killed by a signal, or reports a failed
// test; its whole output is kept in test-results/repeat-unit-<n>.log.
//
//   node scripts/repeat-unit.js [--runs 30] [--stop-on-failure] [--grep PATTERN]
//
// Ends with `repeat-unit: N passed, N failed` (runs, not tests); exit code 1 if any run failed.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(ROOT, 'test-results');

function parseArgs(argv) {
  const opts = { runs: 30, stopOnFailure: false, grep: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') opts.runs = Number(argv[++i]);
    else if (argv[i] === '--stop-on-failure') opts.stopOnFailure = true;
    else if (argv[i] === '--grep') opts.grep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs: a positive integer');
  return opts;
}

/** One run of the unit level: { code, signal, counts, out, seconds }. */
function runOnce(n, grep) {
  const statsFile = path.join(RESULTS, `repeat-unit-stats-${n}.json`);
  fs.rmSync(statsFile, { force: true });
  const args = [
    path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--config', '.mocharc.json',
    '--reporter', path.join(__dirname, 'lib', 'mocha-counting-reporter.cjs'),
    '--reporter-option', `stats=${statsFile}`,
  ];
  if (grep) args.push('--grep', grep);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      const counts = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : null;
      fs.rmSync(statsFile, { force: true });
      resolve({ code, signal, counts, out, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  fs.mkdirSync(RESULTS, { recursive: true });
  console.log(`repeat-unit: ${opts.runs} runs of the unit level, node ${process.version}, ${os.cpus().length} cores`);
  let passed = 0;
  let failed = 0;
  for (let n = 1; n <= opts.runs; n++) {
    const r = await runOnce(n, opts.grep);
    const c = r.counts;
    const ok = r.code === 0 && r.signal === null && c !== null && c.failed === 0 && c.passed > 0;
    const how = r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`;
    const counts = c ? `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : 'no counts (the run did not finish)';
    console.log(`run ${String(n).padStart(2)}: ${ok ? 'ok  ' : 'FAIL'} ${counts}; ${how}; ${r.seconds.toFixed(1)} s`);
    if (ok) {
      passed++;
      continue;
    }
    failed++;
    const log = path.join(RESULTS, `repeat-unit-${n}.log`);
    fs.writeFileSync(log, r.out);
    console.log(`        output: ${path.relative(ROOT, log)}; its last lines:`);
    for (const line of r.out.trimEnd().split('\n').slice(-12)) console.log(`        | ${line}`);
    if (opts.stopOnFailure) break;
  }
    console.log(`repeat-unit: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(`repeat-unit: ${e.message}`);
  process.exit(2);
});
