// The CLI's bundles (esbuild.js): dist/cliMain.js (run by dist/cli.js, the loader with the code
// cache) and dist/cliExtras.js (--locate's and --format
// html's code, and the few files a scan fingerprints on its own thread, required when needed) share one kernel loader, dist/nativeKernel.js: neither
// holds a copy of it, and the kernel the CLI loaded is the one --locate's code uses (its state is
// one: a kernel turned off after the CLI loaded one is not loaded again for --locate).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../helpers/engineBundle';

const DIST = path.join(REPO, 'dist');

describe('the CLI bundles (esbuild.js)', () => {
  before(function () {
    if (!fs.existsSync(path.join(DIST, 'cliExtras.js'))) this.skip(); // (not built: node esbuild.js)
  });

  it('dist/cliMain.js and dist/cliExtras.js require the one kernel loader, dist/nativeKernel.js, and hold no copy of it', () => {
    assert.ok(fs.existsSync(path.join(DIST, 'nativeKernel.js')));
    for (const bundle of ['cliMain.js', 'cliExtras.js']) {
      const text = fs.readFileSync(path.join(DIST, bundle), 'utf8');
      assert.match(text, /require\("\.\/nativeKernel\.js"\)/, bundle);
      assert.doesNotMatch(text, /function kernelCandidates\(/, `${bundle} holds no copy of the loader`);
    }
  });

  it("dist/cliMain.js holds neither --locate's region finder, the HTML page nor the files' fingerprinting on the scan's thread: it loads them from dist/cliExtras.js", () => {
    const cli = fs.readFileSync(path.join(DIST, 'cliMain.js'), 'utf8');
    const extras = fs.readFileSync(path.join(DIST, 'cliExtras.js'), 'utf8');
    // (text of their code that minifying keeps: the region jobs' error, the page's policy)
    for (const [what, text] of [
      ["--locate's region finder (node/locate/regionJobs.ts)", 'the worker lost the documents'],
      ['the HTML page (node/htmlReport/htmlPage.ts)', 'Content-Security-Policy'],
      ["a file's fingerprinting (node/workers/fingerprintFile.ts, for node/scan/filesHere.ts)", 'deferred: CJK text needs jieba'],
    ]) {
      assert.ok(extras.includes(text), `cliExtras.js holds ${what}`);
      assert.ok(!cli.includes(text), `cliMain.js holds no copy of ${what}`);
    }
    // The three requires are one module that loads the bundle with the CLI's loader (its code
    // cache), or with Node's require when run without it.
    assert.equal(cli.match(/require\("\.\/cliExtras\.js"\)/g)?.length, 1, 'one require names the bundle');
    assert.equal(cli.match(/Symbol\.for\("neardup\.loadBundle"\)/g)?.length, 1, "the loader's hook, once");
    const loader = fs.readFileSync(path.join(DIST, 'cli.js'), 'utf8');
    assert.ok(loader.length < 20000 && loader.includes('cliMain.js'), 'dist/cli.js is the small loader of dist/cliMain.js');
    assert.match(extras, /fingerprintFilesHere/, 'cliExtras.js exports what scan.ts requires');
  });

  it("--locate's code uses the kernel the CLI loaded (one module state)", function () {
    const script = [
      `const loader = require(${JSON.stringify(path.join(DIST, 'nativeKernel.js'))});`,
      `if (loader.kernelKind() !== 'native') { console.log('no native kernel'); process.exit(0); }`,
      // A second loader would now load none (NEARDUP_KERNEL=ts): the shared one keeps the addon.
      `process.env.NEARDUP_KERNEL = 'ts';`,
      `const extras = require(${JSON.stringify(path.join(DIST, 'cliExtras.js'))});`,
      `console.log(extras.regionThreadsChosen() ? 'the same kernel' : 'a kernel of its own');`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NEARDUP_KERNEL: '', NEARDUP_REGION_WORKERS: '' } });
    assert.equal(run.status, 0, run.stderr);
    if (run.stdout.trim() === 'no native kernel') this.skip();
    assert.equal(run.stdout.trim(), 'the same kernel');
  });
});
