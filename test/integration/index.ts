// Entry of the integration tests: VS Code loads this module in the extension host (the
// extensionTestsPath of scripts/run-vscode-tests.js, or of @vscode/test-electron) and awaits
// run(). It runs mocha over every compiled *.test.js file next to it (out/test/integration/).
//
// Environment (passed through the VS Code server / test-electron to the extension host):
//   NEARDUP_TEST_GREP     only run tests whose full title matches this regular expression
//   NEARDUP_TEST_TIMEOUT  per-test timeout in ms (default 60000)
import * as fs from 'fs';
import * as path from 'path';
import type MochaType from 'mocha';

function loadMocha(): typeof MochaType {
  // mocha 12 is an ES module package: require() gives its namespace (Node >= 20.19 / 22.12),
  // older shapes give the constructor itself.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('mocha');
  return (loaded && loaded.default) || loaded;
}

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

export function run(): Promise<void> {
  const Mocha = loadMocha();
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.NEARDUP_TEST_TIMEOUT) || 60_000,
  });
  if (process.env.NEARDUP_TEST_GREP) mocha.grep(new RegExp(process.env.NEARDUP_TEST_GREP));
  // mocha 12 colours its ✔/✖ symbols (log-symbols) even with color: false, e.g. when CI is set.
  const symbols = (Mocha.reporters.Base as unknown as { symbols: Record<string, string> }).symbols;
  // eslint-disable-next-line no-control-regex
  for (const k of Object.keys(symbols)) symbols[k] = String(symbols[k]).replace(/\u001b\[\d+m/g, '');

  const files = findTests(__dirname);
  for (const f of files) mocha.addFile(f);

  return new Promise<void>((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    let pending = 0;
    try {
      const runner = mocha.run((failures) => {
        // mocha counts a failing hook as a failure without a failed test: take the larger.
        failed = Math.max(failed, failures);
        const skipped = pending ? `, ${pending} skipped` : '';
        console.log(`integration: ${passed} passed, ${failed} failed${skipped}`);
        if (failed > 0) reject(new Error(`${failed} integration test(s) failed`));
        else if (passed === 0) reject(new Error(`no integration test ran (files: ${files.length})`));
        else resolve();
      });
      runner.on('pass', () => passed++);
      runner.on('fail', () => failed++);
      runner.on('pending', () => pending++);
    } catch (err) {
      console.error(err);
      console.log(`integration: ${passed} passed, ${failed + 1} failed`);
      reject(err);
    }
  });
}
