/**
 * The region documents of a batch of outcomes packed for a message between threads (packing.ts
 * packs the rest of the outcomes around them): on shared memory the receiver can hand on, or the
 * kernel's own buffers transferred as they are to a receiver that keeps them.
 */
import { idsDerived, normalizedStream, regionBufferDocument, regionBufferOffsets, type RegionBuffer, type RegionDocument } from '../../core/regions/document';
import type { PackableOutcome } from './fileOutcome';

/**
 * Region documents (core/regions) of a batch: per file {@link REGION_HEADER} words (has one, kind,
 * tokens, lines, has identifier streams, has report lines, has prose tokens, anchors + 1 or 0), then every document's arrays one after
 * another — except the documents in a buffer of their own (`owned`).
 */
export interface PackedRegions {
  header: Int32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  idsHi: Uint32Array;
  idsLo: Uint32Array;
  isIdent: Uint8Array;
  start: Int32Array;
  lineStarts: Int32Array;
  /** The reportLines of the documents that have them (notebooks), one after another. */
  reportLines: Int32Array;
  /** The proseTokens of the documents that have them, one after another. */
  proseTokens: Uint8Array;
  /** The anchors (hash, position) of the documents that have them, one after another. */
  anchorHash: Uint32Array;
  anchorPos: Int32Array;
  /**
   * Packed with `owned` (the receiver keeps the documents, never shares them): the buffers of the
   * lean code documents the kernel made (core/regions/document.ts RegionBuffer, its layout),
   * transferred as they are instead of copied; has-one word 2 in the header.
   */
  owned?: ArrayBuffer[];
}

const REGION_HEADER = 8;

/**
 * A lean code document (core/regions/document.ts leanDocument: without `ids`, as the kernel makes
 * them) as the RegionBuffer it is a view of: its arrays in one ArrayBuffer (not shared) that holds
 * exactly them in RegionBuffer's layout; else null (the document is copied: any other, a document
 * whose `ids` were made included).
 */
function ownBuffer(g: RegionDocument): RegionBuffer | null {
  if (!idsDerived(g) || !g.isIdent || !g.anchors || g.reportLines || g.proseTokens) return null;
  const arrays = [g.raw.hi, g.raw.lo, g.start, g.lineStarts, g.anchors.hash, g.anchors.pos, g.isIdent];
  const b = { buffer: g.raw.hi.buffer as ArrayBuffer, length: g.length, lines: g.lineStarts.length, anchors: g.anchors.hash.length };
  if (!(b.buffer instanceof ArrayBuffer) || g.raw.hi.length !== g.length || g.isIdent.length !== g.length || g.anchors.pos.length !== b.anchors) return null;
  const at = regionBufferOffsets(b);
  const fits = arrays.every((a, i) => a.buffer === b.buffer && a.byteOffset === at[i]);
  return fits && at[6] + g.length === b.buffer.byteLength ? b : null;
}

/**
 * Frees now the memory of a region document nothing will read again, when the document is the
 * whole of an ArrayBuffer of its own (a kernel-made one, {@link ownBuffer}): `release` detaches
 * that buffer (the addon's releaseBuffer), and the document's arrays are empty afterwards.
 * Documents on arrays they share with others (packed, on shared memory) wait for the garbage
 * collector. True when released.
 */
export function releaseRegionDocument(g: RegionDocument, release: ((buffer: ArrayBuffer) => boolean) | undefined): boolean {
  const b = release ? ownBuffer(g) : null;
  return b !== null && release!(b.buffer);
}

type SharedArray = Int32Array | Uint32Array | Uint8Array;
type SharedCtor = { new (buffer: SharedArrayBuffer, byteOffset: number, length: number): SharedArray; BYTES_PER_ELEMENT: number };

/**
 * Typed arrays of the given lengths carved out of one SharedArrayBuffer (each at an offset aligned
 * to 8 bytes): one allocation per batch instead of one per array.
 */
