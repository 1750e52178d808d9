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
}

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
  const filePairs = matchPairs(
    fileItems.map((i) => i.fp),
    { maxDistance: options.maxDistance, minSimilarity: options.minSimilarity, sketchSize: FILE_SKETCH_SIZE },
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
        { maxDistance: options.sectionMaxDistance, minSimilarity: options.minSimilarity, sketchSize: SECTION_SKETCH_SIZE },
        accept,
      ),
      sectionItems,
    );
    for (const p of sectionPairs) pairs.push(toPair('section', docs, sectionItems[p.a], sectionItems[p.b], p));
    for (const g of groupPairs(sectionPairs)) {
      const locations = g.members.map((m) => locationOf(docs, sectionItems[m], 'section'));
      groups.push({ kind: 'section', members: locations.map(sectionLabel), maxDistance: g.maxDistance, locations });
    }
  }
  return { pairs, groups };
}

/**
 * When two enclosing sections pair up (class ~ class), their nested sections (method ~ method)
 * would repeat the same finding; keep only the outermost pair.
 */
function dropNestedPairs(pairs: MatchedPair[], items: readonly Item[]): MatchedPair[] {
  const contains = (outer: Item, inner: Item): boolean =>
    outer.doc === inner.doc && outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
  const span = (p: MatchedPair): number =>
    items[p.a].endLine - items[p.a].startLine + items[p.b].endLine - items[p.b].startLine;
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
  for (const list of byDocs.values()) {
    list.sort((x, y) => span(y) - span(x));
    const accepted: MatchedPair[] = [];
    for (const p of list) {
      const a = items[p.a];
      const b = items[p.b];
      const nested = accepted.some((q) => {
        const qa = items[q.a];
        const qb = items[q.b];
        return (contains(qa, a) && contains(qb, b)) || (contains(qa, b) && contains(qb, a));
      });
      if (!nested) accepted.push(p);
    }
    for (const p of accepted) kept.add(p);
  }
  return pairs.filter((p) => kept.has(p));
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
