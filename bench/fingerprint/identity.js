#!/usr/bin/env node
'use strict';
// Output identity of fingerprinting: the engine of the working tree against the engine of a
// reference commit (by default the last commit before the fingerprinting speed-ups), on the same
// material, for every option. Any difference in a file fingerprint, sketch, token or feature
// count, section line range or section fingerprint is reported and makes the script exit 1.
//
//   node bench/fingerprint/identity.js [--ref <git rev>] [--quick] [--show 5] [--cache=false] [--native=false]
//
// The working tree's side fingerprints code through the native kernel (native/kernel.c) where it
// is built, as the product does; --native=false measures its TypeScript alone.
//
// The reference's `src/` is extracted with `git archive` into bench/results/ref-<sha>/ and
// bundled with the same esbuild settings as the working tree's; its digests are cached
// in bench/results/identity/ref-<sha>.json (keyed by the material and this script's version), so
// later runs compute only the working tree's side. `--quick` uses every 8th file of each set.
//
// Material: every JS/TS file of bench/.cache/trees/small; the CSS/HTML/Python/JSON/YAML/shell…
// files of bench/.cache/extract (other comment syntaxes); the prose of bench/quality's corpora
// (en, zh) and of the large tree; test/fixtures; a sample of code and prose relabelled with other
// extensions (other tokenisers and comment rules on real text); and seeded synthetic edge cases
// (Unicode identifiers, surrogates, CR/CRLF, unterminated strings and comments, CJK, apostrophes).
// Configurations: sections on/off, weighting none/tf/tfidf (DF table from countDocumentShingles,
// itself digested), normalised identifiers, stop words, jieba / bigram / odd segmenters, shingle
// sizes 1, 2, 3, 5 and minimum token counts 1 to 200; plus codeSections / proseSections
// called directly with non-default options.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { REPO, CACHE, parseArgs, walk, log, checkoutSrc, bundleEngine } = require('../lib/common');
const { ensureTree, treeFiles } = require('../lib/trees');

/** Bump when the material or the configurations change: invalidates cached reference digests. */
const HARNESS_VERSION = 1;
/** The last commit before the fingerprinting hot-path work (perf-fp branch). */
const DEFAULT_REF = '2d4983d';
const WORK = path.join(REPO, 'bench', 'results', 'identity');

// ------------------------------------------------------------------------------ engines

/** The entry point bundled for each side: what the harness calls, from `root`/src. */
function entrySource(root) {
  // A module by name, in the flat layout of older commits (src/core/m.ts) or in its room
  // (src/core/<room>/m.ts).
  const find = (layer, m) => {
    const dir = path.join(root, 'src', layer);
    if (fs.existsSync(path.join(dir, `${m}.ts`))) return path.join(dir, m);
    for (const room of fs.readdirSync(dir)) if (fs.existsSync(path.join(dir, room, `${m}.ts`))) return path.join(dir, room, m);
    return null;
  };
  const core = (m) => JSON.stringify(find('core', m));
  const node = (m) => JSON.stringify(find('node', m));
  return [
    `export { fingerprintText, countDocumentShingles } from ${core('fingerprint')};`,
    ...(find('core', 'codeSections')
      ? [`export { codeSections } from ${core('codeSections')};`, `export { proseSections } from ${core('proseSections')};`]
      : [`export { codeSections, proseSections } from ${core('sections')};`]),
    `export { DocumentFrequencyTable } from ${core('documentFrequency')};`,
    `export { loadCjkSegmenter, bigramSegmenter } from ${node('jieba')};`,
    ...(find('node', 'nativeKernel') ? [`export { nativeKernel, nativeKernelProblem } from ${node('nativeKernel')};`] : []),
    '',
  ].join('\n');
}

function bundle(root, name) {
  fs.mkdirSync(WORK, { recursive: true });
  const entry = path.join(WORK, `${name}-entry.ts`);
  fs.writeFileSync(entry, entrySource(root));
  return bundleEngine(entry, path.join(WORK, `${name}-engine.js`));
}

// ------------------------------------------------------------------------------ material

const isProse = (rel) => /\.(md|markdown|txt)$/i.test(rel);
const read = (abs, rel) => ({ path: rel, text: fs.readFileSync(abs, 'utf8') });

