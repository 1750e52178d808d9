#!/usr/bin/env node
'use strict';
// Incremental latency in a 10,000-file index of real files: the time from "file changed" to
// "results for that file and its twins ready", for a changed file of 100, 1,000 and 10,000 lines,
// and the time of a query for one file.
//
//   node bench/incremental [--files 10000] [--reps 15] [--no-engine] [--pad-to 100000] [--scale 90000]
//
// A. Core path, in this thread: fingerprintText (file + sections) → replace the file's and its
//    sections' entries in two live SimHashIndex (files k = 12, sections k = 10, the product's
//    defaults) → query the file and each section → verify candidates with the bottom-k sketches
//    (Jaccard ≥ 0.75). "query" = the last two steps only, for the unchanged file.
// B. EngineState (src/node/engine/engineState.ts, what the extension's engine worker runs), with its
//    PoolFingerprinter over dist/worker.js (cores − 1 workers, at least 1): the file is rewritten on
//    disk, then `update({ upserts: [file] })` until it resolves (read + fingerprint in the worker,
//    incremental matching, view report, report event handed to `emit`), and `query(file)`.
//    `--scale N` adds N generated files on disk (scripts/lib/scale-workspace.js, the live bench's
//    and the scale test's: ~1 KB of prose or code each, every 33rd an edited copy), so that the
//    engine's index is that of a workspace of files + N files (e.g. --scale 90000: ~100,000).
//
// Material: 10,000 JS/TS files of bench/.cache/trees/large (every other file, so all packages are
// in), plus for each size L a "target" file of L lines (real code from the other half of the tree)
// and a twin of it (every 40th line dropped), so the target always has twins to find and verify.
// Each repetition edits one line of the target (a different one each time).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { REPO, loadEngine, ensureDist, median, percentile, fmt, table, verdict, log, environment, writeResult, parseArgs } = require('../lib/common');
const { ensureTree, treeFiles } = require('../lib/trees');

const SIZES = [100, 1000, 10000];
const TARGET_MS = 20; // for a 1,000-line file
const TARGET_QUERY_MS = 5;

function hr() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function material(nFiles) {
  const files = treeFiles(ensureTree('large')).filter((f) => !/\.md$/i.test(f.rel));
  const indexed = files.filter((_, i) => i % 2 === 0).slice(0, nFiles);
  const spare = files.filter((_, i) => i % 2 === 1);
  // Target texts: consecutive spare files' lines, cut at L lines.
  const targets = {};
  let at = 0;
  for (const L of SIZES) {
    const lines = [];
    while (lines.length < L && at < spare.length) {
      for (const line of fs.readFileSync(spare[at++].abs, 'utf8').split('\n')) lines.push(line);
    }
    lines.length = L;
    targets[L] = lines;
  }
  return { indexed, targets };
}

/** The target edited at repetition r: line (r · 7919 mod L) gets an extra statement. */
function edited(lines, r) {
  const copy = lines.slice();
  const i = (r * 7919) % copy.length;
  copy[i] = `${copy[i]} const __edit${r} = ${r};`;
  return copy.join('\n');
}
function twinOf(lines) {
  return lines.filter((_, i) => i % 40 !== 39).join('\n');
}

// ------------------------------------------------------------------------------ A. core path

