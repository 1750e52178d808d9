#!/usr/bin/env node
// End-to-end check of `neardup scan --format html`: the CLI writes the page for a copy of
// test/fixtures/workspace with two hostile files added (a name and a text that try to close the
// page's script and run their own), and Debian's chromium (playwright-core) opens it offline —
// every request the page makes fails and is counted, and there must be none. Checks, in the
// rendered page: the Overview script drew the treemap and the histogram (it says so on <html>),
// every group of the CLI's JSON report of the same copy is there and every pair, side by side,
// with the differing lines marked; no Content-Security-Policy violation, no script error, and the
// hostile text shown as text (its script never ran). Screenshot: test-results/e2e-html-report.png.
//
//   node test/e2e/htmlReport.js [path/to/dist/cli.js]     (standalone; e2e.js runs it with the packaged CLI)
//
// Ends with `html-report: N passed, N failed` when standalone.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const lib = require('../../scripts/lib/vscode-offline');

/** Text whose copy pairs, holding what would break out of a careless page. */
const HOSTILE_TEXT = [
  '</script><script>window.__neardupPwned = 1</script>',
  '<img src=x onerror="window.__neardupPwned = 2">',
  ...Array.from({ length: 40 }, (_, i) => `function step${i}(value) { return value * ${i + 3} + "<b>${i}</b>"; } // &amp; ${i}`),
].join('\n') + '\n';
// A folder `x<` holding `script>…`: the path reads `hostile/x</script><img …>.js`.
const HOSTILE_NAME = 'x</script><img src=x onerror="window.__neardupPwned = 3">';

function where(loc) {
  return loc.startLine === undefined ? loc.path : `${loc.path}:${loc.startLine}-${loc.endLine}`;
}

/**
 * Writes the page with `cli` for a copy of the fixture under `tmp`, opens it in `browser` and
 * checks it; throws on the first failure. Returns what it saw.
 */
async function checkHtmlReport({ cli, browser, tmp, screenshotFile }) {
  const workspace = lib.copyDir(path.join(lib.ROOT, 'test', 'fixtures', 'workspace'), path.join(tmp, 'html-workspace'));
  fs.mkdirSync(path.join(workspace, 'hostile', 'x<'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'hostile', `${HOSTILE_NAME}.js`), HOSTILE_TEXT);
  fs.writeFileSync(path.join(workspace, 'hostile', 'copy.js'), HOSTILE_TEXT.replace('step7(', 'stepSeven('));
  const scan = (format) => execFileSync(process.execPath, [cli, 'scan', workspace, '--format', format, '--no-progress', '--quiet'], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
  const report = JSON.parse(scan('json'));
  const html = scan('html');
  const file = path.join(tmp, 'report.html');
  fs.writeFileSync(file, html);
  if (!report.pairs.some((p) => p.a.path.startsWith('hostile/') && p.b.path.startsWith('hostile/'))) throw new Error(`the hostile files do not pair: ${report.pairs.map((p) => `${where(p.a)} ↔ ${where(p.b)}`).join(', ')}`);

  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 }, javaScriptEnabled: true });
  const requests = [];
  const problems = [];
  try {
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `file://${file}`) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`file://${file}`);
    await page.waitForSelector('html[data-rendered-nodes]', { timeout: 15_000 });
    const seen = await page.evaluate(() => ({
      nodes: Number(document.documentElement.getAttribute('data-rendered-nodes')),
      bars: Number(document.documentElement.getAttribute('data-rendered-bars')),
      treemapRects: document.querySelectorAll('#treemap rect').length,
      histogramBars: document.querySelectorAll('#histogram rect').length,
      groups: document.querySelectorAll('details.group').length,
      pairs: [...document.querySelectorAll('.pair')].map((p) => p.getAttribute('data-pair')),
      tables: document.querySelectorAll('.pair table.sbs').length,
      changedRows: document.querySelectorAll('table.sbs tr.changed, table.sbs tr.left, table.sbs tr.right').length,
      markedColour: (() => {
        const td = document.querySelector('table.sbs tr.changed td.l');
        return td ? getComputedStyle(td).backgroundColor : '';
      })(),
      pwned: window.__neardupPwned,
      csp: window.__cspViolations,
      text: document.body.innerText,
      scripts: document.scripts.length,
    }));
    if (screenshotFile) await page.screenshot({ path: screenshotFile });
    const fail = (msg) => {
      throw new Error(msg);
    };
    if (seen.nodes <= 0 || seen.treemapRects <= 0) fail(`treemap not drawn: ${seen.nodes} nodes, ${seen.treemapRects} rects`);
    if (seen.bars <= 0 || seen.histogramBars <= 0) fail(`histogram not drawn: ${seen.bars} bars`);
    if (seen.groups !== report.groups.length) fail(`${seen.groups} groups on the page, ${report.groups.length} in the JSON report`);
    const onPage = new Set(seen.pairs);
    const missing = report.pairs.map((p) => `${where(p.a)} | ${where(p.b)}`).filter((k) => !onPage.has(k));
    if (missing.length || seen.pairs.length !== report.pairs.length) fail(`pairs: ${seen.pairs.length} on the page, ${report.pairs.length} reported; missing ${missing.join(', ')}`);
    if (seen.tables !== report.pairs.length) fail(`${seen.tables} side-by-side views for ${report.pairs.length} pairs`);
    if (seen.changedRows <= 0) fail('no differing line marked');
    if (!seen.markedColour || seen.markedColour === 'rgba(0, 0, 0, 0)') fail(`a differing line is not coloured: ${seen.markedColour}`);
    if (seen.pwned !== undefined) fail(`the hostile text ran as script (${seen.pwned})`);
    if (seen.scripts !== 3) fail(`${seen.scripts} script elements (3 expected: data, stand-in, Overview)`);
    if (!seen.text.includes(`hostile/${HOSTILE_NAME}.js`) || !seen.text.includes('</script><script>window.__neardupPwned = 1</script>')) fail('the hostile name or text is not shown as text');
    if (seen.csp.length) fail(`Content-Security-Policy violations: ${seen.csp.join('; ')}`);
    if (requests.length) fail(`the page asked for ${requests.join(', ')}`);
    if (problems.length) fail(problems.join('\n'));
    return { bytes: Buffer.byteLength(html), groups: seen.groups, pairs: seen.pairs.length, nodes: seen.nodes, bars: seen.bars };
  } finally {
    await context.close();
  }
}

async function main() {
  const cli = path.resolve(process.argv[2] || path.join(lib.ROOT, 'dist', 'cli.js'));
  const tmp = lib.makeTempDir('neardup-html-');
  const results = path.join(lib.ROOT, 'test-results');
  fs.mkdirSync(results, { recursive: true });
  const browser = await lib.launchChromium();
  let failed = 0;
  try {
    const r = await checkHtmlReport({ cli, browser, tmp, screenshotFile: path.join(results, 'e2e-html-report.png') });
    console.log(`  ✔ the HTML report renders offline in chromium with every group and pair (${r.groups} groups, ${r.pairs} pairs, ${r.nodes} treemap boxes, ${r.bars} bars; ${r.bytes} bytes)`);
  } catch (e) {
    failed = 1;
    console.log(`  ✘ the HTML report renders offline in chromium\n      ${String(e && e.stack ? e.stack : e).split('\n').slice(0, 8).join('\n      ')}`);
  } finally {
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`html-report: ${1 - failed} passed, ${failed} failed`);
  process.exit(failed);
}

module.exports = { checkHtmlReport };
if (require.main === module) main();
