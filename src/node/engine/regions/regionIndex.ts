/**
 * The engine's index of located copies (issue 12 in the extension): per file only its anchors
 * (core/regions: winnowed k-gram hashes and their token positions, 8 bytes each here; ~57,000 per
 * MB of text), never its token streams, and the located pairs found (src/node/engine/regionPairs.ts).
 *
 * - `rebuild`: every file's region document (from the `load` callback: read with the
 *   fingerprints, or again through the fingerprint workers, engineRegions.ts), the region finder
 *   over all of them as the CLI's `--locate` runs it, then the documents are let go and only their
 *   anchors kept.
 * - `update`: a changed, created or deleted file's anchors out of and into the index; the files
 *   whose pairs can change are the changed ones and, when a hash crosses the postings cap
 *   (boilerplate, see core/regions/anchorIndex.ts), every file holding it ("dirty"); their pairs
 *   are found again against the files sharing a seed with them (read again for the alignment),
 *   with the anchors the full index would keep (a hash over the cap of the whole index is left
 *   out), so the result is the full recompute's. When the number of files changes the caps (the
 *   prose cap grows with the corpus), `update` rebuilds.
 * An update's questions about the other files (postings of its hashes, their holders, its
 * partners) are answered from the anchors by hash (anchorPostings.ts), not by scans of every file.
 */
import type { ReportPair } from '../../../core/report/report';
import { withAnchors, type RegionDocument } from '../../../core/regions/document';
import { bucketPairsOf, defaultAnchors, findRegions, searchedResult, type RegionOptions, type RegionPair, type RegionResult } from '../../../core/regions/regions';
import { kernelPlanAsync, type PlanKernel } from '../../../core/regions/kernelPlan';
import type { CodeKernel } from '../../../core/types';
import type { EngineSettings } from '../../settings/engineSettings';
import { locatedPair, locatedPairOfSides, locatedSideKey } from './regionPairs';
import { sideRequestOf } from '../../regions/regionSides';
import { SIDE_A_START, SIDE_B_START, SIDE_INTS } from '../../../core/regions/sideFacts';
import { AnchorPostings, type HashStat } from './anchorPostings';

/** A file's anchors: hashes, token positions, and whether the file is prose (its cap). */
export interface FileAnchors {
  hash: Uint32Array;
  pos: Int32Array;
  prose: boolean;
}

/** A located side's content key (RegionIndex.sideKey), with its file and lines. */
export interface SideKeyEntry {
  path: string;
  startLine: number;
  endLine: number;
  key: string;
}

/** Region documents of files (absolute paths), read again; a file that cannot be read or is skipped is absent. */
export type RegionLoader = (paths: string[]) => Promise<Map<string, RegionDocument>>;

/** The region finder's defaults the index reproduces (core/regions/regions.ts DEFAULTS). */
const MIN_TOKENS = 30;
/**
 * Seeds a pair of documents needs to be searched at all: RegionOptions.minSeeds (2) and
 * minBucketSeeds (4), the larger. A bucket's seeds are every two postings of each hash it shares.
 */
const MIN_BUCKET_SEEDS = 4;
const MAX_POSTINGS = 24;
const PROSE_SHARE = 0.08;
const CEILING = 64;
const EMPTY_HASH = new Uint32Array(0);
const EMPTY_POS = new Int32Array(0);

/** The postings caps findRegions uses for `n` documents (code, prose). */
export function capsFor(n: number): { code: number; prose: number } {
  const grown = (share: number) => Math.max(MAX_POSTINGS, Math.min(CEILING, Math.floor(share * n)));
  const code = grown(0);
  return { code, prose: Math.max(code, grown(PROSE_SHARE)) };
}

function anchorsOfDoc(doc: RegionDocument): FileAnchors {
  if (doc.length < MIN_TOKENS) return { hash: EMPTY_HASH, pos: EMPTY_POS, prose: doc.kind === 'prose' };
  const a = doc.anchors ?? defaultAnchors(doc);
  return { hash: a.hash, pos: a.pos, prose: doc.kind === 'prose' };
}

export interface RegionIndexStats {
  files: number;
  anchors: number;
  /** Bytes of the anchors' arrays. */
  anchorBytes: number;
  pairs: number;
}

