import { strict as assert } from 'node:assert';
import * as iconv from 'iconv-lite';
import { decodeBuffer, isMinified, isRepetitive, lineShape, ENCODING_UTF8_REPLACED } from '../../../../src/node/files/decode';
import { mulberry32 } from '../../helpers/corpus';

function ok(r: ReturnType<typeof decodeBuffer>): { text: string; encoding: string } {
  assert.equal(r.ok, true, `expected text, got ${JSON.stringify(r)}`);
  return r as { ok: true; text: string; encoding: string };
}

function utf16be(s: string): Buffer {
  return Buffer.from(s, 'utf16le').swap16();
}

const chinese = '近似重复检测使用局部敏感哈希。两个文档的指纹汉明距离越小，内容越相似。';

describe('decodeBuffer', () => {
  it('returns empty text for an empty buffer', () => {
    assert.deepEqual(decodeBuffer(new Uint8Array(0)), { ok: true, text: '', encoding: 'utf-8' });
  });

  it('decodes plain UTF-8 (ASCII and multi-byte, astral)', () => {
    const s = 'hello wörld — 你好 😀\n';
    assert.deepEqual(decodeBuffer(Buffer.from(s, 'utf8')), { ok: true, text: s, encoding: 'utf-8' });
  });

  it('accepts a plain Uint8Array (not a Buffer)', () => {
    const b = Buffer.from('中文 text', 'utf8');
    const u = new Uint8Array(b.length + 4).subarray(2, 2 + b.length);
    u.set(b);
    assert.equal(ok(decodeBuffer(u)).text, '中文 text');
  });

  it('strips a UTF-8 BOM', () => {
    const r = ok(decodeBuffer(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('abc 中', 'utf8')])));
    assert.equal(r.text, 'abc 中');
    assert.equal(r.encoding, 'utf-8');
  });

  it('decodes UTF-16 LE and BE with a BOM, and strips it', () => {
    const s = 'line one\nzweite Zeile ü\n第三行 😀';
    const le = ok(decodeBuffer(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])));
    assert.deepEqual(le, { ok: true, text: s, encoding: 'utf-16le' });
    const be = ok(decodeBuffer(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)])));
    assert.deepEqual(be, { ok: true, text: s, encoding: 'utf-16be' });
  });

  it('detects UTF-16 LE and BE without a BOM', () => {
    const s = 'export function add(a: number, b: number) {\n  return a + b; // 加法\n}\n';
    assert.deepEqual(decodeBuffer(Buffer.from(s, 'utf16le')), { ok: true, text: s, encoding: 'utf-16le' });
    assert.deepEqual(decodeBuffer(utf16be(s)), { ok: true, text: s, encoding: 'utf-16be' });
  });

  it('decodes GB18030 Chinese text', () => {
    const s = `# 标题\n\n${chinese}\n${chinese}\n`;
    const bytes = iconv.encode(s, 'gb18030');
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)); // really not UTF-8
    assert.deepEqual(decodeBuffer(bytes), { ok: true, text: s, encoding: 'gb18030' });
  });

  it('replaces invalid UTF-8 that is not plausible GB18030 (e.g. Latin-1)', () => {
    const bytes = Buffer.from('caf\xe9 au lait, na\xefve, \xfcber', 'latin1');
    const r = ok(decodeBuffer(bytes));
    assert.equal(r.encoding, ENCODING_UTF8_REPLACED);
    assert.equal(r.text, 'caf\ufffd au lait, na\ufffdve, \ufffdber');
  });

  it('does not mistake Latin-1 that happens to be valid GB18030 for Chinese', () => {
    // 0xDF 0x65 ("ße") and 0xFC 0x6C ("ül") are valid GBK pairs, but isolated.
    const bytes = Buffer.from('Die Stra\xdfe nach M\xfcller ist sch\xf6n und gro\xdfartig.', 'latin1');
    assert.equal(ok(decodeBuffer(bytes)).encoding, ENCODING_UTF8_REPLACED);
  });

  it('reports NUL bytes as binary', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 0, 0, 7]);
    assert.deepEqual(decodeBuffer(png), { ok: false, reason: 'binary file (NUL bytes)' });
    const textWithNul = Buffer.concat([Buffer.from('mostly text here, honestly '.repeat(20)), Buffer.from([0]), Buffer.from('more')]);
    assert.deepEqual(decodeBuffer(textWithNul), { ok: false, reason: 'binary file (NUL bytes)' });
  });

  it('reports control-character soup as binary', () => {
    const bytes = Buffer.alloc(400);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 3 === 0 ? 0x01 + (i % 7) : 0x41 + (i % 26);
    const r = decodeBuffer(bytes);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /binary/);
  });

  it('keeps tabs, CR/LF, form feeds and ANSI escapes as text', () => {
    const s = '\x1b[31mred\x1b[0m\r\n\tindented\f\n';
    assert.deepEqual(decodeBuffer(Buffer.from(s)), { ok: true, text: s, encoding: 'utf-8' });
  });
});

describe('isMinified', () => {
  it('is false for normal code and prose, and for empty text', () => {
    assert.equal(isMinified(''), false);
    assert.equal(isMinified('const a = 1;\nconst b = 2;\n'.repeat(500)), false);
    const para = 'word '.repeat(150); // 750 chars, paragraphs separated by blank lines
    assert.equal(isMinified(`${para}\n\n${para}\n\n${para}\n`), false);
  });

  it('is true when the average line is longer than 500 characters', () => {
    const line = 'x'.repeat(600);
    assert.equal(isMinified(`${line}\n${line}\n${line}\n`), true);
    assert.equal(isMinified('a'.repeat(501)), true);
    assert.equal(isMinified('a'.repeat(500)), false);
  });

  it('is true for one very long line among few short ones', () => {
    const text = '/*! license */\n' + '// a\n'.repeat(10) + 'var a=1;'.repeat(800) + '\n';
    assert.equal(isMinified(text), true);
  });

  it('is false for a long line among many normal lines', () => {
    const text = 'let x = 1;\n'.repeat(2000) + 'y'.repeat(6000) + '\n';
    assert.equal(isMinified(text), false);
  });
});

describe('lineShape', () => {
  it('counts line feeds and measures the longest line; isMinified and isRepetitive give the same answers with it', () => {
    assert.deepEqual(lineShape(''), { newlines: 0, longest: 0 });
    assert.deepEqual(lineShape('ab\ncde\n'), { newlines: 2, longest: 3 });
    assert.deepEqual(lineShape('\n\nxyzw'), { newlines: 2, longest: 4 });
    const rnd = mulberry32(3);
    const lines = ['', 'x', 'let a = 1;', '  return b;', 'y'.repeat(700), 'z'.repeat(6000)];
    for (let t = 0; t < 400; t++) {
      const n = Math.floor(rnd() * 120);
      const few = 1 + Math.floor(rnd() * 3);
      let text = '';
      for (let i = 0; i < n; i++) text += lines[Math.floor(rnd() * (rnd() < 0.5 ? few : lines.length))] + (rnd() < 0.95 ? '\n' : '\r\n');
      if (rnd() < 0.5) text = text.slice(0, Math.floor(rnd() * text.length));
      const shape = lineShape(text);
      assert.equal(isMinified(text, shape), isMinified(text));
      assert.equal(isRepetitive(text, shape), isRepetitive(text));
    }
  });
});
