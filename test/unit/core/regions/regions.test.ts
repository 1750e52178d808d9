// Unit tests of src/core/regions: anchors (winnowing), the anchor index, chaining, alignment and
// trimming, classification (exact, renamed with the consistency check, edited), same-file repeats,
// groups, prose in English and Chinese, unrelated texts, determinism.
import { strict as assert } from 'node:assert';
import { anchorsOf, kgramHashes, winnow } from '../../../../src/core/regions/anchors';
import { AnchorIndex } from '../../../../src/core/regions/anchorIndex';
import { chainSeeds } from './chainReference';
import { IDENT_HI, IDENT_LO, lineOfOffset, lineStartsOf, regionDocument, regionDocumentOfParts } from '../../../../src/core/regions/document';
import { groupRegions, samePlace } from '../../../../src/core/regions/groups';
import { bucketWanted, defaultAnchors, findRegions, planRegions, wantedBucketList, wantedBuckets, type RegionPair } from '../../../../src/core/regions/regions';
import { languageOf } from '../../../../src/core/text/languages';
import { TokenBuffer, tokenizeCode } from '../../../../src/core/text/tokenize';
import { mulberry32 as rng } from '../../helpers/random';
import { codeFile } from '../../helpers/corpus';

const WORDS = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega river stone cloud field light night paper glass metal water'.split(' ');

/** Unrelated code: `n` small functions of random shapes, names and numbers. */
function hostCode(seed: number, n: number): string {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const name = (): string => pick(WORDS) + Math.floor(r() * 1000);
  const num = (): number => Math.floor(r() * 1000);
  const op = (): string => pick(['+', '-', '*', '/', '%', '&', '|', '^', '<<', '>>', '&&', '||', '??']);
  const statements: (() => string)[] = [
    () => `  const ${name()} = ${name()}.${name()}(${num()}, '${name()}');`,
    () => `  if (${name()} < ${num()}) { ${name()}++; }`,
    () => `  for (let ${name()} = ${num()}; ${name()} < ${num()}; ${name()} += ${num()}) ${name()}[${name()}] = ${name()};`,
    () => `  ${name()}.push([${num()}, ${num()}, ${name()}]);`,
    () => `  while (${name()} && !${name()}) ${name()} = ${name()}.${name()};`,
    () => `  return ${name()} ${op()} ${num()} ${op()} ${name()} ${op()} ${num()};`,
    () => `  throw new ${name()}('${name()} ' + ${name()});`,
    () => `  let ${name()} = { ${name()}: ${num()}, ${name()}: "${name()}" };`,
    () => `  ${name()} ${op()}= ${name()}(${name()} ${op()} ${num()});`,
    () => `  switch (${name()}) { case ${num()}: ${name()}(); break; default: ${name()} = ${num()}; }`,
    () => `  try { ${name()}(${num()}); } catch (${name()}) { ${name()}.${name()}(${name()}); }`,
    () => `  const [${name()}, ${name()}] = await ${name()}(${name()}, ${num()});`,
    () => `  ${name()}?.${name()}?.(${num()} ${op()} ${name()});`,
  ];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`function ${name()}(${Array.from({ length: 1 + Math.floor(r() * 3) }, name).join(', ')}) {`);
    for (let s = 1 + Math.floor(r() * 4); s > 0; s--) out.push(pick(statements)());
    out.push('}', '');
  }
  return out.join('\n');
}

/** The block that gets copied: ~25 lines, ~200 tokens. */
const BLOCK = `function mergeIntervals(intervals, tolerance) {
  const sorted = intervals.slice().sort((left, right) => left.start - right.start);
  const merged = [];
  for (const current of sorted) {
    const last = merged[merged.length - 1];
    if (last && current.start <= last.end + tolerance) {
      last.end = Math.max(last.end, current.end);
      last.count += 1;
    } else {
      merged.push({ start: current.start, end: current.end, count: 1 });
    }
  }
  let total = 0;
  for (const interval of merged) {
    total += interval.end - interval.start;
    if (interval.count > 3) console.log('dense block', interval.start, interval.end);
  }
  return { merged, total, ratio: total / Math.max(1, merged.length) };
}`;

