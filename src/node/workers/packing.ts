/**
 * Fingerprints and pairs packed into a few typed arrays for messages between threads: one
 * transfer (no copy) instead of the structured clone of thousands of small objects, each sketch
 * an ArrayBuffer of its own. The unpacked sketches are views into the received buffer.
 */
import type { MatchedList } from '../../core/report/compare';
import { HeadWord, type DocumentFingerprint, type HeadPlace, type ItemFingerprint, type SectionFingerprint, type SketchPlace } from '../../core/types';
import type { CjkSegmenterInUse, FileOutcome, KernelWordsOutcome, PackableOutcome } from './fileOutcome';
import { packRegions, unpackRegions, type PackedRegions } from './regionPacking';

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

const HEADER = 7;
const ITEM = 11;
/** Kernel words (CodeKernel.fingerprint's layout): the file's head (hi lo tokens features rawHi rawLo normHi normLo n), a section's (startLine endLine, then the same). */
const FILE_HEAD = 9;
const SECTION_HEAD = 11;

/**
 * Calls `item` for each item of kernel words, the file's (when any) then one per section: where its
 * head's hi is (then lo tokens features rawHi rawLo normHi normLo), where its sketch of n words is,
 * and its lines (0 0 for the file's).
 */
function forEachWordItem(w: Uint32Array, item: (at: number, sketchAt: number, n: number, startLine: number, endLine: number) => void): void {
  if (w.length === 0) return;
  item(0, FILE_HEAD, w[8], 0, 0);
  for (let at = FILE_HEAD + w[8]; at < w.length; at += SECTION_HEAD + w[at + 10]) item(at + 2, at + SECTION_HEAD, w[at + 10], w[at], w[at + 1]);
}

/** The items of kernel words: the file's (when any), then one per section. */
function itemsOfWords(w: Uint32Array): number {
  let items = 0;
  forEachWordItem(w, () => items++);
  return items;
}
const OK = 0;
const FAILED = 1;
const RETRY_CJK = 2;

/**
 * The outcomes of a batch, packed. `ownedRegions`: the receiver keeps the region documents for
 * itself (hands them to no other thread), so those in a buffer of their own are transferred as
 * they are rather than copied onto shared memory.
 */
