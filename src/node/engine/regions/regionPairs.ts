/**
 * The engine's located copies as the report shows them (issue 12 in the extension): a region
 * pair of the region finder (core/regions) as a located section pair of line ranges (the CLI's
 * `--locate` rules, shared through node/regions/regionSides.ts: a code side's leading closers
 * trimmed, a notebook's lines as cell lines, the distance of the two sides' SimHash), and the pairs of one file or of
 * the whole report with the located ones merged in: a region of two files the SimHash pairs as
 * files goes into that file pair's `regions`; one a SimHash section pair already says (80 % of
 * its lines on both sides, and it half of the section's) is dropped; the rest are section pairs
 * with `located: true`, grouped one group per copied block (its places). A SimHash section pair
 * that two or more located pairs split (neighbouring copies in both files) leaves the view with
 * its two-member group, the located pairs inside it stand (node/regions/regionPlaces.ts, as in
 * the CLI).
 */
import { hammingDistance } from '../../../core/index/hamming';
import type { Location, PairRegion, ReportPair } from '../../../core/report/report';
import type { RegionDocument } from '../../../core/regions/document';
import { groupRegions } from '../../../core/regions/groups';
import type { RegionPair } from '../../../core/regions/regions';
import type { CodeKernel } from '../../../core/types';
import { SIDE_A_END_LINE, SIDE_A_START, SIDE_A_START_LINE, SIDE_B_END_LINE, SIDE_B_START_LINE, SIDE_DISTANCE, SIDE_INTS } from '../../../core/regions/sideFacts';
import type { EngineSettings } from '../../settings/engineSettings';
import type { ViewGroup, ViewMember } from '../engineProtocol';
import { contentKey, linesOf, sideOptionsOf, sideSimhash, trimmedStart } from '../../regions/regionSides';
import { samePlace, SectionSplits, sidesKey } from '../../regions/regionPlaces';

type Lines = { startLine: number; endLine: number };

/**
 * One located pair of line ranges: side a in document `a`, side b in `b` (paths). The sides'
 * SimHashes by `kernel` when it has simhashTokens (the same bits, ~8× faster than this thread's).
 */
export function locatedPair(
  a: string,
  A: RegionDocument,
  b: string,
  B: RegionDocument,
  r: RegionPair,
  settings: EngineSettings,
  kernel?: Pick<CodeKernel, 'simhashTokens'>,
): ReportPair {
  const sa = trimmedStart(A, r.a.start, r.a.end);
  const sb = trimmedStart(B, r.b.start, r.b.end);
  const options = sideOptionsOf(settings);
  const fa = sideSimhash(A, sa, r.a.end, options, kernel);
  const fb = sideSimhash(B, sb, r.b.end, options, kernel);
  return pairOf({ path: a, ...linesOf(A, sa, r.a.end) }, { path: b, ...linesOf(B, sb, r.b.end) }, fa && fb ? hammingDistance(fa.hi, fa.lo, fb.hi, fb.lo) : 64, r);
}

/** A located section pair of two sides, as locatedPair and locatedPairOfSides make it. */
const pairOf = (a: Location, b: Location, distance: number, r: RegionPair): ReportPair => ({
  kind: 'section',
  a,
  b,
  distance,
  similarity: Math.round(r.similarity * 10000) / 10000,
  clone: r.clone,
  located: true,
});

/**
 * {@link locatedPair} from the sides a kernel's plan job made of region `row` (core/regions/
 * sideFacts.ts: the trimmed starts, the report's lines, the distance of the sides' SimHashes, made
 * with the same options and closers), or undefined when it made none for that row.
 */
export function locatedPairOfSides(a: string, b: string, r: RegionPair, sides: Int32Array, row: number): ReportPair | undefined {
  const o = row * SIDE_INTS;
  if (sides[o + SIDE_A_START] < 0) return undefined;
  return pairOf(
    { path: a, startLine: sides[o + SIDE_A_START_LINE], endLine: sides[o + SIDE_A_END_LINE] },
    { path: b, startLine: sides[o + SIDE_B_START_LINE], endLine: sides[o + SIDE_B_END_LINE] },
    sides[o + SIDE_DISTANCE],
    r,
  );
}

/**
 * The content key of a located side, tokens `side` of `doc` without leading closers (the range
 * locatedPair reports): what the CLI's located sides hash (node/locate/locateLines.ts), so that a
 * baseline's key of a located pair is the same in the editor and in `neardup scan`.
 */
export function locatedSideKey(doc: RegionDocument, side: { start: number; end: number }, trimmed = trimmedStart(doc, side.start, side.end)): string {
  return contentKey(doc, trimmed, side.end);
}

const lines = (l: { startLine?: number; endLine?: number }): Lines => ({ startLine: l.startLine ?? 1, endLine: l.endLine ?? l.startLine ?? 1 });

/**
 * Lists by two files (either order), looked up by their paths: no key text made per pair (the
 * paths' own hashes are kept by their strings; a made key's is computed again each time).
 */
export class ByTwoFiles {
  private readonly byFirst = new Map<string, Map<string, number[]>>();

