#!/usr/bin/env node
// End-to-end test: the packaged extension (.vsix) in a real VS Code UI (code-server) driven by a
// real browser (Debian's chromium through playwright-core), as a user would use it.
//
//   node test/e2e/e2e.js [path/to/neardup.vsix] [--timeout SECONDS] [--keep]
//
// Builds nothing: `npm run package` makes neardup.vsix first. Installs it with
// `code-server --install-extension` into a fresh extensions folder, opens a copy of
// test/fixtures/workspace (its planted near duplicates: test/integration/README.md) and checks what
// a user sees in the workbench (the DOM, never the extension's API):
//   - the workbench loads; Quick Open opens code/orderService.ts;
//   - the status bar reports the finished index with as many groups as the packaged CLI finds, the
//     share of the fixture's lines in near duplicates (computed here from the CLI's pairs and the
//     files) and the open file's share;
//   - the command palette runs "Find near duplicates of this file": its quick pick lists
//     code/orderServiceCopy.ts with its distance;
//   - the NearDup view (activity bar) lists, once its group nodes are expanded by clicks, the
//     planted pairs with their distances: code/orderService.ts ↔ code/orderServiceCopy.ts,
//     docs/en/backup-guide.md ↔ docs/en/backup-guide-2023.md, docs/zh/tea-garden.md ↔
//     docs/zh/tea-garden-copy.md, and the parseDelimitedLine() section of code/salesReport.ts ↔
//     code/logParser.ts (line ranges that hold the function), and nothing of notes/;
//   - the Problems panel (through its filter box) holds NearDup's diagnostics (source "neardup"):
//     on code/orderService.ts naming code/orderServiceCopy.ts, none on
//     notes/unique-meeting-notes.md;
//   - in code/logParser.ts, the CodeLens above the copied section, and its hover naming the twin
//     section with its distance and the Compare / Open twin links (screenshot e2e-editor-hover.png);
//   - a copied function pasted into another file gets one notice (CodeLens) naming the original's
//     file and lines (screenshot e2e-*-paste-notice.png; NEARDUP_E2E_MEDIA=1 keeps it as
//     media/paste-notice.png for the README);
//   - the Overview (command palette) draws its treemap (code/ and docs/), histogram and every group;
//     Enter on a folder zooms in, Escape out (screenshots e2e-overview*.png);
//   - the packaged CLI's `--format html` page renders offline in chromium with every group and
//     pair, hostile names and text escaped (test/e2e/htmlReport.js; screenshot e2e-*-html-report.png);
//   - "Export Report…" asks where to save (the workbench's save dialog), writes the HTML report
//     there and nowhere else, and that page renders offline with every group;
//   - the Extensions view lists NearDup; the extension host log shows it activated without errors.
// Distances shown must be integers within neardup.maxDistance / neardup.sectionMaxDistance (the
// manifest's defaults) and equal to those of the packaged CLI (`dist/cli.js scan --format json`)
// on the same copy of the fixture: deterministic, and derived from the fixture rather than
// hard-coded. Every wait polls the DOM with a timeout (the index runs in the background).
// Screenshots of each step: test-results/e2e-*.png.
//
// Ends with `e2e: N passed, N failed`; exit code 0 only if nothing failed.
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('../../scripts/lib/vscode-offline');
const { checkHtmlReport } = require('./htmlReport');

const ROOT = lib.ROOT;
const RESULTS = path.join(ROOT, 'test-results');
const COMMAND_ID = 'neardup.findNearDuplicates';
const COMMAND_TITLE = 'Find near duplicates of this file';
const CONTAINER_ID = 'neardup';
const VIEW_ID = 'neardup.duplicates';
const STATUS_ID = 'neardup.status';
const DIAGNOSTIC_SOURCE = 'neardup';

// The planted near duplicates of test/fixtures/workspace (test/integration/README.md). Distances
// and section line ranges are not written here: they come from the packaged CLI's scan of the same
// copy of the fixture, and a section must hold the definition of `fn` in both files.
const PLANTED = [
  { kind: 'file', a: 'code/orderService.ts', b: 'code/orderServiceCopy.ts' },
  { kind: 'file', a: 'docs/en/backup-guide.md', b: 'docs/en/backup-guide-2023.md' },
  { kind: 'file', a: 'docs/zh/tea-garden.md', b: 'docs/zh/tea-garden-copy.md' },
  { kind: 'section', a: 'code/salesReport.ts', b: 'code/logParser.ts', fn: 'parseDelimitedLine' },
];
const UNIQUE = 'notes/unique-meeting-notes.md';

function parseArgs(argv) {
  const opts = { vsix: process.env.NEARDUP_VSIX || path.join(ROOT, 'neardup.vsix'), timeoutSec: 300, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--timeout') opts.timeoutSec = Number(argv[++i]);
    else if (a === '--keep') opts.keep = true;
    else if (a.startsWith('--')) throw new Error(`unknown argument ${a}`);
    else opts.vsix = path.resolve(a);
  }
  return opts;
}

// ------------------------------------------------------------------ tiny test recorder
const results = [];
let page; // set once the browser is up; used for failure screenshots
let shotNo = 0;

