// The native addon's copySearch (native/copysearch.c; src/core/regions/kernelBuckets.ts
// copySearchOf, read by fileCopies.ts): fileCopies' second search in one call must keep exactly the buckets the
// TypeScript keeps — each pair's anchors without the dropped hashes of its kind, the two documents'
// seeds under the caps (planRegions, selfMatches off), wanted, coverBound on both sides — and find
// exactly regionBuckets' regions of them; and fileCopies through it must give the copies of its
// other two paths (the kernel's bucket search of searchAllAlone, and pair by pair with the
// TypeScript aligner): copies with boilerplate many documents share, over-cap repeats, prose and
// code, pairs whose bound is under the cover, with and without the search's frequent counts, on
// 1, 2 and 4 threads. The native addon only (the WebAssembly kernel has no copySearch).
import { strict as assert } from 'node:assert';
import { alignChain } from '../../../../src/core/regions/align';
import { regionDocument, withAnchors, type RegionDocument } from '../../../../src/core/regions/document';
import { coverBound, fileCopies, FILE_COVER, SEARCH_COVER } from '../../../../src/core/regions/fileCopies';
import { bucketParams, copyKernelOf, documentStreams } from '../../../../src/core/regions/kernelBuckets';
import { defaultAnchors, findRegions, planRegions, postingCaps, resolveRegionOptions, wantedBuckets, type RegionOptions, type RegionPair } from '../../../../src/core/regions/regions';
import type { CodeKernel } from '../../../../src/core/types';
import { chineseText, codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';
import { KERNELS } from './kernelsUnderTest';

type Kernel = Required<Pick<CodeKernel, 'copySearch' | 'regionBuckets' | 'anchorSeeds' | 'alignChain'>>;

/** A corpus of copies: code, English and Chinese prose, each with edited copies (some pasted into other text), a block many documents share, over-cap repeats, tiny files. */
function corpus(seed: number): RegionDocument[] {
  const rnd = mulberry32(seed);
  const texts: Array<[string, string]> = [];
  const shared = codeFile(mulberry32(seed + 1000), 2); // boilerplate: in many documents
  for (let t = 0; t < 8; t++) {
    const kind = t % 3;
    const text = kind === 0 ? codeFile(rnd, 4 + (t % 4)) : kind === 1 ? proseText(rnd, 4 + (t % 3)) : chineseText(rnd, 4);
    const ext = kind === 0 ? 'ts' : 'md';
    const withShared = kind === 0 && rnd() < 0.7 ? `${shared}\n${text}` : text;
    texts.push([`f${t}.${ext}`, withShared]);
    texts.push([`g${t}.${ext}`, editLines(withShared, rnd, [0.05, 0.2, 0.4][t % 3])]);
    if (t % 2) texts.push([`h${t}.${ext}`, `${kind === 0 ? codeFile(rnd, 2) : proseText(rnd, 2)}\n${editLines(text.slice(0, text.length >> 1), rnd, 0.1)}`]);
  }
  // Repeats inside one document: hashes over the two-document cap.
  const line = 'total = total + values[index] * weight;\n';
  texts.push(['rep.ts', `function f() {\n${line.repeat(12)}}\n${codeFile(rnd, 2)}`]);
  texts.push(['rep2.ts', `function g() {\n${line.repeat(5)}}\n${codeFile(rnd, 2)}`]);
  for (let i = 0; i < 14; i++) texts.push([`b${i}.ts`, `${shared}\n${codeFile(rnd, 1)}`]);
  texts.push(['tiny.ts', 'const tiny = 1;\n']);
  // Two copies under minTokens (25 tokens): not indexed, no seeds.
  const short = 'let a = b + c * d; let e = f - g; call(a, e, h);\n';
  texts.push(['short1.ts', short], ['short2.ts', short]);
  return texts.map(([p, t]) => regionDocument(t, p));
}

/** Every pair of documents (x < y) of the corpus, in order, and a random selection of them. */
function somePairs(n: number, rnd: () => number, share: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let x = 0; x < n; x++) for (let y = x + 1; y < n; y++) if (rnd() < share) out.push([x, y]);
  return out;
}

