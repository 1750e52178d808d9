#!/usr/bin/env node
'use strict';
// Runs the NearDup CLI on each subset of the quality corpus and scores its file pairs against
// the exact-Jaccard truth.
//
//   node bench/quality/run.js [run options] [any other args are passed to `neardup scan`]
//     --cli PATH         CLI to run (default: dist/cli.js of this repo)
//     --subset a,b       only these subsets (default: code,en,zh)
//     --sweep N          run the CLI with --max-distance N and print precision/recall for every
//                        distance threshold 0..N (a tuning aid; the verdict stays on the CLI's own set)
//     --out FILE         results JSON (default: bench/results/quality.json)
//     --strict           exit 1 when the verdict is FAIL (default: exit 0; errors exit 2)
//
// precision = |reported ∩ {J >= 0.7}| / |reported|      recall = |reported ∩ {J >= 0.9}| / |{J >= 0.9}|
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureCorpus, CORPUS, REPO, SUBSETS } = require('./corpus');
const { ensureTruth, exactJaccard } = require('./truth');

const ACCEPT = 0.7; // a reported pair below this is a false positive
const POSITIVE = 0.9; // a pair at or above this must be reported
const TARGET = { precision: 0.95, recall: 0.9 };

function parseArgs(argv) {
  const o = { cli: path.join(REPO, 'dist', 'cli.js'), subsets: SUBSETS, sweep: null, out: path.join(REPO, 'bench', 'results', 'quality.json'), pass: [], strict: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const val = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--cli') o.cli = path.resolve(val());
    else if (flag === '--subset') o.subsets = val().split(',');
    else if (flag === '--sweep') o.sweep = Number(val());
    else if (flag === '--out') o.out = path.resolve(val());
    else if (a === '--strict') o.strict = true;
    else if (a === '--') continue;
    else o.pass.push(a);
  }
  return o;
}

const pairKey = (a, b) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);
const fmt = (x, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '  n/a' : x.toFixed(d));
const mean = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
const ratio = (n, d) => (d ? n / d : null);

