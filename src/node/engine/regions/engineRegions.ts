/**
 * Located copies in the engine (`neardup.locate`, issue 12): when to build and update the region
 * index (regionIndex.ts) and how its pairs join the report (regionPairs.ts). EngineState calls
 * {@link EngineRegions.step} after each report of a job (in its queue, so in order with the jobs);
 * the step compares the indexed files (size and mtime) with those the region index was last
 * brought up to date with, and updates it for the difference — a full build the first time, after
 * the setting is turned on, or when most files changed; its documents are those the job read with
 * the fingerprints ({@link EngineRegions.offer}) and those of the files it did not read, read while
 * it makes its SimHash report ({@link EngineRegions.prefetch}). Over `maxBytes` of indexed text the index
 * is let go (memory: the full build holds every file's tokens for a moment, ~18 bytes a token)
 * and the host is told once until the text is under the limit again.
 */
import type { ReportPair } from '../../../core/report/report';
import { idsDerived, type RegionDocument } from '../../../core/regions/document';
import type { CodeKernel } from '../../../core/types';
import type { EngineSettings } from '../../settings/engineSettings';
import type { EngineEvent, ViewGroup } from '../engineProtocol';
import { RegionIndex, type FileAnchors, type RegionIndexStats } from './regionIndex';
import { isSplitGroup, locatedGroups, mergeGroupLists, mergeLocated, placing, splitSectionKeys, standsAlone, type Placing } from './regionPairs';
import type { RegionCacheState } from './regionCache';

/** Largest indexed text (bytes) the engine locates copies in: the CLI's `--locate` limit. */
export const REGIONS_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Region documents kept between updates (bytes of their arrays, ~13 a code token: lean documents): the partners
 * an update reads again (the files sharing two seeds with the changed one) are mostly the same
 * from one save of a file to the next; kept, the next save does not read and tokenise them again.
 * Least recently used first out; a file whose size or mtime changed is read again.
 */
export const REGION_DOCS_CACHE_BYTES = 24 * 1024 * 1024;

function docBytes(d: RegionDocument): number {
  let n = d.raw.hi.byteLength + d.raw.lo.byteLength + d.start.byteLength + d.lineStarts.byteLength;
  if (!idsDerived(d) && d.ids) n += d.ids.hi.byteLength + d.ids.lo.byteLength; // a lean document's are not made for this
  for (const a of [d.isIdent, d.reportLines, d.proseTokens, d.anchors?.hash, d.anchors?.pos]) n += a?.byteLength ?? 0;
  return n;
}

export interface EngineRegionsHost {
  /** A fingerprinted file's signature (size and mtime); undefined: not a fingerprinted file. */
  sigOf(path: string): string | undefined;
  /** Every fingerprinted file. */
  paths(): string[];
  /** Number of fingerprinted files. */
  count(): number;
  /** Total size in bytes of the fingerprinted files. */
  bytes(): number;
  /**
   * The files whose entries were set or deleted since the last call (a superset of those whose
   * signature changed), or null: any may have (the first call, or the entries were cleared since).
   */
  takeChanged(): Set<string> | null;
  /** Stop listing changes until the next takeChanged (which then answers null). */
  stopChanges(): void;
  /** Region documents of files, read again through the fingerprint workers. */
  load(paths: string[]): Promise<Map<string, RegionDocument>>;
  settings(): EngineSettings;
  emit(event: EngineEvent): void;
}

/** The SimHash pairs of a report with every located pair merged in, and where those stand (EngineRegions.merged). */
export interface LocatedMerge {
  /** The region index's version and the pairs held back it was made at. */
  readonly version: number;
  readonly held: ReadonlySet<ReportPair> | undefined;
  readonly placed: Placing;
  /** mergeLocated's list: the SimHash pairs in their order (file pairs with regions, split ones out), then the located ones that stand. */
  readonly pairs: ReportPair[];
}

/** Region documents read before a full build (EngineRegions.offer, prefetch): by path, with the signature they were read at; the reads still under way. */
interface EarlyDocs {
  docs: Map<string, { sig: string; doc: RegionDocument }>;
  reads: Array<Promise<void>>;
}

