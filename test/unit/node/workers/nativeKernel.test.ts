// The native kernel (native/kernel.c through src/node/nativeKernel.ts) must give exactly what the
// TypeScript gives: fingerprintText with and without `kernel`, compared field by field, over
// generated code of every comment syntax and quote rule, awkward characters, every option set,
// prose (tokenised in TypeScript, hashed by the kernel's fingerprintTokens), and this
// repository's own sources. (The fuzz test also runs its 10,000 inputs through both.)
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { popcount32 } from '../../../../src/core/index/hamming';
import { allPairsBatch } from '../../../../src/core/index/allPairs';
import { allPairsByKernel } from '../../helpers/kernelAllPairs';
import type { CodeKernel, DocumentFingerprint } from '../../../../src/core/types';
import { KERNEL_FILE, kernelCandidates, kernelKind, nativeKernelProblem } from '../../../../src/node/workers/nativeKernel';
import { KERNELS } from './kernelsUnderTest';
import { chineseText, mulberry32, proseText } from '../../helpers/corpus';
import { bigramSegmenter } from '../../../../src/core/text/segmenters';
import { fnv1a64, out } from '../../../../src/core/text/hash';
import { LANGUAGES, type LanguageEntry } from '../../../../src/core/text/languageTable';
import { languageOf, type CommentSyntax } from '../../../../src/core/text/languages';
import { commentHeaders, LICENSE_A, LICENSE_B, SAMPLES } from '../../helpers/languageSamples';

const REPO = path.join(__dirname, '..', '..', '..', '..');
let kernel: CodeKernel | undefined;

