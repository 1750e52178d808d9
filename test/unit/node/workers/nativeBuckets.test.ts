// The kernel's one-call bucket search (CodeKernel.regionBuckets, native/buckets.c: chaining, the
// span check, alignment, judging and the one-per-place reduction of many seed buckets) must give
// exactly what bucketRegions of src/core/regions/regions.ts gives bucket by bucket with the
// TypeScript aligner: the same region pairs in the same order (floating point scores equal to the
// bit) and the same chain and alignment counts — on random documents from small vocabularies
// (many chance seeds, long self buckets), code and prose mixed, unsorted buckets, many options,
// and through findRegions. Both compiled kernels: the native addon and the WebAssembly module;
// the addon's on several threads and off Node's thread too (the last suite).
import { strict as assert } from 'node:assert';
import { alignChain } from '../../../../src/core/regions/align';
import { idsDerived, leanDocument, regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { bucketParams, documentStreams } from '../../../../src/core/regions/kernelBuckets';
import { bucketRegions, findRegions, kernelBucketRegions, planRegions, resolveRegionOptions, wantedBuckets, type RegionOptions, type RegionPair } from '../../../../src/core/regions/regions';
import type { CodeKernel } from '../../../../src/core/types';
import { kernelCandidates, nativeKernelProblem } from '../../../../src/node/workers/nativeKernel';
import { KERNELS } from './kernelsUnderTest';
import { chineseText, codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';

/** Text of `words` words drawn from a vocabulary of `size` (code-like or prose-like), in lines. */
function randomText(rnd: () => number, words: number, size: number, code: boolean): string {
  const vocab = Array.from({ length: size }, (_, i) => (code ? ['x', 'y', '(', ')', '=', ';', '+', 'if', '{', '}', 'return', '0', '1'][i % 13] + (i >= 13 ? i : '') : `w${i}`));
  const lines: string[] = [];
  let line: string[] = [];
  for (let i = 0; i < words; i++) {
    line.push(vocab[Math.floor(rnd() * rnd() * size)]); // skewed: some words much more frequent
    if (line.length > 4 + rnd() * 8) {
      lines.push(line.join(' '));
      line = [];
    }
  }
  lines.push(line.join(' '));
  return lines.join('\n');
}

/** Documents with copies and chance matches: code, prose (English, Chinese), random, each repeated inside itself too. */
function corpus(seed: number): RegionDocument[] {
  const rnd = mulberry32(seed);
  const texts: Array<[string, string]> = [];
  const code = Array.from({ length: 6 }, () => codeFile(rnd, 5));
  const prose = Array.from({ length: 4 }, () => proseText(rnd, 6));
  for (let i = 0; i < code.length; i++) {
    const donor = code[(i + 1) % code.length];
    const block = donor.slice(0, Math.floor(donor.length / 2));
    texts.push([`c${i}.ts`, code[i] + '\n' + editLines(block, rnd, [0, 0.1, 0.25][i % 3]) + '\n' + (i % 2 ? block : '')]);
  }
  for (let i = 0; i < prose.length; i++) texts.push([`p${i}.md`, prose[i] + '\n\n' + editLines(prose[(i + 1) % prose.length], rnd, 0.15)]);
  for (let i = 0; i < 3; i++) texts.push([`z${i}.md`, chineseText(mulberry32(seed * 7 + i), 5) + '\n\n' + chineseText(mulberry32(seed * 7 + i + 1), 3)]);
  for (let i = 0; i < 6; i++) {
    const small = randomText(rnd, 600 + Math.floor(rnd() * 600), 6 + i * 3, i % 2 === 0);
    texts.push([i % 2 === 0 ? `r${i}.ts` : `r${i}.md`, small + '\n' + small.slice(0, small.length / 3)]);
  }
  // Code that quotes prose (a mixed bucket: its normalised stream against the prose's tokens).
  texts.push(['mix.ts', `// ${prose[0].split('\n').join('\n// ')}\n${code[0]}`]);
  return texts.map(([p, t]) => regionDocument(t, p));
}

const OPTIONS: RegionOptions[] = [
  {},
  { minTokens: 12, minBucketSeeds: 1, minSeeds: 1, longTokens: 40 },
  { maxGap: 12, maxDrift: 1, driftRate: 0.5, joinGap: 80, proseMaxJoinIndel: 3, coverK: 2, band: 2, margin: 3 },
  { selfMatches: false, streams: 'both', minSimilarity: 0.3, shortSimilarity: 0.9, minConsistency: 0.6, fringeGap: 5 },
  { k: 4, w: 3, maxPostings: 200, minTokens: 20, proseMaxJoinIndel: Infinity },
  // A maxGap not whole (chains closed by the double tests, not the integer ones) and a band of 19 k-grams (32-lane search).
  { maxGap: 9.5, band: 9, minTokens: 16, driftRate: 0.3 },
];

/** bucketRegions of every wanted bucket of a plan, one by one with the TypeScript aligner. */
function byBucket(docs: RegionDocument[], options: RegionOptions): { pairs: RegionPair[]; chains: number; aligned: number } {
  const plan = planRegions(docs, options);
  const stats = { chains: 0, aligned: 0 };
  const pairs: RegionPair[] = [];
  const wanted = wantedBuckets(plan.bucketCuts, plan.options, options.skipPair);
  plan.buckets.forEach((b, i) => {
    if (wanted[i]) pairs.push(...bucketRegions(docs, b, plan.options, alignChain, stats));
  });
  return { pairs, ...stats };
}

for (const under of KERNELS) {
  describe(`${under.name} bucket search (native/buckets.c) = bucketRegions of core/regions`, function () {
    this.timeout(300000);
    let kernel: CodeKernel | undefined;

    before(function () {
      kernel = under.kernel();
      if (under.name === 'native' && process.env.NEARDUP_NATIVE === '0') this.skip();
      assert.ok(kernel, `native kernel: ${nativeKernelProblem()} (looked in ${kernelCandidates().join(', ')})`);
      assert.equal(typeof kernel.regionBuckets, 'function', 'the kernel has regionBuckets');
    });

    it('every bucket of a plan in one call: the same pairs, order and counts as bucketRegions bucket by bucket (code, prose, random, self, mixed; many options)', () => {
      let pairs = 0;
      let buckets = 0;
      let self = 0;
      for (const seed of [1, 2, 3]) {
        const docs = corpus(seed);
        for (const options of OPTIONS) {
          const ts = byBucket(docs, options);
          const plan = planRegions(docs, { ...options, kernel });
          const stats = { chains: 0, aligned: 0 };
          const wanted = wantedBuckets(plan.bucketCuts, plan.options, options.skipPair);
          const native = kernelBucketRegions(docs, plan.seedPairs, plan.bucketCuts, wanted, plan.options, kernel as Required<CodeKernel>, stats);
          const what = `seed ${seed} ${JSON.stringify(options)}`;
          assert.deepEqual(native, ts.pairs, what);
          assert.deepEqual(stats, { chains: ts.chains, aligned: ts.aligned }, what);
          pairs += ts.pairs.length;
          buckets += wanted.reduce((n, x) => n + x, 0);
          self += ts.pairs.filter((p) => p.a.doc === p.b.doc).length;
        }
      }
      // Not a comparison of empty results: many buckets searched, regions between and inside documents.
      assert.ok(buckets > 500 && pairs > 500 && self > 50, `${buckets} buckets, ${pairs} pairs, ${self} inside one document`);
    });

    it('lean code documents (no stored normalised stream: made from isIdent where read) give the same pairs, without it being made', () => {
      let pairs = 0;
      for (const seed of [1, 2]) {
        const docs = corpus(seed);
        // Every other code document lean: lean against stored, lean against lean, and prose.
        let code = 0;
        const lean = docs.map((d) => (d.ids && d.isIdent && code++ % 2 === 0 ? leanDocument({ length: d.length, raw: d.raw, isIdent: d.isIdent, start: d.start, lineStarts: d.lineStarts }) : d));
        assert.ok(lean.filter((d) => idsDerived(d)).length >= 5, 'code documents made lean');
        for (const options of OPTIONS) {
          const plan = planRegions(docs, { ...options, kernel });
          const wanted = wantedBuckets(plan.bucketCuts, plan.options, options.skipPair);
          const run = (list: RegionDocument[]) => {
            const stats = { chains: 0, aligned: 0 };
            return { pairs: kernelBucketRegions(list, plan.seedPairs, plan.bucketCuts, wanted, plan.options, kernel as Required<CodeKernel>, stats), stats };
          };
          const full = run(docs);
          assert.deepEqual(run(lean), full, `seed ${seed} ${JSON.stringify(options)}`);
          pairs += full.pairs.length;
        }
        assert.ok(lean.every((d, i) => d === docs[i] || idsDerived(d)), 'the search read the lean documents without making their normalised streams');
      }
      assert.ok(pairs > 300, `${pairs} pairs`);
    });

    it('buckets with unsorted and repeated seeds, and all buckets at once (wanted = null): as bucketRegions', () => {
      const docs = corpus(4);
      const rnd = mulberry32(11);
      const plan = planRegions(docs, { kernel });
      const o = plan.options;
      // A run of the plan's buckets with their seeds shuffled and some repeated (another stream's).
      const cuts: number[] = [];
      const seeds: number[] = [];
      const ts: RegionPair[] = [];
      const stats = { chains: 0, aligned: 0 };
      for (const b of plan.buckets) {
        const list: Array<[number, number]> = [];
        for (let i = 0; i < b.pairs.length; i += 2) {
          list.push([b.pairs[i], b.pairs[i + 1]]);
          if (rnd() < 0.2) list.push([b.pairs[i], b.pairs[i + 1]]);
        }
        for (let i = list.length - 1; i > 0; i--) {
          const j = Math.floor(rnd() * (i + 1));
          [list[i], list[j]] = [list[j], list[i]];
        }
        for (const [a, x] of list) seeds.push(a, x);
        cuts.push(b.docA, b.docB, seeds.length / 2);
        ts.push(...bucketRegions(docs, { docA: b.docA, docB: b.docB, pairs: list.flat() }, o, alignChain, stats));
      }
      const mine = { chains: 0, aligned: 0 };
      const native = kernelBucketRegions(docs, Int32Array.from(seeds), Uint32Array.from(cuts), null, o, kernel as Required<CodeKernel>, mine);
      assert.deepEqual(native, ts);
      assert.deepEqual(mine, stats);
      assert.ok(ts.length > 20, `${ts.length} pairs`);
    });

    it('findRegions searches the buckets in one call of the kernel, and finds what the TypeScript finds', () => {
      const docs = corpus(5);
      let calls = 0;
      const k = kernel!;
      const counting: Pick<CodeKernel, 'anchorSeeds' | 'alignChain' | 'regionBuckets'> = {
        anchorSeeds: (...args) => k.anchorSeeds(...args),
        alignChain: (...args) => k.alignChain(...args),
        regionBuckets: (...args) => {
          calls++;
          return k.regionBuckets!(...args);
        },
      };
      const skipPair = (a: number, b: number) => (a + b) % 5 === 0;
      for (const options of [{}, { skipPair }]) {
        calls = 0;
        const found = findRegions(docs, { ...options, kernel: counting });
        const ts = findRegions(docs, options);
        assert.equal(calls, 1);
        assert.deepEqual(found.pairs, ts.pairs);
        assert.deepEqual(found.groups, ts.groups);
        assert.deepEqual({ ...found.stats, indexBytes: 0 }, { ...ts.stats, indexBytes: 0 });
      }
      // A caller's own aligner is kept: chain by chain through it, not the kernel's bucket search.
      calls = 0;
      findRegions(docs, { kernel: counting, aligner: alignChain });
      assert.equal(calls, 0);
    });

    it('refuses arguments that do not describe documents and buckets (no crash, a clear error)', () => {
      const docs = [regionDocument('const a = 1;\nconst b = 2;\nconst c = a + b;\n', 'x.ts'), regionDocument('some words here and there\n', 'y.md')];
      const streams = docs.flatMap((d) => [d.raw.hi, d.raw.lo, d.ids?.hi ?? null, d.ids?.lo ?? null, d.ids ? d.isIdent : null]);
      const lengths = Int32Array.from(docs.map((d) => d.length));
      const prose = Uint8Array.from([0, 1]);
      const params = bucketParams(resolveRegionOptions());
      const call = (over: { streams?: typeof streams; seeds?: number[]; buckets?: number[]; params?: Float64Array }) => () =>
        kernel!.regionBuckets!(over.streams ?? streams, lengths, prose, Int32Array.from(over.seeds ?? [0, 1, 2, 3]), Uint32Array.from(over.buckets ?? [0, 1, 2]), null, over.params ?? params);
      assert.doesNotThrow(call({}));
      assert.throws(call({ seeds: [0, 1, 2, docs[1].length] }), /outside its documents/);
      assert.throws(call({ buckets: [1, 0, 2] }), /outside its documents/);
      assert.throws(call({ buckets: [0, 2, 2] }), /outside its documents/);
      assert.throws(call({ buckets: [0, 1, 3] }), /outside its documents/);
      assert.throws(call({ streams: streams.slice(0, 9) }), /streams/);
      assert.throws(call({ streams: [docs[0].raw.hi, docs[0].raw.lo, null, null, null, new Uint32Array(1), docs[1].raw.lo, null, null, null] }), /streams/);
      assert.throws(call({ params: params.slice(0, 10) }), /params/);
      const bad = params.slice();
      bad[0] = 0; // k
      assert.throws(call({ params: bad }), /params/);
    });
  });
}

// The native addon's bucket search on several threads (native/threads.c) and off Node's thread
// (regionBucketsAsync): the buckets cut into runs the threads take in turn, the results joined in
// bucket order — exactly the one-thread result, whatever the runs hold (empty ones, one bucket
// holding almost every seed, fewer buckets than threads) and when threads cannot start.
describe('native bucket search on threads (native/threads.c) = the same search on one thread', function () {
  this.timeout(300000);
  let kernel: Required<CodeKernel>;

  before(function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    const k = KERNELS.find((x) => x.name === 'native')!.kernel();
    assert.ok(k, `native kernel: ${nativeKernelProblem()} (looked in ${kernelCandidates().join(', ')})`);
    assert.equal(typeof k.regionBucketsAsync, 'function', 'the addon has regionBucketsAsync');
    kernel = k as Required<CodeKernel>;
  });

  /** The kernel's raw search of buckets (flat) on `threads` threads, `startable` of them allowed to start. */
  const search = (docs: RegionDocument[], seeds: Int32Array, cuts: Uint32Array, wanted: Uint8Array | null, o: ReturnType<typeof resolveRegionOptions>, threads: number, startable?: number) => {
    const s = documentStreams(docs);
    return kernel.regionBuckets(s.streams, s.lengths, s.prose, seeds, cuts, wanted, bucketParams(o), threads, startable);
  };

  it('1, 2, 3, 4 and 40 threads: the same regions, order and counts as one thread (code, prose, random; many options; buckets left out)', () => {
    let regions = 0;
    let buckets = 0;
    for (const seed of [1, 2, 3]) {
      const docs = corpus(seed);
      for (const options of OPTIONS) {
        const plan = planRegions(docs, { ...options, kernel });
        const wanted = wantedBuckets(plan.bucketCuts, plan.options, options.skipPair);
        const one = search(docs, plan.seedPairs, plan.bucketCuts, wanted, plan.options, 1);
        for (const threads of [2, 3, 4, 40]) assert.deepEqual(search(docs, plan.seedPairs, plan.bucketCuts, wanted, plan.options, threads), one, `seed ${seed} ${threads} threads ${JSON.stringify(options)}`);
        // Every bucket (the unwanted ones too: many runs of one or two seeds).
        const all = search(docs, plan.seedPairs, plan.bucketCuts, null, plan.options, 1);
        assert.deepEqual(search(docs, plan.seedPairs, plan.bucketCuts, null, plan.options, 3), all);
        regions += one.ints.length / 7;
        buckets += wanted.reduce((n, x) => n + x, 0);
        // And as findRegions gives them with threads (the same pairs as the TypeScript's, above).
        assert.deepEqual(findRegions(docs, { ...options, kernel, threads: 3 }).pairs, findRegions(docs, { ...options, kernel }).pairs);
      }
    }
    assert.ok(buckets > 500 && regions > 500, `${buckets} buckets, ${regions} regions`);
  });

  it('unbalanced and empty runs: one bucket holding most seeds, buckets without seeds, unwanted stretches, fewer buckets than threads, none', () => {
    const docs = corpus(6);
    const plan = planRegions(docs, { kernel, minBucketSeeds: 1, minSeeds: 1, minTokens: 12, longTokens: 40 });
    const o = plan.options;
    const cuts = plan.bucketCuts;
    const n = cuts.length / 3;
    // The largest bucket first and alone in a list where every other bucket is empty (no seeds).
    let big = 0;
    for (let b = 0, from = 0, most = -1; b < n; from = cuts[3 * b + 2], b++) if (cuts[3 * b + 2] - from > most) [big, most] = [b, cuts[3 * b + 2] - from];
    const from = big > 0 ? cuts[3 * big - 1] : 0;
    const bigSeeds = plan.seedPairs.slice(2 * from, 2 * cuts[3 * big + 2]);
    assert.ok(bigSeeds.length / 2 > 200, `a large bucket (${bigSeeds.length / 2} seeds)`);
    const m = bigSeeds.length / 2;
    const lopsided = Uint32Array.from([cuts[3 * big], cuts[3 * big + 1], m, 0, 1, m, 0, 1, m, 1, 2, m, 2, 3, m]);
    const one = search(docs, bigSeeds, lopsided, null, o, 1);
    assert.ok(one.ints.length > 0, 'the large bucket has regions');
    for (const threads of [2, 3, 4, 5]) assert.deepEqual(search(docs, bigSeeds, lopsided, null, o, threads), one, `${threads} threads`);
    // Unwanted stretches: only every fifth bucket, then only the last few, then none.
    const stretches = [Uint8Array.from({ length: n }, (_, b) => (b % 5 === 0 ? 1 : 0)), Uint8Array.from({ length: n }, (_, b) => (b >= n - 3 ? 1 : 0)), new Uint8Array(n)];
    for (const wanted of stretches) {
      const base = search(docs, plan.seedPairs, cuts, wanted, o, 1);
      for (const threads of [2, 3, 4]) assert.deepEqual(search(docs, plan.seedPairs, cuts, wanted, o, threads), base);
    }
    // Fewer buckets than threads, and no bucket at all.
    const two = cuts.slice(0, 6);
    assert.deepEqual(search(docs, plan.seedPairs, two, null, o, 4), search(docs, plan.seedPairs, two, null, o, 1));
    assert.deepEqual(search(docs, plan.seedPairs, new Uint32Array(0), null, o, 4), { ints: new Int32Array(0), floats: new Float64Array(0), chains: 0, aligned: 0 });
  });

  it('threads that cannot start: their runs taken by the others (by the calling thread alone when none starts), the same result', () => {
    const docs = corpus(7);
    const plan = planRegions(docs, { kernel });
    const wanted = wantedBuckets(plan.bucketCuts, plan.options);
    const one = search(docs, plan.seedPairs, plan.bucketCuts, wanted, plan.options, 1);
    assert.ok(one.ints.length > 50, `${one.ints.length / 7} regions`);
    for (const startable of [0, 1, 2]) assert.deepEqual(search(docs, plan.seedPairs, plan.bucketCuts, wanted, plan.options, 4, startable), one, `${startable} of 3 threads started`);
  });

  it('regionBucketsAsync: settles later with what regionBuckets returns (threads or not), holding its arrays meanwhile; bad arguments throw at once', async () => {
    const docs = corpus(8);
    const plan = planRegions(docs, { kernel });
    const o = plan.options;
    const wanted = wantedBuckets(plan.bucketCuts, o);
    const s = documentStreams(docs);
    const one = search(docs, plan.seedPairs, plan.bucketCuts, wanted, o, 1);
    for (const threads of [1, 2, 4]) {
      let settled = false;
      // Arrays made for this call only and dropped here: the promise holds them until it settles.
      const promise = kernel.regionBucketsAsync(s.streams, s.lengths, s.prose, plan.seedPairs.slice(), plan.bucketCuts.slice(), wanted.slice(), bucketParams(o), threads);
      void promise.then(() => (settled = true));
      assert.equal(settled, false, 'not settled on the calling thread');
      (globalThis as { gc?: () => void }).gc?.();
      assert.deepEqual(await promise, one, `${threads} threads`);
    }
    // Several at once (libuv's pool runs them side by side): each its own result.
    const many = await Promise.all([1, 2, 3].map((t) => kernel.regionBucketsAsync(s.streams, s.lengths, s.prose, plan.seedPairs, plan.bucketCuts, wanted, bucketParams(o), t)));
    for (const r of many) assert.deepEqual(r, one);
    assert.throws(() => kernel.regionBucketsAsync(s.streams, s.lengths, s.prose, plan.seedPairs, Uint32Array.from([0, docs.length, 2]), null, bucketParams(o), 2), /outside its documents/);
    assert.throws(() => kernel.regionBucketsAsync(s.streams.slice(1), s.lengths, s.prose, plan.seedPairs, plan.bucketCuts, null, bucketParams(o), 2), /streams/);
  });
});
