#!/usr/bin/env node
'use strict';
// npm run bench — builds dist/ and runs the four performance benchmarks (and the sections'
// scaling, bench/fingerprint/sections-scaling.js) in turn, each in its own process, printing their
// figures (and writing bench/results/<name>.json).
//
//   node bench/run-all.js [--quick] [--only fingerprint,sections,index,scan,incremental] [--no-worst] [--no-build]
//
// --quick: fewer repetitions and the small sizes only (a smoke run of a few minutes; its figures
// are noisier). The worst-case scan (bench/scan-vs-jscpd --worst) runs unless --no-worst.
// bench/quality (precision/recall) is separate: node bench/quality.
const path = require('path');
const { spawnSync } = require('child_process');
const { REPO, ensureDist } = require('./lib/common');

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyArg = argv.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : argv[argv.indexOf(onlyArg) + 1]).split(',') : null;

const STEPS = [
  { name: 'fingerprint', args: quick ? ['--passes', '3', '--naive-mb', '1'] : [] },
  { name: 'sections', script: 'fingerprint/sections-scaling.js', args: quick ? ['--quick'] : [] },
  { name: 'index', args: quick ? ['--quick'] : [] },
  { name: 'scan', script: 'scan-vs-jscpd', args: quick ? ['--runs', '3', '--trees', 'small'] : [] },
  { name: 'worst', script: 'scan-vs-jscpd', args: ['--worst', '--worst-runs', quick ? '1' : '3'], skip: argv.includes('--no-worst') },
  { name: 'incremental', args: quick ? ['--reps', '7'] : [] },
];

if (!argv.includes('--no-build')) ensureDist(true);
const failed = [];
const t0 = Date.now();
for (const s of STEPS) {
  if (s.skip || (only && !only.includes(s.name) && !(s.name === 'worst' && only.includes('scan')))) continue;
  console.log(`\n${'='.repeat(100)}\n`);
  const r = spawnSync(process.execPath, [path.join(__dirname, s.script || s.name), ...s.args], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) failed.push(`${s.name} (exit ${r.status ?? r.signal})`);
}
console.log(`\n${'='.repeat(100)}\nbench: done in ${Math.round((Date.now() - t0) / 1000)} s${failed.length ? `; FAILED: ${failed.join(', ')}` : ''}; results in bench/results/`);
process.exitCode = failed.length ? 1 : 0;