export class EngineRegions {
  private readonly index: RegionIndex;
  private enabled = false;
  /** The files (and their signatures) the index was last brought up to date with; null: not built. */
  private known: Map<string, string> | null = null;
  /** Times the index was let go ({@link drop}): a step that awaited meanwhile does not record what it built. */
  private drops = 0;
  /** Steps under way (the index is not consistent with `known` meanwhile: no snapshot). */
  private stepping = 0;
  /** Changes whenever the index is brought up to date or restored (its cache is written when it moved). */
  generation = 0;
  /** Over the byte limit (told once). */
  private over = false;
  /** The files whose located pairs changed since the last report (null: all); undefined: none. */
  private pending: Set<string> | null | undefined;
  /** Region documents kept between updates, least recently used first (see {@link REGION_DOCS_CACHE_BYTES}). */
  private readonly kept = new Map<string, { sig: string; doc: RegionDocument; bytes: number }>();
  private keptBytes = 0;
  /** The located pairs that stand alone and their groups, for the index's version (see {@link groups}). */
  private placed: { version: number; held: ReadonlySet<ReportPair> | undefined; alone: Set<ReportPair>; groups: ViewGroup[]; split: Set<string> } | undefined;
  /** Located pairs left out of the reports until the next step (see {@link holdBack}). */
  private held: (() => ReadonlySet<ReportPair>) | undefined;
  /** Region documents the index's job read with the fingerprints (see {@link offer}), for the next step's full build; by path, with the file's signature. */
  private early: EarlyDocs = { docs: new Map(), reads: [] };

  constructor(
    private readonly host: EngineRegionsHost,
    kernel: Pick<CodeKernel, 'anchorSeeds' | 'alignChain' | 'simhashTokens' | 'regionPlanAsync'> | undefined,
    private readonly maxBytes = REGIONS_MAX_BYTES,
    private readonly cacheBytes = REGION_DOCS_CACHE_BYTES,
    threads = 1,
  ) {
    this.index = new RegionIndex(kernel, threads);
  }

  /** `neardup.locate` is on (the index may still be off: over the byte limit). */
  get on(): boolean {
    return this.enabled;
  }

  get active(): boolean {
    return this.enabled && !this.over;
  }

  /** `neardup.locate`: on or off. */
  configure(on: boolean): void {
    if (on === this.enabled) return;
    this.enabled = on;
    if (!on) this.drop();
  }

  /** A located side's content key (a baseline's key of it: RegionIndex.sideKey), while the index is on. */
  sideKey(path: string, startLine: number, endLine: number): string | undefined {
    return this.active ? this.index.sideKey(path, startLine, endLine) : undefined;
  }

  /** Every fingerprint changes (other settings): the index is built again. */
  invalidate(): void {
    this.drop();
  }

  stats(): RegionIndexStats & { keptDocs: number; keptDocBytes: number } {
    return { ...this.index.stats(), keptDocs: this.kept.size, keptDocBytes: this.keptBytes };
  }

  /**
   * Before the SimHash report of a change, whose located copies are brought up to date only after
   * it (a second report): the changed files' located pairs stay in it as they were (nothing is
   * lost or flickers), but for the one case where a stale pair would show where it never stood —
   * a pair of two files whose SimHash pair has just left (the copy's text is gone), which would
   * stand alone as a located group for a moment — it is held back until the step.
   * `simhashPairsOf`: a file's SimHash pairs now (read before the change, and after it when the
   * report is built).
   */
  holdBack(changed: ReadonlySet<string>, simhashPairsOf: (path: string) => readonly ReportPair[]): void {
    this.held = undefined;
    if (!this.active) return;
    const other = (x: ReportPair, p: string) => (x.a.path === p ? x.b.path : x.a.path);
    const partners = (p: string) => new Set(simhashPairsOf(p).map((x) => other(x, p)));
    const before = new Map<string, Set<string>>();
    for (const p of changed) if (this.index.pairsOf(p).length > 0) before.set(p, partners(p));
    if (before.size === 0) return;
    let held: Set<ReportPair> | undefined;
    this.held = () => {
      if (held) return held;
      held = new Set();
      for (const [p, was] of before) {
        const now = partners(p);
        for (const x of this.index.pairsOf(p)) if (was.has(other(x, p)) && !now.has(other(x, p))) held.add(x);
      }
      return held;
    };
  }

  /**
   * Whether the next step builds the index from scratch over text of at most `bytes` (a job's
   * walk, before it reads): then the job asks for each file's region document with its
   * fingerprint and {@link offer}s it, and the build does not read every file a second time.
   */
  wantsDocs(bytes: number): boolean {
    return this.enabled && this.known === null && bytes <= this.maxBytes;
  }

