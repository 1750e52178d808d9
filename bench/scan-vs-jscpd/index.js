#!/usr/bin/env node
'use strict';
// A whole scan with the NearDup CLI against jscpd 5.3.3 (its native Rust binary from npm) on the
// same real trees (bench/lib/trees.js): wall time, peak RSS, CPU utilisation.
//
//   node bench/scan-vs-jscpd [--runs 5] [--trees small,large] [--build] [--worst]
//
//   A = node dist/cli.js scan <tree> --format json --no-progress --no-locate   (stdout to a file)
//   L = node dist/cli.js scan <tree> --format json --no-progress               (the default: copies located)
//   B = jscpd <tree> --reporters json --output <tmp> --silent                  (JSON file report)
// run alternately A L B A L B … (`--runs` each), so slow phases of a shared machine hit all alike.
// A, the plain SimHash scan, is issue 16's series (the `neardup` entry of the results, as before
// the CLI located copies by default); L the CLI's default since (`neardupDefault`; over 128 MB of
// text it locates nothing and costs about A; up to 32 MB until issue 16 raised it, which left the
// large tree unlocated). The tools run with their
// defaults otherwise: NearDup 2 workers (one per core), files and
// sections, min 50 tokens; jscpd auto threads, mode mild, min 50 tokens. The trees hold only
// JS/TS/Markdown files ≤ 1 MB that are not minified, so neither tool skips what the other reads.
// jscpd is installed with `npm install --prefix bench/.cache/jscpd jscpd@5.3.3` when missing, and
// its platform binary is run directly (not through its Node wrapper, whose process would be the
// one measured).
//
// --worst [--worst-runs 3] [--worst-jscpd]: a tree of 500 identical copies of one real source file
// plus one 50 MiB file of real code (bench/.cache/trees/worst), scanned by NearDup with
// --max-file-size 65536 --no-locate (KB; the default 2 MB limit would skip the big file): the whole tree
// (--worst-runs times), then each half alone once. --worst-jscpd adds one jscpd run
// (--max-size 64mb) on the whole tree (slow: minutes).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { REPO, CACHE, TIME_BIN, ensureDist, measure, median, spread, fmt, table, verdict, log, environment, writeResult, parseArgs } = require('../lib/common');
const { ensureTree, treeFiles, TREES_DIR } = require('../lib/trees');

const JSCPD_VERSION = '5.3.3';
const JSCPD_PREFIX = path.join(CACHE, 'jscpd');

/** Path of jscpd's native binary (installing the npm package into bench/.cache/jscpd if needed). */
function jscpdBinary() {
  const find = () => {
    try {
      const wrapper = require.resolve('jscpd/package.json', { paths: [JSCPD_PREFIX] });
      const pkg = JSON.parse(fs.readFileSync(wrapper, 'utf8'));
      if (pkg.version !== JSCPD_VERSION) return null;
      const { getPlatformKey, PLATFORM_MAP } = require(path.join(path.dirname(wrapper), 'platform-map.js'));
      const entry = PLATFORM_MAP[getPlatformKey()];
      const pj = require.resolve(`${entry.packageName}/package.json`, { paths: [path.dirname(wrapper), JSCPD_PREFIX] });
      const bin = path.join(path.dirname(pj), 'bin', process.platform === 'win32' ? 'jscpd.exe' : 'jscpd');
      return fs.existsSync(bin) ? bin : null;
    } catch {
      return null;
    }
  };
  let bin = find();
  if (!bin) {
    log('scan', `npm install --prefix ${path.relative(REPO, JSCPD_PREFIX)} jscpd@${JSCPD_VERSION}`);
    fs.mkdirSync(JSCPD_PREFIX, { recursive: true });
    execFileSync('npm', ['install', '--prefix', JSCPD_PREFIX, `jscpd@${JSCPD_VERSION}`, '--no-audit', '--no-fund', '--silent'], { stdio: 'inherit' });
    bin = find();
    if (!bin) throw new Error('jscpd binary not found after npm install');
  }
  return bin;
}

// ------------------------------------------------------------------------------ worst-case tree

const WORST_COPIES = 500;
const WORST_BIG_BYTES = 50 * 1024 * 1024;

