/**
 * The near duplicates of ONE document among many (the "find near duplicates of this file"
 * command, also for an unsaved editor's text). A linear scan with the same rules as buildReport:
 * files within maxDistance, sections within sectionMaxDistance, both confirmed by the sketches'
 * Jaccard estimate; no section pairs between files that already pair as files; no overlapping
 * sections of one file; of nested section pairs only the outermost. Pure; runs in the engine worker.
 */
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from '../core/fingerprint';
import { hammingDistance, similarity } from '../core/hamming';
import { estimateJaccard } from '../core/simhash';
import type { DocumentFingerprint, ItemFingerprint } from '../core/types';
import type { QueryMatch, Thresholds } from './engineProtocol';

export interface TwinOptions extends Thresholds {
  sections: boolean;
}

function close(a: ItemFingerprint, b: ItemFingerprint, max: number, minSimilarity: number, sketchSize: number): number {
  const d = hammingDistance(a.hi, a.lo, b.hi, b.lo);
  if (d > max) return -1;
  if (minSimilarity > 0 && estimateJaccard(a.sketch, b.sketch, sketchSize) < minSimilarity) return -1;
  return d;
}

/**
 * `selfPath`: the queried document's key in `docs` (its stored fingerprint is ignored in favour
 * of `doc`, which may come from unsaved text).
 */
export function findTwins(
  selfPath: string,
  doc: DocumentFingerprint,
  docs: Iterable<[string, DocumentFingerprint]>,
  options: TwinOptions,
): QueryMatch[] {
  const fileMatches: QueryMatch[] = [];
  const others: Array<[string, DocumentFingerprint]> = [];
  for (const [p, other] of docs) {
    if (p === selfPath) continue;
    others.push([p, other]);
    if (!doc.file || !other.file) continue;
    const d = close(doc.file, other.file, options.maxDistance, options.minSimilarity, FILE_SKETCH_SIZE);
    if (d >= 0) fileMatches.push({ kind: 'file', other: { path: p }, distance: d, similarity: similarity(d) });
  }
  const paired = new Set(fileMatches.map((m) => m.other.path));

  const sectionMatches: QueryMatch[] = [];
  if (options.sections && doc.sections.length > 0) {
    const candidates: Array<[string, DocumentFingerprint]> = [[selfPath, doc], ...others.filter(([p]) => !paired.has(p))];
    const perDoc = new Map<string, QueryMatch[]>();
    for (const [p, other] of candidates) {
      for (const s of doc.sections) {
        for (const t of other.sections) {
          if (p === selfPath && !(s.endLine < t.startLine || t.endLine < s.startLine)) continue;
          // Within one file, report each pair once (the earlier section as `self`).
          if (p === selfPath && t.startLine < s.startLine) continue;
          const d = close(s, t, options.sectionMaxDistance, options.minSimilarity, SECTION_SKETCH_SIZE);
          if (d < 0) continue;
          const m: QueryMatch = {
            kind: 'section',
            self: { startLine: s.startLine, endLine: s.endLine },
            other: { path: p, startLine: t.startLine, endLine: t.endLine },
            distance: d,
            similarity: similarity(d),
          };
          const list = perDoc.get(p);
          if (list) list.push(m);
          else perDoc.set(p, [m]);
        }
      }
    }
    for (const list of perDoc.values()) sectionMatches.push(...dropNested(list));
  }
  const all = [...fileMatches, ...sectionMatches];
  all.sort(
    (a, b) =>
      a.distance - b.distance ||
      (a.kind === b.kind ? 0 : a.kind === 'file' ? -1 : 1) ||
      (a.other.path < b.other.path ? -1 : a.other.path > b.other.path ? 1 : 0) ||
      (a.other.startLine ?? 0) - (b.other.startLine ?? 0),
  );
  return all;
}

/** Of section pairs between the same two files, keep only those not nested in a larger pair. */
function dropNested(list: QueryMatch[]): QueryMatch[] {
  const span = (m: QueryMatch) => m.self!.endLine - m.self!.startLine + m.other.endLine! - m.other.startLine!;
  const inside = (a: { startLine: number; endLine: number }, b: { startLine: number; endLine: number }) =>
    b.startLine <= a.startLine && a.endLine <= b.endLine;
  const sorted = [...list].sort((a, b) => span(b) - span(a));
  const kept: QueryMatch[] = [];
  for (const m of sorted) {
    const o = { startLine: m.other.startLine!, endLine: m.other.endLine! };
    const nested = kept.some((k) => inside(m.self!, k.self!) && inside(o, { startLine: k.other.startLine!, endLine: k.other.endLine! }));
    if (!nested) kept.push(m);
  }
  return kept;
}
