/**
 * Edited copies of whole files, from the regions found: two documents whose region pairs hold at
 * least `cover` of the tokens of each are one copy of a file (the CLI's located file pairs).
 *
 * The index's postings cap (boilerplate) counts postings: a file copied many times over (a file
 * with its edited copies at several versions) has its own k-grams dropped as boilerplate (ten
 * copies holding a k-gram three times are 30 postings), and the regions of each of its pairs come
 * out in pieces, holding a fraction of the files. So a pair of documents whose regions hold at
 * least `searchCover` of each (but not `cover`) is searched again on its own: the two documents
 * alone in an index, with the anchors whose hash is in more *documents* of the corpus than the
 * cap left out (boilerplate shared by many files — npm's config paragraphs, rxjs's operator
 * docs — stays out; a k-gram of ten copies of one file is back), and judged on those regions.
 * Pure and deterministic.
 */
import { defaultAnchors, findRegions, resolveRegionOptions, type RegionOptions, type RegionPair } from './regions';
import type { RegionDocument } from './document';

/** Regions holding at least this share of the tokens of both documents make them a copy of a file. */
export const FILE_COVER = 0.6;
/** Pairs of documents whose regions hold at least this share of both (under FILE_COVER) are searched again alone. */
export const SEARCH_COVER = 0.2;
/** The postings cap of the second search (two documents): a k-gram more often in them is local repetition. */
export const SEARCH_MAX_POSTINGS = 8;
/**
 * The second search leaves out anchors whose hash is in more documents of the corpus than this
 * many times the postings cap (bench/quality, code: 1× kept look-alike operators out but also most
 * of ten copies of one file, 3× let npm's shared config paragraphs back in; 2× neither).
 */
const SEARCH_DOCS_FACTOR = 2;

export interface FileCopy {
  /** Documents, docA < docB. */
  docA: number;
  docB: number;
  /** Share of each document's tokens its regions hold (of the regions below). */
  coverA: number;
  coverB: number;
  /** The pair's regions, in the order found; side a in docA. */
  regions: RegionPair[];
  /** The regions come from the pair searched again alone (not those of the whole search). */
  searched: boolean;
}

export interface FileCopyOptions {
  /** Default FILE_COVER. */
  cover?: number;
  /** Default SEARCH_COVER; 1 or more: no second search. */
  searchCover?: number;
  /** Pairs of documents not judged (e.g. those the scan already pairs as files). */
  skipPair?: (docA: number, docB: number) => boolean;
  /** The region finder's options for the second search (a native kernel: the same regions, faster). */
  regions?: RegionOptions;
}

/** Share of `n` tokens the union of token ranges holds. */
export function coverOf(ranges: ReadonlyArray<readonly [number, number]>, n: number): number {
  const sorted = ranges.slice().sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = 0;
  for (const [s0, e0] of sorted) {
    const s1 = Math.max(s0, end);
    if (e0 > s1) covered += e0 - s1;
    end = Math.max(end, e0);
  }
  return n > 0 ? covered / n : 0;
}

/** A region pair with side a in `docA` (swapped when found the other way round). */
const oriented = (r: RegionPair, docA: number): RegionPair => (r.a.doc === docA ? r : { ...r, a: r.b, b: r.a });

/** The copies of whole files among the documents, given the region pairs found, ordered by (docA, docB). */
export function fileCopies(docs: readonly RegionDocument[], pairs: readonly RegionPair[], options: FileCopyOptions = {}): FileCopy[] {
  const cover = options.cover ?? FILE_COVER;
  const searchCover = options.searchCover ?? SEARCH_COVER;
  const byPair = new Map<number, RegionPair[]>();
  for (const r of pairs) {
    if (r.a.doc === r.b.doc) continue;
    const x = Math.min(r.a.doc, r.b.doc);
    const y = Math.max(r.a.doc, r.b.doc);
    if (options.skipPair?.(x, y)) continue;
    const k = x * 0x4000000 + y;
    const list = byPair.get(k);
    if (list) list.push(oriented(r, x));
    else byPair.set(k, [oriented(r, x)]);
  }
  const covers = (list: readonly RegionPair[], x: number, y: number): [number, number] => [
    coverOf(list.map((r) => [r.a.start, r.a.end] as const), docs[x].length),
    coverOf(list.map((r) => [r.b.start, r.b.end] as const), docs[y].length),
  ];
  // Distinct documents holding each anchor hash, and the anchors of a document without those over
  // the cap (made at the first second search).
  let docsOf: Map<number, number> | null = null;
  const o = resolveRegionOptions();
  const cap = Math.max(o.maxPostings, Math.min(o.maxPostingsCeiling, Math.floor(o.maxPostingsShare * docs.length)));
  const proseCap = Math.max(cap, Math.min(o.maxPostingsCeiling, Math.floor(o.proseMaxPostingsShare * docs.length)));
  const anchorsOf = (d: RegionDocument) => d.anchors ?? defaultAnchors(d);
  const withoutBoilerplate = (d: RegionDocument): RegionDocument => {
    if (!docsOf) {
      docsOf = new Map();
      for (const doc of docs) {
        if (doc.length < o.minTokens) continue;
        const hashes = anchorsOf(doc).hash.slice().sort();
        for (let i = 0; i < hashes.length; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) docsOf.set(hashes[i], (docsOf.get(hashes[i]) ?? 0) + 1);
      }
    }
    const a = anchorsOf(d);
    const limit = SEARCH_DOCS_FACTOR * (d.kind === 'prose' ? proseCap : cap);
    const keep: number[] = [];
    for (let i = 0; i < a.hash.length; i++) if (docsOf.get(a.hash[i])! <= limit) keep.push(i);
    return { ...d, anchors: { hash: Uint32Array.from(keep, (i) => a.hash[i]), pos: Int32Array.from(keep, (i) => a.pos[i]) } };
  };
  const out: FileCopy[] = [];
  for (const k of [...byPair.keys()].sort((p, q) => p - q)) {
    const list = byPair.get(k)!;
    const x = list[0].a.doc;
    const y = list[0].b.doc;
    const [ca, cb] = covers(list, x, y);
    if (ca >= cover && cb >= cover) {
      out.push({ docA: x, docB: y, coverA: ca, coverB: cb, regions: list, searched: false });
      continue;
    }
    if (ca < searchCover || cb < searchCover) continue;
    const again = findRegions([withoutBoilerplate(docs[x]), withoutBoilerplate(docs[y])], { ...options.regions, maxPostings: SEARCH_MAX_POSTINGS, selfMatches: false }).pairs.map((r) => {
      const o = oriented(r, 0);
      return { ...o, a: { ...o.a, doc: x }, b: { ...o.b, doc: y } };
    });
    const [sa, sb] = covers(again, x, y);
    if (sa >= cover && sb >= cover) out.push({ docA: x, docB: y, coverA: sa, coverB: sb, regions: again, searched: true });
  }
  return out;
}