function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  'function ', 'const x = 1;', '{', '}', '(', ')', '[', ']', ';', '\n', '\r\n', '\r', '\t', '  ',
  '"str', '"a\\"b"', "'c'", "'", '`tpl ${x}`', '`', '/* c', '*/', '// line', '#', '# x', '#include',
  '--', '--[[', ']]', '<!--', '-->', ';;', '%', '0x1F', '3.14', '1.2.3', '1e10', '42n', '.5',
  'αβγ', 'Ωmega', 'naïve', 'über', '𝔘𝔫𝔦', '😀', '\ud800', '\udfff', '中文字符', '日本語', 'カタカナ',
  '한국어', '，', '。', '　', '\u00a0', '\ufeff', '\u2028', '\u2019', "don't", 'it’s', "x'y",
  'return /re[/]g/.test(s)', 'a / b / c', 'class A extends B {', '@decorator', 'export default',
  'import { a } from "b";', 'def f():\n    pass\n', 'if (a) {\n  b();\n}\n', '$var', '_id', 'ƒ',
  '\\', '\\\n', 'end', 'fi', '```', '~~~', '## Heading', 'Title\n=====', '---', '- item', '> quote',
  'The quick brown fox', 'and the of to', '的 了 是', '我们今天去公园', 'ABC', 'Zürich', '١٢٣',
];
const EXTENSIONS = ['js', 'ts', 'py', 'sql', 'lua', 'html', 'css', 'clj', 'tex', 'json', 'rs', 'md', 'txt', 'rb', 'c', 'unknownext', ''];

/** Seeded synthetic texts built from tricky fragments, under every extension. */
function synthetic(count) {
  const rnd = mulberry32(5150);
  const out = [];
  for (let i = 0; i < count; i++) {
    const parts = [];
    const len = Math.floor(rnd() * rnd() * 600);
    for (let j = 0; j < len; j++) {
      if (rnd() < 0.15) parts.push(String.fromCharCode(Math.floor(rnd() * 0x3100)));
      else parts.push(FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)]);
      if (rnd() < 0.3) parts.push(rnd() < 0.5 ? ' ' : '\n');
    }
    const ext = EXTENSIONS[i % EXTENSIONS.length];
    out.push({ path: `synthetic/s${i}${ext ? '.' + ext : ''}`, text: parts.join('') });
  }
  return out;
}

function every(files, n) {
  return files.filter((_, i) => i % n === 0);
}

function loadMaterial(quick) {
  const thin = (files, n = 1) => every(files, quick ? n * 8 : n);
  const code = [];
  for (const f of treeFiles(ensureTree('small'))) if (!isProse(f.rel)) code.push(read(f.abs, f.rel));
  const other = [];
  const otherExt = /\.(css|scss|less|html|py|json|ya?ml|sh|cmd|ps1)$/i;
  const extract = path.join(CACHE, 'extract');
  for (const rel of walk(extract)) {
    if (!otherExt.test(rel)) continue;
    const abs = path.join(extract, rel);
    if (fs.statSync(abs).size > 1 << 20) continue;
    other.push(read(abs, `extract/${rel}`));
  }
  const prose = [];
  for (const lang of ['en', 'zh']) {
    const dir = path.join(CACHE, 'corpus', lang);
    if (!fs.existsSync(dir)) continue;
    for (const rel of walk(dir)) if (isProse(rel)) prose.push(read(path.join(dir, rel), `corpus-${lang}/${rel}`));
  }
  for (const f of treeFiles(ensureTree('large'))) if (isProse(f.rel)) prose.push(read(f.abs, f.rel));
  const fixtures = path.join(REPO, 'test', 'fixtures');
  for (const rel of walk(fixtures)) {
    const f = read(path.join(fixtures, rel), `fixtures/${rel}`);
    (isProse(rel) ? prose : code).push(f);
  }
  // Real text under other languages' rules: code as Python, SQL, Lua…, prose as code, code as prose.
  const relabelled = [];
  const codeSample = every(code, 40);
  codeSample.forEach((f, i) => {
    const ext = EXTENSIONS[i % EXTENSIONS.length];
    relabelled.push({ path: `relabelled/${f.path}.${ext || 'noext'}`, text: f.text });
  });
  every(prose, 6).forEach((f) => relabelled.push({ path: `relabelled/${f.path}.js`, text: f.text }));
  return {
    code: thin(code),
    other: thin(other),
    prose: thin(prose),
    relabelled: thin(relabelled),
    synthetic: thin(synthetic(3000)),
  };
}

// ------------------------------------------------------------------------------ configurations