export class RegionIndex {
  private readonly files = new Map<string, FileAnchors>();
  /** The files' anchors by hash, for an update's questions about the other files (anchorPostings.ts). */
  private readonly postings = new AnchorPostings(this.files);
  private readonly byPath = new Map<string, Set<ReportPair>>();
  private caps = capsFor(0);
  /** Changes with every pair added or removed; {@link pairs} is kept for it. */
  private ver = 0;
  private sorted: { ver: number; pairs: ReportPair[] } | undefined;
  /**
   * The content keys of the located sides, by path and lines (`startLine\0endLine`): a baseline's
   * key of a located side, the CLI's (node/locate/locateLines.ts LocatedSides: the first side found
   * with those lines gives it). Made when the pair is found (its documents are not kept); a file's
   * go when it changes (its pairs are found again).
   */
  private readonly sideKeys = new Map<string, Map<string, string>>();

  /** `threads`: of the kernel's one-call bucket search (the native addon's; the same regions). */
  constructor(
    private readonly kernel?: Pick<CodeKernel, 'anchorSeeds' | 'alignChain' | 'simhashTokens' | 'regionPlanAsync'>,
    private readonly threads = 1,
  ) {}

  stats(): RegionIndexStats {
    let anchors = 0;
    for (const f of this.files.values()) anchors += f.hash.length;
    return { files: this.files.size, anchors, anchorBytes: anchors * 8, pairs: this.pairs().length };
  }

  /** Located pairs touching a file. */
  pairsOf(path: string): ReportPair[] {
    const set = this.byPath.get(path);
    return set ? [...set] : [];
  }

  /** Changes whenever the located pairs do. */
  get version(): number {
    return this.ver;
  }

  /** Every located pair, in a stable order (by side a's path and line, then b's). Not to be changed: kept until the pairs change. */
  pairs(): readonly ReportPair[] {
    if (this.sorted?.ver === this.ver) return this.sorted.pairs;
    const all = new Set<ReportPair>();
    for (const set of this.byPath.values()) for (const p of set) all.add(p);
    const pairs = [...all].sort(
      (x, y) => cmp(x.a.path, y.a.path) || x.a.startLine! - y.a.startLine! || cmp(x.b.path, y.b.path) || x.b.startLine! - y.b.startLine!,
    );
    this.sorted = { ver: this.ver, pairs };
    return pairs;
  }

  /** Forgets everything; returns the files that had pairs. */
  clear(): Set<string> {
    const had = new Set(this.byPath.keys());
    this.ver++;
    this.files.clear();
    this.postings.reset();
    this.byPath.clear();
    this.sideKeys.clear();
    this.caps = capsFor(0);
    return had;
  }

  /** Every file's regions from scratch; returns the files whose pairs may have changed (all of them). */
  async rebuild(paths: readonly string[], load: RegionLoader, settings: EngineSettings): Promise<Set<string>> {
    const touched = this.clear();
    const loaded = await load([...paths]);
    const names = [...loaded.keys()].sort(cmp);
    const docs = names.map((p) => loaded.get(p)!);
    for (let i = 0; i < names.length; i++) this.files.set(names[i], anchorsOfDoc(docs[i]));
    this.caps = capsFor(names.length);
    const found = (await this.searchedOffThread(docs, settings)) ?? findRegions(docs, { kernel: this.kernel, threads: this.threads });
    const sides = found.sideFacts;
    for (let i = 0; i < found.pairs.length; i++) {
      const r = found.pairs[i];
      const made = sides && locatedPairOfSides(names[r.a.doc], names[r.b.doc], r, sides, i);
      const pair = made || locatedPair(names[r.a.doc], docs[r.a.doc], names[r.b.doc], docs[r.b.doc], r, settings, this.kernel);
      if (!shown(r, pair, docs[r.a.doc], docs[r.b.doc], settings)) continue;
      this.add(pair);
      this.noteSides(pair, docs[r.a.doc], docs[r.b.doc], r, made ? sides.subarray(SIDE_INTS * i, SIDE_INTS * (i + 1)) : undefined);
    }
    for (const p of this.byPath.keys()) touched.add(p);
    return touched;
  }

