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
const PAGE_SCRIPT = `async (settingsJson) => {
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
  worker.terminate();
  return { info, update, report, logs };
}`;

/** In the page: starts the worker, hands it jieba's bytes and every file, asks for the report. */
async function runInBrowser(url: string, settings: EngineSettings): Promise<BrowserRun> {
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
    const run = await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(JSON.stringify(settings))})`);
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
    for (const e of walkFilesSync(root, { maxFileSizeBytes: DEFAULT_ENGINE_SETTINGS.maxFileSizeBytes })) files.set(e.relPath, fs.readFileSync(e.path));
    return files;
  }

  async function compare(root: string, settings: EngineSettings) {
    const files = workspaceFiles(root);
    assert.ok(files.size >= 5, `files found: ${[...files.keys()].join(', ')}`);
    const skipped: { relPath: string; reason: string }[] = [];
    const node = await scanDirectory({ root, settings, workerScript: nodeWorker, workers: 1, quiet: true, onSkip: (relPath, reason) => skipped.push({ relPath, reason }) });
    const server = await serve(workerJs, files);
    let web: BrowserRun;
    try {
      web = await runInBrowser(server.url, settings);
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
    assert.equal(web.report.files, node.stats.files);
    assert.deepEqual({ pairs: web.report.pairs, groups: web.report.groups }, { pairs: node.pairs, groups: node.groups });
  });
});
