// Scale bench of `neardup join` (issue 17): synthetic shards with planted near pairs
// (synth.js), joined by the real CLI locally and with `--engine dask` (a local cluster of 2 worker
// processes), printing per size: shard bytes per fingerprint, time, peak memory of the whole
// process tree (the CLI, and the Dask scheduler and workers), pairs found against planted (recall
// at the configured distance, and any planted pair at k + 1 found), and whether Dask's pairs equal
// the local join's.
//
//   node bench/shards [--sizes 1000000,10000000] [--engines local,dask] [--k 3] [--shards 8]
//                     [--near-share 0.005] [--heap-mb 14000] [--no-build]
// Shards are cached in bench/.cache/shards/<size>-k<k>-s<shards>/ (delete it to regenerate);
// results go to bench/results/shards.json. Needs dist/ built (run-all builds it; or `npm run build`).
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { writeSynthShards } = require('./synth');

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const sizes = arg('sizes', '1000000,10000000').split(',').map(Number);
const engines = arg('engines', 'local,dask').split(',');
const k = Number(arg('k', 3));
const shardCount = Number(arg('shards', 8));
const nearShare = Number(arg('near-share', 0.005));
const heapMb = Number(arg('heap-mb', 14000));

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(root) {
  const children = new Map();
  const rss = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
      rss.set(Number(name), Number(fields[21]) * 4096);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const todo = [root];
  while (todo.length) {
    const p = todo.pop();
    total += rss.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
  }
  return total;
}

/** Runs the CLI; its time, the peak RSS of its process tree (sampled every 200 ms), its output. */
function runMeasured(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, treeRss(child.pid))), 200);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`neardup ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      resolve({ seconds, peakBytes: peak, stdout: Buffer.concat(out).toString('utf8'), stderr: err });
    });
  });
}

async function main() {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build');
  const results = [];
  console.log(`join scale bench: k = ${k}, ${shardCount} shards, planted near pairs ${nearShare * 100} % of the items, engines ${engines.join(', ')}`);
  for (const n of sizes) {
    const dir = path.join(ROOT, 'bench', '.cache', 'shards', `${n}-k${k}-s${shardCount}`);
    const truthFile = path.join(dir, 'truth.json');
    const near = Math.round(n * nearShare);
    const far = Math.round(near / 10);
    let truth;
    if (fs.existsSync(truthFile)) truth = JSON.parse(fs.readFileSync(truthFile, 'utf8'));
    else {
      fs.rmSync(dir, { recursive: true, force: true });
      const t0 = Date.now();
      const r = await writeSynthShards({ out: dir, items: n, shards: shardCount, near, far, k });
      truth = { files: r.files, near: r.near, far: r.far };
      fs.writeFileSync(truthFile, JSON.stringify(truth));
      console.log(`  generated ${n} fingerprints in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    const shardBytes = truth.files.reduce((s, f) => s + fs.statSync(f).size, 0);
    const row = { fingerprints: n, shards: shardCount, k, shardBytesPerFingerprint: shardBytes / n, planted: truth.near.length, plantedFar: truth.far.length, engines: {} };
    let localPairs = null;
    for (const engine of engines) {
      const r = await runMeasured(['join', ...truth.files, '--format', 'json', '--max-distance', String(k), '--no-progress', ...(engine === 'dask' ? ['--engine', 'dask'] : [])]);
      const report = JSON.parse(r.stdout);
      const got = new Set(report.pairs.map((p) => `${p.a.path} ${p.b.path}`));
      const found = truth.near.filter(([a, b]) => got.has(`${a} ${b}`)).length;
      const farFound = truth.far.filter(([a, b]) => got.has(`${a} ${b}`)).length;
      const key = report.pairs.map((p) => `${p.kind} ${p.a.path} ${p.b.path} ${p.distance}`).sort().join('\n');
      if (engine === 'local') localPairs = key;
      const m = /read (\d+) ms, matched (\d+) ms/.exec(r.stderr);
      row.engines[engine] = {
        seconds: Number(r.seconds.toFixed(1)),
        readSeconds: m ? Number(m[1]) / 1000 : null,
        matchSeconds: m ? Number(m[2]) / 1000 : null,
        peakMB: Math.round(r.peakBytes / 2 ** 20),
        bytesPerFingerprint: Math.round(r.peakBytes / n),
        pairs: report.pairs.length,
        recall: found / truth.near.length,
        plantedFarFound: farFound,
        ...(engine !== 'local' && localPairs !== null ? { sameAsLocal: key === localPairs } : {}),
      };
      const e = row.engines[engine];
      console.log(
        `  ${String(n).padStart(9)} fp  ${engine.padEnd(5)}  ${String(e.seconds).padStart(7)} s (read ${e.readSeconds} s, match ${e.matchSeconds} s)  peak ${e.peakMB} MB (${e.bytesPerFingerprint} B/fp)  pairs ${e.pairs}  recall ${e.recall.toFixed(4)} (${found}/${truth.near.length})  at k+1 ${farFound}${e.sameAsLocal !== undefined ? `  same as local: ${e.sameAsLocal}` : ''}  shard ${row.shardBytesPerFingerprint.toFixed(0)} B/fp`,
      );
    }
    results.push(row);
  }
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'shards.json'), JSON.stringify({ date: new Date().toISOString(), k, results }, null, 2));
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
