/**
 * Turns the fingerprints of many documents into the report users see: file pairs, section pairs
 * and groups, in the shape of the CLI's JSON contract (DESIGN.md).
 */
import { groupPairs, matchPairs, type MatchedPair } from './compare';
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from './fingerprint';
import type { DocumentFingerprint, ItemFingerprint } from './types';

export interface FingerprintedDocument {
  /** Path relative to the scanned root, with '/' separators. */
  path: string;
  doc: DocumentFingerprint;
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
}

export interface ReportGroup {
  kind: 'file' | 'section';
  members: string[];
  maxDistance: number;
  /** For section groups: the members' locations, parallel to `members`. */
  locations?: Location[];
}

export interface Report {
  pairs: ReportPair[];
  groups: ReportGroup[];
  /** Set when the pairs of a kind reached `maxPairs`: the report holds only some of them. */
  truncated?: { files: boolean; sections: boolean };
}

interface Item {
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
  // Files.
  const fileItems: Item[] = [];
  for (let d = 0; d < docs.length; d++) {
    const fp = docs[d].doc.file;
    if (fp) fileItems.push({ doc: d, fp, startLine: 0, endLine: 0 });
  }
  const maxPairs = options.maxPairs ?? MAX_REPORT_PAIRS;
  const fileInfo = { truncated: false };
  const sectionInfo = { truncated: false };
  const filePairs = matchPairs(
    fileItems.map((i) => i.fp),
    { maxDistance: options.maxDistance, minSimilarity: options.minSimilarity, sketchSize: FILE_SKETCH_SIZE, maxPairs },
    undefined,
    fileInfo,
  );
  const pairs: ReportPair[] = [];
  const pairedFiles = new Set<string>();
  for (const p of filePairs) {
    const a = fileItems[p.a].doc;
    const b = fileItems[p.b].doc;
    pairedFiles.add(`${Math.min(a, b)}:${Math.max(a, b)}`);
    pairs.push(toPair('file', docs, fileItems[p.a], fileItems[p.b], p));
  }
  const groups: ReportGroup[] = groupPairs(filePairs).map((g) => ({
    kind: 'file',
    members: g.members.map((m) => docs[fileItems[m].doc].path),
    maxDistance: g.maxDistance,
  }));

  if (options.sections) {
    const sectionItems: Item[] = [];
    for (let d = 0; d < docs.length; d++) {
      for (const s of docs[d].doc.sections) sectionItems.push({ doc: d, fp: s, startLine: s.startLine, endLine: s.endLine });
    }
    // Sections of two files already reported as a file pair add nothing; nor do overlapping
    // sections of one file (a method and its class).
    const accept = (x: number, y: number): boolean => {
      const a = sectionItems[x];
      const b = sectionItems[y];
      if (a.doc === b.doc) return a.endLine < b.startLine || b.endLine < a.startLine;
      return !pairedFiles.has(`${Math.min(a.doc, b.doc)}:${Math.max(a.doc, b.doc)}`);
    };
    const sectionPairs = dropNestedPairs(
      matchPairs(
        sectionItems.map((i) => i.fp),
        { maxDistance: options.sectionMaxDistance, minSimilarity: options.minSimilarity, sketchSize: SECTION_SKETCH_SIZE, maxPairs },
        accept,
        sectionInfo,
      ),
      sectionItems,
    );
    for (const p of sectionPairs) pairs.push(toPair('section', docs, sectionItems[p.a], sectionItems[p.b], p));
    for (const g of groupPairs(sectionPairs)) {
      const locations = g.members.map((m) => locationOf(docs, sectionItems[m], 'section'));
      groups.push({ kind: 'section', members: locations.map(sectionLabel), maxDistance: g.maxDistance, locations });
    }
  }
  const report: Report = { pairs, groups };
  if (fileInfo.truncated || sectionInfo.truncated) report.truncated = { files: fileInfo.truncated, sections: sectionInfo.truncated };
  return report;
}

