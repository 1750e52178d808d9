// The native kernel's vetted all-pairs search (native/kernelpairs.c allPairsVetted, allpairs.c's
// AllPairsVet) held to matchPairList's own vetting: matchSectionItems' accept as a function and
// estimateJaccard in TypeScript over the kernel's plain candidates (core/report/compare.ts).
import { strict as assert } from 'node:assert';
import { matchPairList, orderPairList, type KernelVetting, type MatchOptions } from '../../../../src/core/report/compare';
import type { CodeKernel, ItemFingerprint } from '../../../../src/core/types';
import { kernelKind, nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { mulberry32 } from '../../helpers/corpus';

/** n items in documents of 16, their lines (some overlapping), near fingerprints and sketches of their clusters. */
function itemsOf(n: number, seed: number): { items: ItemFingerprint[]; vetting: KernelVetting; docs: number } {
  const rnd = mulberry32(seed);
  const word = () => Math.floor(rnd() * 2 ** 32) >>> 0;
  const docs = Math.ceil(n / 16);
  const items: ItemFingerprint[] = [];
  const docOf = new Int32Array(n);
  const startOf = new Int32Array(n);
  const endOf = new Int32Array(n);
  const clusters: Array<{ hi: number; lo: number }> = Array.from({ length: 60 }, () => ({ hi: word(), lo: word() }));
  for (let i = 0; i < n; i++) {
    const c = Math.floor(rnd() * clusters.length);
    let { hi, lo } = clusters[c];
    for (let f = Math.floor(rnd() * 12); f > 0; f--) {
      const bit = Math.floor(rnd() * 64);
      if (bit < 32) hi ^= 1 << bit;
      else lo ^= 1 << (bit - 32);
    }
    // The cluster's values with some of their own: short sketches, empty ones, full ones.
    const length = rnd() < 0.05 ? 0 : rnd() < 0.2 ? 1 + Math.floor(rnd() * 40) : 64;
    const values = new Set<number>();
    while (values.size < length) values.add(rnd() < 0.7 ? c * 1000 + Math.floor(rnd() * 90) : word());
    const sketch = Uint32Array.from([...values].sort((x, y) => x - y));
    items.push({ hi: hi >>> 0, lo: lo >>> 0, tokens: 50, features: 50, sketch, rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 });
    docOf[i] = i >> 4;
    startOf[i] = Math.floor(rnd() * 100);
    endOf[i] = startOf[i] + Math.floor(rnd() * 30);
  }
  const copyOf = new Int32Array(docs).map(() => (rnd() < 0.3 ? Math.floor(rnd() * 5) : -1));
  return { items, vetting: { docOf, startOf, endOf, copyOf }, docs };
}

/** allPairsVetted's first arguments for `items`: their fingerprints, and their sketches copied into one array with n + 1 offsets. */
function flatArgs(items: readonly ItemFingerprint[]): { fp: Uint32Array; sketches: Uint32Array; offsets: Uint32Array } {
  const fp = new Uint32Array(items.flatMap((i) => [i.hi, i.lo]));
  const offsets = new Uint32Array(items.length + 1);
  for (let i = 0; i < items.length; i++) offsets[i + 1] = offsets[i] + items[i].sketch.length;
  const sketches = new Uint32Array(offsets[items.length]);
  items.forEach((it, i) => sketches.set(it.sketch, offsets[i]));
  return { fp, sketches, offsets };
}

/** matchSectionItems' accept over the same data. */
const acceptOf = (v: KernelVetting) => (x: number, y: number): boolean => {
  const a = v.docOf[x];
  const b = v.docOf[y];
  if (a === b) return v.endOf[x] < v.startOf[y] || v.endOf[y] < v.startOf[x];
  return !(v.copyOf !== null && v.copyOf[a] >= 0 && v.copyOf[a] === v.copyOf[b]);
};

const arrays = (m: ReturnType<typeof matchPairList>) => ({ a: Array.from(m.a), b: Array.from(m.b), distance: Array.from(m.distance), truncated: m.truncated });

describe('native kernel: the vetted all-pairs search (allPairsVetted)', function () {
  let kernel: CodeKernel | undefined;
  before(function () {
    kernel = kernelKind() === 'native' ? (nativeKernel() ?? undefined) : undefined;
    if (!kernel?.allPairsVetted) this.skip();
  });

  it("gives matchPairList's pairs of its accept and estimateJaccard, with and without copy classes, on 1, 2 and 5 threads, and the maxPairs cut", () => {
    for (const seed of [1, 2, 3]) {
      const { items, vetting } = itemsOf(2400, seed);
      for (const copyOf of [vetting.copyOf, null]) {
        const v = { ...vetting, copyOf };
        const accept = acceptOf(v);
        // (0.25 = 16 of 64 values: estimates equal to it are kept)
        const options: MatchOptions = { maxDistance: 10, minSimilarity: 0.25, sketchSize: 64 };
        const plain = { allPairs: kernel!.allPairs.bind(kernel) }; // the kernel's candidates, vetted in TypeScript
        const reference = matchPairList(items, { ...options, kernel: plain }, accept);
        const candidates = kernel!.allPairs(new Uint32Array(items.flatMap((i) => [i.hi, i.lo])), 10, 1e9)!.a.length;
        assert.ok(reference.length > 100 && candidates > 2 * reference.length, `seed ${seed}: ${reference.length} pairs of ${candidates} candidates`);
        for (const threads of [1, 2, 5]) {
          assert.deepEqual(arrays(matchPairList(items, { ...options, kernel: kernel!, threads }, accept, v)), arrays(reference), `seed ${seed} threads ${threads}`);
        }
        // Cut at maxPairs: the same pairs kept, truncated both.
        const cap = Math.floor(reference.length / 3);
        const cut = matchPairList(items, { ...options, maxPairs: cap, kernel: plain }, accept);
        assert.ok(cut.truncated && cut.length === cap);
        assert.deepEqual(arrays(matchPairList(items, { ...options, maxPairs: cap, kernel: kernel!, threads: 2 }, accept, v)), arrays(cut));
        assert.deepEqual(arrays(matchPairList(items, { ...options, maxPairs: reference.length, kernel: kernel!, threads: 2 }, accept, v)), arrays(reference));
      }
    }
  });

  it("leaves out the pairs of documents skipDocs names (files the report already pairs) before the maxPairs cut: matchPairList's pairs of the same rule as a function, and as data (skipPairs) left out by the kernel itself", () => {
    for (const seed of [4, 5]) {
      const { items, vetting, docs } = itemsOf(2400, seed);
      const rnd = mulberry32(seed + 100);
      // About a third of the document pairs that have candidates, as matchSectionItems' pairedFiles.
      const paired = new Set<number>();
      for (let a = 0; a < docs; a++) for (let b = a + 1; b < docs; b++) if (rnd() < 0.35) paired.add(a * docs + b);
      const skipDocs = (a: number, b: number) => paired.has(a < b ? a * docs + b : b * docs + a);
      const v: KernelVetting = { ...vetting, copyOf: null, skipDocs };
      const rule = acceptOf(v);
      const accept = (x: number, y: number) => rule(x, y) && (v.docOf[x] === v.docOf[y] || !skipDocs(v.docOf[x], v.docOf[y]));
      const options: MatchOptions = { maxDistance: 10, minSimilarity: 0.25, sketchSize: 64 };
      const plain = { allPairs: kernel!.allPairs.bind(kernel) };
      const reference = matchPairList(items, { ...options, kernel: plain }, accept);
      const unskipped = matchPairList(items, { ...options, kernel: kernel! }, rule, { ...v, skipDocs: undefined });
      assert.ok(reference.length > 100 && unskipped.length > reference.length + 50, `seed ${seed}: ${reference.length} of ${unskipped.length} pairs`);
      // The same pairs as data, left out by the kernel as it vets (each pair twice, either way round).
      const skipPairs = new Int32Array([...paired].flatMap((k) => [Math.floor(k / docs), k % docs, k % docs, Math.floor(k / docs)]));
      const asData: KernelVetting = { ...v, skipPairs };
      for (const threads of [1, 2]) {
        assert.deepEqual(arrays(matchPairList(items, { ...options, kernel: kernel!, threads }, accept, v)), arrays(reference), `seed ${seed} threads ${threads}`);
        assert.deepEqual(arrays(matchPairList(items, { ...options, kernel: kernel!, threads }, accept, asData)), arrays(reference), `seed ${seed} threads ${threads}, as data`);
      }
      const cap = Math.floor(reference.length / 3);
      const cut = matchPairList(items, { ...options, maxPairs: cap, kernel: plain }, accept);
      assert.ok(cut.truncated && cut.length === cap);
      assert.deepEqual(arrays(matchPairList(items, { ...options, maxPairs: cap, kernel: kernel! }, accept, v)), arrays(cut));
      assert.deepEqual(arrays(matchPairList(items, { ...options, maxPairs: cap, kernel: kernel! }, accept, asData)), arrays(cut));
      // Half the pairs as data: the other half kept (the data is what the kernel reads).
      const half = { ...asData, skipPairs: skipPairs.subarray(0, 4 * Math.floor(paired.size / 2)) };
      assert.ok(matchPairList(items, { ...options, kernel: kernel! }, accept, half).length > reference.length);
    }
  });

  it('refuses malformed skipPairs (odd length, a negative or the same document twice)', () => {
    const { items, vetting } = itemsOf(200, 6);
    const { fp, sketches, offsets } = flatArgs(items);
    const run = (skip: Int32Array | null) => kernel!.allPairsVetted!(fp, 10, 1e9, 1, sketches, offsets, 64, 0.3, vetting.docOf, vetting.startOf, vetting.endOf, null, skip);
    assert.deepEqual(run(new Int32Array(0)), run(null));
    assert.throws(() => run(new Int32Array([1, 2, 3])), /skipPairs/);
    assert.throws(() => run(new Int32Array([1, -2])), /skipPairs/);
    assert.throws(() => run(new Int32Array([4, 4])), /skipPairs/);
  });

  it('declines (null) past maxCandidates counted before the vetting, and refuses malformed arguments', () => {
    const { items, vetting } = itemsOf(800, 7);
    const { fp, sketches, offsets } = flatArgs(items);
    const vetted = (max: number, o = offsets, copyOf = vetting.copyOf) =>
      kernel!.allPairsVetted!(fp, 10, max, 2, sketches, o, 64, 0.3, vetting.docOf, vetting.startOf, vetting.endOf, copyOf);
    const candidates = kernel!.allPairs(fp, 10, 1e9)!.a.length;
    const kept = vetted(candidates)!.a.length;
    assert.ok(kept > 0 && kept < candidates);
    assert.equal(vetted(candidates - 1), null);
    assert.throws(() => vetted(1e9, offsets.subarray(1)), /offsets/);
    assert.throws(() => vetted(1e9, Uint32Array.from(offsets, (x, i) => (i === 5 ? 0 : x))), /offsets/);
    assert.throws(() => vetted(1e9, offsets, new Int32Array(2)), /copyOf/);
  });

  it('takes the sketches as views of the buffers they lie in (a scan\'s batches: nothing copied), item by (view, offset, length): the same pairs as one array; bad views refused', () => {
    const { items, vetting } = itemsOf(2400, 9);
    // The items' sketches moved into three buffers, other words between them (as a batch holds its heads).
    const buffers = [new Uint32Array(70_000), new Uint32Array(70_000), new Uint32Array(70_000)];
    const used = [0, 0, 0];
    const inViews = items.map((it, i) => {
      const j = i % 3;
      buffers[j].fill(0xdeadbeef, used[j], used[j] + 7);
      used[j] += 7;
      const sketch = buffers[j].subarray(used[j], used[j] + it.sketch.length);
      sketch.set(it.sketch);
      used[j] += it.sketch.length;
      return { ...it, sketch };
    });
    const options: MatchOptions = { maxDistance: 10, minSimilarity: 0.25, sketchSize: 64 };
    const reference = matchPairList(items, { ...options, kernel: { allPairs: kernel!.allPairs.bind(kernel) } }, acceptOf(vetting));
    assert.ok(reference.length > 100, `${reference.length} pairs`);
    for (const threads of [1, 2]) assert.deepEqual(arrays(matchPairList(inViews, { ...options, kernel: kernel!, threads }, acceptOf(vetting), vetting)), arrays(reference), `threads ${threads}`);
    // The binding itself, both forms: the same pairs.
    const { fp, sketches: flat, offsets: flatOffsets } = flatArgs(items);
    const at = new Uint32Array(3 * items.length);
    inViews.forEach((it, i) => at.set([i % 3, it.sketch.byteOffset >>> 2, it.sketch.length], 3 * i));
    const run = (sketches: Uint32Array | Uint32Array[], offsets: Uint32Array) =>
      kernel!.allPairsVetted!(fp, 10, 1e9, 2, sketches, offsets, 64, 0.25, vetting.docOf, vetting.startOf, vetting.endOf, vetting.copyOf);
    const one = run(flat, flatOffsets)!;
    const viewed = run(buffers, at)!;
    assert.ok(one.a.length > 100);
    assert.deepEqual([Array.from(viewed.a), Array.from(viewed.b), Array.from(viewed.distance)], [Array.from(one.a), Array.from(one.b), Array.from(one.distance)]);
    // A view's words read where its offset says: off by one, other pairs.
    const shifted = run(buffers, at.map((x, i) => (i % 3 === 1 && x > 0 ? x - 1 : x)))!;
    assert.notDeepEqual(Array.from(shifted.a), Array.from(one.a));
    assert.throws(() => run(buffers, at.subarray(3)), /offsets/);
    assert.throws(() => run(buffers.slice(0, 2), at), /view past the sketches/);
    assert.throws(() => run(buffers, at.map((x, i) => (i === 4 ? 70_000 : x))), /past the end of its view/);
    assert.throws(() => run([buffers[0], new Float64Array(4) as unknown as Uint32Array, buffers[2]], at), /views/);
  });

  it("takes a native batch's items' sketches where they say they lie (SketchPlace), no view made of each: the same pairs", () => {
    const { items, vetting } = itemsOf(2400, 13);
    // Two arrays of words, heads between the sketches (as a batch's words), each item saying where its sketch is.
    const words = [new Uint32Array(90_000), new Uint32Array(90_000)];
    const used = [0, 0];
    const placed = items.map((it, i) => {
      const j = i % 2;
      used[j] += 9;
      words[j].set(it.sketch, used[j]);
      const place = { sketchWords: words[j], sketchAt: used[j], sketchLength: it.sketch.length };
      used[j] += it.sketch.length;
      const { hi, lo, tokens, features, rawHi, rawLo, normHi, normLo } = it;
      return {
        hi, lo, tokens, features, rawHi, rawLo, normHi, normLo, ...place,
        get sketch(): Uint32Array {
          throw new Error('a view asked for');
        },
      };
    });
    const options: MatchOptions = { maxDistance: 10, minSimilarity: 0.25, sketchSize: 64 };
    const reference = matchPairList(items, { ...options, kernel: kernel! }, acceptOf(vetting), vetting);
    assert.ok(reference.length > 100, `${reference.length} pairs`);
    for (const threads of [1, 2]) assert.deepEqual(arrays(matchPairList(placed, { ...options, kernel: kernel!, threads }, acceptOf(vetting), vetting)), arrays(reference), `threads ${threads}`);
  });

  it('without a rule (a report\'s files): the sketches\' estimate alone, vetted in the kernel, gives the pairs of the plain candidates vetted in TypeScript, their order (sorted by the kernel) and the cut', () => {
    const { items } = itemsOf(2400, 11);
    const options: MatchOptions = { maxDistance: 12, minSimilarity: 0.25, sketchSize: 64 };
    const plain = { allPairs: kernel!.allPairs.bind(kernel) };
    const reference = matchPairList(items, { ...options, kernel: plain });
    assert.ok(reference.length > 100, `${reference.length} pairs`);
    for (const threads of [1, 2]) assert.deepEqual(arrays(matchPairList(items, { ...options, kernel: kernel!, threads })), arrays(reference), `threads ${threads}`);
    const cap = Math.floor(reference.length / 2);
    assert.deepEqual(arrays(matchPairList(items, { ...options, maxPairs: cap, kernel: kernel! })), arrays(matchPairList(items, { ...options, maxPairs: cap, kernel: plain })));
  });

  it('sortPairs: the order of orderPairList (distance, then a, then b) in place; false past 2^28 items; malformed arguments refused', () => {
    const rnd = mulberry32(5);
    for (const [count, n] of [[0, 1], [1, 5], [2, 3], [5000, 70], [40_000, 1_000_000], [20_000, 2 ** 28 - 1]]) {
      const a = new Uint32Array(count);
      const b = new Uint32Array(count);
      const distance = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        a[i] = Math.floor(rnd() * n);
        b[i] = Math.floor(rnd() * n);
        distance[i] = Math.floor(rnd() * 65);
      }
      const expected = orderPairList({ length: count, a, b, distance, truncated: false }, n);
      const got = { a: a.slice(), b: b.slice(), distance: distance.slice() };
      assert.equal(kernel!.sortPairs!(got.a, got.b, got.distance, n), true, `${count} pairs of ${n}`);
      assert.deepEqual([Array.from(got.a), Array.from(got.b), Array.from(got.distance)], [Array.from(expected.a), Array.from(expected.b), Array.from(expected.distance)], `${count} pairs of ${n}`);
    }
    const a = Uint32Array.of(3, 1);
    assert.equal(kernel!.sortPairs!(a, Uint32Array.of(4, 2), Uint8Array.of(1, 1), 2 ** 28), false);
    assert.deepEqual(Array.from(a), [3, 1], 'unchanged when not sorted');
    assert.throws(() => kernel!.sortPairs!(a, Uint32Array.of(4), Uint8Array.of(1, 1), 10), /sortPairs/);
    assert.throws(() => kernel!.sortPairs!(a, Uint32Array.of(4, 2), Uint8Array.of(1, 1), 3), /not below n/);
  });
});
