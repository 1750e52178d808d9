#!/usr/bin/env node
'use strict';
// Planted-copy localisation benchmark: does a tool find a copied region *where it is*?
//
//   node bench/quality/locate.js [--seed 1] [--copies 150] [--subset code,en,zh] [--cli PATH]
//                                [--no-jscpd] [--workspace DIR] [--out FILE] [neardup scan options]
//
// A workspace of ~390 real files (bench/quality's pinned npm packages: JS/TS, Python from the
// node-gyp that npm bundles, English and Chinese prose) gets ~150 planted copies of real regions
// (a function or block of 15–60 lines; a run of 2–6 paragraphs) pasted between top-level
// statements / paragraphs of unrelated files, in six variants (verbatim, renamed, light and heavy
// edits, same-file repeat, group of three pastes). NearDup (defaults, --normalize-identifiers) and
// jscpd 5.3.3 (defaults, --min-tokens 30) scan it; a copy is *located* when the pairs reported
// between its places cover half of its copied lines on both sides within 3× their span.
// Precision is judged on the reported ranges' content. See bench/quality/README.md.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { ensureCorpus, CACHE, REPO } = require('./corpus');
const { tokens } = require('./tokenize');
const { mutate, mulberry32, fnv1a32 } = require('./mutate');
const plant = require('./locate-plant');
const score = require('./locate-score');

const VARIANTS = ['verbatim', 'renamed', 'light', 'heavy', 'same-file', 'group'];
const SUBSETS = ['code', 'en', 'zh'];
const SHARE = { code: 0.4, en: 0.3, zh: 0.3 }; // of the copies
const PY_SHARE = 0.2; // of the code copies, when Python material is there
const FILES = { code: 160, py: 40, en: 100, zh: 100 }; // workspace files per material (at most)
const EDIT_RATE = { light: 0.08, heavy: 0.2 };
const GROUP_PASTES = 3;
const AWAY = 10; // a same-file repeat is pasted at least this many lines from the original
const MAX_JUDGED = 20000; // reported pairs judged per tool configuration (a seeded sample beyond)
const PY_ROOT = path.join(CACHE, 'extract', 'npm@10.8.2', 'package', 'node_modules', 'node-gyp');
const MIN_BYTES = 200;
const MAX_BYTES = 500 * 1024;

function parseArgs(argv) {
  const o = { seed: 1, copies: 150, subsets: SUBSETS, cli: path.join(REPO, 'dist', 'cli.js'), jscpd: true, workspace: null, out: path.join(REPO, 'bench', 'results', 'locate.json'), pass: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const val = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === '--seed') o.seed = Number(val());
    else if (flag === '--copies') o.copies = Number(val());
    else if (flag === '--subset') o.subsets = val().split(',').filter(Boolean);
    else if (flag === '--cli') o.cli = path.resolve(val());
    else if (flag === '--out') o.out = path.resolve(val());
    else if (flag === '--workspace') o.workspace = path.resolve(val());
    else if (a === '--no-jscpd') o.jscpd = false;
    else if (a === '--') continue;
    else o.pass.push(a);
  }
  for (const s of o.subsets) if (!SUBSETS.includes(s)) throw new Error(`unknown subset ${s} (code, en, zh)`);
  if (!(o.copies > 0)) throw new Error('--copies must be a positive number');
  return o;
}

const log = (...a) => console.error('[locate]', ...a);

// ------------------------------------------------------------------------------ material

function shuffle(arr, rng) {
  const a = arr.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out;
}

/**
 * The workspace's files before planting: bench/quality's natural files, one version of each
 * (code and en: one of each twin key, so no version or transpiled twins; zh: one version of each
 * lesson, zh-cn and zh-tw both kept), plus Python from node-gyp. lang: code | py | en | zh.
 */
