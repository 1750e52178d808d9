#!/usr/bin/env node
'use strict';
// The workers' output path of a plain scan, alone in one thread (issue 16): every file of a tree
// fingerprinted once (the worker's fingerprintFileSync, the native kernel where built), then per
// batch of 64 files, as the scan sends them: the request cloned (files and settings, as
// postMessage copies them), the outcomes packed (packOutcomes), moved (structuredClone with the
// packed buffers transferred, as postMessage does) and unpacked (unpackOutcomes). CPU of each
// step summed over the tree, median of the rounds, next to the fingerprinting's own CPU; with
// --ref the same steps of another commit's packing.ts on the same outcomes, alternating.
//
//   node bench/fingerprint/output.js [--tree small] [--rounds 15] [--ref <git rev>]
const fs = require('fs');
const path = require('path');
const { REPO, parseArgs, checkoutSrc, bundleEngine, median, environment, writeResult, log } = require('../lib/common');
const { ensureTree, treeFiles } = require('../lib/trees');

const opts = parseArgs(process.argv.slice(2), { tree: 'small', rounds: 15, ref: '', batch: 64 });
const cpuMs = (f) => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

/** What this benchmark calls, bundled from `root`/src (its own entry: bench/lib/engine.ts names more than an older commit may have). */
function engineOf(root, tag) {
  const dir = path.join(REPO, 'bench', 'results', '.build');
  fs.mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, `output-${tag}-${process.pid}.ts`);
  const outfile = path.join(dir, `output-${tag}-${process.pid}.js`);
  const src = (m) => JSON.stringify(path.join(root, 'src', m));
  fs.writeFileSync(
    entry,
    [
      `export { fingerprintFileSync } from ${src('node/workers/fingerprintFile')};`,
      `export { DEFAULT_ENGINE_SETTINGS } from ${src('node/settings/engineSettings')};`,
      `export { packOutcomes, transferablesOf, unpackOutcomes } from ${src('node/workers/packing')};`,
    ].join('\n'),
  );
  process.once('exit', () => {
    fs.rmSync(entry, { force: true });
    fs.rmSync(outfile, { force: true });
  });
  return bundleEngine(entry, outfile);
}

function main() {
  console.log(environment());
  const engine = engineOf(REPO, 'this');
  const sides = [{ name: 'this tree', engine }];
  if (opts.ref) {
    const { sha, root } = checkoutSrc(opts.ref);
    sides.push({ name: `ref ${sha.slice(0, 9)}`, engine: engineOf(root, 'ref') });
  }
  const tree = ensureTree(opts.tree);
  const files = treeFiles(tree).map((f) => ({ path: f.abs, relPath: f.rel }));
  const settings = { ...engine.DEFAULT_ENGINE_SETTINGS };
  let outcomes = [];
  const fingerprintCpu = cpuMs(() => (outcomes = files.map((f) => engine.fingerprintFileSync(f, settings))));
  const batches = [];
  for (let i = 0; i < outcomes.length; i += opts.batch) batches.push(outcomes.slice(i, i + opts.batch));
  let items = 0;
  for (const o of outcomes) if (o.ok) items += (o.doc.file ? 1 : 0) + o.doc.sections.length;
  log('output', `${files.length} files, ${items} items, ${batches.length} batches; fingerprinted in ${fingerprintCpu.toFixed(0)} ms of CPU (cold, one pass)`);
  const byPath = new Map(files.map((f) => [f.relPath, f]));
  const requests = batches.map((b) => ({ type: 'fingerprintFiles', files: b.map((o) => byPath.get(o.relPath)), settings, cjk: 'defer', pack: true, regions: false }));
  const runs = sides.map(() => ({ request: [], pack: [], move: [], unpack: [] }));
  for (let r = 0; r < opts.rounds; r++) {
    const order = r % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
    for (const s of order) {
      const e = sides[s].engine;
      const t = { request: 0, pack: 0, move: 0, unpack: 0 };
      batches.forEach((b, i) => {
        t.request += cpuMs(() => structuredClone(requests[i]));
        let packed;
        t.pack += cpuMs(() => (packed = e.packOutcomes(b)));
        let moved;
        t.move += cpuMs(() => (moved = structuredClone(packed, { transfer: e.transferablesOf(packed) })));
        t.unpack += cpuMs(() => e.unpackOutcomes(moved, b.map((o) => o.relPath)));
      });
      for (const k of Object.keys(t)) runs[s][k].push(t[k]);
    }
  }
  const result = { tree: opts.tree, files: files.length, items, batches: batches.length, fingerprintCpuMs: fingerprintCpu, sides: {} };
  console.log(`\n${opts.tree} tree: ${files.length} files, ${items} items, ${batches.length} batches; CPU ms over the whole tree, median of ${opts.rounds} rounds (fingerprinting itself: ${fingerprintCpu.toFixed(0)} ms)`);
  console.log('side'.padEnd(16) + ['request clone', 'pack', 'move (transfer)', 'unpack', 'all', '% of fp CPU'].map((h) => h.padStart(16)).join(''));
  sides.forEach((side, s) => {
    const m = Object.fromEntries(Object.entries(runs[s]).map(([k, v]) => [k, median(v)]));
    const all = m.request + m.pack + m.move + m.unpack;
    result.sides[side.name] = { ...m, all };
    console.log(side.name.padEnd(16) + [m.request, m.pack, m.move, m.unpack, all].map((x) => x.toFixed(2).padStart(16)).join('') + ((100 * all) / fingerprintCpu).toFixed(1).padStart(16));
  });
  console.log(`results: ${writeResult('output', result)}`);
}

main();
