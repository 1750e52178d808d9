// The generated files of the scale tests: file i is ~1 KB of prose (.md) or Python-like code
// (.py), deterministic; every 33rd file is an edited copy of one a few places before it, so a
// workspace of N files has about N/33 planted near-duplicate pairs.
//
// Used by scripts/run-vscode-tests.js (--scale-files N: the files exist before VS Code starts)
// and by test/integration/scale.test.ts (which writes them while VS Code runs, from a worker
// thread: this file is also a worker entry, `workerData` = { root, n }).
//
//   node scripts/lib/scale-workspace.js DIR N     writes N files under DIR/scale/
'use strict';
const fs = require('fs');
const path = require('path');

/** The folder (relative to the workspace) that holds the generated files. */
const SCALE_DIR = 'scale';

function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vor', 'quin', 'dex', 'pal', 'zu', 'bre', 'nok', 'sil', 'tar', 'ume', 'gri', 'hol', 'fen', 'jad', 'wix'];

/** File i: its path relative to the workspace (forward slashes) and its text. */
function generated(i) {
  const copyOf = i % 33 === 32 ? i - 1 - (i % 7) : -1;
  const rnd = rng(copyOf >= 0 ? copyOf : i);
  const word = () => SYLLABLES[Math.floor(rnd() * 20)] + SYLLABLES[Math.floor(rnd() * 20)] + SYLLABLES[Math.floor(rnd() * 20)];
  const code = (copyOf >= 0 ? copyOf : i) % 2 === 1;
  const lines = [];
  for (let l = 0; l < 24; l++) {
    if (code) lines.push(`    ${word()}_${l} = ${word()}(${word()}, ${Math.floor(rnd() * 999)}) + ${word()}.${word()}`);
    else lines.push(Array.from({ length: 8 }, word).join(' ') + '.');
  }
  if (copyOf >= 0) lines[5] += ' edited';
  const text = code ? `def ${word()}(${word()}):\n${lines.join('\n')}\n    return None\n` : `# ${word()}\n\n${lines.join('\n')}\n`;
  return { rel: `${SCALE_DIR}/d${i % 50}/${Math.floor(i / 50) % 40}/f${i}.${code ? 'py' : 'md'}`, text };
}

/** Writes files 0 … n-1 under `root` (synchronously); returns the time it took in ms. */
function generate(root, n) {
  const t0 = Date.now();
  const made = new Set();
  for (let i = 0; i < n; i++) {
    const g = generated(i);
    const file = path.join(root, ...g.rel.split('/'));
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    fs.writeFileSync(file, g.text);
  }
  return Date.now() - t0;
}

module.exports = { SCALE_DIR, generated, generate };

const { isMainThread, workerData } = require('worker_threads');
if (!isMainThread && workerData && typeof workerData.root === 'string' && workerData.n >= 0) {
  generate(workerData.root, workerData.n);
} else if (require.main === module) {
  const [dir, n] = process.argv.slice(2);
  if (!dir || !(Number(n) >= 0)) {
    console.error('usage: node scripts/lib/scale-workspace.js DIR N');
    process.exit(2);
  }
  console.log(`wrote ${n} files under ${path.join(dir, SCALE_DIR)} in ${generate(dir, Number(n))} ms`);
}
