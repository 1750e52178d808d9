/**
 * Turns the fingerprints of many documents into the report users see: file pairs, section pairs
 * and groups, in the shape of the CLI's JSON contract (DESIGN.md).
 */
import type { CloneKind, CodeKernel } from '../types';
import { cloneKind } from '../fingerprint/cloneHashes';
import { groupPairList, matchPairList, type MatchedList, type MatchOptions, type PairArrays } from './compare';
import { similarity } from '../index/hamming';
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from '../fingerprint/fingerprint';
import { forEachContainers } from './ranges';
import { eitherOrderKey, pairKeyBase } from '../pairKeys';
import type { DocumentFingerprint, ItemFingerprint } from '../types';

export interface FingerprintedDocument {
  /** Path relative to the scanned root, with '/' separators. */
  path: string;
  doc: DocumentFingerprint;
  /** Lines of the text, when known (the CLI's scan: for the HTML report's treemap). */
  lines?: number;
}

export interface ReportOptions {
  /** Hamming radius for whole files. */
  maxDistance: number;
  /** Hamming radius for sections. */
  sectionMaxDistance: number;
  /** Minimum estimated Jaccard similarity to confirm a candidate (0 = plain SimHash). */
  minSimilarity: number;
  /** Compare sections as well as files. */
  sections: boolean;
  /**
   * Candidate pairs looked at, per kind (files, sections); default {@link MAX_REPORT_PAIRS}.
   * Beyond it the report is incomplete and says so (`truncated`).
   */
  maxPairs?: number;
  /** The native kernel's pair search (same pairs), where this thread has it. */
  kernel?: Pick<CodeKernel, 'allPairs' | 'allPairsVetted' | 'sortPairs' | 'keepOutermostPairs'>;
  /** Threads the kernel's searches of pairs here may take, this one included (default 1): the cores idle while this thread matches sections (and files). */
  sectionThreads?: number;
}

/**
 * Default cap on candidate pairs per kind. A cluster of m near-identical items has m(m − 1)/2
 * pairs: one generated file of 8,000 near-identical functions gives 32 million, which no
 * report (nor its JSON text, nor the heap) can hold.
 */
export const MAX_REPORT_PAIRS = 250_000;

export interface Location {
  path: string;
  startLine?: number;
  endLine?: number;
}

export interface ReportPair {
  kind: 'file' | 'section';
  a: Location;
  b: Location;
  distance: number;
  similarity: number;
  /**
   * How the copy was made: `exact` (the same tokens), `renamed` (the same once identifiers and
   * literals are normalised), `edited` (near, not equal). From the items' clone hashes
   * (core/fingerprint/cloneHashes.ts); a located pair's from its alignment (core/regions).
   */
  clone: CloneKind;
  /** A copy located by the region finder (CLI `--locate`), not a SimHash section pair. */
  located?: true;
  /**
   * File pairs (CLI `--locate`): the matching regions inside the two files, in order of side a's
   * lines — where a panel or a diff jumps to. Absent when not located.
   */
  regions?: PairRegion[];
}

/** A matched region of a file pair: 1-based inclusive lines on each side. */
export interface PairRegion {
  a: { startLine: number; endLine: number };
  b: { startLine: number; endLine: number };
  clone: CloneKind;
  similarity: number;
}

export interface ReportGroup {
  kind: 'file' | 'section';
  members: string[];
  maxDistance: number;
  /** For section groups: the members' locations, parallel to `members`. */
  locations?: Location[];
  /** A group of located copies (CLI `--locate`). */
  located?: true;
}

export interface Report {
  pairs: ReportPair[];
  groups: ReportGroup[];
  /** Set when the pairs of a kind reached `maxPairs`: the report holds only some of them. */
  truncated?: { files: boolean; sections: boolean };
}

/** A file or section fingerprint of a report, with its document's number. */
export interface Item {
  doc: number;
  fp: ItemFingerprint;
  startLine: number;
  endLine: number;
}

function sectionLabel(loc: Location): string {
  return `${loc.path}:${loc.startLine}-${loc.endLine}`;
}

/** Pairs and groups of near-duplicate files and sections. */
export function buildReport(docs: readonly FingerprintedDocument[], options: ReportOptions): Report {
  const plan = planReport(docs);
  const files = matchFileItems(plan, options);
  return finishReport(plan, options, files, null);
}

/**
 * The items of a report: the documents' file and section fingerprints, numbered as the pairs
 * of {@link matchFileItems} and {@link matchSectionItems} refer to them.
 */
