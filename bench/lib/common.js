'use strict';
// Shared helpers of the performance benchmarks (bench/fingerprint, bench/index,
// bench/scan-vs-jscpd, bench/incremental): paths, statistics, tables, npm packs, the engine
// bundle, child-process measurement. Plain Node, no dependencies beyond the repo's esbuild.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawn } = require('child_process');

const REPO = path.resolve(__dirname, '..', '..');
const CACHE = path.join(REPO, 'bench', '.cache');
const TARBALLS = path.join(CACHE, 'tarballs');
const EXTRACT = path.join(CACHE, 'extract');
const RESULTS = path.join(REPO, 'bench', 'results');
// The engine bundle is per checkout and per process, not in bench/.cache: several worktrees may
// share one bench/.cache (a symlink) and run benchmarks at the same time, each of its own src/.
const BUILD = path.join(RESULTS, '.build');

// ------------------------------------------------------------------------------ statistics

function sorted(xs) {
  return [...xs].sort((a, b) => a - b);
}
function median(xs) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
/** Nearest-rank percentile, p in 0..100. */
function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** Spread of repeated runs: (max − min) / median, as a percentage (the noise of a figure). */
function spread(xs) {
  if (xs.length < 2) return 0;
  const s = sorted(xs);
  return (100 * (s[s.length - 1] - s[0])) / median(xs);
}

// ------------------------------------------------------------------------------ printing

const fmt = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Number(x).toFixed(d));
const mb = (bytes) => bytes / 1e6;

function table(rows, header) {
  const all = [header, ...rows].map((r) => r.map(String));
  const w = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => r.map((s, c) => (c === 0 ? s.padEnd(w[c]) : s.padStart(w[c]))).join('  ');
  return [line(all[0]), w.map((n) => '-'.repeat(n)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** One-line verdict for a target: "MET (x vs target y)" / "MISSED by z%". */
function verdict(value, target, lowerIsBetter = true) {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  const ok = lowerIsBetter ? value <= target : value >= target;
  if (ok) return 'MET';
  const off = lowerIsBetter ? value / target : target / value;
  return `MISSED (${fmt(off, 2)}x off)`;
}

function log(tag, ...a) {
  console.error(`[${tag}]`, ...a);
}

/** Machine and code identity printed at the top of each benchmark. */
function environment() {
  let rev = 'unknown';
  let dirty = '';
  try {
    rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
    const st = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: REPO, encoding: 'utf8' }).trim();
    if (st) dirty = ' (src has uncommitted changes)';
  } catch {
    /* not a git checkout */
  }
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus.length} cores (${cpus[0] ? cpus[0].model.trim() : '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, commit ${rev}${dirty}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}

function writeResult(name, data) {
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), env: environment(), ...data }, null, 2) + '\n');
  return file;
}

// ------------------------------------------------------------------------------ argv

/** --flag value / --flag=value / --switch parsing into an object; unknown flags kept in `_`. */
function parseArgs(argv, spec) {
  const o = { _: [] };
  for (const [k, v] of Object.entries(spec)) o[k] = v;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      o._.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq < 0 ? a.slice(2) : a.slice(2, eq)).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(name in spec)) {
      o._.push(a);
      continue;
    }
    if (typeof spec[name] === 'boolean') o[name] = eq < 0 ? true : a.slice(eq + 1) !== 'false';
    else {
      const v = eq < 0 ? argv[++i] : a.slice(eq + 1);
      o[name] = typeof spec[name] === 'number' ? Number(v) : v;
    }
  }
  return o;
}

// ------------------------------------------------------------------------------ npm packs

const SPECS_FILE = path.join(TARBALLS, 'specs.json');

/**
 * `npm pack <spec>` into bench/.cache/tarballs (once per spec; the resolved name and version are
 * remembered in specs.json, so a range spec stays pinned to what was downloaded first).
 * Many specs go to one `npm pack` call. Returns { spec: { name, version, file } }.
 */
function packAll(specs, tag = 'pack') {
  fs.mkdirSync(TARBALLS, { recursive: true });
  const known = fs.existsSync(SPECS_FILE) ? JSON.parse(fs.readFileSync(SPECS_FILE, 'utf8')) : {};
  const missing = specs.filter((s) => !known[s] || !fs.existsSync(path.join(TARBALLS, known[s].file)));
  for (let i = 0; i < missing.length; i += 12) {
    const chunk = missing.slice(i, i + 12);
    log(tag, `npm pack ${chunk.join(' ')}`);
    let out;
    try {
      out = execFileSync('npm', ['pack', ...chunk, '--pack-destination', TARBALLS, '--json', '--silent'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 30,
      });
    } catch (e) {
      throw new Error(`npm pack failed for ${chunk.join(' ')}: ${e.message}`);
    }
    const list = JSON.parse(out.slice(out.indexOf('[')));
    list.forEach((r, j) => {
      known[chunk[j]] = { name: r.name, version: r.version, file: r.filename.replace(/^@/, '').replace('/', '-') };
    });
    fs.writeFileSync(SPECS_FILE, JSON.stringify(known, null, 2));
  }
  const result = {};
  for (const s of specs) result[s] = known[s];
  return result;
}

/** Unpacks a tarball into bench/.cache/extract/<name>@<version>/package (once). */
function extract(info) {
  const dir = path.join(EXTRACT, `${info.name}@${info.version}`);
  const marker = path.join(dir, '.done');
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['xzf', path.join(TARBALLS, info.file), '-C', dir], { stdio: 'inherit' });
    fs.writeFileSync(marker, '');
  }
  // A few packages use another top folder than package/.
  const top = fs.readdirSync(dir).find((d) => fs.statSync(path.join(dir, d)).isDirectory());
  return path.join(dir, top || 'package');
}

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

