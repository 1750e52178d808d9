// Shared helpers for running a real VS Code offline: code-server (installed by
// scripts/setup-vscode-offline.sh into a cache folder) driven by Debian's chromium through
// playwright-core. Used by scripts/run-vscode-tests.js and test/e2e/e2e.js. Plain Node, no deps
// beyond playwright-core.
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const util = require('util');

const ROOT = path.resolve(__dirname, '..', '..');
const CHROMIUM = process.env.NEARDUP_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const SETUP_SCRIPT = path.join(ROOT, 'scripts', 'setup-vscode-offline.sh');

/** Paths of the cached install, as scripts/setup-vscode-offline.sh --print reports them. */
function installPaths() {
  const out = execFileSync('bash', [SETUP_SCRIPT, '--print'], { encoding: 'utf8' });
  const vars = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    // printf %q quoting: paths here have no spaces or quotes in practice; strip simple escapes.
    if (m) vars[m[1]] = m[2].replace(/\\(.)/g, '$1');
  }
  return {
    nodeHome: vars.NODE24_HOME,
    node: path.join(vars.NODE24_HOME, 'bin', 'node'),
    codeServerHome: vars.CODE_SERVER_HOME,
    entry: path.join(vars.CODE_SERVER_HOME, 'out', 'node', 'entry.js'),
    marker: vars.MARKER,
  };
}

function isInstalled(install) {
  return fs.existsSync(install.marker) && fs.existsSync(install.node) && fs.existsSync(install.entry) && fs.existsSync(CHROMIUM);
}

/**
 * Paths of the cached install. Installs it first when it is missing (first use: `npm test`,
 * `npm start`, the integration runner and e2e all come through here), as
 * scripts/setup-vscode-offline.sh does; later calls find the cache and return at once.
 */
