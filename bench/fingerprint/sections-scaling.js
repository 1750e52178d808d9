#!/usr/bin/env node
'use strict';
// Sections in time linear in their input: what the unit tests asserted on wall time until they
// flaked on the shared machine (test/unit/node/workers/nativeSections.test.ts "stays fast",
// test/unit/core/sections/sections.test.ts "is linear", test/unit/badInput.test.ts "hundreds of
// identical sections"). The unit tests keep the outputs (native = TypeScript, valid ranges, all
// pairs); the times are here, with the TypeScript as the named peer of the native kernel.
//
//   node bench/fingerprint/sections-scaling.js [--runs 7] [--n 20000] [--sample-ms 25] [--quick] [--native=false]
//
//   1. codeSections (native kernel and TypeScript, interleaved) and proseSections (TypeScript
//      only: it has no native side) on pathological and ordinary shapes at n and 10 n units:
//      time per call at each size and the growth (linear work: ×10; quadratic: ×100), and the
//      native kernel's speed-up over the TypeScript at 10 n.
//   2. A 5 MB minified file (one line of braces, strings, regex literals, template strings):
//      codeSections by the native kernel and by the TypeScript.
//   3. buildReport on one document of m identical sections, m and 4 m (16× the section pairs):
//      time per pair (constant when the report follows its output; dropping nested pairs by
//      comparing each pair with every kept one made it grow with the pairs).
//
// Every figure is a median of `--runs` samples taken round-robin after one warm-up sample; a
// sample repeats the call until it has run `--sample-ms` (so calls of well under a millisecond
// are timed over many), and is given from wall time and from the process's CPU time (user +
// system), which other load on the shared machine disturbs far less. Verdicts are on CPU time
// (wall time verdicts in brackets). Exit code 1 when the native kernel's sections differ from the
// TypeScript's or the report misses pairs (a correctness failure), never because of a time.
const path = require('path');
const { loadEngine, median, spread, fmt, table, verdict, log, environment, writeResult, parseArgs } = require('../lib/common');

/** ×10 the input may cost at most ×15 the time (linear ×10, quadratic ×100). */
const TARGET_GROWTH = 15;
/** The native kernel is not slower than the TypeScript it replaces, on any shape. */
const TARGET_NATIVE_SPEEDUP = 1;
/** The 5 MB minified file, native kernel ("well under a second"). */
const TARGET_MINIFIED_MS = 500;
/**
 * ×16 the section pairs may cost at most ×2 the time per pair: sorting is n log n and 16× the
 * data falls out of the caches (comparing each pair with every kept one: ×16 per pair).
 */
const TARGET_PER_PAIR_GROWTH = 2;

// ------------------------------------------------------------------------------ shapes

/** `n` lines of ordinary JavaScript: functions and classes with braces in strings, regexes, comments. */
function jsLines(n) {
  const js = [];
  for (let i = 0; js.length < n; i++) {
    js.push(`function f${i}(a, b) {`, '  if (a) {', `    return "}" + '{' + b;`, '  }', '  return /[{]/.test(a) ? a : b; // {', '}');
    js.push(`class C${i} {`, '  m() {', '    return 1;', '  }', '}');
  }
  return js.join('\n');
}

function markdown(n) {
  const parts = [];
  for (let i = 0; parts.length < n; i++) parts.push(`${'#'.repeat(1 + (i % 6))} Heading ${i}`, '', 'Some text.', 'More text.', '');
  return parts.join('\n');
}

/** [name, kind, make(n)]: code shapes run on both sides, prose shapes on the TypeScript. */
const SHAPES = [
  ['one line', 'code', (n) => 'function a(){'.repeat(n) + '}'.repeat(n)],
  ['brace nest', 'code', (n) => '{\n'.repeat(n) + '}\n'.repeat(n)],
  ['comments on one line', 'code', (n) => 'f(a/*x*/, `s`, "q", \'r\', /re/);'.repeat(n)],
  ['python', 'code', (n) => 'def f(a):\n    if a:\n        return 1\n    return 2\n\n'.repeat(n / 5)],
  ['wide lines', 'code', (n) => `${' '.repeat(n)}x {\n${'y {'.repeat(n / 10)}\n${'}\n'.repeat(n / 10)}`],
  ['js lines', 'code', jsLines],
  ['markdown', 'prose', markdown],
  ['chinese', 'prose', (n) => '这是一个段落，没有空格。\n'.repeat(n)],
];

