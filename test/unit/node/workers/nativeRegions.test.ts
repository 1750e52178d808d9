// The native kernel's part of the region finder must give exactly what the TypeScript gives: its
// tokens (tokenize + tokens) make the same region documents as tokenizeCode, in every language the
// kernel takes; and its chain alignment (native/align.c, alignChain of src/core/regions/align.ts
// in C) and its seeds (native/seeds.c, AnchorIndex.seeds in C) give: the same alignment (ranges, scores, renames, kinds) for
// every chain, and so the same regions from findRegions. Compared on this repository's sources
// with their copies pasted, renamed and edited at several rates into other sources and into
// themselves, on English and Chinese prose with pasted paragraphs, and on random chains (random
// seeds, self chains, chains at the documents' ends, short documents). Its speed is measured by
// bench/quality/locate-regions.js (the region finder's time with and without the kernel).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alignChain, kernelAligner, type AlignOptions } from '../../../../src/core/regions/align';
import { AnchorIndex } from '../../../../src/core/regions/anchorIndex';
import { regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { findRegions } from '../../../../src/core/regions/regions';
import { kernelCandidates, nativeKernelProblem } from '../../../../src/node/workers/nativeKernel';
import type { CodeKernel } from '../../../../src/core/types';
import { KERNELS } from './kernelsUnderTest';
import { chineseText, editLines, mulberry32, proseText } from '../../helpers/corpus';

const REPO = path.join(__dirname, '..', '..', '..', '..');
let kernel: CodeKernel | undefined;

/** Some of this repository's sources (sorted: the same set on every run). */
function sources(n: number): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|c)$/.test(e.name)) out.push({ path: path.relative(REPO, p), text: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(path.join(REPO, 'src', 'core'));
  walk(path.join(REPO, 'native'));
  return out.slice(0, n);
}

/** Every identifier of a text renamed the same way (a consistently renamed copy). */
const renamed = (text: string) => text.replace(/\b([a-z][A-Za-z0-9]*)\b/g, (m) => (m.length > 3 ? `${m}Z` : m));

/** A block of `lines` lines of `text` from a random line. */
function blockOf(text: string, rnd: () => number, lines: number): string {
  const all = text.split('\n');
  const from = Math.floor(rnd() * Math.max(1, all.length - lines));
  return all.slice(from, from + lines).join('\n');
}

/** Pastes `block` at a random line of `host`. */
function paste(host: string, block: string, rnd: () => number): string {
  const lines = host.split('\n');
  const at = Math.floor(rnd() * lines.length);
  return [...lines.slice(0, at), block, ...lines.slice(at)].join('\n');
}

/** Documents with copies: sources pasted into each other (verbatim, renamed, edited) and into themselves; prose likewise. */
function corpus(seed: number): RegionDocument[] {
  const rnd = mulberry32(seed);
  const src = sources(40);
  const texts: Array<{ path: string; text: string }> = [];
  for (let i = 0; i < src.length; i++) {
    const donor = src[(i * 7 + 3) % src.length].text;
    const block = blockOf(donor, rnd, 10 + Math.floor(rnd() * 40));
    const kind = i % 5;
    const copy = kind === 0 ? block : kind === 1 ? renamed(block) : kind === 2 ? editLines(block, rnd, 0.1) : kind === 3 ? editLines(block, rnd, 0.25) : block;
    let text = paste(src[i].text, copy, rnd);
    if (kind === 4) text = paste(text, blockOf(text, rnd, 20), rnd); // a same-file repeat
    texts.push({ path: src[i].path, text });
  }
  for (let i = 0; i < 8; i++) {
    const en = proseText(mulberry32(seed * 31 + i), 8);
    const zh = chineseText(mulberry32(seed * 37 + i), 6);
    texts.push({ path: `docs/en${i}.md`, text: paste(en, blockOf(proseText(mulberry32(seed * 31 + ((i + 1) % 8)), 8), rnd, 6), rnd) });
    texts.push({ path: `docs/zh${i}.md`, text: paste(zh, editLines(blockOf(chineseText(mulberry32(seed * 37 + ((i + 1) % 8)), 6), rnd, 4), rnd, 0.2), rnd) });
  }
  return texts.map((t) => regionDocument(t.text, t.path));
}

/** Code in the languages the kernel takes, with comments, strings and odd characters. */
const SNIPPETS: Array<[string, string]> = [
  ['a.py', 'def f(x):\n    # comment\n    return x + "s\'q" + \'d"q\'  # tail\n"""doc"""\n'],
  ['b.c', '/* block */ int main(void) { // line\n  char *s = "a\\"b"; return \'x\'; }\n#define X 1\n'],
  ['c.rb', '=begin\nblock\n=end\ndef g; puts "x#{y}" # c\nend\n'],
  ['d.sh', 'echo "$HOME" # c\nfor i in 1 2; do echo $i; done\n'],
  ['e.sql', 'SELECT a -- c\nFROM t /* b */ WHERE x = \'y\';\n'],
  ['f.lua', '-- c\n--[[ block ]]\nlocal x = "s" .. [[long]]\n'],
  ['g.ts', 'const café = `t${x}` + /re/g; // ü\r\nlet 变量 = 1;\u2028x = 2;\n'],
  ['h.hs', '{- block -} f x = x -- c\n'],
  ['i.vb', "Dim x = 1 ' comment\nREM also\n"],
];

const OPTIONS: AlignOptions[] = [
  { k: 5, coverK: 3, margin: 9, band: 6, fringeGap: 2, minConsistency: 0.9 },
  { k: 4, coverK: 2, margin: 0, band: 0, fringeGap: 0, minConsistency: 0.5 },
  { k: 8, coverK: 5, margin: 30, band: 12, fringeGap: 6, minConsistency: 1 },
];

for (const under of KERNELS) {
  describe(`${under.name} chain alignment (native/align.c) = alignChain of core/regions`, function () {
    this.timeout(120000);

    before(function () {
      kernel = under.kernel();
      if (under.name === 'native' && process.env.NEARDUP_NATIVE === '0') this.skip();
      assert.ok(kernel, `native kernel: ${nativeKernelProblem()} (looked in ${kernelCandidates().join(', ')})`);
    });

    it('region documents from the kernel’s tokens equal those of tokenizeCode (this repository’s sources, every language the kernel takes, odd characters)', () => {
      let docs = 0;
      const texts: Array<[string, string]> = [...sources(200).map((s) => [s.path, s.text] as [string, string]), ...SNIPPETS];
      const rnd = mulberry32(5);
      for (const [p, text] of texts) {
        for (const t of [text, editLines(text, rnd, 0.3), text.slice(0, Math.floor(text.length / 3))]) {
          const ts = regionDocument(t, p);
          const native = regionDocument(t, p, { kernel });
          assert.deepEqual(native, ts, p);
          docs++;
        }
      }
      assert.ok(docs > 120, `${docs} documents compared`);
    });

    it('findRegions gives the same regions with the kernel as with the TypeScript (code pasted verbatim, renamed, edited, repeated; English and Chinese prose)', () => {
      let pairs = 0;
      for (const seed of [1, 2]) {
        const docs = corpus(seed);
        for (const options of [{}, { selfMatches: true, minTokens: 20, band: 3 }, { streams: 'both' as const, coverK: 2 }]) {
          const ts = findRegions(docs, options);
          for (const native of [findRegions(docs, { ...options, aligner: kernelAligner(kernel!) }), findRegions(docs, { ...options, kernel })]) {
            assert.deepEqual(native.pairs, ts.pairs, `seed ${seed} ${JSON.stringify(options)}`);
            assert.deepEqual(native.groups, ts.groups);
            // The index's capacity (indexBytes) differs: the TypeScript's sort copies it to the size used.
            assert.deepEqual({ ...native.stats, indexBytes: 0 }, { ...ts.stats, indexBytes: 0 });
          }
          pairs += ts.pairs.length;
        }
        // The copies are found at all (the comparison is not of empty results): every kind of result.
        const kinds = new Set(findRegions(docs).pairs.map((p) => p.clone));
        assert.deepEqual([...kinds].sort(), ['edited', 'exact', 'renamed'], `seed ${seed}`);
      }
      assert.ok(pairs > 100, `${pairs} region pairs compared`);
    });

    it('a verbatim copy between look-alike code on its diagonal (heavily edited twins of one text on both sides): the same cut regions', () => {
      // The copy pasted between two look-alike stretches (each side's an edit of one text at half
      // the lines): the aligner cuts the stretches that match much less than the copy.
      const rnd = mulberry32(23);
      const src = sources(24);
      let pairs = 0;
      let exact = 0;
      for (let i = 0; i + 3 < src.length; i += 4) {
        const copy = blockOf(src[i].text, rnd, 20 + Math.floor(rnd() * 30));
        const before = blockOf(src[i + 1].text, rnd, 8 + Math.floor(rnd() * 12));
        const after = blockOf(src[i + 1].text, rnd, 8 + Math.floor(rnd() * 12));
        const side = (host: string) => [blockOf(host, rnd, 30), editLines(before, rnd, 0.6), copy, editLines(after, rnd, 0.6), blockOf(host, rnd, 30)].join('\n');
        const docs = [regionDocument(side(src[i + 2].text), 'a.ts'), regionDocument(side(src[i + 3].text), 'b.ts')];
        const ts = findRegions(docs);
        assert.deepEqual(findRegions(docs, { kernel }).pairs, ts.pairs, `copy from ${src[i].path}`);
        pairs += ts.pairs.length;
        exact += ts.pairs.filter((p) => p.clone === 'exact').length;
      }
      assert.ok(pairs >= 6 && exact >= 3, `${pairs} pairs, ${exact} exact`);
    });

    it('the kernel’s seeds: the same buckets as AnchorIndex.seeds, under every cap, per-document caps and a limit on distinct documents', () => {
      const rnd = mulberry32(17);
      let seeds = 0;
      for (let round = 0; round < 40; round++) {
        const ts = new AnchorIndex();
        const native = new AnchorIndex();
        const docs = 1 + Math.floor(rnd() * 30);
        const alphabet = 1 + Math.floor(rnd() * (round % 2 ? 50 : 5000));
        for (let d = 0; d < docs; d++) {
          const n = Math.floor(rnd() * 300);
          const hash = new Uint32Array(n);
          const pos = new Int32Array(n);
          let p = 0;
          for (let i = 0; i < n; i++) {
            // Hashes from a small alphabet (many postings) or spread over 32 bits (the radix passes).
            hash[i] = round % 3 === 0 ? (Math.floor(rnd() * alphabet) * 0x9e3779b1) >>> 0 : Math.floor(rnd() * alphabet);
            p += Math.floor(rnd() * (round % 4 === 0 ? 70000 : 5)); // positions over 16 bits too
            pos[i] = p;
          }
          ts.add(d, hash, pos);
          native.add(d, hash, pos);
        }
        const cap = [2, 5, 24, 1000, Infinity][round % 5];
        const limits = [{}, { capOf: (d: number) => (d % 2 ? cap : 3) }, { maxDocs: 3 }, { maxDocs: 0 }][round % 4];
        const a = ts.seeds(cap, limits);
        const b = native.seeds(cap, { ...limits, kernel });
        assert.deepEqual(
          b.buckets.map((x) => [x.docA, x.docB, Array.from(x.pairs)]),
          a.buckets.map((x) => [x.docA, x.docB, Array.from(x.pairs)]),
          `round ${round}`,
        );
        assert.equal(b.dropped, a.dropped);
        assert.equal(b.seeds, a.seeds);
        seeds += a.seeds;
      }
      assert.ok(seeds > 10000, `${seeds} seeds compared`);
    });

    it('the seeds of a few anchors (sorted a byte a digit) are those the same anchors give among many (two bytes a digit), with the kernel and without', () => {
      const rnd = mulberry32(29);
      for (let round = 0; round < 6; round++) {
        const docs = 2 + Math.floor(rnd() * 4);
        const added: Array<[number, Uint32Array, Int32Array]> = [];
        for (let d = 0; d < docs; d++) {
          const n = 200 + Math.floor(rnd() * 800);
          const hash = Uint32Array.from({ length: n }, () => (round % 2 ? (Math.floor(rnd() * 300) * 0x9e3779b1) >>> 0 : Math.floor(rnd() * 300)));
          let p = 0;
          const pos = Int32Array.from({ length: n }, () => (p += 1 + Math.floor(rnd() * (round % 3 === 0 ? 70000 : 4))));
          added.push([d, hash, pos]);
        }
        // A last document of 80,000 anchors, each hash twice and in no other document: 40,000 seeds of its own.
        const taken = new Set(added.flatMap(([, h]) => [...h]));
        const pad: number[] = [];
        for (let h = 0x7fff0000; pad.length < 80000; h++) if (!taken.has(h) && !taken.has(h + 1)) pad.push(h, h++);
        const few = (kernelOrNot?: typeof kernel) => {
          const index = new AnchorIndex();
          for (const [d, h, p] of added) index.add(d, h, p);
          return index.seeds(24, kernelOrNot ? { kernel: kernelOrNot } : {});
        };
        const many = (kernelOrNot?: typeof kernel) => {
          const index = new AnchorIndex();
          for (const [d, h, p] of added) index.add(d, h, p);
          index.add(docs, Uint32Array.from(pad), Int32Array.from(pad, (_, i) => i));
          return index.seeds(24, kernelOrNot ? { kernel: kernelOrNot } : {});
        };
        const view = (r: ReturnType<AnchorIndex['seeds']>) => r.buckets.filter((x) => x.docB < docs).map((x) => [x.docA, x.docB, Array.from(x.pairs)]);
        for (const k of [undefined, kernel]) {
          const small = few(k);
          const large = many(k);
          assert.ok(small.seeds > 100 && small.seeds < 32768 && large.seeds >= 32768, `round ${round}: ${small.seeds} and ${large.seeds} seeds`);
          assert.deepEqual(view(large), view(small), `round ${round}, ${k ? 'kernel' : 'TypeScript'}`);
          assert.equal(large.seeds - small.seeds, 40000);
        }
      }
    });

    it('the kernel’s seeds when documents are added out of order (the cap of a hash’s first posting), over 32,768 anchors and with positions up to 2^31 (seeds wider than 64 bits)', () => {
      const rnd = mulberry32(43);
      let seeds = 0;
      for (let round = 0; round < 8; round++) {
        const ts = new AnchorIndex();
        const native = new AnchorIndex();
        const docs = round % 2 ? 12 + Math.floor(rnd() * 10) : 3 + Math.floor(rnd() * 20);
        const order = Array.from({ length: docs }, (_, d) => d).sort(() => rnd() - 0.5);
        for (const d of order) {
          const n = round % 2 ? 3000 + Math.floor(rnd() * 2000) : Math.floor(rnd() * 400);
          const hash = Uint32Array.from({ length: n }, () => (Math.floor(rnd() * (round % 4 < 2 ? 3000 : 200)) * 0x9e3779b1) >>> 0);
          let p = round % 3 === 0 ? 0x7fff0000 - 40 * n : 0;
          const pos = Int32Array.from({ length: n }, () => (p += 1 + Math.floor(rnd() * 30)));
          ts.add(d, hash, pos);
          native.add(d, hash, pos);
        }
        assert.ok(round % 2 === 0 || ts.size >= 32768, `round ${round}: ${ts.size} anchors`);
        const limits = { capOf: (d: number) => [2, 40, 6][d % 3], ...(round % 4 === 3 ? { maxDocs: 4 } : {}) };
        const a = ts.seeds(0, limits);
        const b = native.seeds(0, { ...limits, kernel });
        assert.deepEqual(
          b.buckets.map((x) => [x.docA, x.docB, Array.from(x.pairs)]),
          a.buckets.map((x) => [x.docA, x.docB, Array.from(x.pairs)]),
          `round ${round}`,
        );
        assert.equal(b.dropped, a.dropped);
        assert.ok(a.dropped > 0, `round ${round}: some hashes over their cap`);
        seeds += a.seeds;
      }
      assert.ok(seeds > 20000, `${seeds} seeds compared`);
    });

    it('random chains: the same alignment or none, for pairs of documents and a document with itself', () => {
      // Pairs of a source and its edited (renamed, …) copy: seeds near their diagonal align.
      const rnd = mulberry32(99);
      const twins = sources(30).map((s, i) => {
        const copy = i % 3 === 0 ? renamed(s.text) : editLines(s.text, rnd, [0, 0.05, 0.2][i % 3]);
        return [regionDocument(s.text, s.path), regionDocument(copy, s.path)] as const;
      });
      const align = kernelAligner(kernel!);
      let found = 0;
      let none = 0;
      for (let round = 0; round < 3000; round++) {
        const self = round % 4 === 0;
        const [X, Y] = twins[Math.floor(rnd() * twins.length)];
        const A = X;
        const B = self ? X : round % 4 === 1 ? twins[Math.floor(rnd() * twins.length)][1] : Y;
        if (A.length < 2 || B.length < 2) continue;
        // Seeds near one diagonal (a chain; on a self chain, from the second half), increasing on side a.
        const m = 1 + Math.floor(rnd() * 12);
        const seeds: number[] = [];
        let a = Math.floor(rnd() * (self ? A.length / 2 : A.length));
        const diag = self ? Math.floor(A.length / 2) + Math.floor(rnd() * 20) : round % 8 === 2 ? Math.floor(rnd() * B.length) - a : Math.floor(rnd() * 7) - 3;
        for (let i = 0; i < m && a < A.length; i++) {
          const b = Math.min(B.length - 1, Math.max(0, a + diag + Math.floor(rnd() * 9) - 4));
          seeds.push(a, b);
          a += 1 + Math.floor(rnd() * 30);
        }
        const o = OPTIONS[round % OPTIONS.length];
        const ts = alignChain(A, B, seeds, o, self);
        const native = align(A, B, seeds, o, self);
        assert.deepEqual(native, ts, `round ${round}: seeds ${JSON.stringify(seeds)} ${JSON.stringify(o)} self ${self}`);
        if (ts) found++;
        else none++;
      }
      assert.ok(found > 1000 && none > 50, `alignments ${found}, none ${none}`);
    });

    it('band searches at the edges of the vector widths (bands 7, 8, 15, 16, 31), repeated k-grams in the band, chains off their diagonal, seeds not rising, self chains, short windows: the same alignment', () => {
      // Texts of five distinct lines: equal k-grams recur in every band, on both sides of its centre.
      const rnd = mulberry32(7);
      const lines = ['a = b;', 'b = a;', 'f(a, b);', 'return a;', 'x += 1;'];
      const docs = Array.from({ length: 12 }, (_, t) => regionDocument(Array.from({ length: 10 + t * 12 }, () => lines[Math.floor(rnd() * lines.length)]).join('\n'), `r${t}.ts`));
      docs.push(regionDocument('a = b;', 's1.ts'), regionDocument('f(a, b); x += 1;', 's2.ts'));
      const align = kernelAligner(kernel!);
      const bands = [7, 8, 15, 16, 31];
      let found = 0;
      let none = 0;
      for (let round = 0; round < 2500; round++) {
        const band = bands[round % bands.length];
        const o: AlignOptions = { k: 3 + (round % 3), coverK: 1 + (round % 4), margin: [0, 4, 20][round % 3], band, fringeGap: 2, minConsistency: 0.9 };
        const self = round % 4 === 0;
        const A = docs[Math.floor(rnd() * docs.length)];
        const B = self ? A : docs[Math.floor(rnd() * docs.length)];
        if (A.length < 1 || B.length < 1) continue;
        // Seeds around a diagonal up to a band and a half off (a self chain's from the first half
        // to the second); every seventh chain's seeds not rising on side a.
        const m = 1 + Math.floor(rnd() * 8);
        const seeds: number[] = [];
        let a = Math.floor(rnd() * (self ? A.length / 2 : A.length));
        const diag = self ? Math.floor(A.length / 2) : Math.floor((rnd() - 0.5) * 3 * band);
        for (let i = 0; i < m && a < A.length; i++) {
          seeds.push(a, Math.min(B.length - 1, Math.max(0, a + diag + Math.floor(rnd() * 5) - 2)));
          a = round % 7 === 3 ? Math.max(0, a - Math.floor(rnd() * 3)) : a + 1 + Math.floor(rnd() * 2 * band);
        }
        const ts = alignChain(A, B, seeds, o, self);
        assert.deepEqual(align(A, B, seeds, o, self), ts, `round ${round}: seeds ${JSON.stringify(seeds)} ${JSON.stringify(o)} self ${self}`);
        if (ts) found++;
        else none++;
      }
      assert.ok(found > 500 && none > 50, `alignments ${found}, none ${none}`);
    });

    it('refuses arguments that do not describe documents (no crash, a clear error)', () => {
      const d = regionDocument('const a = 1;\nconst b = 2;\n', 'x.ts');
      const seeds = Int32Array.from([0, 1]);
      const params = Float64Array.from([5, 3, 9, 6, 2, 0.9, 0]);
      const out = new Float64Array(13);
      const call = (over: Partial<Record<'seeds' | 'params' | 'out' | 'aLength', unknown>>) => () =>
        kernel!.alignChain(
          d.raw.hi,
          d.raw.lo,
          d.ids!.hi,
          d.ids!.lo,
          d.isIdent,
          d.raw.hi,
          d.raw.lo,
          d.ids!.hi,
          d.ids!.lo,
          d.isIdent,
          (over.aLength as number) ?? d.length,
          d.length,
          (over.seeds as Int32Array) ?? seeds,
          (over.params as Float64Array) ?? params,
          (over.out as Float64Array) ?? out,
        );
      assert.doesNotThrow(call({}));
      assert.throws(call({ seeds: Int32Array.from([0, d.length]) }), /outside its document/);
      assert.throws(call({ seeds: Int32Array.from([0]) }), /seeds/);
      assert.throws(call({ aLength: d.length + 5 }), /lengths/);
      assert.throws(call({ params: Float64Array.from([0, 3, 9, 6, 2, 0.9, 0]) }), /params/);
      assert.throws(call({ out: new Float64Array(3) }), /out/);
    });
  });
}

