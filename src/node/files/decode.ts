/**
 * Node's decoding of a file's bytes: core/text/decodeText.ts with iconv-lite for GB18030 and
 * Buffer's 'utf16le' for UTF-16 (several times faster than a character loop, same units). The
 * line-shape checks are re-exported from there, so Node code has one place to import them from.
 */
import type * as Iconv from 'iconv-lite';
import { decodeText, type DecodeResult, type HostDecoders } from '../../core/text/decodeText';

export { ENCODING_UTF8_REPLACED, LIMITS, isMinified, isRepetitive, lineShape, type DecodeResult, type LineShape } from '../../core/text/decodeText';

/** iconv-lite, loaded on first use: its code tables cost a worker's start-up ~20 ms otherwise. */
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

export function decodeBuffer(buf: Uint8Array): DecodeResult {
  return decodeText(buf, nodeDecoders);
}
