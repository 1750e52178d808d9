#!/usr/bin/env node
'use strict';
// Builds the bench/quality corpus from real npm packages (pinned versions) plus seeded mutants.
//
//   node bench/quality/corpus.js [--force] [--mutants N]
//
// --mutants N: files mutated per subset (default 36; each at every rate). The choice is a
// seeded round-robin over packages, so the first 12 are those of a corpus built with 12.
//
// Layout (all under bench/.cache/, git-ignored):
//   tarballs/<name>-<version>.tgz          npm pack output (downloaded once)
//   extract/<name>@<version>/package/...   unpacked tarballs
//   corpus/<subset>/<name>@<version>/<path inside the package>
//   corpus/zh/seeds/<file>.txt             the Chinese SimHash articles in shared/seeds (if present)
//   corpus/<subset>/mutants/rNN/<path of the source inside the subset>
//   corpus/manifest.json                   every file: subset, kind, package, version, twin key,
//                                          and for mutants: rate, source, edited tokens
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { tokens, modeOf, extOf } = require('./tokenize');
const { mutate, mulberry32, fnv1a32 } = require('./mutate');

const BUILDER_VERSION = 3;
const REPO = path.resolve(__dirname, '..', '..');
const CACHE = path.join(REPO, 'bench', '.cache');
const TARBALLS = path.join(CACHE, 'tarballs');
const EXTRACT = path.join(CACHE, 'extract');
const CORPUS = path.join(CACHE, 'corpus');
const SEEDS = process.env.NEARDUP_SEEDS || path.resolve(REPO, '..', 'shared', 'seeds');

const SUBSETS = ['code', 'en', 'zh'];
const RATES = [1, 2, 5, 10, 15, 20, 25, 35]; // percent
const MUTANT_SOURCES = 36; // per subset, by default (--mutants N): 36 so that a recall of 0.95 per rate means something
const SEED = 20240601;
const MIN_BYTES = 200;
const MIN_TOKENS = 100; // truth tokens; SimHash is unreliable on shorter texts (DESIGN.md, 'Short texts')
const MAX_BYTES = 500 * 1024;
const MAX_LINE = 1000; // longer lines => minified / generated: skipped

// What to take from each package. Paths are relative to the package root (tar's "package/").
const PACKAGES = [
  // --- code: version twins (real edits between releases) ---
  { name: 'express', versions: ['4.18.2', '4.21.2'], pick: [['code', /^lib\/.+\.js$/], ['en', /^(Readme|History)\.md$/]] },
  { name: 'axios', versions: ['1.6.8', '1.7.9'], pick: [['code', /^lib\/.+\.js$/], ['en', /^(README|CHANGELOG|MIGRATION_GUIDE)\.md$|^lib\/.+\.md$/]] },
  { name: 'semver', versions: ['7.5.4', '7.6.3'], pick: [['code', /^(classes|functions|ranges|internal|bin)\/.+\.js$|^index\.js$/], ['en', /^README\.md$/]] },
  { name: 'commander', versions: ['11.1.0', '12.1.0'], pick: [['code', /^(lib\/.+\.js|index\.js|esm\.mjs|typings\/index\.d\.ts)$/], ['en', /^Readme\.md$/]] },
  // --- code: transpiled twins (TypeScript source beside its compiled CommonJS) + version twins ---
  { name: 'ajv', versions: ['8.12.0', '8.17.1'], pick: [['code', /^lib\/.+\.ts$|^dist\/.+\.js$/]] },
  // rxjs: TypeScript operators beside the ES2015 output (types stripped, same module syntax)
  { name: 'rxjs', versions: ['7.8.1'], pick: [['code', /^src\/internal\/operators\/.+\.ts$|^dist\/esm\/internal\/operators\/.+\.js$/]] },
  // --- English prose: npm's documentation at two majors ---
  { name: 'npm', versions: ['9.9.3', '10.8.2'], pick: [['en', /^docs\/content\/.+\.md$/]] },
  // --- nodeschool workshoppers: English + Simplified/Traditional Chinese lessons, two versions ---
  {
    name: 'javascripting',
    versions: ['2.6.1', '2.7.4'],
    pick: [['en', /^problems\/[^/]+\/(problem|solution)\.md$/], ['zh', /^problems\/[^/]+\/(problem|solution)_zh-(cn|tw)\.md$/]],
  },
  {
    name: 'learnyounode',
    versions: ['3.5.10', '4.2.2'],
    pick: [['en', /^exercises\/[^/]+\/problem\.md$/], ['zh', /^exercises\/[^/]+\/problem\.zh-(cn|tw)\.md$/]],
  },
  {
    name: 'expressworks',
    versions: ['3.4.3'],
    pick: [['en', /^exercises\/[^/]+\/problem\.md$|^README\.md$/], ['zh', /^exercises\/[^/]+\/problem\.zh-(cn|tw)\.md$|^README\.zh_(CN|TW)\.md$/]],
  },
  { name: 'learnyoumongo', versions: ['3.2.1'], pick: [['en', /^exercises\/[^/]+\/problem\.md$/], ['zh', /^exercises\/[^/]+\/problem\.zh-cn\.md$/]] },
];

