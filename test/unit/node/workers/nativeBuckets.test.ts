// The kernel's one-call bucket search (CodeKernel.regionBuckets, native/buckets.c: chaining, the
// span check, alignment, judging and the one-per-place reduction of many seed buckets) must give
// exactly what bucketRegions of src/core/regions/regions.ts gives bucket by bucket with the
// TypeScript aligner: the same region pairs in the same order (floating point scores equal to the
// bit) and the same chain and alignment counts — on random documents from small vocabularies
// (many chance seeds, long self buckets), code and prose mixed, unsorted buckets, many options,
// and through findRegions. Both compiled kernels: the native addon and the WebAssembly module.
import { strict as assert } from 'node:assert';
import { alignChain } from '../../../../src/core/regions/align';
import { idsDerived, leanDocument, regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { bucketParams } from '../../../../src/core/regions/kernelBuckets';
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
