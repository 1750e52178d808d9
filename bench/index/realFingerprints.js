#!/usr/bin/env node
'use strict';
// The native kernel's all-pairs search on a real tree's fingerprints, as a scan searches them:
// the sections at distance 10 (the main thread's search, on the pool's threads) and the files at
// distance 12 (a worker's), each with the kernel's allPairs (native/allpairs.c) of this checkout
// and, with --peer, of another addon (e.g. main's dist/neardup_kernel.node), alternately in one
// process; CPU time of the calling thread for one thread, wall time for two. Checks that both
// give the same pairs, and says whether in the same order (the order of the candidates decides
// only which pairs a report's cap cuts; the report orders its pairs itself).
//
//   node bench/index/realFingerprints.js [--tree bench/.cache/trees/large] [--runs 9] [--peer path/neardup_kernel.node]
//
// The fingerprints come from `neardup fingerprints` (dist/cli.js) of the tree, written once to
// bench/results/ (removed at the end).
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { median, parseArgs } = require('../lib/common');

const args = parseArgs(process.argv.slice(2), { tree: 'bench/.cache/trees/large', runs: '9', peer: '' });
const root = path.join(__dirname, '..', '..');
const tree = path.resolve(root, args.tree);
const runs = Number(args.runs);
const own = require(path.join(root, 'build', 'Release', 'neardup_kernel.node'));
const peer = args.peer ? require(path.resolve(args.peer)) : null;

const shard = path.join(root, 'bench', 'results', `fingerprints-${process.pid}.jsonl`);
fs.mkdirSync(path.dirname(shard), { recursive: true });
execFileSync(process.execPath, [path.join(root, 'dist', 'cli.js'), 'fingerprints', tree, '--out', shard, '--no-progress'], { stdio: 'ignore' });
const byKind = { file: [], section: [] };
for (const line of fs.readFileSync(shard, 'utf8').split('\n')) {
  const kind = /"kind":"(file|section)"/.exec(line);
  const hash = /"simhash":"([0-9a-f]{16})"/.exec(line);
  if (kind && hash) byKind[kind[1]].push(parseInt(hash[1].slice(0, 8), 16), parseInt(hash[1].slice(8), 16));
}
fs.rmSync(shard, { force: true });

function cpuMs(fn) {
  const t0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  const r = fn();
  const c = process.cpuUsage(t0);
  return { r, cpu: (c.user + c.system) / 1000, wall: Number(process.hrtime.bigint() - w0) / 1e6 };
}

const sameOrder = (x, y) => x && y && ['a', 'b', 'distance'].every((f) => x[f].length === y[f].length && x[f].every((v, i) => v === y[f][i]));
const keys = (x) => Array.from(x.a, (a, i) => `${a}-${x.b[i]}:${x.distance[i]}`).sort();
const sameSet = (x, y) => {
  if (!x || !y || x.a.length !== y.a.length) return false;
  const kx = keys(x);
  const ky = keys(y);
  return kx.every((v, i) => v === ky[i]);
};
console.log(`bench/index/realFingerprints — ${path.relative(root, tree)}, ${runs} runs each, alternating${peer ? ` with ${args.peer}` : ''}`);
for (const [kind, k] of [['section', 10], ['file', 12]]) {
  const fp = Uint32Array.from(byKind[kind]);
  for (const threads of [1, 2]) {
    const got = { own: [], peer: [] };
    let pairs = 0;
    let ok = true;
    let ordered = true;
    for (let r = 0; r < runs; r++) {
      const a = cpuMs(() => own.allPairs(fp, k, 50e6, threads));
      got.own.push(threads === 1 ? a.cpu : a.wall);
      pairs = a.r.a.length;
      if (peer) {
        const b = cpuMs(() => peer.allPairs(fp, k, 50e6, threads));
        got.peer.push(threads === 1 ? b.cpu : b.wall);
        if (r === 0) ok = sameSet(a.r, b.r);
        ordered &&= sameOrder(a.r, b.r);
      }
    }
    const what = threads === 1 ? 'CPU ms, 1 thread' : 'wall ms, 2 threads';
    const m = median(got.own);
    const line = `${kind}s: ${fp.length / 2} at k = ${k}, ${pairs} pairs; ${what}: ${m.toFixed(1)}`;
    console.log(peer ? `${line}, peer ${median(got.peer).toFixed(1)} (×${(m / median(got.peer)).toFixed(2)}), ${ok ? `same pairs, ${ordered ? 'same' : 'another'} order` : 'DIFFERENT PAIRS'}` : line);
    if (!ok) process.exitCode = 1;
  }
}