function table(rows, header) {
  const all = [header, ...rows].map((r) => r.map(String));
  const w = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => r.map((s, c) => (c === 0 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ');
  return [line(all[0]), w.map((n) => '-'.repeat(n)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** What kind of pair this is (from the manifest), for the breakdown tables. */
function classify(pa, pb, files) {
  const fa = files[pa];
  const fb = files[pb];
  if (fa.kind === 'mutant' || fb.kind === 'mutant') {
    if (fa.kind === 'mutant' && fb.kind === 'mutant') return fa.source === fb.source ? 'mutant~sibling mutant' : 'mutant~other';
    const [m, other] = fa.kind === 'mutant' ? [fa, pb] : [fb, pa];
    return m.source === other ? `mutant~source r${m.rate}` : 'mutant~other';
  }
  if (fa.pkg !== fb.pkg) return 'natural: cross-package';
  const code = fa.subset === 'code';
  if (fa.rel === fb.rel) return 'natural: version twin';
  if (fa.twinKey === fb.twinKey) {
    const base = code ? 'natural: transpiled twin' : 'natural: zh-cn/zh-tw twin';
    return fa.version === fb.version ? base : `${base} (+version)`;
  }
  return 'natural: same package';
}

function runCli(opts, subset, extra) {
  const dir = path.join(CORPUS, subset);
  const args = [opts.cli, 'scan', dir, '--format', 'json', ...extra];
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  const ms = Date.now() - t0;
  let out;
  try {
    out = JSON.parse(r.stdout);
  } catch {
    const err = (r.stderr || '').trim().split('\n').slice(-5).join('\n');
    throw new Error(`CLI did not print JSON for ${subset} (exit ${r.status}${r.error ? ', ' + r.error.message : ''}):\n${err}\nstdout starts: ${JSON.stringify((r.stdout || '').slice(0, 200))}`);
  }
  return { out, ms, status: r.status, stderr: r.stderr || '' };
}

function normPath(p, subset) {
  let s = String(p).replace(/\\/g, '/');
  const abs = path.join(CORPUS, subset).split(path.sep).join('/') + '/';
  if (s.startsWith(abs)) s = s.slice(abs.length);
  s = s.replace(/^\.\//, '');
  return `${subset}/${s}`;
}

function evaluateSubset(subset, truthSub, manifest, reported) {
  const files = manifest.files;
  const J = new Map();
  for (const [a, b, j] of truthSub.pairs) J.set(pairKey(truthSub.files[a].path, truthSub.files[b].path), j);
  const toks = new Map(truthSub.files.map((f) => [f.path, f.tokens]));
  const jOf = (a, b) => {
    const k = pairKey(a, b);
    if (!J.has(k)) J.set(k, exactJaccard(a, b)); // below the stored minimum: compute exactly
    return J.get(k);
  };

  const positives = [];
  for (const [a, b, j] of truthSub.pairs) if (j >= POSITIVE) positives.push(pairKey(truthSub.files[a].path, truthSub.files[b].path));

  const rep = new Map(); // key -> {a,b,distance,j,cat}
  let unknown = 0;
  for (const p of reported) {
    const a = p.a;
    const b = p.b;
    if (!files[a] || !files[b]) {
      unknown++;
      continue;
    }
    const k = pairKey(a, b);
    if (rep.has(k) || a === b) continue;
    rep.set(k, { a, b, distance: p.distance, similarity: p.similarity, j: jOf(a, b), cat: classify(a, b, files) });
  }

  const score = (filter) => {
    const R = [...rep.values()].filter(filter.rep);
    const P = positives.filter((k) => filter.pos(k));
    const tp = R.filter((r) => r.j >= ACCEPT).length;
    const found = P.filter((k) => rep.has(k) && filter.rep(rep.get(k))).length;
    return { reported: R.length, correct: tp, precision: ratio(tp, R.length), positives: P.length, found, recall: ratio(found, P.length) };
  };
  const isNat = (a, b) => files[a].kind === 'natural' && files[b].kind === 'natural';
  const splitKey = (k) => k.split('\n');
  const all = score({ rep: () => true, pos: () => true });
  const natural = score({ rep: (r) => isNat(r.a, r.b), pos: (k) => isNat(...splitKey(k)) });
  const nonIdentical = score({ rep: (r) => r.j < 1, pos: (k) => J.get(k) < 1 });

  // Breakdown by category over every pair that matters (J >= ACCEPT, or reported).
  const cats = new Map();
  const catRow = (c) => {
    if (!cats.has(c)) cats.set(c, { category: c, pos: 0, posFound: 0, mid: 0, midFound: 0, fp: 0, identical: 0 });
    return cats.get(c);
  };
  for (const [a, b, j] of truthSub.pairs) {
    if (j < ACCEPT) continue;
    const pa = truthSub.files[a].path;
    const pb = truthSub.files[b].path;
    const row = catRow(classify(pa, pb, files));
    const found = rep.has(pairKey(pa, pb));
    if (j >= POSITIVE) {
      row.pos++;
      if (found) row.posFound++;
      if (j === 1) row.identical++;
    } else {
      row.mid++;
      if (found) row.midFound++;
    }
  }
  for (const r of rep.values()) if (r.j < ACCEPT) catRow(r.cat).fp++;

  // Mutant vs its source, per edit rate.
  const rates = [];
  for (const rate of manifest.rates) {
    const ms = Object.entries(files).filter(([, f]) => f.subset === subset && f.kind === 'mutant' && f.rate === rate);
    const rows = ms.map(([p, f]) => {
      const k = pairKey(p, f.source);
      const r = rep.get(k);
      return { j: jOf(p, f.source), reported: !!r, distance: r ? r.distance : null, edited: f.editedTokens / f.tokens };
    });
    const pos = rows.filter((r) => r.j >= POSITIVE);
    rates.push({
      rate,
      pairs: rows.length,
      meanEdited: mean(rows.map((r) => r.edited)),
      meanJaccard: mean(rows.map((r) => r.j)),
      minJaccard: rows.length ? Math.min(...rows.map((r) => r.j)) : null,
      maxJaccard: rows.length ? Math.max(...rows.map((r) => r.j)) : null,
      positives: pos.length,
      positivesFound: pos.filter((r) => r.reported).length,
      reported: rows.filter((r) => r.reported).length,
      reportedBelowAccept: rows.filter((r) => r.reported && r.j < ACCEPT).length,
      meanDistance: mean(rows.filter((r) => r.reported).map((r) => r.distance)),
    });
  }

  const describe = (k, r) => {
    const [a, b] = r ? [r.a, r.b] : splitKey(k);
    return {
      a: a.slice(subset.length + 1),
      b: b.slice(subset.length + 1),
      jaccard: Math.round(jOf(a, b) * 1e4) / 1e4,
      distance: r ? r.distance : null,
      tokens: [toks.get(a), toks.get(b)],
      category: classify(a, b, files),
    };
  };
  const fps = [...rep.entries()]
    .filter(([, r]) => r.j < ACCEPT)
    .sort((x, y) => x[1].distance - y[1].distance || x[1].j - y[1].j)
    .map(([k, r]) => describe(k, r));
  const fns = positives
    .filter((k) => !rep.has(k))
    .sort((x, y) => J.get(y) - J.get(x))
    .map((k) => describe(k));

  return {
    subset,
    files: truthSub.files.length,
    unknownPaths: unknown,
    all,
    natural,
    nonIdentical,
    categories: [...cats.values()].sort((x, y) => x.category.localeCompare(y.category)),
    rates,
    falsePositives: fps,
    falseNegatives: fns,
    reportedPairs: [...rep.values()],
  };
}

/**
 * zh-cn/zh-tw twins scored against the Jaccard of their texts after Traditional → Simplified
 * conversion (opencc-js `tw` → `cn`, phrases included: independent of the product's own
 * character fold). Under the truth above, which compares raw characters, a Traditional copy is a
 * hard negative; to a reader it is the same text. Run with and without `--no-fold-variants` to see
 * what `neardup.cjk.foldVariants` changes.
 */
function crossScriptTwins(subset, manifest, ev) {
  const { tokens, shingleSet, jaccard } = require('./tokenize');
  let toSimplified;
  try {
    const OpenCC = require('opencc-js');
    toSimplified = OpenCC.Converter({ from: 'tw', to: 'cn' });
  } catch {
    return null;
  }
  const files = manifest.files;
  const shingles = (p) => shingleSet(tokens(toSimplified(fs.readFileSync(path.join(CORPUS, p), 'utf8')), 'prose'));
  const natural = Object.keys(files).filter((p) => files[p].subset === subset && files[p].kind === 'natural').sort();
  const byKey = new Map();
  for (const p of natural) {
    const k = `${files[p].pkg}:${files[p].twinKey}`;
    if (!byKey.has(k)) byKey.set(k, []);
    byKey.get(k).push(p);
  }
  const reported = new Map(ev.reportedPairs.map((r) => [pairKey(r.a, r.b), r]));
  const rows = { positive: { pairs: 0, reported: 0 }, mid: { pairs: 0, reported: 0 }, negative: { pairs: 0, reported: 0 } };
  for (const ps of byKey.values()) {
    for (let i = 0; i < ps.length; i++) {
      for (let j = i + 1; j < ps.length; j++) {
        if (!classify(ps[i], ps[j], files).startsWith('natural: zh-cn/zh-tw twin')) continue;
        const jc = jaccard(shingles(ps[i]), shingles(ps[j]));
        const row = jc >= POSITIVE ? rows.positive : jc >= ACCEPT ? rows.mid : rows.negative;
        row.pairs++;
        if (reported.has(pairKey(ps[i], ps[j]))) row.reported++;
      }
    }
  }
  return rows;
}

function printCrossScript(rows) {
  return (
    '\nzh-cn/zh-tw twins by the Jaccard of their texts converted to Simplified (opencc-js tw → cn):\n' +
    table(
      [
        [`J >= ${POSITIVE} (should be found)`, rows.positive.pairs, rows.positive.reported, fmt(ratio(rows.positive.reported, rows.positive.pairs), 2)],
        [`${ACCEPT} <= J < ${POSITIVE} (may be found)`, rows.mid.pairs, rows.mid.reported, fmt(ratio(rows.mid.reported, rows.mid.pairs), 2)],
        [`J < ${ACCEPT} (should not be)`, rows.negative.pairs, rows.negative.reported, fmt(ratio(rows.negative.reported, rows.negative.pairs), 2)],
      ],
      ['converted Jaccard', 'pairs', 'reported', 'share'],
    )
  );
}

function sweepScores(ev, maxD) {
  const out = [];
  for (let d = 0; d <= maxD; d++) {
    const R = ev.reportedPairs.filter((r) => r.distance <= d);
    const tp = R.filter((r) => r.j >= ACCEPT).length;
    const found = R.filter((r) => r.j >= POSITIVE).length;
    out.push({ d, reported: R.length, precision: ratio(tp, R.length), recall: ratio(found, ev.all.positives) });
  }
  return out;
}

function printSubset(ev, cli) {
  const L = [];
  L.push(`\n=== ${ev.subset}: ${ev.files} files (CLI: ${cli.out.stats ? cli.out.stats.files : '?'} files, ${cli.ms} ms, exit ${cli.status})` + (ev.unknownPaths ? `, ${ev.unknownPaths} reported pairs with unknown paths!` : ''));
  const s = (x) => [x.reported, x.correct, fmt(x.precision), x.positives, x.found, fmt(x.recall)];
  L.push(
    table(
      [
        ['all pairs', ...s(ev.all)],
        ['natural pairs only', ...s(ev.natural)],
        ['excluding identical (J<1)', ...s(ev.nonIdentical)],
      ],
      ['', 'reported', 'J>=0.7', 'precision', 'J>=0.9', 'found', 'recall'],
    ),
  );
  L.push('');
  L.push(
    table(
      ev.categories.map((c) => [c.category, c.pos, c.identical, c.posFound, fmt(ratio(c.posFound, c.pos), 2), c.mid, c.midFound, c.fp]),
      ['pair category', 'J>=0.9', 'of which J=1', 'found', 'recall', '0.7<=J<0.9', 'found', 'FP (J<0.7)'],
    ),
  );
  L.push('');
  L.push(
    table(
      ev.rates.map((r) => [
        `${r.rate}%`,
        r.pairs,
        fmt(r.meanEdited, 3),
        fmt(r.meanJaccard),
        `${fmt(r.minJaccard, 2)}..${fmt(r.maxJaccard, 2)}`,
        r.positives,
        r.positivesFound,
        r.reported,
        r.reportedBelowAccept,
        fmt(r.meanDistance, 1),
      ]),
      ['mutant~source', 'pairs', 'edited', 'mean J', 'J range', 'J>=0.9', 'found', 'reported', 'rep J<0.7', 'mean dist'],
    ),
  );
  const show = (title, list) => {
    L.push(`\n${title} (${list.length}${list.length > 10 ? ', first 10' : ''}):`);
    for (const x of list.slice(0, 10))
      L.push(`  J=${x.jaccard.toFixed(3)} d=${x.distance === null ? '-' : x.distance}  ${x.a}  <->  ${x.b}  [${x.tokens.join('/')} tokens; ${x.category}]`);
  };
  show('false positives: reported, J < 0.7', ev.falsePositives);
  show('false negatives: J >= 0.9, not reported', ev.falseNegatives);
  return L.join('\n');
}

function main(argv = process.argv.slice(2)) {
  const opts = parseArgs(argv);
  if (!fs.existsSync(opts.cli)) {
    console.error(`bench/quality: ${opts.cli} not found; build it first (node esbuild.js)`);
    return 2;
  }
  const manifest = ensureCorpus();
  const truth = ensureTruth({ manifest });
  const extra = opts.pass.slice();
  if (opts.sweep !== null && !extra.includes('--max-distance')) extra.push('--max-distance', String(opts.sweep));

  console.log(`bench/quality — corpus ${manifest.corpusHash}, truth: exact Jaccard of token ${truth.k}-shingle sets`);
  console.log(`CLI: node ${path.relative(process.cwd(), opts.cli)} scan <subset> --format json ${extra.join(' ')}`.trimEnd());
  console.log(`precision = reported pairs with J >= ${ACCEPT} / reported;  recall = pairs with J >= ${POSITIVE} reported / all such pairs`);

  const results = { date: new Date().toISOString(), cli: path.relative(REPO, opts.cli), args: extra, corpusHash: manifest.corpusHash, accept: ACCEPT, positive: POSITIVE, target: TARGET, subsets: {} };
  const summary = [];
  for (const subset of opts.subsets) {
    const cli = runCli(opts, subset, extra);
    const reported = (cli.out.pairs || []).filter((p) => p.kind === 'file').map((p) => ({ a: normPath(p.a.path, subset), b: normPath(p.b.path, subset), distance: p.distance, similarity: p.similarity }));
    const ev = evaluateSubset(subset, truth.subsets[subset], manifest, reported);
    console.log(printSubset(ev, cli));
    const crossScript = subset === 'zh' ? crossScriptTwins(subset, manifest, ev) : null;
    if (crossScript) console.log(printCrossScript(crossScript));
    let sweep = null;
    if (opts.sweep !== null) {
      sweep = sweepScores(ev, opts.sweep);
      console.log(`\nsweep (${subset}): threshold on the reported distance`);
      console.log(table(sweep.map((x) => [x.d, x.reported, fmt(x.precision), fmt(x.recall)]), ['max distance', 'reported', 'precision', 'recall']));
    }
    const { reportedPairs, ...rest } = ev;
    results.subsets[subset] = { ...rest, cliStats: cli.out.stats || null, cliMs: cli.ms, cliExit: cli.status, sweep, crossScript, falsePositives: ev.falsePositives.slice(0, 100), falseNegatives: ev.falseNegatives.slice(0, 100) };
    summary.push([subset, ev.files, ev.all.reported, fmt(ev.all.precision), ev.all.positives, fmt(ev.all.recall), fmt(ev.natural.precision), fmt(ev.natural.recall)]);
  }

  console.log('\n=== summary');
  console.log(table(summary, ['subset', 'files', 'reported', 'precision', 'J>=0.9', 'recall', 'natural P', 'natural R']));
  const failing = Object.values(results.subsets).filter((s) => !((s.all.precision ?? 1) >= TARGET.precision && (s.all.recall ?? 1) >= TARGET.recall));
  results.pass = failing.length === 0;
  const verdict = results.pass
    ? `VERDICT: PASS — precision >= ${TARGET.precision} and recall >= ${TARGET.recall} in every subset (${opts.subsets.join(', ')})`
    : `VERDICT: FAIL — below target (precision >= ${TARGET.precision}, recall >= ${TARGET.recall}) in: ${failing.map((s) => `${s.subset} (P=${fmt(s.all.precision)}, R=${fmt(s.all.recall)})`).join(', ')}`;
  console.log(verdict);
  results.verdict = verdict;
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, JSON.stringify(results, null, 1));
  console.log(`results: ${path.relative(process.cwd(), opts.out)}`);
  return results.pass || !opts.strict ? 0 : 1;
}

module.exports = { main, evaluateSubset, classify };

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`bench/quality: ${e.message}`);
    process.exitCode = 2;
  }
}