/** The block with its names renamed consistently. */
const RENAMED = BLOCK.replace(/\bintervals\b/g, 'spans').replace(/\btolerance\b/g, 'slack').replace(/\bmerged\b/g, 'joined').replace(/\bcurrent\b/g, 'item').replace(/\binterval\b/g, 'span').replace(/\bsorted\b/g, 'ordered');

/** Statements of different shapes put around a paste, one pair per host (the code around a copy differs from the code around its original). */
const AROUND = [
  ['let ready = false;', 'ready = true;'],
  ['window.onload = start;', 'export default main;'],
  ['import fs from "fs";', 'console.info(`done`);'],
  ['process.exitCode = 0;', 'throw undefined;'],
  ['do { tick(); } while (busy);', 'if (!ok) return null;'],
];

/** Inserts `block` into `host` after line `at`, between the statements AROUND[side]; returns the text and the block's 1-based lines. */
function paste(host: string, block: string, at: number, side = 0): { text: string; start: number; end: number } {
  const lines = host.split('\n');
  const b = block.split('\n');
  const text = [...lines.slice(0, at), AROUND[side][0], ...b, AROUND[side][1], ...lines.slice(at)].join('\n');
  return { text, start: at + 2, end: at + 1 + b.length };
}

function docsOf(files: [string, string][]) {
  return files.map(([p, t]) => regionDocument(t, p));
}

function onlyPair(pairs: RegionPair[], docA: number, docB: number): RegionPair {
  const ps = pairs.filter((p) => p.a.doc === docA && p.b.doc === docB);
  assert.equal(ps.length, 1, `one region between ${docA} and ${docB}: ${JSON.stringify(pairs.map((p) => [p.a, p.b, p.clone]))}`);
  return ps[0];
}

/** The region's lines are the planted lines, give or take a line at each end. */
function assertLines(side: { startLine: number; endLine: number }, want: { start: number; end: number }): void {
  assert.ok(Math.abs(side.startLine - want.start) <= 1 && Math.abs(side.endLine - want.end) <= 1, `lines ${side.startLine}-${side.endLine}, want ${want.start}-${want.end}`);
}

