#!/usr/bin/env node
// End-to-end test: the packaged extension (.vsix) in a real VS Code UI (code-server) driven by a
// real browser (Debian's chromium through playwright-core), as a user would use it.
//
//   node test/e2e/e2e.js [path/to/neardup.vsix] [--timeout SECONDS] [--keep]
//
// Builds nothing: `npm run package` makes neardup.vsix first. Installs it with
// `code-server --install-extension` into a fresh extensions folder, opens a copy of
// test/fixtures/workspace, and walks through: workbench loads → Quick Open a file → the command
// palette lists and runs "Find near duplicates of this file" → the NearDup view → the Problems
// panel → the Extensions view. Screenshots of each step: test-results/e2e-*.png.
//
// Checks follow what the packaged package.json contributes: a command, view container or view
// that is not contributed yet is reported as skipped, not failed. Places marked TODO(features)
// are where the duplicates tree / diagnostics assertions go once those features land.
// Ends with `e2e: N passed, N failed[, N skipped]`; exit code 0 only if nothing failed.
'use strict';
const fs = require('fs');
const path = require('path');
const lib = require('../../scripts/lib/vscode-offline');

const ROOT = lib.ROOT;
const RESULTS = path.join(ROOT, 'test-results');
const COMMAND_ID = 'neardup.findNearDuplicates';
const COMMAND_TITLE = 'Find near duplicates of this file';
const CONTAINER_ID = 'neardup';
const VIEW_ID = 'neardup.duplicates';

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

class Skip extends Error {}

async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, status: 'passed' });
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    if (err instanceof Skip) {
      results.push({ name, status: 'skipped' });
      console.log(`  - ${name} (skipped: ${err.message})`);
      return;
    }
    results.push({ name, status: 'failed', err });
    console.log(`  ✘ ${name}\n      ${String(err && err.stack ? err.stack : err).split('\n').slice(0, 6).join('\n      ')}`);
    await screenshot(`FAILED-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`);
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
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

/** Opens Quick Open (Ctrl+P) and types `text`. */
async function quickOpen(text) {
  await closeQuickInput();
  await page.click('.monaco-workbench .part.editor', { position: { x: 10, y: 10 } }).catch(() => {});
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget .quick-input-box input', { state: 'visible', timeout: 10_000 });
  await page.keyboard.type(text, { delay: 20 });
}

/** Opens the command palette (F1) and types `text` after the '>' prefix. */
async function commandPalette(text) {
  await closeQuickInput();
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget .quick-input-box input', { state: 'visible', timeout: 10_000 });
  await page.keyboard.type(text, { delay: 20 });
}

function quickPickRow(labelSubstring) {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: labelSubstring }).first();
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
      manifest = JSON.parse(fs.readFileSync(path.join(extensionsDir, dir, 'package.json'), 'utf8'));
      // The native fingerprinting kernel ships beside the bundles (the TypeScript is the fallback).
      assert(fs.existsSync(path.join(extensionsDir, dir, 'dist', 'neardup_kernel.node')), 'dist/neardup_kernel.node not in the installed extension');
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

    server = await lib.startCodeServer(install, { tmp, extensionsDir, logFile, folder: workspace });
    console.log(`[e2e] code-server on ${server.url}`);
    browser = await lib.launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (err) => console.log(`  [page error] ${err.message}`));

    await check('the workbench loads with the fixture workspace', async () => {
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
      await waitForWorkbench();
      const names = await page.locator('.explorer-folders-view .monaco-list-row').allInnerTexts();
      assert(names.some((n) => n.includes('code')) && names.some((n) => n.includes('docs')), `explorer shows: ${names.join(', ')}`);
      await page.waitForTimeout(1500); // let the extension host start and activate onStartupFinished
      await screenshot('workbench');
    });

    await check('Quick Open opens code/orderService.ts', async () => {
      await quickOpen('orderService.ts');
      await quickPickRow('orderService.ts').waitFor({ timeout: 15_000 });
      await screenshot('quick-open');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.tabs-container .tab.active[aria-label*="orderService.ts"]', { timeout: 15_000 });
      await page.waitForSelector('.part.editor .monaco-editor .view-lines', { timeout: 15_000 });
      await screenshot('file-open');
    });

    await check(`the command palette lists and runs "${COMMAND_TITLE}"`, async () => {
      if (!commandTitle) {
        await commandPalette('near dup');
        await screenshot('palette-no-command');
        await closeQuickInput();
        throw new Skip(`package.json does not contribute ${COMMAND_ID} yet`);
      }
      assert(commandTitle === COMMAND_TITLE, `contributed title is "${commandTitle}", expected "${COMMAND_TITLE}"`);
      await commandPalette(COMMAND_TITLE);
      const row = quickPickRow(COMMAND_TITLE);
      await row.waitFor({ timeout: 15_000 });
      await screenshot('palette');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(2000);
      await screenshot('after-command');
      // TODO(features): assert the result of the command: a quick pick / the duplicates view
      // lists code/orderServiceCopy.ts as the near duplicate of code/orderService.ts.
      await closeQuickInput();
    });

    await check('the NearDup view container opens from the activity bar', async () => {
      if (!container) throw new Skip(`package.json does not contribute the "${CONTAINER_ID}" view container yet`);
      const item = page.locator(`.part.activitybar .action-item a[aria-label^="${container.title}"], ` +
        `.part.activitybar .action-item[aria-label^="${container.title}"]`).first();
      // Start from the Explorer: the command above may have revealed the NearDup view already,
      // and clicking the active container's icon would hide the side bar instead.
      await closeQuickInput();
      await page.keyboard.press('Control+Shift+E');
      await page.waitForSelector('.explorer-folders-view', { state: 'visible', timeout: 10_000 });
      await item.click({ timeout: 15_000 });
      await page.waitForSelector('.part.sidebar .composite.title', { timeout: 15_000 });
      const title = (await page.locator('.part.sidebar .composite.title').first().innerText()).toLowerCase();
      assert(title.includes(container.title.toLowerCase()), `sidebar title "${title}"`);
      if (view) {
        // A container with a single view hides that view's pane header ("NearDup: Near Duplicates"
        // is then the side bar title), so the header need only be attached.
        await page.locator(`.part.sidebar .pane-header[aria-label^="${view.name}"]`).first()
          .waitFor({ state: 'attached', timeout: 15_000 });
      }
      await page.waitForTimeout(1000);
      await screenshot('neardup-view');
      // TODO(features): assert the duplicates tree shows the planted pairs with distances:
      // code/orderService.ts ↔ code/orderServiceCopy.ts, docs/en/backup-guide*.md,
      // docs/zh/tea-garden*.md, and the parseDelimitedLine section of salesReport.ts ↔ logParser.ts.
    });

    await check('the Problems panel opens', async () => {
      await closeQuickInput();
      await page.keyboard.press('Control+Shift+M');
      await page.waitForSelector('.part.panel .markers-panel, .part.panel [id="workbench.panel.markers"]', { timeout: 15_000 });
      await page.waitForTimeout(1000);
      await screenshot('problems');
      // TODO(features): assert NearDup diagnostics (source "neardup") on code/orderService.ts
      // naming code/orderServiceCopy.ts, and none on notes/unique-meeting-notes.md.
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
    const skipped = n('skipped') ? `, ${n('skipped')} skipped` : '';
    console.log(`e2e: ${n('passed')} passed, ${n('failed')} failed${skipped}`);
    process.exit(n('failed') > 0 || n('passed') === 0 ? 1 : 0);
  });