  /**
   * After files changed (created, changed or deleted; `present` says which still are): their
   * anchors replaced and the pairs that can have changed found again. Returns the files whose
   * pairs may have changed.
   */
  async update(changed: Iterable<string>, present: (path: string) => boolean, load: RegionLoader, settings: EngineSettings, all: () => string[]): Promise<Set<string>> {
    const D = new Set(changed);
    const old = new Map<string, FileAnchors | undefined>();
    for (const p of D) {
      old.set(p, this.files.get(p));
      this.sideKeys.delete(p);
    }
    const loaded = await load([...D].filter(present));
    this.postings.changing(D);
    for (const p of D) {
      const d = loaded.get(p);
      if (d) this.files.set(p, anchorsOfDoc(d));
      else this.files.delete(p);
    }
    const caps = capsFor(this.files.size);
    if (caps.code !== this.caps.code || caps.prose !== this.caps.prose) return this.rebuild(all(), load, settings);

    // Hashes of the changed files, before and after: those crossing the cap make their holders dirty.
    const H = new Set<number>();
    for (const p of D) {
      for (const f of [old.get(p), this.files.get(p)]) if (f) for (let i = 0; i < f.hash.length; i++) H.add(f.hash[i]);
    }
    const others = this.postings.stats(H, D);
    // The changed files' own postings of those hashes, before and after.
    const own = (side: 'old' | 'new'): Map<number, HashStat> => {
      const out = new Map<number, HashStat>();
      for (const p of D) {
        const f = side === 'old' ? old.get(p) : this.files.get(p);
        if (!f) continue;
        for (let i = 0; i < f.hash.length; i++) {
          const s = out.get(f.hash[i]);
          if (!s) out.set(f.hash[i], { n: 1, first: p, prose: f.prose });
          else {
            s.n++;
            if (p < s.first) (s.first = p), (s.prose = f.prose);
          }
        }
      }
      return out;
    };
    const before = own('old');
    const after = own('new');
    const dropped = (h: number, mine: Map<number, HashStat>): boolean => {
      const s = others.get(h);
      const m = mine.get(h);
      const n = (s?.n ?? 0) + (m?.n ?? 0);
      const prose = s && (!m || s.first < m.first) ? s.prose : (m?.prose ?? false);
      return n > (prose ? this.caps.prose : this.caps.code);
    };
    const flipped = new Set<number>();
    for (const h of H) {
      const s = others.get(h);
      // Only hashes that some other file holds can change another file's seeds.
      if (s && s.n > 0 && dropped(h, before) !== dropped(h, after)) flipped.add(h);
    }
    const dirty = new Set(D);
    if (flipped.size > 0) for (const p of this.postings.holders(flipped)) dirty.add(p);

    // The seeds the full index would give the dirty files: their hashes under the cap.
    const S = new Set<number>();
    for (const p of dirty) {
      const f = this.files.get(p);
      if (f) for (let i = 0; i < f.hash.length; i++) S.add(f.hash[i]);
    }
    const stats = this.postings.stats(S);
    for (const [h, s] of stats) if (s.n < 2 || s.n > (s.prose ? this.caps.prose : this.caps.code)) S.delete(h);
    const partners = this.partnersOf(S, dirty);

    // Pairs touching a dirty file: out, then found again among the dirty files and their partners.
    const touched = new Set<string>(dirty);
    for (const p of dirty) {
      for (const pair of [...(this.byPath.get(p) ?? [])]) this.remove(pair, touched);
    }
    const wanted = [...new Set([...dirty, ...partners])].filter((p) => this.files.has(p)).sort(cmp);
    const more = await load(wanted.filter((p) => !loaded.has(p)));
    const names: string[] = [];
    const docs: RegionDocument[] = [];
    // (a bit of a filter tested before the set: most anchors of the partners are not seeds)
    const seeds = hashFilter(S);
    for (const p of wanted) {
      const d = loaded.get(p) ?? more.get(p);
      if (!d) continue; // gone since: its pairs go with its next change
      const f = this.files.get(p)!;
      const keep: number[] = [];
      for (let i = 0; i < f.hash.length; i++) if (mayHold(seeds, f.hash[i]) && S.has(f.hash[i])) keep.push(i);
      const hash = new Uint32Array(keep.length);
      const pos = new Int32Array(keep.length);
      for (let j = 0; j < keep.length; j++) {
        hash[j] = f.hash[keep[j]];
        pos[j] = f.pos[keep[j]];
      }
      names.push(p);
      docs.push(withAnchors(d, { hash, pos })); // (as lean as it is)
    }
    const isDirty = names.map((p) => dirty.has(p));
    const options: RegionOptions = {
      // The global caps are applied above (S): none within the subset.
      maxPostings: 0x7fffffff,
      maxPostingsCeiling: 0x7fffffff,
      proseMaxPostingsShare: 0,
      skipPair: (a, b) => !isDirty[a] && !isDirty[b],
      kernel: this.kernel,
      threads: this.threads,
    };
    const found = findRegions(docs, options);
    for (const r of found.pairs) {
      const pair = locatedPair(names[r.a.doc], docs[r.a.doc], names[r.b.doc], docs[r.b.doc], r, settings, this.kernel);
      if (!shown(r, pair, docs[r.a.doc], docs[r.b.doc], settings)) continue;
      this.add(pair);
      this.noteSides(pair, docs[r.a.doc], docs[r.b.doc], r);
      touched.add(pair.a.path).add(pair.b.path);
    }
    return touched;
  }

