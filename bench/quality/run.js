#!/usr/bin/env node
'use strict';
// Runs the NearDup CLI on each subset of the quality corpus and scores its file pairs against
// the exact-Jaccard truth and the files' lineage (quality-score.js).
//
//   node bench/quality/run.js [run options] [any other args are passed to `neardup scan`]
//     --cli PATH         CLI to run (default: dist/cli.js of this repo)
//     --subset a,b       only these subsets (default: code,en,zh)
//     --configs a,b      scan configurations, each run on every subset: `given` (the arguments as
//                        given: at the CLI's defaults, copies located), `plain` (the same plus
//                        --no-locate: SimHash pairs only), `locate` (the same plus --locate, for
//                        a peer CLI older than the default); default: given
//     --mutants N        files mutated per subset in the corpus (rebuilt when it differs; a new corpus: 36)
//     --sweep N          run the CLI with --max-distance N and print precision/recall for every
//                        distance threshold 0..N (a tuning aid; the verdict stays on the CLI's own set)
//     --out FILE         results JSON (default: bench/results/quality.json)
//     --strict           exit 1 when the verdict is FAIL (default: exit 0; errors exit 2)
//
// precision = reported pairs true by lineage or content / reported   (quality-score.js)
// recall    = |reported ∩ {J >= 0.9}| / |{J >= 0.9}|;  mutant recall = mutant~source pairs reported, per edit rate
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureCorpus, mutantsArg, CORPUS, REPO, SUBSETS } = require('./corpus');
const { ensureTruth, exactJaccard } = require('./truth');
const Q = require('./quality-score');

const { CONTENT, STRICT, POSITIVE, TARGET } = Q;
const ACCEPT = STRICT; // the breakdowns' 'may be reported' band: ACCEPT <= J < POSITIVE
const CONFIGS = { given: [], plain: ['--no-locate'], locate: ['--locate'] };

function parseArgs(argv) {
  const o = { cli: path.join(REPO, 'dist', 'cli.js'), subsets: SUBSETS, configs: ['given'], mutants: mutantsArg(argv), sweep: null, out: path.join(REPO, 'bench', 'results', 'quality.json'), pass: [], strict: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const val = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--cli') o.cli = path.resolve(val());
    else if (flag === '--subset') o.subsets = val().split(',');
    else if (flag === '--configs') o.configs = val().split(',');
    else if (flag === '--mutants') val();
    else if (flag === '--sweep') o.sweep = Number(val());
    else if (flag === '--out') o.out = path.resolve(val());
    else if (a === '--strict') o.strict = true;
    else if (a === '--') continue;
    else o.pass.push(a);
  }
  for (const c of o.configs) if (!CONFIGS[c]) throw new Error(`--configs: unknown configuration ${c} (known: ${Object.keys(CONFIGS).join(', ')})`);
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

function evaluateSubset(subset, truthSub, manifest, reported, readerJaccard = () => null) {
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
    const j = jOf(a, b);
    const lineage = Q.sameLineage(files[a], files[b]);
    const reader = j < CONTENT ? readerJaccard(a, b) : null;
    const judged = Q.judgePair({ lineage, jaccard: j, readerJaccard: reader });
    rep.set(k, { a, b, distance: p.distance, similarity: p.similarity, located: p.located, j, jaccard: j, reader, lineage, ...judged, cat: classify(a, b, files) });
  }

  const score = (filter) => {
    const R = [...rep.values()].filter(filter.rep);
    const P = positives.filter((k) => filter.pos(k));
    const pr = Q.precisionOf(R);
    const found = P.filter((k) => rep.has(k) && filter.rep(rep.get(k))).length;
    return { ...pr, positives: P.length, found, recall: ratio(found, P.length) };
  };
  const isNat = (a, b) => files[a].kind === 'natural' && files[b].kind === 'natural';
  const splitKey = (k) => k.split('\n');
  const all = score({ rep: () => true, pos: () => true });
  const natural = score({ rep: (r) => isNat(r.a, r.b), pos: (k) => isNat(...splitKey(k)) });
  const nonIdentical = score({ rep: (r) => r.j < 1, pos: (k) => J.get(k) < 1 });

  // Breakdown by category over every pair that matters (J >= ACCEPT, or reported).
  const cats = new Map();
  const catRow = (c) => {
    if (!cats.has(c)) cats.set(c, { category: c, pos: 0, posFound: 0, mid: 0, midFound: 0, lineageOnly: 0, fp: 0, identical: 0 });
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
  for (const r of rep.values()) {
    if (!r.correct) catRow(r.cat).fp++;
    else if (r.by === 'lineage') catRow(r.cat).lineageOnly++;
  }

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
      ...(r && r.reader !== null ? { readerJaccard: Math.round(r.reader * 1e4) / 1e4 } : {}),
      ...(r && r.located ? { located: true } : {}),
    };
  };
  const fps = [...rep.entries()]
    .filter(([, r]) => !r.correct)
    .sort((x, y) => x[1].distance - y[1].distance || x[1].j - y[1].j)
    .map(([k, r]) => describe(k, r));
  const fns = positives
    .filter((k) => !rep.has(k))
    .sort((x, y) => J.get(y) - J.get(x))
    .map((k) => describe(k));

  const mutants = Object.entries(files)
    .filter(([, f]) => f.subset === subset && f.kind === 'mutant')
    .map(([p, f]) => ({ rate: f.rate, found: rep.has(pairKey(p, f.source)) }));
  const scored = {
    precision: Q.precisionOf([...rep.values()]),
    recall: Q.recallOf(positives, new Set(rep.keys())),
    mutants: Q.mutantRecall(mutants, manifest.rates),
  };
  return {
    subset,
    score: scored,
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
    const tp = R.filter((r) => r.correct).length;
    const found = R.filter((r) => r.j >= POSITIVE).length;
    out.push({ d, reported: R.length, precision: ratio(tp, R.length), recall: ratio(found, ev.all.positives) });
  }
  return out;
}