/** The TypeScript's buckets of the second search of `pairs` (fileCopies.ts searchedBuckets): seeds and cuts (x y end). */
function referenceBuckets(
  docs: RegionDocument[],
  pairs: Array<[number, number]>,
  drop: [Set<number>, Set<number>],
  options: RegionOptions,
  cover: number,
): { seeds: Int32Array; cuts: Uint32Array; bounds: Array<[number, number, number]> } {
  const seeds: number[] = [];
  const cuts: number[] = [];
  const bounds: Array<[number, number, number]> = []; // x y and the smaller bound of each wanted bucket
  const without = (d: number): RegionDocument => {
    const a = docs[d].anchors ?? defaultAnchors(docs[d]);
    const out = drop[docs[d].kind === 'prose' ? 1 : 0];
    const keep = [...a.hash.keys()].filter((i) => !out.has(a.hash[i]));
    return withAnchors(docs[d], { hash: Uint32Array.from(keep, (i) => a.hash[i]), pos: Int32Array.from(keep, (i) => a.pos[i]) });
  };
  for (const [x, y] of pairs) {
    const plan = planRegions([without(x), without(y)], options);
    const c = plan.bucketCuts;
    const wanted = wantedBuckets(c, plan.options);
    for (let b = 0, from = 0; b < wanted.length; from = c[3 * b + 2], b++) {
      if (!wanted[b] || c[3 * b] === c[3 * b + 1]) continue;
      const s = plan.seedPairs.subarray(2 * from, 2 * c[3 * b + 2]);
      bounds.push([x, y, Math.min(coverBound(s, 0, docs[x].length, plan.options), coverBound(s, 1, docs[y].length, plan.options))]);
      if (coverBound(s, 0, docs[x].length, plan.options) < cover || coverBound(s, 1, docs[y].length, plan.options) < cover) continue;
      seeds.push(...s);
      cuts.push(x, y, seeds.length / 2);
    }
  }
  return { seeds: Int32Array.from(seeds), cuts: Uint32Array.from(cuts), bounds };
}

const native = KERNELS.find((k) => k.name === 'native')!;

