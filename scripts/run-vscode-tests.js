#!/usr/bin/env node
// Runs the integration tests (out/test/integration/index.js, built by scripts/build-tests.js)
// inside a real VS Code, with this repo as the extension under development.
//
//   node scripts/run-vscode-tests.js [--host offline|electron] [--timeout SECONDS]
//                                    [--grep REGEX] [--workspace DIR] [--keep]
//                                    [--scale-files N] [--no-builtin-extensions]
//
// Hosts (also NEARDUP_TEST_HOST=offline|electron; offline is the default):
//   offline   code-server (scripts/setup-vscode-offline.sh) started with the smoke-test driver,
//             and Debian's chromium opening the workbench with a `payload` that names the
//             extension development path and the tests module. The tests run in code-server's
//             Node extension host; codeAutomationExit(code) carries their result back.
//   electron  @vscode/test-electron's runTests (downloads a desktop VS Code: needs internet).
//
// The fixture workspace (test/fixtures/workspace) is copied to a temp folder first, so tests may
// edit files. --scale-files N also writes N generated files into its scale/ folder before VS Code
// starts (scripts/lib/scale-workspace.js; ~13 s for 100,000 files) and tells the extension host
// (NEARDUP_SCALE_WORKSPACE_FILES=N): the "large workspace" test runs only then, e.g.
//   node scripts/run-vscode-tests.js --scale-files 100000 --grep '^large workspace'
// --no-builtin-extensions (offline host only): code-server's built-in extensions are left out
// (VSCODE_SKIP_BUILTIN_EXTENSIONS): only the extension under development runs (bench/live's
// "NearDup alone", with no other extension's save participants).
// The extension host's console output is printed; the exit code is the tests' result
// (0 passed, 1 failed, 2 harness error, 124 timeout).
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('./lib/vscode-offline');
const scaleWorkspace = require('./lib/scale-workspace');

const ROOT = lib.ROOT;

