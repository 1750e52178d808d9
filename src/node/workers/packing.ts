/**
 * Fingerprints and pairs packed into a few typed arrays for messages between threads: one
 * transfer (no copy) instead of the structured clone of thousands of small objects, each sketch
 * an ArrayBuffer of its own. The unpacked sketches are views into the received buffer.
 */
import type { MatchedList } from '../../core/report/compare';
import type { DocumentFingerprint, ItemFingerprint, SectionFingerprint } from '../../core/types';
import { idsDerived, normalizedStream, regionBufferDocument, regionBufferOffsets, type RegionBuffer, type RegionDocument } from '../../core/regions/document';
import type { CjkSegmenterInUse, FileOutcome } from './fileOutcome';

// ------------------------------------------------------------------------------ outcomes

/** The outcomes of a batch of files, in the order of the request's files. */
export interface PackedOutcomes {
  packed: 'outcomes';
  /** Per file, {@link HEADER} words: status, bytes, kind, string, has file item, sections, lines + 1 (0: not known). */
  header: Uint32Array;
  /** Per item (the file's, then its sections), {@link ITEM} words: hi, lo, tokens, features, sketch length, start line, end line, rawHi, rawLo, normHi, normLo. */
  items: Uint32Array;
  /** The items' sketches, one after another. */
  sketches: Uint32Array;
  /** Encodings and reasons, referred to by the header. */
  strings: string[];
  /** Region documents of the files that have one (asked for with `regions`). */
  regions?: PackedRegions;
  /** The worker that made them: its thread id, and what it segments Chinese with after the batch (diagnostics). */
  worker?: { thread: number; cjk: CjkSegmenterInUse };
}

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
function regionsOf(outcomes: readonly FileOutcome[], owned: boolean): { docs: Array<RegionDocument | undefined>; own: Array<RegionBuffer | null> } {
  const docs: Array<RegionDocument | undefined> = new Array(outcomes.length);
  const own: Array<RegionBuffer | null> = new Array(outcomes.length).fill(null);
  outcomes.forEach((o, f) => {
    if (!o.ok) return;
    const b = o.regionBuffer;
    own[f] = owned ? (b ?? (o.region ? ownBuffer(o.region) : null)) : null;
    if (!own[f]) docs[f] = b ? regionBufferDocument(b) : o.region;
  });
  return { docs, own };
}

