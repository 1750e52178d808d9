// A code file's region document made by the kernel from the tokenize that fingerprints it
// (CodeKernel.region, native/regiondoc.c) must be the TypeScript's: the same streams, identifiers,
// token starts and line starts as regionDocument without a kernel, the same anchors as anchorsOf
// (defaultAnchors under the region finder's defaults, any k, w and salt), and the fingerprints
// of that tokenize unchanged; a stream's anchors made by the kernel (prose documents') those of
// anchorsOf. For the native addon and the committed WebAssembly kernel, on this
// repository's sources (whole, edited, cut short) and on snippets of every comment syntax.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { anchorsOf } from '../../../../src/core/regions/anchors';
import { documentFromKernel, lineStartsOf, regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { DEFAULT_CODE_ANCHORING, defaultAnchors } from '../../../../src/core/regions/regions';
import { languageOf } from '../../../../src/core/text/languages';
import type { CodeKernel } from '../../../../src/core/types';
import { KERNELS } from './kernelsUnderTest';
import { chineseText, editLines, mulberry32, proseText } from '../../helpers/corpus';

const REPO = path.join(__dirname, '..', '..', '..', '..');

/** This repository's code sources under a few folders (sorted: the same set on every run). */
function sources(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|c|js)$/.test(e.name)) out.push([path.relative(REPO, p), fs.readFileSync(p, 'utf8')]);
    }
  };
  for (const dir of ['src/core/regions', 'src/core/fingerprint', 'native', 'scripts']) walk(path.join(REPO, dir));
  return out;
}

const SNIPPETS: Array<[string, string]> = [
  ['a.py', 'def f(x):\n    # comment\n    return x + "s\'q" + \'d"q\'  # tail\n"""doc"""\n'],
  ['b.c', '/* block */ int main(void) { // line\n  char *s = "a\\"b"; return \'x\'; }\n#define X 1\n'],
  ['c.rb', '=begin\nblock\n=end\ndef g; puts "x#{y}" # c\nend\n'],
  ['g.ts', 'const café = `t${x}` + /re/g; // ü\r\nlet 变量 = 1;\u2028x = 2; if (typeof y === "z") return 3.5e3;\n'],
  ['h.js', "const ok = (s) => /^[-_a-zA-Z0-9^`|~,!#$%&'*+.]+$/.test(s) && a / b / c > 0; // c\nreturn /x\\/\\/'\"/g;\nif (x) p = /open\nq = `t`;\n"],
  ['empty.ts', ''],
  ['one.ts', 'x'],
  ['lines.ts', '\n\n\r\n\n'],
];

/** The texts compared: every source whole, edited and cut to a third; the snippets. */
function texts(): Array<[string, string]> {
  const rnd = mulberry32(11);
  const out: Array<[string, string]> = [...SNIPPETS];
  for (const [p, text] of sources()) out.push([p, text], [p, editLines(text, rnd, 0.3)], [p, text.slice(0, Math.floor(text.length / 3))]);
  return out;
}

/** The TypeScript's document of a text with its default anchors (as the workers make it without a kernel). */
function tsDocument(text: string, p: string): RegionDocument {
  const doc = regionDocument(text, p);
  doc.anchors = defaultAnchors(doc);
  return doc;
}

