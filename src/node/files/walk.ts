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
 *   directory before yielding its first entry. {@link walkFilesSliced}: that walk on the addon's
 *   listing, giving the event loop a turn every few ms (the extension's engine).
 */
import { promises as fsp, constants as fsConstants, type Dirent } from 'node:fs';
import * as path from 'node:path';
import ignore from 'ignore';
import { DEFAULT_EXCLUDED_NAMES } from '../settings/engineSettings';
import {
  DEFAULT_MAX_FILE_SIZE_BYTES,
  WALK_CONCURRENCY,
  accessFailure,
  admit,
  byKey,
  compileExclude,
  compileInclude,
  describeError,
  direntKind,
  excludedWithAncestors,
  levelsOf,
  makeCtx,
  normalizeRel,
  statKind,
  visitNonDir,
  type Child,
  type Ctx,
  type FileResult,
  type Kind,
  type Level,
  type NodeListing,
  type WalkEntry,
  type WalkOptions,
} from './walkParts';

export { DEFAULT_MAX_FILE_SIZE_BYTES, WALK_CONCURRENCY, type WalkEntry, type WalkOptions };
export { walkFilesSliced, walkFilesSync } from './walkSync';

/** Names skipped at any depth when `defaultExcludes` is on (node/settings/engineSettings.ts; the web extension skips them too). */
export { DEFAULT_EXCLUDED_NAMES };

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

async function* walkDir(
  ctx: Ctx,
  absDir: string,
  relDir: string,
  parentLevels: Level[],
  listing: NodeListing,
): AsyncGenerator<WalkEntry> {
  const levels = levelsOf(ctx, parentLevels, listing, relDir);
  if (!levels || 'error' in listing) return;

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
  const pending: Array<Promise<FileResult | NodeListing | null>> = [];
  let next = 0;
  const start = (c: Child): Promise<FileResult | NodeListing | null> => {
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

const DONE: Promise<null> = Promise.resolve(null);

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
