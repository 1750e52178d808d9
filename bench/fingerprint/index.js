#!/usr/bin/env node
'use strict';
// Fingerprinting throughput, single thread: tokenise + shingle + hash + SimHash (+ sketch, +
// sections) over a real code tree and a real prose corpus, against a straightforward
// implementation measured in the same run.
//
//   node bench/fingerprint [--passes 5] [--naive-mb 2] [--code-tree small|large] [--ref <git rev>] [--json]
//
// Material (built on first use, see bench/lib/trees.js): code = every non-Markdown file of
// bench/.cache/trees/small (JS/TS of real npm packages, ~29 MB); prose = the real English files of
// bench/.cache/corpus/en (bench/quality's corpus, mutants left out, if present) + every .md of
// bench/.cache/trees/large. Files are read into memory first: the figures are CPU only.
//
// Modes, interleaved round-robin so that machine noise hits each alike, `--passes` rounds after one
// warm-up round; each figure is the median:
//   sections   fingerprintText(text, path)                     the product's default
//   file only  fingerprintText(text, path, { sections: false })
//   worker     decodeBuffer + isMinified + fingerprintText      what a scan worker does per file
//   … TS       the same in TypeScript alone: the product uses the native kernel (native/kernel.c and
//              native/sections.c, src/node/workers/nativeKernel.ts) for code where it is built, code sections
//              included; its results are identical (bench/fingerprint/identity.js,
//              test/unit/nativeSections.test.ts), so the two are compared in the same run
//   … wasm     the same with the WebAssembly kernel (wasm/neardup_kernel.wasm, the same C; the product's
//              kernel where the native one is missing), on code: MB/s against native and TS, same run
//   naive      the straightforward implementation below, on a ~`--naive-mb` MB sample (every n-th
//              file) with `sections`/`file only` re-measured on the same sample for the ratio.
//   … ref      with --ref: `sections` and `file only` of the engine built from that commit's src/
//              (bench/lib/common.js loadEngineAt), for a before/after ratio in the same run.
// Each figure is given from wall time and from the process's CPU time (user + system).
const fs = require('fs');
const path = require('path');
const { CACHE, loadEngine, loadEngineAt, median, spread, fmt, mb, table, verdict, log, environment, writeResult, parseArgs, walk } = require('../lib/common');
const { ensureTree, treeFiles } = require('../lib/trees');

const TARGET_MBPS = 100; // per core, on code (a plain C implementation reaches ~160 MB/s here)

// ------------------------------------------------------------------------------ naive reference

/**
 * The straightforward SimHash: regex tokens (strings), shingles as joined strings in a Set,
 * BigInt FNV-1a 64 (+ the murmur3 fmix64 finaliser, so it is as good a hash) per distinct
 * shingle, 64 separate counters. Same token rules and minimum size as the product (roughly).
 */
