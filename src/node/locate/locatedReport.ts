/**
 * What `--locate` reports of the regions found (node/locate/locate.ts, after the scan's report): the
 * region pairs turned into the report's located section pairs, the regions of its file pairs, the
 * edited copies of files (core/regions/fileCopies.ts), the SimHash section pairs they repeat (clone
 * kinds) or split, and the groups. The rules are locate.ts'. On the main thread of a 2-core scan
 * this is the critical path after the report: numbers in typed arrays and few objects per pair.
 */
import { hammingDistance } from '../../core/index/hamming';
import type { Location, PairRegion, ReportGroup, ReportPair } from '../../core/report/report';
import { lineOfOffset, type RegionDocument } from '../../core/regions/document';
import type { CloneKind } from '../../core/regions/regions';
import { CLONE_KINDS, ROW_B, ROW_DOC, ROW_END, ROW_END_LINE, ROW_FLOATS, ROW_INTS, ROW_KIND, ROW_START, ROW_START_LINE, type RegionRowsResult } from '../regions/regionRows';
import { fileCopiesOfRows } from '../regions/fileCopyRows';
import type { ChainAligner } from '../../core/regions/align';
import type { nativeKernel } from '../workers/nativeKernel';
import { LocatedSides, type Doc } from './locateLines';
import { locatedSectionGroups } from './locateGroups';
import { SectionSplits } from '../regions/regionPlaces';
import { SectionsByFiles } from './sectionsByFiles';
import { eitherOrderKey, pairKeyBase } from '../../core/pairKeys';
import { linesOf, sideSimhash, trimmedStart, type PairSides, type SideOptions } from '../regions/regionSides';
import type { ScanResult } from '../scan/scan';
import { SIDE_A_END_LINE, SIDE_A_START, SIDE_A_START_LINE, SIDE_B_END_LINE, SIDE_B_START, SIDE_B_START_LINE, SIDE_DISTANCE, SIDE_INTS } from '../../core/regions/sideFacts';

export interface LocateStats {
  files: number;
  tokens: number;
  /** Region pairs found, those dropped as already reported by a SimHash section pair, and those given to a file pair. */
  found: number;
  dropped: number;
  attached: number;
  elapsedMs: number;
}

export type LocateOutcome =
  | {
      ok: true;
      pairs: ReportPair[];
      groups: ReportGroup[];
      /** The located sides' content keys (made when asked for). */
      sides: LocatedSides;
      /** Clone kinds for SimHash pairs of the scan that a dropped region pair repeats, by index. */
      cloneOf: Map<number, CloneKind>;
      /** The matching regions of the scan's file pairs, by index (side a of the region = the pair's a). */
      regionsOf: Map<number, PairRegion[]>;
      /** The scan's section pairs the located regions split (regionPlaces.ts splitsSection), by index: left out. */
      replaced: Set<number>;
      stats: LocateStats;
    }
  | { ok: false; reason: string };

/** What the report of the regions needs of the search (locate.ts locateSteps). */
export interface LocatedReportInput {
  docs: readonly Doc[];
  /** docs' region documents (the array the region finder searched). */
  regionDocs: readonly RegionDocument[];
  /** A document's index in docs by its path. */
  docIndex: ReadonlyMap<string, number>;
  /** Two documents hold the same tokens. */
  identical: (a: number, b: number) => boolean;
  kernel: ReturnType<typeof nativeKernel>;
  aligner: ChainAligner | undefined;
  /** Threads fileCopies' second search may use. */
  threads?: number;
  sideOptions: SideOptions;
  /** The scan's documents (their file SimHashes). */
  documents: ScanResult['documents'];
  tokens: number;
  /** performance.now() when the locate began (stats.elapsedMs). */
  started: number;
}

/** What carries a region pair (locatedReport's `carrier`): an edited copy of its two files, or nothing (else a scan's file pair, by index). */
const CARRIED_BY_COPY = -2;
const NOT_CARRIED = -1;

/** A side's place: its path and lines. */
type Place = Location & { startLine: number; endLine: number };

