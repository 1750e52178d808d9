// Bundles the extension, the worker and the CLI into dist/.
//   node esbuild.js              development build (sourcemaps)
//   node esbuild.js --production minified, no sourcemaps
//   node esbuild.js --watch      rebuild on change, with problem-matcher friendly output
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the format of the esbuild problem matcher ($esbuild-watch). */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  // Native modules cannot be bundled: they ship inside the package (see .vscodeignore).
  external: ['vscode', '@node-rs/jieba', '@node-rs/jieba-*'],
  logLevel: 'warning',
  // jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow: take its
  // ES module build (the one its package.json names as "module").
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  plugins: watch ? [problemMatcherPlugin] : [],
};

/**
 * The CLI's optional parts (--locate's region finder, --format html's page, the few files a scan
 * fingerprints on its own thread), which src/cli/commands/scanCommand.ts and
 * src/node/scan/nativeBatches.ts require only when a run needs them, are a bundle of their own,
 * dist/cliExtras.js: they read files (iconv-lite is dist/iconv.js, apart), code
 * that a plain scan of code would otherwise compile at start-up. In dist/cli.js these requires
 * name that bundle.
 */
const CLI_EXTRAS = /^\.\.\/\.\.\/node\/(locate\/locate|htmlReport\/fromScan)$/;
/** The scan's files fingerprinted on its own thread (src/node/scan/filesHere.ts), required by nativeBatches.ts on the first. */
const FILES_HERE = /^\.\/filesHere$/;
/**
 * In dist/cliMain.js these requires are one small module that loads dist/cliExtras.js with the
 * CLI's loader (dist/cli.js: src/cli/process/codeCache.ts, with its code cache), or, run without
 * it, with Node's require.
 */