describe('core/regions', () => {
  describe('anchors', () => {
    it('winnowing keeps the rightmost minimum of each window, once, with its position', () => {
      const a = winnow(Uint32Array.from([77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98]), 4);
      // The example of Schleimer et al. (2003), robust winnowing: 17 17 8 39 17.
      assert.deepEqual([...a.hash], [17, 17, 8, 39, 17]);
      assert.deepEqual([...a.pos], [3, 6, 8, 11, 15]);
    });

    it('fewer k-grams than a window: their minimum; none: nothing', () => {
      assert.deepEqual([...winnow(Uint32Array.from([5, 3, 9]), 4).pos], [1]);
      assert.equal(winnow(new Uint32Array(0), 4).hash.length, 0);
    });

    it('any shared run of w + k − 1 tokens yields a shared anchor (the guarantee), at the same offset in the run', () => {
      const d = regionDocument(BLOCK, 'a.js');
      const k = 5;
      const w = 4;
      const h = kgramHashes(d.raw, 0, d.length, k);
      for (let s = 0; s + w + k - 1 <= d.length; s += 7) {
        const sub = winnow(h.subarray(s, s + w), w);
        const all = anchorsOf(d.raw, d.length, k, w);
        assert.ok([...all.pos].includes(s + sub.pos[0]), `run at ${s}`);
      }
    });

    it('the identifier placeholder is the one tokenizeCode writes with normalizeIdentifiers', () => {
      const buf = new TokenBuffer(8);
      tokenizeCode('foo + 1', languageOf('a.js'), { normalizeIdentifiers: true }, buf);
      assert.equal(buf.hi[0], IDENT_HI);
      assert.equal(buf.lo[0], IDENT_LO);
      const d = regionDocument('foo + 1 + "s" + if', 'a.js');
      assert.deepEqual([...d.isIdent!], [1, 0, 0, 0, 0, 0, 0]); // literals and keywords stay
    });

    it('line starts and the 1-based line of an offset', () => {
      const s = lineStartsOf('ab\ncd\r\n\nef');
      assert.deepEqual([...s], [0, 3, 7, 8]);
      assert.deepEqual([0, 2, 3, 6, 7, 8, 9].map((o) => lineOfOffset(s, o)), [1, 1, 2, 2, 3, 4, 4]);
    });
  });

  describe('index and chains', () => {
    it('seeds pair postings of a hash across and within documents; a hash with too many postings is dropped', () => {
      const idx = new AnchorIndex();
      idx.add(0, Uint32Array.from([7, 9, 7]), Int32Array.from([1, 2, 3]));
      idx.add(1, Uint32Array.from([9, 5, 5, 5]), Int32Array.from([4, 5, 6, 7]));
      const { buckets, dropped } = idx.seeds(2);
      assert.equal(dropped, 1); // 5 has 3 postings
      assert.deepEqual(
        buckets.map((b) => [b.docA, b.docB, Array.from(b.pairs)]),
        [
          [0, 0, [1, 3]],
          [0, 1, [2, 4]],
        ],
      );
    });

    it('a per-document cap (capOf) and a cap on distinct documents (maxDocs); rescued hashes only seed pairs already seeded', () => {
      const idx = new AnchorIndex();
      idx.add(0, Uint32Array.from([5, 5, 8]), Int32Array.from([1, 2, 3]));
      idx.add(1, Uint32Array.from([5, 8]), Int32Array.from([4, 5]));
      idx.add(2, Uint32Array.from([9, 9, 9]), Int32Array.from([6, 7, 8]));
      assert.equal(idx.seeds(2).dropped, 2); // 5 and 9: 3 postings each
      assert.equal(idx.seeds(2, { capOf: (d) => (d === 0 ? 3 : 2) }).dropped, 1); // 5's first posting is in document 0: cap 3
      assert.equal(idx.seeds(10, { maxDocs: 1 }).dropped, 2); // 5 and 8 are in two documents, 9 in one
      const rescued = idx.seeds(2, { rescuePostings: 3 });
      assert.deepEqual(
        rescued.buckets.map((b) => [b.docA, b.docB, Array.from(b.pairs)]),
        [[0, 1, [1, 4, 2, 4, 3, 5]]], // 8 seeds (0, 1); 5 then adds its cross pairs to it (sorted by a, then b), 9 has no pair to join
      );
    });

    it('chains seeds along a diagonal across gaps and a small drift; a far seed starts another chain', () => {
      const opts = { maxGap: 20, maxDrift: 2, driftRate: 0.25 };
      // diagonal +100, a 15-token gap, an insertion (drift 3 over 12 tokens), then a seed far away
      const chains = chainSeeds([0, 100, 5, 105, 20, 120, 32, 135, 60, 300, 33, 500], opts);
      assert.deepEqual(
        chains.map((c) => c.seeds),
        [[0, 100, 5, 105, 20, 120, 32, 135], [33, 500], [60, 300]],
      );
    });

    it('a gap longer than maxGap splits a chain', () => {
      const chains = chainSeeds([0, 100, 10, 110, 60, 160], { maxGap: 20, maxDrift: 2, driftRate: 0 });
      assert.deepEqual(chains.map((c) => c.seeds), [[0, 100, 10, 110], [60, 160]]);
    });
  });

  describe('regions', () => {
    it('a verbatim copy inside two unrelated hosts: one exact region, trimmed to the copy', () => {
      const a = paste(hostCode(1, 30), BLOCK, 40);
      const b = paste(hostCode(2, 40), BLOCK, 95, 1);
      const r = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]));
      const p = onlyPair(r.pairs, 0, 1);
      assert.equal(p.clone, 'exact');
      assert.ok(p.similarity > 0.95);
      assertLines(p.a, a);
      assertLines(p.b, b);
      assert.equal(r.pairs.length, 1);
    });

    it('a verbatim copy between look-alike code of one family on both sides (on its diagonal): the exact copy, not one edited region over all of it', () => {
      // Keyword definitions of one shape (ajv's keyword files): the two sides' differ in their
      // strings and some names, so part of their 3-grams match, with no gap the chain stops at.
      const keyword = (kw: string, type: string, v: string, op: string, x: number): string =>
        [
          `const ${kw}Def = {`,
          `  keyword: "${kw}",`,
          `  type: "${type}",`,
          `  schemaType: ${['"number"', '["boolean", "object"]'][x]},`,
          ['  $data: true,', '  before: "uniqueItems",'][x],
          '  error,',
          '  code(cxt) {',
          ['    const {gen, data, schemaCode} = cxt', '    const {schema, parentSchema, it} = cxt'][x],
          `    const ${v} = ${['gen.const', 'it.opts.get'][x]}("${v}", ${['schemaCode', 'parentSchema.items'][x]})`,
          `    cxt.fail$data(data ${op} ${v})`,
          '  },',
          '}',
          `export { ${kw}Def }`,
          '',
        ].join('\n');
      const place = (seed: number, before: string, after: string): { text: string; start: number; end: number } => {
        const head = hostCode(seed, 6) + '\n' + before;
        const at = head.split('\n').length;
        return { text: [head, BLOCK, after, hostCode(seed + 1, 6)].join('\n'), start: at + 1, end: at + BLOCK.split('\n').length };
      };
      const a = place(41, keyword('minimum', 'number', 'lower', '<', 0), keyword('maxItems', 'array', 'count', '>', 1));
      const b = place(51, keyword('maxLength', 'string', 'upper', '>', 1), keyword('minProperties', 'object', 'size', '<', 0));
      const r = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]));
      // (The look-alike definitions of one shape, after the copy on side a and before it on side b, match each other too.)
      const over = r.pairs.filter((q) => q.a.doc === 0 && q.b.doc === 1 && q.a.startLine <= a.end && q.a.endLine >= a.start);
      assert.equal(over.length, 1, JSON.stringify(r.pairs));
      const p = over[0];
      assert.equal(p.clone, 'exact', JSON.stringify(p));
      // The copy, and at most the tokens its neighbours' last and first lines share with it (`}` and the blank line, `const`).
      for (const [side, want] of [[p.a, a], [p.b, b]] as const) {
        assert.ok(side.startLine <= want.start && side.startLine >= want.start - 2 && side.endLine >= want.end && side.endLine <= want.end + 1, `lines ${side.startLine}-${side.endLine}, want ${want.start}-${want.end}`);
      }
    });

    it('a renamed copy: "renamed", with its renames counted and consistent', () => {
      const a = paste(hostCode(3, 20), BLOCK, 20);
      const b = paste(hostCode(4, 20), RENAMED, 50, 1);
      const r = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]));
      const p = onlyPair(r.pairs, 0, 1);
      assert.equal(p.clone, 'renamed');
      assert.ok(p.renames >= 5 && p.consistency === 1, JSON.stringify(p));
      assertLines(p.a, a);
      assertLines(p.b, b);
    });

    it('renames that do not form a bijection are not a rename: without the raw tokens the region fails', () => {
      // Every occurrence of each name replaced by a fresh name: no name maps consistently.
      let n = 0;
      const scrambled = BLOCK.replace(/\b(intervals|tolerance|merged|current|interval|sorted|last|total|left|right)\b/g, () => `v${n++}`);
      const a = paste(hostCode(5, 20), BLOCK, 20);
      const b = paste(hostCode(6, 20), scrambled, 20, 1);
      const r = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]));
      for (const p of r.pairs) assert.notEqual(p.clone, 'renamed');
      const ids = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]), { minConsistency: 0 });
      assert.ok(ids.pairs.length >= r.pairs.length);
    });

    it('an edited copy (a statement inserted, one deleted, tokens changed): one "edited" region across the gaps', () => {
      const edited = BLOCK.replace('last.count += 1;', 'last.count += 1;\n      last.touched = Date.now();')
        .replace("    if (interval.count > 3) console.log('dense block', interval.start, interval.end);\n", '')
        .replace('Math.max(1, merged.length)', 'Math.max(2, merged.length + 1)');
      const a = paste(hostCode(7, 25), BLOCK, 30);
      const b = paste(hostCode(8, 25), edited, 70, 1);
      const r = findRegions(docsOf([['a.js', a.text], ['b.js', b.text]]));
      const p = onlyPair(r.pairs, 0, 1);
      assert.equal(p.clone, 'edited');
      assertLines(p.a, a);
      assertLines(p.b, b);
    });

    it('a same-file repeat: one region between the two places of one document, never overlapping itself', () => {
      const once = paste(hostCode(9, 30), BLOCK, 10);
      const twice = paste(once.text, BLOCK, 120, 1);
      const r = findRegions(docsOf([['a.js', twice.text]]));
      const p = onlyPair(r.pairs, 0, 0);
      assert.equal(p.clone, 'exact');
      assertLines(p.a, once);
      assertLines(p.b, twice);
      assert.ok(p.a.end <= p.b.start);
      assert.equal(findRegions(docsOf([['a.js', twice.text]]), { selfMatches: false }).pairs.length, 0);
    });

    it('a group of 3 copies and the original: all 6 pairs, one group of 4 places', () => {
      const files: [string, string][] = [];
      const want: { start: number; end: number }[] = [];
      for (let i = 0; i < 4; i++) {
        const p = paste(hostCode(20 + i, 20 + 5 * i), BLOCK, 10 + 15 * i, i);
        files.push([`f${i}.ts`, p.text]);
        want.push(p);
      }
      const r = findRegions(docsOf(files));
      assert.equal(r.pairs.length, 6);
      assert.equal(r.groups.length, 1);
      assert.equal(r.groups[0].places.length, 4);
      assert.deepEqual(r.groups[0].pairs, [0, 1, 2, 3, 4, 5]);
      for (const p of r.pairs) assert.equal(p.clone, 'exact');
    });

    it('groups: sides overlapping by half of the shorter are one place; pairs linked through a place are one group', () => {
      assert.ok(samePlace({ doc: 1, start: 0, end: 10 }, { doc: 1, start: 5, end: 30 }));
      assert.ok(!samePlace({ doc: 1, start: 0, end: 10 }, { doc: 1, start: 6, end: 30 }));
      assert.ok(!samePlace({ doc: 1, start: 0, end: 10 }, { doc: 2, start: 0, end: 10 }));
      const g = groupRegions([
        { a: { doc: 0, start: 0, end: 50 }, b: { doc: 1, start: 100, end: 150 } },
        { a: { doc: 1, start: 102, end: 149 }, b: { doc: 2, start: 10, end: 60 } },
        { a: { doc: 3, start: 0, end: 40 }, b: { doc: 4, start: 0, end: 40 } },
      ]);
      assert.deepEqual(g.map((x) => x.places.map((p) => [p.doc, p.start, p.end])), [
        [
          [0, 0, 50],
          [1, 100, 150],
          [2, 10, 60],
        ],
        [
          [3, 0, 40],
          [4, 0, 40],
        ],
      ]);
      assert.deepEqual(g.map((x) => x.pairs), [[0, 1], [2]]);
    });

    it('English prose: a pasted paragraph run, lightly edited, is found where it is', () => {
      const r = rng(11);
      const para = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)] + Math.floor(r() * 50)).join(' ');
      const copied = 'The index keeps one posting per anchor and drops the hashes that appear in too many documents, because a phrase that every file shares says nothing about where a paragraph was copied from. Chaining the shared anchors along a diagonal then tells how far the copy goes, and trimming keeps the first and the last matching word.';
      const edited = copied.replace('drops the hashes', 'drops those hashes').replace('says nothing', 'tells nothing');
      const hostA = [para(60), '', para(60), '', copied, '', para(50)].join('\n');
      const hostB = [para(40), '', edited, '', para(70)].join('\n');
      const res = findRegions(docsOf([['a.md', hostA], ['b.md', hostB]]));
      const p = onlyPair(res.pairs, 0, 1);
      assert.equal(p.clone, 'edited');
      assert.deepEqual([p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine], [5, 5, 3, 3]);
    });

    it('prose: two copies that are neighbours on both sides, a paragraph of one side between them, are two regions, not one', () => {
      // A lesson's paragraphs pasted into a page right before a paragraph the lesson holds too
      // (issue 12, planted-copy bench seed 1): side a has a 20-word paragraph between the two
      // copies, side b none. Joined across it, the region spanned both copies as one edited one.
      const r = rng(31);
      const para = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)] + Math.floor(r() * 50)).join(' ');
      const first = 'Create a program that prints the files of a directory filtered by their extension, where the directory is the first argument and the extension the second one given to the program, which must not assume that the extension comes with a leading dot.';
      const extra = 'The list of files should be printed to the console with one file on each line and you must use asynchronous input and output.';
      const second = 'Set to true to run the command in the context of all configured workspaces, and setting it to false makes commands like install ignore the workspaces altogether; when it is not set, commands that operate on the tree link the workspaces into the modules folder.';
      const a = [first, '', extra, '', second, '', para(40)].join('\n');
      const b = [para(50), '', first, '', second, '', para(30)].join('\n');
      const docs = docsOf([['a.md', a], ['b.md', b]]);
      const found = findRegions(docs).pairs.map((p) => [p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine, p.clone]);
      assert.deepEqual(found, [
        [1, 1, 3, 3, 'exact'],
        [5, 5, 5, 5, 'exact'],
      ]);
      // Joined across any indel (before): one edited region over both copies and the paragraph.
      const joined = findRegions(docs, { proseMaxJoinIndel: Infinity }).pairs.map((p) => [p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine, p.clone]);
      assert.deepEqual(joined, [[1, 5, 3, 5, 'edited']]);
    });

    it('a paragraph repeated in more documents than maxPostings but under a share of the corpus (npm docs) is still found', () => {
      const r = rng(23);
      const para = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)] + Math.floor(r() * 50)).join(' ');
      const shared = 'Set the registry configuration in the user config file so that every install and publish uses it, unless a scope maps to another registry; the value is a full address with its protocol and may carry a path, which is kept when packages are fetched from it.';
      const edited = shared.replace('every install', 'each install').replace('is kept', 'stays');
      // 400 documents (cap max(24, 0.08 × 400) = 32 for prose): the paragraph in 30 of them, an edited copy in the last.
      const files: [string, string][] = [];
      for (let i = 0; i < 399; i++) files.push([`d${i}.md`, i < 30 ? [para(30), '', shared, '', para(20)].join('\n') : para(40)]);
      files.push(['copy.md', [para(30), '', edited, '', para(30)].join('\n')]);
      const docs = docsOf(files);
      const res = findRegions(docs);
      const p = onlyPair(res.pairs, 0, 399);
      assert.equal(p.clone, 'edited');
      assert.deepEqual([p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine], [3, 3, 3, 3]);
      // The fixed cap of 24 postings drops the paragraph's anchors: nothing found.
      assert.equal(findRegions(docs, { proseMaxPostingsShare: 0 }).pairs.filter((q) => q.b.doc === 399).length, 0);
      // Boilerplate beyond the share (here in 40 documents, over 32) is still dropped.
      const many = docsOf(files.map(([n, t], i): [string, string] => [n, i >= 30 && i < 40 ? [para(30), '', shared, '', para(20)].join('\n') : t]));
      assert.equal(findRegions(many).pairs.filter((q) => q.b.doc === 399).length, 0);
    });

    it('Chinese prose with a segmenter (a stub: one token per character) and with the bigram fallback', () => {
      const copied = '倒排索引为每个锚点保存一条记录，并丢弃出现在太多文档中的哈希值，因为每个文件都有的短语无法说明段落是从哪里复制来的。沿着对角线把共享的锚点连起来，就知道复制的范围有多大，再修剪到第一个和最后一个匹配的词。';
      const filler = (s: number): string => Array.from('春夏秋冬东南西北山水日月风云雨雪花草树木'.repeat(6)).sort(() => 0).map((c, i) => '春夏秋冬东南西北山水日月风云雨雪花草树木'[(i * s + 7) % 20]).join('');
      const a = [filler(3), '', copied, '', filler(7)].join('\n');
      const b = [filler(11), '', filler(13), '', copied, ''].join('\n');
      for (const segmenter of [(run: string) => Array.from(run), undefined]) {
        const docs = [regionDocument(a, 'a.md', { segmenter, cjkWords: true }), regionDocument(b, 'b.md', { segmenter, cjkWords: true })];
        const p = onlyPair(findRegions(docs).pairs, 0, 1);
        assert.equal(p.clone, 'exact');
        assert.deepEqual([p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine], [3, 3, 5, 5]);
      }
    });

    it('an edited Chinese copy is found on character bigrams (the default) where re-cut words lose it', () => {
      const copied = '倒排索引为每个锚点保存一条记录，并丢弃出现在太多文档中的哈希值，因为每个文件都有的短语无法说明段落是从哪里复制来的。沿着对角线把共享的锚点连起来，就知道复制的范围有多大，再修剪到第一个和最后一个匹配的词。我们还要检查每一对文档之间的共同片段，把重叠的结果合并成一个。';
      // One character in every eleven replaced or dropped: like jieba, the stub segmenter (words of
      // two characters from the start of each run) then cuts every word after an edit differently.
      let edited = '';
      Array.from(copied).forEach((c, i) => (edited += i % 11 === 5 ? (i % 22 === 5 ? '' : '变') : c));
      const filler = (s: number): string => Array.from({ length: 120 }, (_, i) => '春夏秋冬东南西北山水日月风云雨雪花草树木'[(i * s + 7) % 20]).join('');
      const a = [filler(3), '', copied, '', filler(7)].join('\n');
      const b = [filler(11), '', filler(13), '', edited, ''].join('\n');
      const stub = (run: string): string[] => run.match(/[\s\S]{1,2}/g) ?? [];
      const p = onlyPair(findRegions([regionDocument(a, 'a.md', { segmenter: stub }), regionDocument(b, 'b.md', { segmenter: stub })]).pairs, 0, 1);
      assert.equal(p.clone, 'edited');
      assert.deepEqual([p.a.startLine, p.a.endLine, p.b.startLine, p.b.endLine], [3, 3, 5, 5]);
      const words = findRegions([regionDocument(a, 'a.md', { segmenter: stub, cjkWords: true }), regionDocument(b, 'b.md', { segmenter: stub, cjkWords: true })]);
      assert.equal(words.pairs.filter((q) => q.a.doc === 0 && q.b.doc === 1).length, 0);
    });

    it('no region between unrelated texts (code and prose)', () => {
      const r = findRegions(docsOf([['a.js', hostCode(31, 60)], ['b.js', hostCode(32, 60)], ['c.js', hostCode(33, 60)]]));
      assert.deepEqual(r.pairs, []);
      const g = rng(5);
      const prose = (): string => Array.from({ length: 400 }, () => WORDS[Math.floor(g() * WORDS.length)]).join(' ');
      assert.deepEqual(findRegions(docsOf([['a.md', prose()], ['b.md', prose()]])).pairs, []);
    });

    it('too short a copy is not reported (minTokens)', () => {
      const small = 'const total = values.reduce((sum, v) => sum + v, 0);';
      const r = findRegions(docsOf([['a.js', paste(hostCode(40, 10), small, 5).text], ['b.js', paste(hostCode(41, 10), small, 5, 1).text]]));
      assert.deepEqual(r.pairs, []);
    });

    it('is deterministic: the same documents in the same order give the same result', () => {
      const files: [string, string][] = [0, 1, 2].map((i) => [`f${i}.js`, paste(hostCode(50 + i, 20), i === 2 ? RENAMED : BLOCK, 10 * i + 5, i).text]);
      const one = findRegions(docsOf(files));
      const two = findRegions(docsOf(files));
      assert.deepEqual(two, one);
      assert.equal(one.pairs.length, 3);
    });
  });
  describe('documents in parts (a notebook: code and Markdown cells)', () => {
    const PARAGRAPHS =
      'Before a release, the build server signs every archive with the team key and uploads the signature next to it, so that mirrors can serve the files without being trusted themselves.\n\n' +
      'A user who downloads an archive checks the signature against the published key; a mismatch means the file was changed on its way and must not be installed, whatever the mirror says.\n';
    const parts = (text: string, split: number) => [
      { startOffset: 0, endOffset: split, lang: languageOf('x.py') },
      { startOffset: split, endOffset: text.length, lang: languageOf('x.md') },
    ];

    it('tokens of each part in its language, at offsets of the whole text; prose tokens marked', () => {
      const code = 'total = 0\nfor item in items:\n    total += item.price  # the sum\n';
      const text = code + '# Notes\n\n' + PARAGRAPHS;
      const doc = regionDocumentOfParts(text, parts(text, code.length));
      const alone = regionDocument(code, 'x.py');
      assert.equal(doc.kind, 'code');
      assert.deepEqual(Array.from(doc.raw.hi.subarray(0, alone.length)), Array.from(alone.raw.hi), 'the code part as the code alone');
      assert.ok(!doc.proseTokens!.subarray(0, alone.length).some((x) => x === 1));
      assert.ok(doc.proseTokens!.subarray(alone.length).every((x) => x === 1));
      assert.equal(text.slice(doc.start[alone.length], doc.start[alone.length] + 5), 'Notes', 'offsets in the whole text');
    });

    it('the Markdown part matches a prose document, and the code part a code document', () => {
      const code = hostCode(7, 3);
      const text = code + '# Notes\n\n' + PARAGRAPHS;
      const nb = regionDocumentOfParts(text, parts(text, code.length));
      const md = regionDocument('# Release\n\nVersions follow the calendar, one counter a month.\n\n' + PARAGRAPHS + '\nThe changelog is written by hand.\n', 'r.md');
      const py = regionDocument(hostCode(9, 2) + '\n' + code, 'y.ts');
      const r = findRegions([nb, md, py]);
      const linked = (x: number, y: number) => r.pairs.filter((p) => p.a.doc === x && p.b.doc === y);
      assert.equal(linked(0, 1).length, 1, JSON.stringify(r.pairs));
      assert.equal(linked(0, 1)[0].clone, 'exact');
      assert.ok(linked(0, 2).length >= 1, JSON.stringify(r.pairs));
    });
  });
  describe('anchors made with the document (defaultAnchors, as the fingerprint workers do)', () => {
    it('findRegions gives the same result from stored anchors, and makes its own for other options', () => {
      const texts = [hostCode(21, 4), hostCode(22, 3) + '\n' + hostCode(21, 4).split('\n').slice(3, 30).join('\n'), hostCode(23, 5)];
      const fresh = () => texts.map((t, i) => regionDocument(t, `f${i}.ts`));
      const stored = fresh();
      for (const d of stored) d.anchors = defaultAnchors(d);
      const a = findRegions(fresh());
      assert.ok(a.pairs.length > 0, 'a copy found');
      assert.deepEqual(findRegions(stored), a);
      // Stored anchors that are not the defaults' (none at all) are not used with other options.
      for (const d of stored) d.anchors = { hash: new Uint32Array(0), pos: new Int32Array(0) };
      assert.equal(findRegions(stored).pairs.length, 0, 'the stored anchors are what the defaults index');
      assert.deepEqual(findRegions(stored, { w: 3 }), findRegions(fresh(), { w: 3 }));
    });
  });

  describe('the plan kept flat (what a kernel takes: seedPairs, bucketCuts)', () => {
    it('its cuts and pairs are its buckets; wantedBuckets and wantedBucketList are bucketWanted of each', () => {
      const rnd = rng(21);
      const files = Array.from({ length: 8 }, () => codeFile(rnd, 4));
      const docs = files.map((t, i) => regionDocument(`${t}\n${files[(i + 1) % files.length].slice(0, 600)}\n${t.slice(0, 400)}`, `f${i}.ts`));
      const skipPair = (a: number, b: number) => a === 2 && b === 5;
      for (const options of [{}, { selfMatches: false, minBucketSeeds: 8 }]) {
        const plan = planRegions(docs, options);
        const o = plan.options;
        assert.ok(plan.buckets.length > 10, `${plan.buckets.length} buckets`);
        let from = 0;
        plan.buckets.forEach((b, i) => {
          assert.deepEqual([plan.bucketCuts[3 * i], plan.bucketCuts[3 * i + 1]], [b.docA, b.docB]);
          assert.deepEqual(Array.from(plan.seedPairs.subarray(2 * from, 2 * plan.bucketCuts[3 * i + 2])), Array.from(b.pairs));
          from = plan.bucketCuts[3 * i + 2];
        });
        const want = plan.buckets.map((b) => (bucketWanted(b, o, skipPair) ? 1 : 0));
        assert.deepEqual(Array.from(wantedBuckets(plan.bucketCuts, o, skipPair)), want);
        assert.ok(want.includes(0) && want.includes(1), 'some buckets wanted, some not');
        const list = wantedBucketList(plan, skipPair);
        assert.deepEqual(
          list.map((b) => [b.docA, b.docB, Array.from(b.pairs)]),
          plan.buckets.filter((_, i) => want[i]).map((b) => [b.docA, b.docB, Array.from(b.pairs)]),
        );
      }
    });
  });
});
