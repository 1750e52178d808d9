#!/usr/bin/env node
'use strict';
// Ground truth for bench/quality: the exact Jaccard similarity of the token 3-shingle SETS of
// every pair of files in the same subset (see tokenize.js for the tokens).
//
//   node bench/quality/truth.js [--force]
//
// All pairs, exactly: an inverted index shingle -> files, and a dense N×N intersection matrix
// filled by walking every posting list (no cap on frequent shingles, so no undercounting).
// Pairs with J >= STORE_MIN are written to bench/.cache/truth.json, keyed by the corpus hash;
// run.js computes the (rare) lower values it needs on demand with exactJaccard().
const fs = require('fs');
const path = require('path');
const { tokens, shingleSet, jaccard, modeOf, TOKENIZER_VERSION, K } = require('./tokenize');
const { ensureCorpus, CORPUS, CACHE, SUBSETS } = require('./corpus');

const TRUTH_FILE = path.join(CACHE, 'truth.json');
const STORE_MIN = 0.3;

function log(...a) {
  console.error('[truth]', ...a);
}

function fileShingles(p) {
  const text = fs.readFileSync(path.join(CORPUS, p), 'utf8');
  const toks = tokens(text, modeOf(p));
  return { tokens: toks.length, set: shingleSet(toks, K) };
}

function computeSubset(paths) {
  const N = paths.length;
  const sets = paths.map(fileShingles);
  const index = new Map();
  sets.forEach(({ set }, id) => {
    for (const s of set) {
      const l = index.get(s);
      if (l) l.push(id);
      else index.set(s, [id]);
    }
  });
  const inter = new Uint32Array(N * N);
  let work = 0;
  for (const l of index.values()) {
    const n = l.length;
    if (n < 2) continue;
    work += (n * (n - 1)) / 2;
    for (let x = 0; x < n; x++) {
      const row = l[x] * N;
      for (let y = x + 1; y < n; y++) inter[row + l[y]]++;
    }
  }
  const pairs = [];
  let positives = 0;
  for (let a = 0; a < N; a++) {
    const sa = sets[a].set.size;
    for (let b = a + 1; b < N; b++) {
      const i = inter[a * N + b];
      if (!i) continue;
      const j = i / (sa + sets[b].set.size - i);
      if (j >= STORE_MIN) pairs.push([a, b, Math.round(j * 1e6) / 1e6]);
      if (j >= 0.9) positives++;
    }
  }
  return {
    files: paths.map((p, i) => ({ path: p, tokens: sets[i].tokens, shingles: sets[i].set.size })),
    pairs,
    stats: { files: N, distinctShingles: index.size, postingPairs: work, storedPairs: pairs.length, positives90: positives },
  };
}

function ensureTruth({ force = false, manifest } = {}) {
  manifest = manifest || ensureCorpus();
  const key = `${manifest.corpusHash}:t${TOKENIZER_VERSION}:k${K}:m${STORE_MIN}`;
  if (!force && fs.existsSync(TRUTH_FILE)) {
    try {
      const t = JSON.parse(fs.readFileSync(TRUTH_FILE, 'utf8'));
      if (t.key === key) return t;
    } catch {
      /* rebuild */
    }
  }
  const t0 = Date.now();
  const truth = { key, corpusHash: manifest.corpusHash, k: K, tokenizerVersion: TOKENIZER_VERSION, storeMin: STORE_MIN, subsets: {} };
  for (const subset of SUBSETS) {
    const paths = Object.keys(manifest.files).filter((p) => manifest.files[p].subset === subset).sort();
    const t1 = Date.now();
    truth.subsets[subset] = computeSubset(paths);
    log(`${subset}: ${paths.length} files, ${JSON.stringify(truth.subsets[subset].stats)} in ${Date.now() - t1} ms`);
  }
  fs.writeFileSync(TRUTH_FILE, JSON.stringify(truth));
  log(`truth written in ${Date.now() - t0} ms -> ${path.relative(process.cwd(), TRUTH_FILE)}`);
  return truth;
}

/** Exact Jaccard of two corpus files (paths relative to the corpus root). */
function exactJaccard(a, b) {
  return jaccard(fileShingles(a).set, fileShingles(b).set);
}

module.exports = { ensureTruth, exactJaccard, computeSubset, fileShingles, TRUTH_FILE };

if (require.main === module) ensureTruth({ force: process.argv.includes('--force') });
