/**
 * The near duplicates of ONE document among many (the "find near duplicates of this file"
 * command, also for an unsaved editor's text, and each changed document of an incremental
 * update). The same rules as buildReport: files within maxDistance, sections within
 * sectionMaxDistance, both confirmed by the sketches' Jaccard estimate; no section pairs between
 * files that already pair as files; no overlapping sections of one file; of nested section pairs
 * only the outermost.
 *
 * The candidates come from a {@link TwinSource}: a live {@link DocumentIndex} (permuted tables:
 * time ∝ candidates) or, when there is none, a linear scan of the documents ({@link findTwins}).
 * Both give the same matches, in the same (total) order. Pure; runs in the engine worker.
 */
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from '../../core/fingerprint/fingerprint';
import { forEachContainers } from '../../core/report/ranges';
import { hammingDistance, similarity } from '../../core/index/hamming';
import { estimateJaccard } from '../../core/fingerprint/simhash';
import { cloneKind } from '../../core/fingerprint/cloneHashes';
import { allPairsBatch } from '../../core/index/allPairs';
import type { DocumentFingerprint, Fp64, ItemFingerprint, SectionFingerprint } from '../../core/types';
import type { QueryMatch, Thresholds } from './engineProtocol';

export interface TwinOptions extends Thresholds {
  sections: boolean;
}

/**
 * A bound on the section matches a query collects (before nested ones are dropped): a generated
 * file of hundreds of near-identical functions pairs each with every other. Beyond `maxPairs`
 * the answer is cut and `truncated` set.
 */
export interface TwinLimit {
  maxPairs: number;
  truncated: boolean;
}

/**
 * Where the other documents' fingerprints come from: every item within k, in any order (for
 * sections, one list per fingerprint asked). A {@link import('../../core/index/documentIndex').DocumentIndex}
 * is one.
 */
export interface TwinSource {
  fileNeighbours(fp: Fp64, k: number): Iterable<{ path: string; file: ItemFingerprint; distance: number }>;
  sectionNeighbours(fps: readonly Fp64[], k: number): Array<Iterable<{ path: string; section: SectionFingerprint; distance: number }>>;
}

/** A linear scan of `docs` (each call looks at every document). */
export function linearSource(docs: Iterable<[string, DocumentFingerprint]>): TwinSource {
  const list = [...docs];
  return {
    *fileNeighbours(fp, k) {
      for (const [path, doc] of list) {
        if (!doc.file) continue;
        const distance = hammingDistance(fp.hi, fp.lo, doc.file.hi, doc.file.lo);
        if (distance <= k) yield { path, file: doc.file, distance };
      }
    },
    sectionNeighbours(fps, k) {
      return fps.map((fp) => {
        const out: Array<{ path: string; section: SectionFingerprint; distance: number }> = [];
        for (const [path, doc] of list) {
          for (const section of doc.sections) {
            const distance = hammingDistance(fp.hi, fp.lo, section.hi, section.lo);
            if (distance <= k) out.push({ path, section, distance });
          }
        }
        return out;
      });
    },
  };
}

/**
 * The twins of `doc` by a linear scan of `docs`. `selfPath`: the queried document's key in `docs`
 * (its stored fingerprint is ignored in favour of `doc`, which may come from unsaved text).
 */
export function findTwins(
  selfPath: string,
  doc: DocumentFingerprint,
  docs: Iterable<[string, DocumentFingerprint]>,
  options: TwinOptions,
  limit?: TwinLimit,
): QueryMatch[] {
  return findTwinsIn(selfPath, doc, linearSource(docs), options, undefined, limit);
}

/**
 * The twins of `doc` among the documents of `source` other than `selfPath` and those `exclude`
 * rejects. Section pairs inside `doc` itself come from `doc.sections`, never from the source.
 */
export function findTwinsIn(
  selfPath: string,
  doc: DocumentFingerprint,
  source: TwinSource,
  options: TwinOptions,
  exclude?: (path: string) => boolean,
  limit?: TwinLimit,
): QueryMatch[] {
  const { maxDistance, sectionMaxDistance, minSimilarity } = options;
  const fileMatches: QueryMatch[] = [];
  const paired = new Set<string>();
  if (doc.file) {
    for (const n of source.fileNeighbours(doc.file, maxDistance)) {
      if (n.path === selfPath || (exclude && exclude(n.path))) continue;
      if (!confirmed(doc.file, n.file, minSimilarity, FILE_SKETCH_SIZE)) continue;
      paired.add(n.path);
      fileMatches.push({ kind: 'file', other: { path: n.path }, distance: n.distance, similarity: similarity(n.distance), clone: cloneKind(doc.file, n.file) });
    }
  }

  const sectionMatches: QueryMatch[] = [];
  if (options.sections && doc.sections.length > 0) {
    const perDoc = new Map<string, QueryMatch[]>();
    let room = limit ? Math.max(0, limit.maxPairs) : Infinity;
    const push = (p: string, s: SectionFingerprint, t: SectionFingerprint, d: number) => {
      room--;
      const m: QueryMatch = {
        kind: 'section',
        self: { startLine: s.startLine, endLine: s.endLine },
        other: { path: p, startLine: t.startLine, endLine: t.endLine },
        distance: d,
        similarity: similarity(d),
        clone: cloneKind(s, t),
      };
      const list = perDoc.get(p);
      if (list) list.push(m);
      else perDoc.set(p, [m]);
    };
    // Within the document: non-overlapping sections, each pair once (the earlier one as `self`).
    const own = doc.sections;
    if (own.length > 1) {
      const fp = new Uint32Array(own.length * 2);
      for (let i = 0; i < own.length; i++) {
        fp[2 * i] = own[i].hi;
        fp[2 * i + 1] = own[i].lo;
      }
      const pairs = allPairsBatch(fp, sectionMaxDistance, {
        accept: (a, b) => {
          const s = own[a];
          const t = own[b];
          if (!(s.endLine < t.startLine || t.endLine < s.startLine)) return false;
          return confirmed(s, t, minSimilarity, SECTION_SKETCH_SIZE);
        },
        maxPairs: limit ? room : undefined,
      });
      if (pairs.truncated) limit!.truncated = true;
      for (let i = 0; i < pairs.length; i++) {
        const s = own[pairs.a[i]];
        const t = own[pairs.b[i]];
        if (s.startLine < t.startLine) push(selfPath, s, t, pairs.distance[i]);
        else push(selfPath, t, s, pairs.distance[i]);
      }
    }
    const neighbours = source.sectionNeighbours(own, sectionMaxDistance);
    for (let i = 0; i < own.length && !limit?.truncated; i++) {
      const s = own[i];
      for (const n of neighbours[i]) {
        const p = n.path;
        if (p === selfPath || paired.has(p) || (exclude && exclude(p))) continue;
        if (!confirmed(s, n.section, minSimilarity, SECTION_SKETCH_SIZE)) continue;
        if (room <= 0) {
          limit!.truncated = true;
          break;
        }
        push(p, s, n.section, n.distance);
      }
    }
    for (const list of perDoc.values()) for (const m of dropNested(list)) sectionMatches.push(m);
  }
  const all = fileMatches.concat(sectionMatches);
  all.sort(compareMatches);
  return all;
}

