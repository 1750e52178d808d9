/**
 * The region index's anchors by hash (regionIndex.ts): which files hold a hash, and how often.
 * An update of the index asks, for the hashes of the changed files, how many anchors every other
 * file has of each and which file comes first by path (the postings caps), which files hold some
 * (their pairs can change) and which share seeds with the changed files (their partners). Scans
 * of every file's anchors answered that (four scans of 1.5 million anchors a save on the small
 * bench tree, ~25 ms of its ~55); this answers from postings, in time that grows with the
 * changed files' hashes and their holders.
 *
 * A base of postings is built from the files at the first change (ids in path order; for each
 * distinct hash, its holders' ids ascending, one entry per anchor) and kept; a file whose anchors
 * change after it is told first, before they change ({@link AnchorPostings.changing}): its base postings are then
 * left out (its anchors of then kept to count them out) and its anchors of now read from the
 * index's map. The base is built again at a change once many files have changed since.
 */
import { sortByKey } from '../../../core/index/keySort';

/** A file's anchors as the index holds them (regionIndex.ts FileAnchors). */
export interface PostingFile {
  readonly hash: Uint32Array;
  readonly prose: boolean;
}

/** Postings of a hash (anchors, every holder's counted) and the first file (by path) holding it. */
export interface HashStat {
  n: number;
  first: string;
  prose: boolean;
}

interface Base {
  /** File ids in path order. */
  paths: string[];
  idOf: Map<string, number>;
  prose: Uint8Array;
  /** Every anchor's hash, ascending, and its file's id (ascending within a hash): the postings of h are post[i, j) where hashes[i, j) are h. */
  hashes: Uint32Array;
  post: Uint32Array;
  /** 1: the file's anchors changed since (its postings here are stale). */
  stale: Uint8Array;
}

/** Changed files past which the base is built again: this many, or a sixteenth of the files. */
const REBASE_MIN_FILES = 64;

export class AnchorPostings {
  private base: Base | null = null;
  /** Files set or deleted since the base was built, and their anchors in it (undefined: not in it). */
  private readonly before = new Map<string, PostingFile | undefined>();

  constructor(private readonly files: ReadonlyMap<string, PostingFile>) {}

  /** Everything forgotten (the index rebuilt): the base is built again at the next question. */
  reset(): void {
    this.base = null;
    this.before.clear();
  }

  /**
   * The anchors of `paths` are about to be set or deleted in the index's map, none of them yet
   * (the base is built first when there is none, or again when many files changed since).
   */
  changing(paths: Iterable<string>): void {
    if (!this.base || this.before.size > Math.max(REBASE_MIN_FILES, this.files.size / 16)) {
      this.base = baseOf(this.files);
      this.before.clear();
    }
    for (const path of paths) {
      if (this.before.has(path)) continue;
      this.before.set(path, this.files.get(path));
      const id = this.base.idOf.get(path);
      if (id !== undefined) this.base.stale[id] = 1;
    }
  }

  /** The base built now if there is none (when the engine has a moment: the first change then does not build it). */
  prepare(): void {
    if (this.files.size > 0) this.current();
  }

  /** Postings and first holder of each hash of `H` over every file but those in `exclude` (which must have been told {@link changing}). */
  stats(H: ReadonlySet<number>, exclude?: ReadonlySet<string>): Map<number, HashStat> {
    const out = new Map<number, HashStat>();
    if (H.size === 0) return out;
    const b = this.current();
    // The stale files' anchors of the base, counted out of its postings.
    const staleOf = new Map<number, number>();
    for (const f of this.before.values()) {
      if (!f) continue;
      const { hash } = f;
      for (let i = 0; i < hash.length; i++) if (H.has(hash[i])) staleOf.set(hash[i], (staleOf.get(hash[i]) ?? 0) + 1);
    }
    for (const h of H) {
      const from = lowerBound(b.hashes, h);
      const n = lowerBound(b.hashes, h + 1) - from - (staleOf.get(h) ?? 0);
      if (n <= 0) continue;
      let j = from;
      while (b.stale[b.post[j]]) j++;
      const id = b.post[j];
      out.set(h, { n, first: b.paths[id], prose: b.prose[id] === 1 });
    }
    // The changed files' anchors now.
    for (const p of this.before.keys()) {
      if (exclude?.has(p)) continue;
      const f = this.files.get(p);
      if (!f) continue;
      const { hash } = f;
      for (let i = 0; i < hash.length; i++) {
        if (!H.has(hash[i])) continue;
        const s = out.get(hash[i]);
        if (!s) out.set(hash[i], { n: 1, first: p, prose: f.prose });
        else {
          s.n++;
          if (p < s.first) (s.first = p), (s.prose = f.prose);
        }
      }
    }
    return out;
  }