const CLI_EXTRAS_LOADER = `const load = globalThis[Symbol.for('neardup.loadBundle')];
module.exports = load ? load(require('path').join(__dirname, 'cliExtras.js')) : require('./cliExtras.js');
`;
const cliExtrasApart = {
  name: 'cli-extras-apart',
  setup(build) {
    const extras = { path: 'cliExtras', namespace: 'cli-extras' };
    build.onResolve({ filter: CLI_EXTRAS }, (args) => (path.basename(args.importer) === 'scanCommand.ts' ? extras : undefined));
    build.onResolve({ filter: FILES_HERE }, (args) => (path.basename(args.importer) === 'nativeBatches.ts' ? extras : undefined));
    build.onLoad({ filter: /.*/, namespace: 'cli-extras' }, () => ({ contents: CLI_EXTRAS_LOADER, loader: 'js', resolveDir: path.join(__dirname, 'dist') }));
    build.onResolve({ filter: /^\.\/cliExtras\.js$/, namespace: 'cli-extras' }, () => ({ path: './cliExtras.js', external: true }));
  },
};
/** This build's id, on the last line of the bundles the CLI's loader runs with a code cache (src/cli/process/codeCache.ts). */
const BUILD_ID = `//# neardupBuild=${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
const cliExtras = {
  footer: { js: BUILD_ID },
  stdin: {
    contents: "export * from './src/node/locate/locate';\nexport * from './src/node/htmlReport/fromScan';\nexport * from './src/node/scan/filesHere';\n",
    resolveDir: __dirname,
    sourcefile: 'cliExtras.ts',
    loader: 'ts',
  },
  outfile: 'dist/cliExtras.js',
};

/**
 * The kernel's loader (src/node/workers/nativeKernel.ts) is a bundle of its own for the CLI,
 * dist/nativeKernel.js, which dist/cli.js and dist/cliExtras.js both require: one module, so the
 * kernel the CLI loaded (and its tables) is the one --locate uses, not loaded and set up again
 * (~14 ms of the main thread when --locate begins).
 */
const KERNEL_LOADER = path.join(__dirname, 'src', 'node', 'workers', 'nativeKernel.ts');
const kernelLoaderApart = {
  name: 'kernel-loader-apart',
  setup(build) {
    build.onResolve({ filter: /(^|\/)nativeKernel$/ }, (args) =>
      path.resolve(args.resolveDir, `${args.path}.ts`) === KERNEL_LOADER ? { path: './nativeKernel.js', external: true } : undefined,
    );
  },
};

/**
 * iconv-lite (GB18030 decoding, required by src/node/files/decode.ts on the first file that needs
 * it) is a bundle of its own too, dist/iconv.js: its ~550 KB of code tables would otherwise be
 * compiled by every worker thread as it boots (~4–5 ms each), for the few trees that have such a file.
 */
const iconvApart = {
  name: 'iconv-apart',
  setup(build) {
    build.onResolve({ filter: /^iconv-lite$/ }, (args) => (path.basename(args.importer) === 'decode.ts' ? { path: './iconv.js', external: true } : undefined));
  },
};
const iconvBundle = {
  stdin: { contents: "module.exports = require('iconv-lite');\n", resolveDir: __dirname, sourcefile: 'iconv.js', loader: 'js' },
  outfile: 'dist/iconv.js',
};
const apart = (...more) => [...common.plugins, iconvApart, ...more];

const entries = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
  { entryPoints: ['src/worker/worker.ts'], outfile: 'dist/worker.js', plugins: apart() },
  { entryPoints: ['src/worker/engineWorker.ts'], outfile: 'dist/engineWorker.js', plugins: apart() },
  // The CLI: dist/cli.js runs dist/cliMain.js with its code cache ({@link makeCliCodeCache}).
  { entryPoints: ['src/cli/process/cliEntry.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // (its build's id on its last line: the code cache made for it names it, src/cli/process/codeCache.ts)
  { entryPoints: ['src/cli/cli.ts'], outfile: 'dist/cliMain.js', footer: { js: BUILD_ID }, plugins: apart(cliExtrasApart, kernelLoaderApart) },
  { ...cliExtras, plugins: apart(kernelLoaderApart) },
  { entryPoints: [KERNEL_LOADER], outfile: 'dist/nativeKernel.js', plugins: apart() },
  iconvBundle,
  // The Overview webview's script: runs in the webview (a browser), not in Node.
  { entryPoints: ['src/webview/overview.ts'], outfile: 'dist/overview.js', platform: 'browser', format: 'iife', target: 'es2022' },
  // VS Code for the Web (package.json "browser"): the extension in the web extension host and its
  // engine's Web Worker. No Node built-ins (platform 'browser' refuses them; test/unit/layering.test.ts).
  ...browserEntries(),
];

/** The two bundles of VS Code for the Web, with their options (also used by the tests). */
function browserEntries() {
  const browser = { platform: 'browser', target: 'es2022', external: ['vscode'], mainFields: ['browser', 'module', 'main'], conditions: ['browser'] };
  return [
    { ...browser, entryPoints: ['src/extension/web/webExtension.ts'], outfile: 'dist/web/extension.js', format: 'cjs' },
    { ...browser, entryPoints: ['src/web/engineWorker.ts'], outfile: 'dist/web/engineWorker.js', format: 'iife', loader: { '.wasm': 'binary' } },
  ];
}
/** The full esbuild options of the browser bundles (test/web builds them as `npm run build` does). */
function browserBuildOptions() {
  return browserEntries().map((e) => ({ ...common, plugins: [], ...e }));
}
module.exports = { browserBuildOptions };

/**
 * The native kernel (scripts/build-native.js) goes beside the bundles, where the workers look for
 * it first; a stale copy is removed when there is no build.
 *
 * The copy is written beside and renamed over the old one, never overwritten in place: a process
 * that has the old file loaded (a running VS Code, a test run) keeps its pages. Overwriting the
 * loaded file's contents crashes such a process with SIGSEGV as soon as it runs the changed code.
 */
function copyNativeKernel() {
  const from = path.join(__dirname, 'build', 'Release', 'neardup_kernel.node');
  const to = path.join(__dirname, 'dist', 'neardup_kernel.node');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (!fs.existsSync(from)) {
    fs.rmSync(to, { force: true });
    return;
  }
  if (fs.existsSync(to) && fs.readFileSync(to).equals(fs.readFileSync(from))) return;
  const tmp = `${to}.${process.pid}.tmp`;
  fs.copyFileSync(from, tmp);
  fs.renameSync(tmp, to);
}

/**
 * The WebAssembly kernel (wasm/neardup_kernel.wasm, committed; scripts/build-wasm.js) goes beside
 * the bundles too: the workers use it where the native kernel is missing.
 */
function copyWasmKernel() {
  const from = path.join(__dirname, 'wasm', 'neardup_kernel.wasm');
  const to = path.join(__dirname, 'dist', 'neardup_kernel.wasm');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (fs.existsSync(to) && fs.readFileSync(to).equals(fs.readFileSync(from))) return;
  const tmp = `${to}.${process.pid}.tmp`;
  fs.copyFileSync(from, tmp);
  fs.renameSync(tmp, to);
}

/**
 * jieba-wasm's module (its dictionary inside, ~4 MB) beside the web bundles: the web extension
 * reads it through vscode.workspace.fs and hands it to its engine worker.
 */
function copyJiebaWasm() {
  const from = require.resolve('jieba-wasm/web').replace(/jieba_rs_wasm\.js$/, 'jieba_rs_wasm_bg.wasm');
  const to = path.join(__dirname, 'dist', 'web', 'jieba_rs_wasm_bg.wasm');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if (fs.existsSync(to) && fs.statSync(to).size === fs.statSync(from).size && fs.readFileSync(to).equals(fs.readFileSync(from))) return;
  fs.copyFileSync(from, to);
}

/**
 * V8's code caches of the CLI's bundles (src/cli/process/codeCache.ts), dist/cliMain.js.cache and
 * dist/cliExtras.js.cache: the functions one default scan of the fixture workspace compiles, made by this Node with V8's
 * default flags (NEARDUP_V8_DEFAULTS=1: the flags a start has when it reads the cache). A start
 * then reads them instead of compiling them. Without it (a failure here) the CLI compiles as
 * Node would: one line says so, the build goes on.
 */
function makeCliCodeCache() {
  const { spawnSync } = require('child_process');
  const caches = ['cliMain.js.cache', 'cliExtras.js.cache'].map((f) => path.join(__dirname, 'dist', f));
  for (const cache of caches) fs.rmSync(cache, { force: true });
  const run = spawnSync(process.execPath, [path.join(__dirname, 'dist', 'cli.js'), 'scan', path.join(__dirname, 'test', 'fixtures', 'workspace'), '--format', 'json', '--no-progress', '-q'], {
    env: { ...process.env, NEARDUP_V8_DEFAULTS: '1', NEARDUP_CODE_CACHE_WRITE: '1', NEARDUP_TRACE: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0 || !caches.every((f) => fs.existsSync(f)))
    console.warn(`esbuild.js: no code cache for dist/cliMain.js or dist/cliExtras.js (the CLI compiles their code at each start): ${(run.stderr || run.error?.message || `exit ${run.status}`).trim()}`);
}

async function main() {
  copyNativeKernel();
  copyWasmKernel();
  copyJiebaWasm();
  const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e })));
  if (watch) {
    // (a bundle rebuilt on change keeps this run's build id: no cache made for another)
    for (const f of ['cliMain.js.cache', 'cliExtras.js.cache']) fs.rmSync(path.join(__dirname, 'dist', f), { force: true });
    await Promise.all(contexts.map((c) => c.watch()));
  } else {
    await Promise.all(contexts.map((c) => c.rebuild()));
    await Promise.all(contexts.map((c) => c.dispose()));
    makeCliCodeCache();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