const MINIFIED = 'function a(b){return b&&{c:"}",d:/{/g,e:`${b}`}}var x=[1,2,(3)];'.repeat(80_000);

// ------------------------------------------------------------------------------ timing

/** Wall and CPU milliseconds of `reps` calls of `fn`. */
function timeReps(fn, reps) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < reps; r++) fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e3 };
}

/**
 * A measured case: its warm-up call fixes how many calls one sample makes (≥ `sampleMs`);
 * `sample()` adds one per-call figure (wall and CPU ms).
 */
function makeCase(fn, sampleMs) {
  const first = timeReps(fn, 1);
  const reps = Math.max(1, Math.min(10_000, Math.ceil(sampleMs / Math.max(first.wall, 0.001))));
  const c = { reps, wall: [], cpu: [] };
  c.sample = () => {
    const t = timeReps(fn, reps);
    c.wall.push(t.wall / reps);
    c.cpu.push(t.cpu / reps);
  };
  return c;
}

/** Round-robin over the cases, `runs` samples each (after one warm-up sample). */
function runRounds(cases, runs, tag) {
  for (let round = 0; round <= runs; round++) {
    for (const c of cases) {
      if (round === 0) {
        const keep = { wall: c.wall.length, cpu: c.cpu.length };
        c.sample();
        c.wall.length = keep.wall;
        c.cpu.length = keep.cpu;
      } else c.sample();
    }
    log(tag, `round ${round}/${runs} done`);
  }
}

const ms = (x) => (x < 1 ? fmt(x, 3) : x < 100 ? fmt(x, 2) : fmt(x, 0));
const both = (cpuVerdict, wallVerdict) => `${cpuVerdict} [${wallVerdict}]`;

// ------------------------------------------------------------------------------ main

