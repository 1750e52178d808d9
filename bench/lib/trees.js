#!/usr/bin/env node
'use strict';
// Real source trees for the performance benchmarks, built from npm package tarballs.
//
//   node bench/lib/trees.js [small|large|all] [--force]
//
// bench/.cache/trees/<tree>/<name>@<version>/<path in package>, and bench/.cache/trees/<tree>.json
// (what was taken). Packages are added in PACKAGES order until the tree holds at least its target
// number of files or bytes (small: 5,000 files or 30 MB, large: 20,000 files), so the large
// tree holds the small one.
// Files are hard links into bench/.cache/extract when possible (no extra disk).
//
// What is kept, the same for every tool that scans the trees (so neither skips what the other reads):
//   JavaScript/TypeScript sources and Markdown (.js .mjs .cjs .jsx .ts .mts .cts .tsx .md),
//   at most 1 MB (below both tools' size limits: neardup 2 MB, jscpd 1 MB), not named *.min.*,
//   not minified by NearDup's own rule (average line > 500 chars, or a line > 5,000 chars in a file
//   of ≤ 20 lines: NearDup skips those after reading them; jscpd would not), no NUL bytes.
const fs = require('fs');
const path = require('path');
const { CACHE, packAll, extract, walk, log } = require('./common');

const TREES_DIR = path.join(CACHE, 'trees');
const BUILDER_VERSION = 2;
const TARGETS = { small: { files: 5000, bytes: 30e6 }, large: { files: 20000, bytes: Infinity } };

// Popular packages that ship readable source; ranges are pinned to the first version downloaded
// (bench/.cache/tarballs/specs.json). Version twins (rxjs 6/7, lodash/lodash-es, core-js 2/3) and
// multi-build packages (cjs + esm copies) give the near duplicates real trees have.
const PACKAGES = [
  // Mid-size files first (the small tree: ~5,000 files, ~30 MB).
  'three@~0.165.0',
  'typeorm@~0.3.20',
  'webpack@~5.92.0',
  'eslint@8.57.0',
  'moment@2.30.1',
  'highlight.js@~11.9.0',
  // Then many small files (the large tree: ~20,000 files).
  'lodash@4.17.21',
  'rxjs@7.8.1',
  'express@4.21.2',
  'axios@1.7.9',
  'core-js@~3.37.0',
  '@babel/core@~7.24.0',
  '@babel/traverse@~7.24.0',
  '@babel/types@~7.24.0',
  '@babel/parser@~7.24.0',
  '@babel/generator@~7.24.0',
  '@babel/helpers@~7.24.0',
  'd3-array@~3.2.0',
  'd3-scale@~4.0.0',
  'd3-shape@~3.2.0',
  'd3-geo@~3.1.0',
  'd3-selection@~3.0.0',
  'd3-force@~3.0.0',
  'd3-hierarchy@~3.1.0',
  'ramda@~0.30.0',
  'graphql@~16.9.0',
  'chart.js@~4.4.0',
  'immutable@~4.3.0',
  'luxon@~3.4.0',
  'dayjs@~1.11.11',
  'handlebars@4.7.8',
  'marked@~13.0.0',
  'markdown-it@~14.1.0',
  'yargs@~17.7.0',
  'ajv@8.17.1',
  'zod@~3.23.0',
  'joi@~17.13.0',
  'validator@~13.12.0',
  'async@3.2.5',
  'bluebird@3.7.2',
  'underscore@1.13.6',
  'sequelize@~6.37.0',
  'mongoose@~8.4.0',
  'postcss@~8.4.38',
  'less@~4.2.0',
  'terser@~5.31.0',
  'acorn@~8.12.0',
  'mocha@~10.5.0',
  'sinon@~18.0.0',
  'undici@~6.19.0',
  'fastify@~4.28.0',
  'koa@~2.15.0',
  'rxjs@6.6.7',
  'lodash-es@4.17.21',
  'core-js@~2.6.12',
  'mathjs@~13.0.0',
  'prismjs@1.29.0',
  'date-fns@2.30.0',
  '@babel/runtime@~7.24.0',
  'echarts@~5.5.0',
];