/** bench/.cache/trees/worst: identical/copy-NNN.js × 500 and big/big.js (50 MB of real code). */
function ensureWorstTree() {
  const dir = path.join(TREES_DIR, 'worst');
  const marker = path.join(TREES_DIR, 'worst.json');
  const WORST_VERSION = 2;
  if (fs.existsSync(marker) && fs.existsSync(dir)) {
    const info = JSON.parse(fs.readFileSync(marker, 'utf8'));
    if (info.version === WORST_VERSION) return { dir, ...info };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const files = treeFiles(ensureTree('small')).filter((f) => /\.js$/.test(f.rel));
  // The copied file: the first JS file of 150..400 lines.
  let source = null;
  for (const f of files) {
    const text = fs.readFileSync(f.abs, 'utf8');
    const lines = text.split('\n').length;
    if (lines >= 150 && lines <= 400) {
      source = { rel: f.rel, text, lines };
      break;
    }
  }
  fs.mkdirSync(path.join(dir, 'identical'), { recursive: true });
  for (let i = 0; i < WORST_COPIES; i++) fs.writeFileSync(path.join(dir, 'identical', `copy-${String(i).padStart(3, '0')}.js`), source.text);
  // The big file: real JS/TS files of the large tree (all distinct), concatenated in order until
  // 50 MiB, each preceded by a comment naming it.
  fs.mkdirSync(path.join(dir, 'big'), { recursive: true });
  const fd = fs.openSync(path.join(dir, 'big', 'big.js'), 'w');
  let written = 0;
  for (const f of treeFiles(ensureTree('large')).filter((x) => /\.[cm]?[jt]sx?$/.test(x.rel))) {
    if (written >= WORST_BIG_BYTES) break;
    const buf = Buffer.concat([Buffer.from(`\n// ---- ${f.rel}\n`), fs.readFileSync(f.abs)]);
    fs.writeSync(fd, buf);
    written += buf.length;
  }
  fs.closeSync(fd);
  const info = { version: WORST_VERSION, copied: source.rel, copiedLines: source.lines, copies: WORST_COPIES, bigBytes: written };
  fs.writeFileSync(marker, JSON.stringify(info, null, 2));
  return { dir, ...info };
}

// ------------------------------------------------------------------------------ runs

function neardupRun(cli, tree, outFile, extra = []) {
  // Not --quiet: stderr (captured, not printed) says when the report was truncated.
  return measure(process.execPath, [cli, 'scan', tree, '--format', 'json', '--no-progress', ...extra], { stdoutFile: outFile });
}

function jscpdRun(bin, tree, outDir, extra = []) {
  fs.rmSync(outDir, { recursive: true, force: true });
  return measure(bin, [tree, '--reporters', 'json', '--output', outDir, '--silent', ...extra], { env: { ...process.env, JSCPD_NO_TIPS: '1' } });
}

function summariseNeardup(file) {
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    const filePairs = j.pairs.filter((p) => p.kind === 'file').length;
    return { files: j.stats.files, sections: j.stats.sections, pairs: j.pairs.length, filePairs, sectionPairs: j.pairs.length - filePairs, internalMs: j.stats.elapsedMs, truncated: j.truncated ?? j.stats.truncated ?? null };
  } catch (e) {
    return { error: e.message };
  }
}

function summariseJscpd(dir) {
  try {
    const j = JSON.parse(fs.readFileSync(path.join(dir, 'jscpd-report.json'), 'utf8'));
    return { sources: j.statistics.total.sources, clones: j.statistics.total.clones, duplicatedLines: j.statistics.total.duplicatedLines };
  } catch (e) {
    return { error: e.message };
  }
}

const cpu = (r) => (r.user + r.sys) / r.wall;
const rssMb = (r) => r.maxRssKb / 1024;

function check(r, what) {
  if (r.code !== 0) throw new Error(`${what} exited with ${r.code ?? r.signal}: ${r.stderr.slice(-2000)}`);
}

