#!/usr/bin/env node
// Compiles the integration tests (test/integration/**/*.ts) with esbuild into out/test/integration/,
// one CommonJS file per source file, keeping the folder layout. They run inside a real VS Code
// extension host (scripts/run-vscode-tests.js), so 'vscode' (provided by the host) and 'mocha'
// (resolved at run time from the repo's node_modules) stay external, like the native modules.
//
//   node scripts/build-tests.js
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const srcDir = path.join(root, 'test', 'integration');
const outDir = path.join(root, 'out', 'test', 'integration');

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

async function main() {
  const entryPoints = walk(srcDir).sort();
  if (!entryPoints.some((f) => path.basename(f) === 'index.ts')) {
    throw new Error(`no test/integration/index.ts found in ${srcDir}`);
  }
  // Start clean so a deleted test never runs from a stale .js file.
  fs.rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: outDir,
    outbase: srcDir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    external: ['vscode', 'mocha', '@node-rs/jieba', '@node-rs/jieba-*'],
    logLevel: 'warning',
  });
  const count = entryPoints.filter((f) => f.endsWith('.test.ts')).length;
  console.log(`build-tests: ${entryPoints.length} file(s) (${count} test file(s)) -> ${path.relative(root, outDir)}/`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