export interface ReportPlan {
  docs: readonly FingerprintedDocument[];
  fileItems: Item[];
  sectionItems: Item[];
}

/** Pairs found by `matchPairList` (item numbers, ordered by distance, a, b), and whether it stopped at the cap. */
export type MatchedItems = MatchedList;

export function planReport(docs: readonly FingerprintedDocument[]): ReportPlan {
  const fileItems: Item[] = [];
  const sectionItems: Item[] = [];
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d].doc;
    if (doc.file) fileItems.push({ doc: d, fp: doc.file, startLine: 0, endLine: 0 });
    for (const s of doc.sections) sectionItems.push({ doc: d, fp: s, startLine: s.startLine, endLine: s.endLine });
  }
  return { docs, fileItems, sectionItems };
}

/** The options of the whole-file `matchPairs` of a report (for running it elsewhere: no kernel). */
export function fileMatchOptions(options: ReportOptions): MatchOptions {
  return { maxDistance: options.maxDistance, minSimilarity: options.minSimilarity, sketchSize: FILE_SKETCH_SIZE, maxPairs: options.maxPairs ?? MAX_REPORT_PAIRS };
}

function sectionMatchOptions(options: ReportOptions): MatchOptions {
  return { maxDistance: options.sectionMaxDistance, minSimilarity: options.minSimilarity, sketchSize: SECTION_SKETCH_SIZE, maxPairs: options.maxPairs ?? MAX_REPORT_PAIRS, kernel: options.kernel, threads: options.sectionThreads };
}

/** Whole-file pairs (item numbers of `plan.fileItems`). */
export function matchFileItems(plan: ReportPlan, options: ReportOptions): MatchedItems {
  return matchPairList(
    plan.fileItems.map((i) => i.fp),
    { ...fileMatchOptions(options), kernel: options.kernel, threads: options.sectionThreads },
  );
}

/** Each section item's document and lines as arrays (item i at i), made once per plan. */
interface SectionRanges {
  docOf: Int32Array;
  startOf: Int32Array;
  endOf: Int32Array;
}
const rangesOfPlan = new WeakMap<ReportPlan, SectionRanges>();

function sectionRanges(plan: ReportPlan): SectionRanges {
  let r = rangesOfPlan.get(plan);
  if (r) return r;
  const items = plan.sectionItems;
  const n = items.length;
  r = { docOf: new Int32Array(n), startOf: new Int32Array(n), endOf: new Int32Array(n) };
  for (let i = 0; i < n; i++) {
    r.docOf[i] = items[i].doc;
    r.startOf[i] = items[i].startLine;
    r.endOf[i] = items[i].endLine;
  }
  rangesOfPlan.set(plan, r);
  return r;
}

/**
 * Section pairs (item numbers of `plan.sectionItems`), before nested pairs are dropped. Pairs of
 * overlapping sections of one file are never candidates; with `pairedFiles` (see
 * {@link pairedFilesOf}), neither are sections of two files that pair as whole files. Without it
 * (so that it can run while the files are matched elsewhere), only sections of files that are
 * copies (same fingerprint and sketch) are left out, and the result holds the other pairs of
 * paired files too: {@link finishReport} removes them, which gives the same pairs unless a cap
 * was reached (then it matches again, with the file pairs).
 */
export function matchSectionItems(plan: ReportPlan, options: ReportOptions, pairedFiles: PairedFiles | null): MatchedItems {
  const items = plan.sectionItems;
  const { docOf, startOf, endOf } = sectionRanges(plan);
  // Sections of two files already reported as a file pair add nothing; nor do overlapping
  // sections of one file (a method and its class). Without the file pairs, files with the very
  // same fingerprint and sketch are known to pair (distance 0, estimate 1), so their sections
  // are left out at once: copies would otherwise fill the cap with candidates dropped later.
  const skipDocs = pairedFiles !== null && pairedFiles.docs.length > 0 ? (a: number, b: number) => pairedFiles.has(a, b) : undefined;
  const copyOf = pairedFiles === null ? copyClasses(plan) : null;
  const accept = (x: number, y: number): boolean => {
    const a = docOf[x];
    const b = docOf[y];
    if (a === b) return endOf[x] < startOf[y] || endOf[y] < startOf[x];
    if (copyOf !== null && copyOf[a] >= 0 && copyOf[a] === copyOf[b]) return false;
    return skipDocs === undefined || !skipDocs(a, b);
  };
  // (the same rule as data, for a kernel that vets)
  return matchPairList(items.map((i) => i.fp), sectionMatchOptions(options), accept, { docOf, startOf, endOf, copyOf, skipDocs, ...(skipDocs ? { skipPairs: pairedFiles!.docs } : {}) });
}