async function compareOnTree(name, dir, runs, cli, bin, tmp, ndExtra = [], jsExtra = []) {
  const nd = [];
  const ndDefault = [];
  const js = [];
  const ndOut = path.join(tmp, `neardup-${name}.json`);
  const ndDefaultOut = path.join(tmp, `neardup-default-${name}.json`);
  const jsOut = path.join(tmp, `jscpd-${name}`);
  for (let i = 0; i < runs; i++) {
    const a = await neardupRun(cli, dir, ndOut, ['--no-locate', ...ndExtra]);
    check(a, 'neardup');
    nd.push(a);
    const l = await neardupRun(cli, dir, ndDefaultOut, ndExtra);
    check(l, 'neardup (default)');
    ndDefault.push(l);
    const b = await jscpdRun(bin, dir, jsOut, jsExtra);
    check(b, 'jscpd');
    js.push(b);
    log('scan', `${name} run ${i + 1}/${runs}: neardup --no-locate ${fmt(a.wall, 2)} s ${fmt(rssMb(a), 0)} MB, neardup ${fmt(l.wall, 2)} s ${fmt(rssMb(l), 0)} MB, jscpd ${fmt(b.wall, 2)} s ${fmt(rssMb(b), 0)} MB`);
  }
  const stat = (list) => ({
    wall: median(list.map((r) => r.wall)),
    spread: spread(list.map((r) => r.wall)),
    rssMb: median(list.map(rssMb)),
    rssMaxMb: Math.max(...list.map(rssMb)),
    cpu: median(list.map(cpu)),
    user: median(list.map((r) => r.user)),
    sys: median(list.map((r) => r.sys)),
    walls: list.map((r) => r.wall),
  });
  // A NearDup series' last report, marked when the CLI said it holds only some of the pairs.
  const result = (out, list) => ({ ...summariseNeardup(out), ...(/holds only some/.test(list[list.length - 1].stderr) ? { truncated: true } : {}) });
  return { tree: name, runs, neardup: { ...stat(nd), result: result(ndOut, nd) }, neardupDefault: { ...stat(ndDefault), result: result(ndDefaultOut, ndDefault) }, jscpd: { ...stat(js), result: summariseJscpd(jsOut) } };
}

function printComparison(results) {
  const rows = [];
  for (const r of results) {
    for (const [tool, s] of [['neardup --no-locate', r.neardup], ['neardup (default)', r.neardupDefault], ['jscpd', r.jscpd]]) {
      const found = tool !== 'jscpd' ? `${s.result.filePairs} file + ${s.result.sectionPairs} section pairs (${s.result.files} files)${s.result.truncated ? ' TRUNCATED' : ''}` : `${s.result.clones} clones (${s.result.sources} sources)`;
      rows.push([r.label, tool, fmt(s.wall, 2), `${fmt(s.spread, 0)}%`, fmt(s.rssMb, 0), fmt(s.cpu * 100, 0) + '%', fmt(s.user, 2), found]);
    }
  }
  console.log(table(rows, ['tree', 'tool', 'median s', 'spread', 'peak RSS MB', 'CPU (u+s)/wall', 'user s', 'found']));
  console.log('');
  for (const r of results) {
    const ratio = r.neardup.wall / r.jscpd.wall;
    const mem = r.neardup.rssMb / r.jscpd.rssMb;
    console.log(`${r.label}: wall neardup --no-locate/jscpd = ${fmt(ratio, 2)} (target ≤ 0.5: ${verdict(ratio, 0.5)}); peak RSS neardup --no-locate/jscpd = ${fmt(mem, 2)} (target ≤ 1: ${verdict(mem, 1)})`);
    console.log(`${r.label}: the default (located) against --no-locate: wall ${fmt(r.neardupDefault.wall / r.neardup.wall, 2)}, peak RSS ${fmt(r.neardupDefault.rssMb / r.neardup.rssMb, 2)}; wall default/jscpd = ${fmt(r.neardupDefault.wall / r.jscpd.wall, 2)}`);
  }
}