class LiveIndex {
  constructor(E) {
    this.E = E;
    this.files = new E.SimHashIndex({ maxDistance: 12 });
    this.sections = new E.SimHashIndex({ maxDistance: 10 });
    this.docs = new Map(); // docId -> { path, doc, sectionIds }
    this.sectionOf = new Map(); // sectionId -> { docId, s }
    this.nextSection = 0;
  }
  put(docId, p, doc) {
    const old = this.docs.get(docId);
    if (old) for (const id of old.sectionIds) {
      this.sections.remove(id);
      this.sectionOf.delete(id);
    }
    if (doc.file) this.files.add(docId, doc.file.hi, doc.file.lo);
    else this.files.remove(docId);
    const sectionIds = [];
    for (const s of doc.sections) {
      const id = this.nextSection++;
      this.sections.add(id, s.hi, s.lo);
      this.sectionOf.set(id, { docId, s });
      sectionIds.push(id);
    }
    this.docs.set(docId, { path: p, doc, sectionIds });
  }
  /** Twins of one document: file matches and section matches, verified by sketches. */
  twins(docId, minSimilarity = 0.75) {
    const { E } = this;
    const { doc } = this.docs.get(docId);
    const out = [];
    if (doc.file) {
      for (const m of this.files.query(doc.file.hi, doc.file.lo, 12)) {
        if (m.id === docId) continue;
        const other = this.docs.get(m.id).doc.file;
        if (E.estimateJaccard(doc.file.sketch, other.sketch, E.FILE_SKETCH_SIZE) >= minSimilarity) out.push({ kind: 'file', id: m.id, d: m.distance });
      }
    }
    for (const s of doc.sections) {
      for (const m of this.sections.query(s.hi, s.lo, 10)) {
        const o = this.sectionOf.get(m.id);
        if (o.docId === docId) continue;
        if (E.estimateJaccard(s.sketch, o.s.sketch, E.SECTION_SKETCH_SIZE) >= minSimilarity) out.push({ kind: 'section', id: o.docId, d: m.distance });
      }
    }
    return out;
  }
}

/**
 * A stand-in for one more, unrelated document (--pad-to): a real document's fingerprints with its
 * file's and sections' SimHashes replaced by random 64-bit values (the SimHashes of unrelated
 * texts are about as far apart as random ones), its sketches kept.
 */
function paddingOf(doc, next) {
  const rehash = (fp) => ({ ...fp, hi: next(), lo: next() });
  return { ...doc, file: doc.file ? rehash(doc.file) : doc.file, sections: doc.sections.map(rehash) };
}

/** xorshift32 from a fixed seed: the same padding in every run. */
function random32(seed = 0x9e3779b9) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

function coreBench(E, mat, reps, padTo = 0) {
  const t0 = hr();
  const live = new LiveIndex(E);
  let id = 0;
  const real = [];
  for (const f of mat.indexed) {
    const doc = E.fingerprintText(fs.readFileSync(f.abs, 'utf8'), f.rel);
    real.push(doc);
    live.put(id++, f.rel, doc);
  }
  const next = random32();
  for (let k = 0; id < padTo - 2 * SIZES.length; k++) live.put(id++, `padding-${k}.js`, paddingOf(real[k % real.length], next));
  const targetIds = {};
  for (const L of SIZES) {
    const twinId = id++;
    live.put(twinId, `twin-${L}.js`, E.fingerprintText(twinOf(mat.targets[L]), `twin-${L}.js`));
    targetIds[L] = id++;
    live.put(targetIds[L], `target-${L}.js`, E.fingerprintText(mat.targets[L].join('\n'), `target-${L}.js`));
  }
  live.twins(targetIds[SIZES[0]]); // builds the query tables
  const buildS = (hr() - t0) / 1e3;
  log('incremental', `core: ${live.docs.size} documents, ${live.sectionOf.size} sections indexed in ${fmt(buildS, 1)} s`);
  const rows = [];
  for (const L of SIZES) {
    const tid = targetIds[L];
    const total = [];
    const fpT = [];
    const updT = [];
    const qT = [];
    const queryOnly = [];
    let twins = 0;
    let sections = 0;
    for (let r = 0; r <= reps; r++) {
      const text = edited(mat.targets[L], r + 1);
      const a = hr();
      const doc = E.fingerprintText(text, `target-${L}.js`);
      const b = hr();
      live.put(tid, `target-${L}.js`, doc);
      const c = hr();
      const found = live.twins(tid);
      const d = hr();
      const q = live.twins(tid);
      const e = hr();
      if (r === 0) continue; // warm-up
      fpT.push(b - a);
      updT.push(c - b);
      qT.push(d - c);
      total.push(d - a);
      queryOnly.push(e - d);
      twins = new Set(found.filter((x) => x.kind === 'file').map((x) => x.id)).size;
      sections = doc.sections.length;
      if (!found.some((x) => x.id === tid - 1)) throw new Error(`core: the twin of target-${L} was not found`);
      if (q.length !== found.length) throw new Error('core: query differs from update results');
    }
    rows.push({ lines: L, sections, fileTwins: twins, medianMs: median(total), p90Ms: percentile(total, 90), fingerprintMs: median(fpT), updateMs: median(updT), queryVerifyMs: median(qT), queryOnlyMs: median(queryOnly), queryOnlyP90Ms: percentile(queryOnly, 90) });
  }
  return { documents: live.docs.size, sections: live.sectionOf.size, buildSeconds: buildS, rows };
}

