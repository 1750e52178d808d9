/**
 * The binary files of the engine's caches (../fingerprintCache.ts, ../regions/regionCache.ts): a
 * 16-byte header (magic, format version, body length, checksum of the body) written in place and
 * checked, a growing little-endian writer, a reader that throws CorruptCache past the end, the
 * FNV-1a checksums of a body. Arrays of 32-bit numbers go as one copy of their bytes on a
 * little-endian machine.
 */
import * as os from 'node:os';

const LITTLE_ENDIAN = os.endianness() === 'LE';

export class Writer {
  private buf: Buffer;
  length = 0;

  /** `bytes`: what the writer is expected to take (it grows past it when needed). */
  constructor(bytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(64, bytes));
  }

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }
  u16(v: number): void {
    this.ensure(2);
    this.buf.writeUInt16LE(v, this.length);
    this.length += 2;
  }
  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.length);
    this.length += 4;
  }
  f64(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }
  str(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.u32(n);
    this.ensure(n);
    this.buf.write(s, this.length, n, 'utf8');
    this.length += n;
  }
  /** The numbers of `a` (a count first), as u32 each. */
  u32s(a: Uint32Array | Int32Array): void {
    this.u32(a.length);
    this.u32Array(a);
  }
  /** The numbers of `a` as u32 each (no count). */
  u32Array(a: Uint32Array | Int32Array): void {
    this.ensure(4 * a.length);
    if (LITTLE_ENDIAN) {
      this.buf.set(new Uint8Array(a.buffer, a.byteOffset, 4 * a.length), this.length);
      this.length += 4 * a.length;
    } else for (let i = 0; i < a.length; i++) this.u32(a[i]);
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** FNV-1a (32-bit) over bytes: cheap, enough to notice a damaged file. */
export function checksum(buf: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < buf.length; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

/**
 * FNV-1a (32-bit) over the bytes' little-endian 32-bit words, then the last bytes: ~4× as fast as
 * checksum over a large body (the region cache's 13 MB).
 */
export function checksumWords(buf: Uint8Array): number {
  const n = buf.length >>> 2;
  let words: Uint32Array | null = null;
  if (LITTLE_ENDIAN) words = buf.byteOffset % 4 === 0 ? new Uint32Array(buf.buffer, buf.byteOffset, n) : new Uint32Array(buf.slice(0, 4 * n).buffer);
  let h = 0x811c9dc5;
  if (words) for (let i = 0; i < n; i++) h = Math.imul(h ^ words[i], 0x01000193);
  else for (let i = 0; i < n; i++) h = Math.imul(h ^ (buf[4 * i] | (buf[4 * i + 1] << 8) | (buf[4 * i + 2] << 16) | (buf[4 * i + 3] << 24)), 0x01000193);
  for (let i = 4 * n; i < buf.length; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

export class CorruptCache extends Error {}

export class Reader {
  pos = 0;
  /** The slab u32Pooled cuts its arrays from, and how much of it is cut. */
  private slab: Uint32Array | null = null;
  private slabUsed = 0;
  constructor(private readonly buf: Buffer) {}

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new CorruptCache('truncated');
  }
  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }
  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  str(): string {
    const n = this.u32();
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  /** The numbers Writer.u32s wrote (at most `max` of them). */
  u32s(max: number): Uint32Array {
    const n = this.u32();
    if (n > max) throw new CorruptCache('array too long');
    return this.u32Array(n);
  }
  /** `n` numbers Writer.u32Array wrote. */
  u32Array(n: number): Uint32Array {
    return this.u32Into(new Uint32Array(n), n);
  }
  /**
   * `n` numbers Writer.u32Array wrote, as a view of a slab this reader shares between the small
   * arrays it reads (`slabWords` numbers each; an array over a quarter of it gets its own): one
   * buffer for many, not one each (a warm start's ~21,000 sketches: ~1 µs and an allocation of
   * external memory each, and as many buffers for the matching's sketch views to take apart).
   * Such an array must not be transferred (its buffer is its neighbours' too).
   */
  u32Pooled(n: number, slabWords = 1 << 16): Uint32Array {
    if (4 * n > slabWords) return this.u32Array(n);
    if (!this.slab || this.slabUsed + n > this.slab.length) {
      this.slab = new Uint32Array(slabWords);
      this.slabUsed = 0;
    }
    const out = this.u32Into(this.slab.subarray(this.slabUsed, this.slabUsed + n), n);
    this.slabUsed += n;
    return out;
  }
  private u32Into(out: Uint32Array, n: number): Uint32Array {
    this.need(4 * n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer, out.byteOffset, 4 * n).set(this.buf.subarray(this.pos, this.pos + 4 * n));
    else for (let i = 0; i < n; i++) out[i] = this.buf.readUInt32LE(this.pos + 4 * i);
    this.pos += 4 * n;
    return out;
  }
  get done(): boolean {
    return this.pos === this.buf.length;
  }
}

/** Bytes of a cache file's header: magic, format version, body length, checksum of the body. */
export const HEADER_BYTES = 16;

/** A writer whose first HEADER_BYTES are the header's, to be filled by {@link withHeader}. */
export function headedWriter(bytes?: number): Writer {
  const w = new Writer(bytes);
  for (let i = 0; i < HEADER_BYTES; i++) w.u8(0);
  return w;
}

/** The file of a {@link headedWriter}'s bytes, its header filled in. */
export function withHeader(w: Writer, magic: string, version: number, sum: (body: Uint8Array) => number): Buffer {
  const out = w.bytes();
  const body = out.subarray(HEADER_BYTES);
  out.write(magic, 0, 4, 'latin1');
  out.writeUInt32LE(version, 4);
  out.writeUInt32LE(body.length, 8);
  out.writeUInt32LE(sum(body), 12);
  return out;
}

/** The body of a cache file whose header says `magic`, `version`, its length and checksum; else why not (`what`: the kind of cache, for the reason). */
export function bodyOf(buf: Buffer, magic: string, version: number, sum: (body: Uint8Array) => number, what: string): Buffer | { reason: string } {
  if (buf.length < HEADER_BYTES) return { reason: 'truncated header' };
  if (buf.toString('latin1', 0, 4) !== magic) return { reason: `not a ${what}` };
  const v = buf.readUInt32LE(4);
  if (v !== version) return { reason: `format version ${v}, expected ${version}` };
  if (buf.readUInt32LE(8) !== buf.length - HEADER_BYTES) return { reason: 'truncated or padded' };
  const body = buf.subarray(HEADER_BYTES);
  if (sum(body) !== buf.readUInt32LE(12)) return { reason: 'checksum mismatch' };
  return body;
}
