/**
 * The engine of VS Code for the Web (dist/web/engineWorker.js, built here from the sources with the
 * options of esbuild.js) in real headless Chromium: a Web Worker loaded from a local static server
 * fingerprints the test workspace with the WebAssembly kernel and jieba-wasm, and its report —
 * every pair with its distance and similarity, every group — equals the Node engine's (the scan
 * `neardup scan` runs, native kernel and @node-rs/jieba) on the same files.
 *
 * Needs Debian's chromium (scripts/setup-vscode-offline.sh; the `web` level of scripts/test-all.js
 * installs it first) and playwright-core.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { scanDirectory } from '../../src/node/scan/scan';
import { walkFilesSync } from '../../src/node/files/walk';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../src/node/settings/engineSettings';
import { buildEngineWorkers, REPO } from '../unit/helpers/engineBundle';
import type { WebEngineInfo, WebReport, WebUpdateResult } from '../../src/web/webProtocol';

const WORKSPACE = path.join(REPO, 'test', 'fixtures', 'workspace');
const OUT = path.join(REPO, 'out', 'test', 'web');
const CHROMIUM = process.env.NEARDUP_CHROMIUM || '/usr/bin/chromium';
const JIEBA_WASM = path.join(REPO, 'node_modules', 'jieba-wasm', 'pkg', 'web', 'jieba_rs_wasm_bg.wasm');

interface BrowserRun {
  info: WebEngineInfo;
  update: WebUpdateResult;
  report: WebReport;
  /** The report after the `removes` were dropped from the index (null without removes). */
  afterRemove: WebReport | null;
  logs: string[];
}

/** The browser bundles, built from the sources as esbuild.js builds them (into out/test/web). */
async function buildBrowserBundles(): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { browserBuildOptions } = require(path.join(REPO, 'esbuild.js')) as { browserBuildOptions(): import('esbuild').BuildOptions[] };
  const worker = browserBuildOptions().find((o) => String(o.outfile).endsWith('engineWorker.js'));
  assert.ok(worker, 'esbuild.js builds dist/web/engineWorker.js');
  fs.mkdirSync(OUT, { recursive: true });
  await esbuild.build({ ...worker, absWorkingDir: REPO, outfile: path.join(OUT, 'engineWorker.js'), minify: false, sourcemap: false });
  return path.join(OUT, 'engineWorker.js');
}

/** A static server: the page, the worker bundle, jieba's module, and the workspace's files under /ws/. */
function serve(workerJs: string, files: Map<string, Uint8Array>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]);
    const send = (type: string, body: string | Uint8Array) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url === '/' || url === '/index.html') return send('text/html', '<!doctype html><title>neardup web engine</title>');
    if (url === '/engineWorker.js') return send('text/javascript', fs.readFileSync(workerJs));
    if (url === '/jieba.wasm') return send('application/wasm', fs.readFileSync(JIEBA_WASM));
    if (url === '/files.json') return send('application/json', JSON.stringify([...files.keys()]));
    const file = url.startsWith('/ws/') ? files.get(url.slice(4)) : undefined;
    if (file) return send('application/octet-stream', file);
    res.writeHead(404);
    res.end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}

/**
 * The page's part, as plain JavaScript text (a function handed to page.evaluate would carry the
 * test runner's transpiler helpers): starts the worker, hands it jieba's bytes and every file,
 * asks for the report.
 */
const PAGE_SCRIPT = `async (settingsJson, removesJson) => {
  const worker = new Worker('/engineWorker.js');
  const logs = [];
  let next = 1;
  const waiting = new Map();
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'log') { logs.push(m.message); return; }
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w.resolve(m.result); else w.reject(new Error(m.error));
  };
  worker.onerror = (e) => { for (const w of waiting.values()) w.reject(new Error('worker error: ' + e.message)); };
  const request = (req, transfer = []) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, request: req }, transfer);
  });
  const jieba = await (await fetch('/jieba.wasm')).arrayBuffer();
  const info = await request({ type: 'init', jieba, settings: JSON.parse(settingsJson) }, [jieba]);
  const names = await (await fetch('/files.json')).json();
  const files = await Promise.all(names.map(async (relPath) => ({ relPath, bytes: new Uint8Array(await (await fetch('/ws/' + relPath)).arrayBuffer()) })));
  const update = await request({ type: 'update', files, removes: [] }, files.map((f) => f.bytes.buffer));
  const report = await request({ type: 'report' });
  // Then the same index with some files removed (the host's update after a delete).
  const removes = JSON.parse(removesJson);
  let afterRemove = null;
  if (removes.length) {
    await request({ type: 'update', files: [], removes });
    afterRemove = await request({ type: 'report' });
  }
  worker.terminate();
  return { info, update, report, afterRemove, logs };
}`;