  /** Files holding any hash of `H`. */
  holders(H: ReadonlySet<number>): Set<string> {
    const out = new Set<string>();
    if (H.size === 0) return out;
    const b = this.current();
    for (const h of H) {
      for (let j = lowerBound(b.hashes, h); j < b.hashes.length && b.hashes[j] === h; j++) if (!b.stale[b.post[j]]) out.add(b.paths[b.post[j]]);
    }
    for (const p of this.before.keys()) {
      const hash = this.files.get(p)?.hash;
      if (!hash || out.has(p)) continue;
      for (let i = 0; i < hash.length; i++) {
        if (H.has(hash[i])) {
          out.add(p);
          break;
        }
      }
    }
    return out;
  }

  /**
   * The files not in `dirty` whose anchors weigh at least `min`, each anchor of a hash of `mine`
   * weighing mine.get(hash) (the seeds it makes with the dirty files' anchors).
   */
  partners(mine: ReadonlyMap<number, number>, dirty: ReadonlySet<string>, min: number): Set<string> {
    const out = new Set<string>();
    if (mine.size === 0) return out;
    const b = this.current();
    const seeds = new Map<number, number>();
    for (const [h, w] of mine) {
      for (let j = lowerBound(b.hashes, h); j < b.hashes.length && b.hashes[j] === h; j++) {
        const id = b.post[j];
        if (!b.stale[id]) seeds.set(id, (seeds.get(id) ?? 0) + w);
      }
    }
    for (const [id, n] of seeds) if (n >= min && !dirty.has(b.paths[id])) out.add(b.paths[id]);
    for (const p of this.before.keys()) {
      const hash = this.files.get(p)?.hash;
      if (!hash || dirty.has(p)) continue;
      let n = 0;
      for (let i = 0; i < hash.length && n < min; i++) n += mine.get(hash[i]) ?? 0;
      if (n >= min) out.add(p);
    }
    return out;
  }

  /** The base (built now when there is none: no file changed since the index was built). */
  private current(): Base {
    this.base ??= baseOf(this.files);
    return this.base;
  }
}

/** Postings of every file's anchors: (hash, id) sorted by hash, ids ascending within one (a stable sort of them in id order). */
function baseOf(files: ReadonlyMap<string, PostingFile>): Base {
  const paths = [...files.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const idOf = new Map<string, number>();
  const prose = new Uint8Array(paths.length);
  let m = 0;
  for (let id = 0; id < paths.length; id++) {
    idOf.set(paths[id], id);
    const f = files.get(paths[id])!;
    prose[id] = f.prose ? 1 : 0;
    m += f.hash.length;
  }
  const unsorted = new Uint32Array(m);
  const ids = new Uint32Array(m);
  let at = 0;
  for (let id = 0; id < paths.length; id++) {
    const { hash } = files.get(paths[id])!;
    unsorted.set(hash, at);
    ids.fill(id, at, at + hash.length);
    at += hash.length;
  }
  const hashes = new Uint32Array(m);
  const post = new Uint32Array(m);
  sortByKey(unsorted, ids, hashes, post, m);
  return { paths, idOf, prose, hashes, post, stale: new Uint8Array(paths.length) };
}

/** The first index of the ascending `hashes` holding at least `h` (a number: h + 1 past the largest hash is the length). */
function lowerBound(hashes: Uint32Array, h: number): number {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid] < h) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
