import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fnv1a64, out } from '../../../../src/core/text/hash';
import { languageOf } from '../../../../src/core/text/languages';
import { bigrams, TokenBuffer, tokenizeCode, tokenizeProse, unicodeWordTable } from '../../../../src/core/text/tokenize';

/** Token texts recovered from the buffer: each token's hash matched against candidate strings. */
function hashes(buf: TokenBuffer): string[] {
  const r: string[] = [];
  for (let i = 0; i < buf.length; i++) r.push(`${buf.hi[i]}:${buf.lo[i]}`);
  return r;
}
function h(s: string): string {
  fnv1a64(s);
  return `${out.hi}:${out.lo}`;
}
function code(text: string, path = 'a.ts', normalizeIdentifiers = false): TokenBuffer {
  const buf = new TokenBuffer(4);
  tokenizeCode(text, languageOf(path), { normalizeIdentifiers }, buf);
  return buf;
}
function prose(text: string, opts: { stopWords?: boolean; segmenter?: (s: string) => string[] } = {}): TokenBuffer {
  const buf = new TokenBuffer(4);
  tokenizeProse(text, opts, buf);
  return buf;
}

describe('tokenize', () => {
  it('code: identifiers, numbers, strings and punctuation; comments and whitespace dropped', () => {
    const buf = code('const x = 42; // the answer\n/* block\n comment */ call("a b", 0x1F);');
    assert.deepEqual(hashes(buf), ['const', 'x', '=', '42', ';', 'call', '(', '"a b"', ',', '0x1F', ')', ';'].map(h));
  });

  it('code: token start offsets point at the tokens', () => {
    const text = 'let  foo =\n  bar;';
    const buf = code(text);
    const starts = Array.from(buf.start.subarray(0, buf.length));
    assert.deepEqual(starts, [0, 5, 9, 13, 16]);
  });

  it('code: escaped quotes stay inside the string; unterminated strings end at the line', () => {
    const buf = code('s = "a\\"b"; t = "open\nnext');
    assert.deepEqual(hashes(buf), ['s', '=', '"a\\"b"', ';', 't', '=', '"open', 'next'].map(h));
  });

  it('code: comment syntax follows the language (# in Python, not in TypeScript)', () => {
    assert.deepEqual(hashes(code('x = 1 # note', 'a.py')), ['x', '=', '1'].map(h));
    assert.deepEqual(hashes(code('#include <a>', 'a.c')), ['#', 'include', '<', 'a', '>'].map(h));
    assert.deepEqual(hashes(code('select 1 -- hi', 'q.sql')), ['select', '1'].map(h));
  });

  it('code: whitespace and comments do not change the tokens', () => {
    const a = code('function f(a,b){return a+b}');
    const b = code('function  f ( a , b )\n{\n  // sum\n  return a + b\n}\n');
    assert.deepEqual(hashes(a), hashes(b));
  });

  it('code: a regular expression is one token where an expression may start; `/` after an operand divides', () => {
    const axios = "const isValidHeaderName = (str) => /^[-_a-zA-Z0-9^`|~,!#$%&'*+.]+$/.test(str.trim());\nfunction after() {}\n";
    assert.deepEqual(hashes(code(axios)), [
      'const', 'isValidHeaderName', '=', '(', 'str', ')', '=', '>', "/^[-_a-zA-Z0-9^`|~,!#$%&'*+.]+$/", '.', 'test', '(', 'str', '.', 'trim', '(', ')', ')', ';',
      'function', 'after', '(', ')', '{', '}',
    ].map(h));
    assert.deepEqual(hashes(code('x = a / b / c;')), ['x', '=', 'a', '/', 'b', '/', 'c', ';'].map(h));
    assert.deepEqual(hashes(code('x = y / 2 // half\nz')), ['x', '=', 'y', '/', '2', 'z'].map(h));
    assert.deepEqual(hashes(code('f(a)/2/g')), ['f', '(', 'a', ')', '/', '2', '/', 'g'].map(h));
    assert.deepEqual(hashes(code('v = x[0] / 2 / y.z')), ['v', '=', 'x', '[', '0', ']', '/', '2', '/', 'y', '.', 'z'].map(h));
    assert.deepEqual(hashes(code('return /a\'b`c"d/gi.test(s)')), ['return', '/a\'b`c"d/gi', '.', 'test', '(', 's', ')'].map(h));
    // `//`, `/*`, a `/` in a class and escaped: all inside the one token, no comment opened.
    assert.deepEqual(hashes(code('s.replace(/\\/\\/|[/*]+|\\/\\*/g, "") + 1')), ['s', '.', 'replace', '(', '/\\/\\/|[/*]+|\\/\\*/g', ',', '""', ')', '+', '1'].map(h));
    assert.deepEqual(hashes(code('typeof /x/; case /y/: a = b / /z/.source.length')), ['typeof', '/x/', ';', 'case', '/y/', ':', 'a', '=', 'b', '/', '/z/', '.', 'source', '.', 'length'].map(h));
    // No closing `/` on its line: punctuation after all (and a regex never spans a line).
    assert.deepEqual(hashes(code('if (x) p = /open\nq = `t`')), ['if', '(', 'x', ')', 'p', '=', '/', 'open', 'q', '=', '`t`'].map(h));
    assert.deepEqual(hashes(code('a = [/x\\\n/]')), ['a', '=', '[', '/', 'x', '\\', '/', ']'].map(h));
    // JSX: `</` closes an element.
    assert.deepEqual(hashes(code('<p>a</p>', 'a.tsx')), ['<', 'p', '>', 'a', '<', '/', 'p', '>'].map(h));
    // Languages without regex literals keep `/` as punctuation.
    assert.deepEqual(hashes(code('x = /a"b/', 'a.java')), ['x', '=', '/', 'a', '"b/'].map(h));
  });

  it('code: a regex normalises to the literal placeholder, as a string does', () => {
    assert.deepEqual(hashes(code('x = /ab+c/g;', 'a.ts', true)), hashes(code('x = "other";', 'a.ts', true)));
    assert.notDeepEqual(hashes(code('x = /ab+c/g;')), hashes(code('x = "other";')));
  });

  it('code: normalising identifiers and literals makes renamed copies equal, keeps keywords', () => {
    const a = code('function add(x, y) { return x + y * 2; }', 'a.ts', true);
    const b = code('function sum(p, q) { return p + q * 7; }', 'a.ts', true);
    assert.deepEqual(hashes(a), hashes(b));
    assert.equal(hashes(a)[0], h('function'));
    const c = code('function sum(p, q) { return p + q * 7; }', 'a.ts', false);
    assert.notDeepEqual(hashes(a), hashes(c));
  });

  it('prose: lower-cased words, punctuation and Markdown syntax dropped, apostrophes kept', () => {
    const buf = prose("# The Title\n\nIt's **bold**, isn’t it? Café 42.");
    assert.deepEqual(hashes(buf), ['the', 'title', "it's", 'bold', "isn't", 'it', 'café', '42'].map(h));
  });

  it('prose: optional stop words (English and Chinese)', () => {
    const seg = (s: string) => (s === '我们的文本' ? ['我们', '的', '文本'] : [s]);
    const buf = prose('The cat and the hat 我们的文本', { stopWords: true, segmenter: seg });
    assert.deepEqual(hashes(buf), ['cat', 'hat', '文本'].map(h));
  });

  it('prose: CJK runs go through the segmenter, with offsets of each word', () => {
    const seg = (s: string) => (s === '相似度计算' ? ['相似', '度', '计算'] : [s]);
    const text = 'abc 相似度计算。';
    const buf = prose(text, { segmenter: seg });
    assert.deepEqual(hashes(buf), ['abc', '相似', '度', '计算'].map(h));
    assert.deepEqual(Array.from(buf.start.subarray(0, buf.length)), [0, 4, 6, 7]);
  });

  it('prose: without a segmenter, CJK falls back to character bigrams', () => {
    assert.deepEqual(bigrams('文本相似'), ['文本', '本相', '相似']);
    assert.deepEqual(bigrams('文'), ['文']);
    assert.deepEqual(hashes(prose('文本相似')), ['文本', '本相', '相似'].map(h));
  });

  it('lowerBound finds the first token at or after an offset', () => {
    const buf = code('a b c d');
    assert.equal(buf.lowerBound(0), 0);
    assert.equal(buf.lowerBound(1), 1);
    assert.equal(buf.lowerBound(2), 1);
    assert.equal(buf.lowerBound(7), 4);
  });

  it('languageOf tells prose from code', () => {
    assert.equal(languageOf('docs/README.md').kind, 'prose');
    assert.equal(languageOf('notes.TXT').kind, 'prose');
    assert.equal(languageOf('src/x.ts').kind, 'code');
    assert.equal(languageOf('Makefile').kind, 'code');
    assert.deepEqual(languageOf('Makefile').comments.line, ['#']);
  });
});

