/**
 * What the two walks of walk.ts share (the asynchronous walkFiles and walkSync.ts's
 * walkFilesSync): their options and entries, the walk's context, its rules (default excludes,
 * .gitignore levels, include and exclude globs), the kinds of entries and the reasons a file is
 * skipped — so that both yield the same entries and skips in the same order.
 */
import { DEFAULT_EXCLUDED_NAMES } from '../settings/engineSettings';
import { type Dirent, type Stats } from 'node:fs';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import type { DirectoryLister, FileStat } from './nativeListing';

export interface WalkOptions {
  /** Globs on relPath; empty or missing = every file. */
  include?: string[];
  /** Globs on relPath (or on an ancestor directory's relPath). */
  exclude?: string[];
  /** Files larger than this are skipped and reported. Default {@link DEFAULT_MAX_FILE_SIZE_BYTES}. */
  maxFileSizeBytes?: number;
  /** Honour .gitignore files and .git/info/exclude. Default true. */
  gitignore?: boolean;
  /** Skip {@link DEFAULT_EXCLUDED_NAMES}. Default true. */
  defaultExcludes?: boolean;
  /** Called for every file or directory that is skipped for a reason other than a rule. */
  onSkip?: (relPath: string, reason: string) => void;
  signal?: AbortSignal;
  /**
   * walkFilesSync's listing of a directory: the native kernel's listDir where it is built (the CLI
   * scan), one call for a directory's entries and its files' lstat; else Node's calls. The same
   * entries, skips and order.
   */
  lister?: DirectoryLister;
}

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Relative to the root, '/' separators. */
  relPath: string;
  size: number;
  mtimeMs: number;
}

/** 2 MiB: larger files are rarely hand-written text worth fingerprinting. */
export const DEFAULT_MAX_FILE_SIZE_BYTES = 2 * 1024 * 1024;

/** Maximum number of file-system calls in flight. */
export const WALK_CONCURRENCY = 64;

export const SKIP_SYMLINK = 'symbolic link (not followed)';

export function makeCtx(options: WalkOptions): Ctx {
  return {
    maxSize: options.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES,
    gitignore: options.gitignore ?? true,
    defaultExcludes: options.defaultExcludes ?? true,
    included: compileInclude(options.include),
    excluded: compileExclude(options.exclude),
    onSkip: options.onSkip ?? (() => undefined),
    signal: options.signal,
    limit: new Limiter(WALK_CONCURRENCY),
    lister: options.lister,
  };
}

export interface Ctx {
  maxSize: number;
  gitignore: boolean;
  defaultExcludes: boolean;
  included: (rel: string) => boolean;
  excluded: ((rel: string) => boolean) | null;
  onSkip: (relPath: string, reason: string) => void;
  signal: AbortSignal | undefined;
  limit: Limiter;
  lister: DirectoryLister | undefined;
}

/** The rules of one ignore file; `base` is its directory relative to root with a trailing '/'. */
export interface Level {
  base: string;
  ig: Ignore;
}

/** A directory read by Node's calls (both walks), or listed by a `lister` (the synchronous walk). */
export type NodeListing = { dirents: Dirent[]; gitignore: string | null } | { error: NodeJS.ErrnoException };

export type Kind = 'file' | 'dir' | 'symlink' | 'other';

export interface Child {
  name: string;
  rel: string;
  abs: string;
  kind: Kind;
  key: string;
  /** Its entry in a native listing. */
  at?: number;
}

export type FileResult = { stat: FileStat } | { error: NodeJS.ErrnoException } | { unreadable: true };

/** A failed read-access check: unreadable (permissions) or another error. */
export function accessFailure(e: unknown): FileResult {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'EACCES' || err.code === 'EPERM' ? { unreadable: true } : { error: err };
}

/**
 * The rule levels that apply inside a listed directory: its parent's, plus its own .gitignore;
 * null after reporting a directory that could not be listed (both walks, on entering one).
 */
export function levelsOf(ctx: Ctx, parentLevels: Level[], listing: { gitignore: string | null } | { error: NodeJS.ErrnoException }, relDir: string): Level[] | null {
  ctx.signal?.throwIfAborted();
  if ('error' in listing) {
    ctx.onSkip(relDir === '' ? '.' : relDir, describeError(listing.error, 'directory'));
    return null;
  }
  if (listing.gitignore === null) return parentLevels;
  return [...parentLevels, { base: relDir === '' ? '' : relDir + '/', ig: ignore().add(listing.gitignore) }];
}