const SKIP_NAME = /(^|\/)(package\.json|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json)$|\.min\.[cm]?js$|\.map$/;

/** Key shared by twins inside one package: drops src/lib/dist(/cjs|esm) prefixes, extensions and zh locales. */
function twinKey(rel) {
  let k = rel.replace(/^(src|lib|dist)\/(cjs\/|esm5?\/)?/, '');
  k = k.replace(/\.d\.ts$/, '').replace(/\.[a-z]+$/i, '');
  k = k.replace(/[._-]zh[-_](cn|tw)$/i, '');
  return k;
}

function log(...a) {
  console.error('[corpus]', ...a);
}

function ensureTarball(name, version) {
  fs.mkdirSync(TARBALLS, { recursive: true });
  const file = path.join(TARBALLS, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (!fs.existsSync(file)) {
    log(`npm pack ${name}@${version}`);
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', TARBALLS, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (!fs.existsSync(file)) throw new Error(`npm pack did not produce ${file}`);
  }
  return file;
}

function ensureExtracted(name, version, tgz) {
  const dir = path.join(EXTRACT, `${name}@${version}`);
  const marker = path.join(dir, '.done');
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', tgz, '-C', dir], { stdio: 'inherit' });
    fs.writeFileSync(marker, '');
  }
  return path.join(dir, 'package');
}

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Why a file is not benchmark material, or null. */
function reject(rel, buf) {
  if (SKIP_NAME.test(rel)) return 'name';
  if (!modeOf(rel)) return 'type';
  if (buf.length < MIN_BYTES) return 'small';
  if (buf.length > MAX_BYTES) return 'large';
  if (buf.includes(0)) return 'binary';
  const text = buf.toString('utf8');
  if (text.split('\n').some((l) => l.length > MAX_LINE)) return 'long-lines';
  if (tokens(text, modeOf(rel)).length < MIN_TOKENS) return 'few-tokens';
  return null;
}

function sha256(x) {
  return crypto.createHash('sha256').update(x).digest('hex');
}

