#!/usr/bin/env node
'use strict';
// What locating copies costs (issue 12's bound: a whole scan with it at most 1.3× a reference plain
// scan): this build's default scan (it locates copies) against a peer CLI's plain scan of the same
// tree, and this build's plain scan (--no-locate) for scale, run alternately, the order turned each round (A B C, B C A, C A B
// …) so that a shared machine's slow phases and what one run leaves behind hit all three alike. Prints the medians of wall, CPU (user + sys) and peak RSS and the
// ratios of the medians; a ratio is worth something within one run only.
//
//   node bench/scan-vs-jscpd/locateCost.js --peer /path/to/other/dist/cli.js [--runs 11] [--tree small]
//
//   A = node dist/cli.js scan <tree> --format json              (stdout to a file, as in index.js; the default locates)
//   B = node <peer> scan <tree> --format json                   (the reference: e.g. a build of 8eda2fd, whose default is plain)
//   C = node dist/cli.js scan <tree> --format json --no-locate
// The peer is a build of the CLI from before the default located copies (`git worktree add
// ../ref 8eda2fd && cd ../ref && npm ci && npm run build`). Without --peer, B is this build's
// plain scan (--no-locate; C is then left out).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO, ensureDist, measure, median, fmt, table, verdict, log, writeResult, parseArgs } = require('../lib/common');
const { ensureTree, TREES_DIR } = require('../lib/trees');

/** Issue 12's bound: `--locate` at most this many times the reference plain scan. */
const BOUND = 1.3;

async function main() {
  const args = parseArgs(process.argv.slice(2), { runs: 11, tree: 'small', peer: '', build: false });
  ensureDist(args.build);
  ensureTree(args.tree);
  const tree = path.join(TREES_DIR, args.tree);
  const cli = path.join(REPO, 'dist', 'cli.js');
  const peer = args.peer ? path.resolve(args.peer) : cli;
  if (!fs.existsSync(peer)) throw new Error(`no CLI at ${peer}`);
  const out = path.join(os.tmpdir(), `neardup-locate-cost-${process.pid}.json`);
  const scan = (c, extra) => ['node', [c, 'scan', tree, '--format', 'json', '--no-progress', ...extra]];
  const runs = [
    ['A', 'this build (default: located)', scan(cli, [])],
    ['B', args.peer ? `peer plain (${path.relative(REPO, peer) || peer})` : 'this build --no-locate', scan(peer, args.peer ? [] : ['--no-locate'])],
    ...(args.peer ? [['C', 'this build --no-locate', scan(cli, ['--no-locate'])]] : []),
  ];
  const got = Object.fromEntries(runs.map(([k]) => [k, []]));
  for (let r = 0; r < args.runs; r++) {
    for (let j = 0; j < runs.length; j++) {
      const [k, , [cmd, argv]] = runs[(r + j) % runs.length];
      const m = await measure(cmd, argv, { stdoutFile: out });
      if (m.code !== 0) throw new Error(`${k} exited with ${m.code}: ${m.stderr.slice(0, 400)}`);
      got[k].push(m);
    }
    log('locate-cost', `run ${r + 1}/${args.runs}: ${runs.map(([k]) => `${k} ${fmt(got[k][r].wall, 2)} s`).join(', ')}`);
  }
  fs.rmSync(out, { force: true });
  const med = (k, f) => median(got[k].map(f));
  const wall = (k) => med(k, (m) => m.wall);
  const cpu = (k) => med(k, (m) => m.user + m.sys);
  const rss = (k) => med(k, (m) => m.maxRssKb / 1024);
  const rows = runs.map(([k, name]) => [k, name, fmt(wall(k), 3), fmt(cpu(k), 2), fmt(rss(k), 0)]);
  console.log(`\n${args.tree}, ${args.runs} runs each, alternating; medians\n`);
  console.log(table(rows, ['', 'scan', 'wall s', 'CPU s', 'peak MB']));
  const ratio = { wall: wall('A') / wall('B'), cpu: cpu('A') / cpu('B'), peak: rss('A') / rss('B') };
  console.log(`\nA/B: wall ${fmt(ratio.wall, 3)} (bound ≤ ${BOUND}: ${verdict(ratio.wall, BOUND)}), CPU ${fmt(ratio.cpu, 3)} (${verdict(ratio.cpu, BOUND)}), peak ${fmt(ratio.peak, 2)}`);
  if (args.peer) console.log(`A/C (the default against this build's --no-locate): wall ${fmt(wall('A') / wall('C'), 3)}, CPU ${fmt(cpu('A') / cpu('C'), 3)}`);
  writeResult('locate-cost', { tree: args.tree, runs: args.runs, peer: args.peer || null, medians: Object.fromEntries(runs.map(([k, name]) => [k, { name, wall: wall(k), cpu: cpu(k), peakMb: rss(k) }])), ratio });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
