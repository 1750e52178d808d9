/**
 * Runs the bundled CLI (dist/cli.js) in a child process, optionally as another user, with
 * another environment, or measuring the child's peak resident memory.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the child in KB (with `measureRss`), else undefined. */
  maxRssKb?: number;
}

export interface CliRunOptions {
  cli?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  measureRss?: boolean;
  timeout?: number;
}

let rssPreload: string | undefined;

/** A -r preload that writes process.resourceUsage().maxRSS (whole process, all threads) on exit. */
function rssPreloadFile(): string {
  if (!rssPreload) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-rss-'));
    fs.chmodSync(dir, 0o755);
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    rssPreload = path.join(dir, 'rss.js');
    fs.writeFileSync(
      rssPreload,
      "process.on('exit', () => { try { require('fs').writeFileSync(process.env.NEARDUP_TEST_RSS_FILE, String(process.resourceUsage().maxRSS)); } catch {} });\n",
    );
    fs.chmodSync(rssPreload, 0o644);
  }
  return rssPreload;
}

export function runCli(args: string[], options: CliRunOptions = {}): CliRun {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  const nodeArgs: string[] = [];
  let rssFile: string | undefined;
  if (options.measureRss) {
    rssFile = path.join(os.tmpdir(), `neardup-rss-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
    env.NEARDUP_TEST_RSS_FILE = rssFile;
    nodeArgs.push('-r', rssPreloadFile());
  }
  const r = spawnSync(process.execPath, [...nodeArgs, options.cli ?? CLI, ...args], {
    encoding: 'utf8',
    timeout: options.timeout ?? 120000,
    cwd: options.cwd,
    env,
    uid: options.uid,
    gid: options.gid,
    maxBuffer: 512 * 1024 * 1024,
  });
  let maxRssKb: number | undefined;
  if (rssFile && fs.existsSync(rssFile)) {
    maxRssKb = Number(fs.readFileSync(rssFile, 'utf8'));
    fs.rmSync(rssFile, { force: true });
  }
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, maxRssKb };
}

/** uid/gid of `nobody` when this process may switch to it (runs as root), else null. */
export function nobodyIds(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === 'nobody') return { uid: Number(f[2]), gid: Number(f[3]) };
    }
  } catch {
    return null;
  }
  return null;
}

/** Makes a tree readable (and its directories enterable) by everyone, as `nobody` needs. */
export function openToAll(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) openToAll(p);
    else if (e.isFile()) fs.chmodSync(p, 0o644);
  }
}

/** The stderr lines of a run (without the trailing empty one). */
export function lines(s: string): string[] {
  return s.split('\n').filter((l) => l !== '');
}
