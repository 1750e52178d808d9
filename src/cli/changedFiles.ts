/**
 * `--changed-since REF`: the files of `<dir>` changed between REF and the working tree —
 * committed, staged or modified since REF (`git diff --name-only REF`), and untracked files git
 * does not ignore (`git ls-files --others --exclude-standard`) — as paths relative to `<dir>`.
 *
 * The one place in src that runs a program: git, through execFile (never a shell), with fixed
 * arguments. REF is resolved first to a commit id (`git rev-parse --verify --end-of-options`), so
 * it can never be taken for an option. Settings a repository could use to run a program of its
 * own while git reads the index (`core.fsmonitor`), or to rewrite the listing (external diff
 * drivers, textconv), are switched off on the command line. Only the CLI calls this; the
 * extension never runs git.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type ChangedFilesResult = { ok: true; files: Set<string>; commit: string } | { ok: false; message: string };

/** At most this much output from one git command (a listing of ~100,000 paths). */
const MAX_BUFFER = 64 * 1024 * 1024;
const TIMEOUT_MS = 120_000;

/** Options placed before every git subcommand. */
const SAFE = ['--no-pager', '-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-c', 'core.quotePath=false'];

function git(cwd: string, args: string[]): Promise<{ ok: true; out: string } | { ok: false; err: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE, ...args],
      { cwd, encoding: 'utf8', maxBuffer: MAX_BUFFER, timeout: TIMEOUT_MS, windowsHide: true, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const err = code === 'ENOENT' ? 'git is not installed (or not on PATH)' : (String(stderr).trim().split('\n')[0] || error.message);
          resolve({ ok: false, err });
        } else {
          resolve({ ok: true, out: stdout });
        }
      },
    );
  });
}

const splitZ = (s: string) => s.split('\0').filter((p) => p !== '');

/** The changed files under `root` (a folder inside a git work tree) since `ref`. */
export async function changedFiles(root: string, ref: string): Promise<ChangedFilesResult> {
  if (ref === '' || ref.startsWith('-') || /[\0\n\r]/.test(ref)) return { ok: false, message: `--changed-since takes a git revision, not '${ref}'` };
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return { ok: false, message: `--changed-since needs a git work tree: ${top.err}` };
  const commit = await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  const id = commit.ok ? commit.out.trim() : '';
  if (!/^[0-9a-f]{40,64}$/.test(id)) return { ok: false, message: `--changed-since: '${ref}' is not a commit of this repository` };
  const diff = await git(root, ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', id, '--']);
  if (!diff.ok) return { ok: false, message: `--changed-since: git diff failed: ${diff.err}` };
  const untracked = await git(root, ['ls-files', '--others', '--exclude-standard', '--full-name', '-z']);
  if (!untracked.ok) return { ok: false, message: `--changed-since: git ls-files failed: ${untracked.err}` };
  // Both listings are relative to the top of the work tree; the report's paths to `root`.
  const realTop = fs.realpathSync(top.out.trim());
  const realRoot = fs.realpathSync(root);
  const files = new Set<string>();
  for (const p of [...splitZ(diff.out), ...splitZ(untracked.out)]) {
    const rel = path.relative(realRoot, path.join(realTop, p));
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    files.add(rel.split(path.sep).join('/'));
  }
  return { ok: true, files, commit: id };
}
