#!/usr/bin/env node
'use strict';
// The Manku permuted-table index on synthetic fingerprints (seeded PRNG):
//   1. allPairsBatch at n = 100k and 1M, k = 3 and 6, with pairs planted at distance k−1, k and
//      k+1: median seconds, pairs found (OK when exactly the planted pairs within k are found,
//      plus chance pairs that are verified to be within k), bytes per fingerprint;
//   2. one-fingerprint query latency on a live SimHashIndex of 100k items (median / p99 µs);
//   3. the worst case: 1,000 (and 2,000) identical fingerprints, alone and among 100k others —
//      time must follow the output size (ns per pair about constant).
//
//   node bench/index [--runs 5] [--sizes 100000,1000000] [--radii 3,6] [--planted 1000] [--quick] [--native=false]
//
// Parts 1 and 3 run twice per configuration: with the native kernel's search (native/allpairs.c,
// what the product uses where it is built) and with the TypeScript alone, for the ratio.
//
// Each configuration runs in a fresh child process, so that its peak RSS is its own.
const path = require('path');
const { execFileSync } = require('child_process');
const { loadEngine, median, percentile, spread, fmt, table, verdict, log, environment, writeResult, parseArgs } = require('../lib/common');

const TARGETS = {
  // seconds, by `${n}/${k}`
  '100000/3': 0.1,
  '100000/6': 0.3,
  '1000000/3': 0.5,
  '1000000/6': 3,
};
const TARGET_BYTES_K3 = 32;
const TARGET_QUERY_MS = 5;

// ------------------------------------------------------------------------------ data

/** mulberry32: a small seeded PRNG, 32-bit outputs. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const popcount = (x) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
};

/** Flips `d` distinct random bits of (hi, lo). */
function flip(rand, hi, lo, d) {
  const bits = new Set();
  while (bits.size < d) bits.add(rand() & 63);
  for (const b of bits) {
    if (b < 32) lo ^= 1 << b;
    else hi ^= 1 << (b - 32);
  }
  return [hi >>> 0, lo >>> 0];
}

/**
 * n random fingerprints (interleaved hi, lo) with `planted` pairs at each distance in `dists`;
 * every planted item is in one pair only. Returns { fp, pairs: [{a, b, d}] }.
 */
function makeData(n, dists, planted, seed) {
  const rand = mulberry32(seed);
  const fp = new Uint32Array(2 * n);
  for (let i = 0; i < 2 * n; i++) fp[i] = rand();
  const used = new Uint8Array(n);
  const pick = () => {
    for (;;) {
      const i = rand() % n;
      if (!used[i]) {
        used[i] = 1;
        return i;
      }
    }
  };
  const pairs = [];
  for (const d of dists) {
    for (let p = 0; p < planted; p++) {
      const a = pick();
      const b = pick();
      const [hi, lo] = flip(rand, fp[2 * a], fp[2 * a + 1], d);
      fp[2 * b] = hi;
      fp[2 * b + 1] = lo;
      pairs.push({ a: Math.min(a, b), b: Math.max(a, b), d });
    }
  }
  return { fp, pairs };
}

const key = (a, b) => (a < b ? a * 4294967296 + b : b * 4294967296 + a);

// ------------------------------------------------------------------------------ child jobs

function timed(fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e9, r];
}

/**
 * The product's all-pairs search: with the kernel its candidates as matchPairList takes them
 * (nativeCandidates; allPairsBatch when it declines), else allPairsBatch (TypeScript).
 */
function searchOf(E, kernel) {
  if (!kernel) return (x, r) => E.allPairsBatch(x, r);
  return (x, r) => {
    const c = E.nativeCandidates(x, r, kernel);
    return c ? { length: c.a.length, a: c.a, b: c.b, distance: c.distance, truncated: false } : E.allPairsBatch(x, r);
  };
}

