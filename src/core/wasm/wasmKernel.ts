/**
 * The WebAssembly kernel: the C kernel of native/ compiled to wasm/neardup_kernel.wasm
 * (scripts/build-wasm.js), instantiated from its bytes with no runtime and no imports, behind the
 * same CodeKernel interface as the Node-API addon and with the same results. Works from bytes (or
 * a compiled WebAssembly.Module) only: no file system, no Node built-ins, so the Node layer hands
 * it the file it read (src/node/workers/nativeKernel.ts) and a browser build can hand it the
 * module it fetched.
 *
 * The module's exports (native/wasm.c) take addresses in its linear memory: inputs are copied in
 * (a text as UTF-16 units, once per tokenize, by a TextWriter the host may speed up), results
 * copied out, and views of the memory are made after each call
 * (a call may grow the memory, which detaches the old buffer).
 */
import { unicodeWordTable } from '../text/tokenize';
import type { AnchorSeedsFound, CodeKernel, RegionBucketsFound } from '../types';

/**
 * The version of the kernel's interface (KERNEL_VERSION of native/fingerprint.h): a kernel of
 * another version (an addon or a .wasm built from other sources) is not used.
 */
export const KERNEL_VERSION = 11;

/** Counts below this get Math.log from the table handed to the kernel; it uses C's log above (never reached in practice). */
const LOG_TABLE_SIZE = 1 << 16;

/** What JavaScript's engine decides and the kernel must agree on: word characters and Math.log of counts. */
export function kernelTables(): { wordTable: Uint8Array; logTable: Float64Array } {
  const logTable = new Float64Array(LOG_TABLE_SIZE);
  for (let n = 1; n < LOG_TABLE_SIZE; n++) logTable[n] = Math.log(n);
  return { wordTable: unicodeWordTable(), logTable };
}

// The few WebAssembly declarations used here (the project's lib has no DOM / WebAssembly types).
interface WasmModule {
  readonly __wasmModule?: never;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array | ArrayBuffer) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
};

/** The exports of native/wasm.c (addresses and sizes are i32: read them with >>> 0). */
interface Exports {
  memory: { buffer: ArrayBuffer };
  nd_version(): number;
  nd_alloc(bytes: number): number;
  nd_free(ptr: number): void;
  nd_init(word: number, logs: number, nLogs: number): number;
  nd_define_language(spec: number, quoteAndRegex: number): number;
  nd_text_buffer(len: number): number;
  nd_tokenize(len: number, languageId: number, normalize: number): number;
  nd_fingerprint(k: number, tf: number, fileSketch: number, sectionSketch: number, minTokens: number, sections: number, out: number, outLen: number): number;
  nd_fingerprint_tokens(
    hi: number, lo: number, alt: number, n: number, altIsRaw: number, ranges: number, rangeCount: number,
    k: number, tf: number, fileSketch: number, sectionSketch: number, minTokens: number, out: number, outLen: number,
  ): number;
  nd_prose_tokens(len: number, out: number, outLen: number): number;
  nd_section_text_buffer(len: number): number;
  nd_code_sections(len: number, maxDepth: number, minLines: number): number;
  nd_sections(): number;
  nd_token_count(): number;
  nd_token_hi(): number;
  nd_token_lo(): number;
  nd_token_start(): number;
  nd_region(k: number, w: number, salt: number): number;
  nd_region_raw_hi(): number;
  nd_region_raw_lo(): number;
  nd_region_is_ident(): number;
  nd_region_line_count(): number;
  nd_region_lines(): number;
  nd_region_anchor_count(): number;
  nd_region_anchor_hash(): number;
  nd_region_anchor_pos(): number;
  nd_anchors(hi: number, lo: number, n: number, k: number, w: number, salt: number): number;
  nd_all_pairs(fp: number, n: number, k: number, maxCandidates: number): number;
  nd_pairs_length(): number;
  nd_pairs_a(): number;
  nd_pairs_b(): number;
  nd_pairs_distance(): number;
  nd_pairs_free(): void;
  nd_anchor_seeds(hash: number, doc: number, pos: number, n: number, caps: number, nCaps: number, maxDocs: number): number;
  nd_seed_count(): number;
  nd_seed_pairs(): number;
  nd_seed_bucket_count(): number;
  nd_seed_buckets(): number;
  nd_seed_dropped(): number;
  nd_seed_frequent_count(): number;
  nd_seed_frequent(): number;
  nd_seed_frequent_over(): number;
  nd_seeds_free(): void;
  nd_align_chain(streams: number, aLength: number, bLength: number, seeds: number, m: number, params: number, out: number): number;
  nd_region_buckets(streams: number, lengths: number, prose: number, nDocs: number, seeds: number, nSeeds: number, buckets: number, nBuckets: number, wanted: number, params: number): number;
  nd_buckets_count(): number;
  nd_buckets_ints(): number;
  nd_buckets_floats(): number;
  nd_buckets_chains(): number;
  nd_buckets_aligned(): number;
  nd_buckets_free(): void;
  nd_simhash_tokens(hi: number, lo: number, n: number, k: number, tf: number, out: number): number;
  nd_text_shape(bytes: number, n: number, out: number): void;
}