const KEEP_EXT = /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx|md)$/i;
const SKIP_NAME = /\.min\.[a-z]+$|(^|\/)(package-lock\.json|yarn\.lock)$/i;
const MAX_BYTES = 1024 * 1024;

/** NearDup's isMinified (src/node/files/decode.ts), on a UTF-8 text. */
function isMinified(text) {
  const len = text.length;
  if (len === 0) return false;
  let lines = 0;
  let longest = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? len : nl;
    if (end - start > longest) longest = end - start;
    lines++;
    if (nl < 0) break;
    start = nl + 1;
  }
  if (text.charCodeAt(len - 1) === 10) lines--;
  if (lines < 1) lines = 1;
  return len / lines > 500 || (longest > 5000 && lines <= 20);
}

function keep(rel, abs) {
  if (!KEEP_EXT.test(rel) || SKIP_NAME.test(rel)) return false;
  const st = fs.statSync(abs);
  if (st.size > MAX_BYTES) return false;
  const buf = fs.readFileSync(abs);
  if (buf.includes(0)) return false;
  return !isMinified(buf.toString('utf8'));
}

function linkOrCopy(src, dst) {
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  try {
    fs.linkSync(src, dst);
  } catch {
    fs.copyFileSync(src, dst);
  }
}

function treeInfoFile(name) {
  return path.join(TREES_DIR, `${name}.json`);
}

/** Returns { dir, files, bytes, packages } of a tree, building it when missing. */
function ensureTree(name, { force = false } = {}) {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown tree ${name}`);
  const dir = path.join(TREES_DIR, name);
  const infoFile = treeInfoFile(name);
  if (!force && fs.existsSync(infoFile)) {
    const info = JSON.parse(fs.readFileSync(infoFile, 'utf8'));
    if (info.builder === BUILDER_VERSION && fs.existsSync(dir)) return { ...info, dir };
  }
  const t0 = Date.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(infoFile, { force: true });
  let files = 0;
  let bytes = 0;
  const packages = [];
  // Pack in chunks, only as far as the target needs.
  const full = () => files >= target.files || bytes >= target.bytes;
  for (let i = 0; i < PACKAGES.length && !full(); i += 12) {
    const chunk = PACKAGES.slice(i, i + 12);
    const packed = packAll(chunk, 'trees');
    for (const spec of chunk) {
      if (full()) break;
      const info = packed[spec];
      const root = extract(info);
      const into = path.join(dir, `${info.name.replace('/', '+')}@${info.version}`);
      let n = 0;
      let b = 0;
      for (const rel of walk(root)) {
        const abs = path.join(root, rel);
        if (!keep(rel, abs)) continue;
        linkOrCopy(abs, path.join(into, rel));
        n++;
        b += fs.statSync(abs).size;
      }
      files += n;
      bytes += b;
      packages.push({ name: info.name, version: info.version, files: n, bytes: b });
    }
  }
  const info = { builder: BUILDER_VERSION, name, files, bytes, packages };
  fs.writeFileSync(infoFile, JSON.stringify(info, null, 2));
  log('trees', `${name}: ${files} files, ${(bytes / 1e6).toFixed(1)} MB from ${packages.length} packages (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return { ...info, dir };
}

/** The kept files of a tree: [{ rel, abs, bytes }], sorted. */
function treeFiles(tree) {
  return walk(tree.dir).map((rel) => ({ rel, abs: path.join(tree.dir, rel) }));
}

module.exports = { ensureTree, treeFiles, isMinified, TREES_DIR, PACKAGES };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const which = argv.find((a) => !a.startsWith('--')) || 'all';
  const force = argv.includes('--force');
  for (const name of which === 'all' ? ['small', 'large'] : [which]) {
    const t = ensureTree(name, { force });
    console.log(`${name}: ${t.dir} — ${t.files} files, ${(t.bytes / 1e6).toFixed(1)} MB, ${t.packages.length} packages`);
  }
}