  /** A file's region document, read with its fingerprint, for the next step's full build (used if the file's signature is still `sig`). */
  offer(path: string, sig: string, doc: RegionDocument): void {
    if (this.enabled && this.known === null) this.early.docs.set(path, { sig, doc });
  }

  /**
   * The region documents of the fingerprinted files not offered (a job's cache hits), read now for
   * the next step's full build (by the fingerprint workers, while the job's thread makes its
   * SimHash report): a start with a warm cache does not wait for them after that report. A file
   * that changes before the build is read again.
   */
  prefetch(): void {
    if (!this.enabled || this.known !== null) return;
    const early = this.early;
    const sigs = new Map<string, string | undefined>();
    for (const p of this.host.paths()) if (!early.docs.has(p)) sigs.set(p, this.host.sigOf(p));
    if (sigs.size === 0) return;
    const read = this.host.load([...sigs.keys()]).then(
      (docs) => {
        for (const [p, doc] of docs) {
          const sig = sigs.get(p);
          if (sig !== undefined) early.docs.set(p, { sig, doc });
        }
      },
      () => undefined, // read again by the build
    );
    early.reads.push(read);
  }

  /** Brings the index up to date with the indexed files; true when located pairs changed. */
  async step(): Promise<boolean> {
    this.stepping++;
    try {
      return await this.stepNow();
    } finally {
      this.stepping--;
    }
  }

  /**
   * What the index was last brought up to date with, for the region cache (regionCache.ts): each
   * file's signature and anchors, the pairs, the sides' content keys; undefined while a step runs,
   * or when there is no index.
   */
  snapshot(): RegionCacheState | undefined {
    if (this.stepping > 0 || !this.known || !this.active) return undefined;
    const { anchors, pairs, sideKeys } = this.index.snapshot();
    return { files: [...this.known].map(([path, sig]) => ({ path, sig, anchors: anchors.get(path) })), pairs: [...pairs], sideKeys };
  }

  /**
   * The index as the region cache kept it (a warm start, before its first step): the next step
   * compares the files with the signatures it holds and brings only the changed ones up to date.
   * False (nothing taken) when located copies are off, an index exists, or the text is over the limit.
   */
  restore(state: RegionCacheState): boolean {
    if (!this.enabled || this.known !== null || this.stepping > 0 || this.host.bytes() > this.maxBytes) return false;
    const anchors = new Map<string, FileAnchors>();
    for (const f of state.files) if (f.anchors) anchors.set(f.path, f.anchors);
    this.forgetDocs();
    this.early = { docs: new Map(), reads: [] };
    this.mark(this.index.restore(anchors, state.pairs, state.sideKeys));
    this.known = new Map(state.files.map((f) => [f.path, f.sig]));
    this.generation++;
    return true;
  }

  private async stepNow(): Promise<boolean> {
    // The documents offered with the job's fingerprints serve this step's full build only.
    const early = this.early;
    this.early = { docs: new Map(), reads: [] };
    // Pairs held back come back (or go) with this step's report.
    const held = this.held?.();
    this.held = undefined;
    if (held) for (const x of held) this.mark(new Set([x.a.path, x.b.path]));
    // The files set or deleted since the last step: what is compared with the index's (a save at
    // 100,000 files looks at one file, not at a map of all of them).
    const journal = this.host.takeChanged();
    if (!this.enabled) return this.pending !== undefined;
    const bytes = this.host.bytes();
    if (bytes > this.maxBytes) {
      if (!this.over) {
        this.over = true;
        this.host.emit({ type: 'regionsOff', bytes, maxBytes: this.maxBytes });
      }
      this.drop();
      return this.pending !== undefined;
    }
    this.over = false;
    const settings = this.host.settings();
    let changed: string[] | null = null;
    if (this.known) {
      changed = [];
      const candidates = journal ?? new Set([...this.host.paths(), ...this.known.keys()]);
      for (const p of candidates) if (this.known.get(p) !== this.host.sigOf(p)) changed.push(p);
      if (changed.length === 0) return this.pending !== undefined;
      if (changed.length > Math.max(500, this.host.count() / 2)) changed = null;
    }
    // The signatures the index is brought up to date with (taken before it reads the files).
    const sigs = (changed ?? this.host.paths()).map((p) => [p, this.host.sigOf(p)] as const);
    const drops = this.drops;
    try {
      if (!changed) this.forgetDocs();
      const touched = changed
        ? await this.index.update(changed, (p) => this.host.sigOf(p) !== undefined, (paths) => this.loadKept(paths), settings, () => this.host.paths())
        : await this.index.rebuild(sigs.map(([p]) => p), (paths) => this.loadEarly(paths, early), settings);
      if (!changed && drops === this.drops) {
        this.known = new Map();
        // The anchors by hash an update asks about, made once the build's report is out (the first save does not wait for them).
        setImmediate(() => this.index.preparePostings());
      }
      const known = drops === this.drops ? this.known : null; // dropped meanwhile: built again at the next step
      if (known) {
        for (const [p, sig] of sigs) {
          if (sig === undefined) known.delete(p);
          else known.set(p, sig);
        }
        this.generation++;
      }
      this.mark(touched);
    } catch (e) {
      this.host.emit({ type: 'log', level: 'error', message: `locating copies failed (${(e as Error).message}); located copies are off until the next reindex` });
      this.drop();
    }
    return this.pending !== undefined;
  }