/** Every field, sketches as arrays: a difference anywhere shows in the JSON. */
function canon(d: DocumentFingerprint): string {
  return JSON.stringify(d, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
}

function assertSame(text: string, file: string, options: FingerprintOptions): void {
  const ts = canon(fingerprintText(text, file, options));
  const native = canon(fingerprintText(text, file, { ...options, kernel }));
  if (ts !== native) {
    assert.fail(`${file} ${JSON.stringify(options)}: kernel differs\n  ts:     ${ts.slice(0, 300)}\n  kernel: ${native.slice(0, 300)}`);
  }
}

/**
 * Regular-expression literals and divisions (core/text/comments.ts): the axios header-name regex
 * with a backtick and a quote, divisions, `)/` after a call, a regex after `return`, `//` `/*` a
 * quote and a backtick inside one, an unterminated `/` at the end of a line, JSX's `</`.
 */
const REGEX_CASES = [
  "const isValidHeaderName = (str) => /^[-_a-zA-Z0-9^`|~,!#$%&'*+.]+$/.test(str.trim());\n",
  'x = a / b / c;\n',
  'x = y / 2 // comment\n',
  'n = f(a)/2/g(b) + (c)/d/e;\n',
  "function t(s) { return /a'b\"c`d/gi.test(s) }\n",
  'v = s.replace(/\\/\\/|[/*]+|\\/\\*|"|`/g, "");\n',
  'if (x) p = /unterminated\n',
  'w = typeof /r/ + [/s/, /t\\/u/y] instanceof /v/;\n',
  'el = <p>a</p>; q = i++ / 2 / 3;\r\n',
  '/lead/.test(z) ? 1 : 2\n',
];

/** Pieces of code in many styles, glued at random: the tokeniser's and numbering's hard cases. */
const PIECES = [
  'function f(a, b) {\n  return a + b;\n}\n',
  'class A extends B {\n  method() { return this.x; }\n  get y() { return 1; }\n}\n',
  "const s = 'it\\'s'; const t = \"a \\\"q\\\" b\"; const u = `multi\nline ${x}`;\n",
  '// line comment { not a brace\n/* block\n comment */ x = 1;\n',
  '/* unterminated block comment',
  '"unterminated string\n',
  '`unterminated template',
  'x = 1.5e10 + 0x1F + 3.14.toFixed(2) + 1_000 + .5;\n',
  'def g(x):\n    # hash comment\n    return x * 2  # trailing\n\n',
  '-- sql comment\nSELECT a, b FROM t WHERE c = \'d\';\n',
  '--[[ lua block ]] local v = 1\n',
  '<!-- markup --> <div class="a">text</div>\n',
  '; lisp comment\n(defun f (x) (* x x))\n',
  '% erlang comment\nf(X) -> X.\n',
  "fn main<'a>(x: &'a str) -> &'a str { x }\n",
  'имя = функция(аргумент) + 数据变量 + données_été;\n',
  '变量一 = 计算（参数）；// 全角标点\n',
  'x\u00a0=\u3000y\u2028z\u2029w\ufeffv;\n',
  'a = "\ud83d\ude00 emoji" + \ud83d\ude00 + lone \ud800 surrogate \udc00;\n',
  'if (a) { if (b) { if (c) { deep(); } } }\n',
  '}}} unbalanced {{{\n',
  '\t\tindented_with_tabs();\r\n\r\nwindows_line_endings();\r\n',
  '@decorator\n@another(1)\nexport default class C {\n  m() {}\n}\n',
  '#include <stdio.h>\n#define X 1\nint main() { return X; }\n',
  'namespace N {\nextern "C" {\nvoid f();\n}\n}\n',
  'import { a, b } from "m";\nexport { c } from "n";\n',
  '$var = @array[0] ~ %hash{key} ^ !x | y & z;\n',
  'if x:\n    pass\nelif y:\n    pass\nelse:\n    pass\n',
  ...REGEX_CASES,
];
const FILES = ['a.js', 'b.ts', 'c.py', 'd.sql', 'e.lua', 'f.html', 'g.css', 'h.clj', 'i.erl', 'j.json', 'k.rs', 'l.go', 'Makefile', 'm.unknown', 'n.hs'];
const OPTION_SETS: FingerprintOptions[] = [
  {},
  { sections: false },
  { weighting: 'tf' },
  { normalizeIdentifiers: true },
  { shingleSize: 1, minTokens: 1 },
  { shingleSize: 5, minTokens: 2 },
  { shingleSize: 9, minTokens: 3, weighting: 'tf' },
  { minTokens: 10, normalizeIdentifiers: true, weighting: 'tf' },
];

function generated(rnd: () => number, pieces: number): string {
  const parts: string[] = [];
  for (let i = 0; i < pieces; i++) {
    let p = PIECES[Math.floor(rnd() * PIECES.length)];
    // Renamed or re-numbered copies, so that shingles repeat and differ.
    if (rnd() < 0.5) p = p.replace(/[a-z]+/g, (w) => (rnd() < 0.2 ? `${w}${Math.floor(rnd() * 9)}` : w));
    parts.push(p);
  }
  return parts.join(rnd() < 0.5 ? '' : '\n');
}

/** Every file name a row of the language table knows: its extensions, names, and names with some extension. */
function pathsOf(e: LanguageEntry): string[] {
  return [...e.extensions.map((x) => `dir/f.${x}`), ...(e.names ?? []), ...(e.prefixes ?? []).map((p) => `${p}.custom`)];
}

/** Texts at the edges of a comment syntax: openers mid-line, at the end, unterminated, stray closers, CRLF. */
function edgeFragments(c: CommentSyntax): string[] {
  const out: string[] = [];
  const lineOpeners = [...c.line, ...(c.lineStart ?? [])];
  for (const o of lineOpeners) out.push(`x ${o} y\n`, o, `${o}\n`, `\t${o} z\r\n`, `  ${o}w\n`, `a${o}b\n`, `"s ${o}" t\n`);
  for (const [o, x] of c.block) out.push(`${o} a ${x} b`, `${o}\n a\n${x}\n`, `${o} unterminated`, `${x} stray\n`, `${o}${x}`, `q${o}`);
  for (const [o, x] of c.lineBlock ?? []) {
    out.push(`\n${o} a\n b\n ${x}\n${x} rest\nc\n`, `x${o}\n`, `${o} never closed\n`, `\n${x}\n`, `\r\n${o}\r\n${x}\r\n`, o, `\n${o}${x}\n`);
  }
  return out;
}

describe('native kernel', () => {
  it('is built and loads here (set NEARDUP_NATIVE=0 to test the TypeScript alone)', function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    assert.equal(kernelKind(), 'native', `native kernel: ${nativeKernelProblem()} (looked in ${kernelCandidates().join(', ')})`);
  });

  it('only loads the addon beside the bundle or from a NearDup checkout', () => {
    const here = path.join(REPO, 'src', 'node');
    const candidates = kernelCandidates(here).filter((p) => p !== process.env.NEARDUP_KERNEL_PATH);
    assert.deepEqual(candidates, [path.join(here, KERNEL_FILE), path.join(REPO, 'build', 'Release', KERNEL_FILE)]);
    const elsewhere = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'neardup-kernel-'));
    try {
      fs.mkdirSync(path.join(elsewhere, 'a', 'b'), { recursive: true });
      fs.writeFileSync(path.join(elsewhere, 'package.json'), '{"name":"not-neardup"}');
      const found = kernelCandidates(path.join(elsewhere, 'a', 'b')).filter((p) => p !== process.env.NEARDUP_KERNEL_PATH);
      assert.deepEqual(found, [path.join(elsewhere, 'a', 'b', KERNEL_FILE)], 'no build/Release of a foreign folder');
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  for (const under of KERNELS) {
    describe(`the ${under.name} kernel`, () => {
      before(() => {
        kernel = under.kernel();
      });

      describe('gives what the TypeScript gives', function () {
        before(function () {
          if (!kernel) this.skip();
        });

        it('on 1,200 generated code files × every file type × 8 option sets', () => {
          const rnd = mulberry32(20261122);
          let compared = 0;
          for (let i = 0; i < 150; i++) {
            const text = generated(rnd, 1 + Math.floor(rnd() * 60));
            const file = FILES[i % FILES.length];
            for (const options of OPTION_SETS) {
              assertSame(text, file, options);
              compared++;
            }
          }
          assert.equal(compared, 1200);
        });

        it('takes every comment syntax and quote rule of the language table (none falls back to the TypeScript)', () => {
          for (const e of LANGUAGES) {
            const { line, block, lineStart = [], lineBlock = [] } = e.comments;
            const id = kernel!.defineLanguage(line, block.map((b) => b[0]), block.map((b) => b[1]), e.singleQuoteStrings, lineStart, lineBlock.map((b) => b[0]), lineBlock.map((b) => b[1]));
            assert.ok(id >= 0, `${e.name}: ${id}`);
          }
          assert.equal(kernel!.defineLanguage(['x'.repeat(17)], [], [], true), -1, 'an opener too long for the kernel');
          assert.equal(kernel!.defineLanguage([], ['/*'], [], true), -1, 'an opener without its closer');
        });

        it('on every language of the table: samples under license headers in each comment style, comment edge cases, each file name', () => {
          const rnd = mulberry32(20261203);
          let compared = 0;
          for (const e of LANGUAGES) {
            if (e.kind === 'prose') continue;
            const c = e.comments;
            const bodies = SAMPLES.filter(([p]) => languageOf(p).comments === c && languageOf(p).singleQuoteStrings === e.singleQuoteStrings).map(([, t]) => t);
            assert.ok(bodies.length > 0, `a sample for ${e.name}`);
            const texts: string[] = [];
            for (const body of bodies) {
              for (const h of [...commentHeaders(c, LICENSE_A), ...commentHeaders(c, LICENSE_B)]) texts.push(h + body, body + h, h.replace(/\n/g, '\r\n') + body);
            }
            const fragments = [...edgeFragments(c), ...PIECES, ...bodies.flatMap((b) => b.split(/(?<=\n)/))];
            for (let i = 0; i < 8; i++) {
              const parts: string[] = [];
              for (let j = 0, n = 5 + Math.floor(rnd() * 60); j < n; j++) parts.push(fragments[Math.floor(rnd() * fragments.length)]);
              texts.push(parts.join(rnd() < 0.5 ? '' : '\n'));
            }
            for (const file of pathsOf(e)) {
              assert.equal(languageOf(file).comments, c, file);
              for (const text of texts) {
                assertSame(text, file, { minTokens: 1 });
                compared++;
              }
              // The other option sets on a few texts of each name.
              for (const options of OPTION_SETS) assertSame(texts[compared % texts.length], file, options);
            }
          }
          assert.ok(compared > 5000, `${compared} texts compared`);
        });

        it('on regular-expression literals and divisions, each alone and glued, in JavaScript, TypeScript, TSX and Java', () => {
          const texts = [...REGEX_CASES, REGEX_CASES.join(''), REGEX_CASES.join('\n'), REGEX_CASES.map((t) => t.trimEnd()).join(' ')];
          for (const text of texts) {
            for (const file of ['a.js', 'b.ts', 'c.tsx', 'd.java']) {
              for (const options of OPTION_SETS) assertSame(text, file, { ...options, minTokens: 1 });
            }
          }
          // The kernel sees the regex: the axios line's backtick opens no template literal.
          const axios = `${REGEX_CASES[0]}function after(a, b) {\n  return a + b;\n}\n`;
          const doc = fingerprintText(axios, 'a.js', { minTokens: 1, kernel });
          assert.equal(doc.file?.tokens, 33, "19 tokens on the regex's line, 14 after");
        });

        it('on a file with hundreds of sections (the output buffer grows) and on tiny texts', () => {
          const many = Array.from({ length: 400 }, (_, i) => `function f${i}(a, b) {\n  const x = a * ${i} + b;\n  return g${i}(x, a, b) + h(x);\n}\n`).join('');
          for (const options of [{}, { minTokens: 5 }, { minTokens: 5, weighting: 'tf' as const }]) assertSame(many, 'many.js', options);
          const doc = fingerprintText(many, 'many.js', { minTokens: 5, kernel });
          assert.ok(doc.sections.length >= 300, `${doc.sections.length} sections`);
          for (const text of ['', ' ', 'x', 'a b', '{', '"', '/*', '\ud800', 'a\u0000b\u0000c']) {
            for (const options of [{ minTokens: 1 }, { minTokens: 1, shingleSize: 1 }, {}]) assertSame(text, 'tiny.js', options);
          }
        });

        it('on prose (Markdown, plain text; English, Chinese, the tokeniser\'s edges, tiny, hundreds of headings) × 10 option sets: words found by proseTokens, hashed by fingerprintTokens', () => {
          assert.equal(typeof kernel!.fingerprintTokens, 'function', 'the kernel hashes TypeScript tokens');
          assert.equal(typeof kernel!.proseTokens, 'function', 'the kernel finds prose words');
          const rnd = mulberry32(20261127);
          const texts: string[] = [];
          for (let i = 0; i < 12; i++) texts.push(proseText(rnd, 1 + Math.floor(rnd() * 12)), chineseText(rnd, 1 + Math.floor(rnd() * 6)));
          const headings = Array.from({ length: 300 }, (_, i) => `${'#'.repeat(1 + (i % 3))} Part ${i}\n\nThe part ${i} says ${'many words '.repeat(3 + (i % 9))}again.\n`).join('\n');
          texts.push(headings, texts.slice(0, 3).join('\n\n'), '', 'word', 'a b', '# only a title\n');
          // The tokeniser's edges: apostrophes (' and ’) inside, before and after words, letters beyond
          // ASCII (JavaScript's lower case: İ, ẞ, Σ), marks, digits, emoji (surrogates), kana,
          // Hangul, full-width forms, CJK runs glued to words, stop words in both languages.
          const EDGES = [
            "Don't it's 'quoted' rock'n'roll o'clock ' '' x' 'y 2's",
            'Don’t it’s ’quoted’ ’’ x’ ’y l’été caf’é café’s NAÏVE’S Ωmega’s',
            'CAFÉ Café café İstanbul STRASSE Straße ẞ ΣΊΣΥΦΟΣ Ωmega naïve e\u0301 ﬁle',
            'v1.2.3 3.14 1,000 x86_64 a-b_c a/b#c @user #tag',
            'emoji 😀 word😀word 😀😀 \ud800 lone \udc00 surrogate',
            'ひらがな カタカナ ﾊﾝｶｸ 한국어 문장 ＡＢＣ１２３ 全角ａｂｃ',
            '中文abc混合123文本 the 的 是 and 了 in 数据库database',
            '\u00a0nbsp\u2003em\u3000ideographic\ufefffeff\u2028line\u2029para',
          ];
          for (let i = 0; i < 40; i++) {
            const parts: string[] = [];
            for (let j = 0, m = 3 + Math.floor(rnd() * 30); j < m; j++) parts.push(EDGES[Math.floor(rnd() * EDGES.length)]);
            texts.push(parts.join(rnd() < 0.5 ? ' ' : '\n\n'));
          }
          texts.push(...EDGES);
          let compared = 0;
          for (const text of texts) {
            for (const file of ['README.md', 'notes.txt']) {
              for (const options of [...OPTION_SETS, { stopWords: true, minTokens: 1 }, { segmenter: bigramSegmenter, stopWords: true, minTokens: 1, shingleSize: 2 }]) {
                assertSame(text, file, options);
                compared++;
              }
            }
          }
          assert.equal(compared, texts.length * 2 * 10);
          const doc = fingerprintText(headings, 'README.md', { minTokens: 5, kernel });
          assert.ok(doc.sections.length >= 200, `${doc.sections.length} sections`);
        });

        it("proseTokens lower-cases a word's letters beyond ASCII as JavaScript does, or leaves the word to it (every unit of the BMP)", () => {
          const words: string[] = [];
          for (let u = 0x80; u <= 0xffff; u++) if (u < 0xd800 || u > 0xdfff) words.push(`a${String.fromCharCode(u)}B`, String.fromCharCode(u, u));
          // Beyond the BMP: pairs (every code point of the planes with cases, a sample of the rest), lone surrogates.
          for (let cp = 0x10000; cp <= 0x10ffff; cp += cp < 0x1f000 ? 1 : 61) words.push(`a${String.fromCodePoint(cp)}B`);
          words.push('a\ud83dB', 'a\ude00B', '\ude00\ud83d', 'x\ud83d\ud83d\ude00', 'A\ud801\udc00B', '\ud801');
          const text = words.join(' ');
          let entries = new Uint32Array(5);
          let n = kernel!.proseTokens!(text, entries);
          if (n < 0) n = kernel!.proseTokens!(text, (entries = new Uint32Array(-n * 5)));
          let lowered = 0;
          for (let e = 0; e < n * 5; e += 5) {
            if (entries[e] !== 0) continue; // a word JavaScript hashes, or a CJK run
            const word = text.slice(entries[e + 1], entries[e + 2]);
            fnv1a64(word.toLowerCase().replace(/\u2019/g, "'"));
            assert.deepEqual([entries[e + 3], entries[e + 4]], [out.hi >>> 0, out.lo >>> 0], `${word} (${[...word].map((c) => c.charCodeAt(0).toString(16)).join(' ')})`);
            if (/[^\x00-\x7f]/.test(word)) lowered++;
          }
          assert.ok(lowered >= 1000 + 15000, `${lowered} words beyond ASCII hashed by the kernel`);
        });

        it('on prose past the limits of what is handed to the kernel (2.2 M characters, 1.1 M tokens): the same fingerprints', () => {
          const words = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
          const big = Array.from({ length: 550_000 }, (_, i) => `${words[i % 7]} ${words[(i * 3) % 7]}${i % 100 === 99 ? '\n\n' : ' '}`).join('');
          assert.ok(big.length > 2_200_000);
          assertSame(big, 'big.md', {});
        });

        it('fingerprintTokens leaves the last tokenize as it was (its fingerprint after the call is the one before)', () => {
          const code = PIECES.join('\n');
          const id = kernel!.defineLanguage(['//'], ['/*'], ['*/'], true);
          const words = (fill: () => void): number[] => {
            kernel!.tokenize(code, id, false);
            fill();
            const out = new Uint32Array(1 << 16);
            const w = kernel!.fingerprint(3, false, 128, 64, 5, true, out);
            return Array.from(out.subarray(0, w));
          };
          const before = words(() => undefined);
          const after = words(() => {
            const hi = Uint32Array.from({ length: 500 }, (_, i) => i * 2654435761);
            const lo = Uint32Array.from({ length: 500 }, (_, i) => i % 37);
            const w = kernel!.fingerprintTokens!(hi, lo, lo, 500, false, Int32Array.of(0, 200, 1, 5, 100, 499, 3, 9), 2, 3, false, 128, 64, 5, new Uint32Array(1 << 12));
            assert.ok(w > 9, `${w} words`);
          });
          assert.ok(before.length > 9);
          assert.deepEqual(after, before);
        });

        it("on this repository's own sources", () => {
          let compared = 0;
          for (const dir of ['src', 'test', 'bench', 'scripts']) {
            const visit = (d: string): void => {
              for (const e of fs.readdirSync(d, { withFileTypes: true })) {
                const p = path.join(d, e.name);
                // Not bench/.cache (downloaded trees) nor bench/results (outputs): ours only.
                if (e.isDirectory()) {
                  if (!e.name.startsWith('.') && e.name !== 'results' && e.name !== 'node_modules') visit(p);
                }
                else if (/\.(ts|js|c|json)$/.test(e.name) && fs.statSync(p).size < 2_000_000) {
                  const text = fs.readFileSync(p, 'utf8');
                  assertSame(text, p, {});
                  assertSame(text, p, { weighting: 'tf', normalizeIdentifiers: true });
                  compared++;
                }
              }
            };
            visit(path.join(REPO, dir));
          }
          assert.ok(compared >= 100, `${compared} files`);
        });
      });

      describe('all pairs within distance k: the same pairs as brute force and as the TypeScript', function () {
        before(function () {
          if (!kernel) this.skip();
        });

        /** n fingerprints: random ones, near copies (up to k + 1 bits flipped) and exact copies. */
        function fingerprints(n: number, k: number, seed: number): Uint32Array {
          const rnd = mulberry32(seed);
          const word = () => Math.floor(rnd() * 2 ** 32) >>> 0;
          const fp = new Uint32Array(2 * n);
          for (let i = 0; i < n; i++) {
            const r = rnd();
            if (i > 0 && r < 0.3) {
              const j = Math.floor(rnd() * i);
              let hi = fp[2 * j];
              let lo = fp[2 * j + 1];
              if (r >= 0.05) {
                const flips = Math.floor(rnd() * (k + 2));
                for (let f = 0; f < flips; f++) {
                  const bit = Math.floor(rnd() * 64);
                  if (bit < 32) hi ^= 1 << bit;
                  else lo ^= 1 << (bit - 32);
                }
              }
              fp[2 * i] = hi >>> 0;
              fp[2 * i + 1] = lo >>> 0;
            } else {
              fp[2 * i] = word();
              fp[2 * i + 1] = word();
            }
          }
          return fp;
        }

        const canonPairs = (a: ArrayLike<number>, b: ArrayLike<number>, d: ArrayLike<number>): string[] =>
          Array.from({ length: a.length }, (_, i) => `${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}:${d[i]}`).sort();

        function brute(fp: Uint32Array, k: number): string[] {
          const n = fp.length / 2;
          const out: string[] = [];
          for (let x = 0; x < n; x++)
            for (let y = x + 1; y < n; y++) {
              const d = popcount32(fp[2 * x] ^ fp[2 * y]) + popcount32(fp[2 * x + 1] ^ fp[2 * y + 1]);
              if (d <= k) out.push(`${x}-${y}:${d}`);
            }
          return out.sort();
        }

        it('k = 0 … 20 on 2 to 2,500 fingerprints with near and exact copies', () => {
          let checked = 0;
          for (const k of [0, 1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20]) {
            for (const n of [2, 3, 17, 400, 2500]) {
              const fp = fingerprints(n, k, k * 7919 + n);
              const native = kernel!.allPairs(fp, k, 1e9)!;
              const expected = brute(fp, k);
              assert.deepEqual(canonPairs(native.a, native.b, native.distance), expected, `k=${k} n=${n}`);
              const ts = allPairsBatch(fp, k);
              assert.deepEqual(canonPairs(ts.a, ts.b, ts.distance), expected, `TypeScript k=${k} n=${n}`);
              checked += expected.length;
            }
          }
          assert.ok(checked > 1000, `${checked} pairs checked`);
        });

        it('clustered fingerprints (a few values of the high word: buckets of hundreds, sorted again by a finer key): the brute-force pairs, the same on 3 threads', () => {
          let checked = 0;
          for (const k of [3, 6, 10, 12]) {
            const n = 3000;
            const fp = new Uint32Array(2 * n);
            let s = k * 977 + 1;
            const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
            for (let i = 0; i < n; i++) {
              fp[2 * i] = [0x12345678, 0x12345679, 0x9abcdef0][next() % 3] ^ (i % 5 === 0 ? 1 << (next() % 32) : 0);
              fp[2 * i + 1] = next() & (i % 2 === 0 ? 0xffff0000 : 0xffffffff);
            }
            const native = kernel!.allPairs(fp, k, 1e9)!;
            const expected = brute(fp, k);
            assert.deepEqual(canonPairs(native.a, native.b, native.distance), expected, `k=${k}`);
            const threaded = kernel!.allPairs(fp, k, 1e9, 3)!;
            assert.deepEqual([Array.from(threaded.a), Array.from(threaded.b)], [Array.from(native.a), Array.from(native.b)], `k=${k} threads`);
            checked += expected.length;
          }
          assert.ok(checked > 1000, `${checked} pairs checked`);
        });

        it('hundreds of identical copies: every pair once; null beyond maxCandidates', () => {
          const fp = new Uint32Array(2 * 600);
          for (let i = 0; i < 600; i++) {
            fp[2 * i] = i < 500 ? 0xdeadbeef : i * 2654435761;
            fp[2 * i + 1] = i < 500 ? 0x12345678 : i * 40503;
          }
          const native = kernel!.allPairs(fp, 3, 1e9)!;
          assert.deepEqual(canonPairs(native.a, native.b, native.distance), brute(fp, 3));
          assert.equal(kernel!.allPairs(fp, 3, 1000), null);
        });

        it("copies' pairs and a brute force of thousands of values cut into runs on 2, 3 and 16 threads: the one-thread pairs in the same order, and null past maxCandidates", () => {
          // Groups of copies of very different sizes (a run holds about as many pairs as another),
          // then (k = 20: no table layout beats comparing every pair) 2,500 distinct values.
          const groups = [400, 3, 120, 1, 60, 2, 250, 7];
          let s = 12345;
          const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
          const values: Array<[number, number]> = [];
          for (const size of groups) {
            const hi = next();
            const lo = next();
            for (let i = 0; i < size; i++) values.push([hi, lo]);
          }
          for (let i = 0; i < 2500; i++) values.push([next(), next()]);
          // (the copies spread among the others)
          for (let i = values.length - 1; i > 0; i--) {
            const j = next() % (i + 1);
            [values[i], values[j]] = [values[j], values[i]];
          }
          const fp = Uint32Array.from(values.flat());
          for (const k of [3, 20]) {
            const one = kernel!.allPairs(fp, k, 1e9)!;
            const copies = groups.reduce((sum, g) => sum + (g * (g - 1)) / 2, 0);
            assert.ok(one.a.length >= copies, `k=${k}: ${one.a.length} pairs`);
            if (k === 20) assert.deepEqual(canonPairs(one.a, one.b, one.distance), brute(fp, k));
            for (const threads of [2, 3, 16]) {
              const many = kernel!.allPairs(fp, k, 1e9, threads)!;
              assert.deepEqual([Array.from(many.a), Array.from(many.b), Array.from(many.distance)], [Array.from(one.a), Array.from(one.b), Array.from(one.distance)], `k=${k} threads=${threads}`);
            }
            assert.equal(kernel!.allPairs(fp, k, one.a.length, 3)!.a.length, one.a.length, `k=${k}: cap = count`);
            assert.equal(kernel!.allPairs(fp, k, one.a.length - 1, 3), null, `k=${k}: cap = count - 1`);
          }
        });

        it('its tables on 2, 3, 7 and 40 threads: the one-thread pairs in the same order, and null past maxCandidates counted over all threads', () => {
          const same = (x: ReturnType<NonNullable<typeof kernel>['allPairs']>, y: typeof x, what: string) => {
            assert.ok(x && y, what);
            assert.deepEqual([Array.from(y.a), Array.from(y.b), Array.from(y.distance)], [Array.from(x.a), Array.from(x.b), Array.from(x.distance)], what);
          };
          let tables = 0;
          for (const k of [1, 3, 6, 10, 14]) {
            for (const n of [2, 40, 3000]) {
              // (a third of them copies or near copies of an earlier one: copies' pairs come first)
              const fp = fingerprints(n, k, k * 131 + n);
              const one = kernel!.allPairs(fp, k, 1e9);
              for (const threads of [2, 3, 7, 40]) same(one, kernel!.allPairs(fp, k, 1e9, threads), `k=${k} n=${n} threads=${threads}`);
              if (n === 3000) {
                tables++;
                const count = one!.a.length;
                assert.ok(count > 10, `k=${k}: ${count} pairs`);
                // The cap: exactly the pairs found is enough, one fewer is not (on any thread's share).
                same(one, kernel!.allPairs(fp, k, count, 2), `k=${k} cap = count`);
                assert.equal(kernel!.allPairs(fp, k, count - 1, 2), null, `k=${k} cap = count - 1`);
                assert.equal(kernel!.allPairs(fp, k, count - 1, 7), null, `k=${k} cap = count - 1, 7 threads`);
              }
            }
          }
          assert.equal(tables, 5);
        });

        it("the kernel's candidates through allPairsBatch's filters (matchPairList's reference): accept and maxPairs apply as without it; the fallback past the candidate cap", () => {
          const fp = fingerprints(3000, 10, 99);
          const accept = (a: number, b: number) => (a * 31 + b) % 3 !== 0;
          const ts = allPairsBatch(fp, 10, { accept });
          const nat = allPairsByKernel(fp, 10, kernel!, { accept });
          assert.deepEqual(canonPairs(nat.a, nat.b, nat.distance), canonPairs(ts.a, ts.b, ts.distance));
          assert.ok(ts.length > 100 && !ts.truncated && !nat.truncated);
          const capped = allPairsByKernel(fp, 10, kernel!, { accept, maxPairs: 50 });
          assert.equal(capped.length, 50);
          assert.ok(capped.truncated);
          const all = new Set(canonPairs(ts.a, ts.b, ts.distance));
          for (const p of canonPairs(capped.a, capped.b, capped.distance)) assert.ok(all.has(p), p);
          // A kernel that declines (too many candidates): the TypeScript search answers.
          const declining = { allPairs: () => null };
          const fallback = allPairsByKernel(fp, 10, declining, { accept });
          assert.deepEqual(canonPairs(fallback.a, fallback.b, fallback.distance), canonPairs(ts.a, ts.b, ts.distance));
        });
      });
    });
  }
});
