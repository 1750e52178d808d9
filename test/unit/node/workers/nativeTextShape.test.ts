// The kernels' textShape (native/textshape.c: decodeText's control count and lineShape, whether a
// Han ideograph may be there and whether the ignore markers' prefix is, read off a UTF-8 text's
// bytes) must give what the TypeScript finds in the decoded text, on random and
// adversarial UTF-8 (every byte class, runs across its 16-byte blocks, characters of 1 to 4 bytes,
// CR LF, controls, NUL, long lines); and decodeText with it must answer as decodeText without it
// (the TypeScript reference, the path without a kernel), on valid, invalid and binary bytes.
import { strict as assert } from 'node:assert';
import { decodeText, lineShape, type BytesShape, type HostDecoders } from '../../../../src/core/text/decodeText';
import { IGNORE_MARKER_PREFIX } from '../../../../src/core/text/ignoreMarkers';
import { firstFoldableHan } from '../../../../src/core/text/variantFold';
import type { CodeKernel } from '../../../../src/core/types';
import { KERNELS } from './kernelsUnderTest';
import { mulberry32 } from '../../helpers/random';

const utf8 = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** textShape's answer, every bit of it. */
type Shape = BytesShape & { nonAscii: boolean; nul: boolean };

/** What the TypeScript finds in the text valid UTF-8 bytes decode to. */
function reference(bytes: Uint8Array): Shape {
  const text = decoder.decode(bytes);
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 27) || c === 0x7f) control++;
  }
  return {
    control,
    ...lineShape(text),
    // Characters of 3 UTF-8 bytes led by 0xE3–0xE9 or 0xEF: every Han ideograph the variant fold looks for is one.
    maybeHan: /[\u3000-\u9fff\uf000-\uffff]/.test(text),
    marked: text.includes(IGNORE_MARKER_PREFIX),
    // eslint-disable-next-line no-control-regex
    nonAscii: /[^\x00-\x7f]/.test(text),
    nul: text.includes('\0'),
  };
}

function shapeOf(kernel: CodeKernel, bytes: Uint8Array): Shape {
  const out = new Uint32Array(4).fill(0xdeadbeef);
  kernel.textShape!(bytes, out);
  const bits = out[3];
  return { control: out[0], newlines: out[1], longest: out[2], maybeHan: (bits & 4) !== 0, marked: (bits & 8) !== 0, nonAscii: (bits & 2) !== 0, nul: (bits & 1) !== 0 };
}

/** Pieces of text: every byte class of textshape.c, characters of 1 to 4 UTF-8 bytes, runs of plain ASCII. */
const PIECES = ['neardup-ignore-', 'neardup-ignore', 'neardup_ignore-', 'eardup-ignore-', '\u3400', '\u9fff', '\u2fff', '\ua000', '\uf900', '\ufaff', 'a', ' ', '\t', '\n', '\r\n', '\r', '\x0b', '\x0c', '\x1b', '\x01', '\x08', '\x0e', '\x1a', '\x1c', '\x1f', '\x7f', '\0', '~', 'é', 'ß', '中', '文', '\u3000', '\uFEFF', '\uFFFF', '😀', '\u{10FFFF}', '\u0800'];

function randomText(rnd: () => number, pieces: number): string {
  const parts: string[] = [];
  for (let i = 0; i < pieces; i++) {
    const r = rnd();
    if (r < 0.3) parts.push('x'.repeat(Math.floor(rnd() * 40)));
    else if (r < 0.4) parts.push(' '.repeat(Math.floor(rnd() * 20)) + 'line'.repeat(Math.floor(rnd() * 6)) + '\n');
    else parts.push(PIECES[Math.floor(rnd() * PIECES.length)]);
  }
  return parts.join('');
}

/** Texts placed at every offset of a 16-byte block: the special character before, on and after block edges. */
function edgeTexts(): string[] {
  const texts: string[] = [''];
  for (const special of ['\n', '\x01', '\x7f', '\0', '\t', '\r', '\x1b', 'é', '中', '😀', '\u3000', '\uf900', 'neardup-ignore-next']) {
    for (let at = 0; at < 36; at++) {
      texts.push('a'.repeat(at) + special);
      texts.push('a'.repeat(at) + special + 'b'.repeat(40 - at));
      texts.push(`${'a'.repeat(at)}${special}\n${'b'.repeat(at * 3)}\n${special}`);
    }
  }
  for (const n of [1, 15, 16, 17, 31, 32, 33, 47, 48, 64, 100, 4096]) {
    texts.push('q'.repeat(n), `${'q'.repeat(n)}\n`, `\n${'q'.repeat(n)}`, '\n'.repeat(n), '\x01'.repeat(n), '😀'.repeat(n), `${'中'.repeat(n)}\n${'y'.repeat(n)}`);
  }
  return texts;
}

