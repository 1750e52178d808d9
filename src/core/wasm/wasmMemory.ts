/**
 * The kernel module as the TypeScript side calls it: its exports (native/wasm.c), a text written
 * into its memory (TextWriter, writeUnits), and WasmMemory, the base of the WebAssembly kernel:
 * one growing scratch block of the module's memory for a call's inputs and outputs, typed views
 * of that memory made after each call.
 */

/** The exports of native/wasm.c (addresses and sizes are i32: read them with >>> 0). */
export interface Exports {
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

/** Rounds n up to a multiple of 8 (addresses of Float64 data). */
export const align8 = (n: number): number => (n + 7) & ~7;

/** The module's memory as the kernel's calls use it (the WebAssembly kernel, wasmKernel.ts, extends it). */
export abstract class WasmMemory {
  /** One growing block of the module's memory for a call's inputs and outputs. */
  private scratch = 0;
  private scratchBytes = 0;

  constructor(
    protected readonly x: Exports,
    private readonly writeText: TextWriter,
  ) {}

  /** The scratch block, at least `bytes` long (its old contents are lost when it grows). */
  protected room(bytes: number): number {
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

  protected u8(at: number, n: number): Uint8Array {
    return new Uint8Array(this.x.memory.buffer, at, n);
  }
  protected u16(at: number, n: number): Uint16Array {
    return new Uint16Array(this.x.memory.buffer, at, n);
  }
  protected u32(at: number, n: number): Uint32Array {
    return new Uint32Array(this.x.memory.buffer, at, n);
  }
  protected i32(at: number, n: number): Int32Array {
    return new Int32Array(this.x.memory.buffer, at, n);
  }
  protected f64(at: number, n: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, at, n);
  }

  /** Copies a text into the module as UTF-16 units at `at`. */
  protected putText(at: number, text: string): void {
    this.writeText(text, this.x.memory.buffer, at);
  }
}
