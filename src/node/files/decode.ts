/**
 * Node's decoding of a file's bytes: core/text/decodeText.ts with iconv-lite for GB18030 and
 * Buffer's 'utf16le' for UTF-16 (several times faster than a character loop, same units). The
 * line-shape checks are re-exported from there, so Node code has one place to import them from.
 */
import type * as Iconv from 'iconv-lite';
import { decodeText, type BytesShape, type DecodeResult, type HostDecoders } from '../../core/text/decodeText';

export { ENCODING_UTF8_REPLACED, LIMITS, isMinified, isRepetitive, lineShape, type BytesShape, type DecodeResult, type LineShape, type TextFacts } from '../../core/text/decodeText';

/**
 * iconv-lite, loaded on first use: its code tables cost a worker's start-up ~20 ms otherwise. In
 * the bundles it is a bundle of its own, dist/iconv.js (esbuild.js), so they do not even compile it.
 */
let iconvLib: typeof Iconv | undefined;
function iconv(): typeof Iconv {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (iconvLib ??= require('iconv-lite') as typeof Iconv);
}

function toBuffer(buf: Uint8Array): Buffer {
  return Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
}

const nodeDecoders: HostDecoders = {
  gb18030: (bytes) => iconv().decode(toBuffer(bytes), 'gb18030'),
  utf16le: (bytes) => toBuffer(bytes).toString('utf16le'),
};

/** Decodes a file's bytes; `utf8Shape`, when given, reads the checks of a UTF-8 text off its bytes (HostDecoders.utf8Shape). */
export function decodeBuffer(buf: Uint8Array, utf8Shape?: (bytes: Uint8Array) => BytesShape): DecodeResult {
  if (!utf8Shape) return decodeText(buf, nodeDecoders);
  if (withShape?.utf8Shape !== utf8Shape) withShape = { ...nodeDecoders, utf8Shape };
  return decodeText(buf, withShape);
}
let withShape: HostDecoders | undefined;
