// The VS Code targets NearDup is packaged for and the files each package holds: the one place that
// says what goes where. scripts/package-all.js stages exactly these files per target, and
// test/unit/scripts/packageAll.test.ts reads the packages back against the same table.
'use strict';
const path = require('path');

/**
 * One row per `vsce --target`. `jieba` is the suffix of the @node-rs/jieba platform package
 * (`@node-rs/jieba-<jieba>`, holding `jieba.<jieba>.node`); `binary` is what that file and any
 * other native file in the package must be (format, CPU, C library). `web` has no native code.
 */
const TARGETS = [
  { target: 'win32-x64', jieba: 'win32-x64-msvc', binary: { format: 'pe', cpu: 'x64' } },
  { target: 'win32-arm64', jieba: 'win32-arm64-msvc', binary: { format: 'pe', cpu: 'arm64' } },
  { target: 'darwin-x64', jieba: 'darwin-x64', binary: { format: 'macho', cpu: 'x64' } },
  { target: 'darwin-arm64', jieba: 'darwin-arm64', binary: { format: 'macho', cpu: 'arm64' } },
  { target: 'linux-x64', jieba: 'linux-x64-gnu', binary: { format: 'elf', cpu: 'x64', libc: 'glibc' } },
  { target: 'linux-arm64', jieba: 'linux-arm64-gnu', binary: { format: 'elf', cpu: 'arm64', libc: 'glibc' } },
  { target: 'linux-armhf', jieba: 'linux-arm-gnueabihf', binary: { format: 'elf', cpu: 'arm', libc: 'glibc' } },
  { target: 'alpine-x64', jieba: 'linux-x64-musl', binary: { format: 'elf', cpu: 'x64', libc: 'musl' } },
  { target: 'alpine-arm64', jieba: 'linux-arm64-musl', binary: { format: 'elf', cpu: 'arm64', libc: 'musl' } },
  { target: 'web', jieba: null, binary: null },
];

/**
 * The target whose native kernel (native/kernel.c, built by scripts/build-native.js with the
 * host's C compiler) this machine can build: only its own. The addon is not cross-compiled (no
 * Windows or macOS SDK here, and no tested cross toolchain for the other Linux targets); every
 * other package fingerprints with the WebAssembly kernel, which gives the same results.
 */
function hostTarget(platform = process.platform, arch = process.arch, musl = isMusl()) {
  if (platform === 'linux') {
    const cpu = arch === 'arm' ? 'armhf' : arch;
    return `${musl ? 'alpine' : 'linux'}-${cpu}`;
  }
  return `${platform}-${arch}`;
}

function isMusl() {
  if (process.platform !== 'linux') return false;
  const report = process.report && process.report.getReport ? process.report.getReport() : null;
  return !(report && report.header && report.header.glibcVersionRuntime);
}

/** Files of @node-rs/jieba that the extension needs: never idf.txt (6 MB; src/node/cjk/jieba.ts reads dict.txt only). */
const JIEBA_FILES = ['package.json', 'index.js', 'dict.txt', 'LICENSE'];

/**
 * Files every package holds, as [from (relative to the repository), to (inside the extension)]
 * or a directory to copy whole. `dist/*.js` are the desktop bundles (the manifest's `main` must
 * be present in every package, web included); source maps never ship.
 */
const COMMON = {
  files: ['package.nls.json', 'package.nls.zh-cn.json', 'README.md', 'LICENSE', 'ThirdPartyNotices.txt', 'CHANGELOG.md'],
  dirs: ['media', 'l10n', 'schemas'],
  /**
   * Which files of dist/ (recursively) ship: the bundles and the WebAssembly kernel; not the web
   * host's jieba-wasm module (2.8 MB packed), which only the `web` package needs.
   */
  dist: (rel) => /\.(js|wasm)$/.test(rel) && !/^web\/.*\.wasm$/.test(rel.split(path.sep).join('/')),
};

/**
 * Per-target extras beyond COMMON, as paths relative to the repository (shipped at the same
 * path): the browser entry's jieba-wasm module (its bundles, `.js` under dist/, COMMON takes).
 */
const EXTRAS = {
  web: { dist: ['dist/web/jieba_rs_wasm_bg.wasm'] },
};

/** The row of a target, or an error naming the valid ones. */
function targetRow(target) {
  const row = TARGETS.find((t) => t.target === target);
  if (!row) throw new Error(`unknown target ${target}; valid: ${TARGETS.map((t) => t.target).join(', ')}`);
  return row;
}

module.exports = { TARGETS, JIEBA_FILES, COMMON, EXTRAS, hostTarget, targetRow };