/**
 * When two enclosing sections pair up (class ~ class), their nested sections (method ~ method)
 * would repeat the same finding; keep only the outermost pair.
 */
function dropNestedPairs(pairs: MatchedPair[], items: readonly Item[]): MatchedPair[] {
  if (pairs.length === 0) return pairs;
  const span = (p: MatchedPair): number =>
    items[p.a].endLine - items[p.a].startLine + items[p.b].endLine - items[p.b].startLine;
  // The items of the same document whose line range contains an item's range, the item itself
  // included; only items that occur in a pair are looked at. A pair (a, b) is nested when some
  // already accepted pair joins a container of a with a container of b. Sections are rarely
  // nested more than a few levels deep, so this is linear in the pairs (comparing each pair with
  // every accepted one was quadratic: a file of one repeated line took minutes).
  const containers = containersOf(pairs, items);
  const byDocs = new Map<string, MatchedPair[]>();
  for (const p of pairs) {
    const da = items[p.a].doc;
    const db = items[p.b].doc;
    const key = `${Math.min(da, db)}:${Math.max(da, db)}`;
    const list = byDocs.get(key);
    if (list) list.push(p);
    else byDocs.set(key, [p]);
  }
  const kept = new Set<MatchedPair>();
  const accepted = new Set<number>(); // a * n + b of accepted pairs, a < b
  const n = items.length;
  for (const list of byDocs.values()) {
    list.sort((x, y) => span(y) - span(x));
    for (const p of list) {
      const ca = containers.get(p.a)!;
      const cb = containers.get(p.b)!;
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
        accepted.add(p.a < p.b ? p.a * n + p.b : p.b * n + p.a);
        kept.add(p);
      }
    }
  }
  return pairs.filter((p) => kept.has(p));
}

/** For each item of a pair: the items of its document whose range contains its range (itself too). */
function containersOf(pairs: readonly MatchedPair[], items: readonly Item[]): Map<number, number[]> {
  const wanted = new Set<number>();
  for (const p of pairs) {
    wanted.add(p.a);
    wanted.add(p.b);
  }
  // Items are grouped by document (sectionItems are built document by document); within one,
  // sweep by start line (longer first) keeping the items that still cover the current line.
  const byDoc = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const list = byDoc.get(items[i].doc);
    if (list) list.push(i);
    else byDoc.set(items[i].doc, [i]);
  }
  const out = new Map<number, number[]>();
  for (const list of byDoc.values()) {
    if (!list.some((i) => wanted.has(i))) continue;
    list.sort((x, y) => items[x].startLine - items[y].startLine || items[y].endLine - items[x].endLine || x - y);
    let active: number[] = [];
    for (let k = 0; k < list.length; ) {
      // Items starting on the same line are all active together (one may contain another).
      const start = items[list[k]].startLine;
      active = active.filter((j) => items[j].endLine >= start);
      let end = k;
      while (end < list.length && items[list[end]].startLine === start) active.push(list[end++]);
      for (; k < end; k++) {
        const i = list[k];
        if (!wanted.has(i)) continue;
        const { startLine, endLine } = items[i];
        out.set(
          i,
          active.filter((j) => items[j].startLine <= startLine && endLine <= items[j].endLine),
        );
      }
    }
  }
  return out;
}

function locationOf(docs: readonly FingerprintedDocument[], item: Item, kind: 'file' | 'section'): Location {
  const path = docs[item.doc].path;
  return kind === 'file' ? { path } : { path, startLine: item.startLine, endLine: item.endLine };
}

function toPair(
  kind: 'file' | 'section',
  docs: readonly FingerprintedDocument[],
  x: Item,
  y: Item,
  p: MatchedPair,
): ReportPair {
  let a = locationOf(docs, x, kind);
  let b = locationOf(docs, y, kind);
  if (a.path > b.path || (a.path === b.path && (a.startLine ?? 0) > (b.startLine ?? 0))) [a, b] = [b, a];
  return { kind, a, b, distance: p.distance, similarity: p.similarity };
}