  /** The list of files `p` and `q`, made empty if there is none. */
  make(p: string, q: string): number[] {
    const [x, y] = p <= q ? [p, q] : [q, p];
    let m = this.byFirst.get(x);
    if (!m) this.byFirst.set(x, (m = new Map()));
    let list = m.get(y);
    if (!list) m.set(y, (list = []));
    return list;
  }

  get(p: string, q: string): number[] | undefined {
    return p <= q ? this.byFirst.get(p)?.get(q) : this.byFirst.get(q)?.get(p);
  }
}

/** The indices of `simhash` (pairs of any files) by their two files, for the files of `located`. */
function candidatesOf(simhash: readonly ReportPair[], located: readonly ReportPair[]): ByTwoFiles {
  const keys = new ByTwoFiles();
  for (const loc of located) keys.make(loc.a.path, loc.b.path);
  for (let i = 0; i < simhash.length; i++) keys.get(simhash[i].a.path, simhash[i].b.path)?.push(i);
  return keys;
}

/** A place's path and lines (a side without lines: line 1). */
const placeLines = (l: Location): { path: string } & Lines => ({ path: l.path, startLine: l.startLine ?? 1, endLine: l.endLine ?? l.startLine ?? 1 });

/**
 * The SimHash section pairs (indices into `simhash`) that located pairs split (regionPlaces.ts
 * SectionSplits, the CLI's loop): two or more copies that are neighbours in both files. As in the
 * CLI they leave the report and the located pairs inside them stand; located pairs of two files
 * paired as files go to the file pair and split nothing.
 */
function splitPairs(simhash: readonly ReportPair[], located: readonly ReportPair[], keys: ByTwoFiles): Set<number> {
  const splits = new SectionSplits<number>();
  const sections = new Map<number, { a: { path: string } & Lines; b: { path: string } & Lines }>();
  for (const loc of located) {
    const candidates = keys.get(loc.a.path, loc.b.path) ?? [];
    if (loc.a.path !== loc.b.path && candidates.some((i) => simhash[i].kind === 'file')) continue;
    let a: ({ path: string } & Lines) | undefined;
    let b: ({ path: string } & Lines) | undefined;
    for (const i of candidates) {
      const p = simhash[i];
      if (p.kind !== 'section') continue;
      a ??= placeLines(loc.a);
      b ??= placeLines(loc.b);
      let section = sections.get(i);
      if (!section) sections.set(i, (section = { a: placeLines(p.a), b: placeLines(p.b) }));
      splits.add(i, section, a, b);
    }
  }
  return splits.split();
}

/**
 * Where located pairs stand next to SimHash pairs (any pairs holding those of their files): the
 * SimHash pairs by their two files and the section pairs the located pairs split, made once for
 * {@link mergeLocated}, {@link standsAlone} and {@link splitSectionKeys}.
 */
export interface Placing {
  readonly simhash: readonly ReportPair[];
  readonly keys: ByTwoFiles;
  readonly split: ReadonlySet<number>;
}

/** The {@link Placing} of `located` next to `simhash`. */
export function placing(simhash: readonly ReportPair[], located: readonly ReportPair[]): Placing {
  const keys = candidatesOf(simhash, located);
  return { simhash, keys, split: splitPairs(simhash, located, keys) };
}

/** What becomes of a located pair next to the SimHash pairs of its two files (indices into `simhash`; `split` ones do not count). */
function placeOf(loc: ReportPair, simhash: readonly ReportPair[], candidates: readonly number[], split: ReadonlySet<number>): { fileIndex: number } | 'dropped' | 'kept' {
  const { a, b } = loc;
  for (const i of candidates) {
    const p = simhash[i];
    const same = p.a.path === a.path && p.b.path === b.path;
    const swapped = p.a.path === b.path && p.b.path === a.path;
    if (!same && !swapped) continue;
    if (p.kind === 'file') {
      if (a.path !== b.path) return { fileIndex: i };
      continue;
    }
    if (split.has(i)) continue;
    if (same && samePlace(lines(p.a), lines(a)) && samePlace(lines(p.b), lines(b))) return 'dropped';
    if (swapped && samePlace(lines(p.a), lines(b)) && samePlace(lines(p.b), lines(a))) return 'dropped';
  }
  return 'kept';
}

/**
 * Whether a located pair stands as a pair of its own, as {@link mergeLocated} places it: `placed`
 * made of the SimHash pairs and located pairs holding those of its two files (they may split a
 * SimHash section pair that would say it).
 */
export function standsAlone(loc: ReportPair, placed: Placing): boolean {
  return placeOf(loc, placed.simhash, placed.keys.get(loc.a.path, loc.b.path) ?? [], placed.split) === 'kept';
}

/**
 * The section sides of the SimHash section pairs the located pairs split (see splitPairs), each
 * pair as one key (its two sides, sorted): such a pair's two-member section group leaves the view
 * with it ({@link isSplitGroup}).
 */
export function splitSectionKeys(placed: Placing): Set<string> {
  const { simhash } = placed;
  return new Set([...placed.split].map((i) => sidesKey(simhash[i].a, simhash[i].b)));
}

