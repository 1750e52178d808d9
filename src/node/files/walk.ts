/**
 * Walks a directory tree and yields the regular files NearDup should look at.
 *
 * - Order is deterministic: entries come sorted by `relPath` (plain UTF-16 code-unit order, the
 *   same as `[...].sort()` on the relPaths), because siblings are visited in the order of
 *   `name` for files and `name + '/'` for directories.
 * - `.gitignore` files are honoured at every level (a nested file applies to its subtree, later /
 *   deeper rules win, `!negations` work; as in git, a file inside an ignored directory cannot be
 *   re-included). `<root>/.git/info/exclude` is honoured too. Ignore files above `root` and the
 *   global `core.excludesFile` are not read.
 * - Default excludes: directories (or files) named `.git`, `.hg`, `.svn`, `.bzr`, `.jj`,
 *   `node_modules` and `.ipynb_checkpoints` (Jupyter's autosaved copies of notebooks), at any depth. `dist`, `build` and the like are NOT excluded by default.
 * - `exclude` globs (picomatch, `dot: true`) are matched against the relPath of each file and of
 *   each of its ancestor directories, so `vendor`, `vendor/**` and `**\/fixtures` exclude whole
 *   subtrees (and those directories are not even read). `include` globs are matched against the
 *   file's relPath only (`**\/*.md`, not `*.md`, for Markdown files at any depth). An empty
 *   `include` includes everything.
 * - Symbolic links are never followed (reported via `onSkip`), so loops are impossible. The root
 *   itself may be a symlink to a directory.
 * - Things ignored by rules are skipped silently; everything else that is not yielded is reported
 *   through `onSkip(relPath, reason)`: symbolic links, special files, files over the size limit,
 *   unreadable directories / files, entries that vanished during the walk. Nothing of that is
 *   ever thrown. Only a missing / non-directory root throws, and an aborted `signal` throws its
 *   reason.
 * - File-system calls run with a bounded concurrency ({@link WALK_CONCURRENCY}); memory is
 *   bounded by the largest directory, not by the size of the tree.
 * - {@link walkFilesSync} is the same walk with synchronous calls (same entries, same skips, same
 *   order): several times cheaper in CPU (no promise per call), for a thread that has nothing
 *   else to do meanwhile or that walks in slices (the CLI scan). It lists and stats a whole
 *   directory before yielding its first entry.
 */
import { DEFAULT_EXCLUDED_NAMES } from '../settings/engineSettings';
import * as fs from 'node:fs';
import { promises as fsp, constants as fsConstants, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { LISTED_KINDS, errnoError, listedNames, listedStat, type DirectoryLister, type FileStat, type NativeListing } from './nativeListing';

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

/** Names skipped at any depth when `defaultExcludes` is on (node/settings/engineSettings.ts; the web extension skips them too). */
export { DEFAULT_EXCLUDED_NAMES };

/** Maximum number of file-system calls in flight. */
export const WALK_CONCURRENCY = 64;

const SKIP_SYMLINK = 'symbolic link (not followed)';

/**
 * A predicate for include/exclude only (not .gitignore, not default excludes), with the same
 * semantics as {@link walkFiles}. Accepts '/' or '\\' separators and a leading './'.
 */
export function fileMatcher(options: Pick<WalkOptions, 'include' | 'exclude'>): (relPath: string) => boolean {
  const included = compileInclude(options.include);
  const excluded = compileExclude(options.exclude);
  return (relPath: string) => {
    const rel = normalizeRel(relPath);
    if (rel === '') return false;
    return included(rel) && !excludedWithAncestors(excluded, rel);
  };
}

/** True when a segment of relPath is one of {@link DEFAULT_EXCLUDED_NAMES} (e.g. file events). */
export function isDefaultExcluded(relPath: string): boolean {
  return normalizeRel(relPath)
    .split('/')
    .some((seg) => DEFAULT_EXCLUDED_NAMES.includes(seg));
}

export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const absRoot = path.resolve(root);
  const rootStat = await fsp.stat(absRoot);
  if (!rootStat.isDirectory()) throw new Error(`Not a directory: ${absRoot}`);

  const ctx = makeCtx(options);
  const levels: Level[] = [];
  if (ctx.gitignore) {
    const info = await readTextIfExists(path.join(absRoot, '.git', 'info', 'exclude'));
    if (info) levels.push({ base: '', ig: ignore().add(info) });
  }
  ctx.signal?.throwIfAborted();
  const listing = await listDir(ctx, absRoot);
  yield* walkDir(ctx, absRoot, '', levels, listing);
}