/** regionPlaces.ts samePlace of a section's lines [xs, xe] and a region's [ys, ye] (the same arithmetic). */
const samePlaceLines = (xs: number, xe: number, ys: number, ye: number): boolean => {
  const s = Math.max(0, Math.min(xe, ye) - Math.max(xs, ys) + 1);
  return s >= 0.8 * (ye - ys + 1) && 2 * s >= xe - xs + 1;
};

/**
 * What the report takes of the scan's pairs alone (scanPairsIndex), made before the regions are
 * found (locate.ts: while the kernel's job searches, this thread otherwise waiting).
 */
export interface ScanPairsIndex {
  /** The documents' pair keys' base (pairKeys.ts): eitherOrderKey(base). */
  base: number;
  /** The scan's file pairs by their two documents (docsKey; a pair with a file not searched: none). */
  filePair: Map<number, number>;
  /** The scan's SimHash section pairs, by their two files and lines (sectionsByFiles.ts). */
  existing: SectionsByFiles;
  /** A scanned document's file SimHash by its path (a located file pair's distance). */
  fileFp: Map<string, ScanResult['documents'][number]['doc']['file']>;
}

/**
 * The scan's file pairs: their regions go to them (identical files: the whole file, not
 * searched). Keyed by their two documents (a pair with a file not searched meets no region).
 * The SimHash section pairs already reported, by their two files (file pairs get regions) and
 * lines (sectionsByFiles.ts: a region is offered those near it).
 */
export function scanPairsIndex(input: Pick<LocatedReportInput, 'docIndex' | 'documents'>, scanPairs: readonly ReportPair[]): ScanPairsIndex {
  const docIndex = input.docIndex;
  let docs = 0;
  for (const d of docIndex.values()) docs = Math.max(docs, d + 1);
  const base = pairKeyBase(docs);
  const docsKey = eitherOrderKey(base);
  const filePair = new Map<number, number>();
  const existing = new SectionsByFiles(scanPairs.length, base);
  for (let i = 0; i < scanPairs.length; i++) {
    const p = scanPairs[i];
    const x = docIndex.get(p.a.path);
    const y = docIndex.get(p.b.path);
    if (x === undefined || y === undefined) continue;
    const k = docsKey(x, y);
    if (p.kind === 'file') {
      filePair.set(k, i);
      continue;
    }
    existing.add(k, i, x, p.a as Place, p.b as Place);
  }
  const fileFp = new Map(input.documents.map((d) => [d.path, d.doc.file]));
  return { base, filePair, existing, fileFp };
}

