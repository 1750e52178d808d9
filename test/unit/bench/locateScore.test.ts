// The scorer of the planted-copy localisation benchmark (bench/quality/locate.js): which lines
// count as copied lines, the located rule (cover and span), the pair precision judge, and the
// pasting helpers it relies on. Pure functions on small strings: no corpus, no CLI, no network.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';

interface Place {
  file: string;
  start: number;
  end: number;
}
interface Side {
  path: string;
  start: number;
  end: number;
}
interface Pair {
  a: Side;
  b: Side;
}
interface LineInfo {
  lineCount: number;
  countable: Uint8Array;
  lines: string[];
  mode: string;
}
interface PlacePairScore {
  links: number;
  copiedP: number;
  copiedQ: number;
  coverP: number;
  coverQ: number;
  spanP: number | null;
  spanQ: number | null;
  located: boolean;
  why: string;
}
interface Toks {
  toks: string[];
  ptoks: string[] | null;
}
interface Score {
  COVER: number;
  MAX_SPAN: number;
  SIMILAR: number;
  modeOfPath(p: string): string | null;
  lineInfo(text: string, mode: string): LineInfo;
  rangeText(info: LineInfo, start: number, end: number): string;
  countableIn(info: LineInfo, ranges: Array<[number, number]>, lo?: number, hi?: number): number;
  scorePlacePair(P: Place, Q: Place, pairs: Pair[], infoP: LineInfo, infoQ: LineInfo): PlacePairScore;
  indexPairs(pairs: Pair[]): Map<string, Pair[]>;
  scoreCopy(places: Place[], byFiles: Map<string, Pair[]>, infoOf: (p: string) => LineInfo): { located: boolean; span: number | null; why: string; connected: boolean; pairsLocated: number };
  isConnected(n: number, edges: Array<[number, number]>): boolean;
  rangeTokens(text: string, mode: string): Toks;
  judge(a: Toks, b: Toks): { jaccard: number; containment: number; pJaccard: number; pContainment: number; correct: boolean };
}
interface Plant {
  applyInsertions(text: string, inserts: Array<{ at: number; lines: string[]; id: string }>): { text: string; map: number[]; at: Map<string, number> };
  renameCode(text: string, mode: string, rng: () => number): { text: string; renamed: Array<[string, string]>; occurrences: number } | null;
  dedent(lines: string[], mode?: string): string[];
  analyse(text: string, lang: string): { regions: Array<{ start: number; end: number }>; positions: number[] };
}

const QUALITY = path.join(__dirname, '..', '..', '..', 'bench', 'quality');
const score = require(path.join(QUALITY, 'locate-score.js')) as Score;
const plant = require(path.join(QUALITY, 'locate-plant.js')) as Plant;

/** n lines of distinct code, `const vK = K + 1;`, 1-based K. */
const codeLines = (n: number, tag = 'v'): string => Array.from({ length: n }, (_, i) => `const ${tag}${i + 1} = f(${i + 1}, ${tag});`).join('\n');
const side = (p: string, start: number, end: number): Side => ({ path: p, start, end });