  /**
   * The files (not dirty) that share at least MIN_BUCKET_SEEDS seeds with the dirty files: the
   * region finder does not search a pair of documents with fewer, so the others cannot change
   * (most of a file's partners in a large tree share one or two chance anchors with it). A file's
   * seeds with all the dirty ones together are at least its seeds with any one of them.
   */
  private partnersOf(S: ReadonlySet<number>, dirty: ReadonlySet<string>): Set<string> {
    const mine = new Map<number, number>();
    for (const p of dirty) {
      const f = this.files.get(p);
      if (f) for (let i = 0; i < f.hash.length; i++) if (S.has(f.hash[i])) mine.set(f.hash[i], (mine.get(f.hash[i]) ?? 0) + 1);
    }
    return this.postings.partners(mine, dirty, MIN_BUCKET_SEEDS);
  }

  /** What the index holds, for the region cache (regionCache.ts): each file's anchors, the pairs, the sides' content keys. */
  snapshot(): { anchors: Map<string, FileAnchors>; pairs: readonly ReportPair[]; sideKeys: SideKeyEntry[] } {
    const sideKeys: SideKeyEntry[] = [];
    for (const [path, byLines] of this.sideKeys) {
      for (const [at, key] of byLines) {
        const [startLine, endLine] = at.split('\0').map(Number);
        sideKeys.push({ path, startLine, endLine, key });
      }
    }
    return { anchors: new Map(this.files), pairs: this.pairs(), sideKeys };
  }

  /** The index as a snapshot holds it (the region cache's, at a warm start); returns the files that have pairs. */
  restore(anchors: ReadonlyMap<string, FileAnchors>, pairs: readonly ReportPair[], sideKeys: readonly SideKeyEntry[]): Set<string> {
    this.clear();
    for (const [p, f] of anchors) this.files.set(p, f);
    this.caps = capsFor(this.files.size);
    for (const pair of pairs) this.add(pair);
    for (const k of sideKeys) {
      let byLines = this.sideKeys.get(k.path);
      if (!byLines) this.sideKeys.set(k.path, (byLines = new Map()));
      byLines.set(`${k.startLine}\0${k.endLine}`, k.key);
    }
    return new Set(this.byPath.keys());
  }

  /** The anchors by hash made now if they are not (a full build's, ~60 ms on the small bench tree; else the first update makes them). */
  preparePostings(): void {
    this.postings.prepare();
  }

  /** A located side's content key (a baseline's key of it), when a located pair has that side. */
  sideKey(path: string, startLine: number, endLine: number): string | undefined {
    return this.sideKeys.get(path)?.get(`${startLine}\0${endLine}`);
  }