describe('unicodeWordTable (what the native kernel splits words by)', () => {
  it('agrees with the code tokeniser on every UTF-16 code unit', function () {
    this.timeout(60000);
    // In a fresh process, the tokeniser first: its answers then come from its own test per unit
    // (unicodeWordTable also fills them from the table: in this process some test may have made it).
    const src = path.resolve(__dirname, '../../../../src/core/text');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-wordtable-'));
    const prog = path.join(dir, 'wordTable.ts');
    fs.writeFileSync(
      prog,
      `const { TokenBuffer, tokenizeCode, unicodeWordTable } = require(${JSON.stringify(path.join(src, 'tokenize.ts'))});
       const { languageOf } = require(${JSON.stringify(path.join(src, 'languages.ts'))});
       const buf = new TokenBuffer();
       const lang = languageOf('x.js');
       const word = new Uint8Array(65536);
       for (let c = 0; c < 65536; c++) {
         // "a" + c + "a": one identifier token when c continues a word, else two or three tokens.
         buf.reset();
         tokenizeCode('a' + String.fromCharCode(c) + 'a', lang, {}, buf);
         word[c] = c >= 0x80 && buf.length === 1 ? 1 : 0;
       }
       const table = unicodeWordTable();
       const differ = [];
       let words = 0;
       for (let c = 0; c < 65536; c++) {
         words += word[c];
         if (table[c] !== word[c]) differ.push('U+' + c.toString(16).padStart(4, '0'));
       }
       process.stdout.write(JSON.stringify({ words, differ: differ.slice(0, 20), tableLength: table.length }));`,
    );
    try {
      const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), prog], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const { words, differ, tableLength } = JSON.parse(r.stdout) as { words: number; differ: string[]; tableLength: number };
      assert.equal(tableLength, 65536);
      assert.deepEqual(differ, []);
      assert.ok(words > 40000, `${words} word units`);
      console.log(`      table of 65,536 units; ${words} word units`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves this thread's tokeniser answering as the table says", () => {
    const table = unicodeWordTable();
    const buf = new TokenBuffer();
    const lang = languageOf('x.js');
    for (const c of [0x4e2d, 0x00e9, 0x3000, 0x00a0, 0xd800, 0x0661, 0x2014]) {
      buf.reset();
      tokenizeCode(`a${String.fromCharCode(c)}a`, lang, {}, buf);
      assert.equal(buf.length === 1 ? 1 : 0, table[c], `U+${c.toString(16)}`);
    }
  });
});
