#!/usr/bin/env node
// Builds the WebAssembly kernel (native/wasm.c and the C sources the native addon compiles →
// wasm/neardup_kernel.wasm) with Debian's clang + lld + wasi-libc: no emscripten, no runtime, a
// module with no imports. The .wasm is committed, so a clone runs it on any OS without this
// toolchain; test/unit/node/workers/wasmKernel.test.ts checks that a rebuild gives its bytes.
//
//   node scripts/build-wasm.js              rebuild wasm/neardup_kernel.wasm
//   node scripts/build-wasm.js --out FILE   build into FILE instead (the reproducibility test)
//   node scripts/build-wasm.js --check      exit 0 when the toolchain is here, 2 when it is not
//
// The toolchain (apt-get install clang lld wasi-libc libclang-rt-dev-wasm32): `clang` on the PATH
// (or NEARDUP_CLANG) with the wasm32-wasi target, and wasi-libc's headers and libraries under
// /usr (or NEARDUP_WASI_SYSROOT). Exit 2 and a message when it is missing.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const REPO = path.join(__dirname, '..');
const OUT = path.join(REPO, 'wasm', 'neardup_kernel.wasm');
/** The C sources, in link order: the WebAssembly glue, then those binding.gyp compiles but kernel.c and kernelbuckets.c (Node-API) and threads.c (libuv threads). */
const SOURCES = ['wasm.c', 'fingerprint.c', 'tokenize.c', 'simhash.c', 'regiondoc.c', 'comments.c', 'allpairs.c', 'allpairstables.c', 'sections.c', 'sectionbraces.c', 'align.c', 'seeds.c', 'buckets.c', 'textshape.c'];
/** The clang that made the committed .wasm: another version may emit other (equally correct) bytes. */
const COMMITTED_WITH = 'Debian clang version 14.0.6';

const clang = process.env.NEARDUP_CLANG || 'clang';
const sysroot = process.env.NEARDUP_WASI_SYSROOT || '/usr';

function toolchain() {
  const v = spawnSync(clang, ['--version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return { problem: `${clang} not found` };
  const version = v.stdout.split('\n')[0].trim();
  const include = path.join(sysroot, 'include', 'wasm32-wasi');
  if (!fs.existsSync(path.join(include, 'stdlib.h'))) return { problem: `wasi-libc's headers are not in ${include} (apt-get install wasi-libc)` };
  return { version, include };
}

function build(out, tc) {
  const args = [
    '--target=wasm32-wasi',
    `--sysroot=${sysroot}`,
    '-isystem',
    tc.include,
    '-O3',
    // SIMD128 (Node ≥ 16.4, Chrome 91, Firefox 89, Safari 16.4): sections.c's stop bitmap and space
    // skip where the addon uses SSE2/AVX2, and the .wasm's own paths of fingerprint.c and comments.c
    // (__wasm_simd128__: SimHash counts, shingle keys and hashes, white-space runs, comment ends).
    '-msimd128',
    // Bulk memory (memset / memcpy as memory.fill / memory.copy, which V8 runs natively), saturating
    // float-to-int conversions (no range checks around bottomK's bucket index) and sign extension:
    // all in Node ≥ 16, Chrome 75, Firefox 79, Safari 15.
    '-mbulk-memory',
    '-mnontrapping-fptoint',
    '-msign-ext',
    '-std=c11',
    '-ffp-contract=off',
    '-fno-fast-math',
    '-nostartfiles',
    '-Wl,--no-entry',
    '-Wl,--strip-all',
    ...SOURCES.map((f) => path.join('native', f)),
    '-lm',
    '-o',
    out,
  ];
  // Relative paths from the repository, so that nothing of this machine can end up in the bytes.
  const r = spawnSync(clang, args, { cwd: REPO, encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    process.stderr.write(`${r.stdout || ''}${r.stderr || ''}`);
    console.error(`build-wasm: ${clang} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}); is wasm-ld there (apt-get install lld)?`);
    process.exit(1);
  }
}

const tc = toolchain();
if (tc.problem) {
  console.error(`build-wasm: no WebAssembly toolchain: ${tc.problem}`);
  process.exit(2);
}
if (process.argv.includes('--check')) {
  console.log(`build-wasm: ${tc.version}${tc.version === COMMITTED_WITH ? '' : ` (the committed .wasm was built with ${COMMITTED_WITH})`}`);
  process.exit(0);
}
const at = process.argv.indexOf('--out');
const out = at > 0 ? path.resolve(process.argv[at + 1]) : OUT;
fs.mkdirSync(path.dirname(out), { recursive: true });
build(out, tc);
console.log(`build-wasm: built ${path.relative(process.cwd(), out)} (${fs.statSync(out).size} bytes) with ${tc.version}`);
