#!/usr/bin/env node
'use strict';
// Localisation study: src/core/regions (winnowed anchors, chained and aligned regions) on the
// planted workspace of bench/quality/locate.js, scored by the same rules, next to NearDup today
// and jscpd (their results read from locate.js's JSON files).
//
//   node bench/quality/locate.js --workspace /tmp/locate-ws --no-jscpd --out /tmp/locate-nojscpd.json
//   node bench/quality/locate-regions.js [--workspace /tmp/locate-ws] [--baseline /tmp/locate-nojscpd.json]
//        [--jscpd bench/results/locate.json] [--config name:k=5,w=4,streams=both …] [--out FILE]
//        [--cjk-words]
//
// A second seed: node bench/quality/locate.js --seed 2 --workspace /tmp/locate-ws2 --no-jscpd
// --out /tmp/locate-nojscpd2.json, then --workspace /tmp/locate-ws2 --baseline /tmp/locate-nojscpd2.json
// (jscpd is left out when its results are of another workspace). --cjk-words tokenises CJK as
// jieba words (the product's prose tokens) instead of the region finder's default character bigrams.
//
// Each --config is one set of RegionOptions (src/core/regions/regions.ts) measured in the run;
// without any, the defaults and the alternatives of docs/localisation.md (run once more with
// --cjk-words for the jieba-word figures). Documents are tokenised
// with the product's tokenisers (src/core/text), CJK as character bigrams (or jieba words,
// src/node/cjk/jieba.ts, with --cjk-words).
const fs = require('fs');
const path = require('path');
const { bundleEngine, BUILD, REPO } = require('../lib/common');
const { evaluate, infoCache } = require('./locate');
const { mulberry32, fnv1a32 } = require('./mutate');

const VARIANTS = ['verbatim', 'renamed', 'light', 'heavy', 'same-file', 'group'];
const SUBSETS = ['code', 'en', 'zh'];
const DEFAULT_CONFIGS = [
  'regions:',
  'both:streams=both',
  'raw-only:streams=raw',
  'k8w8:k=8,w=8',
  'w3:w=3',
  'cover5:coverK=5',
  'gap15:maxGap=15,joinGap=0',
  'nojoin:joinGap=0',
  'flat.5:shortSimilarity=0.5',
  'cap24:proseMaxPostingsShare=0',
  'post64:maxPostings=64',
  'share.1:maxPostingsShare=0.1',
  'pshare.15:proseMaxPostingsShare=0.15',
  'docs24:maxDocs=24,maxPostings=100000',
  'rescue256:rescuePostings=256',
];

function parseArgs(argv) {
  const o = { workspace: '/tmp/locate-ws', baseline: '/tmp/locate-nojscpd.json', jscpd: path.join(REPO, 'bench', 'results', 'locate.json'), configs: [], cjkWords: false, out: path.join(REPO, 'bench', 'results', 'locate-regions.json') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--workspace') o.workspace = path.resolve(argv[++i]);
    else if (a === '--baseline') o.baseline = path.resolve(argv[++i]);
    else if (a === '--jscpd') o.jscpd = path.resolve(argv[++i]);
    else if (a === '--config') o.configs.push(argv[++i]);
    else if (a === '--out') o.out = path.resolve(argv[++i]);
    else if (a === '--cjk-words') o.cjkWords = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.configs.length) o.configs = DEFAULT_CONFIGS;
  return o;
}

/** 'name:k=5,w=4,streams=raw' → { name, options }. */
function parseConfig(s) {
  const [name, rest = ''] = s.split(':');
  const options = {};
  for (const kv of rest.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    options[k] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
  }
  return { name, options };
}

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out;
}