function main(argv) {
  const o = parseArgs(argv, { runs: 7, n: 20_000, sampleMs: 25, quick: false, native: true });
  if (o.quick) {
    o.runs = Math.min(o.runs, 3);
    o.sampleMs = Math.min(o.sampleMs, 10);
  }
  const E = loadEngine();
  const kernel = o.native ? E.nativeKernel() : null;
  console.log(`bench/fingerprint/sections-scaling — ${environment()}`);
  if (!kernel?.codeSections) console.log(`(native kernel ${o.native ? E.nativeKernelProblem() ?? 'without codeSections' : 'off (--native=false)'}: TypeScript only)`);
  const impls = kernel?.codeSections ? ['native', 'TS'] : ['TS'];
  const failures = [];
  const n = o.n;
  const sizes = [n, 10 * n];

  // ---------------------------------------------------------------- 1. growth
  const cases1 = [];
  for (const [name, kind, make] of SHAPES) {
    for (const size of sizes) {
      const text = make(size);
      const call = kind === 'code' ? (opts) => E.codeSections(text, opts) : () => E.proseSections(text);
      if (kind === 'code' && impls.includes('native')) {
        // Correctness first: the same ranges from both sides.
        const a = JSON.stringify(call({}));
        const b = JSON.stringify(call({ kernel }));
        if (a !== b) failures.push(`${name} at ${size}: native codeSections differs from the TypeScript`);
      }
      for (const impl of kind === 'code' ? impls : ['TS']) {
        const opts = impl === 'native' ? { kernel } : {};
        cases1.push({ shape: name, kind, size, chars: text.length, impl, ...makeCase(() => call(opts), o.sampleMs) });
      }
    }
  }
  log('sections-scaling', `part 1: ${cases1.length} cases, ${o.runs} runs`);
  runRounds(cases1, o.runs, 'sections-scaling');

  const get = (shape, size, impl) => cases1.find((c) => c.shape === shape && c.size === size && c.impl === impl);
  const growth = [];
  const rows1 = [];
  for (const [name, kind] of SHAPES) {
    for (const impl of kind === 'code' ? impls : ['TS']) {
      const s = get(name, n, impl);
      const l = get(name, 10 * n, impl);
      const g = {
        shape: name, impl, chars: [s.chars, l.chars],
        wallMs: [median(s.wall), median(l.wall)], cpuMs: [median(s.cpu), median(l.cpu)],
        spreadPct: [spread(s.wall), spread(l.wall)], cpuSpreadPct: [spread(s.cpu), spread(l.cpu)],
      };
      g.growthWall = g.wallMs[1] / g.wallMs[0];
      g.growthCpu = g.cpuMs[1] / g.cpuMs[0];
      g.mbPerS = l.chars / 1e6 / (g.cpuMs[1] / 1e3);
      g.verdict = verdict(g.growthCpu, TARGET_GROWTH);
      g.verdictWall = verdict(g.growthWall, TARGET_GROWTH);
      growth.push(g);
      rows1.push([
        name, impl, `${fmt(s.chars / 1e6, 2)} → ${fmt(l.chars / 1e6, 2)}`, ms(g.wallMs[0]), ms(g.wallMs[1]), `×${fmt(g.growthWall, 1)}`,
        ms(g.cpuMs[0]), ms(g.cpuMs[1]), `×${fmt(g.growthCpu, 1)}`, `${fmt(Math.max(...g.cpuSpreadPct), 0)}%`, fmt(g.mbPerS, 0), both(g.verdict, g.verdictWall),
      ]);
    }
  }
  console.log(`\n1. Growth: ${n.toLocaleString('en')} → ${(10 * n).toLocaleString('en')} units (repetitions / lines) per shape; ms per call, median of ${o.runs} samples.`);
  console.log(`   Target: ×10 the size costs ≤ ×${TARGET_GROWTH} the time (linear ×10, quadratic ×100); verdict on CPU time [wall].\n`);
  console.log(table(rows1, ['shape', 'impl', 'M chars', 'ms n', 'ms 10n', 'growth', 'CPU ms n', 'CPU ms 10n', 'CPU growth', 'CPU spread', 'CPU MB/s', 'verdict']));

  const speedup = [];
  if (impls.includes('native')) {
    const rows = [];
    for (const [name, kind] of SHAPES) {
      if (kind !== 'code') continue;
      const nat = growth.find((g) => g.shape === name && g.impl === 'native');
      const ts = growth.find((g) => g.shape === name && g.impl === 'TS');
      const r = { shape: name, wall: ts.wallMs[1] / nat.wallMs[1], cpu: ts.cpuMs[1] / nat.cpuMs[1] };
      r.verdict = verdict(r.cpu, TARGET_NATIVE_SPEEDUP, false);
      r.verdictWall = verdict(r.wall, TARGET_NATIVE_SPEEDUP, false);
      speedup.push(r);
      rows.push([name, `${fmt(r.wall, 1)}x`, `${fmt(r.cpu, 1)}x`, both(r.verdict, r.verdictWall)]);
    }
    console.log(`\n   Native kernel against the TypeScript (named peer), at ${(10 * n).toLocaleString('en')} units, same run: TS time / native time.`);
    console.log(`   Target: ≥ ${TARGET_NATIVE_SPEEDUP}x on every shape (the kernel is never slower than what it replaces).\n`);
    console.log(table(rows, ['shape', 'wall', 'CPU', 'verdict']));
  }

  // ---------------------------------------------------------------- 2. 5 MB minified
  if (impls.includes('native') && JSON.stringify(E.codeSections(MINIFIED)) !== JSON.stringify(E.codeSections(MINIFIED, { kernel }))) {
    failures.push('5 MB minified: native codeSections differs from the TypeScript');
  }
  const cases2 = impls.map((impl) => ({ impl, ...makeCase(() => E.codeSections(MINIFIED, impl === 'native' ? { kernel } : {}), o.sampleMs) }));
  runRounds(cases2, o.runs, 'sections-scaling');
  const minified = cases2.map((c) => ({ impl: c.impl, wallMs: median(c.wall), cpuMs: median(c.cpu), spreadPct: spread(c.wall), cpuSpreadPct: spread(c.cpu) }));
  const rows2 = minified.map((m) => [m.impl, ms(m.wallMs), `${fmt(m.spreadPct, 0)}%`, ms(m.cpuMs), `${fmt(m.cpuSpreadPct, 0)}%`, fmt(MINIFIED.length / 1e6 / (m.cpuMs / 1e3), 0)]);
  console.log(`\n2. A ${fmt(MINIFIED.length / 1e6, 1)} MB minified file (one line), codeSections, median of ${o.runs}:\n`);
  console.log(table(rows2, ['impl', 'ms', 'spread', 'CPU ms', 'CPU spread', 'CPU MB/s']));
  const nat2 = minified.find((m) => m.impl === 'native');
  const ts2 = minified.find((m) => m.impl === 'TS');
  const mainSide = nat2 ?? ts2;
  const minifiedVerdict = { impl: mainSide.impl, verdict: verdict(mainSide.cpuMs, TARGET_MINIFIED_MS), verdictWall: verdict(mainSide.wallMs, TARGET_MINIFIED_MS) };
  console.log(`\n   Target ≤ ${TARGET_MINIFIED_MS} ms (${mainSide.impl}): ${ms(mainSide.cpuMs)} ms CPU → ${both(minifiedVerdict.verdict, minifiedVerdict.verdictWall)}` +
    (nat2 ? `; native ${fmt(ts2.cpuMs / nat2.cpuMs, 1)}x / ${fmt(ts2.wallMs / nat2.wallMs, 1)}x faster than the TypeScript (CPU / wall)` : ''));

  // ---------------------------------------------------------------- 3. report of identical sections
  const options = { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75, sections: true, maxPairs: 100_000_000 };
  const reportSizes = [5000, 20_000]; // lines of one repeated line: ~167 and ~667 identical sections
  const cases3 = reportSizes.map((lines) => {
    const doc = E.fingerprintText('the same line again\n'.repeat(lines), 'rep.txt', { minTokens: 50 });
    const m = doc.sections.length;
    const pairs = E.buildReport([{ path: 'rep.txt', doc }], options).pairs.length;
    if (pairs !== (m * (m - 1)) / 2) failures.push(`report of ${m} identical sections: ${pairs} pairs, expected ${(m * (m - 1)) / 2}`);
    return { lines, sections: m, pairs, ...makeCase(() => E.buildReport([{ path: 'rep.txt', doc }], options), o.sampleMs) };
  });
  runRounds(cases3, o.runs, 'sections-scaling');
  const report = cases3.map((c) => ({
    lines: c.lines, sections: c.sections, pairs: c.pairs, wallMs: median(c.wall), cpuMs: median(c.cpu),
    nsPerPair: (median(c.cpu) * 1e6) / c.pairs, nsPerPairWall: (median(c.wall) * 1e6) / c.pairs, cpuSpreadPct: spread(c.cpu),
  }));
  const perPair = { cpu: report[1].nsPerPair / report[0].nsPerPair, wall: report[1].nsPerPairWall / report[0].nsPerPairWall };
  perPair.verdict = verdict(perPair.cpu, TARGET_PER_PAIR_GROWTH);
  perPair.verdictWall = verdict(perPair.wall, TARGET_PER_PAIR_GROWTH);
  console.log(`\n3. buildReport of one document of identical sections (every pair reported), median of ${o.runs}:\n`);
  console.log(table(report.map((r) => [r.sections, r.pairs, ms(r.wallMs), ms(r.cpuMs), `${fmt(r.cpuSpreadPct, 0)}%`, fmt(r.nsPerPair, 0)]), ['sections', 'pairs', 'ms', 'CPU ms', 'CPU spread', 'CPU ns/pair']));
  console.log(`\n   Target: ×${fmt(report[1].pairs / report[0].pairs, 0)} the pairs costs ≤ ×${TARGET_PER_PAIR_GROWTH} the time per pair: ×${fmt(perPair.cpu, 2)} → ${both(perPair.verdict, perPair.verdictWall)}`);

  // ---------------------------------------------------------------- summary
  const missed = [
    ...growth.filter((g) => g.verdict !== 'MET').map((g) => `growth ${g.shape} (${g.impl})`),
    ...speedup.filter((r) => r.verdict !== 'MET').map((r) => `native speed-up ${r.shape}`),
    ...(minifiedVerdict.verdict !== 'MET' ? ['5 MB minified'] : []),
    ...(perPair.verdict !== 'MET' ? ['report time per pair'] : []),
  ];
  console.log(`\nVerdicts (CPU time): ${missed.length === 0 ? 'all MET' : `MISSED: ${missed.join(', ')}`}`);
  console.log(`Correctness: ${failures.length === 0 ? 'OK (native sections = TypeScript on every shape and the 5 MB file; every report pair found)' : `FAILED\n  ${failures.join('\n  ')}`}`);
  const file = writeResult('sections-scaling', {
    runs: o.runs, n, sampleMs: o.sampleMs, impls,
    targets: { growth: TARGET_GROWTH, nativeSpeedup: TARGET_NATIVE_SPEEDUP, minifiedMs: TARGET_MINIFIED_MS, perPairGrowth: TARGET_PER_PAIR_GROWTH },
    growth, speedup, minified: { chars: MINIFIED.length, results: minified, ...minifiedVerdict }, report: { results: report, perPair }, missed, failures,
  });
  log('sections-scaling', `results in ${path.relative(process.cwd(), file)}`);
  process.exitCode = failures.length ? 1 : 0;
}

module.exports = { main };
if (require.main === module) main(process.argv.slice(2));