async function screenshot(name) {
  if (!page) return;
  const file = path.join(RESULTS, `e2e-${String(++shotNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file }).catch((e) => console.log(`  (screenshot ${name} failed: ${e.message})`));
  return file;
}

async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, status: 'passed' });
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push({ name, status: 'failed', err });
    console.log(`  ✘ ${name}\n      ${String(err && err.stack ? err.stack : err).split('\n').slice(0, 6).join('\n      ')}`);
    await screenshot(`FAILED-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`);
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/**
 * Polls `fn` until it returns without throwing (its value is returned), every `intervalMs`, for at
 * most `timeoutMs`; then fails with `what` and the last reason `fn` gave. The workbench fills
 * views, panels and the status bar asynchronously (the index runs in the background), so every
 * assertion on them is polled instead of read once after a sleep.
 */
async function poll(what, fn, { timeoutMs = 60_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() >= deadline) {
        throw new Error(`${what}: not within ${timeoutMs / 1000} s. Last state: ${err && err.message ? err.message : err}`);
      }
    }
    await page.waitForTimeout(intervalMs);
  }
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A location as the views name it: `dir/name.ext` or `dir/name.ext:start-end` (a section). */
function locKey(loc) {
  return loc.startLine === undefined ? loc.path : `${loc.path}:${loc.startLine}-${loc.endLine}`;
}

/** "distance N" in a text: N, or a reason to fail (absent, not an integer, out of bounds). */
function distanceIn(text, bound, where) {
  const m = /\bdistance (\S+?)[,)·\s]/.exec(`${text} `);
  assert(m, `${where}: no "distance N" in "${text}"`);
  assert(/^\d+$/.test(m[1]), `${where}: distance "${m[1]}" is not an integer ("${text}")`);
  const d = Number(m[1]);
  assert(d >= 0 && d <= bound, `${where}: distance ${d} is beyond the setting's bound ${bound} ("${text}")`);
  return d;
}

/** Visible notifications (a command that found nothing says so in one). */
async function notificationTexts() {
  return page.locator('.notifications-toasts .notification-toast .notification-list-item-message').allInnerTexts().catch(() => []);
}

// ------------------------------------------------------------------ expectations from the fixture
/** Line (1-based) of the definition of function `fn` in a fixture file. */
function definitionLine(workspace, rel, fn) {
  const lines = fs.readFileSync(path.join(workspace, rel), 'utf8').split(/\r?\n/);
  const i = lines.findIndex((l) => new RegExp(`\\bfunction\\s+${escapeRe(fn)}\\s*\\(`).test(l));
  assert(i >= 0, `no definition of ${fn}() in ${rel}`);
  return i + 1;
}

/**
 * What the views must show, from the packaged CLI's JSON report on the same copy of the fixture:
 * each planted pair with its locations and distance, the groups of each kind and the number of
 * near-duplicate items (one diagnostic each).
 */
function expectationsFromCli(cli, workspace) {
  const { execFileSync } = require('child_process');
  // The SimHash report (--no-locate): the pairs and groups the views list as near duplicates.
  const out = execFileSync(process.execPath, [cli, 'scan', workspace, '--format', 'json', '--no-progress', '--quiet', '--no-locate'], {
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report = JSON.parse(out);
  const pairs = PLANTED.map((plant) => {
    const covers = (loc, rel) => loc.path === rel && (!plant.fn ||
      (loc.startLine <= definitionLine(workspace, rel, plant.fn) && definitionLine(workspace, rel, plant.fn) <= loc.endLine));
    const found = report.pairs.find((p) => p.kind === plant.kind &&
      ((covers(p.a, plant.a) && covers(p.b, plant.b)) || (covers(p.a, plant.b) && covers(p.b, plant.a))));
    assert(found, `the CLI does not report the planted ${plant.kind} pair ${plant.a} ↔ ${plant.b}` +
      `${plant.fn ? ` (${plant.fn}())` : ''}; it reports ${report.pairs.map((p) => `${locKey(p.a)} ↔ ${locKey(p.b)}`).join(', ')}`);
    const [a, b] = found.a.path === plant.a ? [found.a, found.b] : [found.b, found.a];
    return { ...plant, a: locKey(a), b: locKey(b), distance: found.distance };
  });
  const items = new Set(report.pairs.flatMap((p) => [locKey(p.a), locKey(p.b)]));
  const groups = { file: 0, section: 0 };
  for (const g of report.groups) groups[g.kind]++;
  return { pairs, items: items.size, groups, share: lineShare(workspace, report) };
}

/**
 * The share of the fixture's lines in near duplicates, from the CLI's pairs and the files: every
 * line of a file in a file pair, the lines of its paired sections otherwise (each line once).
 */
function lineShare(workspace, report) {
  const linesOf = (rel) => {
    const t = fs.readFileSync(path.join(workspace, rel), 'utf8');
    return t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
  };
  const walk = (dir) => fs.readdirSync(path.join(workspace, dir), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const total = walk('').reduce((n, f) => n + linesOf(f), 0);
  const covered = new Map();
  for (const p of report.pairs) {
    for (const loc of [p.a, p.b]) {
      const set = covered.get(loc.path) || new Set();
      covered.set(loc.path, set);
      const [a, b] = loc.startLine === undefined ? [1, linesOf(loc.path)] : [loc.startLine, loc.endLine];
      for (let l = a; l <= b; l++) set.add(l);
    }
  }
  const duplicated = [...covered.values()].reduce((n, s) => n + s.size, 0);
  return { total, duplicated, percent: `${Math.round((100 * duplicated) / total)}%` };
}

/** A setting's value for the workspace: the manifest's default unless the fixture sets it. */
function settingValue(manifest, workspace, key) {
  const settingsFile = path.join(workspace, '.vscode', 'settings.json');
  if (fs.existsSync(settingsFile)) {
    const own = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    if (own[key] !== undefined) return own[key];
  }
  const conf = manifest.contributes.configuration;
  const props = Object.assign({}, ...(Array.isArray(conf) ? conf : [conf]).map((c) => c.properties || {}));
  assert(props[key] && props[key].default !== undefined, `the manifest has no default for ${key}`);
  return props[key].default;
}

// ------------------------------------------------------------------ workbench helpers
async function waitForWorkbench() {
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.part.activitybar, .part.statusbar', { timeout: 60_000 });
  // The explorer lists the fixture once the remote file system is connected.
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
}

async function closeQuickInput() {
  if (await page.isVisible('.quick-input-widget')) await page.keyboard.press('Escape');
  await page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 5_000 }).catch(() => {});
}

/**
 * Hides an editor hover an earlier step left open. A hover that hides gives the focus back to its
 * editor, and a quick input opened meanwhile loses it and closes: the text typed for it then lands
 * in the editor (seen once in CI: Quick Open opened while the hover of the step before was still
 * hiding).
 */
async function dismissHover() {
  if (!(await page.isVisible('.monaco-hover:not(.hidden)'))) return;
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.monaco-hover:not(.hidden)', { state: 'hidden', timeout: 5_000 });
}

/**
 * Hides the panel (Ctrl+J) and waits for what that does: the panel hidden and the focus given to
 * the editor. A key's command runs only after the extension host was asked to activate what
 * listens for it (a round trip, the first time a command is used), so its effect can come well
 * after the key: seen in CI, Ctrl+J's hiding gave the editor the focus while the next step's
 * Quick Open was being typed into, and the quick input closed on losing it.
 */
async function hidePanel() {
  if (!(await page.isVisible('.part.panel'))) return;
  await page.keyboard.press('Control+J');
  await page.waitForSelector('.part.panel', { state: 'hidden', timeout: 10_000 });
  await page.waitForFunction(() => !!document.activeElement?.closest('.part.editor'), null, { timeout: 5_000 });
}

const QUICK_INPUT = '.quick-input-widget .quick-input-box input';

/**
 * Waits until the quick input just opened has the keyboard's focus, types `text` into it, and
 * checks that it still holds what was typed (else the keys went elsewhere: a clear failure, not a
 * row that never comes).
 */
async function typeIntoQuickInput(text, prefix = '') {
  await page.waitForSelector(QUICK_INPUT, { state: 'visible', timeout: 10_000 });
  await page.waitForFunction((sel) => document.activeElement?.matches(sel) === true, QUICK_INPUT, { timeout: 5_000 });
  await page.keyboard.type(text, { delay: 20 });
  const value = await page.locator(QUICK_INPUT).inputValue({ timeout: 2_000 });
  assert(value === prefix + text, `the quick input holds ${JSON.stringify(value)} after typing ${JSON.stringify(text)}`);
}

/**
 * Opens Quick Open (Ctrl+P) and types `text`. (No click on the editor part first: at its corner
 * is the first tab, and a click there makes that file active, whose editor takes the focus a
 * moment later — from the quick input opened meanwhile, which closes: seen in CI, 's' typed into
 * Quick Open and 'alesReport.ts' into orderService.ts.)
 */
async function quickOpen(text) {
  await closeQuickInput();
  await dismissHover();
  await page.keyboard.press('Control+P');
  await typeIntoQuickInput(text);
}

/** Opens the command palette (F1) and types `text` after the '>' prefix. */
async function commandPalette(text) {
  await closeQuickInput();
  await dismissHover();
  await page.keyboard.press('F1');
  await typeIntoQuickInput(text, '>');
}

function quickPickRow(labelSubstring) {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: labelSubstring }).first();
}

