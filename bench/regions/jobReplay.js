#!/usr/bin/env node
'use strict';
// The `--locate` kernel job alone (issue 12): the arguments of the job a `scan --locate` starts
// (`regionPlanAsync`: the region documents' streams and anchors, caps, options, sides) captured
// once from this build, then replayed through this build's native addon and a peer's, both loaded
// in each of a few processes and run in turn. A whole scan cannot show a 10 %
// change of the job on a shared 2-core machine (its noise is ±5 %); the job alone can. Prints the
// job's CPU and wall time (medians per process, then over processes; the ratio of the medians and
// the median of the per-process ratios) and checks that both addons give the same result (a hash
// of every array the job returns).
//
//   node bench/regions/jobReplay.js [--peer /path/to/neardup_kernel.node] [--processes 8] [--runs 5] [--tree small] [--capture]
//
// Without --peer the build's addon is replayed against itself (the noise floor). --capture makes
// the capture again (it is kept in bench/.cache/jobs/<tree>.bin, ~65 MB for the small tree, and made
// when missing); capture again after a change of what the job is given.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { REPO, ensureDist, median, fmt, table, log, writeResult, parseArgs } = require('../lib/common');
const { ensureTree, TREES_DIR } = require('../lib/trees');

const ADDON = path.join(REPO, 'build', 'Release', 'neardup_kernel.node');
const JOBS = path.join(REPO, 'bench', '.cache', 'jobs');

/**
 * In a child process: both addons loaded (two files are two modules), the job replayed through
 * them in turn `runs` times each (A B, B A, …: the machine's slow phases hit both); prints each
 * one's CPU and wall per run and its result's hash.
 */
async function replay(addonA, addonB, file, runs) {
  const v8 = require('v8');
  const crypto = require('crypto');
  const init = v8.deserialize(fs.readFileSync(`${file}.init`));
  const args = v8.deserialize(fs.readFileSync(file));
  const kernels = { A: require(addonA), B: require(addonB) };
  for (const k of new Set(Object.values(kernels))) k.init(...init);
  const out = { A: { hash: '', times: [] }, B: { hash: '', times: [] } };
  const hashOf = (res) => {
    const h = crypto.createHash('sha1');
    const put = (x) => {
      if (x && ArrayBuffer.isView(x)) h.update(Buffer.from(x.buffer, x.byteOffset, x.byteLength));
      else if (x && typeof x === 'object') for (const key of Object.keys(x).sort()) (h.update(key), put(x[key]));
      else h.update(String(x));
    };
    put(res);
    return h.digest('hex');
  };
  for (let r = 0; r < runs; r++) {
    for (const w of r % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const res = await kernels[w].regionPlanAsync(...args);
      const c = process.cpuUsage(c0);
      out[w].times.push({ cpu: (c.user + c.system) / 1000, wall: Number(process.hrtime.bigint() - t0) / 1e6 });
      if (r < 2) out[w].hash = hashOf(res);
    }
  }
  process.stdout.write(JSON.stringify(out));
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { peer: '', processes: 8, runs: 5, tree: 'small', capture: false, build: false });
  ensureDist(args.build);
  ensureTree(args.tree);
  if (!fs.existsSync(ADDON)) throw new Error(`no native addon at ${ADDON} (npm run build)`);
  const peer = args.peer ? path.resolve(args.peer) : ADDON;
  if (!fs.existsSync(peer)) throw new Error(`no addon at ${peer}`);
  fs.mkdirSync(JOBS, { recursive: true });
  const file = path.join(JOBS, `${args.tree}.bin`);
  if (args.capture || !fs.existsSync(file) || !fs.existsSync(`${file}.init`)) {
    log('job-replay', `capturing the job of scan --locate on ${args.tree}`);
    execFileSync(process.execPath, ['-r', path.join(__dirname, '..', 'lib', 'captureJob.js'), path.join(REPO, 'dist', 'cli.js'), 'scan', path.join(TREES_DIR, args.tree), '--format', 'json', '--locate', '--quiet'], {
      env: { ...process.env, NEARDUP_JOB_CAPTURE: file },
      stdio: ['ignore', 'ignore', 'inherit'],
      maxBuffer: 1 << 30,
    });
    if (!fs.existsSync(file)) throw new Error('the scan started no kernel job (no native addon? a tree over --locate\'s limit?)');
  }
  const got = { A: [], B: [] };
  const hashes = { A: new Set(), B: new Set() };
  for (let p = 0; p < args.processes; p++) {
    const r = JSON.parse(execFileSync(process.execPath, [__filename, '--replay', ADDON, peer, file, String(args.runs)], { maxBuffer: 1 << 26 }).toString());
    for (const k of ['A', 'B']) {
      hashes[k].add(r[k].hash);
      got[k].push({ cpu: median(r[k].times.map((t) => t.cpu)), wall: median(r[k].times.map((t) => t.wall)) });
    }
    log('job-replay', `process ${p + 1}/${args.processes}: A ${fmt(got.A[p].cpu, 1)} ms, B ${fmt(got.B[p].cpu, 1)} ms of CPU`);
  }
  const same = hashes.A.size === 1 && hashes.B.size === 1 && [...hashes.A][0] === [...hashes.B][0];
  const med = (k, f) => median(got[k].map((x) => x[f]));
  const paired = (f) => median(got.A.map((x, i) => x[f] / got.B[i][f]));
  console.log(`\n${args.tree}: the --locate kernel job replayed, ${args.processes} processes × ${args.runs} runs of each addon in turn (medians per process, then over processes)\n`);
  console.log(
    table(
      [
        ['A', 'this build', fmt(med('A', 'cpu'), 1), fmt(med('A', 'wall'), 1)],
        ['B', args.peer ? `peer (${path.relative(REPO, peer) || peer})` : 'this build again', fmt(med('B', 'cpu'), 1), fmt(med('B', 'wall'), 1)],
      ],
      ['', 'addon', 'CPU ms', 'wall ms'],
    ),
  );
  console.log(`\nA/B: CPU ${fmt(med('A', 'cpu') / med('B', 'cpu'), 3)} (paired ${fmt(paired('cpu'), 3)}), wall ${fmt(med('A', 'wall') / med('B', 'wall'), 3)} (paired ${fmt(paired('wall'), 3)}); results ${same ? 'the same' : 'DIFFERENT'}`);
  writeResult('job-replay', { tree: args.tree, processes: args.processes, runs: args.runs, peer: args.peer || null, same, A: got.A, B: got.B });
  if (!same) process.exitCode = 1;
}

if (process.argv[2] === '--replay') {
  replay(process.argv[3], process.argv[4], process.argv[5], Number(process.argv[6])).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