const CODE_TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|#![^\n]*|([A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*|\d[\w.]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\[\s\S]|[^`\\])*`|\S)/g;
const PROSE_TOKEN = /[\p{L}\p{N}]+(?:['’]\p{L}+)*/gu;
const MASK64 = (1n << 64n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

function naiveTokens(text, prose) {
  const out = [];
  if (prose) {
    for (const m of text.matchAll(PROSE_TOKEN)) out.push(m[0].toLowerCase());
  } else {
    for (const m of text.matchAll(CODE_TOKEN)) if (m[1] !== undefined) out.push(m[1]);
  }
  return out;
}

function fnv1a64Big(s) {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * FNV_PRIME) & MASK64;
  }
  return h;
}

function fmix64Big(h) {
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & MASK64;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & MASK64;
  h ^= h >> 33n;
  return h;
}

function naiveSimhash(text, prose, k = 3, minTokens = 50) {
  const tokens = naiveTokens(text, prose);
  if (tokens.length < minTokens) return null;
  const shingles = new Set();
  for (let i = 0; i + k <= tokens.length; i++) shingles.add(tokens.slice(i, i + k).join(' '));
  const v = new Array(64).fill(0);
  for (const s of shingles) {
    const h = fmix64Big(fnv1a64Big(s));
    for (let b = 0; b < 64; b++) v[b] += (h >> BigInt(b)) & 1n ? 1 : -1;
  }
  let fp = 0n;
  for (let b = 0; b < 64; b++) if (v[b] > 0) fp |= 1n << BigInt(b);
  return fp;
}

// ------------------------------------------------------------------------------ material

const isProse = (rel) => /\.(md|markdown|txt)$/i.test(rel);

function loadCorpora(codeTree) {
  const code = [];
  for (const f of treeFiles(ensureTree(codeTree))) {
    if (isProse(f.rel)) continue;
    const buf = fs.readFileSync(f.abs);
    code.push({ path: f.rel, buf, text: buf.toString('utf8'), bytes: buf.length });
  }
  const prose = [];
  const en = path.join(CACHE, 'corpus', 'en');
  if (fs.existsSync(en)) {
    for (const rel of walk(en)) {
      if (rel.startsWith('mutants/') || !isProse(rel)) continue;
      const buf = fs.readFileSync(path.join(en, rel));
      prose.push({ path: `corpus-en/${rel}`, buf, text: buf.toString('utf8'), bytes: buf.length });
    }
  }
  for (const f of treeFiles(ensureTree('large'))) {
    if (!isProse(f.rel)) continue;
    const buf = fs.readFileSync(f.abs);
    prose.push({ path: f.rel, buf, text: buf.toString('utf8'), bytes: buf.length });
  }
  return { code, prose };
}

/** Every n-th file, n chosen so the sample is about `targetBytes`. */
function sample(files, targetBytes) {
  const total = files.reduce((s, f) => s + f.bytes, 0);
  const step = Math.max(1, Math.round(total / targetBytes));
  return files.filter((_, i) => i % step === 0);
}

// ------------------------------------------------------------------------------ runs

/** Wall seconds and CPU seconds (user + system of the process) of one call. */
function timeIt(fn) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6 };
}