function carve<K extends keyof PackedRegions>(spec: Record<K, [SharedCtor, number]>): PackedRegions {
  let bytes = 0;
  for (const [Ctor, n] of Object.values(spec) as Array<[SharedCtor, number]>) bytes += (n * Ctor.BYTES_PER_ELEMENT + 7) & ~7;
  const buffer = new SharedArrayBuffer(bytes);
  const out: Record<string, SharedArray> = {};
  let at = 0;
  for (const [key, [Ctor, n]] of Object.entries(spec) as Array<[string, [SharedCtor, number]]>) {
    out[key] = new Ctor(buffer, at, n);
    at += (n * Ctor.BYTES_PER_ELEMENT + 7) & ~7;
  }
  return out as unknown as PackedRegions;
}

/** A batch's documents: those sent in their own buffer (`owned`: a kernel's RegionBuffer, or ownBuffer's), the others copied (`docs`). */
function regionsOf(outcomes: readonly PackableOutcome[], owned: boolean): { docs: Array<RegionDocument | undefined>; own: Array<RegionBuffer | null> } {
  const docs: Array<RegionDocument | undefined> = new Array(outcomes.length);
  const own: Array<RegionBuffer | null> = new Array(outcomes.length).fill(null);
  outcomes.forEach((o, f) => {
    if (!o.ok) return;
    const b = o.regionBuffer;
    const region = 'region' in o ? o.region : undefined;
    // (a prose document is copied: the owned ones are lean code documents, which releaseRegionDocument frees)
    own[f] = owned ? (b && !b.prose ? b : region ? ownBuffer(region) : null) : null;
    if (!own[f]) docs[f] = b ? regionBufferDocument(b) : region;
  });
  return { docs, own };
}

export function packRegions(outcomes: readonly PackableOutcome[], owned: boolean): PackedRegions | undefined {
  const { docs, own } = regionsOf(outcomes, owned);
  let tokens = 0;
  let ids = 0;
  let lines = 0;
  let reported = 0;
  let prose = 0;
  let anchors = 0;
  let any = false;
  let owners = 0;
  for (let f = 0; f < outcomes.length; f++) {
    const g = docs[f];
    if (own[f]) owners++;
    if (own[f] || g) any = true;
    if (!g) continue;
    tokens += g.length;
    if (idsDerived(g) || g.ids) ids += g.length;
    lines += g.lineStarts.length;
    reported += g.reportLines?.length ?? 0;
    prose += g.proseTokens ? g.length : 0;
    anchors += g.anchors?.hash.length ?? 0;
  }
  if (!any) return undefined;
  // On shared memory: the main thread hands the documents on to every worker (the region finder's
  // jobs, node/locate/regionJobs.ts) without copying them.
  const r = carve({
    header: [Int32Array, outcomes.length * REGION_HEADER],
    hi: [Uint32Array, tokens],
    lo: [Uint32Array, tokens],
    idsHi: [Uint32Array, ids],
    idsLo: [Uint32Array, ids],
    start: [Int32Array, tokens],
    lineStarts: [Int32Array, lines],
    reportLines: [Int32Array, reported],
    anchorHash: [Uint32Array, anchors],
    anchorPos: [Int32Array, anchors],
    isIdent: [Uint8Array, ids],
    proseTokens: [Uint8Array, prose],
  });
  if (owners > 0) r.owned = [];
  let pt = 0;
  let an = 0;
  let t = 0;
  let d = 0;
  let l = 0;
  let rl = 0;
  for (let f = 0; f < outcomes.length; f++) {
    const h = f * REGION_HEADER;
    const o = own[f];
    if (o) {
      r.header[h] = 2;
      r.header[h + 2] = o.length;
      r.header[h + 3] = o.lines;
      r.header[h + 7] = o.anchors + 1;
      r.owned!.push(o.buffer);
      continue;
    }
    const g = docs[f];
    if (!g) continue;
    r.header[h] = 1;
    r.header[h + 1] = g.kind === 'code' ? 0 : 1;
    r.header[h + 2] = g.length;
    r.header[h + 3] = g.lineStarts.length;
    const lean = idsDerived(g); // its normalised stream made here, onto the shared arrays (not on the document)
    r.header[h + 4] = lean || g.ids ? 1 : 0;
    r.header[h + 5] = g.reportLines ? 1 : 0;
    r.header[h + 6] = g.proseTokens ? 1 : 0;
    r.header[h + 7] = g.anchors ? g.anchors.hash.length + 1 : 0;
    if (g.anchors) {
      r.anchorHash.set(g.anchors.hash, an);
      r.anchorPos.set(g.anchors.pos, an);
      an += g.anchors.hash.length;
    }
    if (g.proseTokens) {
      r.proseTokens.set(g.proseTokens.subarray(0, g.length), pt);
      pt += g.length;
    }
    if (g.reportLines) {
      r.reportLines.set(g.reportLines, rl);
      rl += g.reportLines.length;
    }
    r.hi.set(g.raw.hi.subarray(0, g.length), t);
    r.lo.set(g.raw.lo.subarray(0, g.length), t);
    r.start.set(g.start.subarray(0, g.length), t);
    t += g.length;
    if (lean || (g.ids && g.isIdent)) {
      const ids = lean ? normalizedStream(g.raw, g.isIdent!, g.length) : g.ids!;
      r.idsHi.set(ids.hi.subarray(0, g.length), d);
      r.idsLo.set(ids.lo.subarray(0, g.length), d);
      r.isIdent.set(g.isIdent!.subarray(0, g.length), d);
      d += g.length;
    }
    r.lineStarts.set(g.lineStarts, l);
    l += g.lineStarts.length;
  }
  return r;
}