function printSubset(ev, cli) {
  const L = [];
  L.push(`\n=== ${ev.subset}: ${ev.files} files (CLI: ${cli.out.stats ? cli.out.stats.files : '?'} files, ${cli.ms} ms, exit ${cli.status})` + (ev.unknownPaths ? `, ${ev.unknownPaths} reported pairs with unknown paths!` : ''));
  const s = (x) => [x.reported, x.correct, fmt(x.precision), fmt(x.strictPrecision), x.positives, x.found, fmt(x.recall)];
  L.push(
    table(
      [
        ['all pairs', ...s(ev.all)],
        ['natural pairs only', ...s(ev.natural)],
        ['excluding identical (J<1)', ...s(ev.nonIdentical)],
      ],
      ['', 'reported', 'correct', 'precision', `P (J>=${STRICT})`, 'J>=0.9', 'found', 'recall'],
    ),
  );
  L.push('');
  L.push(
    table(
      ev.categories.map((c) => [c.category, c.pos, c.identical, c.posFound, fmt(ratio(c.posFound, c.pos), 2), c.mid, c.midFound, c.lineageOnly, c.fp]),
      ['pair category', 'J>=0.9', 'of which J=1', 'found', 'recall', '0.7<=J<0.9', 'found', 'true by lineage only', 'wrong'],
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
      L.push(`  J=${x.jaccard.toFixed(3)}${x.readerJaccard !== undefined ? ` (read ${x.readerJaccard.toFixed(3)})` : ''} d=${x.distance === null ? '-' : x.distance}${x.located ? ' located' : ''}  ${x.a}  <->  ${x.b}  [${x.tokens.join('/')} tokens; ${x.category}]`);
  };
  show(`wrong: reported, neither one lineage nor J >= ${CONTENT}`, ev.falsePositives);
  show('false negatives: J >= 0.9, not reported', ev.falseNegatives);
  return L.join('\n');
}

function main(argv = process.argv.slice(2)) {
  const opts = parseArgs(argv);
  if (!fs.existsSync(opts.cli)) {
    console.error(`bench/quality: ${opts.cli} not found; build it first (node esbuild.js)`);
    return 2;
  }
  const manifest = ensureCorpus({ mutantSources: opts.mutants });
  const truth = ensureTruth({ manifest });
  const given = opts.pass.slice();
  if (opts.sweep !== null && !given.includes('--max-distance')) given.push('--max-distance', String(opts.sweep));

  console.log(`bench/quality — corpus ${manifest.corpusHash} (${manifest.mutantSources} mutated files per subset), truth: exact Jaccard of token ${truth.k}-shingle sets, and lineage`);
  console.log(`precision = reported pairs true by lineage (same package and twin key; a mutant: its source's) or by content (J >= ${CONTENT}; zh: also of the texts converted to Simplified) / reported`);
  console.log(`recall = pairs with J >= ${POSITIVE} reported / all such pairs;  mutant recall = mutant~source pairs reported / mutants, per edit rate`);

  const results = { date: new Date().toISOString(), cli: path.relative(REPO, opts.cli), corpusHash: manifest.corpusHash, mutantSources: manifest.mutantSources, content: CONTENT, strict: STRICT, positive: POSITIVE, target: TARGET, configs: {} };
  const readers = new Map();
  const summary = [];
  const verdicts = [];
  for (const config of opts.configs) {
    const extra = [...given, ...CONFIGS[config].filter((a) => !given.includes(a))];
    console.log(`\n##### configuration ${config}: node ${path.relative(process.cwd(), opts.cli)} scan <subset> --format json ${extra.join(' ')}`.trimEnd());
    const out = { args: extra, subsets: {} };
    const scores = [];
    for (const subset of opts.subsets) {
      const cli = runCli(opts, subset, extra);
      const reported = (cli.out.pairs || [])
        .filter((p) => p.kind === 'file')
        .map((p) => ({ a: normPath(p.a.path, subset), b: normPath(p.b.path, subset), distance: p.distance, similarity: p.similarity, located: p.located === true }));
      if (!readers.has(subset)) readers.set(subset, readerJaccardOf(subset));
      const ev = evaluateSubset(subset, truth.subsets[subset], manifest, reported, readers.get(subset));
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
      out.subsets[subset] = { ...rest, cliStats: cli.out.stats || null, cliMs: cli.ms, cliExit: cli.status, sweep, crossScript, falsePositives: ev.falsePositives.slice(0, 100), falseNegatives: ev.falseNegatives.slice(0, 100) };
      scores.push(ev.score);
      summary.push(summaryRow(config, subset, ev.score, ev.files, cli.ms));
    }
    out.overall = Q.pooled(scores);
    if (opts.subsets.length > 1) summary.push(summaryRow(config, 'overall', out.overall, opts.subsets.reduce((n, s) => n + out.subsets[s].files, 0), ''));
    out.misses = Object.fromEntries(opts.subsets.map((s) => [s, Q.misses(out.subsets[s].score)]).filter(([, m]) => m.length));
    out.pass = Object.keys(out.misses).length === 0;
    verdicts.push(
      out.pass
        ? `VERDICT ${config}: PASS — issue 12's targets met in every subset (${opts.subsets.join(', ')})`
        : `VERDICT ${config}: FAIL — ${Object.entries(out.misses).map(([s, m]) => `${s}: ${m.join(', ')}`).join('; ')}`,
    );
    results.configs[config] = out;
  }

  console.log(`\n=== summary (targets in every subset: precision >= ${TARGET.precision}, recall at J >= ${POSITIVE} >= ${TARGET.recall}, mutants at 10 % >= ${TARGET.mutants[10]}, at 20 % >= ${TARGET.mutants[20]})`);
  console.log(table(summary, ['config', 'subset', 'files', 'reported', 'precision', `P (J>=${STRICT})`, `J>=${POSITIVE}`, 'recall', ...manifest.rates.map((r) => `mut ${r}%`), 'ms']));
  for (const v of verdicts) console.log(v);
  results.pass = Object.values(results.configs).every((c) => c.pass);
  results.verdicts = verdicts;
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, JSON.stringify(results, null, 1));
  console.log(`results: ${path.relative(process.cwd(), opts.out)}`);
  return results.pass || !opts.strict ? 0 : 1;
}