// ------------------------------------------------------------------------------ engine bundle

/**
 * Bundles bench/lib/engine.ts (re-exports of src/) with the product's esbuild settings into
 * bench/results/.build/engine-<pid>.js (removed on exit) and requires it: the benchmarks run the product's code, built the
 * way dist/ is built (bundled, CommonJS, node20), rebuilt on every run so src edits are measured.
 */
function loadEngine() {
  const outfile = path.join(BUILD, `engine-${process.pid}.js`);
  process.once('exit', () => fs.rmSync(outfile, { force: true }));
  return bundleEngine(path.join(REPO, 'bench', 'lib', 'engine.ts'), outfile);
}

/**
 * The same engine entry points built from the `src/` of another commit (`git archive` of it into
 * bench/results/ref-<sha>/, kept for later runs): to measure a reference in the same run.
 * Returns the engine and the commit's full hash.
 */
function loadEngineAt(rev) {
  const { sha, root } = checkoutSrc(rev);
  const entry = path.join(root, 'engine.ts');
  const ours = fs.readFileSync(path.join(REPO, 'bench', 'lib', 'engine.ts'), 'utf8');
  fs.writeFileSync(entry, ours.replaceAll("'../../src/", "'./src/"));
  return { engine: bundleEngine(entry, path.join(root, 'engine.js')), sha };
}

/** The `src/` of commit `rev`, extracted once into bench/results/ref-<sha>/. */
function checkoutSrc(rev) {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: REPO, encoding: 'utf8' }).trim();
  const root = path.join(RESULTS, `ref-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(root, 'src'))) {
    fs.mkdirSync(root, { recursive: true });
    const tar = execFileSync('git', ['archive', '--format=tar', sha, 'src'], { cwd: REPO, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', root], { input: tar });
  }
  return { sha, root };
}

function bundleEngine(entry, outfile) {
  const esbuild = require(path.join(REPO, 'node_modules', 'esbuild'));
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  esbuild.buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: false,
    sourcemap: false,
    external: ['vscode', '@node-rs/jieba', '@node-rs/jieba-*'],
    logLevel: 'warning',
    absWorkingDir: REPO,
    nodePaths: [path.join(REPO, 'node_modules')],
  });
  delete require.cache[outfile];
  return require(outfile);
}

/** Builds dist/ (node esbuild.js) unless it exists and `rebuild` is false. */
function ensureDist(rebuild = false) {
  const cli = path.join(REPO, 'dist', 'cli.js');
  if (rebuild || !fs.existsSync(cli) || !fs.existsSync(path.join(REPO, 'dist', 'worker.js'))) {
    log('build', 'node esbuild.js');
    execFileSync(process.execPath, ['esbuild.js'], { cwd: REPO, stdio: 'inherit' });
  }
  return cli;
}

// ------------------------------------------------------------------------------ processes

const TIME_BIN = ['/usr/bin/time', '/bin/time'].find((p) => fs.existsSync(p)) || null;

/**
 * Runs a command to completion and measures it: wall seconds, user and sys CPU seconds and peak
 * RSS (KiB) from GNU time when installed (else from polling /proc/<pid>/status VmHWM, and CPU from
 * /proc/<pid>/stat). stdout goes to `stdoutFile` (or is discarded).
 */
function measure(cmd, args, { stdoutFile = null, cwd = REPO, timeoutMs = 30 * 60 * 1000, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const timeFile = path.join(os.tmpdir(), `neardup-bench-time-${process.pid}-${Date.now()}`);
    const useTime = TIME_BIN !== null;
    const argv = useTime ? ['-f', '%e %U %S %M', '-o', timeFile, cmd, ...args] : args;
    const out = stdoutFile ? fs.openSync(stdoutFile, 'w') : 'ignore';
    const t0 = process.hrtime.bigint();
    const child = spawn(useTime ? TIME_BIN : cmd, argv, { cwd, env, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      if (stderr.length < 20000) stderr += d;
    });
    let hwm = 0;
    let cpuTicks = 0;
    const poll = useTime
      ? null
      : setInterval(() => {
          try {
            const st = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const m = /VmHWM:\s+(\d+)/.exec(st);
            if (m) hwm = Math.max(hwm, Number(m[1]));
            const f = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
            cpuTicks = Number(f[11]) + Number(f[12]);
          } catch {
            /* exited */
          }
        }, 20);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      if (typeof out === 'number') fs.closeSync(out);
      const wallHr = Number(process.hrtime.bigint() - t0) / 1e9;
      let r = { code, signal, wall: wallHr, user: NaN, sys: NaN, maxRssKb: hwm, stderr };
      if (useTime) {
        try {
          const line = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop();
          const [e, u, s, m] = line.split(' ').map(Number);
          r = { ...r, wall: wallHr, timeWall: e, user: u, sys: s, maxRssKb: m };
        } catch {
          /* killed before time wrote */
        }
        fs.rmSync(timeFile, { force: true });
      } else {
        r.user = cpuTicks / 100;
        r.sys = 0;
      }
      // An exit status from `time` itself: "Command exited with non-zero status N" in stderr.
      resolve(r);
    });
  });
}

/** Peak RSS of this process so far, bytes. */
function maxRss() {
  return process.resourceUsage().maxRSS * 1024;
}

module.exports = {
  bundleEngine,
  REPO,
  CACHE,
  TARBALLS,
  EXTRACT,
  BUILD,
  RESULTS,
  TIME_BIN,
  median,
  percentile,
  spread,
  fmt,
  mb,
  table,
  verdict,
  log,
  environment,
  writeResult,
  parseArgs,
  packAll,
  extract,
  walk,
  loadEngine,
  loadEngineAt,
  checkoutSrc,
  ensureDist,
  measure,
  maxRss,
};
