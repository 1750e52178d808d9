#!/usr/bin/env node
'use strict';
// Where the wall time of a scan goes: runs `dist/cli.js scan <tree> --format json` with
// NEARDUP_TRACE=1 (the CLI then prints the time of each phase since the process started) and
// prints the median of each phase over the runs, with wall time, CPU and peak RSS (GNU time).
//
//   node bench/scan-vs-jscpd/phases.js [--runs 5] [--trees small,large] [--cli A=path/to/cli.js ...]
//
// Several --cli (name=path) are run alternately (A B A B …), e.g. to compare a build of another
// commit; the default is this checkout's dist/cli.js. A build without the trace prints only the
// wall, CPU and memory rows.
const path = require('path');
const { REPO, median, log } = require('../lib/common');
const { traceScan } = require('../lib/traceScan');
const { ensureTree } = require('../lib/trees');

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const runs = Number(opt('runs', 5));
const trees = opt('trees', 'small,large').split(',');
const clis = [];
for (let i = 0; i < args.length; i++) if (args[i] === '--cli') clis.push(args[i + 1].split('='));
if (clis.length === 0) clis.push(['this', path.join(REPO, 'dist', 'cli.js')]);

const ROWS = [
  ['process start → scan called', (t) => t['scan called']],
  ['  walk ends (after scan called)', (t) => t['walked'] - t['scan called']],
  ['  first result (after scan called)', (t) => t['first result'] - t['scan called']],
  ['fingerprinting (scan called → fingerprinted)', (t) => t['fingerprinted'] - t['scan called']],
  ['  files matched (after fingerprinted; a worker)', (t) => t['files matched'] - t['fingerprinted']],
  ['  sections matched (after fingerprinted)', (t) => t['sections matched'] - t['fingerprinted']],
  ['matching and report (→ reported)', (t) => t['reported'] - t['fingerprinted']],
  ['JSON text (→ formatted)', (t) => t['formatted'] - t['reported']],
  ['written to stdout (→ written)', (t) => t['written'] - t['formatted']],
  ['exit (written → process end)', (t) => t.wall - t['written']],
  ['wall', (t) => t.wall],
  ['CPU (user + sys)', (t) => t.cpu],
  ['peak RSS MB', (t) => t.rss],
];

for (const name of trees) {
  const tree = ensureTree(name);
  const data = Object.fromEntries(clis.map(([n]) => [n, []]));
  for (let r = 0; r < runs; r++) {
    for (const [n, cli] of clis) data[n].push(traceScan(cli, tree.dir));
    log('phases', `${name} run ${r + 1}/${runs}`);
  }
  console.log(`\n${name} (${tree.files} files): median ms of ${runs} runs`);
  console.log('phase'.padEnd(50) + clis.map(([n]) => n.padStart(12)).join(''));
  for (const [label, f] of ROWS) {
    const cells = clis.map(([n]) => {
      const xs = data[n].map(f).filter((x) => Number.isFinite(x));
      return (xs.length ? median(xs).toFixed(0) : '–').padStart(12);
    });
    if (cells.every((c) => c.trim() === '–')) continue;
    console.log(label.padEnd(50) + cells.join(''));
  }
}
