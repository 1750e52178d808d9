#!/usr/bin/env node
'use strict';
// A timeline of several .cpuprofile files of one run (one per thread, from `node --cpu-prof`):
// per time bucket and thread, the busy share and the function with the most samples. Shows when
// each thread works or waits (e.g. the main thread's walk, the workers' start-up, a serial tail).
//   node bench/lib/profile-timeline.js [--bucket 100] FILE.cpuprofile …
// On a loaded machine a thread may be descheduled inside a sample: shares above 100 % and odd
// function names then belong to that gap, not to the work.
const fs = require('fs');

const args = process.argv.slice(2);
let bucketMs = 100;
const bi = args.indexOf('--bucket');
if (bi >= 0) {
  bucketMs = Number(args[bi + 1]);
  args.splice(bi, 2);
}
const B = bucketMs * 1000;
const profs = args.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
if (profs.length === 0) {
  console.error('usage: profile-timeline.js [--bucket ms] FILE.cpuprofile …');
  process.exit(2);
}
const t0 = Math.min(...profs.map((p) => p.startTime));
const t1 = Math.max(...profs.map((p) => p.endTime));
const n = Math.ceil((t1 - t0) / B);
const rows = profs.map((p) => {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const busy = new Array(n).fill(0);
  const tops = Array.from({ length: n }, () => new Map());
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const name = byId.get(p.samples[i]).callFrame.functionName || '(anonymous)';
    const b = Math.min(n - 1, Math.floor((t - t0) / B));
    const dt = p.timeDeltas[i + 1] || 0;
    if (name === '(idle)') continue;
    busy[b] += dt;
    tops[b].set(name, (tops[b].get(name) || 0) + dt);
  }
  return { busy, tops, start: (p.startTime - t0) / 1000, end: (p.endTime - t0) / 1000 };
});
rows.forEach((r, i) => console.log(`thread ${i}: ${r.start.toFixed(0)}–${r.end.toFixed(0)} ms`));
for (let b = 0; b < n; b++) {
  const cells = rows.map((r) => {
    const top = [...r.tops[b]].sort((x, y) => y[1] - x[1])[0];
    return `${Math.round((100 * r.busy[b]) / B)}%`.padStart(5) + ' ' + (top ? top[0] : '').slice(0, 20).padEnd(20);
  });
  console.log(String(b * bucketMs).padStart(7) + ' ' + cells.join(' | '));
}