/** The located outcome of the scan's pairs and the regions found (locate.ts' rules); `index` scanPairsIndex's of those pairs, when made already. */
export function locatedReport(
  input: LocatedReportInput,
  scanPairs: readonly ReportPair[],
  found: RegionRowsResult & { sides?: ReadonlyArray<PairSides | undefined> },
  index: ScanPairsIndex = scanPairsIndex(input, scanPairs),
): LocateOutcome {
  const { docs, regionDocs, docIndex, identical, kernel, aligner, sideOptions } = input;
  const { filePair, existing, fileFp } = index;
  const docsKey = eitherOrderKey(index.base);
  const { docA: sectionDocA, lines: sectionLines } = existing;
  const regionsOf = new Map<number, PairRegion[]>();
  const cloneOf = new Map<number, CloneKind>();
  const whole = (d: Doc) => linesOf(d.region, 0, Math.max(1, d.region.length));
  for (const [, i] of filePair) {
    const p = scanPairs[i];
    const x = docIndex.get(p.a.path)!;
    const y = docIndex.get(p.b.path)!;
    if (!identical(x, y)) continue;
    // A notebook's whole text is no one range of cell lines: the kind alone.
    if (!docs[x].region.reportLines && !docs[y].region.reportLines) regionsOf.set(i, [{ a: whole(docs[x]), b: whole(docs[y]), clone: 'exact', similarity: 1 }]);
    cloneOf.set(i, 'exact');
  }

  /**
   * The SimHash pair of region pair `r`'s two files that already reports it (sides `a` in
   * document `da`, `b` in `db`; of the section pairs near it the split-section pass found): the
   * first (lowest index), or -1; `reportedWhole` then says whether the region spans it.
   */
  let reportedWhole = false;
  const alreadyReported = (r: number, da: number, db: number, a: Place, b: Place): number => {
    let first = -1;
    const nearAt = near.at;
    for (let j = nearFrom[r], end = nearFrom[r + 1]; j < end; j++) {
      const i = nearAt[j];
      if (first >= 0 && i > first) continue;
      const q = 4 * i;
      const as = sectionLines[q];
      const ae = sectionLines[q + 1];
      const bs = sectionLines[q + 2];
      const be = sectionLines[q + 3];
      // (a pair of these two files: side a in da is side b in db, unless both are one file; a
      // section that shares no line with the region's side does not say it)
      const d = sectionDocA[i];
      if (d === da && as <= a.endLine && ae >= a.startLine && samePlaceLines(as, ae, a.startLine, a.endLine) && samePlaceLines(bs, be, b.startLine, b.endLine)) {
        reportedWhole = Math.abs(as - a.startLine) <= 1 && Math.abs(ae - a.endLine) <= 1 && Math.abs(bs - b.startLine) <= 1 && Math.abs(be - b.endLine) <= 1;
        first = i;
        continue;
      }
      if (d === db && as <= b.endLine && ae >= b.startLine && samePlaceLines(as, ae, b.startLine, b.endLine) && samePlaceLines(bs, be, a.startLine, a.endLine)) {
        reportedWhole = Math.abs(as - b.startLine) <= 1 && Math.abs(ae - b.endLine) <= 1 && Math.abs(bs - a.startLine) <= 1 && Math.abs(be - a.endLine) <= 1;
        first = i;
      }
    }
    return first;
  };

  // ---- region pairs into section pairs (or regions of a file pair); what the report says of
  // their sides comes made from the workers (regionSides.ts), or is made here
  const sides = new LocatedSides(2 * found.rows.count);
  /**
   * The place of region side `side` from token `start` (its start past leading closers), as
   * regionSides.ts linesOf gives it: a notebook's cell lines, else the side's own lines (the
   * region finder's, of the same tokens) with the first line again when closers were left out.
   */
  const locationOf = (d: Doc, side: number, start: number): Place => {
    const r = d.region;
    const end = R[side + ROW_END];
    if (r.reportLines) {
      const lines = linesOf(r, start, end);
      return { path: d.path, startLine: lines.startLine, endLine: lines.endLine };
    }
    return { path: d.path, startLine: start === R[side + ROW_START] ? R[side + ROW_START_LINE] : lineOfOffset(r.lineStarts, r.start[start]), endLine: R[side + ROW_END_LINE] };
  };
  const pairs: ReportPair[] = [];
  // Each region pair's sides without their leading closers (made by a worker, or here), and
  // their places once made (the split-section pass and the report's pairs share them).
  // (region pair i's row: R[ROW_INTS * i ...], side a's doc, start, end, lines, then side b's, node/regions/regionRows.ts)
  const rows = found.rows;
  const R = rows.ints;
  const n = rows.count;
  const aStart = new Int32Array(n);
  const bStart = new Int32Array(n);
  const placesA: Array<Place | undefined> = new Array(n);
  const placesB: Array<Place | undefined> = new Array(n);
  // What the kernel's plan job made of the sides (core/regions/sideFacts.ts: trimmed starts, the
  // report's lines, the distance), per region; a row of -1 (or none) is made here.
  const facts = found.sideFacts;
  const factsOf = (i: number): boolean => facts !== undefined && facts[SIDE_INTS * i] >= 0;
  for (let i = 0; i < n; i++) {
    const made = found.sides?.[i];
    if (!made && factsOf(i)) {
      aStart[i] = facts![SIDE_INTS * i + SIDE_A_START];
      bStart[i] = facts![SIDE_INTS * i + SIDE_B_START];
      continue;
    }
    const q = ROW_INTS * i;
    aStart[i] = made ? made.aStart : trimmedStart(docs[R[q + ROW_DOC]].region, R[q + ROW_START], R[q + ROW_END]);
    bStart[i] = made ? made.bStart : trimmedStart(docs[R[q + ROW_B + ROW_DOC]].region, R[q + ROW_B + ROW_START], R[q + ROW_B + ROW_END]);
  }
  /** A side's place as the job made it: lines at `at` of region i's row. */
  const placeOf = (d: Doc, i: number, at: number): Place => ({ path: d.path, startLine: facts![SIDE_INTS * i + at], endLine: facts![SIDE_INTS * i + at + 1] });
  const sideA = (i: number) =>
    (placesA[i] ??= factsOf(i) ? placeOf(docs[R[ROW_INTS * i + ROW_DOC]], i, SIDE_A_START_LINE) : locationOf(docs[R[ROW_INTS * i + ROW_DOC]], ROW_INTS * i, aStart[i]));
  const sideB = (i: number) =>
    (placesB[i] ??= factsOf(i) ? placeOf(docs[R[ROW_INTS * i + ROW_B + ROW_DOC]], i, SIDE_B_START_LINE) : locationOf(docs[R[ROW_INTS * i + ROW_B + ROW_DOC]], ROW_INTS * i + ROW_B, bStart[i]));

  // ---- files the regions make up: two files the scan does not pair whose regions hold at least
  // FILE_COVER of the tokens of each are an edited copy of a file (a file pair of their own,
  // carrying those regions; core/regions/fileCopies.ts, which searches such a pair again alone
  // when the whole search found it in pieces).
  const promoted = new Map<number, ReportPair>();
  {
    const copies = fileCopiesOfRows(regionDocs, rows, {
      skipPair: (x, y) => filePair.has(docsKey(x, y)),
      regions: { kernel: kernel ?? undefined, aligner, threads: input.threads },
      frequent: found.frequent, // the same documents' search: its counts of the frequent hashes
    });
    for (const c of copies) {
      const A = docs[c.docA];
      const B = docs[c.docB];
      const fa = fileFp.get(A.path) ?? sideSimhash(A.region, 0, A.region.length, sideOptions, kernel);
      const fb = fileFp.get(B.path) ?? sideSimhash(B.region, 0, B.region.length, sideOptions, kernel);
      let weighted = 0;
      for (const r of c.regions) weighted += r.similarity * (r.a.end - r.a.start + r.b.end - r.b.start);
      const similarity = Math.round((weighted / Math.max(1, A.region.length + B.region.length)) * 10000) / 10000;
      const whole = c.regions.length === 1 && c.coverA >= 0.99 && c.coverB >= 0.99;
      promoted.set(docsKey(c.docA, c.docB), {
        kind: 'file',
        a: { path: A.path },
        b: { path: B.path },
        distance: fa && fb ? hammingDistance(fa.hi, fa.lo, fb.hi, fb.lo) : 64,
        similarity,
        clone: whole ? c.regions[0].clone : 'edited',
        located: true,
        regions: c.regions.map((r) => ({
          a: linesOf(A.region, trimmedStart(A.region, r.a.start, r.a.end), r.a.end),
          b: linesOf(B.region, trimmedStart(B.region, r.b.start, r.b.end), r.b.end),
          clone: r.clone,
          similarity: Math.round(r.similarity * 10000) / 10000,
        })),
      });
    }
  }

  // ---- SimHash section pairs the regions split: the regions inside one stand as located pairs
  // (none is dropped as already said) and the section pair leaves the report
  // Per region pair, its files looked up once for this pass and the kept pairs': what carries it
  // (CARRIED_BY_COPY: an edited copy of a file; i ≥ 0: the scan's file pair i; NOT_CARRIED: neither)
  // and the section pairs near its lower side (SectionsByFiles.near: near.at[nearFrom[i], nearFrom[i + 1])).
  const carrier = new Int32Array(n);
  const nearFrom = new Int32Array(n + 1);
  const near = { at: new Int32Array(Math.max(64, n)) };
  const splits = new SectionSplits<number>();
  // (a bucket's regions come together: the look-ups of the last two files kept for the next region)
  let lastKey = -1;
  let lastCopy = false;
  let lastFile: number | undefined;
  let lastExisting = false;
  for (let i = 0; i < n; i++) {
    const da = R[ROW_INTS * i + ROW_DOC];
    const db = R[ROW_INTS * i + ROW_B + ROW_DOC];
    nearFrom[i + 1] = nearFrom[i];
    const k = docsKey(da, db);
    if (k !== lastKey) {
      lastKey = k;
      lastCopy = promoted.has(k);
      lastFile = filePair.get(k);
      lastExisting = existing.has(k);
    }
    const other = da !== db;
    if (other && lastCopy) {
      carrier[i] = CARRIED_BY_COPY;
      continue;
    }
    const fileIndex = other ? lastFile : undefined;
    carrier[i] = fileIndex ?? NOT_CARRIED;
    if (fileIndex !== undefined || !lastExisting) continue;
    const la = sideA(i);
    const lb = sideB(i);
    const lower = da <= db ? la : lb;
    const from = nearFrom[i];
    const count = existing.near(k, lower.startLine, lower.endLine, near, from);
    nearFrom[i + 1] = from + count;
    const nearAt = near.at;
    for (let m = from; m < from + count; m++) {
      const j = nearAt[m];
      // Only a region inside the section pair on both sides (± 1 line, either order) is listed for it (SectionSplits.add).
      const q = 4 * j;
      const as = sectionLines[q] - 1;
      const ae = sectionLines[q + 1] + 1;
      const bs = sectionLines[q + 2] - 1;
      const be = sectionLines[q + 3] + 1;
      const inside =
        (sectionDocA[j] === da && la.startLine >= as && la.endLine <= ae && lb.startLine >= bs && lb.endLine <= be) ||
        (sectionDocA[j] === db && lb.startLine >= as && lb.endLine <= ae && la.startLine >= bs && la.endLine <= be);
      if (inside) splits.add(j, scanPairs[j] as { a: Place; b: Place }, la, lb);
    }
  }
  const replaced = splits.split();

  /** A side's SimHash, made once per place (a block pasted N times is a side of N − 1 pairs). */
  const simhashes: Array<Map<number, ReturnType<typeof sideSimhash>> | undefined> = [];
  const simhashOfSide = (doc: number, start: number, end: number): ReturnType<typeof sideSimhash> => {
    const places = (simhashes[doc] ??= new Map());
    const k = start * pairKeyBase(docs[doc].region.length + 1) + end;
    let f = places.get(k);
    if (f === undefined) places.set(k, (f = sideSimhash(docs[doc].region, start, end, sideOptions, kernel)));
    return f;
  };
  /** Per region pair: its report pair, or null when dropped. */
  const kept: Array<ReportPair | null> = new Array(n).fill(null);
  let dropped = 0;
  let attached = 0;
  for (let i = 0; i < n; i++) {
    const q = ROW_INTS * i;
    const da = R[q + ROW_DOC];
    const db = R[q + ROW_B + ROW_DOC];
    const aFrom = R[q + ROW_START];
    const aEnd = R[q + ROW_END];
    const bFrom = R[q + ROW_B + ROW_START];
    const bEnd = R[q + ROW_B + ROW_END];
    const A = docs[da];
    const B = docs[db];
    const clone = CLONE_KINDS[R[q + ROW_KIND]];
    const similarity = Math.round(rows.floats[ROW_FLOATS * i] * 10000) / 10000;
    const fileIndex = carrier[i];
    if (fileIndex === CARRIED_BY_COPY) {
      // A region of an edited copy of a file: that file pair carries its regions (made above).
      attached++;
      continue;
    }
    if (fileIndex !== NOT_CARRIED) {
      // A region of two files the scan already pairs: the file pair carries it.
      const f = factsOf(i);
      const la = f ? { startLine: facts![SIDE_INTS * i + SIDE_A_START_LINE], endLine: facts![SIDE_INTS * i + SIDE_A_END_LINE] } : linesOf(A.region, aStart[i], aEnd);
      const lb = f ? { startLine: facts![SIDE_INTS * i + SIDE_B_START_LINE], endLine: facts![SIDE_INTS * i + SIDE_B_END_LINE] } : linesOf(B.region, bStart[i], bEnd);
      const flipped = scanPairs[fileIndex].a.path !== A.path;
      const list = regionsOf.get(fileIndex);
      const region: PairRegion = { a: flipped ? lb : la, b: flipped ? la : lb, clone, similarity };
      if (list) list.push(region);
      else regionsOf.set(fileIndex, [region]);
      attached++;
      continue;
    }
    const made = found.sides?.[i];
    const a = sideA(i);
    const b = sideB(i);
    sides.add(a, A.region, aStart[i], aEnd, made?.aKey);
    sides.add(b, B.region, bStart[i], bEnd, made?.bKey);
    const known = alreadyReported(i, da, db, a, b);
    if (known >= 0 && !replaced.has(known)) {
      if (!cloneOf.has(known)) cloneOf.set(known, reportedWhole ? clone : 'edited');
      dropped++;
      continue;
    }
    let distance = made?.distance ?? (factsOf(i) ? facts![SIDE_INTS * i + SIDE_DISTANCE] : undefined);
    // An exact copy holds the same tokens as read on both sides (align.ts: one unbroken run): with
    // as many closers left out of each, its sides' SimHashes read on those tokens are one.
    if (distance === undefined && clone === 'exact' && aStart[i] - aFrom === bStart[i] - bFrom && !(sideOptions.normalizeIdentifiers && (A.region.ids || B.region.ids))) distance = 0;
    if (distance === undefined) {
      const fa = simhashOfSide(da, aStart[i], aEnd);
      const fb = simhashOfSide(db, bStart[i], bEnd);
      distance = fa && fb ? hammingDistance(fa.hi, fa.lo, fb.hi, fb.lo) : 64;
    }
    const pair: ReportPair = { kind: 'section', a, b, distance, similarity, clone, located: true };
    pairs.push(pair);
    kept[i] = pair;
  }

  // A file pair's clone kind: its one region's when that spans both files, else edited.
  for (const [i, list] of regionsOf) {
    list.sort((x, y) => x.a.startLine - y.a.startLine || x.b.startLine - y.b.startLine);
    if (cloneOf.has(i)) continue;
    const p = scanPairs[i];
    const wa = whole(docs[docIndex.get(p.a.path)!]);
    const wb = whole(docs[docIndex.get(p.b.path)!]);
    const spans = (r: { startLine: number; endLine: number }, w: { startLine: number; endLine: number }) => Math.abs(r.startLine - w.startLine) <= 1 && Math.abs(r.endLine - w.endLine) <= 1;
    cloneOf.set(i, list.length === 1 && spans(list[0].a, wa) && spans(list[0].b, wb) ? list[0].clone : 'edited');
  }

  // ---- groups: the places of each region group linked by the pairs kept (locateGroups.ts)
  const groups = locatedSectionGroups(found.groups, rows, kept, docs);
  // ---- the edited copies of files: their pairs (regions in order) and their groups (files linked by them)
  const filePairs = [...promoted.values()];
  for (const p of filePairs) p.regions!.sort((x, y) => x.a.startLine - y.a.startLine || x.b.startLine - y.b.startLine);
  filePairs.sort((x, y) => (x.a.path < y.a.path ? -1 : x.a.path > y.a.path ? 1 : x.b.path < y.b.path ? -1 : x.b.path > y.b.path ? 1 : 0));
  groups.push(...fileGroups(filePairs));
  pairs.unshift(...filePairs);

  return {
    ok: true,
    pairs,
    groups,
    sides,
    cloneOf,
    regionsOf,
    replaced,
    stats: { files: docs.length, tokens: input.tokens, found: n, dropped, attached, elapsedMs: Math.round(performance.now() - input.started) },
  };
}

/** The located file groups: the files the edited copies' pairs link (members sorted, largest distance), in the order of their pairs. */
function fileGroups(filePairs: readonly ReportPair[]): ReportGroup[] {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const p of filePairs) {
    for (const x of [p.a.path, p.b.path]) if (!parent.has(x)) parent.set(x, x);
    const ra = root(p.a.path);
    const rb = root(p.b.path);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, { members: string[]; maxDistance: number }>();
  for (const p of filePairs) {
    const r = root(p.a.path);
    const g = groups.get(r) ?? { members: [], maxDistance: 0 };
    for (const x of [p.a.path, p.b.path]) if (!g.members.includes(x)) g.members.push(x);
    g.maxDistance = Math.max(g.maxDistance, p.distance);
    groups.set(r, g);
  }
  return [...groups.values()].map((g) => ({ kind: 'file', members: g.members.sort(), maxDistance: g.maxDistance, located: true }));
}