/** A segmenter that does odd things: empty words, words not in the run, repeats, long words. */
function oddSegmenter(run) {
  const words = [];
  for (let i = 0; i < run.length; i += 3) words.push(run.slice(i, i + 3));
  if (run.length > 4) words.splice(1, 0, '', 'zz', run.slice(0, 2), run);
  return words;
}

function configurations(E, M, kernel) {
  const jieba = E.loadCjkSegmenter(() => {}).segmenter;
  const allCode = [...M.code, ...M.other];
  const tfidf = (files, base) => {
    const table = new E.DocumentFrequencyTable();
    for (const f of files) E.countDocumentShingles(f.text, f.path, base, table);
    return { table, options: { ...base, weighting: 'tfidf', idf: table.idf } };
  };
  const fp = (files, options) => ({ files, run: (f) => E.fingerprintText(f.text, f.path, { ...options, kernel }) });
  const configs = {
    'code default': fp(allCode, {}),
    'code file only': fp(allCode, { sections: false }),
    'code normalize': fp(allCode, { normalizeIdentifiers: true }),
    'code tf': fp(allCode, { weighting: 'tf' }),
    'code k=1 min 10': fp(every(allCode, 2), { shingleSize: 1, minTokens: 10 }),
    'code k=2 min 1': fp(every(allCode, 3), { shingleSize: 2, minTokens: 1 }),
    'code k=5 min 200': fp(every(allCode, 3), { shingleSize: 5, minTokens: 200 }),
    'prose bigram': fp(M.prose, {}),
    'prose jieba': fp(M.prose, { segmenter: jieba }),
    'prose jieba stop words': fp(M.prose, { segmenter: jieba, stopWords: true }),
    'prose file only': fp(M.prose, { sections: false, segmenter: jieba }),
    'prose tf': fp(M.prose, { weighting: 'tf', segmenter: jieba }),
    'prose odd segmenter k=1 min 1': fp(M.prose, { segmenter: oddSegmenter, shingleSize: 1, minTokens: 1, stopWords: true }),
    'relabelled default': fp(M.relabelled, { segmenter: jieba }),
    'relabelled normalize stop words': fp(M.relabelled, { normalizeIdentifiers: true, stopWords: true }),
    'synthetic default': fp(M.synthetic, { segmenter: jieba }),
    'synthetic min 1': fp(M.synthetic, { minTokens: 1, segmenter: oddSegmenter }),
    'synthetic k=2 min 5 normalize stop tf': fp(M.synthetic, { minTokens: 5, shingleSize: 2, normalizeIdentifiers: true, stopWords: true, weighting: 'tf' }),
  };
  // TF-IDF: the document-frequency pass (digested: documents and a hash of the counts) then the
  // weighted fingerprints.
  for (const [name, files, base] of [
    ['code tfidf', allCode, {}],
    ['prose tfidf', M.prose, { segmenter: jieba, stopWords: true }],
    ['synthetic tfidf k=2 min 3', M.synthetic, { shingleSize: 2, minTokens: 3 }],
  ]) {
    let state;
    configs[`${name} (df table)`] = {
      files: [{ path: '(table)', text: '' }],
      run: () => {
        state = tfidf(files, base);
        return { documents: state.table.documents, counts: crypto.createHash('sha1').update(state.table.counts).digest('hex') };
      },
    };
    configs[name] = { files, run: (f) => E.fingerprintText(f.text, f.path, { ...state.options, kernel }) };
  }
  const sectionsOnly = (files, fn) => ({ files, run: (f) => fn(f.text) });
  configs['codeSections depth 1 lines 2'] = sectionsOnly(every(allCode, 2), (t) => E.codeSections(t, { maxDepth: 1, minLines: 2 }));
  configs['codeSections depth 3 lines 5'] = sectionsOnly(every(allCode, 2), (t) => E.codeSections(t, { maxDepth: 3, minLines: 5 }));
  configs['codeSections synthetic'] = sectionsOnly(M.synthetic, (t) => E.codeSections(t));
  configs['proseSections 10 lines 300 chars'] = sectionsOnly(M.prose, (t) => E.proseSections(t, { maxLines: 10, maxChars: 300 }));
  configs['proseSections synthetic'] = sectionsOnly(M.synthetic, (t) => E.proseSections(t, { maxLines: 5 }));
  return configs;
}

// ------------------------------------------------------------------------------ digests