const BINARYISH = ['\x01\x02\x03 text', `${'a'.repeat(90)}${'\x01'.repeat(10)}`, `${'a'.repeat(89)}${'\x01'.repeat(11)}`, `${'\x7f'.repeat(5)}abcdefghijklmnopqrstuvwxyz0123456789abcdefghijkl`];

for (const under of KERNELS) {
  describe(`the ${under.name} kernel's textShape`, function () {
    this.timeout(120000);
    let kernel: CodeKernel;
    before(function () {
      const k = under.kernel();
      if (!k?.textShape) this.skip();
      kernel = k!;
    });

    it('gives the TypeScript control count, line feeds, longest line, possible Han, marker prefix and ASCII-ness on edge texts at every block offset', () => {
      let checked = 0;
      for (const text of edgeTexts()) {
        const bytes = utf8.encode(text);
        assert.deepEqual(shapeOf(kernel, bytes), reference(bytes), JSON.stringify(text));
        checked++;
      }
      assert.ok(checked > 1000, `${checked} texts`);
    });

    it('on 3,000 random texts of mixed byte classes, and inside a larger buffer (a subarray at any offset)', () => {
      const rnd = mulberry32(1601);
      for (let i = 0; i < 3000; i++) {
        const text = randomText(rnd, Math.floor(rnd() * (i % 10 === 0 ? 3000 : 120)));
        const bytes = utf8.encode(text);
        const expected = reference(bytes);
        assert.deepEqual(shapeOf(kernel, bytes), expected, JSON.stringify(text.slice(0, 200)));
        const at = Math.floor(rnd() * 17);
        const bigger = new Uint8Array(at + bytes.length + 17).fill(0x0a);
        bigger.set(bytes, at);
        assert.deepEqual(shapeOf(kernel, bigger.subarray(at, at + bytes.length)), expected, 'a view into a larger buffer reads only its own bytes');
      }
    });

    it('on 2,000 random texts without control characters (every 16-byte block on the block path): characters of 1 to 4 bytes, line feeds anywhere', () => {
      const rnd = mulberry32(1603);
      const clean = ['a', 'bc', ' ', '\t', '\r', '\n', '\n', 'é', 'ß', '中', '文字', '\u3000', '\u2fff', '\ua000', '\uf900', '\ufffd', '😀', '\u{10FFFF}', '\u0800', 'neardup-ignore-'];
      for (let i = 0; i < 2000; i++) {
        const parts: string[] = [];
        for (let k = Math.floor(rnd() * 200); k > 0; k--) parts.push(clean[Math.floor(rnd() * clean.length)]);
        const bytes = utf8.encode(parts.join(''));
        assert.deepEqual(shapeOf(kernel, bytes), reference(bytes), JSON.stringify(parts.join('').slice(0, 200)));
      }
    });

    it('decodeText answers the same with it as without it (the TypeScript): valid, invalid, binary and byte-order-marked bytes', () => {
      const rnd = mulberry32(1602);
      const host: HostDecoders = { gb18030: () => '\uFFFD' };
      const withShape: HostDecoders = { ...host, utf8Shape: (bytes) => shapeOf(kernel, bytes) };
      const inputs: Uint8Array[] = [...edgeTexts(), ...BINARYISH].map((t) => utf8.encode(t));
      for (let i = 0; i < 1500; i++) inputs.push(utf8.encode(randomText(rnd, Math.floor(rnd() * 200))));
      for (let i = 0; i < 500; i++) {
        const bytes = new Uint8Array(Math.floor(rnd() * 64));
        for (let j = 0; j < bytes.length; j++) bytes[j] = rnd() < 0.7 ? 0x20 + Math.floor(rnd() * 95) : Math.floor(rnd() * 256);
        inputs.push(bytes);
      }
      inputs.push(new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x0a]), new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x42]));
      let shaped = 0;
      let binary = 0;
      for (const bytes of inputs) {
        const plain = decodeText(bytes, host);
        const fast = decodeText(bytes, withShape);
        if (fast.ok && fast.facts) {
          shaped++;
          assert.deepEqual(fast.facts.shape, lineShape(fast.text));
          assert.equal(fast.facts.marked, fast.text.includes(IGNORE_MARKER_PREFIX));
          if (!fast.facts.maybeHan) assert.equal(firstFoldableHan(fast.text), -1, 'no Han ideograph where it says none');
          const { facts: _facts, ...rest } = fast;
          assert.deepEqual(rest, plain);
        } else {
          if (!fast.ok) binary++;
          assert.deepEqual(fast, plain, JSON.stringify(Array.from(bytes.slice(0, 40))));
        }
      }
      assert.ok(shaped > 1000 && binary > 10, `${shaped} shaped, ${binary} refused`);
    });
  });
}