/** allPairsBatch (or the kernel's candidates) on n items at radius k: times, memory, check against the planted pairs. */
function jobAllPairs(E, { n, k, runs, planted, impl }) {
  const kernel = impl === 'native' ? E.nativeKernel() : undefined;
  if (impl === 'native' && !kernel) return { n, k, impl, skipped: E.nativeKernelProblem() };
  const search = searchOf(E, kernel);
  const dists = [k - 1, k, k + 1].filter((d) => d >= 0);
  const { fp, pairs } = makeData(n, dists, planted, 0x5eed0000 + n + k);
  if (global.gc) global.gc();
  const rssBefore = process.memoryUsage().rss;
  const maxBefore = process.resourceUsage().maxRSS * 1024;
  const [firstT, list] = timed(() => search(fp, k));
  const maxAfter = process.resourceUsage().maxRSS * 1024;
  const peakGrowth = Math.max(0, maxAfter - Math.max(rssBefore, 0));
  // Check: every planted pair within k found with its distance, none beyond k, extras verified.
  const found = new Map();
  for (let i = 0; i < list.length; i++) found.set(key(list.a[i], list.b[i]), list.distance[i]);
  let missing = 0;
  let wrong = 0;
  let plantedWithin = 0;
  let plantedFound = 0;
  const plantedKeys = new Set();
  for (const p of pairs) {
    plantedKeys.add(key(p.a, p.b));
    const got = found.get(key(p.a, p.b));
    if (p.d <= k) {
      plantedWithin++;
      if (got === undefined) missing++;
      else if (got !== p.d) wrong++;
      else plantedFound++;
    } else if (got !== undefined) wrong++;
  }
  let chance = 0;
  let bad = 0;
  for (let i = 0; i < list.length; i++) {
    if (plantedKeys.has(key(list.a[i], list.b[i]))) continue;
    const a = list.a[i];
    const b = list.b[i];
    const d = popcount(fp[2 * a] ^ fp[2 * b]) + popcount(fp[2 * a + 1] ^ fp[2 * b + 1]);
    if (d <= k && d === list.distance[i]) chance++;
    else bad++;
  }
  const ok = missing === 0 && wrong === 0 && bad === 0 && list.length === plantedWithin + chance;
  const times = [];
  for (let r = 0; r < runs; r++) {
    const [t, l] = timed(() => search(fp, k));
    if (l.length !== list.length) throw new Error('allPairsBatch is not deterministic');
    times.push(t);
  }
  const plan = E.planBlocks(k, n, { batch: true });
  return {
    n,
    k,
    impl,
    blocks: impl === 'native' ? 'C' : plan.blocks,
    tables: plan.tables,
    firstSeconds: firstT,
    times,
    pairs: list.length,
    plantedWithin,
    plantedFound,
    plantedBeyond: pairs.length - plantedWithin,
    chance,
    missing,
    wrong,
    bad,
    ok,
    peakGrowthBytes: peakGrowth,
    maxRssBeforeBytes: maxBefore,
    // Input (8 B) + peak growth during the first call, per fingerprint.
    bytesPerFp: (8 * n + peakGrowth) / n,
    // From the typed arrays allPairsBatch allocates: 8 (input) + 12 (items regrouped with their
    // fingerprints) + 9 per output pair (a, b, distance), power-of-two capacity.
    modelBytesPerFp: 8 + 12 + (9 * 2 ** Math.ceil(Math.log2(Math.max(64, list.length)))) / n,
  };
}