function main(argv) {
  const o = parseArgs(argv, { passes: 5, naiveMb: 2, codeTree: 'small', json: false, ref: '' });
  const E = loadEngine();
  // The native addon only (the loader would hand over the WebAssembly kernel without it).
  const kernel = E.kernelKind() === 'native' ? E.nativeKernel() : undefined;
  if (!kernel) console.log(`(native kernel ${E.nativeKernelProblem()}: the default modes are TypeScript)`);
  // As the product's loader makes it: Node's text copy into the module.
  const wasmKernel = E.createWasmKernel(fs.readFileSync(path.join(__dirname, '..', '..', 'wasm', 'neardup_kernel.wasm')), E.nodeTextWriter);
  const ref = o.ref ? loadEngineAt(o.ref) : null;
  console.log(`bench/fingerprint — ${environment()}${ref ? `; reference ${o.ref} = ${ref.sha.slice(0, 10)}` : ''}`);
  const { code, prose } = loadCorpora(o.codeTree);
  const naiveCode = sample(code, o.naiveMb * 1e6);
  const naiveProse = sample(prose, o.naiveMb * 1e6);
  const sets = [
    { name: 'code', files: code },
    { name: 'prose', files: prose },
    { name: 'code sample', files: naiveCode, naive: true },
    { name: 'prose sample', files: naiveProse, naive: true },
  ];
  for (const s of sets) s.bytes = s.files.reduce((a, f) => a + f.bytes, 0);
  log('fingerprint', sets.map((s) => `${s.name}: ${s.files.length} files ${fmt(mb(s.bytes), 1)} MB`).join('; '));

  let sink = 0; // keeps results alive so nothing is optimised away
  const modes = {
    sections: (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path, { kernel });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    'file only': (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path, { sections: false, kernel });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    worker: (files) => {
      for (const f of files) {
        const dec = E.decodeBuffer(f.buf);
        if (!dec.ok || E.isMinified(dec.text)) continue;
        const d = E.fingerprintText(dec.text, f.path, { kernel });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    'sections TS': (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path);
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    'file only TS': (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path, { sections: false });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    'sections wasm': (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path, { kernel: wasmKernel });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    'file only wasm': (files) => {
      for (const f of files) {
        const d = E.fingerprintText(f.text, f.path, { sections: false, kernel: wasmKernel });
        sink ^= d.file ? d.file.lo : 0;
      }
    },
    naive: (files) => {
      for (const f of files) {
        const fp = naiveSimhash(f.text, isProse(f.path));
        sink ^= fp === null ? 0 : Number(fp & 0xffn);
      }
    },
  };
  if (ref) {
    // The reference commit's engine, on the same files in the same rounds.
    modes['sections ref'] = (files) => {
      for (const f of files) {
        const d = ref.engine.fingerprintText(f.text, f.path);
        sink ^= d.file ? d.file.lo : 0;
      }
    };
    modes['file only ref'] = (files) => {
      for (const f of files) {
        const d = ref.engine.fingerprintText(f.text, f.path, { sections: false });
        sink ^= d.file ? d.file.lo : 0;
      }
    };
  }
  const plan = [];
  for (const s of sets) {
    const names = s.naive ? ['sections', 'file only', 'naive'] : ['sections', 'file only', 'worker'];
    if (kernel && s.name === 'code') names.push('sections TS', 'file only TS');
    if (s.name === 'code') names.push('sections wasm', 'file only wasm');
    if (ref && !s.naive) names.push('sections ref', 'file only ref');
    for (const m of names) plan.push({ set: s, mode: m, times: [], cpuTimes: [] });
  }
  for (let round = 0; round <= o.passes; round++) {
    for (const p of plan) {
      const t = timeIt(() => modes[p.mode](p.set.files));
      if (round > 0) {
        // round 0 warms up
        p.times.push(t.wall);
        p.cpuTimes.push(t.cpu);
      }
    }
    log('fingerprint', `round ${round}/${o.passes} done`);
  }

  const rows = [];
  const results = [];
  for (const p of plan) {
    const s = median(p.times);
    const cpu = median(p.cpuTimes);
    const r = {
      corpus: p.set.name, mode: p.mode, files: p.set.files.length, mb: mb(p.set.bytes), seconds: s, mbPerS: mb(p.set.bytes) / s,
      filesPerS: p.set.files.length / s, spreadPct: spread(p.times), cpuSeconds: cpu, cpuMbPerS: mb(p.set.bytes) / cpu, cpuSpreadPct: spread(p.cpuTimes),
    };
    results.push(r);
    rows.push([r.corpus, r.mode, r.files, fmt(r.mb, 1), fmt(r.seconds, 3), fmt(r.mbPerS, 1), Math.round(r.filesPerS), `${fmt(r.spreadPct, 0)}%`, fmt(r.cpuMbPerS, 1), `${fmt(r.cpuSpreadPct, 0)}%`]);
  }
  console.log(`\nSingle thread, median of ${o.passes} passes (after 1 warm-up); MB = 10^6 bytes of file content.`);
  console.log('MB/s from wall time; CPU MB/s from the process\'s CPU time (user + system), less sensitive to other load.\n');
  console.log(table(rows, ['corpus', 'mode', 'files', 'MB', 'median s', 'MB/s', 'files/s', 'spread', 'CPU MB/s', 'CPU spread']));

  const get = (corpus, mode) => results.find((r) => r.corpus === corpus && r.mode === mode);
  console.log('\nRatio against the straightforward implementation (same sample, same run):');
  const ratios = {};
  for (const c of ['code', 'prose']) {
    const n = get(`${c} sample`, 'naive');
    const a = get(`${c} sample`, 'sections');
    const b = get(`${c} sample`, 'file only');
    ratios[c] = { sections: n.seconds / a.seconds, fileOnly: n.seconds / b.seconds };
    console.log(`  ${c.padEnd(5)}: product ${fmt(ratios[c].fileOnly, 1)}x faster (file only), ${fmt(ratios[c].sections, 1)}x faster (with sections); naive ${fmt(n.mbPerS, 2)} MB/s`);
  }
  if (ref) {
    console.log(`\nSpeed-up against the reference ${o.ref} (${ref.sha.slice(0, 10)}), same files, same run (wall / CPU time):`);
    ratios.ref = {};
    for (const c of ['code', 'prose']) {
      for (const m of ['sections', 'file only']) {
        const now = get(c, m);
        const then = get(c, `${m} ref`);
        const r = { wall: then.seconds / now.seconds, cpu: then.cpuSeconds / now.cpuSeconds };
        ratios.ref[`${c} ${m}`] = r;
        console.log(`  ${c.padEnd(5)} ${m.padEnd(9)}: ${fmt(r.wall, 2)}x / ${fmt(r.cpu, 2)}x  (${fmt(then.cpuMbPerS, 1)} → ${fmt(now.cpuMbPerS, 1)} CPU MB/s)`);
      }
    }
  }
  if (kernel) {
    console.log('\nNative kernel against the TypeScript alone (code, same files, same run; wall / CPU time):');
    ratios.native = {};
    for (const m of ['sections', 'file only']) {
      const nat = get('code', m);
      const ts = get('code', `${m} TS`);
      const r = { wall: ts.seconds / nat.seconds, cpu: ts.cpuSeconds / nat.cpuSeconds };
      ratios.native[m] = r;
      console.log(`  ${m.padEnd(9)}: ${fmt(r.wall, 2)}x / ${fmt(r.cpu, 2)}x  (${fmt(ts.cpuMbPerS, 1)} → ${fmt(nat.cpuMbPerS, 1)} CPU MB/s)`);
    }
  }
  console.log('\nWebAssembly kernel (code, same files, same run; wall / CPU time): against the native kernel, and against the TypeScript alone');
  ratios.wasm = {};
  for (const m of ['sections', 'file only']) {
    const w = get('code', `${m} wasm`);
    const nat = kernel ? get('code', m) : null;
    const ts = get('code', kernel ? `${m} TS` : m);
    const r = { vsNativeWall: nat ? nat.seconds / w.seconds : null, vsNativeCpu: nat ? nat.cpuSeconds / w.cpuSeconds : null, vsTsWall: ts.seconds / w.seconds, vsTsCpu: ts.cpuSeconds / w.cpuSeconds };
    ratios.wasm[m] = r;
    const vsNative = nat ? `${fmt(r.vsNativeWall, 2)}x / ${fmt(r.vsNativeCpu, 2)}x native (${fmt(nat.cpuMbPerS, 1)} CPU MB/s)` : 'no native kernel';
    console.log(`  ${m.padEnd(9)}: wasm ${fmt(w.cpuMbPerS, 1)} CPU MB/s = ${vsNative}, ${fmt(r.vsTsWall, 2)}x / ${fmt(r.vsTsCpu, 2)}x TS (${fmt(ts.cpuMbPerS, 1)} CPU MB/s)`);
  }
  const codeSec = get('code', 'sections');
  const codeFile = get('code', 'file only');
  console.log(`\nTarget ≥ ${TARGET_MBPS} MB/s per core on code: with sections ${fmt(codeSec.mbPerS, 1)} MB/s → ${verdict(codeSec.mbPerS, TARGET_MBPS, false)}; file only ${fmt(codeFile.mbPerS, 1)} MB/s → ${verdict(codeFile.mbPerS, TARGET_MBPS, false)}`);
  console.log(`  by CPU time: with sections ${fmt(codeSec.cpuMbPerS, 1)} MB/s → ${verdict(codeSec.cpuMbPerS, TARGET_MBPS, false)}; file only ${fmt(codeFile.cpuMbPerS, 1)} MB/s → ${verdict(codeFile.cpuMbPerS, TARGET_MBPS, false)}`);
  const file = writeResult('fingerprint', { passes: o.passes, results, ratios, sink });
  log('fingerprint', `results in ${path.relative(process.cwd(), file)}`);
}

module.exports = { naiveSimhash, main };
if (require.main === module) main(process.argv.slice(2));
