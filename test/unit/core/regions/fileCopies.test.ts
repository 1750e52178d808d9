// Unit tests of src/core/regions/fileCopies.ts: the cover of token ranges, a copy of a whole file
// from the regions found, a pair found in pieces searched again alone (and judged on that search),
// the boilerplate of many documents kept out of the second search, pairs skipped, self pairs, and
// the bound of what a pair's regions can hold (coverBound: pairs under it are not searched again),
// and the pairs searched again all at once by a compiled kernel's one-call bucket search.
import { strict as assert } from 'node:assert';
import { alignChain } from '../../../../src/core/regions/align';
import { regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { coverBound, coverOf, fileCopies, FILE_COVER, SEARCH_MAX_POSTINGS, sideCover, sumsUnder } from '../../../../src/core/regions/fileCopies';
import { bucketRegions, bucketWanted, defaultAnchors, findRegions, planRegions, resolveRegionOptions, type RegionPair } from '../../../../src/core/regions/regions';
import { chineseText, codeFile, mulberry32, proseText } from '../../helpers/corpus';
import { KERNELS } from '../../node/workers/kernelsUnderTest';

/** A region pair of token ranges [as, ae) in doc a and [bs, be) in doc b (lines not used here). */
const piece = (a: number, as: number, ae: number, b: number, bs: number, be: number): RegionPair => ({
  a: { doc: a, start: as, end: ae, startLine: 1, endLine: 1 },
  b: { doc: b, start: bs, end: be, startLine: 1, endLine: 1 },
  clone: 'edited',
  similarity: 0.8,
  rawSimilarity: 0.8,
  consistency: 1,
  renames: 0,
});

/** Every fourth non-blank line's words given a suffix: an edited copy (~25 % of the lines). */
const edited = (text: string): string =>
  text
    .split('\n')
    .map((line, i) => (i % 4 === 2 && line.trim() ? line.replace(/[A-Za-z]+/g, (m) => `${m}Q`) : line))
    .join('\n');

const doc = (text: string, name: string): RegionDocument => regionDocument(text, name);

describe('core/regions/fileCopies: edited copies of whole files', () => {
  it('coverOf: the union of token ranges over the document, overlaps counted once', () => {
    assert.equal(coverOf([], 10), 0);
    assert.equal(coverOf([[0, 5]], 10), 0.5);
    assert.equal(coverOf([[6, 10], [0, 4], [2, 5]], 10), 0.9);
    assert.equal(coverOf([[0, 10], [3, 4]], 10), 1);
    assert.equal(coverOf([[0, 3]], 0), 0, 'an empty document is covered by nothing');
  });

  it('sideCover: coverOf of a side of region pairs, exactly (random lists: ties, nesting, empty and reversed ranges, bounds past 2^26, a scratch too short)', () => {
    const rnd = mulberry32(41);
    const scratch = { at: new Float64Array(2) };
    for (let t = 0; t < 400; t++) {
      const n = 1 + Math.floor(rnd() * 3000);
      const count = 1 + Math.floor(rnd() * (t % 7 === 0 ? 200 : 12));
      const list: RegionPair[] = [];
      for (let i = 0; i < count; i++) {
        const s = t % 50 === 49 && i === 0 ? 0x4000000 + 3 : Math.floor(rnd() * n);
        const len = rnd() < 0.1 ? -Math.floor(rnd() * 5) : Math.floor(rnd() * n * 0.3);
        const bs = rnd() < 0.2 && i > 0 ? list[i - 1].b.start : Math.floor(rnd() * n); // starts shared
        list.push(piece(0, s, s + len, 1, bs, Math.min(n, bs + Math.floor(rnd() * n * 0.5))));
      }
      for (const side of ['a', 'b'] as const) {
        const want = coverOf(list.map((r) => [r[side].start, r[side].end] as const), n);
        assert.equal(sideCover(list, side, n, scratch), want, `list ${t}, side ${side}`);
      }
    }
    assert.equal(sideCover([piece(0, 0, 4, 1, 0, 4), piece(0, 2, 6, 1, 1, 2)], 'a', 0, scratch), 0, 'an empty document is covered by nothing');
  });

  it('sumsUnder: a side whose ranges sum under a share has its cover (coverOf) under it; it says so for most lists of small ranges, never for an empty document', () => {
    const rnd = mulberry32(43);
    let under = 0;
    for (let t = 0; t < 600; t++) {
      const [na, nb] = [1 + Math.floor(rnd() * 4000), 1 + Math.floor(rnd() * 4000)];
      const list: RegionPair[] = [];
      for (let i = 0, count = 2 + Math.floor(rnd() * 10); i < count; i++) {
        const [as, bs] = [Math.floor(rnd() * na), Math.floor(rnd() * nb)];
        const [la, lb] = [Math.floor(rnd() * na * (t % 3 === 0 ? 0.5 : 0.05)), Math.floor(rnd() * nb * (t % 3 === 0 ? 0.5 : 0.05))];
        list.push(piece(0, as, rnd() < 0.05 ? as - 3 : as + la, 1, bs, bs + lb));
      }
      const share = [0.2, 0.6, FILE_COVER, 1][t % 4];
      const ca = coverOf(list.map((r) => [r.a.start, r.a.end] as const), na);
      const cb = coverOf(list.map((r) => [r.b.start, r.b.end] as const), nb);
      if (sumsUnder(list, na, nb, share)) {
        under++;
        assert.ok(ca < share || cb < share, `list ${t}: under ${share} by its sums, covers ${ca} ${cb}`);
      }
      assert.equal(sumsUnder(list, 0, nb, share), false);
    }
    assert.ok(under > 200, `${under} lists under by their sums`);
  });

  it('regions holding FILE_COVER of both documents are a copy of the file; less is not, without a second search', () => {
    const a = doc(codeFile(mulberry32(1), 8), 'a.ts');
    const b = doc(codeFile(mulberry32(2), 8), 'b.ts');
    const n = Math.min(a.length, b.length);
    const most = Math.ceil(FILE_COVER * Math.max(a.length, b.length));
    const copies = fileCopies([a, b], [piece(0, 0, most, 1, 0, most)], { searchCover: 1 });
    // The two documents are not related: this tests the rule on the pairs given, not the finder.
    assert.equal(copies.length, most <= n ? 1 : 0);
    if (copies.length) {
      assert.deepEqual([copies[0].docA, copies[0].docB, copies[0].searched], [0, 1, false]);
      assert.ok(copies[0].coverA >= FILE_COVER && copies[0].coverB >= FILE_COVER);
    }
    const half = Math.floor(0.5 * n);
    assert.deepEqual(fileCopies([a, b], [piece(0, 0, half, 1, 0, half)], { searchCover: 1 }), []);
  });

  it('a region found the other way round (side a in the later document) is turned to side a in docA', () => {
    const a = doc(codeFile(mulberry32(3), 6), 'a.ts');
    const b = doc(codeFile(mulberry32(4), 6), 'b.ts');
    const copies = fileCopies([a, b], [piece(1, 0, b.length, 0, 0, a.length)], { searchCover: 1 });
    assert.equal(copies.length, 1);
    assert.equal(copies[0].regions[0].a.doc, 0);
    assert.equal(copies[0].regions[0].a.end, a.length);
    assert.equal(copies[0].regions[0].b.end, b.length);
  });

  it('an edited copy found in pieces (a third of each) is searched again alone and becomes a copy with the regions of that search', () => {
    const original = codeFile(mulberry32(5), 10);
    const A = doc(original, 'source.ts');
    const B = doc(edited(original), 'copy.ts');
    const other = doc(codeFile(mulberry32(6), 8), 'other.ts');
    const docs = [A, B, other];
    // What a whole search would give when boilerplate left most anchors out: one piece.
    const third = (d: RegionDocument) => Math.floor(d.length / 3);
    const pieces = [piece(0, 0, third(A), 1, 0, third(B))];
    assert.deepEqual(fileCopies(docs, pieces, { searchCover: 1 }), [], 'a third is not a copy of the file');
    const copies = fileCopies(docs, pieces);
    assert.equal(copies.length, 1);
    const c = copies[0];
    assert.deepEqual([c.docA, c.docB, c.searched], [0, 1, true]);
    assert.ok(c.coverA >= FILE_COVER && c.coverB >= FILE_COVER, `${c.coverA} ${c.coverB}`);
    // The regions are the pair's own search, on the corpus's documents.
    const alone = findRegions([A, B], { selfMatches: false, maxPostings: SEARCH_MAX_POSTINGS }).pairs;
    assert.equal(c.regions.length, alone.length);
    for (const r of c.regions) assert.deepEqual([r.a.doc, r.b.doc], [0, 1]);
    assert.deepEqual(
      c.regions.map((r) => [r.a.start, r.a.end, r.b.start, r.b.end]),
      alone.map((r) => [r.a.start, r.a.end, r.b.start, r.b.end]),
    );
    // Under SEARCH_COVER (a tenth of each): not searched, not a copy.
    const tenth = (d: RegionDocument) => Math.floor(d.length / 10);
    assert.deepEqual(fileCopies(docs, [piece(0, 0, tenth(A), 1, 0, tenth(B))]), []);
  });

  it('the second search leaves out what more than twice the postings cap of documents hold: a file shared by 60 documents is boilerplate, by 12 it is not', () => {
    const shared = codeFile(mulberry32(7), 10);
    const run = (holders: number) => {
      const docs = [doc(shared, 'x.ts'), doc(edited(shared), 'y.ts')];
      for (let i = 0; i < holders; i++) docs.push(doc(shared, `holder${i}.ts`));
      const third = (d: RegionDocument) => Math.floor(d.length / 3);
      return fileCopies(docs, [piece(0, 0, third(docs[0]), 1, 0, third(docs[1]))]);
    };
    assert.equal(run(10).length, 1, 'twelve documents: the copy is found');
    assert.deepEqual(run(58), [], 'sixty documents: the shared text is boilerplate, nothing left to copy');
  });

  it('pairs skipped (the scan pairs them as files) and a document with itself are not judged', () => {
    const a = doc(codeFile(mulberry32(8), 6), 'a.ts');
    const b = doc(codeFile(mulberry32(9), 6), 'b.ts');
    const whole = piece(0, 0, a.length, 1, 0, b.length);
    assert.deepEqual(fileCopies([a, b], [whole], { skipPair: (x, y) => x === 0 && y === 1 }), []);
    assert.deepEqual(fileCopies([a, b], [piece(0, 0, a.length / 2, 0, a.length / 2, a.length)]), []);
  });

  it('coverBound: the regions of a bucket never hold more of a document than its bound (copies pasted, edited, split; code and prose; both caps)', () => {
    const rnd = mulberry32(2024);
    let pairs = 0;
    let under = 0;
    let tight = 0;
    for (let t = 0; t < 60; t++) {
      const prose = t % 3 === 2;
      const make = (r: () => number) => (prose ? (t % 2 ? chineseText(r, 6) : proseText(r, 8)) : codeFile(r, 8));
      const host = make(mulberry32(100 + t));
      const other = make(mulberry32(500 + t));
      const lines = host.split('\n');
      // Side b: the other file with one to three blocks of the host pasted in, some edited.
      const parts = other.split('\n');
      for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
        const from = Math.floor(rnd() * lines.length);
        const block = lines.slice(from, from + 5 + Math.floor(rnd() * 40)).join('\n');
        parts.splice(Math.floor(rnd() * parts.length), 0, rnd() < 0.4 ? edited(block) : block);
      }
      if (t % 5 === 0) parts.splice(0, parts.length, ...edited(host).split('\n')); // an edited copy of the whole file
      const ext = prose ? 'md' : 'ts';
      const docs = [doc(host, `a.${ext}`), doc(parts.join('\n'), `b.${ext}`)];
      for (const maxPostings of [SEARCH_MAX_POSTINGS, undefined]) {
        const plan = planRegions(docs, { maxPostings, selfMatches: false });
        for (const bucket of plan.buckets) {
          if (bucket.docA === bucket.docB || !bucketWanted(bucket, plan.options)) continue;
          const ba = coverBound(bucket.pairs, 0, docs[bucket.docA].length, plan.options);
          const bb = coverBound(bucket.pairs, 1, docs[bucket.docB].length, plan.options);
          const found = bucketRegions(docs, bucket, plan.options, alignChain, { chains: 0, aligned: 0 });
          const ca = coverOf(found.map((r) => [r.a.start, r.a.end] as const), docs[bucket.docA].length);
          const cb = coverOf(found.map((r) => [r.b.start, r.b.end] as const), docs[bucket.docB].length);
          assert.ok(ca <= ba + 1e-12 && cb <= bb + 1e-12, `case ${t}: regions hold ${ca} / ${cb}, bound ${ba} / ${bb}`);
          pairs++;
          if (ba < FILE_COVER || bb < FILE_COVER) under++;
          if (ca >= FILE_COVER && cb >= FILE_COVER) tight++;
        }
      }
    }
    assert.ok(pairs >= 100 && under >= 20 && tight >= 10, `${pairs} buckets, ${under} under FILE_COVER, ${tight} copies of files`);
  });

  for (const under of KERNELS) {
    it(`${under.name} kernel: the search's count of the frequent hashes (anchorSeeds) is every hash's in more documents than the smallest cap; the second search reads it with the same copies`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const shared = codeFile(mulberry32(7), 10);
      const minTokens = resolveRegionOptions().minTokens;
      for (const holders of [10, 58]) {
        const docs = [doc(shared, 'x.ts'), doc(edited(shared), 'y.ts'), doc(proseText(mulberry32(3), 4), 'p.md'), doc('const tiny = 1;\n', 'tiny.ts')];
        for (let i = 0; i < holders; i++) docs.push(doc(i % 3 ? shared : edited(shared), `holder${i}.ts`));
        for (const d of docs) d.anchors = defaultAnchors(d); // stored, as the scan's workers make them
        const found = findRegions(docs, { kernel });
        const frequent = found.frequent;
        assert.ok(frequent && frequent.minTokens === minTokens && frequent.over >= 1, 'counted');
        // Brute force: the documents (of minTokens tokens and more) holding each anchor hash.
        const holding = new Map<number, Set<number>>();
        docs.forEach((d, i) => {
          if (d.length < minTokens) return;
          for (const h of d.anchors!.hash) (holding.get(h) ?? holding.set(h, new Set()).get(h)!).add(i);
        });
        const over = [...holding].filter(([, s]) => s.size > frequent.over);
        assert.deepEqual(new Map(over.map(([h, s]) => [h, s.size])), frequent.counts);
        if (holders === 58) assert.ok(frequent.counts.size > 50, `${frequent.counts.size} frequent hashes`);
        const third = (d: RegionDocument) => Math.floor(d.length / 3);
        const pieces = [piece(0, 0, third(docs[0]), 1, 0, third(docs[1]))];
        const counted = fileCopies(docs, pieces, { regions: { kernel } });
        assert.deepEqual(fileCopies(docs, pieces, { regions: { kernel }, frequent }), counted);
        assert.equal(counted.length, holders === 10 ? 1 : 0, `${holders + 2} documents holding the file`);
      }
    });

    it(`${under.name} kernel: the pairs searched again in one call (regionBuckets) give the copies pair by pair with the TypeScript aligner`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const rnd = mulberry32(77);
      const docs: RegionDocument[] = [];
      const pieces: RegionPair[] = [];
      // Edited copies of files (code, English, Chinese), some edited more; each found in pieces.
      for (let t = 0; t < 9; t++) {
        const text = t % 3 === 0 ? codeFile(mulberry32(40 + t), 10) : t % 3 === 1 ? proseText(mulberry32(40 + t), 10) : chineseText(mulberry32(40 + t), 8);
        const ext = t % 3 === 0 ? 'ts' : 'md';
        const copy = t % 2 ? edited(text) : edited(edited(text));
        const x = docs.push(doc(text, `f${t}.${ext}`)) - 1;
        const y = docs.push(doc(rnd() < 0.3 ? `${copy}\n${codeFile(rnd, 3)}` : copy, `g${t}.${ext}`)) - 1;
        const third = (d: RegionDocument) => Math.floor(d.length / 3);
        pieces.push(t % 2 ? piece(x, 0, third(docs[x]), y, 0, third(docs[y])) : piece(y, 0, third(docs[y]), x, 0, third(docs[x])));
      }
      const onePairs = fileCopies(docs, pieces, { regions: { aligner: alignChain } });
      const oneCall = fileCopies(docs, pieces, { regions: { kernel } });
      assert.ok(onePairs.length >= 5 && onePairs.every((c) => c.searched), `${onePairs.length} copies found again`);
      assert.deepEqual(oneCall, onePairs);
    });
  }
});