  /**
   * findRegions(docs) with its defaults as one job of the kernel off this thread (the plan, its
   * seeds and the search on the kernel's threads: core/regions/kernelPlan.ts, as the CLI's
   * `--locate`), the same pairs; undefined when the kernel has no such job or declines the plan
   * (a document without stored anchors).
   */
  private async searchedOffThread(docs: RegionDocument[], settings: EngineSettings): Promise<RegionResult | undefined> {
    const kernel = this.kernel;
    if (!kernel?.regionPlanAsync) return undefined;
    // (the job makes the regions' sides too, as locatedPair would: sideFacts.ts)
    const job = kernelPlanAsync(kernel as PlanKernel, docs, {}, this.threads, false, sideRequestOf(settings));
    if (!job) return undefined;
    const { plan, found } = await job;
    return searchedResult(plan, bucketPairsOf(docs, plan.bucketCuts, found, plan.stats), found);
  }

  /** Records the content keys of a shown pair's sides (the first side with those lines gives it, as in the CLI). */
  private noteSides(pair: ReportPair, A: RegionDocument, B: RegionDocument, r: RegionPair, sides?: Int32Array): void {
    const note = (loc: ReportPair['a'], doc: RegionDocument, side: 'a' | 'b', trimmed: number | undefined) => {
      let byLines = this.sideKeys.get(loc.path);
      if (!byLines) this.sideKeys.set(loc.path, (byLines = new Map()));
      const at = `${loc.startLine}\0${loc.endLine}`;
      if (!byLines.has(at)) byLines.set(at, locatedSideKey(doc, r[side], trimmed));
    };
    note(pair.a, A, 'a', sides?.[SIDE_A_START]);
    note(pair.b, B, 'b', sides?.[SIDE_B_START]);
  }

  private add(pair: ReportPair): void {
    this.ver++;
    for (const p of [pair.a.path, pair.b.path]) {
      let set = this.byPath.get(p);
      if (!set) this.byPath.set(p, (set = new Set()));
      set.add(pair);
    }
  }

  private remove(pair: ReportPair, touched: Set<string>): void {
    this.ver++;
    for (const p of [pair.a.path, pair.b.path]) {
      touched.add(p);
      const set = this.byPath.get(p);
      if (!set) continue;
      set.delete(pair);
      if (set.size === 0) this.byPath.delete(p);
    }
  }
}

/** Lines a code side of a shown region spans at least (jscpd's default `min-lines`). */
export const MIN_CODE_LINES = 5;

/**
 * Whether a region is shown: both sides hold at least `neardup.minTokens` tokens (as a section
 * must, to be fingerprinted) and a code side spans at least {@link MIN_CODE_LINES} lines. The
 * region finder keeps regions from 30 tokens: one to three lines of look-alike code (a tally
 * loop, a guard) that the panel and the Problems list would show by the dozen. Prose keeps
 * one-line sides (a Markdown paragraph is one line).
 */
function shown(r: RegionPair, pair: ReportPair, A: RegionDocument, B: RegionDocument, settings: EngineSettings): boolean {
  const long = (side: RegionPair['a'], lines: ReportPair['a'], d: RegionDocument) =>
    side.end - side.start >= settings.minTokens && (d.kind !== 'code' || lines.endLine! - lines.startLine! + 1 >= MIN_CODE_LINES);
  return long(r.a, pair.a, A) && long(r.b, pair.b, B);
}

/** Bits of {@link hashFilter}: 2^22 (512 KB), under 0.1 % false hits for a few thousand hashes. */
const FILTER_BITS = 22;

/** A bit filter of a set of anchor hashes: a loop over many files' anchors tests a bit before the set, which most anchors fail. */
function hashFilter(hashes: Iterable<number>): Uint32Array {
  const bits = new Uint32Array(1 << (FILTER_BITS - 5));
  for (const h of hashes) {
    const b = Math.imul(h, 0x9e3779b1) >>> (32 - FILTER_BITS);
    bits[b >>> 5] |= 1 << (b & 31);
  }
  return bits;
}

function mayHold(bits: Uint32Array, h: number): boolean {
  const b = Math.imul(h, 0x9e3779b1) >>> (32 - FILTER_BITS);
  return (bits[b >>> 5] & (1 << (b & 31))) !== 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