  /** The files whose located pairs changed since the last call (null: any); undefined: none. */
  takeTouched(): Set<string> | null | undefined {
    const t = this.pending;
    this.pending = undefined;
    return t;
  }

  /** A file's pairs for the view: its SimHash pairs with its located ones merged in. */
  pairsOf(path: string, simhash: readonly ReportPair[]): ReportPair[] {
    return this.active ? mergeLocated(simhash, this.shown(this.index.pairsOf(path))) : (simhash as ReportPair[]);
  }

  /** All pairs: the SimHash pairs with every located pair merged in (`merge`: made already for them, {@link merged}). */
  allPairs(simhash: readonly ReportPair[], merge?: LocatedMerge): ReportPair[] {
    if (merge) return merge.pairs;
    return this.active ? mergeLocated(simhash, this.shown(this.index.pairs())) : (simhash as ReportPair[]);
  }

  /**
   * Every located pair merged into the SimHash pairs `simhash` at once, for a report whose
   * {@link groups} place them all again anyway (the located pairs changed, or any SimHash pair may
   * have: `touched` null): its view then takes each file's pairs from it instead of merging them
   * file by file (~75 ms for the ~2,500 files of a located build of the small bench tree, the
   * same placing made again per file), and its groups take its placing. Undefined when the
   * groups stand as they are (placed file by file, few) or there is nothing to merge.
   */
  merged(simhash: readonly ReportPair[], touched: ReadonlySet<string> | null): LocatedMerge | undefined {
    const s = this.placingState(touched);
    if (!s || s.stands) return undefined;
    const placed = placing(simhash, s.located);
    return { version: this.index.version, held: s.heldKey, placed, pairs: mergeLocated(simhash, s.located, placed) };
  }

  /**
   * The located pairs shown (none: undefined), those held back (as the placing's key), and
   * whether the groups' placing stands for them (`touched` files placed again one by one).
   */
  private placingState(touched: ReadonlySet<string> | null): { located: readonly ReportPair[]; heldKey: ReadonlySet<ReportPair> | undefined; stands: boolean } | undefined {
    if (!this.active) return undefined;
    const located = this.shown(this.index.pairs());
    if (located.length === 0) return undefined;
    const held = this.held?.();
    const heldKey = held && held.size > 0 ? held : undefined;
    const c = this.placed;
    return { located, heldKey, stands: !!c && touched !== null && c.version === this.index.version && c.held === heldKey };
  }

