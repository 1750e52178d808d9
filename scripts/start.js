#!/usr/bin/env node
// `npm start`: a real VS Code with NearDup on the demo workspace (test/fixtures/workspace, copied
// to a temporary folder so your edits never touch the repository).
//  - With a desktop VS Code (`code` on PATH): opens it with this folder as the extension under
//    development.
//  - Otherwise: the offline VS Code (code-server, installed on first use into a cache), served on
//    127.0.0.1 with this folder as the extension under development; open the printed URL in a
//    browser. Ctrl+C stops it.
'use strict';
const { execFileSync, spawnSync, spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const demo = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-demo-'));
fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'workspace'), demo, { recursive: true });

function hasDesktopCode() {
  if (process.env.NEARDUP_START_HOST === 'offline') return false;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function main() {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { stdio: 'inherit', cwd: ROOT });
  if (hasDesktopCode()) {
    console.log(`Opening VS Code with NearDup on ${demo}`);
    spawn('code', ['--extensionDevelopmentPath', ROOT, demo], { stdio: 'inherit', detached: true }).unref();
    return;
  }
  // The offline VS Code: install once (cached), then serve it with the extension under development
  // (the workbench's `payload` parameter, honoured with the smoke-test driver option).
  execFileSync('bash', [path.join(ROOT, 'scripts', 'setup-vscode-offline.sh')], { stdio: 'inherit' });
  const { resolveInstall, startCodeServer } = require('./lib/vscode-offline');
  const install = resolveInstall();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-start-'));
  const server = await startCodeServer(install, { tmp, folder: demo, smokeTestDriver: true });
  const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${ROOT}`]]);
  const url = `${server.url}/?folder=${encodeURIComponent(demo)}&payload=${encodeURIComponent(payload)}`;
  console.log(`\nNearDup is running in VS Code at\n  ${url}`);
  console.log('Open that address in a browser (the NearDup icon is in the activity bar). Ctrl+C stops it.');
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.exitPromise;
}

main().catch((e) => {
  console.error(`npm start: ${e.message}`);
  process.exit(1);
});