// ------------------------------------------------------------------------------ B. EngineState

async function engineBench(E, mat, reps, scale) {
  // Per checkout and process (bench/.cache may be shared by several worktrees running at once).
  const ws = path.join(REPO, 'bench', 'results', `incremental-ws-${process.pid}`);
  fs.rmSync(ws, { recursive: true, force: true });
  for (const f of mat.indexed) {
    const dst = path.join(ws, 'tree', f.rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    try {
      fs.linkSync(f.abs, dst);
    } catch {
      fs.copyFileSync(f.abs, dst);
    }
  }
  if (scale > 0) {
    const ms = require('../../scripts/lib/scale-workspace').generate(ws, scale);
    log('incremental', `EngineState: ${scale.toLocaleString('en')} generated files written in ${fmt(ms / 1000, 1)} s`);
  }
  const targetPath = {};
  for (const L of SIZES) {
    fs.writeFileSync(path.join(ws, `twin-${L}.js`), twinOf(mat.targets[L]));
    targetPath[L] = path.join(ws, `target-${L}.js`);
    fs.writeFileSync(targetPath[L], mat.targets[L].join('\n'));
  }
  const poolSize = Math.max(1, Math.min(4, os.cpus().length - 1));
  const fingerprinter = new E.PoolFingerprinter({ script: path.join(REPO, 'dist', 'worker.js'), size: poolSize });
  let events = 0;
  const state = new E.EngineState(fingerprinter, () => events++, { saveDelayMs: 3600e3, progressIntervalMs: 1000 });
  const settings = { ...E.DEFAULT_ENGINE_SETTINGS };
  await state.init({ config: { settings, include: [], exclude: [], roots: [{ path: ws, exclude: [] }] }, cachePath: null });
  const t0 = hr();
  const stats = await state.reindex();
  const indexS = (hr() - t0) / 1e3;
  log('incremental', `EngineState: ${stats.files} files indexed in ${fmt(indexS, 1)} s (pool of ${poolSize}), match ${stats.matchMs} ms`);
  const rows = [];
  let mtime = Date.now() / 1000;
  for (const L of SIZES) {
    const upd = [];
    const qry = [];
    let twins = 0;
    for (let r = 0; r <= reps; r++) {
      fs.writeFileSync(targetPath[L], edited(mat.targets[L], r + 1));
      mtime += 10;
      fs.utimesSync(targetPath[L], mtime, mtime); // a distinct mtime, as an editor's save gives
      const a = hr();
      const u = await state.update({ upserts: [targetPath[L]], removes: [], renames: [] });
      const b = hr();
      const q = await state.query(targetPath[L]);
      const c = hr();
      if (u.reread !== 1) throw new Error(`EngineState did not re-read target-${L} (${JSON.stringify(u)})`);
      if (q.status !== 'ok' || !q.matches.some((m) => m.other.path.endsWith(`twin-${L}.js`))) throw new Error(`EngineState: no twin for target-${L} (${q.status})`);
      if (r === 0) continue;
      upd.push(b - a);
      qry.push(c - b);
      twins = new Set(q.matches.filter((m) => m.kind === 'file').map((m) => m.other.path)).size;
    }
    rows.push({ lines: L, fileTwins: twins, updateMedianMs: median(upd), updateP90Ms: percentile(upd, 90), queryMedianMs: median(qry), queryP90Ms: percentile(qry, 90) });
  }
  await state.shutdown();
  fs.rmSync(ws, { recursive: true, force: true });
  return { files: stats.files, poolSize, indexSeconds: indexS, matchMs: stats.matchMs, events, rows };
}

// ------------------------------------------------------------------------------ main

async function main(argv) {
  const o = parseArgs(argv, { files: 10000, reps: 15, engine: true, noEngine: false, padTo: 0, scale: 0 });
  console.log(`bench/incremental — ${environment()}`);
  const E = loadEngine();
  const mat = material(o.files);
  const core = coreBench(E, mat, o.reps, o.padTo);
  console.log(`\nA. Core path: fingerprintText + live SimHashIndex update (files k=12, sections k=10) + query + sketch verification`);
  const padded = o.padTo > 0 ? ` (${mat.indexed.length} real files + the targets, the rest stand-ins: real fingerprints with random SimHashes)` : '';
  console.log(`   ${core.documents} documents, ${core.sections} sections${padded}; median of ${o.reps} edits (p90 in the next column)\n`);
  console.log(
    table(
      core.rows.map((r) => [r.lines, r.sections, r.fileTwins, fmt(r.medianMs, 2), fmt(r.p90Ms, 2), fmt(r.fingerprintMs, 2), fmt(r.updateMs, 3), fmt(r.queryVerifyMs, 3), fmt(r.queryOnlyMs, 3), fmt(r.queryOnlyP90Ms, 3)]),
      ['lines', 'sections', 'file twins', 'changed→ready ms', 'p90 ms', 'fingerprint', 'index update', 'query+verify', 'query only ms', 'query p90'],
    ),
  );
  const c1k = core.rows.find((r) => r.lines === 1000);
  console.log(`\n   1,000-line file, changed → ready: ${fmt(c1k.medianMs, 2)} ms (target ≤ ${TARGET_MS}: ${verdict(c1k.medianMs, TARGET_MS)}); one-file query: ${fmt(c1k.queryOnlyMs, 3)} ms (target ≤ ${TARGET_QUERY_MS}: ${verdict(c1k.queryOnlyMs, TARGET_QUERY_MS)})`);

  let engine = null;
  if (o.engine && !o.noEngine) {
    ensureDist(false);
    engine = await engineBench(E, mat, o.reps, Math.max(0, Number(o.scale) || 0));
    console.log(`\nB. EngineState (the extension's engine): update({upserts:[file]}) → report ready, and query(file)`);
    console.log(`   ${engine.files} files, fingerprint pool of ${engine.poolSize} worker(s) (dist/worker.js); full index ${fmt(engine.indexSeconds, 1)} s, of which matching ${engine.matchMs} ms\n`);
    console.log(
      table(
        engine.rows.map((r) => [r.lines, r.fileTwins, fmt(r.updateMedianMs, 1), fmt(r.updateP90Ms, 1), fmt(r.queryMedianMs, 1), fmt(r.queryP90Ms, 1)]),
        ['lines', 'file twins', 'update median ms', 'update p90 ms', 'query median ms', 'query p90 ms'],
      ),
    );
    const e1k = engine.rows.find((r) => r.lines === 1000);
    console.log(`\n   1,000-line file through EngineState: update ${fmt(e1k.updateMedianMs, 1)} ms (target ≤ ${TARGET_MS}: ${verdict(e1k.updateMedianMs, TARGET_MS)}); query ${fmt(e1k.queryMedianMs, 1)} ms (target ≤ ${TARGET_QUERY_MS}: ${verdict(e1k.queryMedianMs, TARGET_QUERY_MS)})`);
  }
  const file = writeResult('incremental', { files: o.files, reps: o.reps, scale: Number(o.scale) || 0, core, engine });
  log('incremental', `results in ${path.relative(process.cwd(), file)}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`bench/incremental: ${e.stack || e.message}`);
    process.exitCode = 2;
  });
}