const fmt = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Number(x).toFixed(d));
const median = (xs) => {
  if (!xs.length) return null;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
function table(rows, header) {
  const all = [header, ...rows].map((r) => r.map(String));
  const w = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => r.map((s, c) => (c <= 1 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ');
  return [line(all[0]), w.map((n) => '-'.repeat(n)).join('  '), ...all.slice(1).map(line)].join('\n');
}

function main(argv = process.argv.slice(2)) {
  const o = parseArgs(argv);
  for (const f of [o.workspace, o.baseline]) {
    if (!fs.existsSync(f)) throw new Error(`${f} not found: run node bench/quality/locate.js --workspace /tmp/locate-ws --no-jscpd --out /tmp/locate-nojscpd.json (and once with jscpd)`);
  }
  const base = JSON.parse(fs.readFileSync(o.baseline, 'utf8'));
  let jscpdRun = fs.existsSync(o.jscpd) ? JSON.parse(fs.readFileSync(o.jscpd, 'utf8')) : null;
  if (jscpdRun && jscpdRun.workspaceHash !== base.workspaceHash) {
    console.error(`jscpd left out: its results (${o.jscpd}) are of workspace ${jscpdRun.workspaceHash}, the baseline of ${base.workspaceHash}`);
    jscpdRun = null;
  }
  const bundle = path.join(BUILD, `regions-${process.pid}.js`);
  const eng = bundleEngine(path.join(REPO, 'bench', 'lib', 'regions.ts'), bundle);
  fs.rmSync(bundle, { force: true }); // loaded: the file is not needed any more
  const cjk = o.cjkWords ? eng.loadCjkSegmenter((m) => console.error(m)) : { name: 'character bigrams', segmenter: undefined };

  // ------------------------------------------------------------------ documents
  const paths = walk(o.workspace);
  const texts = new Map(paths.map((p) => [p, fs.readFileSync(path.join(o.workspace, p), 'utf8')]));
  const bytes = [...texts.values()].reduce((s, t) => s + Buffer.byteLength(t), 0);
  const t0 = process.hrtime.bigint();
  const docs = paths.map((p) => eng.regionDocument(texts.get(p), p, { segmenter: cjk.segmenter, cjkWords: o.cjkWords }));
  const tokMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const tokens = docs.reduce((s, d) => s + d.length, 0);
  const docBytes = docs.reduce((s, d) => s + d.raw.hi.byteLength * 2 + d.start.byteLength + (d.ids ? d.ids.hi.byteLength * 2 + d.isIdent.byteLength : 0) + d.lineStarts.byteLength, 0);
  console.log(`locate-regions — workspace ${base.workspaceHash} (${o.workspace}): ${paths.length} files, ${(bytes / 1e6).toFixed(2)} MB, ${tokens} tokens (segmenter ${cjk.name}), tokenised in ${tokMs.toFixed(0)} ms; ${base.copies.length} planted copies`);

  // ------------------------------------------------------------------ runs
  const infoOf = infoCache(texts);
  const copies = base.copies;
  const evals = {};
  const runs = {};
  for (const s of o.configs) {
    const { name, options } = parseConfig(s);
    const heap0 = process.memoryUsage().heapUsed;
    const t1 = process.hrtime.bigint();
    const r = eng.findRegions(docs, options);
    const ms = Number(process.hrtime.bigint() - t1) / 1e6;
    const pairs = r.pairs.map((p) => ({ kind: p.clone, a: { path: paths[p.a.doc], start: p.a.startLine, end: p.a.endLine }, b: { path: paths[p.b.doc], start: p.b.startLine, end: p.b.endLine }, similarity: p.similarity }));
    const clones = {};
    for (const p of r.pairs) clones[p.clone] = (clones[p.clone] || 0) + 1;
    runs[name] = { options, ms, stats: r.stats, clones, groups: r.groups.length, groupsOf3: r.groups.filter((g) => g.places.length >= 3).length, heapDeltaMB: (process.memoryUsage().heapUsed - heap0) / 1e6 };
    evals[name] = evaluate({ pairs }, copies, texts, infoOf, mulberry32(fnv1a32(`locate:${base.seed}:judge:${name}`)));
    const st = r.stats;
    console.log(`  ${name.padEnd(9)} ${JSON.stringify(options)}: ${ms.toFixed(0)} ms, ${st.anchors} anchors (${((st.anchors / bytes) * 1e6).toFixed(0)} per MB, ${(st.anchors / tokens).toFixed(2)} per token), index ${(st.indexBytes / 1e6).toFixed(1)} MB, ${st.droppedHashes} hashes dropped, ${st.seeds} seeds, ${st.chains} chains, ${st.aligned} aligned, ${st.pairs} pairs ${JSON.stringify(clones)}, ${r.groups.length} groups`);
  }

  // ------------------------------------------------------------------ the baseline tools (their own runs' results)
  const ext = {
    neardup: { perCopy: copies.map((c) => c.results.neardup), precision: base.tools.neardup.precision },
    'neardup-ni': { perCopy: copies.map((c) => c.results['neardup-ni']), precision: base.tools['neardup-ni'].precision },
    ...(jscpdRun
      ? {
          jscpd: { perCopy: jscpdRun.copies.map((c) => c.results.jscpd), precision: jscpdRun.tools.jscpd.precision },
          'jscpd-30': { perCopy: jscpdRun.copies.map((c) => c.results['jscpd-30']), precision: jscpdRun.tools['jscpd-30'].precision },
        }
      : {}),
  };
  const all = { ...ext, ...evals };
  const names = Object.keys(all);
  const rowsLoc = [];
  const rowsSpan = [];
  const cells = [];
  const add = (variant, subset, pred) => {
    const ids = copies.filter(pred).map((c) => c.id);
    if (!ids.length) return;
    const c = {};
    for (const n of names) {
      const cs = ids.map((i) => all[n].perCopy[i]);
      const loc = cs.filter((x) => x.located);
      c[n] = { share: loc.length / cs.length, located: loc.length, medianSpan: median(loc.map((x) => x.span)) };
    }
    cells.push({ variant, subset, copies: ids.length, ...c });
    rowsLoc.push([variant, subset, ids.length, ...names.map((n) => fmt(c[n].share))]);
    rowsSpan.push([variant, subset, ids.length, ...names.map((n) => fmt(c[n].medianSpan))]);
  };
  for (const v of VARIANTS) for (const s of SUBSETS) add(v, s, (c) => c.variant === v && c.subset === s);
  for (const s of SUBSETS) add('all', s, (c) => c.subset === s);
  add('all', 'code: Python', (c) => c.lang === 'py');
  for (const v of VARIANTS) add(v, 'all', (c) => c.variant === v);
  add('ALL', 'all', () => true);
  console.log('\nlocated (share of planted copies; rules of bench/quality/locate-score.js)');
  console.log(table(rowsLoc, ['variant', 'subset', 'copies', ...names]));
  console.log('\nmedian span ratio of located copies');
  console.log(table(rowsSpan.filter((r) => r[0] === 'ALL' || r[0] === 'all' || r[1] === 'all'), ['variant', 'subset', 'copies', ...names]));
  console.log('\nprecision (pairs judged on their ranges’ content)');
  console.log(table(names.map((n) => [n, '', ...[...SUBSETS, 'all'].map((s) => (all[n].precision[s] ? `${fmt(all[n].precision[s].precision, 3)} (${all[n].precision[s].judged})` : 'n/a'))]), ['tool', '', ...SUBSETS, 'all']));
  console.log('\nwhy not located (copies): located / no link / cover < half / span > 3x');
  console.log(table(names.map((n) => { const k = (w) => all[n].perCopy.filter((c) => c.why === w).length; return [n, '', k('located'), k('no link'), k('cover'), k('span')]; }), ['tool', '', 'located', 'no link', 'cover', 'span']));
  console.log(`\nmemory: documents ${(docBytes / 1e6).toFixed(1)} MB of typed arrays (${(docBytes / tokens).toFixed(1)} bytes a token, ${(docBytes / paths.length / 1024).toFixed(1)} KB a file)`);

  const out = { date: new Date().toISOString(), workspaceHash: base.workspaceHash, files: paths.length, bytes, tokens, tokeniseMs: tokMs, segmenter: cjk.name, docBytes, runs, cells, precision: Object.fromEntries(names.map((n) => [n, all[n].precision])), wrong: Object.fromEntries(Object.entries(evals).map(([n, e]) => [n, e.wrong.slice(0, 30)])), misses: Object.fromEntries(Object.entries(evals).map(([n, e]) => [n, e.perCopy.filter((c) => !c.located).map((c) => ({ id: c.id, variant: copies[c.id].variant, subset: copies[c.id].subset, why: c.why, detail: c.detail }))])) };
  fs.mkdirSync(path.dirname(o.out), { recursive: true });
  fs.writeFileSync(o.out, JSON.stringify(out, null, 1));
  console.log(`results: ${path.relative(process.cwd(), o.out)}`);
  return 0;
}

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`bench/quality/locate-regions: ${e.stack || e.message}`);
    process.exitCode = 2;
  }
}