function material(manifest, subsets, rng) {
  const CORPUS = path.join(CACHE, 'corpus');
  const byKey = new Map();
  for (const [p, f] of Object.entries(manifest.files)) {
    if (f.kind !== 'natural' || !subsets.includes(f.subset)) continue;
    const key = f.subset === 'zh' ? `${f.subset}|${f.pkg}|${f.rel}` : `${f.subset}|${f.pkg}|${f.twinKey}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(p);
  }
  const pools = { code: [], py: [], en: [], zh: [] };
  for (const [key, paths] of [...byKey].sort((x, y) => x[0].localeCompare(y[0]))) {
    const p = paths.slice().sort()[Math.floor(rng() * paths.length)];
    const f = manifest.files[p];
    pools[f.subset].push({ ws: p, lang: f.subset, subset: f.subset, pkg: f.pkg, key, text: fs.readFileSync(path.join(CORPUS, p), 'utf8') });
  }
  if (subsets.includes('code')) {
    if (fs.existsSync(PY_ROOT)) {
      const version = JSON.parse(fs.readFileSync(path.join(PY_ROOT, 'package.json'), 'utf8')).version;
      for (const rel of walk(PY_ROOT).filter((r) => r.endsWith('.py'))) {
        const buf = fs.readFileSync(path.join(PY_ROOT, rel));
        if (buf.length < MIN_BYTES || buf.length > MAX_BYTES) continue;
        const text = buf.toString('utf8');
        if (text.split('\n').some((l) => l.length > 1000) || tokens(text, 'py').length < 100) continue;
        pools.py.push({ ws: `code/node-gyp@${version}/${rel}`, lang: 'py', subset: 'code', pkg: 'node-gyp', key: `py|${rel}`, text });
      }
    } else log(`note: ${path.relative(REPO, PY_ROOT)} not found (rebuild the corpus: node bench/quality/corpus.js --force): no Python`);
  }
  const out = [];
  for (const lang of ['code', 'py', 'en', 'zh']) out.push(...shuffle(pools[lang], rng).slice(0, FILES[lang]));
  return out.sort((a, b) => a.ws.localeCompare(b.ws));
}

// ------------------------------------------------------------------------------ planting

function pickWeighted(items, rng, w = (x) => x.weight) {
  let total = 0;
  for (const x of items) total += w(x);
  let r = rng() * total;
  for (const x of items) {
    r -= w(x);
    if (r < 0) return x;
  }
  return items[items.length - 1];
}

const inside = (p, [s, e]) => s < p && p <= e; // a paste before line p would split [s, e]

/** Copies go between files of one format (jscpd compares only within a format: .js with .js, .ts with .ts, .md with .md). */
function formatOf(p) {
  const ext = p.slice(p.lastIndexOf('.') + 1).toLowerCase();
  if (['js', 'cjs', 'mjs', 'jsx'].includes(ext)) return 'js';
  if (['ts', 'mts', 'cts', 'tsx'].includes(ext)) return 'ts';
  return ext;
}

/** How many copies of each material: SHARE of --copies per subset, PY_SHARE of code from Python. */
function copyCounts(total, subsets, hasPy) {
  const share = subsets.reduce((s, x) => s + SHARE[x], 0);
  const counts = { code: 0, py: 0, en: 0, zh: 0 };
  let left = total;
  subsets.forEach((s, i) => {
    const n = i === subsets.length - 1 ? left : Math.round((total * SHARE[s]) / share);
    counts[s] = n;
    left -= n;
  });
  if (hasPy) {
    counts.py = Math.round(counts.code * PY_SHARE);
    counts.code -= counts.py;
  }
  return counts;
}

/** The text a variant pastes, from the region's lines; null when the region does not suit it. */
function pasteText(file, region, variant, rng) {
  const raw = file.text.split('\n').slice(region.start, region.end + 1);
  const mode = file.lang === 'code' ? 'code' : file.lang === 'py' ? 'py' : 'prose';
  const lines = mode === 'prose' ? raw : plant.dedent(raw, mode);
  const text = lines.join('\n');
  if (variant === 'renamed') {
    const r = mode === 'prose' ? plant.renameProse(text, file.lang, rng) : plant.renameCode(text, mode, rng);
    if (!r) return null;
    return { lines: trimBlank(r.text.split('\n')), edit: { renamed: r.renamed, occurrences: r.occurrences } };
  }
  if (variant === 'light' || variant === 'heavy') {
    const flavour = mode === 'prose' ? file.lang : 'code';
    const m = mutate(text, mode, flavour, EDIT_RATE[variant], rng);
    return { lines: trimBlank(m.text.split('\n')), edit: { rate: EDIT_RATE[variant], tokens: m.tokens, edited: m.edited, ops: m.ops } };
  }
  return { lines, edit: null };
}

function trimBlank(lines) {
  let s = 0;
  let e = lines.length;
  while (s < e && !lines[s].trim()) s++;
  while (e > s && !lines[e - 1].trim()) e--;
  return lines.slice(s, e);
}

/**
 * Chooses the copies: for each material and variant in turn, a source file not used yet, a
 * region of it (weighted: single top-level statements first), and the files of the same format
 * and top-level positions it is pasted at (another package's files where possible). Each file
 * gives one region and hosts one paste; two or three when the material runs short (zh). Nothing
 * is pasted inside a region that is copied, and copied regions do not overlap.
 */
function plan(files, counts, rng) {
  const byLang = { code: [], py: [], en: [], zh: [] };
  for (const f of files) {
    f.an = plant.analyse(f.text, f.lang);
    f.format = formatOf(f.ws);
    f.sourceRegions = [];
    f.inserts = [];
    f.sourceCount = 0;
    byLang[f.lang].push(f);
  }
  const copies = [];
  const failed = [];
  let id = 0;
  for (const lang of ['code', 'py', 'en', 'zh']) {
    const pool = byLang[lang];
    for (let i = 0; i < counts[lang]; i++) {
      const variant = VARIANTS[i % VARIANTS.length];
      const c = planOne(pool, lang, variant, rng, id);
      if (c) {
        copies.push(c);
        id++;
      } else failed.push({ lang, variant });
    }
  }
  return { copies, failed };
}

function planOne(pool, lang, variant, rng, id) {
  for (let cap = 1; cap <= 3; cap++) {
    for (let attempt = 0; attempt < 60; attempt++) {
      const sources = pool.filter((f) => f.sourceCount < cap && f.an.regions.length && (variant !== 'same-file' || f.inserts.length < cap));
      if (!sources.length) break;
      const src = sources[Math.floor(rng() * sources.length)];
      const regions = src.an.regions.filter((r) => !src.inserts.some((ins) => inside(ins.at, [r.start, r.end])) && !src.sourceRegions.some(([s, e]) => r.start <= e && r.end >= s));
      if (!regions.length) continue;
      const region = pickWeighted(regions, rng);
      const paste = pasteText(src, region, variant, rng);
      if (!paste || !paste.lines.length) continue;
      const span = [region.start, region.end];
      const okPos = (f, p) => !f.sourceRegions.some((r) => inside(p, r)) && !inside(p, span) && !f.inserts.some((x) => x.at === p);
      let hosts;
      if (variant === 'same-file') {
        const pos = src.an.positions.filter((p) => okPos(src, p) && (p <= region.start - AWAY || p >= region.end + 1 + AWAY));
        if (!pos.length) continue;
        hosts = [{ file: src, at: pos[Math.floor(rng() * pos.length)] }];
      } else {
        const n = variant === 'group' ? GROUP_PASTES : 1;
        const cands = (strict) =>
          pool.filter((f) => f !== src && f.format === src.format && f.inserts.length < cap && (strict ? f.pkg !== src.pkg : f.key !== src.key) && f.an.positions.some((p) => okPos(f, p)));
        let cs = cands(true);
        if (cs.length < n) cs = cands(false);
        if (cs.length < n) continue;
        hosts = shuffle(cs, rng)
          .slice(0, n)
          .map((f) => {
            const pos = f.an.positions.filter((p) => okPos(f, p));
            return { file: f, at: pos[Math.floor(rng() * pos.length)] };
          });
      }
      src.sourceCount++;
      src.sourceRegions.push(span);
      const pastes = hosts.map((h, k) => {
        const ins = { at: h.at, lines: paste.lines, id: `c${id}p${k}` };
        h.file.inserts.push(ins);
        return { file: h.file, id: ins.id, lines: paste.lines.length };
      });
      return { id, lang, subset: src.subset, variant, source: src, region: { ...region }, pastes, edit: paste.edit, hostCap: cap };
    }
  }
  return null;
}

/** Writes the planted workspace; returns { texts: path -> text, copies with places (1-based) }. */
function materialise(files, copies, dir) {
  const texts = new Map();
  const maps = new Map();
  const ats = new Map();
  for (const f of files) {
    const r = plant.applyInsertions(f.text, f.inserts);
    texts.set(f.ws, r.text);
    maps.set(f.ws, r.map);
    for (const [k, v] of r.at) ats.set(k, v);
  }
  for (const c of copies) {
    const m = maps.get(c.source.ws);
    c.places = [{ file: c.source.ws, start: m[c.region.start] + 1, end: m[c.region.end] + 1, role: 'original' }];
    for (const p of c.pastes) {
      const at = ats.get(p.id);
      c.places.push({ file: p.file.ws, start: at + 1, end: at + p.lines, role: 'paste' });
    }
  }
  if (dir) {
    for (const [p, text] of texts) {
      const abs = path.join(dir, p);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, text);
    }
  }
  // self-check: every place holds what was planted (verbatim variants: the same tokens)
  for (const c of copies) {
    const mode = c.lang === 'code' ? 'code' : c.lang === 'py' ? 'py' : 'prose';
    const at = (p) => tokens(texts.get(p.file).split('\n').slice(p.start - 1, p.end).join('\n'), mode).join('\u0001');
    const orig = at(c.places[0]);
    const want = tokens(c.source.text.split('\n').slice(c.region.start, c.region.end + 1).join('\n'), mode).join('\u0001');
    if (orig !== want) throw new Error(`planting check: copy ${c.id}'s original moved (${c.places[0].file})`);
    for (const p of c.places.slice(1)) {
      if (!at(p)) throw new Error(`planting check: copy ${c.id}'s paste in ${p.file} is empty`);
      if (!c.edit && at(p) !== orig) throw new Error(`planting check: copy ${c.id}'s paste in ${p.file}:${p.start} differs from its original`);
    }
  }
  const hash = crypto
    .createHash('sha256')
    .update([...texts].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([p, t]) => `${p}\t${crypto.createHash('sha256').update(t).digest('hex')}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return { texts, hash };
}

function prepareDir(dir) {
  if (fs.existsSync(dir)) {
    const entries = fs.readdirSync(dir);
    const ours = entries.every((e) => SUBSETS.includes(e));
    if (!ours) throw new Error(`${dir} exists and holds other things than ${SUBSETS.join('/')}/: choose an empty or new folder`);
    for (const e of entries) fs.rmSync(path.join(dir, e), { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });
}

// ------------------------------------------------------------------------------ tools

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** NearDup's pairs: file pairs as [1, lines] of each file, section pairs as reported. */
function runNeardup(cli, ws, extra, lineCount) {
  const args = [cli, 'scan', ws, '--format', 'json', '--no-progress', '-q', ...extra];
  for (let attempt = 1; ; attempt++) {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
    const ms = Date.now() - t0;
    let out = null;
    try {
      out = JSON.parse(r.stdout);
    } catch {
      /* below */
    }
    if (out && Array.isArray(out.pairs)) {
      const pairs = [];
      for (const p of out.pairs) {
        const side = (s) => ({ path: normRel(s.path, ws), start: p.kind === 'file' ? 1 : s.startLine, end: p.kind === 'file' ? lineCount(normRel(s.path, ws)) : s.endLine });
        // A file pair with its matching regions (--locate) reports those ranges, not the whole files.
        if (p.kind === 'file' && Array.isArray(p.regions) && p.regions.length) {
          for (const g of p.regions) {
            pairs.push({ kind: 'section', a: { path: normRel(p.a.path, ws), start: g.a.startLine, end: g.a.endLine }, b: { path: normRel(p.b.path, ws), start: g.b.startLine, end: g.b.endLine }, distance: p.distance });
          }
          continue;
        }
        pairs.push({ kind: p.kind, a: side(p.a), b: side(p.b), distance: p.distance });
      }
      return { pairs, ms, stats: out.stats || null, truncated: out.truncated || null, args: ['neardup', ...args.slice(2)].map((x) => (x === ws ? '<workspace>' : x)) };
    }
    const err = (r.stderr || '').trim().split('\n').slice(-5).join('\n');
    if (attempt >= 3) throw new Error(`neardup did not print JSON (exit ${r.status}${r.error ? ', ' + r.error.message : ''}):\n${err}`);
    log(`neardup failed (exit ${r.status}), retrying in 5 s: ${err.split('\n').pop()}`);
    sleep(5000);
  }
}

function normRel(p, ws) {
  let s = String(p).replace(/\\/g, '/');
  const abs = ws.split(path.sep).join('/') + '/';
  if (s.startsWith(abs)) s = s.slice(abs.length);
  return s.replace(/^\.\//, '');
}

/** jscpd's clones: each duplicate is a pair of line ranges (names may carry ':format' for embedded blocks). */
function runJscpd(bin, ws, extra, known) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-jscpd-'));
  try {
    const args = [ws, '--reporters', 'json', '--output', out, '--silent', ...extra];
    const t0 = Date.now();
    const r = spawnSync(bin, args, { maxBuffer: 1 << 30, encoding: 'utf8', env: { ...process.env, JSCPD_NO_TIPS: '1' } });
    const ms = Date.now() - t0;
    const file = path.join(out, 'jscpd-report.json');
    if (!fs.existsSync(file)) throw new Error(`jscpd wrote no report (exit ${r.status}): ${(r.stderr || '').slice(-1000)}`);
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    const name = (n) => {
      let s = normRel(n, ws);
      if (!known(s) && /:[\w-]+$/.test(s)) s = s.replace(/:[\w-]+$/, '');
      return s;
    };
    const pairs = (j.duplicates || []).map((d) => ({
      kind: d.format,
      a: { path: name(d.firstFile.name), start: d.firstFile.start, end: d.firstFile.end },
      b: { path: name(d.secondFile.name), start: d.secondFile.start, end: d.secondFile.end },
    }));
    return { pairs, ms, stats: j.statistics && j.statistics.total ? { sources: j.statistics.total.sources, clones: j.statistics.total.clones } : null, args: ['jscpd', ...args].map((a) => (a === out ? '<tmp>' : a === ws ? '<workspace>' : a)) };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------ scoring

function evaluate(tool, copies, texts, infoOf, rng) {
  const known = (p) => texts.has(p);
  const pairs = tool.pairs.filter((r) => known(r.a.path) && known(r.b.path));
  const unknown = tool.pairs.length - pairs.length;
  const byFiles = score.indexPairs(pairs);
  const perCopy = copies.map((c) => {
    const s = score.scoreCopy(c.places, byFiles, infoOf);
    return { id: c.id, located: s.located, span: s.span, why: s.why, connected: s.connected, pairsLocated: s.pairsLocated, placePairs: s.pairs.length, detail: s.pairs.map(({ i, j, links, coverP, coverQ, spanP, spanQ, why }) => ({ i, j, links, coverP: round(coverP), coverQ: round(coverQ), spanP: round(spanP), spanQ: round(spanQ), why })) };
  });
  // precision: every distinct reported pair (a seeded sample beyond MAX_JUDGED), judged on content
  const seen = new Set();
  const distinct = [];
  for (const r of pairs) {
    const ka = `${r.a.path}:${r.a.start}-${r.a.end}`;
    const kb = `${r.b.path}:${r.b.start}-${r.b.end}`;
    const k = ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
    if (seen.has(k)) continue;
    seen.add(k);
    distinct.push(r);
  }
  const judged = distinct.length > MAX_JUDGED ? shuffle(distinct, rng).slice(0, MAX_JUDGED) : distinct;
  const rangeCache = new Map();
  // Chinese is judged as a reader reads it: Traditional and Simplified text converted to one script
  // (opencc-js tw → cn, phrases included: independent of the product's own character fold), so a
  // zh-cn lesson and its zh-tw edition count as the same text.
  let toSimplified = (t) => t;
  try {
    const OpenCC = require('opencc-js');
    const convert = OpenCC.Converter({ from: 'tw', to: 'cn' });
    toSimplified = (t) => (/[\u3400-\u9fff]/.test(t) ? convert(t) : t);
  } catch {
    /* opencc-js missing: raw characters */
  }
  const toks = (s) => {
    const k = `${s.path}:${s.start}-${s.end}`;
    if (!rangeCache.has(k)) {
      const info = infoOf(s.path);
      rangeCache.set(k, score.rangeTokens(toSimplified(score.rangeText(info, s.start, s.end)), info.mode));
    }
    return rangeCache.get(k);
  };
  const prec = {};
  const wrong = [];
  for (const r of judged) {
    const j = score.judge(toks(r.a), toks(r.b));
    const sub = r.a.path.split('/')[0];
    for (const key of [sub, 'all']) {
      prec[key] = prec[key] || { judged: 0, correct: 0 };
      prec[key].judged++;
      if (j.correct) prec[key].correct++;
    }
    if (!j.correct && wrong.length < 200) wrong.push({ kind: r.kind, a: r.a, b: r.b, jaccard: round(j.jaccard), containment: round(j.containment), pJaccard: round(j.pJaccard), pContainment: round(j.pContainment) });
  }
  for (const v of Object.values(prec)) v.precision = v.judged ? v.correct / v.judged : null;
  return { perCopy, reported: tool.pairs.length, distinct: distinct.length, judged: judged.length, unknownPaths: unknown, precision: prec, wrong };
}

const round = (x, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? x : Math.round(x * 10 ** d) / 10 ** d);
const median = (xs) => {
  if (!xs.length) return null;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Number(x).toFixed(d));

function table(rows, header) {
  const all = [header, ...rows].map((r) => r.map(String));
  const w = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => r.map((s, c) => (c <= 1 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ');
  return [line(all[0]), w.map((n) => '-'.repeat(n)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** located share and median span ratio of a set of copies, per configuration. */
function cell(ids, evals) {
  const out = {};
  for (const [name, ev] of Object.entries(evals)) {
    const cs = ids.map((i) => ev.perCopy[i]);
    const loc = cs.filter((c) => c.located);
    out[name] = { copies: cs.length, located: loc.length, share: cs.length ? loc.length / cs.length : null, medianSpan: median(loc.map((c) => c.span)) };
  }
  return out;
}

// ------------------------------------------------------------------------------ main

/** lineInfo of the workspace's files, computed once each. */
function infoCache(texts) {
  const infos = new Map();
  return (p) => {
    if (!infos.has(p)) infos.set(p, score.lineInfo(texts.get(p), score.modeOfPath(p)));
    return infos.get(p);
  };
}

/** Runs the four configurations on the workspace and scores them; returns jscpd's version (or null). */
function runAll(o, ws, texts, copies, runs, evals) {
  const infoOf = infoCache(texts);
  const lineCount = (p) => (texts.has(p) ? infoOf(p).lineCount : 1);
  const configs = [
    ['neardup', () => runNeardup(o.cli, ws, o.pass, lineCount)],
    ['neardup-ni', () => runNeardup(o.cli, ws, o.pass.includes('--normalize-identifiers') ? o.pass : [...o.pass, '--normalize-identifiers'], lineCount)],
  ];
  let jscpdVersion = null;
  if (o.jscpd) {
    const { jscpdBinary, JSCPD_VERSION } = require('../scan-vs-jscpd');
    const bin = jscpdBinary();
    jscpdVersion = JSCPD_VERSION;
    const known = (p) => texts.has(p);
    configs.push(['jscpd', () => runJscpd(bin, ws, [], known)], ['jscpd-30', () => runJscpd(bin, ws, ['--min-tokens', '30'], known)]);
  }
  for (const [name, run] of configs) {
    log(`${name} …`);
    runs[name] = run();
    evals[name] = evaluate(runs[name], copies, texts, infoOf, mulberry32(fnv1a32(`locate:${o.seed}:judge:${name}`)));
  }
  return jscpdVersion;
}

function main(argv = process.argv.slice(2)) {
  const t0 = Date.now();
  const o = parseArgs(argv);
  if (!fs.existsSync(o.cli)) {
    console.error(`bench/quality/locate: ${o.cli} not found; build it first (node esbuild.js)`);
    return 2;
  }
  const manifest = ensureCorpus();
  const rng = mulberry32(fnv1a32(`locate:${o.seed}`));
  const files = material(manifest, o.subsets, mulberry32(fnv1a32(`locate:${o.seed}:material`)));
  const hasPy = files.some((f) => f.lang === 'py');
  const counts = copyCounts(o.copies, o.subsets, hasPy);
  const { copies, failed } = plan(files, counts, rng);
  const ws = o.workspace || fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-'));
  const runs = {};
  const evals = {};
  let texts;
  let hash;
  let tBuilt;
  let jscpdVersion = null;
  try {
    prepareDir(ws);
    ({ texts, hash } = materialise(files, copies, ws));
    tBuilt = Date.now();
    jscpdVersion = runAll(o, ws, texts, copies, runs, evals);
  } finally {
    if (!o.workspace) fs.rmSync(ws, { recursive: true, force: true });
  }
  const infoOf = infoCache(texts);
  const names = Object.keys(evals);

  // ------------------------------------------------------------------ print
  const nFiles = { code: 0, py: 0, en: 0, zh: 0 };
  for (const f of files) nFiles[f.lang]++;
  const nCopies = {};
  for (const c of copies) nCopies[c.lang] = (nCopies[c.lang] || 0) + 1;
  console.log(`bench/quality/locate — seed ${o.seed}, workspace ${hash}: ${files.length} files (JS/TS ${nFiles.code}, Python ${nFiles.py}, en ${nFiles.en}, zh ${nFiles.zh}), ${copies.length} planted copies (JS/TS ${nCopies.code || 0}, Python ${nCopies.py || 0}, en ${nCopies.en || 0}, zh ${nCopies.zh || 0})${failed.length ? `, ${failed.length} could not be planted` : ''}`);
  for (const n of names) console.log(`  ${n.padEnd(11)} ${runs[n].args.join(' ')}  (${runs[n].ms} ms, ${runs[n].pairs.length} pairs${runs[n].truncated ? ', TRUNCATED' : ''})`);
  console.log(`located: the pairs reported between a copy's places cover >= ${score.COVER} of its copied lines (code: no comment or blank lines) on both sides, within <= ${score.MAX_SPAN}x as many lines; a group (original + ${GROUP_PASTES} pastes) needs all ${((GROUP_PASTES + 1) * GROUP_PASTES) / 2} pairs of places`);

  const ids = (pred) => copies.filter(pred).map((c) => c.id);
  const rowsLoc = [];
  const rowsSpan = [];
  const cells = [];
  const addRow = (variant, subset, pred) => {
    const sel = ids(pred);
    if (!sel.length) return;
    const c = cell(sel, evals);
    cells.push({ variant, subset, ...c });
    rowsLoc.push([variant, subset, sel.length, ...names.map((n) => fmt(c[n].share))]);
    rowsSpan.push([variant, subset, sel.length, ...names.map((n) => `${fmt(c[n].medianSpan)} (${c[n].located})`)]);
  };
  for (const v of VARIANTS) for (const s of o.subsets) addRow(v, s, (c) => c.variant === v && c.subset === s);
  for (const s of o.subsets) addRow('all', s, (c) => c.subset === s);
  if (hasPy) {
    addRow('all', 'code: JS/TS', (c) => c.lang === 'code');
    addRow('all', 'code: Python', (c) => c.lang === 'py');
  }
  for (const v of VARIANTS) addRow(v, 'all', (c) => c.variant === v);
  addRow('ALL', 'all', () => true);
  console.log('\nlocated (share of planted copies)');
  console.log(table(rowsLoc, ['variant', 'subset', 'copies', ...names]));
  console.log('\nmedian span ratio of located copies (copied-kind lines in the linking ranges / copied lines, the worst side and pair of places); in parentheses: located copies');
  console.log(table(rowsSpan, ['variant', 'subset', 'copies', ...names]));

  const groups = copies.filter((c) => c.variant === 'group');
  if (groups.length) {
    const rows = [];
    for (const s of [...o.subsets, 'all']) {
      const gs = groups.filter((c) => s === 'all' || c.subset === s);
      if (!gs.length) continue;
      const per = (n, f) => fmt(gs.reduce((t, c) => t + f(evals[n].perCopy[c.id]), 0) / gs.length);
      rows.push([s, 'pairs of places located', gs.length, ...names.map((n) => per(n, (r) => r.pairsLocated / r.placePairs))]);
      rows.push([s, 'places connected', gs.length, ...names.map((n) => per(n, (r) => (r.connected ? 1 : 0)))]);
    }
    console.log(`\ngroups (original + ${GROUP_PASTES} pastes): share of their place pairs located, and of groups whose located pairs connect all places (a star or chain: not "located")`);
    console.log(table(rows, ['subset', '', 'copies', ...names]));
  }

  console.log('\nwhy not located (copies): no linking pair / linking pairs cover < half / cover but span > 3x');
  console.log(
    table(
      names.map((n) => {
        const pc = evals[n].perCopy;
        const k = (w) => pc.filter((c) => c.why === w).length;
        return [n, '', k('located'), k('no link'), k('cover'), k('span')];
      }),
      ['tool', '', 'located', 'no link', 'cover', 'span'],
    ),
  );

  console.log(`\nprecision: a reported pair is correct when its two ranges share token 3-shingles (bench/quality/tokenize.js): Jaccard or containment >= ${score.SIMILAR}, for code also on identifier-parameterised tokens`);
  const precCols = [...o.subsets, 'all'];
  console.log(
    table(
      names.map((n) => {
        const e = evals[n];
        return [n, '', e.reported, e.judged, ...precCols.map((s) => (e.precision[s] ? `${fmt(e.precision[s].precision, 3)} (${e.precision[s].judged})` : 'n/a'))];
      }),
      ['tool', '', 'reported', 'judged', ...precCols.map((s) => `P ${s} (pairs)`)],
    ),
  );
  const secs = (Date.now() - t0) / 1000;
  console.log(`\n${secs.toFixed(1)} s in all (workspace ${((tBuilt - t0) / 1000).toFixed(1)} s; ${names.map((n) => `${n} ${(runs[n].ms / 1000).toFixed(1)} s`).join(', ')})${o.workspace ? `; workspace kept in ${o.workspace}` : ''}`);

  // ------------------------------------------------------------------ JSON
  const results = {
    date: new Date().toISOString(),
    seed: o.seed,
    workspaceHash: hash,
    corpusHash: manifest.corpusHash,
    cli: path.relative(REPO, o.cli),
    pass: o.pass,
    jscpd: jscpdVersion,
    rules: { cover: score.COVER, maxSpan: score.MAX_SPAN, similar: score.SIMILAR, groupPastes: GROUP_PASTES, editRates: EDIT_RATE, away: AWAY },
    files: nFiles,
    failed,
    tools: Object.fromEntries(names.map((n) => [n, { args: runs[n].args, ms: runs[n].ms, stats: runs[n].stats, truncated: runs[n].truncated || null, reported: evals[n].reported, distinct: evals[n].distinct, judged: evals[n].judged, unknownPaths: evals[n].unknownPaths, precision: evals[n].precision, wrong: evals[n].wrong.slice(0, 50) }])),
    cells,
    copies: copies.map((c) => ({
      id: c.id,
      lang: c.lang,
      subset: c.subset,
      variant: c.variant,
      places: c.places.map((p) => ({ ...p, copied: score.countableIn(infoOf(p.file), [[p.start, p.end]]) })),
      edit: c.edit,
      results: Object.fromEntries(names.map((n) => [n, evals[n].perCopy[c.id]])),
    })),
    seconds: secs,
  };
  fs.mkdirSync(path.dirname(o.out), { recursive: true });
  fs.writeFileSync(o.out, JSON.stringify(results, null, 1));
  console.log(`results: ${path.relative(process.cwd(), o.out)}`);
  return 0;
}

module.exports = { main, parseArgs, copyCounts, evaluate, infoCache };

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`bench/quality/locate: ${e.stack || e.message}`);
    process.exitCode = 2;
  }
}