for (const under of KERNELS) {
  describe(`${under.name} kernel: a code file's region document from its fingerprinting tokenize (native/regiondoc.c)`, function () {
    this.timeout(120000);
    let kernel: CodeKernel;

    before(function () {
      const k = under.kernel();
      if (!k) this.skip();
      kernel = k;
    });

    it('equals the TypeScript’s document with its default anchors (sources whole, edited, cut short; snippets; empty and one-token texts)', () => {
      let docs = 0;
      let anchors = 0;
      for (const [p, text] of texts()) {
        const ts = tsDocument(text, p);
        assert.deepEqual(regionDocument(text, p, { kernel }, DEFAULT_CODE_ANCHORING), ts, p);
        docs++;
        anchors += ts.anchors!.hash.length;
      }
      assert.ok(docs > 100 && anchors > 10000, `${docs} documents, ${anchors} anchors compared`);
    });

    it('makes the anchors of anchorsOf for any k, w and salt (k over the token count, w of 1, a salt over 2^31)', () => {
      const cases = [
        { k: 1, w: 1, salt: 0 },
        { k: 3, w: 7, salt: 0 },
        { k: 8, w: 2, salt: 0xdeadbeef },
        { k: 50, w: 30, salt: 12345 },
        { k: 5, w: 8, salt: 7 }, // the widest window winnowed without branches (WINNOW_DIRECT_MAX)
        { k: 5, w: 9, salt: 7 }, // the narrowest winnowed by a kept minimum
        { k: 100000, w: 4, salt: 1 },
      ];
      let compared = 0;
      for (const [p, text] of texts().slice(0, 60)) {
        const ts = regionDocument(text, p);
        for (const a of cases) {
          const made = regionDocument(text, p, { kernel }, a);
          assert.deepEqual(made.anchors, anchorsOf(ts.ids!, ts.length, a.k, a.w, a.salt), `${p} ${JSON.stringify(a)}`);
          compared++;
        }
      }
      assert.ok(compared >= 300);
    });

    it('fingerprintText’s kernelTokenized hook: the fingerprints are those made without it, the document the TypeScript’s, either identifier setting', () => {
      let hooked = 0;
      for (const [p, text] of texts().slice(0, 80)) {
        for (const normalizeIdentifiers of [false, true]) {
          const options = { kernel, normalizeIdentifiers, minTokens: 10 };
          const plain = fingerprintText(text, p, options);
          let doc: RegionDocument | undefined;
          const withHook = fingerprintText(text, p, { ...options, kernelTokenized: (k) => void (doc = documentFromKernel(k, DEFAULT_CODE_ANCHORING)) });
          assert.deepEqual(withHook, plain, p);
          if (languageOf(p).kind !== 'code') continue;
          assert.ok(doc, `${p}: the hook was called`);
          assert.deepEqual(doc, tsDocument(text, p), p);
          hooked++;
        }
      }
      assert.ok(hooked > 100, `${hooked} hooked documents`);
    });

    it('finds the line starts of lineStartsOf: a \\n at every offset of the units read together (32, then 8), several in one read, units holding a 0x0a byte that are not \\n, more lines than its first room', () => {
      const texts: string[] = [];
      for (let len = 0; len <= 80; len++) for (let at = 0; at < len; at++) texts.push('a'.repeat(at) + '\n' + 'b'.repeat(len - at - 1));
      for (let len = 30; len <= 70; len++) texts.push(Array.from({ length: len }, (_, i) => (i % 3 === 1 || i % 7 === 0 ? '\n' : 'c')).join(''), '\n'.repeat(len));
      texts.push('x = "\u010a\u0a00\u0a0a";\ny\n', '\n'.repeat(5000) + 'z', 'q;\n\n'.repeat(3001), '\u0a0a\n'.repeat(37));
      for (const text of texts) {
        const doc = regionDocument(text, 'x.ts', { kernel }, DEFAULT_CODE_ANCHORING);
        assert.deepEqual(doc.lineStarts, lineStartsOf(text), JSON.stringify(text.slice(0, 60)));
      }
    });

    it("anchors(): a stream's anchors as anchorsOf makes them (prose documents' defaultAnchors too; any k, w and salt; streams shorter than k; ties; outputs too small)", () => {
      const rnd = mulberry32(5);
      let compared = 0;
      const prose = [proseText(rnd, 6), chineseText(rnd, 3), editLines(proseText(rnd, 4), rnd, 0.3), 'few words', ''];
      for (const text of prose) {
        const doc = regionDocument(text, 'p.md');
        assert.deepEqual(defaultAnchors(doc, kernel), defaultAnchors(doc), text.slice(0, 40));
        compared++;
      }
      const cases = [
        { k: 1, w: 1, salt: 0 },
        { k: 12, w: 4, salt: 0 },
        { k: 8, w: 9, salt: 0xdeadbeef },
        { k: 50, w: 30, salt: 12345 },
        { k: 100000, w: 4, salt: 1 },
      ];
      for (const [p, text] of texts().slice(0, 40)) {
        const ts = regionDocument(text, p);
        for (const a of cases) {
          for (const s of [ts.raw, ts.ids!]) {
            // Streams in longer arrays: only the first `length` tokens are read.
            const hi = new Uint32Array(ts.length + 3).fill(7);
            const lo = new Uint32Array(ts.length + 3).fill(9);
            hi.set(s.hi.subarray(0, ts.length));
            lo.set(s.lo.subarray(0, ts.length));
            assert.deepEqual(anchorsOf({ hi, lo }, ts.length, a.k, a.w, a.salt, kernel), anchorsOf(s, ts.length, a.k, a.w, a.salt), `${p} ${JSON.stringify(a)}`);
            compared++;
          }
        }
      }
      // Equal k-gram hashes (repeated tokens: every window ties, or ties in a period), windows 1 to 9
      // (the narrow ones eight at a time in SIMD, then their tail), lengths around those blocks.
      for (const alphabet of [1, 2, 3, 5]) {
        for (const length of [1, 7, 8, 9, 15, 16, 17, 40, 203]) {
          const hi = Uint32Array.from({ length }, (_, i) => (alphabet === 5 ? Math.floor(rnd() * 5) : i % alphabet));
          const lo = Uint32Array.from(hi, (x) => x * 7 + 1);
          for (let w = 1; w <= 9; w++) {
            for (const k of [1, 3]) {
              assert.deepEqual(anchorsOf({ hi, lo }, length, k, w, 0, kernel), anchorsOf({ hi, lo }, length, k, w), `alphabet ${alphabet}, ${length} tokens, k ${k}, w ${w}`);
              compared++;
            }
          }
        }
      }
      assert.ok(compared >= 1000, `${compared} compared`);
      const doc = regionDocument(prose[0], 'p.md');
      const expected = anchorsOf(doc.raw, doc.length, 12, 4);
      const m = expected.hash.length;
      const [hash, pos] = [new Uint32Array(m - 1), new Int32Array(m)];
      assert.equal(kernel.anchors!(doc.raw.hi, doc.raw.lo, doc.length, 12, 4, 0, hash, pos), -m, 'too small: minus the count');
      assert.ok(hash.every((x) => x === 0), 'nothing written');
      assert.throws(() => kernel.anchors!(doc.raw.hi, doc.raw.lo, doc.length + 1, 12, 4, 0, new Uint32Array(m), new Int32Array(m)), /anchors/);
      assert.throws(() => kernel.anchors!(doc.raw.hi, doc.raw.lo, doc.length, 0, 4, 0, new Uint32Array(m), new Int32Array(m)), /anchors/);
    });

    it("a prose document's words found by the kernel (tokenizeProse with it): the TypeScript's document, Markdown, mixed scripts and CJK runs alike", () => {
      const rnd = mulberry32(23);
      const mixed = 'Ünïcode café — naïve ÉCOLE; ǅemo 😀 x\u0301 don\u2019t it’s 3.14 v2 ΑΒΓ Кириллица İstanbul ß ﬁ ŉ 東京 中文文本 ｶﾀｶﾅ 한국어\n';
      const cases: Array<[string, string]> = [['empty.md', ''], ['mixed.md', mixed.repeat(3)]];
      for (let i = 0; i < 12; i++) {
        cases.push([`p${i}.md`, proseText(rnd, 4)], [`c${i}.txt`, chineseText(rnd, 3)], [`m${i}.md`, `${proseText(rnd, 2)}\n${chineseText(rnd, 2)}\n${mixed}`]);
      }
      let tokens = 0;
      let calls = 0;
      const counted = { proseTokens: (text: string, out: Uint32Array) => (calls++, kernel.proseTokens!(text, out)) } as unknown as CodeKernel;
      for (const [p, text] of cases) {
        const ts = tsDocument(text, p);
        const made = regionDocument(text, p, { kernel: counted });
        made.anchors = defaultAnchors(made);
        assert.deepEqual(made, ts, p);
        tokens += ts.length;
      }
      assert.ok(tokens > 5000, `${tokens} tokens compared`);
      assert.ok(calls >= cases.length, `the kernel found the words of ${calls} of ${cases.length} texts`);
    });

    it('refuses region() after a tokenize made without region', () => {
      assert.equal(regionDocument('let a = 1;', 'x.ts', { kernel }).length, 5); // with region
      fingerprintText('let a = b + c; '.repeat(20), 'x.ts', { kernel, minTokens: 1 }); // without
      assert.throws(() => kernel.region(5, 4, 0, new Int32Array(3)), /not made with region/);
    });
  });
}
