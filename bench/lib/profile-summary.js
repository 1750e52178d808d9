#!/usr/bin/env node
'use strict';
// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function, top N.
//   node bench/lib/profile-summary.js FILE.cpuprofile [N]
const fs = require('fs');
const path = require('path');

function summarise(file, top = 25) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i];
    self.set(id, (self.get(id) || 0) + (dt[i] || 0));
  }
  const agg = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const key = `${cf.functionName || '(anonymous)'}  ${cf.url ? path.basename(cf.url) : ''}${cf.url ? ':' + (cf.lineNumber + 1) : ''}`;
    agg.set(key, (agg.get(key) || 0) + us);
    total += us;
  }
  const rows = [...agg].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { total, rows };
}

module.exports = { summarise };
if (require.main === module) {
  const { total, rows } = summarise(process.argv[2], Number(process.argv[3] || 25));
  console.log(`total sampled ${(total / 1e6).toFixed(2)} s`);
  for (const [k, us] of rows) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
}