/** A canonical text form of any result (typed arrays as hex words). */
function canonical(v) {
  return JSON.stringify(v, (_k, x) => (x instanceof Uint32Array ? Array.from(x, (w) => w.toString(16)).join(',') : x));
}

const digest = (s) => crypto.createHash('sha1').update(s).digest('base64').slice(0, 16);

/** { config: { file: digest } } for one engine. */
function digestAll(E, M, only, kernel) {
  const result = {};
  for (const [name, c] of Object.entries(configurations(E, M, kernel))) {
    if (only && !only(name)) continue;
    const per = {};
    for (const f of c.files) per[f.path] = digest(canonical(c.run(f)));
    result[name] = per;
  }
  return result;
}

function materialKey(M) {
  const h = crypto.createHash('sha1');
  for (const [set, files] of Object.entries(M)) {
    h.update(set);
    for (const f of files) h.update(f.path).update('\0').update(f.text).update('\0');
  }
  return `v${HARNESS_VERSION}-${h.digest('hex').slice(0, 16)}`;
}

// ------------------------------------------------------------------------------ main

function main(argv) {
  const o = parseArgs(argv, { ref: DEFAULT_REF, quick: false, show: 5, cache: true, native: true });
  const M = loadMaterial(o.quick);
  const counts = Object.entries(M).map(([k, v]) => `${k} ${v.length}`).join(', ');
  const chars = Object.values(M).flat().reduce((s, f) => s + f.text.length, 0);
  log('identity', `material: ${counts} (${(chars / 1e6).toFixed(1)} M chars)`);
  const key = materialKey(M);

  const { sha, root } = checkoutSrc(o.ref);
  const cacheFile = path.join(WORK, `ref-${sha.slice(0, 12)}-${key}.json`);
  let ref;
  if (o.cache && fs.existsSync(cacheFile)) {
    ref = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    log('identity', `reference ${sha.slice(0, 10)}: cached digests`);
  } else {
    log('identity', `reference ${sha.slice(0, 10)}: fingerprinting…`);
    ref = digestAll(bundle(root, 'ref'), M);
    fs.writeFileSync(cacheFile, JSON.stringify(ref));
  }
  log('identity', 'working tree: fingerprinting…');
  const Ecur = bundle(REPO, 'current');
  const kernel = o.native && Ecur.nativeKernel ? Ecur.nativeKernel() : undefined;
  log('identity', kernel ? 'working tree: code through the native kernel' : `working tree: TypeScript alone${o.native && Ecur.nativeKernelProblem ? ` (native kernel ${Ecur.nativeKernelProblem()})` : ''}`);
  const t0 = Date.now();
  const cur = digestAll(Ecur, M, undefined, kernel);
  log('identity', `working tree done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  let bad = 0;
  let total = 0;
  const mismatches = [];
  for (const name of Object.keys(ref)) {
    let n = 0;
    const files = Object.keys(ref[name]);
    for (const file of files) {
      total++;
      if (!cur[name] || cur[name][file] !== ref[name][file]) {
        n++;
        if (mismatches.length < o.show) mismatches.push({ name, file });
      }
    }
    bad += n;
    console.log(`${n === 0 ? 'same' : 'DIFF'}  ${name.padEnd(40)} ${files.length} files${n ? `, ${n} differ` : ''}`);
  }
  if (mismatches.length) {
    const Eref = bundle(root, 'ref');
    const M2 = Object.fromEntries(Object.entries(M).map(([k, v]) => [k, v]));
    const cfgRef = configurations(Eref, M2);
    const cfgCur = configurations(Ecur, M2, kernel);
    for (const { name, file } of mismatches) {
      const f = cfgRef[name].files.find((x) => x.path === file);
      if (name.endsWith('tfidf')) {
        cfgRef[`${name} (df table)`].run();
        cfgCur[`${name} (df table)`].run();
      }
      console.log(`\n--- ${name}: ${file}\nref: ${canonical(cfgRef[name].run(f)).slice(0, 1500)}\ncur: ${canonical(cfgCur[name].run(f)).slice(0, 1500)}`);
    }
  }
  console.log(`\n${bad === 0 ? 'IDENTICAL' : 'DIFFERENT'}: ${total - bad}/${total} outputs match the reference ${sha.slice(0, 10)} (${Object.keys(ref).length} configurations)`);
  process.exitCode = bad === 0 ? 0 : 1;
}

if (require.main === module) main(process.argv.slice(2));