describe('bench/quality/locate scorer', () => {
  describe('copied lines: comments and blank lines do not count (code)', () => {
    it('JS: line comments, block comments and blank lines are not copied lines; a multi-line template literal is', () => {
      const text = ['// a comment', 'const a = 1;', '', '/* block', '   still comment */', 'const b = `x', 'y`;', '  // indented comment', '}'].join('\n');
      const info = score.lineInfo(text, 'code');
      const counted = [...Array(info.lineCount).keys()].map((i) => info.countable[i + 1]);
      assert.deepEqual(counted, [0, 1, 0, 0, 0, 1, 1, 0, 1]);
      assert.equal(score.countableIn(info, [[1, 9]]), 4);
      assert.equal(score.countableIn(info, [[1, 3], [2, 7]]), 3, 'ranges are merged, not double-counted');
      assert.equal(score.countableIn(info, [[1, 9]], 6, 7), 2, 'clipped to the place');
    });

    it('Python: # comments do not count, docstring lines do', () => {
      const text = ['# header', 'def f(x):', '    """Doc', '    string."""', '    # note', '    return x  # trailing'].join('\n');
      const info = score.lineInfo(text, 'py');
      assert.deepEqual([1, 2, 3, 4, 5, 6].map((l) => info.countable[l]), [0, 1, 1, 1, 0, 1]);
    });

    it('prose: blank lines and markup-only lines (fences) do not count', () => {
      const info = score.lineInfo(['Some words here.', '', '```', 'code here', '```', '中文段落'].join('\n'), 'prose');
      assert.deepEqual([1, 2, 3, 4, 5, 6].map((l) => info.countable[l]), [1, 0, 0, 1, 0, 1]);
      assert.equal(score.modeOfPath('a/b.ts'), 'code');
      assert.equal(score.modeOfPath('a/b.py'), 'py');
      assert.equal(score.modeOfPath('a/b.md'), 'prose');
    });
  });

  describe('the located rule', () => {
    // x.js: 100 code lines, the original at 41-60; y.js: 30 code lines, the paste at 11-30
    const infos: Record<string, LineInfo> = { 'x.js': score.lineInfo(codeLines(100), 'code'), 'y.js': score.lineInfo(codeLines(30, 'w'), 'code') };
    const P: Place = { file: 'x.js', start: 41, end: 60 };
    const Q: Place = { file: 'y.js', start: 11, end: 30 };
    const run = (pairs: Pair[]): PlacePairScore => score.scorePlacePair(P, Q, pairs, infos['x.js'], infos['y.js']);

    it('an exact pair of ranges locates the copy (cover 1, span 1), in either orientation', () => {
      for (const pair of [{ a: side('x.js', 41, 60), b: side('y.js', 11, 30) }, { a: side('y.js', 11, 30), b: side('x.js', 41, 60) }]) {
        const r = run([pair]);
        assert.equal(r.located, true);
        assert.equal(r.coverP, 1);
        assert.equal(r.spanQ, 1);
      }
    });

    it('at least half of the copied lines on both sides: 10 of 20 is enough, 9 is not', () => {
      assert.equal(run([{ a: side('x.js', 41, 50), b: side('y.js', 11, 20) }]).located, true);
      const r = run([{ a: side('x.js', 41, 49), b: side('y.js', 11, 30) }]);
      assert.equal(r.located, false);
      assert.equal(r.why, 'cover');
      assert.equal(r.coverP, 0.45);
    });

    it('several linking pairs add up (two halves make a whole)', () => {
      const r = run([
        { a: side('x.js', 41, 47), b: side('y.js', 11, 17) },
        { a: side('x.js', 48, 60), b: side('y.js', 18, 30) },
      ]);
      assert.equal(r.links, 2);
      assert.equal(r.coverP, 1);
      assert.equal(r.located, true);
    });

    it('a pair that misses either place does not link it', () => {
      const r = run([{ a: side('x.js', 1, 20), b: side('y.js', 11, 30) }]);
      assert.equal(r.links, 0);
      assert.equal(r.why, 'no link');
      assert.equal(run([{ a: side('x.js', 41, 60), b: side('z.js', 11, 30) }]).links, 0);
    });

    it('the span rule: at most 3x the copied lines on each side; a file pair spans whole files', () => {
      // 60 lines on x's side for 20 copied: exactly 3x, still located
      assert.equal(run([{ a: side('x.js', 21, 80), b: side('y.js', 11, 30) }]).located, true);
      const wide = run([{ a: side('x.js', 20, 80), b: side('y.js', 11, 30) }]);
      assert.equal(wide.located, false);
      assert.equal(wide.why, 'span');
      assert.equal(wide.spanP, 61 / 20);
      // a file pair: x.js is 100 lines (5x the copy) -> not located; y.js is 30 (1.5x) -> fine
      const file = run([{ a: side('x.js', 1, 100), b: side('y.js', 1, 30) }]);
      assert.equal(file.coverP, 1);
      assert.equal(file.spanP, 5);
      assert.equal(file.spanQ, 1.5);
      assert.equal(file.located, false);
    });

    it('the span counts copied lines only: comment lines around a tight range cost nothing', () => {
      const text = ['/**', ' * doc', ' */', codeLines(10), '// trailing', '// comments'].join('\n');
      const info = score.lineInfo(text, 'code');
      const p: Place = { file: 'c.js', start: 4, end: 13 };
      const r = score.scorePlacePair(p, p, [{ a: side('c.js', 1, 15), b: side('c.js', 1, 15) }], info, info);
      assert.equal(r.copiedP, 10);
      assert.equal(r.spanP, 1);
    });

    it('same-file repeat: a pair inside one file links the original and the repeat', () => {
      const info = score.lineInfo(codeLines(100), 'code');
      const A: Place = { file: 'x.js', start: 11, end: 30 };
      const B: Place = { file: 'x.js', start: 71, end: 90 };
      const pairs = [{ a: side('x.js', 71, 90), b: side('x.js', 11, 30) }];
      assert.equal(score.scorePlacePair(A, B, pairs, info, info).located, true);
      // a pair of the repeat with some other part of the file does not
      assert.equal(score.scorePlacePair(A, B, [{ a: side('x.js', 71, 90), b: side('x.js', 40, 60) }], info, info).links, 0);
    });

    it('a group is located only when every pair of its places is; a star is connected but not located', () => {
      const infoOf = (): LineInfo => score.lineInfo(codeLines(40), 'code');
      const places: Place[] = ['a.js', 'b.js', 'c.js', 'd.js'].map((f) => ({ file: f, start: 11, end: 30 }));
      const star: Pair[] = ['b.js', 'c.js', 'd.js'].map((f) => ({ a: side('a.js', 11, 30), b: side(f, 11, 30) }));
      const s = score.scoreCopy(places, score.indexPairs(star), infoOf);
      assert.equal(s.located, false);
      assert.equal(s.pairsLocated, 3);
      assert.equal(s.connected, true);
      assert.equal(s.why, 'no link');
      const clique: Pair[] = [];
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) clique.push({ a: side(places[i].file, 11, 30), b: side(places[j].file, 12, 30) });
      const c = score.scoreCopy(places, score.indexPairs(clique), infoOf);
      assert.equal(c.located, true);
      assert.equal(c.span, 1);
      assert.equal(score.isConnected(3, [[0, 1]]), false);
    });
  });

  describe('the pair precision judge', () => {
    const fn = ['function total(items, tax) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price * item.count;', '  }', '  return sum * (1 + tax);', '}'].join('\n');

    it('identical ranges are correct; unrelated ones are not', () => {
      const a = score.rangeTokens(fn, 'code');
      assert.equal(score.judge(a, score.rangeTokens(fn, 'code')).correct, true);
      const other = score.rangeTokens('import fs from "fs";\nexport const read = (p) => fs.readFileSync(p, "utf8").split("\\n").filter(Boolean);', 'code');
      const j = score.judge(a, other);
      assert.equal(j.correct, false);
      assert.ok(j.jaccard < 0.1);
    });

    it('a consistently renamed copy is correct through the parameterised tokens, not the raw ones', () => {
      const renamed = fn.replace(/\bitems\b/g, 'rows').replace(/\bitem\b/g, 'row').replace(/\bsum\b/g, 'acc').replace(/\btax\b/g, 'rate').replace(/\btotal\b/g, 'grand');
      const j = score.judge(score.rangeTokens(fn, 'code'), score.rangeTokens(renamed, 'code'));
      assert.ok(j.jaccard < score.SIMILAR, `raw Jaccard ${j.jaccard}`);
      assert.equal(j.pJaccard, 1);
      assert.equal(j.correct, true);
      // an inconsistent renaming (every identifier the same name) is not the same p-string
      const flat = fn.replace(/\b(items|item|sum|tax|total|price|count)\b/g, 'x');
      assert.ok(score.judge(score.rangeTokens(fn, 'code'), score.rangeTokens(flat, 'code')).pJaccard < 0.5);
    });

    it('containment: a small range inside a larger one is correct (a copy found inside a whole file)', () => {
      const big = [codeLines(40, 'q'), fn, codeLines(40, 'r')].join('\n');
      const j = score.judge(score.rangeTokens(fn, 'code'), score.rangeTokens(big, 'code'));
      assert.ok(j.jaccard < 0.5);
      assert.equal(j.containment, 1);
      assert.equal(j.correct, true);
    });

    it('prose: judged on lower-cased words and single Han characters; a range starting inside a string is compared by its text', () => {
      const en = 'The quick brown fox jumps over the lazy dog near the river bank today.';
      assert.equal(score.judge(score.rangeTokens(en, 'prose'), score.rangeTokens(en.toUpperCase(), 'prose')).correct, true);
      const zh = '近似重复的文本可以用局部敏感哈希找到';
      assert.equal(score.judge(score.rangeTokens(zh, 'prose'), score.rangeTokens(zh, 'prose')).correct, true);
      const doc = ['def f():', '    """One line of the doc', '    and the second line', '    and the third line', '    """'].join('\n');
      const info = score.lineInfo(doc, 'py');
      const mid = score.rangeText(info, 3, 4);
      assert.equal(mid, '    and the second line\n    and the third line');
      assert.equal(score.judge(score.rangeTokens(mid, 'py'), score.rangeTokens(mid, 'py')).correct, true);
    });
  });

  describe('planting helpers', () => {
    it('applyInsertions: pastes surrounded by blank lines, old lines mapped to new ones', () => {
      const r = plant.applyInsertions('a\nb\nc\n', [
        { at: 1, lines: ['X', 'Y'], id: 'p' },
        { at: 3, lines: ['Z'], id: 'q' },
      ]);
      assert.equal(r.text, 'a\n\nX\nY\n\nb\nc\n\nZ\n');
      assert.deepEqual(r.map, [0, 5, 6, 9]);
      assert.equal(r.at.get('p'), 2);
      assert.equal(r.at.get('q'), 8);
    });

    it('renameCode renames declared names consistently and leaves properties alone', () => {
      let seed = 1;
      const rng = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
      const r = plant.renameCode(['function total(items, tax) {', '  const sum = items.length + tax;', '  return { sum: sum, items };', '}'].join('\n'), 'code', rng);
      assert.ok(r);
      const names = new Map(r.renamed);
      assert.deepEqual([...names.keys()].sort(), ['items', 'sum', 'tax', 'total']);
      assert.ok(r.text.includes('.length'), 'a property stays');
      assert.ok(r.text.includes(`{ sum: ${names.get('sum')}`), 'an object key stays, its value is renamed');
      const p1 = score.rangeTokens(r.text, 'code').ptoks;
      assert.ok(p1);
    });

    it('dedent keeps the lines of a multi-line string as they are', () => {
      assert.deepEqual(plant.dedent(['    x = 1', '    s = """a', '    b"""'], 'py'), ['x = 1', 's = """a', '    b"""']);
    });

    it('analyse: top-level positions between statements, a region is a whole function', () => {
      const body = Array.from({ length: 16 }, (_, i) => `  const y${i} = x * ${i} + g(y${i > 0 ? i - 1 : 0});`);
      const text = ['const a = require("a");', '', '// f doubles', 'function f(x) {', ...body, '  return x;', '}', '', 'module.exports = f;', ''].join('\n');
      const an = plant.analyse(text, 'code');
      // before the comment of f (line 2), before module.exports (23), at the end (24)
      assert.deepEqual(an.positions, [2, 23, 24]);
      // f with its comment: lines 2..21; also runs inside f's body
      assert.ok(an.regions.some((r) => r.start === 2 && r.end === 21), JSON.stringify(an.regions));
      assert.ok(an.regions.every((r) => r.end - r.start + 1 >= 15 && r.end - r.start + 1 <= 60));
    });
  });
});