/**
 * {@link walkFiles} with synchronous file-system calls: the same entries, skips and order. Each
 * directory is listed and all its files are stat'ed before the first of them is yielded.
 */
export function* walkFilesSync(root: string, options: WalkOptions = {}): Generator<WalkEntry> {
  const absRoot = path.resolve(root);
  const rootStat = fs.statSync(absRoot);
  if (!rootStat.isDirectory()) throw new Error(`Not a directory: ${absRoot}`);

  const ctx = makeCtx(options);
  const levels: Level[] = [];
  if (ctx.gitignore) {
    const info = readTextIfExistsSync(path.join(absRoot, '.git', 'info', 'exclude'));
    if (info) levels.push({ base: '', ig: ignore().add(info) });
  }
  ctx.signal?.throwIfAborted();
  yield* walkDirSync(ctx, absRoot, '', levels, listDirSync(ctx, absRoot));
}

function makeCtx(options: WalkOptions): Ctx {
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

// ---------------------------------------------------------------------------------------------

interface Ctx {
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
interface Level {
  base: string;
  ig: Ignore;
}

/** A directory read by Node's calls (both walks), or listed by a `lister` (the synchronous walk). */
type NodeListing = { dirents: Dirent[]; gitignore: string | null } | { error: NodeJS.ErrnoException };
type Listing = NodeListing | { listed: NativeListing; names: string[]; gitignore: string | null };

type Kind = 'file' | 'dir' | 'symlink' | 'other';

interface Child {
  name: string;
  rel: string;
  abs: string;
  kind: Kind;
  key: string;
  /** Its entry in a native listing. */
  at?: number;
}

type FileResult = { stat: FileStat } | { error: NodeJS.ErrnoException } | { unreadable: true };

/** A failed read-access check: unreadable (permissions) or another error. */
function accessFailure(e: unknown): FileResult {
  const err = e as NodeJS.ErrnoException;
  return err.code === 'EACCES' || err.code === 'EPERM' ? { unreadable: true } : { error: err };
}

async function* walkDir(
  ctx: Ctx,
  absDir: string,
  relDir: string,
  parentLevels: Level[],
  listing: NodeListing,
): AsyncGenerator<WalkEntry> {
  ctx.signal?.throwIfAborted();
  if ('error' in listing) {
    ctx.onSkip(relDir === '' ? '.' : relDir, describeError(listing.error, 'directory'));
    return;
  }
  const levels = levelsOf(parentLevels, listing, relDir);

  // Classify; entries of unknown type (some file systems) need an lstat.
  const children: Child[] = [];
  for (const d of listing.dirents) {
    const name = d.name;
    const rel = relDir === '' ? name : `${relDir}/${name}`;
    const abs = path.join(absDir, name);
    let kind: Kind | null = direntKind(d);
    if (kind === null) {
      try {
        kind = statKind(await ctx.limit.run(() => fsp.lstat(abs)));
      } catch (e) {
        ctx.onSkip(rel, describeError(e as NodeJS.ErrnoException, 'file'));
        continue;
      }
    }
    admit(ctx, levels, children, name, rel, abs, kind);
  }
  children.sort(byKey);

  // Visit in order; look ahead so that stats and sub-directory listings overlap.
  const pending: Array<Promise<FileResult | Listing | null>> = [];
  let next = 0;
  const start = (c: Child): Promise<FileResult | Listing | null> => {
    if (c.kind === 'file') return statFile(ctx, c.abs);
    if (c.kind === 'dir') return listDir(ctx, c.abs);
    return Promise.resolve(null);
  };
  for (let i = 0; i < children.length; i++) {
    while (next < children.length && next - i < WALK_CONCURRENCY) pending.push(start(children[next++]));
    const c = children[i];
    const result = await pending[i];
    pending[i] = DONE; // release memory of finished look-ups
    ctx.signal?.throwIfAborted();
    if (c.kind === 'dir') {
      yield* walkDir(ctx, c.abs, c.rel, levels, result as NodeListing);
    } else {
      const entry = visitNonDir(ctx, c, result as FileResult | null);
      if (entry) yield entry;
    }
  }
}

function* walkDirSync(ctx: Ctx, absDir: string, relDir: string, parentLevels: Level[], listing: Listing): Generator<WalkEntry> {
  ctx.signal?.throwIfAborted();
  if ('error' in listing) {
    ctx.onSkip(relDir === '' ? '.' : relDir, describeError(listing.error, 'directory'));
    return;
  }
  const levels = levelsOf(parentLevels, listing, relDir);
  const children: Child[] = [];
  // absDir is normalised and a listed name holds no separator: what path.join gives, without its work.
  const prefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
  if ('listed' in listing) {
    const { listed, names } = listing;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      const kind = LISTED_KINDS[listed.kinds[i]];
      if (kind === null) {
        ctx.onSkip(rel, describeError(errnoError(listed.statErrno[i], 'lstat', prefix + name), 'file'));
        continue;
      }
      admit(ctx, levels, children, name, rel, prefix + name, kind, i);
    }
  }
  for (const d of 'dirents' in listing ? listing.dirents : []) {
    const name = d.name;
    const rel = relDir === '' ? name : `${relDir}/${name}`;
    const abs = prefix + name;
    let kind: Kind | null = direntKind(d);
    if (kind === null) {
      try {
        kind = statKind(fs.lstatSync(abs));
      } catch (e) {
        ctx.onSkip(rel, describeError(e as NodeJS.ErrnoException, 'file'));
        continue;
      }
    }
    admit(ctx, levels, children, name, rel, abs, kind);
  }
  children.sort(byKey);
  // Stat every file of the directory first (as the asynchronous walk looks ahead), then visit.
  const stats: Array<FileResult | null> = children.map((c) =>
    c.kind !== 'file' ? null : 'listed' in listing && c.at !== undefined ? listedStat(listing.listed, c.at, c.abs) : statFileSync(c.abs),
  );
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    ctx.signal?.throwIfAborted();
    if (c.kind === 'dir') {
      yield* walkDirSync(ctx, c.abs, c.rel, levels, listDirSync(ctx, c.abs));
    } else {
      const entry = visitNonDir(ctx, c, stats[i]);
      stats[i] = null;
      if (entry) yield entry;
    }
  }
}