function confirmed(a: ItemFingerprint, b: ItemFingerprint, minSimilarity: number, sketchSize: number): boolean {
  return minSimilarity <= 0 || estimateJaccard(a.sketch, b.sketch, sketchSize) >= minSimilarity;
}

/** Closest first; files before sections; then by the other location, then by the own one: a total order. */
function compareMatches(a: QueryMatch, b: QueryMatch): number {
  return (
    a.distance - b.distance ||
    (a.kind === b.kind ? 0 : a.kind === 'file' ? -1 : 1) ||
    (a.other.path < b.other.path ? -1 : a.other.path > b.other.path ? 1 : 0) ||
    (a.other.startLine ?? 0) - (b.other.startLine ?? 0) ||
    (a.other.endLine ?? 0) - (b.other.endLine ?? 0) ||
    (a.self?.startLine ?? 0) - (b.self?.startLine ?? 0) ||
    (a.self?.endLine ?? 0) - (b.self?.endLine ?? 0)
  );
}

/**
 * Of section pairs between the same two files, keep only those not nested in a larger pair: a
 * pair is dropped when an accepted pair (larger ones are decided first) joins a range holding its
 * own range with a range holding its twin's. Only ranges that occur in the list can be in an
 * accepted pair, so the containers of each range are looked up among those (a sweep), and each
 * pair is checked against its few containers' pairs: linear in the pairs, as sections nest a few
 * levels at most (checking every accepted pair was quadratic: 400,000 pairs of one generated file
 * took minutes).
 */
function dropNested(list: QueryMatch[]): QueryMatch[] {
  if (list.length < 2) return list;
  const span = (m: QueryMatch) => m.self!.endLine - m.self!.startLine + m.other.endLine! - m.other.startLine!;
  const sorted = [...list].sort((a, b) => span(b) - span(a));
  const selfRanges = new RangeSet();
  const otherRanges = new RangeSet();
  const selfOf = sorted.map((m) => selfRanges.add(m.self!.startLine, m.self!.endLine));
  const otherOf = sorted.map((m) => otherRanges.add(m.other.startLine!, m.other.endLine!));
  const selfContainers = selfRanges.containers();
  const otherContainers = otherRanges.containers();
  const n = otherRanges.size;
  const accepted = new Set<number>(); // self range * n + other range
  const kept: QueryMatch[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const cs = selfContainers[selfOf[i]];
    const co = otherContainers[otherOf[i]];
    let nested = false;
    for (let x = 0; x < cs.length && !nested; x++) {
      for (let y = 0; y < co.length; y++) {
        if (accepted.has(cs[x] * n + co[y])) {
          nested = true;
          break;
        }
      }
    }
    if (!nested) {
      accepted.add(selfOf[i] * n + otherOf[i]);
      kept.push(sorted[i]);
    }
  }
  return kept;
}

/** Distinct line ranges, numbered as added. */
class RangeSet {
  private readonly ids = new Map<number | string, number>();
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  get size(): number {
    return this.starts.length;
  }

  add(startLine: number, endLine: number): number {
    // Exact as one number while startLine < 2^21; a notebook's cell lines (core/containers/cellLines.ts) reach 2^32.
    const key = startLine < 0x200000 ? startLine * 0x100000000 + endLine : `${startLine}:${endLine}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.starts.length;
      this.ids.set(key, id);
      this.starts.push(startLine);
      this.ends.push(endLine);
    }
    return id;
  }

  /** For each range, the ranges of the set that hold it (itself included). */
  containers(): number[][] {
    const { starts, ends } = this;
    const out: number[][] = new Array(starts.length);
    forEachContainers(
      starts.map((_, i) => i),
      (i) => starts[i],
      (i) => ends[i],
      (i, c) => (out[i] = c),
    );
    return out;
  }
}
