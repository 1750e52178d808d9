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
 *
 * Parts: wasmMemory.ts (the exports, the scratch block and the views: WasmMemory),
 * wasmRegionCalls.ts (the region finder's calls: WasmRegionCalls, which extends it); the Kernel
 * here extends that, with the calls of a file's fingerprinting, tokens and region document.
 */
import { unicodeWordTableOf } from '../text/tokenize';
import type { CodeKernel } from '../types';
import { align8, type Exports, type TextWriter, writeUnits } from './wasmMemory';
import { WasmRegionCalls } from './wasmRegionCalls';

export { writeUnits, type TextWriter } from './wasmMemory';

/**
 * The version of the kernel's interface (KERNEL_VERSION of native/fingerprint.h): a kernel of
 * another version (an addon or a .wasm built from other sources) is not used.
 */
export const KERNEL_VERSION = 11;

/** Counts below this get Math.log from the table handed to the kernel; it uses C's log above (never reached in practice). */
const LOG_TABLE_SIZE = 1 << 16;

/**
 * What JavaScript's engine decides and the kernel must agree on: word characters and Math.log of
 * counts. `unicodeVersion`: the engine's Unicode version when the caller knows it (the word
 * characters then come from stored runs where they can: unicodeWordTableOf).
 */
export function kernelTables(unicodeVersion?: string): { wordTable: Uint8Array; logTable: Float64Array } {
  const logTable = new Float64Array(LOG_TABLE_SIZE);
  for (let n = 1; n < LOG_TABLE_SIZE; n++) logTable[n] = Math.log(n);
  return { wordTable: unicodeWordTableOf(unicodeVersion), logTable };
}

// The few WebAssembly declarations used here (the project's lib has no DOM / WebAssembly types).
interface WasmModule {
  readonly __wasmModule?: never;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array | ArrayBuffer) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
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

class Kernel extends WasmRegionCalls implements WasmKernel {
  readonly version = KERNEL_VERSION;

  constructor(x: Exports, writeText: TextWriter) {
    super(x, writeText);
    const { wordTable, logTable } = kernelTables();
    const at = this.room(65536 + logTable.byteLength);
    this.u8(at, 65536).set(wordTable);
    new Float64Array(x.memory.buffer, at + 65536, logTable.length).set(logTable);
    if (x.nd_init(at, at + 65536, logTable.length) !== 1) throw new Error('WebAssembly kernel: out of memory');
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