/** Adds the entry to `children` unless a rule (default excludes, .gitignore, globs) leaves it out. */
export function admit(ctx: Ctx, levels: Level[], children: Child[], name: string, rel: string, abs: string, kind: Kind, at?: number): void {
  if (ctx.defaultExcludes && DEFAULT_EXCLUDED_NAMES.includes(name)) return;
  const isDir = kind === 'dir';
  if (ctx.gitignore && levels.length > 0 && isIgnored(levels, rel, isDir)) return;
  if (ctx.excluded && ctx.excluded(rel)) return;
  if (!isDir && !ctx.included(rel)) return;
  children.push({ name, rel, abs, kind, key: isDir ? name + '/' : name, ...(at !== undefined ? { at } : {}) });
}

export function byKey(a: Child, b: Child): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function statKind(st: Stats): Kind {
  return st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
}

/** The entry of a child that is not a directory, or undefined after reporting why it is skipped. */
export function visitNonDir(ctx: Ctx, c: Child, r: FileResult | null): WalkEntry | undefined {
  if (c.kind === 'symlink') {
    ctx.onSkip(c.rel, SKIP_SYMLINK);
  } else if (c.kind === 'other') {
    ctx.onSkip(c.rel, 'not a regular file');
  } else if (r === null) {
    // not reached: files always have a stat result
  } else if ('error' in r) {
    ctx.onSkip(c.rel, describeError(r.error, 'file'));
  } else if ('unreadable' in r) {
    ctx.onSkip(c.rel, 'permission denied (EACCES)');
  } else {
    const st = r.stat;
    if (st.isSymbolicLink()) {
      ctx.onSkip(c.rel, SKIP_SYMLINK); // replaced by a link since the listing
    } else if (st.isDirectory()) {
      ctx.onSkip(c.rel, 'changed from file to directory during the scan');
    } else if (!st.isFile()) {
      ctx.onSkip(c.rel, 'not a regular file');
    } else if (st.size > ctx.maxSize) {
      ctx.onSkip(c.rel, `file too large (${st.size} bytes > limit ${ctx.maxSize} bytes)`);
    } else {
      return { path: c.abs, relPath: c.rel, size: st.size, mtimeMs: st.mtimeMs };
    }
  }
  return undefined;
}

export function direntKind(d: Dirent): Kind | null {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  if (d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice()) return 'other';
  return null;
}

/** Whether the rules of `levels` ignore `rel` (a directory when `isDir`): the deepest rule that matches wins (walks and file events, ignoreRules.ts). */
export function isIgnored(levels: Level[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of levels) {
    if (base !== '' && !rel.startsWith(base)) continue;
    const sub = rel.slice(base.length) + (isDir ? '/' : '');
    let r: { ignored: boolean; unignored: boolean };
    try {
      r = ig.test(sub);
    } catch {
      continue; // a name the ignore package refuses as a relative path: not ignored
    }
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

export function describeError(err: NodeJS.ErrnoException, what: 'file' | 'directory'): string {
  switch (err.code) {
    case 'ENOENT':
      return `${what} vanished during the scan (ENOENT)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${err.code})`;
    case 'ENOTDIR':
      return `${what} changed type during the scan (ENOTDIR)`;
    default:
      return `cannot read ${what}: ${err.code ?? err.message}`;
  }
}

export function normalizeRel(p: string): string {
  let rel = p.replace(/\\/g, '/');
  while (rel.startsWith('./')) rel = rel.slice(2);
  return rel.replace(/^\/+/, '').replace(/\/+$/, '');
}

export function compileInclude(globs: string[] | undefined): (rel: string) => boolean {
  const list = (globs ?? []).filter((g) => g.trim() !== '');
  if (list.length === 0) return () => true;
  return picomatch(list, { dot: true });
}

export function compileExclude(globs: string[] | undefined): ((rel: string) => boolean) | null {
  const list = (globs ?? []).filter((g) => g.trim() !== '');
  if (list.length === 0) return null;
  return picomatch(list, { dot: true });
}

export function excludedWithAncestors(excluded: ((rel: string) => boolean) | null, rel: string): boolean {
  if (!excluded) return false;
  if (excluded(rel)) return true;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    if (excluded(rel.slice(0, i))) return true;
  }
  return false;
}

/** Caps the number of concurrently running async operations. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // hand the slot over
      else this.active--;
    }
  }
}