function resolveInstall() {
  let install = installPaths();
  if (!isInstalled(install)) {
    console.log('[vscode-offline] first use: installing the offline VS Code (code-server) and Chromium into the cache');
    execFileSync('bash', [SETUP_SCRIPT], { stdio: ['ignore', 'inherit', 'inherit'] });
    install = installPaths();
  }
  if (!fs.existsSync(install.marker) || !fs.existsSync(install.node) || !fs.existsSync(install.entry)) {
    throw new Error(`code-server is not installed (no ${install.marker}) after bash scripts/setup-vscode-offline.sh`);
  }
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found after bash scripts/setup-vscode-offline.sh`);
  }
  return install;
}

/** Environment for code-server: Node 24 first on PATH, no stray config from $HOME. */
function codeServerEnv(install, extra = {}) {
  // EXTENSIONS_GALLERY={}: no marketplace (it cannot be reached offline; tests install .vsix files).
  const env = { EXTENSIONS_GALLERY: '{}', ...process.env, ...extra };
  env.PATH = `${path.join(install.nodeHome, 'bin')}${path.delimiter}${env.PATH || ''}`;
  // Variables of the machine's npm / a parent VS Code must not leak into the server.
  for (const k of Object.keys(env)) {
    if (/^(npm_|VSCODE_|ELECTRON_RUN_AS_NODE)/i.test(k)) delete env[k];
  }
  // The one VS Code variable a caller may set on purpose: built-in extensions left out (bench/live).
  if (extra.VSCODE_SKIP_BUILTIN_EXTENSIONS) env.VSCODE_SKIP_BUILTIN_EXTENSIONS = extra.VSCODE_SKIP_BUILTIN_EXTENSIONS;
  return env;
}

/** Ids (publisher.name) of the built-in extensions of a code-server install. */
function builtinExtensionIds(install) {
  const dir = path.join(install.codeServerHome, 'lib', 'vscode', 'extensions');
  const ids = [];
  for (const name of fs.readdirSync(dir)) {
    try {
      const m = JSON.parse(fs.readFileSync(path.join(dir, name, 'package.json'), 'utf8'));
      if (m.publisher && m.name) ids.push(`${m.publisher}.${m.name}`);
    } catch {
      // not an extension folder (node_modules, postinstall.mjs)
    }
  }
  return ids.sort();
}

/** Runs a code-server CLI command to completion (e.g. --install-extension). */
function runCodeServerCli(install, args, { env, timeoutMs = 180_000 } = {}) {
  return execFileSync(install.node, [install.entry, ...args], {
    env: codeServerEnv(install, env),
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function makeTempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Copies a folder (the fixture workspace) so tests may change files freely. */
function copyDir(src, dest) {
  fs.cpSync(src, dest, { recursive: true });
  return dest;
}

function httpGet(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts code-server on 127.0.0.1:<free port> with fresh user-data and extensions folders
 * under `tmp`, and waits until /healthz answers. Returns { port, url, proc, stop(), logFile }.
 */
async function startCodeServer(install, {
  tmp,
  folder,
  extensionsDir = path.join(tmp, 'extensions'),
  smokeTestDriver = false,
  extraArgs = [],
  env = {},
  logFile = path.join(tmp, 'code-server.log'),
  startTimeoutMs = 90_000,
}) {
  const port = await freePort();
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  // Settings that keep the workbench quiet and deterministic for tests.
  const settingsDir = path.join(userDataDir, 'User');
  fs.mkdirSync(settingsDir, { recursive: true });
  const settingsFile = path.join(settingsDir, 'settings.json');
  if (!fs.existsSync(settingsFile)) {
    fs.writeFileSync(settingsFile, JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'security.workspace.trust.enabled': false,
      'chat.disableAIFeatures': true,
      'git.enabled': false,
    }, null, 2));
  }
  const configFile = path.join(tmp, 'code-server-config.yaml');
  fs.writeFileSync(configFile, '');
  const args = [
    install.entry,
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...extraArgs,
    ...(folder ? [folder] : []),
  ];
  const log = fs.openSync(logFile, 'a');
  const proc = spawn(install.node, args, {
    env: codeServerEnv(install, env),
    stdio: ['ignore', log, log],
    detached: true, // own process group: stop() kills the extension host and helpers too
  });
  fs.closeSync(log);
  let exited = null;
  const exitPromise = new Promise((resolve) => proc.on('exit', (code, signal) => {
    exited = { code, signal };
    resolve(exited);
  }));

  const stop = async () => {
    if (exited) return;
    try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* gone */ }
    const t = setTimeout(() => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000);
    await exitPromise;
    clearTimeout(t);
    // Children that ignored SIGTERM (pty host, watchers) share the group: make sure they are gone.
    try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ }
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`code-server exited early (${JSON.stringify(exited)}); log:\n${tail(logFile)}`);
    }
    if ((await httpGet(`${url}/healthz`)) === 200) {
      return { port, url, proc, stop, logFile, userDataDir, extensionsDir, exitPromise };
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`code-server did not answer on ${url}/healthz within ${startTimeoutMs} ms; log:\n${tail(logFile)}`);
}

async function launchChromium() {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Formats the arguments of a console call forwarded from the workbench (codeAutomationLog):
 * printf-style like console.log (%s, %d, %o; %c styling dropped). Errors logged by the workbench
 * itself (stack frames in the web bundle, e.g. the offline marketplace) are cut to their first
 * line, unless NEARDUP_VERBOSE is set; extension-host output is kept whole.
 */
function formatConsoleArgs(args) {
  if (!Array.isArray(args)) return String(args);
  let text = util.format(...args);
  if (!process.env.NEARDUP_VERBOSE && /\n\s+at .*\/static\/out\/vs\//.test(text)) {
    text = `[workbench] ${text.split('\n')[0]}`;
  }
  return text;
}

// Routine workbench chatter, hidden unless NEARDUP_VERBOSE is set.
const CHATTER = [
  /^Creating a socket \(/,
  /^Resolv(ing|ed) connection token/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[(AccountPolicyGate|reconnection-grace-time|Service Worker|AgentHost:[a-z]+)\]/,
  /^Creation of workbench contribution '[^']+' took \d+ms/,
  /^\[workbench\] Canceled(: Canceled)*$/, // the workbench as the extension host shuts down
];
function isWorkbenchChatter(text) {
  return !process.env.NEARDUP_VERBOSE && CHATTER.some((re) => re.test(text));
}

function safeJson(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

module.exports = {
  builtinExtensionIds,
  ROOT,
  CHROMIUM,
  CHROMIUM_ARGS,
  resolveInstall,
  codeServerEnv,
  runCodeServerCli,
  startCodeServer,
  launchChromium,
  freePort,
  makeTempDir,
  copyDir,
  formatConsoleArgs,
  isWorkbenchChatter,
  tail,
  sleep,
};