/**
 * Per document, a number shared with the other documents whose file fingerprint and sketch are
 * the same as its own (such files always pair: distance 0, estimated similarity 1), or -1.
 */
function copyClasses(plan: ReportPlan): Int32Array | null {
  // By the fingerprint's high word (a number key: no string per file), then its low word.
  const byHi = new Map<number, Item[]>();
  for (const it of plan.fileItems) {
    const list = byHi.get(it.fp.hi);
    if (list) list.push(it);
    else byHi.set(it.fp.hi, [it]);
  }
  let classes: Int32Array | null = null;
  let next = 0;
  for (const list of byHi.values()) {
    if (list.length < 2) continue;
    classes ??= new Int32Array(plan.docs.length).fill(-1);
    for (let i = 0; i < list.length; i++) {
      if (classes[list[i].doc] >= 0) continue;
      const c = next++;
      classes[list[i].doc] = c;
      const { lo, sketch } = list[i].fp;
      for (let j = i + 1; j < list.length; j++) {
        if (classes[list[j].doc] < 0 && list[j].fp.lo === lo && sameSketch(sketch, list[j].fp.sketch)) classes[list[j].doc] = c;
      }
    }
  }
  return classes;
}

function sameSketch(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The documents that pair as whole files. */
export interface PairedFiles {
  /** Each file pair's two documents, (docA, docB) (as a kernel that vets takes them). */
  readonly docs: Int32Array;
  /** Whether documents a and b pair as whole files (a set of them made on first use). */
  has(a: number, b: number): boolean;
}

export function pairedFilesOf(plan: ReportPlan, files: MatchedItems): PairedFiles {
  const key = eitherOrderKey(pairKeyBase(plan.docs.length));
  const docs = new Int32Array(2 * files.length);
  for (let p = 0; p < files.length; p++) {
    docs[2 * p] = plan.fileItems[files.a[p]].doc;
    docs[2 * p + 1] = plan.fileItems[files.b[p]].doc;
  }
  let set: Set<number> | undefined;
  return {
    docs,
    has(a: number, b: number): boolean {
      if (!set) {
        set = new Set<number>();
        for (let p = 0; p < docs.length; p += 2) set.add(key(docs[p], docs[p + 1]));
      }
      return set.has(key(a, b));
    },
  };
}

/**
 * The report from the file pairs and (when `options.sections`) the section pairs: `sections` from
 * {@link matchSectionItems} without `pairedFiles`, or null to match them here.
 */
export function finishReport(plan: ReportPlan, options: ReportOptions, files: MatchedItems, sections: MatchedItems | null): Report {
  const { docs, fileItems, sectionItems } = plan;
  const pairs: ReportPair[] = [];
  addPairs(pairs, 'file', files, fileItems, docs);
  const groups: ReportGroup[] = groupPairList(files).map((g) => ({
    kind: 'file',
    members: g.members.map((m) => docs[fileItems[m].doc].path),
    maxDistance: g.maxDistance,
  }));

  let sectionsTruncated = false;
  if (options.sections) {
    const pairedFiles = pairedFilesOf(plan, files);
    let matched: MatchedItems;
    // Matched without the file pairs: the same pairs once those are removed, unless a cap was
    // reached (then some file pairs, or some section pairs, may be missing): match again.
    if (sections === null || sections.truncated || files.truncated) {
      matched = matchSectionItems(plan, options, pairedFiles);
    } else if (pairedFiles.docs.length === 0) {
      matched = sections;
    } else {
      const keep = new Uint8Array(sections.length);
      const { docOf } = sectionRanges(plan);
      for (let p = 0; p < sections.length; p++) {
        const a = docOf[sections.a[p]];
        const b = docOf[sections.b[p]];
        keep[p] = a === b || !pairedFiles.has(a, b) ? 1 : 0;
      }
      matched = { ...subset(sections, keep), truncated: false };
    }
    sectionsTruncated = matched.truncated;
    const sectionPairs = outermostPairs(matched, plan, options.kernel);
    const sectionLocation = addPairs(pairs, 'section', sectionPairs, sectionItems, docs);
    for (const g of groupPairList(sectionPairs)) {
      const locations = g.members.map(sectionLocation);
      groups.push({ kind: 'section', members: locations.map(sectionLabel), maxDistance: g.maxDistance, locations });
    }
  }
  const report: Report = { pairs, groups };
  if (files.truncated || sectionsTruncated) report.truncated = { files: files.truncated, sections: sectionsTruncated };
  return report;
}

/**
 * The pairs of `list` (numbers of `items`) added to `pairs`. Each item's location is one object,
 * shared by its pairs and, through the function returned, its groups (fewer objects: less garbage
 * collection on a large report).
 */
function addPairs(pairs: ReportPair[], kind: 'file' | 'section', list: PairArrays, items: readonly Item[], docs: readonly FingerprintedDocument[]): (m: number) => Location {
  const at: Array<Location | undefined> = new Array(items.length);
  const locate = (m: number): Location => (at[m] ??= locationOf(docs, items[m], kind));
  for (let p = 0; p < list.length; p++) {
    const a = list.a[p];
    const b = list.b[p];
    pairs.push(toPair(kind, items[a], items[b], locate(a), locate(b), list.distance[p]));
  }
  return locate;
}

/** The pairs p with keep[p] = 1, in their order. */
function subset(list: PairArrays, keep: Uint8Array): PairArrays {
  let count = 0;
  for (let p = 0; p < list.length; p++) count += keep[p];
  if (count === list.length) return list;
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const distance = new Uint8Array(count);
  let q = 0;
  for (let p = 0; p < list.length; p++) {
    if (keep[p] === 0) continue;
    a[q] = list.a[p];
    b[q] = list.b[p];
    distance[q++] = list.distance[p];
  }
  return { length: count, a, b, distance };
}

/** {@link dropNestedPairs} of the plan's section pairs, by the kernel where it can (the same pairs). */
function outermostPairs(pairs: PairArrays, plan: ReportPlan, kernel: Pick<CodeKernel, 'keepOutermostPairs'> | undefined): PairArrays {
  if (pairs.length < 2 || !kernel?.keepOutermostPairs) return dropNestedPairs(pairs, plan.sectionItems);
  const { docOf, startOf, endOf } = sectionRanges(plan);
  const a = pairs.a.length === pairs.length ? pairs.a : pairs.a.subarray(0, pairs.length);
  const b = pairs.b.length === pairs.length ? pairs.b : pairs.b.subarray(0, pairs.length);
  let keep: Uint8Array;
  try {
    keep = kernel.keepOutermostPairs(a, b, docOf, startOf, endOf);
  } catch {
    return dropNestedPairs(pairs, plan.sectionItems); // (out of memory in the kernel: the same pairs here)
  }
  return subset(pairs, keep);
}

/**
 * When two enclosing sections pair up (class ~ class), their nested sections (method ~ method)
 * would repeat the same finding; keep only the outermost pair.
 */
export function dropNestedPairs(pairs: PairArrays, items: readonly Item[]): PairArrays {
  const count = pairs.length;
  if (count === 0) return pairs;
  const { a: as, b: bs } = pairs;
  // A pair (a, b) is nested when some already accepted pair (x, y) (of larger span, or earlier)
  // holds a in x and b in y (or the other way round): the same document and x's lines around
  // a's. Containers of a lie in a's document and those of b in b's, so only pairs of the same two
  // documents can nest: the pairs are sorted by their documents (one numeric key each, no Map),
  // each run is decided alone, and a run of one pair is kept.
  let nDocs = 0;
  for (const it of items) if (it.doc >= nDocs) nDocs = it.doc + 1;
  const docKey = (p: number): number => {
    const da = items[as[p]].doc;
    const db = items[bs[p]].doc;
    return da < db ? da * nDocs + db : db * nDocs + da;
  };
  const order = new Uint32Array(count);
  if (nDocs * nDocs * count <= Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(count);
    for (let p = 0; p < count; p++) keys[p] = docKey(p) * count + p;
    keys.sort();
    for (let i = 0; i < count; i++) order[i] = keys[i] % count;
  } else {
    const keyOf = Array.from({ length: count }, (_, p) => docKey(p));
    const byKey = Array.from({ length: count }, (_, p) => p).sort((x, y) => keyOf[x] - keyOf[y] || x - y);
    for (let i = 0; i < count; i++) order[i] = byKey[i];
  }
  const keep = new Uint8Array(count);
  const big: number[][] = []; // the runs decided through each item's containers (below)
  for (let i = 0; i < count; ) {
    const key = docKey(order[i]);
    let end = i + 1;
    while (end < count && docKey(order[end]) === key) end++;
    if (end - i === 1) keep[order[i]] = 1;
    else if (end - i <= DIRECT_RUN) keepOutermost(Array.from(order.subarray(i, end)), as, bs, items, keep);
    else big.push(Array.from(order.subarray(i, end)));
    i = end;
  }
  if (big.length > 0) keepOutermostByContainers(big, as, bs, items, keep);
  return subset(pairs, keep);
}

/** Runs of pairs up to this long compare each pair with the accepted ones; longer runs (a file of one repeated line) look up containers, linear in the pairs. */
const DIRECT_RUN = 64;

const span = (as: Uint32Array, bs: Uint32Array, items: readonly Item[], p: number): number =>
  items[as[p]].endLine - items[as[p]].startLine + items[bs[p]].endLine - items[bs[p]].startLine;

/** Whether item x's range holds item i's (same document). */
const holds = (x: Item, i: Item): boolean => x.doc === i.doc && x.startLine <= i.startLine && i.endLine <= x.endLine;

/** Of the pairs of one run (two documents), keep[p] = 1 for those no accepted pair holds, widest first. */
function keepOutermost(list: number[], as: Uint32Array, bs: Uint32Array, items: readonly Item[], keep: Uint8Array): void {
  list.sort((x, y) => span(as, bs, items, y) - span(as, bs, items, x) || x - y);
  const accepted: number[] = [];
  for (const p of list) {
    const a = items[as[p]];
    const b = items[bs[p]];
    let nested = false;
    for (let k = 0; k < accepted.length && !nested; k++) {
      const u = items[as[accepted[k]]];
      const v = items[bs[accepted[k]]];
      nested = (holds(u, a) && holds(v, b)) || (holds(v, a) && holds(u, b));
    }
    if (!nested) {
      accepted.push(p);
      keep[p] = 1;
    }
  }
}

/** {@link keepOutermost} of long runs, through each item's containers (linear while sections nest a few levels deep). */
function keepOutermostByContainers(runs: number[][], as: Uint32Array, bs: Uint32Array, items: readonly Item[], keep: Uint8Array): void {
  const wanted = new Set<number>();
  for (const list of runs) {
    for (const p of list) {
      wanted.add(as[p]);
      wanted.add(bs[p]);
    }
  }
  const containers = containersOf(wanted, items);
  const n = items.length;
  for (const list of runs) {
    list.sort((x, y) => span(as, bs, items, y) - span(as, bs, items, x) || x - y);
    const accepted = new Set<number>(); // a * n + b of accepted pairs, a < b
    for (const p of list) {
      const ca = containers.get(as[p])!;
      const cb = containers.get(bs[p])!;
      let nested = false;
      for (let i = 0; i < ca.length && !nested; i++) {
        for (let j = 0; j < cb.length; j++) {
          const x = ca[i];
          const y = cb[j];
          if (accepted.has(x < y ? x * n + y : y * n + x)) {
            nested = true;
            break;
          }
        }
      }
      if (!nested) {
        accepted.add(as[p] < bs[p] ? as[p] * n + bs[p] : bs[p] * n + as[p]);
        keep[p] = 1;
      }
    }
  }
}

/** For each wanted item: the items of its document whose range contains its range (itself too). */
function containersOf(wanted: ReadonlySet<number>, items: readonly Item[]): Map<number, number[]> {
  const docs = new Set<number>();
  for (const i of wanted) docs.add(items[i].doc);
  const byDoc = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const d = items[i].doc;
    if (!docs.has(d)) continue;
    const list = byDoc.get(d);
    if (list) list.push(i);
    else byDoc.set(d, [i]);
  }
  const out = new Map<number, number[]>();
  const startOf = (i: number) => items[i].startLine;
  const endOf = (i: number) => items[i].endLine;
  for (const list of byDoc.values()) forEachContainers(list, startOf, endOf, (i, c) => out.set(i, c), (i) => wanted.has(i));
  return out;
}

function locationOf(docs: readonly FingerprintedDocument[], item: Item, kind: 'file' | 'section'): Location {
  const path = docs[item.doc].path;
  return kind === 'file' ? { path } : { path, startLine: item.startLine, endLine: item.endLine };
}

/** The pair of items x and y at their locations, the sides ordered by path, then line. */
function toPair(kind: 'file' | 'section', x: Item, y: Item, a: Location, b: Location, distance: number): ReportPair {
  if (a.path > b.path || (a.path === b.path && (a.startLine ?? 0) > (b.startLine ?? 0))) [a, b] = [b, a];
  return { kind, a, b, distance, similarity: similarity(distance), clone: cloneKind(x.fp, y.fp) };
}