export function packOutcomes(outcomes: readonly PackableOutcome[], options: { ownedRegions?: boolean } = {}): PackedOutcomes {
  let items = 0;
  let sketchWords = 0;
  for (const o of outcomes) {
    if (!o.ok) continue;
    if ('words' in o) {
      const n = itemsOfWords(o.words);
      items += n;
      if (n > 0) sketchWords += o.words.length - FILE_HEAD - (n - 1) * SECTION_HEAD;
      continue;
    }
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
  /** An item from kernel words: its hi at `at` (then lo tokens features rawHi rawLo normHi normLo), its sketch of n words at `sketchAt`. */
  const putWords = (w: Uint32Array, at: number, sketchAt: number, n: number, startLine: number, endLine: number) => {
    itemWords[it] = w[at];
    itemWords[it + 1] = w[at + 1];
    itemWords[it + 2] = w[at + 2];
    itemWords[it + 3] = w[at + 3];
    itemWords[it + 4] = n;
    itemWords[it + 5] = startLine;
    itemWords[it + 6] = endLine;
    itemWords[it + 7] = w[at + 4];
    itemWords[it + 8] = w[at + 5];
    itemWords[it + 9] = w[at + 6];
    itemWords[it + 10] = w[at + 7];
    it += ITEM;
    sketches.set(w.subarray(sketchAt, sketchAt + n), sk);
    sk += n;
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
    if ('words' in o) {
      header[h] = OK;
      header[h + 1] = o.bytes;
      header[h + 3] = intern(o.encoding);
      header[h + 2] = o.prose ? 1 : 0;
      header[h + 6] = o.lines + 1;
      const w = o.words;
      if (w.length === 0) continue; // no item
      header[h + 4] = 1;
      let items = 0;
      forEachWordItem(w, (at, sketchAt, n, startLine, endLine) => {
        putWords(w, at, sketchAt, n, startLine, endLine);
        items++;
      });
      header[h + 5] = items - 1;
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

/**
 * An item of kernel words (its head at `headAt`: hi lo tokens features rawHi rawLo normHi normLo,
 * its sketch of `sketchLength` words at `sketchAt`), read through getters: one small object of small
 * integers per item rather than a record of nine fields, a view for its sketch and a heap number for each
 * of its 32-bit hashes over 2^31 (five objects, ~250 bytes, most of what a scan's main thread keeps
 * from its batches until the report: what its collector copied and what fresh memory it touched).
 * Measured on the small bench tree: 10 % fewer page faults and 4 % less CPU (issue 16; bench/README).
 * Read-only, and not a plain object: a structured clone or a spread of one holds none of its fields
 * (the scan's documents are read field by field; {@link plainItem} copies one).
 */
class WordsItem implements ItemFingerprint, SketchPlace, HeadPlace {
  constructor(
    /** The file's words (the sketch's place: {@link SketchPlace}). */
    readonly sketchWords: Uint32Array,
    /** Where its head lies in the words ({@link HeadPlace}). */
    readonly headAt: number,
    readonly sketchAt: number,
    readonly sketchLength: number,
  ) {}
  get hi(): number {
    return this.sketchWords[this.headAt]; // (HeadWord.hi: 0)
  }
  get lo(): number {
    return this.sketchWords[this.headAt + HeadWord.lo];
  }
  get tokens(): number {
    return this.sketchWords[this.headAt + HeadWord.tokens];
  }
  get features(): number {
    return this.sketchWords[this.headAt + HeadWord.features];
  }
  get rawHi(): number {
    return this.sketchWords[this.headAt + HeadWord.rawHi];
  }
  get rawLo(): number {
    return this.sketchWords[this.headAt + HeadWord.rawLo];
  }
  get normHi(): number {
    return this.sketchWords[this.headAt + HeadWord.normHi];
  }
  get normLo(): number {
    return this.sketchWords[this.headAt + HeadWord.normLo];
  }
  /** A view into the words (a new one at each read; a reader of many takes {@link SketchPlace} instead). */
  get sketch(): Uint32Array {
    return this.sketchWords.subarray(this.sketchAt, this.sketchAt + this.sketchLength);
  }
}

/** A section of kernel words, with its lines (the two words before its head). */
class WordsSection extends WordsItem implements SectionFingerprint {
  constructor(
    sketchWords: Uint32Array,
    headAt: number,
    sketchAt: number,
    sketchLength: number,
    readonly startLine: number,
    readonly endLine: number,
  ) {
    super(sketchWords, headAt, sketchAt, sketchLength);
  }
}

/** An item's fields as a plain object (a copy of its sketch; a section's lines too), whatever made it: for a clone or a comparison. */
export function plainItem(fp: ItemFingerprint): ItemFingerprint & Partial<SectionFingerprint> {
  const { hi, lo, tokens, features, rawHi, rawLo, normHi, normLo } = fp;
  const out: ItemFingerprint & Partial<SectionFingerprint> = { hi, lo, tokens, features, sketch: fp.sketch.slice(), rawHi, rawLo, normHi, normLo };
  const { startLine, endLine } = fp as Partial<SectionFingerprint>;
  if (startLine !== undefined) Object.assign(out, { startLine, endLine });
  return out;
}

/** A document's fingerprints as plain objects ({@link plainItem}): for a structured clone or a comparison. */
export function plainDocument(doc: DocumentFingerprint): DocumentFingerprint {
  return { kind: doc.kind, file: doc.file ? plainItem(doc.file) : null, sections: doc.sections.map((s) => plainItem(s) as SectionFingerprint) };
}

/**
 * The outcomes of kernel words made on this thread (the scan's batches on the addon's threads):
 * what {@link unpackOutcomes} of their {@link packOutcomes} gives, without the packing's copy (the
 * items read the words: {@link WordsItem}). `ownedRegions` as packOutcomes'.
 */
export function outcomesOfWords(outcomes: readonly KernelWordsOutcome[], options: { ownedRegions?: boolean } = {}): FileOutcome[] {
  let withRegions = false;
  for (const o of outcomes) withRegions ||= o.regionBuffer !== undefined;
  const packedRegions = withRegions ? packRegions(outcomes, options.ownedRegions === true) : undefined;
  const regions = packedRegions ? unpackRegions(packedRegions, outcomes.length) : undefined;
  const out: FileOutcome[] = new Array(outcomes.length);
  for (let f = 0; f < outcomes.length; f++) {
    const o = outcomes[f];
    const w = o.words;
    let file: ItemFingerprint | null = null;
    const sections: SectionFingerprint[] = new Array(Math.max(0, itemsOfWords(w) - 1));
    let s = 0;
    forEachWordItem(w, (i, sketchAt, n, startLine, endLine) => {
      if (i === 0) file = new WordsItem(w, 0, sketchAt, n);
      else sections[s++] = new WordsSection(w, i, sketchAt, n, startLine, endLine);
    });
    const doc: DocumentFingerprint = { kind: o.prose ? 'prose' : 'code', file, sections };
    const ok: Extract<FileOutcome, { ok: true }> = { relPath: o.relPath, ok: true, bytes: o.bytes, encoding: o.encoding, doc };
    const region = regions?.[f];
    if (region) ok.region = region;
    ok.lines = o.lines;
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
