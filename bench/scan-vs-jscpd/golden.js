#!/usr/bin/env node
'use strict';
// Output check for scan-speed work: the JSON report of `node dist/cli.js scan` on the bench trees
// and the fixture workspace must not change. stats.elapsedMs is removed before comparing.
//
//   node bench/scan-vs-jscpd/golden.js --record   # write bench/results/golden/<name>.json
//   node bench/scan-vs-jscpd/golden.js            # compare against them (exit 1 on a difference)
//   extra CLI options after `--` are passed to every scan (e.g. -- --workers 1; -- --no-locate for
//   the plain SimHash report, the default before the CLI located copies)
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const REPO = path.resolve(__dirname, '..', '..');
const DIR = path.join(REPO, 'bench', 'results', 'golden');
const record = process.argv.includes('--record');
const dd = process.argv.indexOf('--');
const extra = dd >= 0 ? process.argv.slice(dd + 1) : [];
const targets = [
  ['workspace', path.join(REPO, 'test', 'fixtures', 'workspace')],
  ['small', path.join(REPO, 'bench', '.cache', 'trees', 'small')],
  ['large', path.join(REPO, 'bench', '.cache', 'trees', 'large')],
];
const variants = [
  ['', []],
  ['-nosections', ['--no-sections']],
];
fs.mkdirSync(DIR, { recursive: true });
let bad = 0;
for (const [name, dir] of targets) {
  for (const [suffix, opts] of variants) {
    if (suffix && name === 'large') continue;
    const out = execFileSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'scan', dir, '--format', 'json', '--no-progress', ...opts, ...extra], {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    });
    const json = JSON.parse(out);
    delete json.stats.elapsedMs;
    const text = JSON.stringify(json, null, 1);
    const file = path.join(DIR, `${name}${suffix}.json`);
    if (record) {
      fs.writeFileSync(file, text);
      console.log(`recorded ${name}${suffix}: ${json.stats.files} files, ${json.pairs.length} pairs, ${json.groups.length} groups`);
    } else {
      const want = fs.readFileSync(file, 'utf8');
      if (want === text) console.log(`same     ${name}${suffix}: ${json.stats.files} files, ${json.pairs.length} pairs`);
      else {
        bad++;
        fs.writeFileSync(file + '.new', text);
        console.log(`DIFFERS  ${name}${suffix}: see ${path.relative(REPO, file)}.new`);
      }
    }
  }
}
process.exit(bad ? 1 : 0);