/** The rule levels that apply inside a directory: its parent's, plus its own .gitignore. */
function levelsOf(parentLevels: Level[], listing: { gitignore: string | null }, relDir: string): Level[] {
  if (listing.gitignore === null) return parentLevels;
  return [...parentLevels, { base: relDir === '' ? '' : relDir + '/', ig: ignore().add(listing.gitignore) }];
}

/** Adds the entry to `children` unless a rule (default excludes, .gitignore, globs) leaves it out. */
function admit(ctx: Ctx, levels: Level[], children: Child[], name: string, rel: string, abs: string, kind: Kind, at?: number): void {
  if (ctx.defaultExcludes && DEFAULT_EXCLUDED_NAMES.includes(name)) return;
  const isDir = kind === 'dir';
  if (ctx.gitignore && levels.length > 0 && isIgnored(levels, rel, isDir)) return;
  if (ctx.excluded && ctx.excluded(rel)) return;
  if (!isDir && !ctx.included(rel)) return;
  children.push({ name, rel, abs, kind, key: isDir ? name + '/' : name, ...(at !== undefined ? { at } : {}) });
}

function byKey(a: Child, b: Child): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function statKind(st: Stats): Kind {
  return st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
}

/** The entry of a child that is not a directory, or undefined after reporting why it is skipped. */
function visitNonDir(ctx: Ctx, c: Child, r: FileResult | null): WalkEntry | undefined {
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

const DONE: Promise<null> = Promise.resolve(null);

function direntKind(d: Dirent): Kind | null {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  if (d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice()) return 'other';
  return null;
}

async function listDir(ctx: Ctx, absDir: string): Promise<NodeListing> {
  let dirents: Dirent[];
  try {
    dirents = await ctx.limit.run(() => fsp.readdir(absDir, { withFileTypes: true }));
  } catch (e) {
    return { error: e as NodeJS.ErrnoException };
  }
  let gitignore: string | null = null;
  if (ctx.gitignore) {
    const gi = dirents.find((d) => d.name === '.gitignore' && d.isFile());
    if (gi) gitignore = await ctx.limit.run(() => readTextIfExists(path.join(absDir, '.gitignore')));
  }
  return { dirents, gitignore };
}

async function statFile(ctx: Ctx, abs: string): Promise<FileResult> {
  try {
    const st = await ctx.limit.run(() => fsp.lstat(abs));
    // Only files that are not readable by everyone can be unreadable: check those alone, so a
    // normal tree costs one call per file.
    if (st.isFile() && (st.mode & 0o444) !== 0o444) {
      try {
        await ctx.limit.run(() => fsp.access(abs, fsConstants.R_OK));
      } catch (e) {
        return accessFailure(e);
      }
    }
    return { stat: st };
  } catch (e) {
    return { error: e as NodeJS.ErrnoException };
  }
}

async function readTextIfExists(file: string): Promise<string | null> {
  try {
    // O_NONBLOCK: an ignore file that is a FIFO must not block the walk waiting for a writer.
    const handle = await fsp.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    try {
      if (!(await handle.stat()).isFile()) return null;
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null; // missing or unreadable ignore file: no rules from it
  }
}

function listDirSync(ctx: Ctx, absDir: string): Listing {
  if (ctx.lister) {
    const listed = ctx.lister(absDir);
    if (typeof listed === 'number') return { error: errnoError(listed, 'scandir', absDir) };
    const names = listedNames(listed);
    const gi = ctx.gitignore ? names.findIndex((n, i) => n === '.gitignore' && listed.kinds[i] === 0) : -1;
    return { listed, names, gitignore: gi >= 0 ? readTextIfExistsSync(path.join(absDir, '.gitignore')) : null };
  }
  let dirents: Dirent[];
  try {
    dirents = fs.readdirSync(absDir, { withFileTypes: true });
  } catch (e) {
    return { error: e as NodeJS.ErrnoException };
  }
  let gitignore: string | null = null;
  if (ctx.gitignore) {
    const gi = dirents.find((d) => d.name === '.gitignore' && d.isFile());
    if (gi) gitignore = readTextIfExistsSync(path.join(absDir, '.gitignore'));
  }
  return { dirents, gitignore };
}

function statFileSync(abs: string): FileResult {
  try {
    const st = fs.lstatSync(abs);
    if (st.isFile() && (st.mode & 0o444) !== 0o444) {
      try {
        fs.accessSync(abs, fsConstants.R_OK);
      } catch (e) {
        return accessFailure(e);
      }
    }
    return { stat: st };
  } catch (e) {
    return { error: e as NodeJS.ErrnoException };
  }
}

function readTextIfExistsSync(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function isIgnored(levels: Level[], rel: string, isDir: boolean): boolean {
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

function describeError(err: NodeJS.ErrnoException, what: 'file' | 'directory'): string {
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

function normalizeRel(p: string): string {
  let rel = p.replace(/\\/g, '/');
  while (rel.startsWith('./')) rel = rel.slice(2);
  return rel.replace(/^\/+/, '').replace(/\/+$/, '');
}

function compileInclude(globs: string[] | undefined): (rel: string) => boolean {
  const list = (globs ?? []).filter((g) => g.trim() !== '');
  if (list.length === 0) return () => true;
  return picomatch(list, { dot: true });
}

function compileExclude(globs: string[] | undefined): ((rel: string) => boolean) | null {
  const list = (globs ?? []).filter((g) => g.trim() !== '');
  if (list.length === 0) return null;
  return picomatch(list, { dot: true });
}

function excludedWithAncestors(excluded: ((rel: string) => boolean) | null, rel: string): boolean {
  if (!excluded) return false;
  if (excluded(rel)) return true;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    if (excluded(rel.slice(0, i))) return true;
  }
  return false;
}

/** Caps the number of concurrently running async operations. */
class Limiter {
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