  /**
   * The view's groups with one group per located copy (the located pairs not merged into SimHash
   * pairs). Linear in the pairs when they changed (or `touched` is null: any SimHash pair may
   * have); else only the located pairs of the `touched` files (whose SimHash pairs may have
   * changed) are placed again, and the groups made again only if one of them moved: a save's
   * SimHash report (its located copies come after it) does not group 10,000 located pairs again
   * (~100–400 ms on the small bench tree).
   */
  groups(
    groups: ViewGroup[],
    simhash: () => readonly ReportPair[],
    touched: ReadonlySet<string> | null,
    simhashOf: (path: string) => readonly ReportPair[],
    merge?: LocatedMerge,
  ): ViewGroup[] {
    const s = this.placingState(touched);
    if (!s) return groups;
    const { located, heldKey } = s;
    let c = this.placed;
    if (!s.stands || !c || touched === null) {
      const mine = new Set(located);
      // (the merge made for this report's view, when it was: of the same pairs, this.merged)
      const made = merge && merge.version === this.index.version && merge.held === heldKey ? merge : undefined;
      const all = made ? made.placed.simhash : simhash();
      const placed = made ? made.placed : placing(all, located); // the section splits, once for the merge and the view's groups
      const alone = new Set((made ? made.pairs : mergeLocated(all, located, placed)).filter((p) => mine.has(p)));
      c = this.placed = { version: this.index.version, held: heldKey, alone, groups: locatedGroups([...alone]), split: splitSectionKeys(placed) };
    } else {
      let moved = false;
      for (const f of touched) {
        // f's located pairs next to f's SimHash pairs (those of any two files f is one of): the
        // section splits once for its pairs and the split keys.
        const placed = placing(simhashOf(f), this.shown(this.index.pairsOf(f)));
        for (const x of this.index.pairsOf(f)) {
          if (heldKey?.has(x) || standsAlone(x, placed) === c.alone.has(x)) continue;
          moved = true;
          if (c.alone.has(x)) c.alone.delete(x);
          else c.alone.add(x);
        }
        // The section pairs of f the located ones split, found again.
        for (const k of c.split) if (k.startsWith(`${f}\0`) || k.includes(`\n${f}\0`)) c.split.delete(k);
        for (const k of splitSectionKeys(placed)) c.split.add(k);
      }
      if (moved) c.groups = locatedGroups(located.filter((x) => c!.alone.has(x)));
    }
    const split = c.split;
    const kept = split.size > 0 ? groups.filter((g) => !isSplitGroup(g, split)) : groups;
    return mergeGroupLists(kept, c.groups.slice());
  }

  /** Region documents of `paths`: those kept (same size and mtime) and the others read, then kept. */
  private async loadKept(paths: string[]): Promise<Map<string, RegionDocument>> {
    const out = new Map<string, RegionDocument>();
    const missing: string[] = [];
    for (const p of paths) {
      const k = this.kept.get(p);
      if (k) {
        this.kept.delete(p);
        if (k.sig === this.host.sigOf(p)) {
          this.kept.set(p, k); // most recently used
          out.set(p, k.doc);
          continue;
        }
        this.keptBytes -= k.bytes;
      }
      missing.push(p);
    }
    for (const [p, doc] of await this.host.load(missing)) {
      out.set(p, doc);
      const bytes = docBytes(doc);
      const sig = this.host.sigOf(p);
      if (sig === undefined || bytes > this.cacheBytes) continue;
      this.kept.set(p, { sig, doc, bytes });
      this.keptBytes += bytes;
    }
    for (const [p, k] of this.kept) {
      if (this.keptBytes <= this.cacheBytes) break;
      this.kept.delete(p);
      this.keptBytes -= k.bytes;
    }
    return out;
  }

  /** Region documents of `paths`: those offered with the fingerprints (same size and mtime), the others read. */
  private async loadEarly(paths: string[], early: EarlyDocs): Promise<Map<string, RegionDocument>> {
    await Promise.all(early.reads);
    const out = new Map<string, RegionDocument>();
    const missing: string[] = [];
    for (const p of paths) {
      const e = early.docs.get(p);
      if (e && e.sig === this.host.sigOf(p)) out.set(p, e.doc);
      else missing.push(p);
    }
    early.docs.clear();
    if (missing.length > 0) for (const [p, doc] of await this.host.load(missing)) out.set(p, doc);
    return out;
  }

  private forgetDocs(): void {
    this.kept.clear();
    this.keptBytes = 0;
  }

  /** Located pairs but those held back. */
  private shown(pairs: readonly ReportPair[]): readonly ReportPair[] {
    const held = this.held?.();
    return held && held.size > 0 ? pairs.filter((x) => !held.has(x)) : pairs;
  }

  private drop(): void {
    this.held = undefined;
    this.early = { docs: new Map(), reads: [] };
    this.forgetDocs();
    this.placed = undefined;
    const had = this.index.clear();
    this.known = null;
    this.drops++;
    this.host.stopChanges(); // nothing compares them until the index is built again
    if (had.size > 0) this.mark(had);
  }

  private mark(paths: Set<string> | null): void {
    if (paths !== null && paths.size === 0) return;
    if (paths === null || this.pending === null) this.pending = null;
    else if (this.pending === undefined) this.pending = new Set(paths);
    else for (const p of paths) this.pending.add(p);
  }
}