/** A SimHash section group of just the two sides of a split section pair (`keys`: splitSectionKeys). */
export function isSplitGroup(g: ViewGroup, keys: ReadonlySet<string>): boolean {
  return keys.size > 0 && !g.located && g.kind === 'section' && g.members.length === 2 && keys.has(sidesKey(g.members[0], g.members[1]));
}

/**
 * The SimHash pairs with the located ones merged in (see the file's comment; `placed`: their
 * {@link placing}, when already made): file pairs that have regions are new objects carrying them
 * (side a of a region = the pair's a); section pairs the located ones split are left out. Linear
 * in the pairs: the SimHash pairs are looked up by their two files.
 */
export function mergeLocated(simhash: readonly ReportPair[], located: readonly ReportPair[], placed?: Placing): ReportPair[] {
  if (located.length === 0) return simhash as ReportPair[];
  const { keys, split } = placed ?? placing(simhash, located);
  const out = simhash.slice();
  const regions = new Map<number, PairRegion[]>();
  for (const loc of located) {
    const where = placeOf(loc, simhash, keys.get(loc.a.path, loc.b.path)!, split);
    if (where === 'dropped') continue;
    if (where === 'kept') {
      out.push(loc);
      continue;
    }
    const flipped = simhash[where.fileIndex].a.path !== loc.a.path;
    const list = regions.get(where.fileIndex) ?? [];
    list.push({ a: lines(flipped ? loc.b : loc.a), b: lines(flipped ? loc.a : loc.b), clone: loc.clone ?? 'edited', similarity: loc.similarity });
    regions.set(where.fileIndex, list);
  }
  for (const [i, list] of regions) {
    list.sort((x, y) => x.a.startLine - y.a.startLine || x.b.startLine - y.b.startLine);
    out[i] = { ...out[i], regions: list };
  }
  return split.size > 0 ? out.filter((_, i) => !split.has(i)) : out;
}

/**
 * One group per copied block: the located section pairs' sides that overlap by half of the
 * shorter are one place, places linked by pairs one group. A member's figures are those of its
 * closest pair to the group's first place (else its best pair); the group's maxDistance the
 * largest distance of its pairs.
 */
export function locatedGroups(pairs: readonly ReportPair[]): ViewGroup[] {
  const located = pairs.filter((p) => p.located && p.kind === 'section');
  const ids = new Map<string, number>();
  const paths: string[] = [];
  const idOf = (p: string) => {
    let id = ids.get(p);
    if (id === undefined) ids.set(p, (id = paths.push(p) - 1));
    return id;
  };
  const ranges = located.map((p) => ({
    a: { doc: idOf(p.a.path), start: p.a.startLine!, end: p.a.endLine! + 1 },
    b: { doc: idOf(p.b.path), start: p.b.startLine!, end: p.b.endLine! + 1 },
  }));
  const groups: ViewGroup[] = [];
  for (const g of groupRegions(ranges)) {
    if (g.places.length < 2) continue;
    const inPlace = (s: { doc: number; start: number; end: number }) => g.places.findIndex((q) => q.doc === s.doc && q.start <= s.start && s.end <= q.end);
    const best = g.places.map(() => ({ distance: 64, similarity: 0, toFirst: false }));
    let maxDistance = 0;
    for (const i of g.pairs) {
      const x = inPlace(ranges[i].a);
      const y = inPlace(ranges[i].b);
      const p = located[i];
      maxDistance = Math.max(maxDistance, p.distance);
      for (const [m, o] of [[x, y], [y, x]]) {
        if (m < 0) continue;
        const toFirst = o === 0;
        const b = best[m];
        if ((toFirst && !b.toFirst) || (toFirst === b.toFirst && p.similarity > b.similarity)) best[m] = { distance: p.distance, similarity: p.similarity, toFirst };
      }
    }
    const members: ViewMember[] = g.places.map((q, m) =>
      m === 0
        ? { path: paths[q.doc], startLine: q.start, endLine: q.end - 1, distance: 0, similarity: 1 }
        : { path: paths[q.doc], startLine: q.start, endLine: q.end - 1, distance: best[m].distance, similarity: best[m].similarity },
    );
    const first = members[0];
    groups.push({ kind: 'section', key: `located:${first.path}#${first.startLine}-${first.endLine}`, maxDistance, members, located: true });
  }
  return groups;
}

/** A ViewGroup's closeness, as reportView sorts groups (largest distance, then size). */
export function mergeGroupLists(simhash: ViewGroup[], located: ViewGroup[]): ViewGroup[] {
  if (located.length === 0) return simhash;
  const cmp = (a: ViewGroup, b: ViewGroup) => a.maxDistance - b.maxDistance || b.members.length - a.members.length;
  located.sort(cmp);
  const out: ViewGroup[] = [];
  let i = 0;
  let j = 0;
  while (i < simhash.length && j < located.length) out.push(cmp(located[j], simhash[i]) < 0 ? located[j++] : simhash[i++]);
  while (i < simhash.length) out.push(simhash[i++]);
  while (j < located.length) out.push(located[j++]);
  return out;
}
