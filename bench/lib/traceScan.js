'use strict';
// One `dist/cli.js scan <dir> --format json` with NEARDUP_TRACE=1, under GNU time when present: the
// time of each phase the CLI prints (ms since the process started, by phase name), the wall time
// (ms, from this process), the CPU (user + sys, ms) and the peak RSS (MB). Used by phases.js and
// scaling.js (bench/scan-vs-jscpd).
const { spawnSync } = require('child_process');
const { TIME_BIN } = require('./common');

/** Runs the scan and returns { wall, cpu, rss, [phase]: ms }; throws when the scan fails. */
function traceScan(cli, dir, extraArgs = []) {
  const args = [cli, 'scan', dir, '--format', 'json', '--no-progress', ...extraArgs];
  const [bin, argv] = TIME_BIN ? [TIME_BIN, ['-f', 'TIME %e %U %S %M', process.execPath, ...args]] : [process.execPath, args];
  const started = process.hrtime.bigint();
  const r = spawnSync(bin, argv, { env: { ...process.env, NEARDUP_TRACE: '1' }, encoding: 'utf8', maxBuffer: 1 << 30 });
  const t = { wall: Number(process.hrtime.bigint() - started) / 1e6 };
  if (r.status !== 0) throw new Error(`scan ${dir} ${extraArgs.join(' ')} exited with ${r.status ?? r.signal}: ${(r.stderr || '').split('\n').slice(-3).join(' ')}`);
  for (const line of r.stderr.split('\n')) {
    let m = /trace ([\d.]+) ms (.+)$/.exec(line);
    if (m) t[m[2].replace(/ \(.*$/, '')] = Number(m[1]);
    m = /^TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(line);
    if (m) {
      t.cpu = (Number(m[2]) + Number(m[3])) * 1000;
      t.rss = Number(m[4]) / 1024;
    }
  }
  return t;
}

module.exports = { traceScan };