/** One row of the summary: precision, recall and mutant recall per rate (found/mutants). */
function summaryRow(config, subset, score, files, ms) {
  const m = Object.entries(score.mutants)
    .sort((x, y) => Number(x[0]) - Number(y[0]))
    .map(([, x]) => `${fmt(x.recall, 2)} ${x.found}/${x.mutants}`);
  return [config, subset, files, score.precision.reported, fmt(score.precision.precision), fmt(score.precision.strictPrecision), score.recall.positives, fmt(score.recall.recall), ...m, ms];
}

/**
 * zh: the Jaccard of two files' texts converted to Simplified (opencc-js tw → cn, phrases
 * included), as a reader reads them; other subsets (or without opencc-js): null.
 */
function readerJaccardOf(subset) {
  if (subset !== 'zh') return () => null;
  const { tokens, shingleSet, jaccard } = require('./tokenize');
  let toSimplified;
  try {
    const OpenCC = require('opencc-js');
    toSimplified = OpenCC.Converter({ from: 'tw', to: 'cn' });
  } catch {
    return () => null;
  }
  const cache = new Map();
  const shingles = (p) => {
    if (!cache.has(p)) cache.set(p, shingleSet(tokens(toSimplified(fs.readFileSync(path.join(CORPUS, p), 'utf8')), 'prose')));
    return cache.get(p);
  };
  return (a, b) => jaccard(shingles(a), shingles(b));
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