function build({ mutantSources = MUTANT_SOURCES } = {}) {
  const t0 = Date.now();
  fs.rmSync(CORPUS, { recursive: true, force: true });
  const files = {};
  const skipped = {};
  const packages = [];

  const add = (subset, relInSubset, text, meta) => {
    const p = `${subset}/${relInSubset}`;
    const abs = path.join(CORPUS, p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    files[p] = { subset, ...meta, bytes: Buffer.byteLength(text), sha256: sha256(text) };
  };

  for (const pkg of PACKAGES) {
    for (const version of pkg.versions) {
      const tgz = ensureTarball(pkg.name, version);
      const root = ensureExtracted(pkg.name, version, tgz);
      packages.push({ name: pkg.name, version, tarball: path.basename(tgz), sha256: sha256(fs.readFileSync(tgz)) });
      for (const rel of walk(root)) {
        const rule = pkg.pick.find(([, re]) => re.test(rel));
        if (!rule) continue;
        const buf = fs.readFileSync(path.join(root, rel));
        const why = reject(rel, buf);
        if (why) {
          skipped[why] = (skipped[why] || 0) + 1;
          continue;
        }
        add(rule[0], `${pkg.name}@${version}/${rel}`, buf.toString('utf8'), {
          kind: 'natural',
          pkg: pkg.name,
          version,
          rel,
          twinKey: twinKey(rel),
        });
      }
    }
  }

  if (fs.existsSync(SEEDS)) {
    for (const rel of walk(SEEDS)) {
      const buf = fs.readFileSync(path.join(SEEDS, rel));
      if (reject(rel, buf)) continue;
      add('zh', `seeds/${rel}`, buf.toString('utf8'), { kind: 'natural', pkg: 'seeds', version: '', rel, twinKey: twinKey(rel) });
    }
  } else {
    log(`note: ${SEEDS} not found, the zh subset has no seed articles`);
  }

  // Mutants: per subset, MUTANT_SOURCES mid-sized files, round-robin over packages, each mutated
  // at every rate with its own deterministic PRNG stream.
  const rng = mulberry32(SEED);
  for (const subset of SUBSETS) {
    const byPkg = new Map();
    for (const [p, f] of Object.entries(files)) {
      if (f.subset !== subset || f.kind !== 'natural') continue;
      const n = tokens(fs.readFileSync(path.join(CORPUS, p), 'utf8'), modeOf(p)).length;
      if (n < 250 || n > 8000) continue;
      if (!byPkg.has(f.pkg)) byPkg.set(f.pkg, []);
      byPkg.get(f.pkg).push(p);
    }
    // deterministic shuffle per package, then round-robin, one file per twin key
    const queues = [...byPkg.keys()].sort().map((k) => {
      const arr = byPkg.get(k).slice();
      for (let i = arr.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [arr[i], arr[j]] = [arr[j], arr[i]];
      }
      return arr;
    });
    const chosen = [];
    const keys = new Set();
    while (chosen.length < mutantSources && queues.some((q) => q.length)) {
      for (const q of queues) {
        while (q.length) {
          const p = q.shift();
          const key = files[p].pkg + ':' + files[p].twinKey;
          if (keys.has(key)) continue;
          keys.add(key);
          chosen.push(p);
          break;
        }
        if (chosen.length >= mutantSources) break;
      }
    }
    for (const src of chosen) {
      const text = fs.readFileSync(path.join(CORPUS, src), 'utf8');
      const inSubset = src.slice(subset.length + 1);
      for (const rate of RATES) {
        const r = mulberry32(fnv1a32(`${SEED}:${src}:${rate}`));
        const m = mutate(text, modeOf(src), subset, rate / 100, r);
        add(subset, `mutants/r${String(rate).padStart(2, '0')}/${inSubset}`, m.text, {
          kind: 'mutant',
          pkg: files[src].pkg,
          version: files[src].version,
          rel: files[src].rel,
          twinKey: files[src].twinKey,
          source: src,
          rate,
          tokens: m.tokens,
          editedTokens: m.edited,
          ops: m.ops,
        });
      }
    }
  }

  const sorted = Object.keys(files).sort();
  const corpusHash = sha256(sorted.map((p) => `${p}\t${files[p].sha256}`).join('\n')).slice(0, 16);
  const manifest = {
    builderVersion: BUILDER_VERSION,
    corpusHash,
    created: new Date().toISOString(),
    seed: SEED,
    rates: RATES,
    mutantSources,
    limits: { minBytes: MIN_BYTES, maxBytes: MAX_BYTES, maxLine: MAX_LINE, minTokens: MIN_TOKENS },
    packages,
    skipped,
    counts: Object.fromEntries(
      SUBSETS.map((s) => [
        s,
        {
          natural: sorted.filter((p) => files[p].subset === s && files[p].kind === 'natural').length,
          mutant: sorted.filter((p) => files[p].subset === s && files[p].kind === 'mutant').length,
        },
      ]),
    ),
    files: Object.fromEntries(sorted.map((p) => [p, files[p]])),
  };
  fs.writeFileSync(path.join(CORPUS, 'manifest.json'), JSON.stringify(manifest, null, 1));
  log(`built ${sorted.length} files in ${Date.now() - t0} ms, hash ${corpusHash}`, JSON.stringify(manifest.counts), 'skipped', JSON.stringify(skipped));
  return manifest;
}

function loadManifest() {
  try {
    return JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The manifest, building the corpus first when it is missing, stale or made with another number
 * of mutated files (mutantSources; default: the corpus as it is, or MUTANT_SOURCES when none).
 */
function ensureCorpus({ force = false, mutantSources } = {}) {
  const m = loadManifest();
  const wanted = mutantSources ?? (m && m.builderVersion === BUILDER_VERSION ? m.mutantSources : MUTANT_SOURCES);
  if (!force && m && m.builderVersion === BUILDER_VERSION && m.mutantSources === wanted) return m;
  return build({ mutantSources: wanted });
}

/** `--mutants N` of argv (a whole number >= 1), or undefined. */
function mutantsArg(argv) {
  const i = argv.findIndex((a) => a === '--mutants' || a.startsWith('--mutants='));
  if (i < 0) return undefined;
  const v = Number(argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1]);
  if (!Number.isInteger(v) || v < 1) throw new Error('--mutants takes a whole number >= 1');
  return v;
}

module.exports = { ensureCorpus, loadManifest, build, mutantsArg, CORPUS, CACHE, REPO, SUBSETS, RATES, MUTANT_SOURCES, twinKey, extOf };

if (require.main === module) ensureCorpus({ force: process.argv.includes('--force'), mutantSources: mutantsArg(process.argv.slice(2)) });