function packRegions(outcomes: readonly FileOutcome[], owned: boolean): PackedRegions | undefined {
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
  // jobs, node/scan/regionJobs.ts) without copying them.
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
function unpackRegions(r: PackedRegions, files: number): Array<RegionDocument | undefined> {
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

const HEADER = 7;
const ITEM = 11;
const OK = 0;
const FAILED = 1;
const RETRY_CJK = 2;

/**
 * The outcomes of a batch, packed. `ownedRegions`: the receiver keeps the region documents for
 * itself (hands them to no other thread), so those in a buffer of their own are transferred as
 * they are rather than copied onto shared memory.
 */
export function packOutcomes(outcomes: readonly FileOutcome[], options: { ownedRegions?: boolean } = {}): PackedOutcomes {
  let items = 0;
  let sketchWords = 0;
  for (const o of outcomes) {
    if (!o.ok) continue;
    const { file, sections } = o.doc;
    if (file) {
      items++;
      sketchWords += file.sketch.length;
    }
    items += sections.length;
    for (const s of sections) sketchWords += s.sketch.length;
  }
  const header = new Uint32Array(outcomes.length * HEADER);
  const itemWords = new Uint32Array(items * ITEM);
  const sketches = new Uint32Array(sketchWords);
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const intern = (s: string): number => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };
  let it = 0;
  let sk = 0;
  const putItem = (fp: ItemFingerprint, startLine: number, endLine: number) => {
    itemWords[it] = fp.hi;
    itemWords[it + 1] = fp.lo;
    itemWords[it + 2] = fp.tokens;
    itemWords[it + 3] = fp.features;
    itemWords[it + 4] = fp.sketch.length;
    itemWords[it + 5] = startLine;
    itemWords[it + 6] = endLine;
    itemWords[it + 7] = fp.rawHi;
    itemWords[it + 8] = fp.rawLo;
    itemWords[it + 9] = fp.normHi;
    itemWords[it + 10] = fp.normLo;
    it += ITEM;
    sketches.set(fp.sketch, sk);
    sk += fp.sketch.length;
  };
  for (let f = 0; f < outcomes.length; f++) {
    const o = outcomes[f];
    const h = f * HEADER;
    if (!o.ok) {
      header[h] = o.retry === 'cjk' ? RETRY_CJK : FAILED;
      header[h + 1] = o.retry === 'cjk' ? (o.cjkChars ?? 0) : 0;
      header[h + 3] = intern(o.reason);
      continue;
    }
    const { kind, file, sections } = o.doc;
    header[h] = OK;
    header[h + 1] = o.bytes;
    header[h + 2] = kind === 'code' ? 0 : 1;
    header[h + 3] = intern(o.encoding);
    header[h + 4] = file ? 1 : 0;
    header[h + 5] = sections.length;
    header[h + 6] = o.lines === undefined ? 0 : o.lines + 1;
    if (file) putItem(file, 0, 0);
    for (const s of sections) putItem(s, s.startLine, s.endLine);
  }
  const regions = packRegions(outcomes, options.ownedRegions === true);
  return { packed: 'outcomes', header, items: itemWords, sketches, strings, ...(regions ? { regions } : {}) };
}

/** The outcomes of {@link packOutcomes}; `relPaths` are the request's, in its order. */
export function unpackOutcomes(p: PackedOutcomes, relPaths: readonly string[]): FileOutcome[] {
  const { header, items, sketches, strings } = p;
  const out: FileOutcome[] = new Array(relPaths.length);
  const regions = p.regions ? unpackRegions(p.regions, relPaths.length) : undefined;
  let it = 0;
  let sk = 0;
  const item = (): ItemFingerprint => {
    const len = items[it + 4];
    const fp: ItemFingerprint = {
      hi: items[it],
      lo: items[it + 1],
      tokens: items[it + 2],
      features: items[it + 3],
      sketch: sketches.subarray(sk, sk + len),
      rawHi: items[it + 7],
      rawLo: items[it + 8],
      normHi: items[it + 9],
      normLo: items[it + 10],
    };
    it += ITEM;
    sk += len;
    return fp;
  };
  for (let f = 0; f < relPaths.length; f++) {
    const h = f * HEADER;
    const relPath = relPaths[f];
    const status = header[h];
    if (status !== OK) {
      out[f] =
        status === RETRY_CJK
          ? { relPath, ok: false, reason: strings[header[h + 3]], retry: 'cjk', cjkChars: header[h + 1] }
          : { relPath, ok: false, reason: strings[header[h + 3]] };
      continue;
    }
    const file = header[h + 4] === 1 ? item() : null;
    const sections: SectionFingerprint[] = new Array(header[h + 5]);
    for (let s = 0; s < sections.length; s++) {
      const startLine = items[it + 5];
      const endLine = items[it + 6];
      const fp = item();
      const { hi, lo, tokens, features, sketch, rawHi, rawLo, normHi, normLo } = fp;
      sections[s] = { hi, lo, tokens, features, sketch, rawHi, rawLo, normHi, normLo, startLine, endLine };
    }
    const doc: DocumentFingerprint = { kind: header[h + 2] === 0 ? 'code' : 'prose', file, sections };
    const region = regions?.[f];
    const ok: Extract<FileOutcome, { ok: true }> = { relPath, ok: true, bytes: header[h + 1], encoding: strings[header[h + 3]], doc };
    if (region) ok.region = region;
    if (header[h + 6] > 0) ok.lines = header[h + 6] - 1;
    out[f] = ok;
  }
  return out;
}

// ------------------------------------------------------------------------------ items and pairs

/** Region pairs packed (node/regions/regionJob.ts): 12 integers and 3 floats per pair. */
export interface PackedRegionPairs {
  packed: 'regionPairs';
  ints: Int32Array;
  floats: Float64Array;
  /** With `sides`: per pair side a's and b's trimmed start and the distance, then their keys. */
  sideInts?: Int32Array;
  sideKeys?: string[];
  chains: number;
  aligned: number;
}

/** Fingerprints to match elsewhere: (hi, lo, tokens, features) per item, and the sketches. */
export interface PackedItems {
  packed: 'items';
  fp: Uint32Array;
  /** Item i's sketch is sketches[offsets[i] … offsets[i + 1]). */
  offsets: Uint32Array;
  sketches: Uint32Array;
}

/** Words per item in PackedItems.fp: hi, lo, tokens, features, rawHi, rawLo, normHi, normLo. */
const PACKED_ITEM = 8;

export function packItems(items: readonly ItemFingerprint[]): PackedItems {
  const n = items.length;
  const fp = new Uint32Array(n * PACKED_ITEM);
  const offsets = new Uint32Array(n + 1);
  let words = 0;
  for (let i = 0; i < n; i++) {
    const x = items[i];
    const w = PACKED_ITEM * i;
    fp[w] = x.hi;
    fp[w + 1] = x.lo;
    fp[w + 2] = x.tokens;
    fp[w + 3] = x.features;
    fp[w + 4] = x.rawHi;
    fp[w + 5] = x.rawLo;
    fp[w + 6] = x.normHi;
    fp[w + 7] = x.normLo;
    offsets[i] = words;
    words += x.sketch.length;
  }
  offsets[n] = words;
  const sketches = new Uint32Array(words);
  for (let i = 0; i < n; i++) sketches.set(items[i].sketch, offsets[i]);
  return { packed: 'items', fp, offsets, sketches };
}

export function unpackItems(p: PackedItems): ItemFingerprint[] {
  const n = p.offsets.length - 1;
  const out: ItemFingerprint[] = new Array(Math.max(0, n));
  for (let i = 0; i < n; i++) {
    const w = PACKED_ITEM * i;
    out[i] = {
      hi: p.fp[w],
      lo: p.fp[w + 1],
      tokens: p.fp[w + 2],
      features: p.fp[w + 3],
      sketch: p.sketches.subarray(p.offsets[i], p.offsets[i + 1]),
      rawHi: p.fp[w + 4],
      rawLo: p.fp[w + 5],
      normHi: p.fp[w + 6],
      normLo: p.fp[w + 7],
    };
  }
  return out;
}

/** Matched pairs (as matchPairList gives them), in their order. */
export interface PackedPairs extends MatchedList {
  packed: 'pairs';
}

export function packPairs(list: MatchedList): PackedPairs {
  const n = list.length;
  // Own buffers of exactly the pairs (the list's arrays may be views into larger ones).
  return {
    packed: 'pairs',
    length: n,
    a: list.a.slice(0, n),
    b: list.b.slice(0, n),
    distance: list.distance.slice(0, n),
    truncated: list.truncated,
  };
}

export function unpackPairs(p: PackedPairs): MatchedList {
  return { length: p.length, a: p.a, b: p.b, distance: p.distance, truncated: p.truncated };
}

/** The buffers to transfer with a packed message (none for anything else). */
export function transferablesOf(res: unknown): ArrayBuffer[] {
  if (!res || typeof res !== 'object' || !('packed' in res)) return [];
  const r = res as PackedOutcomes | PackedItems | PackedPairs | PackedRegionPairs;
  switch (r.packed) {
    case 'outcomes': {
      // The region documents are on shared memory: shared, not transferred; those in buffers of their own are.
      return [r.header.buffer, r.items.buffer, r.sketches.buffer, ...(r.regions?.owned ?? [])] as ArrayBuffer[];
    }
    case 'items':
      return [r.fp.buffer, r.offsets.buffer, r.sketches.buffer] as ArrayBuffer[];
    case 'pairs':
      return [r.a.buffer, r.b.buffer, r.distance.buffer] as ArrayBuffer[];
    case 'regionPairs':
      return [r.ints.buffer, r.floats.buffer, ...(r.sideInts ? [r.sideInts.buffer] : [])] as ArrayBuffer[];
  }
  return [];
}