async function main(argv) {
  const o = parseArgs(argv, { runs: 5, trees: 'small,large', build: false, worst: false, worstRuns: 3, worstJscpd: false });
  console.log(`bench/scan-vs-jscpd — ${environment()}`);
  if (!TIME_BIN) log('scan', 'GNU time not found (apt-get install time): peak RSS and CPU come from polling /proc instead');
  const cli = ensureDist(o.build);
  const bin = jscpdBinary();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-scan-bench-'));
  const results = [];
  try {
    if (!o.worst || argv.includes('--trees')) {
      for (const name of String(o.trees).split(',').filter(Boolean)) {
        const t = ensureTree(name);
        const r = await compareOnTree(name, t.dir, o.runs, cli, bin, tmp);
        r.label = `${name} (${t.files} files, ${fmt(t.bytes / 1e6, 1)} MB)`;
        results.push(r);
      }
      console.log(`\nWhole scans, A L B A L B …, ${o.runs} runs each; medians (spread = (max−min)/median of wall time)\n`);
      printComparison(results);
    }
    let worst = null;
    if (o.worst) {
      const w = ensureWorstTree();
      log('scan', `worst-case tree: ${w.copies} copies of ${w.copied} (${w.copiedLines} lines) + one ${fmt(w.bigBytes / 2 ** 20, 0)} MiB file`);
      const extra = ['--max-file-size', '65536', '--no-locate'];
      const cases = [
        { name: 'whole', dir: w.dir, runs: o.worstRuns },
        { name: `identical/ (${w.copies} copies)`, dir: path.join(w.dir, 'identical'), runs: 1 },
        { name: `big/ (1 × ${fmt(w.bigBytes / 2 ** 20, 0)} MiB)`, dir: path.join(w.dir, 'big'), runs: 1 },
      ];
      const rows = [];
      const out = [];
      for (const c of cases) {
        const ndOut = path.join(tmp, 'neardup-worst.json');
        const list = [];
        for (let i = 0; i < c.runs; i++) {
          const r = await neardupRun(cli, c.dir, ndOut, extra);
          check(r, 'neardup');
          list.push(r);
          log('scan', `worst ${c.name} run ${i + 1}/${c.runs}: ${fmt(r.wall, 2)} s, ${fmt(rssMb(r), 0)} MB`);
        }
        const res = summariseNeardup(ndOut);
        if (/holds only some/.test(list[list.length - 1].stderr)) res.truncated = { stderr: true, files: /file/.test(list[list.length - 1].stderr.match(/too many[^;]*/)?.[0] ?? ''), sections: /section/.test(list[list.length - 1].stderr.match(/too many[^;]*/)?.[0] ?? '') };
        const st = { case: c.name, runs: c.runs, wall: median(list.map((r) => r.wall)), user: median(list.map((r) => r.user)), rssMb: median(list.map(rssMb)), cpu: median(list.map(cpu)), result: res };
        out.push(st);
        const tr = res.truncated && (res.truncated.files || res.truncated.sections) ? ' (report truncated)' : '';
        rows.push(['neardup', c.name, c.runs, fmt(st.wall, 2), fmt(st.user, 2), fmt(st.cpu * 100, 0) + '%', fmt(st.rssMb, 0), res.filePairs, `${res.sectionPairs}${tr}`, res.sections]);
      }
      let jscpd = null;
      if (o.worstJscpd) {
        const jsOut = path.join(tmp, 'jscpd-worst');
        const r = await jscpdRun(bin, w.dir, jsOut, ['--max-size', '64mb']);
        check(r, 'jscpd');
        const res = summariseJscpd(jsOut);
        jscpd = { wall: r.wall, user: r.user, rssMb: rssMb(r), cpu: cpu(r), result: res };
        rows.push(['jscpd', 'whole', 1, fmt(r.wall, 2), fmt(r.user, 2), fmt(cpu(r) * 100, 0) + '%', fmt(rssMb(r), 0), `${res.clones} clones`, '-', '-']);
      }
      worst = { info: w, neardup: out, jscpd };
      console.log(`\nWorst case: ${w.copies} identical copies of a ${w.copiedLines}-line file + one ${fmt(w.bigBytes / 2 ** 20, 0)} MiB file of real code (neardup --max-file-size 65536 --no-locate)\n`);
      console.log(table(rows, ['tool', 'tree', 'runs', 'median s', 'user s', 'CPU', 'peak RSS MB', 'file pairs', 'section pairs', 'sections']));
      if (!o.worstJscpd) console.log('\n(jscpd on this tree: --worst-jscpd; it took ~400 s and 2.7 GB in a trial run on the development machine)');
    }
    const file = writeResult(o.worst && !argv.includes('--trees') ? 'scan-worst' : 'scan-vs-jscpd', { jscpd: JSCPD_VERSION, timeTool: TIME_BIN, results, worst });
    log('scan', `results in ${path.relative(process.cwd(), file)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { jscpdBinary, JSCPD_VERSION };

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(`bench/scan-vs-jscpd: ${e.stack || e.message}`);
    process.exitCode = 2;
  });
}