/**
 * Writes a text's UTF-16 units, as they are (lone surrogates included), little-endian at byteOffset
 * of the module's memory. The default is a charCodeAt loop; a host with a faster copy hands its
 * own (Node: Buffer's 'utf16le' write, several times faster, src/node/workers/nativeKernel.ts).
 */
export type TextWriter = (text: string, memory: ArrayBuffer, byteOffset: number) => void;

/** The portable TextWriter: one unit at a time into a Uint16Array view. */
export const writeUnits: TextWriter = (text, memory, byteOffset) => {
  const units = new Uint16Array(memory, byteOffset, text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
};

/** The WebAssembly kernel's CodeKernel, with the version of the module it runs. */
export interface WasmKernel extends CodeKernel {
  readonly version: number;
}

/**
 * A WebAssembly kernel, initialised, from the bytes of wasm/neardup_kernel.wasm or a module
 * compiled from them. One per thread, as the addon: it holds the tokens of the last tokenize.
 * Throws when the module is not a NearDup kernel of KERNEL_VERSION.
 */
export function createWasmKernel(source: Uint8Array | ArrayBuffer | WasmModule, writeText: TextWriter = writeUnits): WasmKernel {
  const module = source instanceof Uint8Array || source instanceof ArrayBuffer ? new WebAssembly.Module(source) : source;
  const x = new WebAssembly.Instance(module, {}).exports as unknown as Exports;
  if (typeof x.nd_version !== 'function') throw new Error('not a NearDup kernel module');
  const version = x.nd_version();
  if (version !== KERNEL_VERSION) throw new Error(`outdated WebAssembly kernel (version ${version}, expected ${KERNEL_VERSION}; npm run build:wasm)`);
  return new Kernel(x, writeText);
}

/** A document's streams as alignChain takes them: raw hi, raw lo, ids hi, ids lo, isIdent. */
type DocumentStreams = readonly [Uint32Array, Uint32Array, Uint32Array | null, Uint32Array | null, Uint8Array | null];

/** Rounds n up to a multiple of 8 (addresses of Float64 data). */
const align8 = (n: number): number => (n + 7) & ~7;

class Kernel implements WasmKernel {
  readonly version = KERNEL_VERSION;
  /** One growing block of the module's memory for a call's inputs and outputs. */
  private scratch = 0;
  private scratchBytes = 0;

  constructor(
    private readonly x: Exports,
    private readonly writeText: TextWriter,
  ) {
    const { wordTable, logTable } = kernelTables();
    const at = this.room(65536 + logTable.byteLength);
    this.u8(at, 65536).set(wordTable);
    new Float64Array(x.memory.buffer, at + 65536, logTable.length).set(logTable);
    if (x.nd_init(at, at + 65536, logTable.length) !== 1) throw new Error('WebAssembly kernel: out of memory');
  }

  /** The scratch block, at least `bytes` long (its old contents are lost when it grows). */
  private room(bytes: number): number {
    if (bytes > this.scratchBytes) {
      if (this.scratch) this.x.nd_free(this.scratch);
      this.scratchBytes = Math.max(bytes, this.scratchBytes * 2, 1 << 16);
      this.scratch = this.x.nd_alloc(this.scratchBytes) >>> 0;
      if (!this.scratch) {
        this.scratchBytes = 0;
        throw new Error('WebAssembly kernel: out of memory');
      }
    }
    return this.scratch;
  }

  private u8(at: number, n: number): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, at, n);
  }
  private u16(at: number, n: number): Uint16Array {
    return new Uint16Array(this.x.memory.buffer, at, n);
  }
  private u32(at: number, n: number): Uint32Array {
    return new Uint32Array(this.x.memory.buffer, at, n);
  }
  private i32(at: number, n: number): Int32Array {
    return new Int32Array(this.x.memory.buffer, at, n);
  }
  private f64(at: number, n: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, at, n);
  }

  /** Copies a text into the module as UTF-16 units at `at`. */
  private putText(at: number, text: string): void {
    this.writeText(text, this.x.memory.buffer, at);
  }

  defineLanguage(
    lineOpeners: string[],
    blockOpeners: string[],
    blockClosers: string[],
    singleQuoteStrings: boolean,
    lineStartOpeners?: string[],
    lineBlockOpeners?: string[],
    lineBlockClosers?: string[],
    regexLiterals?: boolean,
  ): number {
    // Six lists, each a count then per opener its length and units (native/wasm.c); a list or an
    // opener the kernel cannot take is cut short at a length it refuses (count > 8, length > 16).
    const spec: number[] = [];
    for (const list of [lineOpeners, blockOpeners, blockClosers, lineStartOpeners ?? [], lineBlockOpeners ?? [], lineBlockClosers ?? []]) {
      spec.push(Math.min(list.length, 9));
      for (const o of list.slice(0, 9)) {
        spec.push(Math.min(o.length, 17));
        if (o.length <= 16) for (let i = 0; i < o.length; i++) spec.push(o.charCodeAt(i));
      }
    }
    const at = this.room(spec.length * 2);
    this.u16(at, spec.length).set(spec);
    return this.x.nd_define_language(at, (singleQuoteStrings ? 1 : 0) | (regexLiterals === true ? 2 : 0));
  }

  tokenize(text: string, languageId: number, normalizeIdentifiers: boolean, region = false): number {
    const at = this.x.nd_text_buffer(text.length) >>> 0;
    if (!at) throw new Error('out of memory');
    this.putText(at, text);
    const n = this.x.nd_tokenize(text.length, languageId, (normalizeIdentifiers ? 1 : 0) | (region ? 2 : 0));
    if (n === -2) throw new Error('tokenize: unknown language id');
    if (n < 0) throw new Error('out of memory');
    return n;
  }

  fingerprint(k: number, tf: boolean, fileSketch: number, sectionSketch: number, minTokens: number, sections: boolean, out: Uint32Array): number {
    const at = this.room(out.length * 4);
    const w = this.x.nd_fingerprint(k, tf ? 1 : 0, fileSketch, sectionSketch, minTokens, sections ? 1 : 0, at, out.length);
    if (w === -2) throw new Error('bad fingerprint arguments');
    if (w === -1) throw new Error('out of memory');
    if (w > 0) out.set(this.u32(at, w));
    return w;
  }

  proseTokens(text: string, out: Uint32Array): number {
    const at = this.x.nd_text_buffer(text.length) >>> 0;
    if (!at) throw new Error('out of memory');
    this.putText(at, text);
    const outAt = this.room(out.length * 4);
    const n = this.x.nd_prose_tokens(text.length, outAt, out.length);
    if (n === -0x80000000) throw new Error('proseTokens: the kernel is not initialised');
    if (n > 0) out.set(this.u32(outAt, n * 5));
    return n;
  }

  fingerprintTokens(
    hi: Uint32Array,
    lo: Uint32Array,
    alt: Uint32Array,
    n: number,
    altIsRaw: boolean,
    ranges: Int32Array,
    rangeCount: number,
    k: number,
    tf: boolean,
    fileSketch: number,
    sectionSketch: number,
    minTokens: number,
    out: Uint32Array,
  ): number {
    n |= 0;
    rangeCount |= 0;
    if (n < 0 || n > hi.length || n > lo.length || n > alt.length) throw new Error('fingerprintTokens: hi, lo and alt are Uint32Arrays holding n tokens');
    if (rangeCount < 0 || rangeCount * 4 > ranges.length) throw new Error('fingerprintTokens: ranges is an Int32Array of rangeCount (from, to, startLine, endLine)');
    // The tokens (hi, lo, alt), the ranges and out, in the call's own block.
    const base = this.room((n * 3 + rangeCount * 4 + out.length) * 4);
    const rangesAt = base + n * 12;
    const outAt = rangesAt + rangeCount * 16;
    this.u32(base, n).set(hi.subarray(0, n));
    this.u32(base + n * 4, n).set(lo.subarray(0, n));
    this.u32(base + n * 8, n).set(alt.subarray(0, n));
    this.i32(rangesAt, rangeCount * 4).set(ranges.subarray(0, rangeCount * 4));
    const w = this.x.nd_fingerprint_tokens(base, base + n * 4, base + n * 8, n, altIsRaw ? 1 : 0, rangesAt, rangeCount, k, tf ? 1 : 0, fileSketch, sectionSketch, minTokens, outAt, out.length);
    if (w === -2) throw new Error('bad fingerprintTokens arguments');
    if (w === -1) throw new Error('out of memory');
    if (w > 0) out.set(this.u32(outAt, w));
    return w;
  }

  allPairs(fp: Uint32Array, k: number, maxCandidates: number): { a: Uint32Array; b: Uint32Array; distance: Uint8Array } | null {
    if (fp.length % 2 !== 0) throw new Error('fp: Uint32Array of (hi, lo) pairs');
    const at = this.room(fp.length * 4);
    this.u32(at, fp.length).set(fp);
    const status = this.x.nd_all_pairs(at, fp.length / 2, k, maxCandidates);
    if (status === -2) throw new Error('bad k or maxCandidates');
    if (status < 0) throw new Error('out of memory');
    if (status === 0) return null;
    const n = this.x.nd_pairs_length() >>> 0;
    const result = {
      a: n ? this.u32(this.x.nd_pairs_a() >>> 0, n).slice() : new Uint32Array(0),
      b: n ? this.u32(this.x.nd_pairs_b() >>> 0, n).slice() : new Uint32Array(0),
      distance: n ? this.u8(this.x.nd_pairs_distance() >>> 0, n).slice() : new Uint8Array(0),
    };
    this.x.nd_pairs_free();
    return result;
  }

  codeSections(text: string, maxDepth: number, minLines: number, out: Int32Array): number {
    if (maxDepth < 1 || minLines < 2) throw new Error('codeSections: maxDepth >= 1, minLines >= 2');
    const at = this.x.nd_section_text_buffer(text.length) >>> 0;
    if (!at) throw new Error('out of memory');
    this.putText(at, text);
    const count = this.x.nd_code_sections(text.length, maxDepth, minLines);
    if (count < 0) throw new Error('out of memory');
    if (out.length < count * 4) return -count * 4;
    if (count) out.set(this.i32(this.x.nd_sections() >>> 0, count * 4));
    return count;
  }

  tokens(hi: Uint32Array, lo: Uint32Array, start: Int32Array): number {
    const n = this.x.nd_token_count();
    if (hi.length < n || lo.length < n || start.length < n) return -n;
    if (n) {
      hi.set(this.u32(this.x.nd_token_hi() >>> 0, n));
      lo.set(this.u32(this.x.nd_token_lo() >>> 0, n));
      start.set(this.i32(this.x.nd_token_start() >>> 0, n));
    }
    return n;
  }

  region(k: number, w: number, salt: number, counts: Int32Array): ArrayBuffer {
    if (counts.length < 3) throw new Error('region: counts: Int32Array(3)');
    const status = this.x.nd_region(k | 0, w | 0, salt | 0);
    if (status === -2) throw new Error('region: the last tokenize was not made with region');
    if (status < 0) throw new Error('out of memory');
    const x = this.x;
    const n = x.nd_token_count();
    const lines = x.nd_region_line_count();
    const anchors = x.nd_region_anchor_count();
    // One buffer per document, as the addon's: rawHi rawLo start lineStarts anchorHash anchorPos, isIdent.
    const words = 3 * n + lines + 2 * anchors;
    const buffer = new ArrayBuffer(words * 4 + n);
    const memory = x.memory.buffer; // after the call: nd_region may have grown it
    const out = new Uint32Array(buffer, 0, words);
    /** `count` 32-bit words at address `from` copied to word `at` of the document's buffer. */
    const copy = (from: number, at: number, count: number): void => {
      if (count) out.set(new Uint32Array(memory, from >>> 0, count), at);
    };
    copy(x.nd_region_raw_hi(), 0, n);
    copy(x.nd_region_raw_lo(), n, n);
    copy(x.nd_token_start(), 2 * n, n);
    copy(x.nd_region_lines(), 3 * n, lines);
    copy(x.nd_region_anchor_hash(), 3 * n + lines, anchors);
    copy(x.nd_region_anchor_pos(), 3 * n + lines + anchors, anchors);
    if (n) new Uint8Array(buffer, words * 4, n).set(new Uint8Array(memory, x.nd_region_is_ident() >>> 0, n));
    counts[0] = n;
    counts[1] = lines;
    counts[2] = anchors;
    return buffer;
  }

  anchors(hi: Uint32Array, lo: Uint32Array, n: number, k: number, w: number, salt: number, hash: Uint32Array, pos: Int32Array): number {
    if (!(n >= 0) || n > hi.length || n > lo.length || !(k >= 1)) throw new Error('anchors: hi, lo: Uint32Array of n tokens; k >= 1');
    const at = this.room(n * 8);
    if (n) {
      this.u32(at, n).set(hi.subarray(0, n));
      this.u32(at + n * 4, n).set(lo.subarray(0, n));
    }
    const m = this.x.nd_anchors(at, at + n * 4, n, k | 0, w | 0, salt | 0);
    if (m < 0) throw new Error('out of memory');
    if (hash.length < m || pos.length < m) return -m;
    if (m) {
      hash.set(this.u32(this.x.nd_region_anchor_hash() >>> 0, m));
      pos.set(this.i32(this.x.nd_region_anchor_pos() >>> 0, m));
    }
    return m;
  }

  anchorSeeds(hash: Uint32Array, doc: Uint32Array, pos: Uint32Array, n: number, caps: Uint32Array, maxDocs: number): AnchorSeedsFound {
    if (!(n >= 0) || n > hash.length || n > doc.length || n > pos.length) throw new Error('anchorSeeds: n is over the arrays\' length');
    n = Math.floor(n);
    const at = this.room(n * 12 + caps.length * 4);
    this.u32(at, n).set(hash.subarray(0, n));
    this.u32(at + n * 4, n).set(doc.subarray(0, n));
    this.u32(at + n * 8, n).set(pos.subarray(0, n));
    this.u32(at + n * 12, caps.length).set(caps);
    const cap = maxDocs >= 4294967295 || maxDocs !== maxDocs ? 4294967295 : maxDocs < 0 ? 0 : Math.floor(maxDocs);
    const status = this.x.nd_anchor_seeds(at, at + n * 4, at + n * 8, n, at + n * 12, caps.length, cap | 0);
    if (status === -2) throw new Error('anchorSeeds: a document without a cap');
    if (status < 0) throw new Error('out of memory');
    const seeds = this.x.nd_seed_count() >>> 0;
    const nBuckets = this.x.nd_seed_bucket_count() >>> 0;
    const result = {
      pairs: seeds ? this.i32(this.x.nd_seed_pairs() >>> 0, seeds * 2).slice() : new Int32Array(0),
      buckets: nBuckets ? this.u32(this.x.nd_seed_buckets() >>> 0, nBuckets * 3).slice() : new Uint32Array(0),
      dropped: this.x.nd_seed_dropped() >>> 0,
      frequent: this.u32(this.x.nd_seed_frequent() >>> 0, 2 * (this.x.nd_seed_frequent_count() >>> 0)).slice(),
      frequentOver: this.x.nd_seed_frequent_over() >>> 0,
    };
    this.x.nd_seeds_free();
    return result;
  }

  /** The last two documents copied in for alignChain, most recently used first. */
  private documents: { streams: DocumentStreams; length: number; at: number; bytes: number; addresses: number[] }[] = [];

  /**
   * The addresses of a document's five streams in the module: those of its earlier copy when the
   * same arrays come again (a RegionDocument's streams never change), else a fresh copy into the
   * least recently used of two blocks (never the one holding `keep`, the call's other document).
   */
  private placeDocument(streams: DocumentStreams, length: number, keep: DocumentStreams | null): number[] {
    const same = (d: { streams: DocumentStreams; length: number }): boolean => d.length === length && d.streams.every((s, i) => s === streams[i]);
    const found = this.documents.findIndex(same);
    if (found >= 0) {
      const d = this.documents[found];
      this.documents.splice(found, 1);
      this.documents.unshift(d);
      return d.addresses;
    }
    const sizes = streams.map((s) => (s === null ? 0 : s instanceof Uint8Array ? align8(length) : length * 4));
    const bytes = sizes.reduce((x, y) => x + y, 0) + 8;
    let slot = this.documents.length < 2 ? undefined : this.documents[this.documents.length - 1];
    if (slot && keep && slot.streams.every((s, i) => s === keep[i])) slot = undefined;
    if (slot) this.documents.pop();
    if (!slot || slot.bytes < bytes) {
      if (slot) this.x.nd_free(slot.at);
      const at = this.x.nd_alloc(bytes) >>> 0;
      if (!at) throw new Error('out of memory');
      slot = { streams, length, at, bytes, addresses: [] };
    }
    slot.streams = streams;
    slot.length = length;
    slot.addresses = [];
    let next = slot.at;
    for (const [i, s] of streams.entries()) {
      if (!s) {
        slot.addresses.push(0);
        continue;
      }
      slot.addresses.push(next);
      if (s instanceof Uint8Array) this.u8(next, length).set(s.subarray(0, length));
      else this.u32(next, length).set(s.subarray(0, length));
      next += sizes[i];
    }
    this.documents.unshift(slot);
    return slot.addresses;
  }

  alignChain(
    aRawHi: Uint32Array,
    aRawLo: Uint32Array,
    aIdsHi: Uint32Array | null,
    aIdsLo: Uint32Array | null,
    aIsIdent: Uint8Array | null,
    bRawHi: Uint32Array,
    bRawLo: Uint32Array,
    bIdsHi: Uint32Array | null,
    bIdsLo: Uint32Array | null,
    bIsIdent: Uint8Array | null,
    aLength: number,
    bLength: number,
    seeds: Int32Array,
    params: Float64Array,
    out: Float64Array,
  ): number {
    aLength |= 0;
    bLength |= 0;
    if (aLength < 0 || bLength < 0) throw new Error('alignChain: lengths');
    const self = params[6] !== 0;
    if (self && (aRawHi !== bRawHi || aLength !== bLength)) throw new Error('alignChain: self needs one document');
    const check = (s: Uint32Array | Uint8Array | null, length: number, optional: boolean): void => {
      if (s === null ? !optional : s.length < length) throw new Error("alignChain: token streams are Uint32Arrays of the documents' lengths");
    };
    const a = [aRawHi, aRawLo, aIdsHi, aIdsLo, aIsIdent] as const;
    const b = [bRawHi, bRawLo, bIdsHi, bIdsLo, bIsIdent] as const;
    for (const [doc, length, name] of [[a, aLength, 'a'], [b, bLength, 'b']] as const) {
      for (let i = 0; i < 4; i++) check(doc[i] as Uint32Array | null, length, i >= 2);
      if (doc[2] && (!doc[3] || !doc[4] || doc[4].length < length)) throw new Error(`alignChain: ${name}IsIdent`);
    }
    if (seeds.length < 2 || seeds.length % 2) throw new Error('alignChain: seeds');
    if (params.length < 7) throw new Error('alignChain: params');
    if (out.length < 13) throw new Error('alignChain: out: Float64Array(13)');
    // The documents' streams stay in the module between calls (a chain's documents come back call
    // after call); the call's own block: 10 stream addresses, params, out (Float64), seeds.
    const addresses = [...this.placeDocument(a, aLength, null), ...(self ? [] : this.placeDocument(b, bLength, a))];
    if (self) addresses.push(...addresses.slice(0, 5));
    const base = this.room(40 + 8 + 7 * 8 + 13 * 8 + seeds.length * 4);
    const paramsAt = align8(base + 40);
    const outAt = paramsAt + 7 * 8;
    const seedsAt = outAt + 13 * 8;
    this.u32(base, 10).set(addresses);
    this.f64(paramsAt, 7).set(params.subarray(0, 7));
    this.i32(seedsAt, seeds.length).set(seeds);
    const status = this.x.nd_align_chain(base, aLength, bLength, seedsAt, seeds.length / 2, paramsAt, outAt);
    if (status === -2) throw new Error('alignChain: a seed is outside its document, or params out of range');
    if (status < 0) throw new Error('out of memory');
    if (status === 1) out.set(this.f64(outAt, 13));
    return status;
  }

  /** The documents of the last regionBuckets, copied in: the streams array they came in, and their block. */
  private bucketDocs: { streams: ReadonlyArray<Uint32Array | Uint8Array | null>; lengths: Int32Array; at: number } | null = null;

  /**
   * The addresses of the documents' streams in the module (5 per document, at the block's start):
   * those of the last call when the same streams array comes again, else a fresh copy.
   */
  private placeDocuments(streams: ReadonlyArray<Uint32Array | Uint8Array | null>, lengths: Int32Array): number {
    const known = this.bucketDocs;
    if (known && known.streams === streams && known.lengths.length === lengths.length && known.lengths.every((n, i) => n === lengths[i])) return known.at;
    if (known) this.x.nd_free(known.at);
    this.bucketDocs = null;
    const n = lengths.length;
    let bytes = align8(20 * n);
    for (let i = 0; i < 5 * n; i++) {
      const s = streams[i];
      if (s) bytes += s instanceof Uint8Array ? align8(lengths[(i / 5) | 0]) : 4 * lengths[(i / 5) | 0];
    }
    const at = this.x.nd_alloc(bytes) >>> 0;
    if (!at) throw new Error('out of memory');
    const table = this.u32(at, 5 * n);
    let next = at + align8(20 * n);
    for (let i = 0; i < 5 * n; i++) {
      const s = streams[i];
      const length = lengths[(i / 5) | 0];
      if (!s) {
        table[i] = 0;
        continue;
      }
      table[i] = next;
      if (s instanceof Uint8Array) {
        this.u8(next, length).set(s.subarray(0, length));
        next += align8(length);
      } else {
        this.u32(next, length).set(s.subarray(0, length));
        next += 4 * length;
      }
    }
    this.bucketDocs = { streams, lengths: lengths.slice(), at };
    return at;
  }

  regionBuckets(...[streams, lengths, prose, seeds, buckets, wanted, params]: Parameters<NonNullable<CodeKernel['regionBuckets']>>): RegionBucketsFound {
    const x = this.x;
    const n = lengths.length;
    const nBuckets = buckets.length / 3;
    if (streams.length !== 5 * n) throw new Error('regionBuckets: five streams per document');
    if (prose.length < n || seeds.length % 2 || buckets.length % 3 || (wanted && wanted.length < nBuckets)) throw new Error('regionBuckets: prose, seeds, buckets or wanted');
    if (params.length < 16) throw new Error('regionBuckets: params');
    // Raw streams, and ids with isIdent (code), isIdent alone (a lean code document) or none of the three (prose), of the documents' lengths.
    const fits = (v: Uint32Array | Uint8Array | null, length: number, u8 = false): boolean => v !== null && (u8 ? v instanceof Uint8Array : v instanceof Uint32Array) && v.length >= length;
    for (let d = 0, i = 0; d < n; d++, i += 5) {
      const length = lengths[d];
      const ids = streams[i + 2] === null ? streams[i + 3] === null && (streams[i + 4] === null || fits(streams[i + 4], length, true)) : fits(streams[i + 2], length) && fits(streams[i + 3], length) && fits(streams[i + 4], length, true);
      if (!(length >= 0 && fits(streams[i], length) && fits(streams[i + 1], length) && ids)) throw new Error("regionBuckets: token streams are Uint32Arrays of the documents' lengths");
    }
    const docsAt = this.placeDocuments(streams, lengths);
    // The call's own block: params (Float64), lengths, prose, seeds, buckets, wanted.
    const base = this.room(16 * 8 + 4 * n + align8(n) + 4 * seeds.length + 4 * buckets.length + (wanted ? nBuckets : 0) + 8);
    const paramsAt = align8(base);
    const lengthsAt = paramsAt + 16 * 8;
    const proseAt = lengthsAt + 4 * n;
    const seedsAt = proseAt + align8(n);
    const bucketsAt = seedsAt + 4 * seeds.length;
    const wantedAt = bucketsAt + 4 * buckets.length;
    this.f64(paramsAt, 16).set(params.subarray(0, 16));
    this.i32(lengthsAt, n).set(lengths);
    this.u8(proseAt, n).set(prose.subarray(0, n));
    this.i32(seedsAt, seeds.length).set(seeds);
    this.u32(bucketsAt, buckets.length).set(buckets);
    if (wanted) this.u8(wantedAt, nBuckets).set(wanted.subarray(0, nBuckets));
    const status = x.nd_region_buckets(docsAt, lengthsAt, proseAt, n, seedsAt, seeds.length / 2, bucketsAt, nBuckets, wanted ? wantedAt : 0, paramsAt);
    if (status === -2) throw new Error('regionBuckets: a bucket outside its documents, or params out of range');
    if (status < 0) throw new Error('out of memory');
    const count = x.nd_buckets_count() >>> 0;
    const result = {
      ints: count ? this.i32(x.nd_buckets_ints() >>> 0, 7 * count).slice() : new Int32Array(0),
      floats: count ? this.f64(x.nd_buckets_floats() >>> 0, 3 * count).slice() : new Float64Array(0),
      chains: x.nd_buckets_chains(),
      aligned: x.nd_buckets_aligned(),
    };
    x.nd_buckets_free();
    return result;
  }

  simhashTokens(hi: Uint32Array, lo: Uint32Array, from: number, to: number, k: number, tf: boolean, out: Uint32Array): number {
    from |= 0;
    to |= 0;
    if (from < 0 || to > hi.length || to > lo.length) throw new Error('simhashTokens: hi and lo are Uint32Arrays holding tokens [from, to)');
    if (out.length < 2) throw new Error('simhashTokens: out: Uint32Array(2)');
    const n = Math.max(0, to - from);
    // The tokens (hi, lo) and out, in the call's own block.
    const base = this.room(n * 8 + 8);
    if (n > 0) {
      this.u32(base, n).set(hi.subarray(from, to));
      this.u32(base + n * 4, n).set(lo.subarray(from, to));
    }
    const status = this.x.nd_simhash_tokens(base, base + n * 4, n, k | 0, tf ? 1 : 0, base + n * 8);
    if (status < 0) throw new Error(status === -2 ? 'simhashTokens: the kernel is not initialised' : 'out of memory');
    if (status === 1) out.set(this.u32(base + n * 8, 2));
    return status;
  }

  textShape(bytes: Uint8Array, out: Uint32Array): void {
    if (out.length < 4) throw new Error('textShape: out: Uint32Array(4)');
    // The bytes, then the four words of the answer, in the call's own block.
    const outAt = align8(bytes.length);
    const base = this.room(outAt + 16);
    this.u8(base, bytes.length).set(bytes);
    this.x.nd_text_shape(base, bytes.length, base + outAt);
    out.set(this.u32(base + outAt, 4));
  }
}
