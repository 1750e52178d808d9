#!/usr/bin/env node
'use strict';
// Two workers against one (issue 16's scaling target: 2 workers ≥ 1.7× the throughput of 1): the
// same scan with `--workers 1` and `--workers 2`, run alternately, and where the difference is
// bounded by the part of the scan that one worker more cannot shorten.
//
//   node bench/scan-vs-jscpd/scaling.js [--runs 7] [--trees small,large] [--locate]
//
// Each run: `dist/cli.js scan <tree> --format json --no-progress --no-locate` (with --locate: the
// default, copies located too) with NEARDUP_TRACE=1 under GNU time. Printed per tree, medians:
//   whole scan   wall, CPU, MB/s of the tree's bytes, and the throughput ratio w2 / w1;
//   fingerprint  the phase the workers share, "workers started" → "fingerprinted": its ms and ratio;
//   serial       everything else of the wall (process start, the first files, the matching,
//                report and output after the last file): wall − fingerprint phase; of it, the
//                start (process start → "workers started") and the tail ("fingerprinted" → end);
//   bound        the whole-scan ratio two workers could give at most if they halved the
//                fingerprint phase of one and changed nothing else: w1 wall / (serial + phase / 2);
//   node start   `node -e 0` alone (the floor of any scan's wall on this machine), run in turn.
// The machine is shared and noisy: the runs alternate w1, w2, node so a slow phase hits all alike.
const path = require('path');
const { spawnSync } = require('child_process');
const { REPO, median, fmt, table, log, environment, writeResult, parseArgs, ensureDist } = require('../lib/common');
const { ensureTree } = require('../lib/trees');
const { traceScan } = require('../lib/traceScan');

const o = parseArgs(process.argv.slice(2), { runs: 7, trees: 'small', locate: false });
ensureDist();
const cli = path.join(REPO, 'dist', 'cli.js');
const extra = o.locate ? [] : ['--no-locate'];

function nodeStartMs() {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

console.log(`scaling: ${environment()}`);
const results = {};
for (const name of o.trees.split(',')) {
  const tree = ensureTree(name);
  const runs = { 1: [], 2: [], node: [] };
  for (let r = 0; r < o.runs; r++) {
    for (const w of r % 2 ? [2, 1] : [1, 2]) runs[w].push(traceScan(cli, tree.dir, [...extra, '--workers', String(w)]));
    runs.node.push(nodeStartMs());
    log('scaling', `${name} run ${r + 1}/${o.runs}: w1 ${fmt(runs[1].at(-1).wall / 1000)} s, w2 ${fmt(runs[2].at(-1).wall / 1000)} s`);
  }
  const m = (w, f) => median(runs[w].map(f).filter(Number.isFinite));
  const row = (w) => {
    const wall = m(w, (t) => t.wall);
    const phase = m(w, (t) => t['fingerprinted'] - t['workers started']);
    return {
      wall,
      cpu: m(w, (t) => t.cpu),
      mbPerS: tree.bytes / 1e6 / (wall / 1000),
      phase,
      serial: m(w, (t) => t.wall - (t['fingerprinted'] - t['workers started'])),
      start: m(w, (t) => t['workers started']),
      tail: m(w, (t) => t.wall - t['fingerprinted']),
      rss: m(w, (t) => t.rss),
    };
  };
  const w1 = row(1);
  const w2 = row(2);
  const nodeStart = median(runs.node);
  const ratio = w1.wall / w2.wall;
  const phaseRatio = w1.phase / w2.phase;
  const bound = w1.wall / (w1.serial + w1.phase / 2);
  console.log(`\n${name} (${tree.files} files, ${fmt(tree.bytes / 1e6, 1)} MB), scan ${extra.join(' ') || '(default: copies located)'}, medians of ${o.runs} runs`);
  console.log(
    table(
      [
        ['wall ms', fmt(w1.wall, 0), fmt(w2.wall, 0), fmt(ratio, 2)],
        ['CPU ms (user + sys)', fmt(w1.cpu, 0), fmt(w2.cpu, 0), fmt(w2.cpu / w1.cpu, 2)],
        ['throughput MB/s', fmt(w1.mbPerS, 1), fmt(w2.mbPerS, 1), fmt(w2.mbPerS / w1.mbPerS, 2)],
        ['fingerprint phase ms', fmt(w1.phase, 0), fmt(w2.phase, 0), fmt(phaseRatio, 2)],
        ['serial ms (wall − phase)', fmt(w1.serial, 0), fmt(w2.serial, 0), ''],
        ['  of it: process start → workers started', fmt(w1.start, 0), fmt(w2.start, 0), ''],
        ['  of it: fingerprinted → process end', fmt(w1.tail, 0), fmt(w2.tail, 0), ''],
        ['peak RSS MB', fmt(w1.rss, 0), fmt(w2.rss, 0), ''],
      ],
      ['', '1 worker', '2 workers', 'ratio'],
    ),
  );
  console.log(`${name}: 2 workers give ${fmt(ratio, 2)}x the throughput of 1 (target ≥ 1.7); the fingerprint phase alone ${fmt(phaseRatio, 2)}x;`);
  console.log(`${name}: with the serial ${fmt(w1.serial, 0)} ms of one worker's scan unchanged, two could give at most ${fmt(bound, 2)}x; node's own start here: ${fmt(nodeStart, 0)} ms`);
  results[name] = { w1, w2, throughputRatio: ratio, phaseRatio, amdahlBound: bound, nodeStartMs: nodeStart, runs: o.runs, locate: o.locate };
}
console.log(`results: ${writeResult('scaling', results)}`);