describe('native copySearch: fileCopies\' second search in one call (native/copysearch.c) = the TypeScript', function () {
  let kernel: Kernel;
  before(function () {
    const k = native.kernel();
    if (!k || !copyKernelOf(k)) this.skip();
    kernel = k as Kernel;
  });

  it('the buckets kept (drop lists, caps, wanted, coverBound) and their regions equal the TypeScript plan and regionBuckets, on many corpora, options and threads', () => {
    const variants: Array<{ options: RegionOptions; cover: number }> = [
      { options: {}, cover: FILE_COVER },
      { options: {}, cover: 0 },
      { options: { minTokens: 16, minBucketSeeds: 2, minSeeds: 3, maxGap: 12, joinGap: 25 }, cover: 0.3 },
      { options: { margin: 3, maxGap: 60, joinGap: 10, longTokens: 60 }, cover: 0.9 },
      { options: { maxPostings: 3, minSimilarity: 0.4 }, cover: 0.5 },
      { options: { maxPostings: 30, maxGap: 9.5, band: 4 }, cover: 0.45 },
      // A prose cap over the code's (the caps by kind) and runs whose margins overlap.
      { options: { maxPostings: 2, proseMaxPostingsShare: 2, margin: 30, maxGap: 12, joinGap: 10 }, cover: 0.4 },
    ];
    let kept = 0;
    let bounded = 0;
    let regions = 0;
    let dropped = 0;
    let pinned = 0;
    for (let seed = 1; seed <= 7; seed++) {
      const docs = corpus(seed);
      if (seed % 2) for (const d of docs) d.anchors = defaultAnchors(d); // stored, as the scan's workers make them
      const rnd = mulberry32(seed * 31);
      const pairs = somePairs(docs.length, rnd, 0.15);
      if (!pairs.some(([x, y]) => x === docs.length - 2 && y === docs.length - 1)) pairs.push([docs.length - 2, docs.length - 1]); // the short copies
      // Drop lists: some of the anchors' hashes (many of the shared block's), some by kind only.
      const code = new Set<number>();
      const prose = new Set<number>();
      for (const d of docs) {
        const a = d.anchors ?? defaultAnchors(d);
        for (const h of a.hash) {
          const u = rnd();
          if (u < 0.04) code.add(h);
          else if (u < 0.08) prose.add(h);
          else if (u < 0.1) (code.add(h), prose.add(h));
        }
      }
      const variant = variants[seed % variants.length];
      const options: RegionOptions = { ...variant.options, maxPostings: variant.options.maxPostings ?? 8, selfMatches: false };
      const o = resolveRegionOptions(options);
      const caps = postingCaps(docs.slice(0, 2), o); // (a two-document plan's)
      const ref = referenceBuckets(docs, pairs, [code, prose], options, variant.cover);
      const s = documentStreams(docs);
      const anchors: Array<Uint32Array | Int32Array | null> = new Array(2 * docs.length).fill(null);
      docs.forEach((d, i) => {
        const a = d.anchors ?? defaultAnchors(d);
        if (i % 7 !== 3 || pairs.some(([x, y]) => x === i || y === i)) [anchors[2 * i], anchors[2 * i + 1]] = [a.hash, a.pos];
      });
      const flat = Uint32Array.from(pairs.flat());
      const drop = [Uint32Array.from(code).sort(), Uint32Array.from(prose).sort()] as const;
      const expected = kernel.regionBuckets(s.streams, s.lengths, s.prose, ref.seeds, ref.cuts, null, bucketParams(o), 1);
      for (const threads of [1, 2, 4]) {
        const r = kernel.copySearch(s.streams, s.lengths, s.prose, anchors, drop, flat, Uint32Array.of(caps.cap, caps.proseCap), bucketParams(o), Float64Array.of(Math.max(o.minSeeds, o.minBucketSeeds), variant.cover), threads);
        assert.deepEqual(r.buckets, ref.cuts, `seed ${seed}, ${threads} threads: the buckets kept`);
        assert.deepEqual([r.ints, r.floats, r.chains, r.aligned], [expected.ints, expected.floats, expected.chains, expected.aligned], `seed ${seed}, ${threads} threads: the regions`);
      }
      // Each pair's bound to the bit: kept at a cover of its bound, left out just above it.
      const search = (pair: readonly number[], cover: number) =>
        kernel.copySearch(s.streams, s.lengths, s.prose, anchors, drop, Uint32Array.from(pair), Uint32Array.of(caps.cap, caps.proseCap), bucketParams(o), Float64Array.of(Math.max(o.minSeeds, o.minBucketSeeds), cover)).buckets.length / 3;
      for (const [x, y, bound] of ref.bounds.filter(([, , b]) => b > 0).slice(0, 60)) {
        assert.equal(search([x, y], bound), 1, `seed ${seed}: ${x} ${y} kept at its bound ${bound}`);
        assert.equal(search([x, y], bound * (1 + 1e-12)), 0, `seed ${seed}: ${x} ${y} left out above its bound ${bound}`);
        pinned++;
      }
      kept += ref.cuts.length / 3;
      regions += expected.ints.length / 7;
      bounded += pairs.length - ref.cuts.length / 3;
      dropped += code.size + prose.size;
    }
    assert.ok(kept >= 30 && bounded >= 30 && regions >= 30 && dropped > 0 && pinned >= 100, `${kept} buckets kept, ${bounded} pairs left out, ${regions} regions, ${pinned} bounds`);
  });

  it('a dropped hash is found by its whole value: hashes sharing only their low bits with the anchors drop nothing, the anchors themselves drop as the TypeScript does', () => {
    const docs = corpus(3);
    const rnd = mulberry32(77);
    const pairs = somePairs(docs.length, rnd, 0.3);
    const options: RegionOptions = { maxPostings: 8, selfMatches: false };
    const o = resolveRegionOptions(options);
    const caps = postingCaps(docs.slice(0, 2), o);
    const s = documentStreams(docs);
    const anchors: Array<Uint32Array | Int32Array | null> = new Array(2 * docs.length).fill(null);
    const hashes = new Set<number>();
    docs.forEach((d, i) => {
      const a = defaultAnchors(d);
      [anchors[2 * i], anchors[2 * i + 1]] = [a.hash, a.pos];
      for (const h of a.hash) hashes.add(h);
    });
    const flat = Uint32Array.from(pairs.flat());
    const search = (code: Set<number>, prose: Set<number>) =>
      kernel.copySearch(s.streams, s.lengths, s.prose, anchors, [Uint32Array.from(code).sort(), Uint32Array.from(prose).sort()], flat, Uint32Array.of(caps.cap, caps.proseCap), bucketParams(o), Float64Array.of(Math.max(o.minSeeds, o.minBucketSeeds), 0.3), 2);
    const none = search(new Set(), new Set());
    // Every anchor's low 20 bits (and more) in the drop lists, no anchor's hash itself.
    const twins = new Set([...hashes].map((h) => (h ^ (1 << 25)) >>> 0).filter((t) => !hashes.has(t)));
    assert.ok(twins.size > 1000);
    const twinned = search(twins, twins);
    assert.deepEqual([twinned.buckets, twinned.ints, twinned.floats], [none.buckets, none.ints, none.floats], 'nothing dropped');
    assert.ok(none.buckets.length > 0);
    // A third of the anchors' hashes and their twins: as the TypeScript plan leaves them out.
    const some = new Set([...hashes].filter(() => rnd() < 0.33));
    const both = new Set([...some, ...twins]);
    const ref = referenceBuckets(docs, pairs, [some, some], options, 0.3);
    const r = search(both, both);
    assert.deepEqual(r.buckets, ref.cuts);
    assert.notDeepEqual(r.buckets, none.buckets, 'the hashes dropped change the buckets');
  });

  it('the caps by the kind of the document of a hash\'s first posting: a prose pair under a prose cap over the code\'s', () => {
    const text = proseText(mulberry32(9), 5);
    const para = text.split('\n\n').reduce((a, b) => (b.length > a.length ? b : a)); // (the longest paragraph)
    const docs = [regionDocument(`${para}\n\n${text}\n\n${para}`, 'x.md'), regionDocument(editLines(text, mulberry32(10), 0.1), 'y.md'), regionDocument(codeFile(mulberry32(11), 3), 'z.ts')];
    const options: RegionOptions = { maxPostings: 2, proseMaxPostingsShare: 2, selfMatches: false };
    const o = resolveRegionOptions(options);
    const caps = postingCaps(docs.slice(0, 2), o);
    assert.ok(caps.proseCap > caps.cap, `${caps.proseCap} > ${caps.cap}`);
    const ref = referenceBuckets(docs, [[0, 1]], [new Set(), new Set()], options, 0);
    const s = documentStreams(docs);
    const anchors = docs.flatMap((d) => {
      const a = defaultAnchors(d);
      return [a.hash, a.pos];
    });
    const search = (code: number, prose: number) =>
      kernel.copySearch(s.streams, s.lengths, s.prose, anchors, [new Uint32Array(0), new Uint32Array(0)], Uint32Array.of(0, 1), Uint32Array.of(code, prose), bucketParams(o), Float64Array.of(Math.max(o.minSeeds, o.minBucketSeeds), 0)).buckets;
    assert.deepEqual(search(caps.cap, caps.proseCap), ref.cuts);
    assert.notDeepEqual(search(caps.cap, caps.cap), ref.cuts, 'the prose cap lets in seeds the code cap leaves out');
  });

  it('bad arguments are refused with a message: a pair not x < y, an anchor outside its document, drop lists, anchors of the wrong type', () => {
    const docs = corpus(5).slice(0, 4);
    const s = documentStreams(docs);
    const o = resolveRegionOptions({ maxPostings: 8, selfMatches: false });
    const anchors = docs.flatMap((d) => {
      const a = defaultAnchors(d);
      return [a.hash, a.pos];
    });
    const call = (over: { pairs?: Uint32Array; anchors?: Array<Uint32Array | Int32Array | null>; drop?: unknown }) =>
      kernel.copySearch(s.streams, s.lengths, s.prose, over.anchors ?? anchors, (over.drop ?? [new Uint32Array(0), new Uint32Array(0)]) as [Uint32Array, Uint32Array], over.pairs ?? Uint32Array.of(0, 1), Uint32Array.of(8, 8), bucketParams(o), Float64Array.of(4, 0.6));
    assert.equal(call({}).buckets.length % 3, 0, 'well formed: searched');
    assert.throws(() => call({ pairs: Uint32Array.of(1, 0) }), /copySearch: an anchor outside its document, or a pair not x < y/);
    assert.throws(() => call({ pairs: Uint32Array.of(0, 99) }), /copySearch: a pair outside the documents/);
    const outside = anchors.slice();
    outside[1] = Int32Array.from(anchors[1] as Int32Array, (p, i) => (i === 0 ? docs[0].length : p));
    assert.throws(() => call({ anchors: outside }), /copySearch: an anchor outside its document/);
    const wrongType = anchors.slice();
    wrongType[1] = new Uint32Array(anchors[1].length);
    assert.throws(() => call({ anchors: wrongType }), /copySearch: a document's anchors are a Uint32Array of hashes and an Int32Array of positions/);
    assert.throws(() => call({ drop: [new Uint32Array(0)] }), /copySearch: drop/);
  });

  it('fileCopies through it gives the copies of the kernel bucket search and of the TypeScript aligner (frequent counts or not, 1/2/4 threads), and calls it once', () => {
    let copies = 0;
    let calls = 0;
    for (let seed = 11; seed <= 14; seed++) {
      const docs = corpus(seed);
      for (const d of docs) d.anchors = defaultAnchors(d);
      const found = findRegions(docs, { kernel, selfMatches: false, minBucketSeeds: 2 });
      // The regions in pieces: each pair's regions cut to their first half (so that many pairs are searched again).
      const pieces: RegionPair[] = found.pairs.map((r, i) =>
        i % 3 === 0 ? r : { ...r, a: { ...r.a, end: r.a.start + ((r.a.end - r.a.start) >> 1) }, b: { ...r.b, end: r.b.start + ((r.b.end - r.b.start) >> 1) } },
      );
      // (the addon's functions are not enumerable: picked one by one)
      const bucketOnly = { anchorSeeds: kernel.anchorSeeds, alignChain: kernel.alignChain, regionBuckets: kernel.regionBuckets };
      const counting: Kernel = {
        ...bucketOnly,
        copySearch: (...args) => {
          calls++;
          return kernel.copySearch(...args);
        },
      };
      for (const frequent of [found.frequent, undefined]) {
        const byPairs = fileCopies(docs, pieces, { regions: { aligner: alignChain }, frequent, searchCover: SEARCH_COVER / 2 });
        const byBuckets = fileCopies(docs, pieces, { regions: { kernel: bucketOnly }, frequent, searchCover: SEARCH_COVER / 2 });
        assert.deepEqual(byBuckets, byPairs);
        for (const threads of [1, 2, 4]) {
          const before = calls;
          const byKernel = fileCopies(docs, pieces, { regions: { kernel: counting, threads }, frequent, searchCover: SEARCH_COVER / 2 });
          assert.deepEqual(byKernel, byPairs, `seed ${seed}, ${threads} threads, ${frequent ? 'counted' : 'counted again'}`);
          assert.ok(calls - before <= 1, 'one call');
        }
        copies += byPairs.filter((c) => c.searched).length;
      }
    }
    assert.ok(copies >= 8 && calls >= 12, `${copies} copies found again, ${calls} calls`);
  });
});