/** Query latency on a live SimHashIndex of n items (radius k), planted neighbours for half the queries. */
function jobQuery(E, { n, k, queries }) {
  const { fp, pairs } = makeData(n, [Math.max(0, k - 1), k], Math.min(1000, n / 8), 0x9e1e0000 + k);
  const index = new E.SimHashIndex({ maxDistance: k });
  const [addT] = timed(() => {
    for (let i = 0; i < n; i++) index.add(i, fp[2 * i], fp[2 * i + 1]);
  });
  const [buildT] = timed(() => index.query(fp[0], fp[1], k)); // first query builds the tables
  const rand = mulberry32(7);
  const lat = [];
  let hits = 0;
  let missed = 0;
  // Warm up, then measure: alternately a planted pair's member (≥ 1 neighbour) and a random item.
  for (let q = 0; q < 200; q++) index.query(fp[2 * q], fp[2 * q + 1], k);
  for (let q = 0; q < queries; q++) {
    let item;
    let expect = -1;
    if (q % 2 === 0) {
      const p = pairs[rand() % pairs.length];
      item = p.a;
      expect = p.b;
    } else item = rand() % n;
    const hi = fp[2 * item];
    const lo = fp[2 * item + 1];
    const t0 = process.hrtime.bigint();
    const res = index.query(hi, lo, k);
    lat.push(Number(process.hrtime.bigint() - t0) / 1e3);
    hits += res.length;
    if (expect >= 0 && !res.some((r) => r.id === expect)) missed++;
  }
  // A live update: replace one item, then query (the pending range is scanned linearly).
  const upd = [];
  for (let q = 0; q < 200; q++) {
    const item = rand() % n;
    const t0 = process.hrtime.bigint();
    index.add(item, fp[2 * item] ^ 1, fp[2 * item + 1]);
    index.query(fp[2 * item], fp[2 * item + 1], k);
    upd.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  const plan = E.planBlocks(k, n);
  return {
    n,
    k,
    blocks: plan.blocks,
    tables: plan.tables,
    addSeconds: addT,
    buildSeconds: buildT,
    medianUs: median(lat),
    p99Us: percentile(lat, 99),
    maxUs: Math.max(...lat),
    updateMedianUs: median(upd),
    updateP99Us: percentile(upd, 99),
    queries,
    avgResults: hits / queries,
    plantedMissed: missed,
  };
}

/** `copies` identical fingerprints (optionally among `background` random ones). */
function jobIdentical(E, { copies, background, k, runs, impl }) {
  const kernel = impl === 'native' ? E.nativeKernel() : undefined;
  const search = searchOf(E, kernel);
  const rand = mulberry32(99 + copies + background);
  const n = copies + background;
  const fp = new Uint32Array(2 * n);
  for (let i = 0; i < 2 * n; i++) fp[i] = rand();
  const hi = rand();
  const lo = rand();
  for (let c = 0; c < copies; c++) {
    const i = Math.floor((c * n) / copies); // spread among the others
    fp[2 * i] = hi;
    fp[2 * i + 1] = lo;
  }
  // Baseline: the same n items with the copies replaced by random fingerprints.
  const base = fp.slice();
  for (let c = 0; c < copies; c++) {
    const i = Math.floor((c * n) / copies);
    base[2 * i] = rand();
    base[2 * i + 1] = rand();
  }
  search(fp, k); // warm-up
  const times = [];
  const baseTimes = [];
  let pairs = 0;
  let basePairs = 0;
  for (let r = 0; r < runs; r++) {
    const [t, l] = timed(() => search(fp, k));
    times.push(t);
    pairs = l.length;
    if (background > 0) {
      const [tb, lb] = timed(() => search(base, k));
      baseTimes.push(tb);
      basePairs = lb.length;
    }
  }
  const expected = (copies * (copies - 1)) / 2;
  const extra = median(times) - (baseTimes.length ? median(baseTimes) : 0);
  return { copies, background, k, times, baseTimes, pairs, basePairs, expectedAtLeast: expected, ok: pairs >= expected, extraSeconds: extra, nsPerPair: (Math.max(0, extra) * 1e9) / Math.max(1, pairs - basePairs) };
}

function child(spec) {
  const E = loadEngine();
  const jobs = { allPairs: jobAllPairs, query: jobQuery, identical: jobIdentical };
  process.stdout.write(JSON.stringify(jobs[spec.job](E, spec)));
}

function runChild(spec) {
  const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--child', JSON.stringify(spec)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out);
}

// ------------------------------------------------------------------------------ main

function main(argv) {
  if (argv[0] === '--child') return child(JSON.parse(argv[1]));
  const o = parseArgs(argv, { runs: 5, sizes: '100000,1000000', radii: '3,6', planted: 1000, queries: 2000, queryRadii: '3,6,12', quick: false, native: true });
  const impls = o.native ? ['native', 'ts'] : ['ts'];
  if (o.quick) {
    o.sizes = '100000';
    o.runs = 3;
  }
  const sizes = String(o.sizes).split(',').map(Number);
  const radii = String(o.radii).split(',').map(Number);
  console.log(`bench/index — ${environment()}`);

  // 1. all pairs
  const ap = [];
  for (const n of sizes) {
    for (const k of radii) {
      for (const impl of impls) {
        log('index', `allPairsBatch n=${n} k=${k} ${impl}`);
        const r = runChild({ job: 'allPairs', n, k, runs: o.runs, planted: o.planted, impl });
        if (r.skipped) log('index', `native kernel ${r.skipped}: skipped`);
        else ap.push(r);
      }
    }
  }
  const rows = ap.map((r) => {
    const s = median(r.times);
    const target = TARGETS[`${r.n}/${r.k}`];
    return [
      r.n.toLocaleString('en'),
      r.k,
      r.impl === 'native' ? 'native' : 'TS',
      r.impl === 'native' ? '-' : `${r.blocks}/${r.tables}`,
      fmt(s, 3),
      `${fmt(spread(r.times), 0)}%`,
      target === undefined ? '-' : `≤ ${target}`,
      target === undefined ? '-' : verdict(s, target),
      r.pairs,
      `${r.plantedWithin}${r.chance ? ` + ${r.chance} chance` : ''}`,
      r.ok ? 'OK' : `MISMATCH (missing ${r.missing}, wrong ${r.wrong}, bad ${r.bad})`,
      fmt(r.bytesPerFp, 1),
      fmt(r.modelBytesPerFp, 1),
    ];
  });
  console.log(`\n1. allPairsBatch, ${o.planted} pairs planted at each of k−1, k, k+1; median of ${o.runs} runs after one (untimed) first run\n`);
  console.log(table(rows, ['n', 'k', 'impl', 'b/tables', 'median s', 'spread', 'target s', 'verdict', 'pairs', 'expected (planted ≤ k)', 'check', 'B/fp (RSS)', 'B/fp (arrays)']));
  const nat = ap.filter((r) => r.impl === 'native');
  if (nat.length) {
    console.log('\nNative against TypeScript (same data, same run, median wall time):');
    for (const r of nat) {
      const t = ap.find((x) => x.impl === 'ts' && x.n === r.n && x.k === r.k);
      if (t) console.log(`  n = ${r.n.toLocaleString('en')}, k = ${r.k}: ${fmt(median(t.times), 3)} s → ${fmt(median(r.times), 3)} s (${fmt(median(t.times) / median(r.times), 2)}x)`);
    }
  }
  const k3 = ap.filter((r) => r.k === 3 && r.impl === (nat.length ? 'native' : 'ts')).sort((a, b) => b.n - a.n)[0];
  if (k3) console.log(`\nBytes per fingerprint at k = 3, n = ${k3.n.toLocaleString('en')} (8 B input + peak RSS growth during the call): ${fmt(k3.bytesPerFp, 1)} → target ≤ ${TARGET_BYTES_K3}: ${verdict(k3.bytesPerFp, TARGET_BYTES_K3)}`);

  // 2. query latency
  const qr = [];
  for (const k of String(o.queryRadii).split(',').map(Number)) {
    log('index', `SimHashIndex query n=100000 k=${k}`);
    qr.push(runChild({ job: 'query', n: 100000, k, queries: o.queries }));
  }
  console.log(`\n2. SimHashIndex of 100,000 items: one-fingerprint query latency (${o.queries} queries, half with a planted neighbour)\n`);
  console.log(
    table(
      qr.map((r) => [r.k, r.blocks ? `${r.blocks}/${r.tables}` : 'linear', fmt(r.addSeconds * 1e3, 0), fmt(r.buildSeconds * 1e3, 0), fmt(r.medianUs, 1), fmt(r.p99Us, 1), fmt(r.maxUs, 0), fmt(r.updateMedianUs, 1), fmt(r.avgResults, 2), r.plantedMissed === 0 ? 'OK' : `MISSED ${r.plantedMissed}`, verdict(r.p99Us / 1e3, TARGET_QUERY_MS)]),
      ['k', 'b/tables', 'add 100k ms', 'build ms', 'median µs', 'p99 µs', 'max µs', 'add+query µs', 'results/q', 'check', `p99 ≤ ${TARGET_QUERY_MS} ms`],
    ),
  );

  // 3. worst case: identical fingerprints
  const wc = [];
  for (const [copies, background] of [[1000, 0], [2000, 0], [1000, 100000]]) {
    for (const k of radii) {
      log('index', `identical copies=${copies} background=${background} k=${k}`);
      wc.push(runChild({ job: 'identical', copies, background, k, runs: Math.max(3, o.runs), impl: impls[0] }));
    }
  }
  console.log(`\n3. Worst case (${impls[0] === 'native' ? 'native search' : 'TypeScript'}): identical fingerprints (time should follow the output: ns/pair about constant;`);
  console.log('   among 100k: the time of the same 100k items without the copies is subtracted)\n');
  console.log(
    table(
      wc.map((r) => [r.copies, r.background, r.k, r.pairs, r.ok ? 'OK' : 'MISMATCH', fmt(median(r.times) * 1e3, 1), r.baseTimes.length ? fmt(median(r.baseTimes) * 1e3, 1) : '-', fmt(r.extraSeconds * 1e3, 1), fmt(r.nsPerPair, 1)]),
      ['copies', 'among', 'k', 'pairs', 'check', 'median ms', 'without copies ms', 'extra ms', 'ns/pair'],
    ),
  );
  const file = writeResult('index', { allPairs: ap, query: qr, identical: wc });
  log('index', `results in ${path.relative(process.cwd(), file)}`);
  if (ap.some((r) => !r.ok) || wc.some((r) => !r.ok) || qr.some((r) => r.plantedMissed)) process.exitCode = 1;
}

if (require.main === module) main(process.argv.slice(2));