/**
 * Presses Enter on the quick input once its focused (active) row is the one wanted. Quick Open
 * filters as you type, asynchronously: the list of recently opened files, shown first, can already
 * hold a row with the name while another row (the active editor) is still the focused one, and
 * Enter then opens that other file (seen on a loaded machine).
 */
async function enterOnQuickPickRow(labelSubstring) {
  await poll(`the quick input's focused row naming ${labelSubstring}`, async () => {
    const st = await quickInputState();
    const focused = st.rows.find((r) => r.focused);
    assert(st.visible && focused && focused.text.includes(labelSubstring), describeQuickInput(st));
  }, { timeoutMs: 15_000, intervalMs: 100 });
  await page.keyboard.press('Enter');
}

/**
 * Runs in the workbench page: `__neardupDescribe(element)` (its tag, first classes, label and part)
 * and the last 12 elements that took the focus, with when (a quick input closes when the focus
 * leaves it; a failing step then says what took it).
 */
function recordFocusTrail() {
  const describe = (a) => {
    const part = a.closest('.part');
    return `${a.tagName.toLowerCase()}` +
      `${typeof a.className === 'string' && a.className.trim() ? `.${a.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''}` +
      `${a.getAttribute('aria-label') ? ` "${a.getAttribute('aria-label').slice(0, 40)}"` : ''}` +
      `${part ? ` in ${[...part.classList].slice(0, 2).join('.')}` : ''}`;
  };
  const trail = [];
  window.__neardupDescribe = describe;
  window.__neardupFocusTrail = trail;
  window.addEventListener('focusin', (e) => {
    if (!(e.target instanceof Element)) return;
    trail.push(`${Math.round(performance.now())} ms: ${describe(e.target)}`);
    if (trail.length > 12) trail.shift();
  }, true);
}

function describeQuickInput(st) {
  const focus = `the focus: ${st.active}; at ${st.now} ms, the last to take it: ${st.trail.join(' / ') || 'none seen'}`;
  if (!st.visible) return `the quick input is hidden (${focus})`;
  const rows = st.rows.slice(0, 8).map((r) => `${r.focused ? '>' : ' '}${r.text}`).join(' | ');
  return `the quick input holds ${JSON.stringify(st.value)}, rows: ${rows || 'none'} (${focus})`;
}

/**
 * The open quick input: title, text, and each row's label, description, detail, whole text and
 * whether it is the focused one; and where the focus is, with the last elements that took it.
 */
async function quickInputState() {
  return page.evaluate(() => {
    const a = document.activeElement;
    const focus = {
      active: a && window.__neardupDescribe ? window.__neardupDescribe(a) : 'unknown',
      trail: (window.__neardupFocusTrail ?? []).slice(-6),
      now: Math.round(performance.now()),
    };
    const widget = document.querySelector('.quick-input-widget');
    if (!widget || widget.style.display === 'none') return { visible: false, title: '', value: null, rows: [], ...focus };
    const text = (el, sel) => (el.querySelector(sel)?.textContent ?? '').trim();
    const rows = [...widget.querySelectorAll('.quick-input-list .monaco-list-row')]
      .map((r) => ({
        index: Number(r.dataset.index),
        label: text(r, '.label-name'),
        description: text(r, '.label-description'),
        detail: text(r, '.quick-input-list-label-meta .label-name'),
        text: (r.textContent ?? '').replace(/\s+/g, ' ').trim(),
        focused: r.classList.contains('focused'),
      }))
      .sort((x, y) => x.index - y.index);
    const input = widget.querySelector('.quick-input-box input');
    return { visible: true, title: text(widget, '.quick-input-title'), value: input ? input.value : null, rows, ...focus };
  });
}

/** The Near Duplicates tree's rendered rows, in order: level, expanded, label, description. */
async function treeRows(viewName) {
  return page.evaluate((name) => {
    const tree = [...document.querySelectorAll('.part.sidebar .monaco-list[role="tree"]')].find((t) => t.getAttribute('aria-label') === name);
    if (!tree) return null;
    const text = (el, sel) => (el.querySelector(sel)?.textContent ?? '').trim();
    return [...tree.querySelectorAll('.monaco-list-row[role="treeitem"]')]
      .map((r) => ({
        index: Number(r.dataset.index),
        level: Number(r.getAttribute('aria-level')),
        expanded: r.getAttribute('aria-expanded'),
        label: text(r, '.label-name'),
        description: text(r, '.label-description'),
      }))
      .sort((x, y) => x.index - y.index);
  }, viewName);
}

/**
 * The Problems panel's rendered rows grouped by file: [{ path (relative to the workspace),
 * markers: [{ message, source, code, related: [text] }] }], and the list's summary ("Showing 8
 * problems", "Showing 2 of 8 problems", "No results found…").
 */
async function problemsState(workspace) {
  return page.evaluate((root) => {
    const panel = document.querySelector('.part.panel .markers-panel');
    if (!panel) return null;
    const text = (el, sel) => (el.querySelector(sel)?.textContent ?? '').trim();
    const rows = [...panel.querySelectorAll('.monaco-list-row[role="treeitem"]')].sort((x, y) => Number(x.dataset.index) - Number(y.dataset.index));
    const files = [];
    for (const r of rows) {
      const level = Number(r.getAttribute('aria-level'));
      if (level === 1) {
        const full = r.querySelector('.resource-label-container .monaco-icon-label')?.getAttribute('aria-label') ?? '';
        files.push({ path: full.startsWith(`${root}/`) ? full.slice(root.length + 1) : full, markers: [] });
      } else if (level === 2 && files.length) {
        files[files.length - 1].markers.push({
          message: text(r, '.marker-message'),
          source: text(r, '.marker-source'),
          code: text(r, '.marker-code'),
          related: [],
        });
      } else if (level === 3 && files.length) {
        const markers = files[files.length - 1].markers;
        if (markers.length) markers[markers.length - 1].related.push(`${text(r, '.related-info-resource')}: ${text(r, '.marker-description')}`);
      }
    }
    const summary = panel.querySelector('#markers-panel-arialabel')?.getAttribute('aria-label') ?? '';
    const empty = [...panel.querySelectorAll('.message-box-container')].some((m) => m.style.display !== 'none' && m.textContent.trim() !== '');
    return { files, summary, empty };
  }, workspace);
}

/** Types `text` into the Problems panel's filter box, as a user would. */
async function filterProblems(text) {
  const input = page.locator('.part.panel .viewpane-filter input:visible').first();
  await input.click({ timeout: 10_000 });
  await page.keyboard.press('Control+A');
  if (text) await page.keyboard.type(text, { delay: 20 });
  else await page.keyboard.press('Backspace');
}

// ------------------------------------------------------------------ main
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  fs.mkdirSync(RESULTS, { recursive: true });
  for (const f of fs.readdirSync(RESULTS)) if (/^e2e-.*\.png$/.test(f)) fs.rmSync(path.join(RESULTS, f));
  if (!fs.existsSync(opts.vsix)) throw new Error(`${opts.vsix} not found: run npm run package first`);

  const install = lib.resolveInstall();
  const tmp = lib.makeTempDir('neardup-e2e-');
  const workspace = lib.copyDir(path.join(ROOT, 'test', 'fixtures', 'workspace'), path.join(tmp, 'workspace'));
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  const logFile = path.join(RESULTS, 'e2e-code-server.log');
  fs.rmSync(logFile, { force: true });

  let server;
  let browser;
  let timer;
  const cleanup = async () => {
    clearTimeout(timer);
    if (browser) await browser.close().catch(() => {});
    if (server) await server.stop().catch(() => {});
    // Keep VS Code's logs (extension host, output channels) for debugging a failure.
    const logsDir = path.join(RESULTS, 'e2e-logs');
    fs.rmSync(logsDir, { recursive: true, force: true });
    if (fs.existsSync(path.join(userDataDir, 'logs'))) fs.cpSync(path.join(userDataDir, 'logs'), logsDir, { recursive: true });
    if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`[e2e] kept ${tmp}`);
  };
  process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));
  process.once('SIGTERM', () => cleanup().finally(() => process.exit(143)));

  const run = async () => {
    let manifest;
    let extensionDir;
    let nls = {};
    // Manifest strings such as "%command.findNearDuplicates%" come from package.nls.json (English UI).
    const localize = (v) => {
      const m = typeof v === 'string' && /^%(.+)%$/.exec(v);
      return m && nls[m[1]] !== undefined ? nls[m[1]] : v;
    };
    console.log(`[e2e] vsix: ${path.relative(ROOT, opts.vsix)} (${(fs.statSync(opts.vsix).size / 1048576).toFixed(2)} MiB)`);

    await check('the .vsix installs with code-server --install-extension', async () => {
      const common = ['--config', path.join(tmp, 'cfg.yaml'), '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir];
      fs.writeFileSync(path.join(tmp, 'cfg.yaml'), '');
      const out = lib.runCodeServerCli(install, [...common, '--install-extension', opts.vsix, '--force']);
      assert(/successfully installed/i.test(out), `install output:\n${out}`);
      const list = lib.runCodeServerCli(install, [...common, '--list-extensions', '--show-versions']);
      const pkg = require(path.join(ROOT, 'package.json'));
      const id = `${pkg.publisher}.${pkg.name}`;
      assert(list.split('\n').some((l) => l.trim().toLowerCase().startsWith(`${id}@`)), `${id} not in --list-extensions:\n${list}`);
      const dir = fs.readdirSync(extensionsDir).find((d) => d.toLowerCase().startsWith(`${id}-`));
      assert(dir, `no ${id}-* folder in ${extensionsDir}`);
      extensionDir = path.join(extensionsDir, dir);
      manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
      // The native fingerprinting kernel ships beside the bundles (the TypeScript is the fallback).
      assert(fs.existsSync(path.join(extensionsDir, dir, 'dist', 'neardup_kernel.node')), 'dist/neardup_kernel.node not in the installed extension');
      // And the WebAssembly kernel, used wherever the native one is not there.
      assert(fs.existsSync(path.join(extensionsDir, dir, 'dist', 'neardup_kernel.wasm')), 'dist/neardup_kernel.wasm not in the installed extension');
      // VS Code for the Web's entry (package.json "browser"), its engine worker and jieba-wasm's module.
      for (const f of ['extension.js', 'engineWorker.js', 'jieba_rs_wasm_bg.wasm']) {
        assert(fs.existsSync(path.join(extensionsDir, dir, 'dist', 'web', f)), `dist/web/${f} not in the installed extension`);
      }
      const nlsFile = path.join(extensionsDir, dir, 'package.nls.json');
      nls = fs.existsSync(nlsFile) ? JSON.parse(fs.readFileSync(nlsFile, 'utf8')) : {};
      console.log(`      installed ${list.trim().split('\n').join(', ')}`);
    });
    if (!manifest) return;
    const contributes = manifest.contributes || {};
    const commandTitle = localize(((contributes.commands || []).find((c) => c.command === COMMAND_ID) || {}).title);
    const containerRaw = ((contributes.viewsContainers || {}).activitybar || []).find((c) => c.id === CONTAINER_ID);
    const container = containerRaw && { ...containerRaw, title: localize(containerRaw.title) };
    const viewRaw = ((contributes.views || {})[CONTAINER_ID] || []).find((v) => v.id === VIEW_ID);
    const view = viewRaw && { ...viewRaw, name: localize(viewRaw.name) };
    // The largest distances the views may show (the fixture sets neither: the manifest's defaults).
    const bound = {
      file: settingValue(manifest, workspace, 'neardup.maxDistance'),
      section: settingValue(manifest, workspace, 'neardup.sectionMaxDistance'),
    };

    let expected;
    await check('the packaged CLI finds the planted pairs in the fixture (the expected distances)', async () => {
      expected = expectationsFromCli(path.join(extensionDir, 'dist', 'cli.js'), workspace);
      for (const p of expected.pairs) {
        const max = bound[p.kind];
        assert(Number.isInteger(p.distance) && p.distance >= 0 && p.distance <= max, `${p.a} ↔ ${p.b}: distance ${p.distance}, bound ${max}`);
      }
      console.log(`      ${expected.pairs.map((p) => `${p.a} ↔ ${p.b}: distance ${p.distance}`).join('; ')}`);
      console.log(`      ${expected.groups.file} file groups, ${expected.groups.section} section groups, ${expected.items} near-duplicate items; bounds ${bound.file} / ${bound.section}`);
    });
    const needExpected = () => assert(expected, 'no expectations: the CLI scan of the fixture failed (see above)');
    const planted = (kind, a) => expected.pairs.find((p) => p.kind === kind && p.a === a);

    server = await lib.startCodeServer(install, { tmp, extensionsDir, logFile, folder: workspace });
    console.log(`[e2e] code-server on ${server.url}`);
    browser = await lib.launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (err) => console.log(`  [page error] ${err.message}`));
    await page.addInitScript(recordFocusTrail);

    await check('the packaged CLI\'s --format html page renders offline in chromium with every group and pair (test/e2e/htmlReport.js)', async () => {
      const r = await checkHtmlReport({ cli: path.join(extensionDir, 'dist', 'cli.js'), browser, tmp, screenshotFile: path.join(RESULTS, `e2e-${String(++shotNo).padStart(2, '0')}-html-report.png`) });
      console.log(`      ${r.groups} groups, ${r.pairs} pairs, ${r.nodes} treemap boxes, ${r.bars} bars; ${r.bytes} bytes`);
    });

    await check('the workbench loads with the fixture workspace', async () => {
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
      await waitForWorkbench();
      const names = await page.locator('.explorer-folders-view .monaco-list-row').allInnerTexts();
      assert(names.some((n) => n.includes('code')) && names.some((n) => n.includes('docs')), `explorer shows: ${names.join(', ')}`);
      await screenshot('workbench');
    });

    await check('Quick Open opens code/orderService.ts', async () => {
      await quickOpen('orderService.ts');
      await quickPickRow('orderService.ts').waitFor({ timeout: 15_000 });
      await screenshot('quick-open');
      await enterOnQuickPickRow('orderService.ts');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="orderService.ts"]', { timeout: 15_000 });
      await page.waitForSelector('.part.editor .monaco-editor .view-lines', { timeout: 15_000 });
      await screenshot('file-open');
    });

    await check('the status bar shows the finished index with the groups found', async () => {
      needExpected();
      // The item appears once the extension activated (onStartupFinished); it spins while indexing,
      // then shows "$(copy) NearDup <groups>". A user waits for that before asking for results.
      const item = page.locator(`.part.statusbar .statusbar-item[id$=".${STATUS_ID}"]`).first();
      const groups = expected.groups.file + expected.groups.section;
      // Then the share of the workspace's lines in near duplicates, and of the open file's
      // (code/orderService.ts: a near-duplicate file, all of it).
      const want = `NearDup ${groups} · ${expected.share.percent} · this file 100%`;
      await poll(`the status bar's NearDup item showing "${want}" (index finished)`, async () => {
        const text = (await item.innerText({ timeout: 1000 })).trim();
        const done = (await item.locator('.codicon-copy').count()) > 0;
        assert(done && text === want, `"${text}"${done ? '' : ' (still indexing)'}`);
      }, { timeoutMs: 150_000 });
      await screenshot('indexed');
    });

    await check(`the command palette runs "${COMMAND_TITLE}": its quick pick names code/orderServiceCopy.ts`, async () => {
      needExpected();
      assert(commandTitle, `package.json does not contribute ${COMMAND_ID}`);
      assert(commandTitle === COMMAND_TITLE, `contributed title is "${commandTitle}", expected "${COMMAND_TITLE}"`);
      await commandPalette(COMMAND_TITLE);
      const row = quickPickRow(COMMAND_TITLE);
      await row.waitFor({ timeout: 15_000 });
      await screenshot('palette');
      await enterOnQuickPickRow(COMMAND_TITLE);
      // The palette closes and the command's own quick pick opens, titled after the file.
      const twin = planted('file', 'code/orderService.ts');
      const title = 'Near duplicates of code/orderService.ts';
      const found = await poll(`a quick pick "${title}" listing code/orderServiceCopy.ts`, async () => {
        const qi = await quickInputState();
        const toasts = await notificationTexts();
        assert(qi.visible && qi.title === title,
          `quick input ${qi.visible ? `"${qi.title}"` : 'hidden'}${toasts.length ? `; notifications: ${toasts.join(' | ')}` : ''}`);
        const r = qi.rows.find((x) => x.detail === `Whole file: ${twin.b}`);
        assert(r, `rows: ${JSON.stringify(qi.rows)}`);
        return r;
      }, { timeoutMs: 30_000 });
      await screenshot('after-command');
      assert(found.label === path.posix.basename(twin.b), `the row's label is "${found.label}"`);
      const d = distanceIn(found.description, bound.file, 'the quick pick row');
      assert(d === twin.distance, `the quick pick shows distance ${d}, the CLI ${twin.distance} ("${found.description}")`);
      assert(/^distance \d+ · \d+(\.\d+)?%$/.test(found.description), `the row's description is "${found.description}"`);
      await closeQuickInput();
    });

    await check('the NearDup view container opens from the activity bar', async () => {
      assert(container, `package.json does not contribute the "${CONTAINER_ID}" view container`);
      assert(view, `package.json does not contribute the "${VIEW_ID}" view`);
      const item = page.locator(`.part.activitybar .action-item a[aria-label^="${container.title}"], ` +
        `.part.activitybar .action-item[aria-label^="${container.title}"]`).first();
      // Start from the Explorer: the command above may have revealed the NearDup view already,
      // and clicking the active container's icon would hide the side bar instead.
      await closeQuickInput();
      await page.keyboard.press('Control+Shift+E');
      await page.waitForSelector('.explorer-folders-view', { state: 'visible', timeout: 10_000 });
      await item.click({ timeout: 15_000 });
      await page.waitForSelector('.part.sidebar .composite.title', { timeout: 15_000 });
      await poll(`the side bar titled "${container.title}"`, async () => {
        const title = (await page.locator('.part.sidebar .composite.title').first().innerText()).toLowerCase();
        assert(title.includes(container.title.toLowerCase()), `sidebar title "${title}"`);
      }, { timeoutMs: 15_000 });
      // A container with a single view hides that view's pane header ("NearDup: Near Duplicates"
      // is then the side bar title), so the header need only be attached.
      await page.locator(`.part.sidebar .pane-header[aria-label^="${view.name}"]`).first()
        .waitFor({ state: 'attached', timeout: 15_000 });
      await page.locator(`.part.sidebar .monaco-list[role="tree"][aria-label="${view.name}"] .monaco-list-row`).first()
        .waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot('neardup-view');
    });

    await check('the Near Duplicates tree shows the planted pairs with their distances', async () => {
      needExpected();
      assert(view, `package.json does not contribute the "${VIEW_ID}" view`);
      const tree = page.locator(`.part.sidebar .monaco-list[role="tree"][aria-label="${view.name}"]`);
      const rows = async () => {
        const r = await treeRows(view.name);
        assert(r, `no tree "${view.name}" in the side bar`);
        return r;
      };
      // Both kinds are shown (the default mode): a "Files" and a "Sections" category, expanded,
      // each counting the groups the CLI finds.
      await poll('the categories "Files" and "Sections" with their group counts', async () => {
        const r = await rows();
        const cat = (label) => r.find((x) => x.level === 1 && x.label === label);
        for (const [label, n] of [['Files', expected.groups.file], ['Sections', expected.groups.section]]) {
          const c = cat(label);
          assert(c, `no category "${label}"; rows: ${JSON.stringify(r.map((x) => `${x.level} ${x.label} ${x.description}`))}`);
          assert(c.expanded === 'true', `category "${label}" is collapsed`);
          const want = n === 1 ? '1 group' : `${n} groups`;
          assert(c.description === want, `category "${label}": "${c.description}", expected "${want}"`);
        }
      }, { timeoutMs: 60_000 });

      // Each planted pair: its group (named after one of its members), expanded by a click as a
      // user would, lists both members; the one that is not the representative shows its distance.
      const nameOf = (key) => path.posix.basename(key); // "orderService.ts", "logParser.ts:15-44"
      const keyOf = (row) => {
        // A member's description: "representative · code" or "distance 1 · 98.4% · code".
        const parts = row.description.split(' · ');
        const dir = parts.length > 1 && !/%$/.test(parts[parts.length - 1]) ? parts[parts.length - 1] : '';
        return dir ? `${dir}/${row.label}` : row.label;
      };
      const shown = [];
      for (const p of expected.pairs) {
        const names = [nameOf(p.a), nameOf(p.b)];
        const group = await poll(`a ${p.kind} group named ${names.join(' or ')}`, async () => {
          const r = await rows();
          const g = r.find((x) => x.level === 2 && names.includes(x.label));
          assert(g, `groups: ${r.filter((x) => x.level === 2).map((x) => x.label).join(', ')}`);
          return g;
        }, { timeoutMs: 30_000 });
        const groupRow = (expanded) => tree.locator(`.monaco-list-row[aria-level="2"]${expanded ? '[aria-expanded="true"]' : ''}`)
          .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(group.label)}$`) }) }).first();
        if (group.expanded !== 'true') {
          await groupRow(false).locator('.label-name').click({ timeout: 10_000 });
          await groupRow(true).waitFor({ state: 'visible', timeout: 15_000 });
        }
        const members = await poll(`the members of group ${group.label}`, async () => {
          const r = await rows();
          const at = r.findIndex((x) => x.level === 2 && x.label === group.label);
          assert(at >= 0 && r[at].expanded === 'true', `group ${group.label} not expanded`);
          const m = [];
          for (let i = at + 1; i < r.length && r[i].level > 2; i++) m.push(r[i]);
          const keys = m.map(keyOf);
          assert(keys.includes(p.a) && keys.includes(p.b), `group ${group.label} lists ${JSON.stringify(m.map((x) => `${x.label} (${x.description})`))}, expected ${p.a} and ${p.b}`);
          return m;
        }, { timeoutMs: 30_000 });
        const reps = members.filter((m) => m.description.startsWith('representative'));
        assert(reps.length === 1, `group ${group.label}: ${reps.length} representatives`);
        const rep = keyOf(reps[0]);
        assert(rep === p.a || rep === p.b, `group ${group.label}: the representative is ${rep}`);
        const other = members.find((m) => keyOf(m) === (rep === p.a ? p.b : p.a));
        const d = distanceIn(other.description, bound[p.kind], `tree member ${keyOf(other)}`);
        assert(d === p.distance, `tree member ${keyOf(other)}: distance ${d}, the CLI ${p.distance} ("${other.description}")`);
        assert(/^distance \d+ · \d+(\.\d+)?% · /.test(other.description), `tree member ${keyOf(other)}: "${other.description}"`);
        // The group's description: "2 files · max distance N" (sections: "2 sections · …").
        const unit = p.kind === 'file' ? 'files' : 'sections';
        assert(new RegExp(`^${members.length} ${unit} · max distance \\d+$`).test(group.description), `group ${group.label}: "${group.description}"`);
        const gd = distanceIn(group.description, bound[p.kind], `group ${group.label}`);
        assert(gd >= d, `group ${group.label}: max distance ${gd} below a member's ${d}`);
        shown.push(`${p.a} ↔ ${p.b}: ${other.description}`);
      }
      const all = await rows();
      assert(!all.some((x) => x.label.startsWith(path.posix.basename(UNIQUE))), `the tree lists ${UNIQUE}`);
      await screenshot('neardup-tree');
      console.log(`      ${shown.join('; ')}`);
    });

    await check('the Problems panel holds NearDup diagnostics on code/orderService.ts, none on notes/', async () => {
      needExpected();
      await closeQuickInput();
      await page.keyboard.press('Control+Shift+M');
      await page.waitForSelector('.part.panel .markers-panel, .part.panel [id="workbench.panel.markers"]', { timeout: 15_000 });
      // All of NearDup's diagnostics are there (one per near-duplicate file or section) before
      // anything is said to be absent: filtered on their source, the panel counts them.
      await filterProblems(`@source:${DIAGNOSTIC_SOURCE}`);
      await poll(`${expected.items} "${DIAGNOSTIC_SOURCE}" problems in the Problems panel`, async () => {
        const st = await problemsState(workspace);
        assert(st, 'no Problems panel');
        const m = /^Showing (\d+)(?: of \d+)? problems$/.exec(st.summary);
        assert(m && Number(m[1]) === expected.items, `"${st.summary}"`);
      }, { timeoutMs: 60_000 });

      // The file's own problems: the filter keeps the files named orderService… (and problems that
      // mention it), few enough rows to be all rendered.
      const twin = planted('file', 'code/orderService.ts');
      await filterProblems('orderService');
      const marker = await poll(`a "${DIAGNOSTIC_SOURCE}" problem on ${twin.a} naming ${twin.b}`, async () => {
        const st = await problemsState(workspace);
        // The list of the previous filter stays until the new one applies.
        const applied = st.files.length > 0 && st.files.every((f) => /orderService/i.test(path.posix.basename(f.path)) ||
          f.markers.some((x) => /orderService/i.test(x.message)));
        assert(applied, `the filter is not applied yet: ${st.files.map((f) => f.path).join(', ') || 'no files'} (${st.summary})`);
        const file = st.files.find((f) => f.path === twin.a);
        assert(file, `files listed: ${st.files.map((f) => f.path).join(', ') || 'none'} (${st.summary})`);
        const mk = file.markers.find((x) => x.source.startsWith(DIAGNOSTIC_SOURCE) && x.message.includes(twin.b));
        assert(mk, `problems on ${twin.a}: ${JSON.stringify(file.markers)}`);
        return mk;
      }, { timeoutMs: 30_000 });
      await screenshot('problems');
      assert(/^Near duplicate of /.test(marker.message), `message "${marker.message}"`);
      const d = distanceIn(marker.message, bound.file, `the problem on ${twin.a}`);
      assert(d === twin.distance, `the problem on ${twin.a} says distance ${d}, the CLI ${twin.distance} ("${marker.message}")`);
      assert(marker.related.some((r) => r.startsWith(`${path.posix.basename(twin.b)}: distance ${d} `)),
        `related information of the problem: ${JSON.stringify(marker.related)}`);

      // None on the unique notes: filtered on its name (as orderService above), the panel has
      // nothing to show. Polled until the panel shows either that or the notes' problems (the list
      // of the previous filter stays until the new one applies).
      await filterProblems(path.posix.basename(UNIQUE, '.md'));
      const st = await poll(`the Problems panel filtered on ${UNIQUE}: "No results"`, async () => {
        const s = await problemsState(workspace);
        assert(s.empty || s.files.some((f) => f.path === UNIQUE), `it shows ${s.files.map((f) => f.path).join(', ')} ("${s.summary}")`);
        return s;
      }, { timeoutMs: 30_000 });
      await screenshot('problems-unique');
      const own = st.files.find((f) => f.path === UNIQUE);
      assert(!own, `problems on ${UNIQUE}: ${JSON.stringify(own && own.markers)}`);
      await filterProblems('');
    });

    await check('in the editor: the copied section of code/logParser.ts has its CodeLens, and its hover names the twin', async () => {
      needExpected();
      const pair = expected.pairs.find((p) => p.kind === 'section');
      const [twin, self] = pair.a.startsWith('code/logParser.ts') ? [pair.b, pair.a] : [pair.a, pair.b];
      await quickOpen('logParser.ts');
      await enterOnQuickPickRow('logParser.ts');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="logParser.ts"]', { timeout: 15_000 });
      const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
      const lens = `1 near duplicate (d=${pair.distance})`;
      await poll(`the CodeLens "${lens}" above the section`, async () => {
        const lenses = await editor.locator('.codelens-decoration').allInnerTexts();
        assert(lenses.some((t) => t.includes(lens)), `CodeLens shown: ${JSON.stringify(lenses)}`);
      }, { timeoutMs: 30_000 });
      // A line inside the section (self: code/logParser.ts:start-end): hover a word of it.
      const line = editor.locator('.view-line', { hasText: 'let inQuotes = false;' }).first();
      await line.waitFor({ timeout: 10_000 });
      const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'NearDup' }).first();
      await poll(`the hover on ${self} naming ${twin}`, async () => {
        await page.mouse.move(5, 5);
        await line.locator('span', { hasText: 'inQuotes' }).last().hover({ timeout: 2000 });
        await hover.waitFor({ timeout: 3000 });
        const text = await hover.innerText({ timeout: 1000 });
        assert(text.includes(twin) && text.includes(`distance ${pair.distance}`), `hover: ${JSON.stringify(text)}`);
        assert(/Compare/.test(text) && /Open twin/.test(text), `hover links: ${JSON.stringify(text)}`);
      }, { timeoutMs: 30_000 });
      await screenshot('editor-hover');
    });

    await check('the hover on an edited copy (code/orderService.ts) shows the twin\'s differing lines', async () => {
      needExpected();
      const pair = planted('file', 'code/orderService.ts');
      await closeQuickInput();
      await hidePanel(); // the Problems panel is open: hide it, the editor gets its room
      // Line 44 (`let subtotal = 0;`, renamed in the copy) is below the first screen: Quick Open
      // goes to it (nothing is typed into the editor).
      await quickOpen('orderService.ts:44');
      await enterOnQuickPickRow('orderService.ts');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="orderService.ts"]', { timeout: 15_000 });
      const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
      const line = editor.locator('.view-line', { hasText: 'let subtotal = 0;' }).first();
      await line.waitFor({ timeout: 10_000 });
      const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'NearDup' }).first();
      await poll(`the hover on code/orderService.ts with the lines that differ in ${pair.b}`, async () => {
        await page.mouse.move(5, 5);
        await line.locator('span', { hasText: 'subtotal' }).last().hover({ timeout: 2000 });
        await hover.waitFor({ timeout: 3000 });
        const text = await hover.innerText({ timeout: 1000 });
        assert(text.includes(pair.b) && text.includes(`distance ${pair.distance}`), `hover: ${JSON.stringify(text)}`);
        assert(text.includes(`What differs in ${pair.b}`) && /\+\s+let netAmount = 0;/.test(text) && /-\s+let subtotal = 0;/.test(text), `hover's diff: ${JSON.stringify(text)}`);
      }, { timeoutMs: 30_000 });
      await screenshot('editor-hover-diff');
    });

    await check('a pasted copy is recognised as it lands: the function of code/logParser.ts lines 46–54 pasted into code/salesReport.ts gets one notice naming them', async () => {
      needExpected();
      await closeQuickInput();
      // Copy: lines 46–54 of code/logParser.ts (parseLogLine), selected with the keyboard.
      await quickOpen('logParser.ts');
      await enterOnQuickPickRow('logParser.ts');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="logParser.ts"]', { timeout: 15_000 });
      // Unfold everything (a fold left by an earlier step makes the arrow keys skip lines), then go
      // to line 46 with Quick Open's ':' (go to line in the active editor).
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+J');
      // (The command runs a moment after the keys, see hidePanel: no fold is left once it ran.)
      await poll('no folded lines in code/logParser.ts', async () => {
        const folded = await page.locator('.part.editor .editor-instance .monaco-editor .margin .codicon-folding-collapsed').count();
        assert(folded === 0, `${folded} folded regions`);
      }, { timeoutMs: 10_000 });
      // (Quick Open with ':' — go to line in the active editor.)
      await page.keyboard.press('Control+P');
      await page.waitForSelector('.quick-input-widget .quick-input-box input', { state: 'visible', timeout: 10_000 });
      await page.keyboard.type(':46', { delay: 20 });
      await page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused').first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      await page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 5_000 });
      await poll('the cursor on line 46', async () => {
        const pos = await page.locator('.statusbar-item[id$="status.editor.selection"]').first().innerText({ timeout: 1000 });
        assert(/Ln 46\b/.test(pos), pos);
      }, { timeoutMs: 10_000 });
      await page.keyboard.press('Home');
      for (let i = 0; i < 9; i++) await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Control+C');
      // Paste at the end of code/salesReport.ts (unsaved: nothing is written).
      await quickOpen('salesReport.ts');
      await enterOnQuickPickRow('salesReport.ts');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="salesReport.ts"]', { timeout: 15_000 });
      const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
      // The keys go where the focus is, and the closing quick input gives it back to the editor a
      // moment after the tab shows as active (a key pressed before that went nowhere: the paste
      // never happened). A click on the file's first line focuses its text; Ctrl+End is then
      // checked on the status bar before the paste.
      await editor.locator('.view-lines .view-line').first().click();
      const lastLine = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'workspace', 'code', 'salesReport.ts'), 'utf8').split('\n').length;
      await poll(`the cursor on the last line (${lastLine})`, async () => {
        await page.keyboard.press('Control+End');
        const pos = await page.locator('.statusbar-item[id$="status.editor.selection"]').first().innerText({ timeout: 1000 });
        assert(new RegExp(`Ln ${lastLine}\\b`).test(pos), pos);
      }, { timeoutMs: 10_000 });
      await page.keyboard.press('Enter');
      await page.keyboard.press('Control+V');
      const notice = 'Pasted block matches code/logParser.ts lines 46–54 (distance 0)';
      await poll(`the notice "${notice}" at the pasted lines`, async () => {
        const lenses = await editor.locator('.codelens-decoration').allInnerTexts();
        const hits = lenses.filter((t) => t.includes('Pasted block matches'));
        assert(hits.length === 1 && hits[0].includes(notice) && /Compare/.test(hits[0]), `CodeLens shown: ${JSON.stringify(lenses)}`);
      }, { timeoutMs: 30_000 });
      // The inline note after the pasted block's first line: the editor draws it from a CSS rule
      // (`::after { content: "⧉ Pasted block matches …" }`) of its decoration.
      await poll('the inline note after the first pasted line', async () => {
        const rules = await page.evaluate(() => {
          const out = [];
          for (const sheet of Array.from(document.styleSheets)) {
            let list;
            try {
              list = sheet.cssRules;
            } catch {
              continue;
            }
            for (const r of Array.from(list)) if (r.cssText.includes('Pasted block matches')) out.push(r.cssText);
          }
          return out;
        });
        assert(rules.some((r) => r.includes('code/logParser.ts lines 46')), `decoration rules: ${JSON.stringify(rules)}`);
      }, { timeoutMs: 15_000 });
      const shot = await screenshot('paste-notice');
      if (shot && process.env.NEARDUP_E2E_MEDIA === '1') fs.copyFileSync(shot, path.join(ROOT, 'media', 'paste-notice.png'));
      // Undo the paste (and the line break): the notice goes; saved, the file is as before (code-server
      // may have auto-saved the paste) and the index back to the fixture's groups.
      await page.keyboard.press('Control+Z');
      await page.keyboard.press('Control+Z');
      await poll('the notice to go with the undo', async () => {
        const lenses = await editor.locator('.codelens-decoration').allInnerTexts();
        assert(!lenses.some((t) => t.includes('Pasted block matches')), `CodeLens shown: ${JSON.stringify(lenses)}`);
      }, { timeoutMs: 15_000 });
      await page.keyboard.press('Control+S');
      const item = page.locator(`.part.statusbar .statusbar-item[id$=".${STATUS_ID}"]`).first();
      const groups = expected.groups.file + expected.groups.section;
      await poll(`the status bar back to ${groups} groups`, async () => {
        const text = (await item.innerText({ timeout: 1000 })).trim();
        assert(text.startsWith(`NearDup ${groups} ·`), `"${text}"`);
      }, { timeoutMs: 30_000 });
    });

    await check('the Overview opens from the command palette and draws the treemap, the histogram and the groups; Enter zooms into a folder', async () => {
      needExpected();
      const title = localize(((contributes.commands || []).find((c) => c.command === 'neardup.showOverview') || {}).title);
      assert(title, 'package.json does not contribute neardup.showOverview');
      await commandPalette(title);
      await enterOnQuickPickRow(title);
      // The page runs in the webview's frames: find the one that drew the treemap.
      const drawn = await poll('the Overview page with its treemap', async () => {
        for (const f of page.frames()) {
          const n = await f.locator('#treemap g').count().catch(() => 0);
          if (n > 0) return { frame: f, n };
        }
        throw new Error(`no frame with #treemap among ${page.frames().length}`);
      }, { timeoutMs: 30_000 });
      const { frame } = drawn;
      const folders = await frame.locator('#treemap g.folder').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
      assert(folders.some((l) => /^code: \d+ of \d+ lines/.test(l)) && folders.some((l) => /^docs: /.test(l)), `treemap folders: ${JSON.stringify(folders)}`);
      const bars = await frame.locator('#histogram rect').count();
      assert(bars > 0, 'histogram bars');
      const groups = await frame.locator('#groups > li').count();
      assert(groups === expected.groups.file + expected.groups.section, `groups listed: ${groups}`);
      await screenshot('overview');
      // Keyboard: focus the code folder, Enter zooms in (its files), Escape zooms out.
      await frame.locator('#treemap g.folder[aria-label^="code:"]').focus();
      await page.keyboard.press('Enter');
      await poll('the treemap of code/', async () => {
        const files = await frame.locator('#treemap g.file').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
        assert(files.some((l) => l.startsWith('orderService.ts:')), `files: ${JSON.stringify(files)}`);
      }, { timeoutMs: 10_000 });
      await screenshot('overview-code');
      await page.keyboard.press('Escape');
      await poll('the treemap back at the top', async () => {
        assert((await frame.locator('#treemap g.folder[aria-label^="code:"]').count()) === 1, 'code/ shown again');
      }, { timeoutMs: 10_000 });
      // The rectangles are coloured by share (the theme's red mixed in), not left black.
      const fills = await frame.locator('#treemap g.folder rect').evaluateAll((rs) => rs.map((r) => getComputedStyle(r).fill));
      assert(fills.every((f) => f && f !== 'rgb(0, 0, 0)' && f !== 'none'), `fills: ${JSON.stringify(fills)}`);
      // Focus back to the workbench (keys typed in the webview stay there).
      await page.locator('.part.sidebar').click({ position: { x: 10, y: 200 } }).catch(() => {});
      await closeQuickInput();
    });

    await check('"Export Report…" asks where to save, writes the HTML report there (engine worker, vscode.workspace.fs), and the page renders offline with every group', async () => {
      needExpected();
      const title = localize(((contributes.commands || []).find((c) => c.command === 'neardup.exportReport') || {}).title);
      assert(title, 'package.json does not contribute neardup.exportReport');
      const target = path.join(tmp, 'exported-report.html');
      await commandPalette(title);
      await enterOnQuickPickRow(title);
      // The save dialog (the workbench's own, in a browser): a path box holding the proposed file.
      const box = page.locator('.quick-input-widget .quick-input-box input');
      await poll('the save dialog proposing neardup-report.html', async () => {
        const v = await box.inputValue();
        assert(v.endsWith('neardup-report.html'), `the path box holds ${JSON.stringify(v)}`);
      }, { timeoutMs: 15_000 });
      await screenshot('export-dialog');
      assert(!fs.existsSync(path.join(workspace, 'neardup-report.html')), 'nothing written before the choice');
      await box.fill(target);
      // The dialog lists the typed path's folder as it is typed, and ignores OK while it does:
      // OK (the dialog's button) again until it takes, then the file comes.
      const ok = page.locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ });
      await poll('the report written where chosen', async () => {
        if (!fs.existsSync(target) && (await ok.isVisible().catch(() => false))) await ok.click({ timeout: 2_000 }).catch(() => {});
        assert(fs.existsSync(target) && /<\/html>\n$/.test(fs.readFileSync(target, 'utf8')), `${target} not written (yet)`);
      }, { timeoutMs: 30_000, intervalMs: 1_000 });
      assert(!fs.existsSync(path.join(workspace, 'neardup-report.html')), 'nothing written into the workspace');
      const context = await browser.newContext({ offline: true });
      try {
        const p = await context.newPage();
        await p.goto(`file://${target}`);
        await p.waitForSelector('html[data-rendered-nodes]', { timeout: 15_000 });
        const seen = await p.evaluate(() => ({ nodes: Number(document.documentElement.getAttribute('data-rendered-nodes')), groups: document.querySelectorAll('details.group').length, pairs: document.querySelectorAll('.pair table.sbs').length }));
        assert(seen.nodes > 0, 'treemap drawn');
        assert(seen.groups === expected.groups.file + expected.groups.section, `groups on the page: ${seen.groups}`);
        assert(seen.pairs >= expected.pairs.length, `pairs side by side: ${seen.pairs}`);
      } finally {
        await context.close();
      }
      await closeQuickInput();
    });

    await check('the Extensions view lists NearDup as installed', async () => {
      await closeQuickInput();
      await page.keyboard.press('Control+Shift+X');
      await page.waitForSelector('.extensions-viewlet', { timeout: 15_000 });
      const search = page.locator('.extensions-viewlet .suggest-input-container .monaco-editor').first();
      await search.click({ timeout: 10_000 });
      await page.keyboard.press('Control+A');
      await page.keyboard.type('@installed NearDup', { delay: 20 });
      const name = manifest.displayName || manifest.name;
      const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: name }).first();
      await item.waitFor({ timeout: 20_000 });
      await screenshot('extensions');
    });

    await check('the extension activated without errors (extension host log)', async () => {
      const logs = findFiles(path.join(userDataDir, 'logs'), /exthost\.log$/);
      assert(logs.length > 0, `no extension host log under ${userDataDir}/logs`);
      const text = logs.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
      const id = `${manifest.publisher}.${manifest.name}`;
      const failed = text.split('\n').filter((l) => l.includes(id) && /fail|error/i.test(l));
      assert(failed.length === 0, `activation problems:\n${failed.join('\n')}`);
      assert(new RegExp(`ExtensionService#_doActivateExtension ${id.replace('.', '\\.')}`, 'i').test(text),
        `no activation of ${id} in ${logs.map((l) => path.relative(tmp, l)).join(', ')}`);
    });
  };

  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`TIMEOUT: e2e did not finish within ${opts.timeoutSec} s`)), opts.timeoutSec * 1000);
  });
  try {
    await Promise.race([run(), timeout]);
  } catch (err) {
    results.push({ name: 'e2e harness', status: 'failed', err });
    console.log(`  ✘ e2e harness: ${err && err.stack ? err.stack : err}`);
    await screenshot('FAILED-harness');
    if (server) console.log(`[e2e] code-server log (${path.relative(ROOT, logFile)}):\n${lib.tail(logFile)}`);
  } finally {
    await cleanup();
  }
}

function findFiles(dir, re) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(full, re));
    else if (re.test(e.name)) out.push(full);
  }
  return out;
}

const t0 = Date.now();
main()
  .catch((err) => {
    results.push({ name: 'e2e setup', status: 'failed', err });
    console.log(`  ✘ e2e setup: ${err && err.stack ? err.stack : err}`);
  })
  .finally(() => {
    const n = (s) => results.filter((r) => r.status === s).length;
    const shots = fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS).filter((f) => /^e2e-.*\.png$/.test(f)) : [];
    console.log(`[e2e] screenshots: ${shots.map((f) => `test-results/${f}`).join(', ') || 'none'}`);
    console.log(`[e2e] ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`e2e: ${n('passed')} passed, ${n('failed')} failed`);
    process.exit(n('failed') > 0 || n('passed') === 0 ? 1 : 0);
  });
