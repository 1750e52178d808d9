/**
 * The region finder's calls of the WebAssembly kernel (WasmRegionCalls, between WasmMemory and the
 * kernel of wasmKernel.ts): anchorSeeds, alignChain and regionBuckets, with the documents' token
 * streams kept in the module's memory from one call to the next.
 */
import type { AnchorSeedsFound, CodeKernel, RegionBucketsFound } from '../types';
import { align8, WasmMemory } from './wasmMemory';

/** A document's streams as alignChain takes them: raw hi, raw lo, ids hi, ids lo, isIdent. */
type DocumentStreams = readonly [Uint32Array, Uint32Array, Uint32Array | null, Uint32Array | null, Uint8Array | null];

/** The WebAssembly kernel's region-finder calls (wasmKernel.ts's Kernel extends this). */
export abstract class WasmRegionCalls extends WasmMemory {
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
}