/** The region documents of {@link packRegions}, as views into its arrays (no copy), by file. */
export function unpackRegions(r: PackedRegions, files: number): Array<RegionDocument | undefined> {
  const out: Array<RegionDocument | undefined> = new Array(files);
  let t = 0;
  let d = 0;
  let l = 0;
  let rl = 0;
  let pt = 0;
  let an = 0;
  let ow = 0;
  for (let f = 0; f < files; f++) {
    const h = f * REGION_HEADER;
    if (r.header[h] === 2) {
      // A lean code document in its own buffer (kernel-made): its views.
      out[f] = regionBufferDocument({ buffer: r.owned![ow++], length: r.header[h + 2], lines: r.header[h + 3], anchors: r.header[h + 7] - 1 });
      continue;
    }
    if (r.header[h] !== 1) continue;
    const n = r.header[h + 2];
    const lines = r.header[h + 3];
    const withIds = r.header[h + 4] === 1;
    out[f] = {
      kind: r.header[h + 1] === 0 ? 'code' : 'prose',
      length: n,
      raw: { hi: r.hi.subarray(t, t + n), lo: r.lo.subarray(t, t + n) },
      ids: withIds ? { hi: r.idsHi.subarray(d, d + n), lo: r.idsLo.subarray(d, d + n) } : null,
      isIdent: withIds ? r.isIdent.subarray(d, d + n) : null,
      start: r.start.subarray(t, t + n),
      lineStarts: r.lineStarts.subarray(l, l + lines),
    };
    if (r.header[h + 5] === 1) {
      out[f]!.reportLines = r.reportLines.subarray(rl, rl + lines);
      rl += lines;
    }
    if (r.header[h + 6] === 1) {
      out[f]!.proseTokens = r.proseTokens.subarray(pt, pt + n);
      pt += n;
    }
    if (r.header[h + 7] > 0) {
      const m = r.header[h + 7] - 1;
      out[f]!.anchors = { hash: r.anchorHash.subarray(an, an + m), pos: r.anchorPos.subarray(an, an + m) };
      an += m;
    }
    t += n;
    if (withIds) d += n;
    l += lines;
  }
  return out;
}
