#!/usr/bin/env node
// Builds the native fingerprinting kernel (native/*.c → build/Release/neardup_kernel.node) with
// node-gyp, when it is missing or older than its sources.
//
//   node scripts/build-native.js           build if needed; on failure warn and go on (NearDup then
//                                          fingerprints in TypeScript: same results, slower)
//   node scripts/build-native.js --force   rebuild
//   NEARDUP_REQUIRE_NATIVE=1               a failed build is an error (CI)
//
// Node's headers: the ones installed beside this Node when present (offline machines), else
// node-gyp fetches them as usual.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const REPO = path.join(__dirname, '..');
const OUT = path.join(REPO, 'build', 'Release', 'neardup_kernel.node');
const required = process.env.NEARDUP_REQUIRE_NATIVE === '1';

function sources() {
  const dir = path.join(REPO, 'native');
  return [path.join(REPO, 'binding.gyp'), ...fs.readdirSync(dir).map((f) => path.join(dir, f))];
}

function upToDate() {
  if (!fs.existsSync(OUT)) return false;
  const built = fs.statSync(OUT).mtimeMs;
  return sources().every((f) => fs.statSync(f).mtimeMs <= built);
}

function fail(message) {
  if (required) {
    console.error(`build-native: ${message}`);
    process.exit(1);
  }
  console.warn(`build-native: ${message}\nbuild-native: going on without it: fingerprinting stays in TypeScript (same results, slower).`);
  process.exit(0);
}

if (!process.argv.includes('--force') && upToDate()) {
  console.log('build-native: build/Release/neardup_kernel.node is up to date');
  process.exit(0);
}

let gyp;
try {
  gyp = require.resolve('node-gyp/bin/node-gyp.js', { paths: [REPO] });
} catch {
  fail('node-gyp is not installed (npm install)');
}
const args = [gyp, 'rebuild'];
const headers = path.join(path.dirname(process.execPath), '..');
if (fs.existsSync(path.join(headers, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${headers}`);
const t0 = Date.now();
const r = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8' });
if (r.status !== 0 || !fs.existsSync(OUT)) {
  process.stderr.write((r.stdout || '').split('\n').slice(-20).join('\n') + (r.stderr || '').split('\n').slice(-20).join('\n'));
  fail(`node-gyp rebuild failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''})`);
}
console.log(`build-native: built build/Release/neardup_kernel.node in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