/** In the page: starts the worker, hands it jieba's bytes and every file, asks for the report. */
async function runInBrowser(url: string, settings: EngineSettings, removes: string[] = []): Promise<BrowserRun> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/index.html`);
    const run = await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(JSON.stringify(settings))}, ${JSON.stringify(JSON.stringify(removes))})`);
    assert.deepEqual(errors, [], 'no error in the page');
    return run as unknown as BrowserRun;
  } finally {
    await browser.close();
  }
}

describe('VS Code for the Web: the browser engine in Chromium', function () {
  this.timeout(180_000);
  let workerJs: string;
  let nodeWorker: string;

  before(async function () {
    assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: bash scripts/setup-vscode-offline.sh installs it`);
    [workerJs, { workerScript: nodeWorker }] = await Promise.all([buildBrowserBundles(), buildEngineWorkers()]);
  });

  /** The workspace's files as the Node scan's walk finds them, with their bytes. */
  function workspaceFiles(root: string): Map<string, Uint8Array> {
    const files = new Map<string, Uint8Array>();
    for (const e of walkFilesSync(root, {})) files.set(e.relPath, fs.readFileSync(e.path));
    return files;
  }

  async function compare(root: string, settings: EngineSettings, removes: string[] = []) {
    const files = workspaceFiles(root);
    assert.ok(files.size >= 5, `files found: ${[...files.keys()].join(', ')}`);
    const skipped: { relPath: string; reason: string }[] = [];
    const node = await scanDirectory({ root, settings, workerScript: nodeWorker, workers: 1, quiet: true, onSkip: (relPath, reason) => skipped.push({ relPath, reason }) });
    const server = await serve(workerJs, files);
    let web: BrowserRun;
    try {
      web = await runInBrowser(server.url, settings, removes);
    } finally {
      await server.close();
    }
    return { node, web, skipped, files };
  }

  it('gives the same report as the Node engine on the test workspace (pairs, distances, similarities, groups), with the WebAssembly kernel and jieba-wasm', async () => {
    const { node, web } = await compare(WORKSPACE, DEFAULT_ENGINE_SETTINGS);
    assert.equal(web.info.kernel, 'wasm', `kernel: ${web.info.problems.join('; ')}`);
    assert.equal(web.info.segmenter, 'jieba');
    assert.ok(node.pairs.length >= 3, `the workspace has pairs to compare (${node.pairs.length})`);
    // Chinese pairs are there: jieba's words decide them.
    assert.ok(node.pairs.some((p) => p.a.path.startsWith('docs/zh/')), 'a Chinese pair');
    assert.ok(node.pairs.some((p) => p.kind === 'section'), 'a section pair');
    // Every pair has its clone kind, the same in the browser (the verbatim section, the edited files).
    assert.ok(node.pairs.some((p) => p.kind === 'section' && p.clone === 'exact') && node.pairs.some((p) => p.clone === 'edited'), JSON.stringify(node.pairs.map((p) => p.clone)));
    assert.ok(web.report.pairs.every((p) => p.clone === 'exact' || p.clone === 'renamed' || p.clone === 'edited'));
    assert.equal(web.report.files, node.stats.files);
    assert.deepEqual({ pairs: web.report.pairs, groups: web.report.groups }, { pairs: node.pairs, groups: node.groups });
  });

  it('decodes, skips and updates as the Node engine does: UTF-16, GB18030, binary, minified and oversized files; other settings (bigrams, no sections, identifiers normalised); a removed file leaves the report the Node scan makes without it', async () => {
    const root = fs.mkdtempSync(path.join(OUT, 'workspace-'));
    try {
      fs.cpSync(WORKSPACE, root, { recursive: true });
      const order = fs.readFileSync(path.join(WORKSPACE, 'code', 'orderService.ts'), 'utf8');
      const tea = fs.readFileSync(path.join(WORKSPACE, 'docs', 'zh', 'tea-garden.md'), 'utf8');
      // A UTF-16 LE copy (with BOM) and a big-endian one without: decoded to the same text.
      fs.writeFileSync(path.join(root, 'code', 'orderService16.ts'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(order, 'utf16le')]));
      fs.writeFileSync(path.join(root, 'code', 'orderService16be.ts'), Buffer.from(order, 'utf16le').swap16());
      // A GB18030 copy of the Chinese text (the browser's TextDecoder, iconv-lite in Node).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const iconv = require('iconv-lite') as typeof import('iconv-lite');
      fs.writeFileSync(path.join(root, 'docs', 'zh', 'tea-garden-gb.md'), iconv.encode(tea, 'gb18030'));
      fs.writeFileSync(path.join(root, 'notes', 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
      fs.writeFileSync(path.join(root, 'code', 'bundle.js'), `var a=${'1+'.repeat(6000)}1;\n`);
      const settings: EngineSettings = { ...DEFAULT_ENGINE_SETTINGS, cjkSegmenter: 'bigram', sections: false, normalizeIdentifiers: true, maxFileSizeBytes: 64 * 1024 };
      fs.writeFileSync(path.join(root, 'notes', 'huge.md'), 'a line of words\n'.repeat(5000));
      const removes = ['code/orderService16be.ts', 'docs/zh/tea-garden-copy.md'];
      const { node, web, skipped } = await compare(root, settings, removes);
      assert.equal(web.info.kernel, 'wasm');
      // Every copy is found, the Chinese ones by bigrams.
      const paired = (p: string) => node.pairs.some((x) => x.a.path === p || x.b.path === p);
      for (const p of ['code/orderService16.ts', 'code/orderService16be.ts', 'docs/zh/tea-garden-gb.md']) assert.ok(paired(p), `${p} is paired`);
      assert.ok(node.pairs.every((p) => p.kind === 'file'), 'sections off');
      assert.deepEqual({ pairs: web.report.pairs, groups: web.report.groups }, { pairs: node.pairs, groups: node.groups });
      // The same files skipped for the same reasons (the oversized one: by the Node walk; by the
      // browser engine when handed one, as its host skips it before reading).
      const webSkipped = [...web.update.skipped].sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
      const nodeSkipped = [...skipped].sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
      assert.deepEqual(webSkipped.map((s) => s.relPath), ['code/bundle.js', 'notes/huge.md', 'notes/image.bin']);
      // (The oversized file's words differ: the Node walk says "file too large (… bytes > limit …)",
      // the readers — Node's workers and the browser engine — "larger than 64 KB".)
      const same = (list: { relPath: string; reason: string }[]) => list.map((s) => (s.relPath === 'notes/huge.md' ? { ...s, reason: /large/.test(s.reason) ? 'too large' : s.reason } : s));
      assert.deepEqual(same(webSkipped), same(nodeSkipped));
      // Removing files: the report of the rest, as the Node scan makes it without them.
      for (const r of removes) fs.rmSync(path.join(root, r));
      const rest = await scanDirectory({ root, settings, workerScript: nodeWorker, workers: 1, quiet: true });
      assert.ok(rest.pairs.length < node.pairs.length);
      assert.deepEqual({ pairs: web.afterRemove?.pairs, groups: web.afterRemove?.groups }, { pairs: rest.pairs, groups: rest.groups });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('gives the same report as the Node engine on a larger real tree (this project\'s test/: ~100 files, ~1 MB, tens of section pairs)', async () => {
    const { node, web } = await compare(path.join(REPO, 'test'), DEFAULT_ENGINE_SETTINGS);
    assert.ok(node.stats.files > 80, `files: ${node.stats.files}`);
    assert.ok(node.pairs.filter((p) => p.kind === 'section').length >= 10, `section pairs: ${node.pairs.length}`);
    assert.equal(web.report.files, node.stats.files);
    assert.deepEqual({ pairs: web.report.pairs, groups: web.report.groups }, { pairs: node.pairs, groups: node.groups });
  });
});