function parseArgs(argv) {
  const opts = {
    host: process.env.NEARDUP_TEST_HOST || 'offline',
    timeoutSec: Number(process.env.NEARDUP_TEST_TIMEOUT_SEC) || 600,
    grep: process.env.NEARDUP_TEST_GREP || '',
    workspace: path.join(ROOT, 'test', 'fixtures', 'workspace'),
    keep: false,
    scaleFiles: 0,
    noBuiltins: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--host') opts.host = val();
    else if (a.startsWith('--host=')) opts.host = a.slice(7);
    else if (a === '--timeout') opts.timeoutSec = Number(val());
    else if (a === '--grep') opts.grep = val();
    else if (a === '--workspace') opts.workspace = path.resolve(val());
    else if (a === '--keep') opts.keep = true;
    else if (a === '--scale-files') opts.scaleFiles = Number(val());
    else if (a === '--no-builtin-extensions') opts.noBuiltins = true;
    else if (a === '-h' || a === '--help') {
      const lines = fs.readFileSync(__filename, 'utf8').split('\n').slice(1);
      const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
      console.log(header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!['offline', 'electron'].includes(opts.host)) throw new Error(`--host must be offline or electron, not ${opts.host}`);
  if (!(opts.timeoutSec > 0)) throw new Error('--timeout must be a positive number of seconds');
  if (!(Number.isInteger(opts.scaleFiles) && opts.scaleFiles >= 0)) throw new Error('--scale-files must be a whole number of files');
  return opts;
}

function checkBuilt() {
  const testsIndex = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
  const main = path.join(ROOT, require(path.join(ROOT, 'package.json')).main || 'dist/extension.js');
  if (!fs.existsSync(main)) throw new Error(`${path.relative(ROOT, main)} missing: run npm run build`);
  if (!fs.existsSync(testsIndex)) throw new Error(`${path.relative(ROOT, testsIndex)} missing: run node scripts/build-tests.js`);
  return testsIndex;
}

/** Copies the workspace into `dest`, with the generated files of --scale-files. */
function prepareWorkspace(opts, dest) {
  const workspace = lib.copyDir(opts.workspace, dest);
  if (opts.scaleFiles > 0) {
    const ms = scaleWorkspace.generate(workspace, opts.scaleFiles);
    console.log(`[runner] wrote ${opts.scaleFiles} generated files into ${scaleWorkspace.SCALE_DIR}/ of the workspace in ${(ms / 1000).toFixed(1)} s`);
  }
  return workspace;
}

function testEnv(opts, fixtureCopy) {
  // Memory bounds measure what the engine holds (engineState.ts: a collection before its heap figure).
  const env = { NEARDUP_FIXTURE_WORKSPACE: fixtureCopy, NEARDUP_TEST_LIVE_HEAP: '1' };
  if (opts.scaleFiles > 0) env.NEARDUP_SCALE_WORKSPACE_FILES = String(opts.scaleFiles);
  if (opts.grep) env.NEARDUP_TEST_GREP = opts.grep;
  if (process.env.NEARDUP_TEST_TIMEOUT) env.NEARDUP_TEST_TIMEOUT = process.env.NEARDUP_TEST_TIMEOUT;
  return env;
}

// ------------------------------------------------------------------ offline host (code-server)
async function runOffline(opts, testsIndex) {
  const install = lib.resolveInstall();
  const tmp = lib.makeTempDir('neardup-itest-');
  const workspace = prepareWorkspace(opts, path.join(tmp, 'workspace'));
  const resultsDir = path.join(ROOT, 'test-results');
  fs.mkdirSync(resultsDir, { recursive: true });
  // A --scale-files session keeps its logs apart from the normal run's.
  const prefix = opts.scaleFiles > 0 ? 'scale' : 'integration';
  const logFile = path.join(resultsDir, `${prefix}-code-server.log`);
  fs.rmSync(logFile, { force: true });
  fs.rmSync(path.join(resultsDir, `${prefix}-failure.png`), { force: true });

  let server;
  let browser;
  let timer;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    clearTimeout(timer);
    if (browser) await browser.close().catch(() => {});
    if (server) await server.stop().catch(() => {});
    // Keep VS Code's logs (extension host, output channels) for debugging a failure.
    const logsDir = path.join(resultsDir, `${prefix}-logs`);
    fs.rmSync(logsDir, { recursive: true, force: true });
    if (server && fs.existsSync(path.join(server.userDataDir, 'logs'))) {
      fs.cpSync(path.join(server.userDataDir, 'logs'), logsDir, { recursive: true });
    }
    if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`[runner] kept ${tmp}`);
  };
  const onSignal = (sig) => {
    console.error(`[runner] ${sig}: stopping code-server and chromium`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const started = Date.now();
    server = await lib.startCodeServer(install, {
      tmp,
      smokeTestDriver: true,
      env: { ...testEnv(opts, workspace), ...(opts.noBuiltins ? { VSCODE_SKIP_BUILTIN_EXTENSIONS: lib.builtinExtensionIds(install).join(','), NEARDUP_TEST_NO_BUILTINS: '1' } : {}) },
      logFile,
    });
    console.log(`[runner] code-server on ${server.url} (pid ${server.proc.pid}) in ${Date.now() - started} ms`);

    const authority = `127.0.0.1:${server.port}`;
    const remote = (p) => `vscode-remote://${authority}${p.split(path.sep).join('/')}`;
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(testsIndex)],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}` +
      `&payload=${encodeURIComponent(JSON.stringify(payload))}`;

    browser = await lib.launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });

    let resolveExit;
    const exitCode = new Promise((r) => { resolveExit = r; });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (process.env.NEARDUP_RAW_LOG) console.log('RAW', type, JSON.stringify(args));
      const text = lib.formatConsoleArgs(args);
      if (lib.isWorkbenchChatter(text)) return;
      if (type === 'error') console.error(text);
      else console.log(text);
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit({ code: Number(code) }));
    page.on('pageerror', (err) => console.error(`[workbench] page error: ${err.message}`));
    page.on('crash', () => resolveExit({ code: 2, reason: 'the workbench page crashed' }));
    server.exitPromise.then((e) => resolveExit({ code: 2, reason: `code-server exited (${JSON.stringify(e)})` }));
    const timeout = new Promise((r) => {
      timer = setTimeout(() => r({ code: 124, reason: `TIMEOUT: the tests did not finish within ${opts.timeoutSec} s` }), opts.timeoutSec * 1000);
    });

    console.log(`[runner] opening workbench: folder=${workspace}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const result = await Promise.race([exitCode, timeout]);
    if (result.reason) {
      console.error(`[runner] ${result.reason}`);
      await page.screenshot({ path: path.join(resultsDir, `${prefix}-failure.png`) }).catch(() => {});
      console.error(`[runner] code-server log (${path.relative(ROOT, logFile)}):\n${lib.tail(logFile)}`);
    }
    console.log(`[runner] tests exited with code ${result.code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result.code;
  } finally {
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

// ------------------------------------------------------------------ electron host (test-electron)
async function runElectron(opts, testsIndex) {
  const { runTests } = require('@vscode/test-electron');
  const tmp = lib.makeTempDir('neardup-itest-');
  const workspace = prepareWorkspace(opts, path.join(tmp, 'workspace'));
  try {
    return await runTests({
      version: process.env.NEARDUP_VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: testsIndex,
      extensionTestsEnv: testEnv(opts, workspace),
      launchArgs: [
        workspace,
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir', path.join(tmp, 'user-data'),
        '--extensions-dir', path.join(tmp, 'extensions'),
      ],
    });
  } finally {
    if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const testsIndex = checkBuilt();
  console.log(`[runner] host=${opts.host} timeout=${opts.timeoutSec}s`);
  const code = opts.host === 'electron' ? await runElectron(opts, testsIndex) : await runOffline(opts, testsIndex);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[runner] error: ${err && err.stack ? err.stack : err}`);
    process.exit(2);
  },
);
