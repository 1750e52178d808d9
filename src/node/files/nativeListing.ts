/**
 * A directory as the native kernel lists it for the synchronous walk (walk.ts walkFilesSync with
 * a `lister`: the addon's listDir, native/listdir.c): its entries' names and kinds and its regular
 * files' lstat in one call, read here into what the walk takes from Node's readdirSync and
 * lstatSync — the same kinds, sizes and errors (walkSync.ts turns them into its results).
 */
import type { Stats } from 'node:fs';
import { getSystemErrorName } from 'node:util';

/** What the addon's listDir gives for a directory it could read (see native/listdir.c). */
export interface NativeListing {
  /** The entries' names, each followed by "\0". */
  names: string;
  /** Per entry: 0 file, 1 directory, 2 symbolic link, 3 other, 4 lstat failed (statErrno). */
  kinds: Uint8Array;
  mode: Uint32Array;
  size: Float64Array;
  mtimeMs: Float64Array;
  statErrno: Int32Array;
  accessErrno: Int32Array;
}

/** Lists a directory (an absolute path): its entries, or the errno it could not be read with. */
export type DirectoryLister = (absDir: string) => NativeListing | number;

/** The kinds of walk.ts, by listDir's numbers; null: lstat failed. */
export const LISTED_KINDS = ['file', 'dir', 'symlink', 'other', null] as const;

/** What the walk reads of an lstat. */
export type FileStat = Pick<Stats, 'isSymbolicLink' | 'isDirectory' | 'isFile' | 'size' | 'mtimeMs'>;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

/** An entry's lstat as listDir read it (mode, size, mtime), with the tests of Node's Stats. */
class ListedStat implements FileStat {
  constructor(
    private readonly mode: number,
    readonly size: number,
    readonly mtimeMs: number,
  ) {}
  isSymbolicLink(): boolean {
    return (this.mode & S_IFMT) === S_IFLNK;
  }
  isDirectory(): boolean {
    return (this.mode & S_IFMT) === S_IFDIR;
  }
  isFile(): boolean {
    return (this.mode & S_IFMT) === S_IFREG;
  }
}

/** An error as Node's fs throws it for `errno` (its code, e.g. ENOENT, and errno). */
export function errnoError(errno: number, syscall: string, file: string): NodeJS.ErrnoException {
  let code: string;
  try {
    code = getSystemErrorName(-errno);
  } catch {
    code = `Unknown system error ${-errno}`;
  }
  return Object.assign(new Error(`${code}: ${syscall} '${file}'`), { code, errno: -errno, syscall, path: file });
}

/** The names of a listing, in its order. */
export function listedNames(listing: NativeListing): string[] {
  const names = listing.names.split('\0');
  names.length = listing.kinds.length;
  return names;
}

/** Entry `i`'s lstat as listDir read it (its statErrno 0). */
export function listedStat(listing: NativeListing, i: number): FileStat {
  return new ListedStat(listing.mode[i], listing.size[i], listing.mtimeMs[i]);
}
