#!/usr/bin/env node
// Writes one .vsix per VS Code target (scripts/lib/platformTargets.js), each with exactly its own
// @node-rs/jieba binary, the WebAssembly kernel, the native kernel only for the machine's own
// target, and never jieba's idf.txt; checks each package it wrote (scripts/lib/checkPackage.js)
// and prints its size. See docs/packaging.md.
//
//   node scripts/package-all.js [--out DIR] [--targets a,b] [--cache DIR] [--no-build]
//
// --out      where the packages go (default dist-packages/, git-ignored), named
//            neardup-<target>-<version>.vsix
// --cache    where the npm-packed jieba platform tarballs are kept (default .cache/jieba/)
// --no-build package the dist/ that is there (default: the production build of
//            `vscode:prepublish` first: typecheck, native kernel, minified bundles)
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { TARGETS, JIEBA_FILES, COMMON, EXTRAS, hostTarget, targetRow } = require('./lib/platformTargets');
const { fetchLocked, readTarball } = require('./lib/jiebaBinaries');
const { checkPackage, MAX_PACKAGE_BYTES } = require('./lib/checkPackage');

const ROOT = path.resolve(__dirname, '..');

function parseArgs(argv) {
  const opts = { out: path.join(ROOT, 'dist-packages'), cache: path.join(ROOT, '.cache', 'jieba'), targets: TARGETS.map((t) => t.target), build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') opts.out = path.resolve(argv[++i]);
    else if (a === '--cache') opts.cache = path.resolve(argv[++i]);
    else if (a === '--targets') opts.targets = argv[++i].split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--no-build') opts.build = false;
    else throw new Error(`unknown argument ${a}`);
  }
  for (const t of opts.targets) targetRow(t);
  return opts;
}

/** Files under `dir` (relative, forward slashes), recursively. */
function walk(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

function put(stage, rel, data) {
  const to = path.join(stage, rel);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (Buffer.isBuffer(data) || typeof data === 'string') fs.writeFileSync(to, data);
  else fs.copyFileSync(data.from, to);
}

/**
 * The package.json that ships: the repository's, without `vscode:prepublish` (the build ran once
 * for all targets) and with the one runtime dependency left outside the bundles (vsce asks
 * `npm list --production` which node_modules folders to pack). `web` has none.
 */
function stagedManifest(manifest, row, jiebaVersion) {
  const m = JSON.parse(JSON.stringify(manifest));
  if (m.scripts) delete m.scripts['vscode:prepublish'];
  m.dependencies = row.jieba ? { '@node-rs/jieba': jiebaVersion } : {};
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** Lays out the extension folder of one target in `stage`; returns whether it holds the native kernel. */
function stageTarget(stage, row, { cache, host }) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const jiebaDir = path.join(ROOT, 'node_modules', '@node-rs', 'jieba');
  const jiebaVersion = JSON.parse(fs.readFileSync(path.join(jiebaDir, 'package.json'), 'utf8')).version;
  put(stage, 'package.json', stagedManifest(manifest, row, jiebaVersion));
  // Everything is listed above; vsce's own defaults still apply.
  put(stage, '.vscodeignore', '# scripts/package-all.js stages exactly the files to ship.\n');
  for (const f of COMMON.files) put(stage, f, { from: path.join(ROOT, f) });
  for (const d of COMMON.dirs) for (const f of walk(path.join(ROOT, d))) put(stage, `${d}/${f}`, { from: path.join(ROOT, d, f) });
  for (const f of walk(path.join(ROOT, 'dist'))) if (COMMON.dist(f)) put(stage, `dist/${f}`, { from: path.join(ROOT, 'dist', f) });
  for (const f of (EXTRAS[row.target] && EXTRAS[row.target].dist) || []) put(stage, f, { from: path.join(ROOT, f) });
  const native = path.join(ROOT, 'dist', 'neardup_kernel.node');
  const nativeKernel = row.target === host && fs.existsSync(native);
  if (nativeKernel) put(stage, 'dist/neardup_kernel.node', { from: native });
  if (row.jieba) {
    for (const f of JIEBA_FILES) put(stage, `node_modules/@node-rs/jieba/${f}`, { from: path.join(jiebaDir, f) });
    const name = `@node-rs/jieba-${row.jieba}`;
    const tgz = readTarball(fetchLocked(ROOT, name, cache).file);
    const binary = `jieba.${row.jieba}.node`;
    if (!tgz.has(binary)) throw new Error(`${name} holds no ${binary}`);
    put(stage, `node_modules/${name}/package.json`, tgz.get('package.json'));
    put(stage, `node_modules/${name}/${binary}`, tgz.get(binary));
  }
  return nativeKernel;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.build) execSync('npm run vscode:prepublish', { cwd: ROOT, stdio: 'inherit' });
  for (const f of ['dist/extension.js', 'dist/neardup_kernel.wasm']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run the build first (or drop --no-build)`);
  }
  const host = hostTarget();
  if (opts.targets.includes(host) && !fs.existsSync(path.join(ROOT, 'dist', 'neardup_kernel.node'))) {
    console.warn(`warning: no native kernel in dist/ (scripts/build-native.js): the ${host} package will use the WebAssembly kernel`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createVSIX } = require('@vscode/vsce');
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.mkdirSync(opts.out, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-stage-'));
  const results = [];
  try {
    for (const target of opts.targets) {
      const row = targetRow(target);
      const stage = path.join(tmp, target);
      const nativeKernel = stageTarget(stage, row, { cache: opts.cache, host });
      const packagePath = path.join(opts.out, `neardup-${target}-${version}.vsix`);
      fs.rmSync(packagePath, { force: true });
      await createVSIX({ cwd: stage, target, packagePath, allowMissingRepository: true, rewriteRelativeLinks: false, useYarn: false });
      const check = await checkPackage(packagePath, row, { nativeKernel });
      results.push({ target, packagePath, nativeKernel, ...check });
      fs.rmSync(stage, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`\n${'package'.padEnd(34)} ${'size'.padStart(9)}  native kernel  jieba`);
  for (const r of results) {
    const jieba = targetRow(r.target).jieba ?? '(none)';
    console.log(`${path.basename(r.packagePath).padEnd(34)} ${(r.bytes / 1e6).toFixed(2).padStart(6)} MB  ${(r.nativeKernel ? 'yes' : 'no').padEnd(13)}  ${jieba}`);
  }
  const bad = results.filter((r) => r.problems.length > 0);
  for (const r of bad) for (const p of r.problems) console.error(`✘ ${r.target}: ${p}`);
  if (bad.length > 0) process.exit(1);
  console.log(`\n${results.length} packages in ${path.relative(ROOT, opts.out) || '.'}, each checked and under ${MAX_PACKAGE_BYTES / 1e6} MB.`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
