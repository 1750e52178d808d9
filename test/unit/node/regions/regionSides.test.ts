// Unit tests of src/node/regions/regionSides.ts: a located side's SimHash made by a compiled
// kernel (CodeKernel.simhashTokens: native/simhash.c, the native addon and the committed
// WebAssembly module) is the TypeScript's (simhashTokens) bit for bit — raw and identifier-
// normalised streams, unweighted and tf-weighted, ranges of every length down to none — and
// pairSides gives the same sides with a kernel or without.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { pairSides, sideSimhash, type SideOptions } from '../../../../src/node/regions/regionSides';
import { KERNELS } from '../workers/kernelsUnderTest';
import { chineseText, codeFile, mulberry32, proseText } from '../../helpers/corpus';

const REPO = path.join(__dirname, '..', '..', '..', '..');

/** Code (this repository's TypeScript and C, random code, a repetitive file), English and Chinese prose. */
function documents(): RegionDocument[] {
  const rnd = mulberry32(77);
  const docs: RegionDocument[] = [];
  for (const rel of ['src/core/fingerprint/simhash.ts', 'native/fingerprint.c', 'src/node/regions/regionSides.ts']) {
    docs.push(regionDocument(fs.readFileSync(path.join(REPO, rel), 'utf8'), rel));
  }
  for (let i = 0; i < 3; i++) docs.push(regionDocument(codeFile(rnd, 8), `gen${i}.ts`));
  // Counts above one (tf weights 1 + ln(count)): a few lines over and over.
  docs.push(regionDocument(Array.from({ length: 60 }, (_, i) => `x = f(x, ${i % 4}); y = x + ${i % 3};`).join('\n'), 'repeat.js'));
  docs.push(regionDocument(proseText(rnd, 8), 'en.md'));
  docs.push(regionDocument(chineseText(rnd, 6), 'zh.md'));
  return docs;
}

const OPTIONS: SideOptions[] = [
  { normalizeIdentifiers: false, weighting: 'none' },
  { normalizeIdentifiers: false, weighting: 'tf' },
  { normalizeIdentifiers: true, weighting: 'none' },
  { normalizeIdentifiers: true, weighting: 'tf' },
];

describe('node/regions/regionSides', () => {
  const docs = documents();

  for (const under of KERNELS) {
    it(`sideSimhash by the ${under.name} kernel: the TypeScript's bits on random ranges of every length (raw and normalised, none and tf)`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const rnd = mulberry32(4711);
      let compared = 0;
      let weighted = 0;
      for (const d of docs) {
        assert.ok(d.length > 200, 'documents long enough for long ranges');
        const ranges: Array<[number, number]> = [[0, d.length], [0, 0], [5, 5], [d.length - 1, d.length]];
        for (let n = 1; n <= 5; n++) ranges.push([10, 10 + n]);
        for (let i = 0; i < 60; i++) {
          const start = Math.floor(rnd() * d.length);
          ranges.push([start, Math.min(d.length, start + 1 + Math.floor(rnd() * 400))]);
        }
        for (const o of OPTIONS) {
          for (const [start, end] of ranges) {
            const ts = sideSimhash(d, start, end, o);
            const k = sideSimhash(d, start, end, o, kernel);
            if (end <= start) assert.equal(k, null, 'no tokens: no SimHash');
            else assert.ok(ts && k);
            assert.deepEqual(k && { hi: k.hi, lo: k.lo }, ts && { hi: ts.hi, lo: ts.lo }, `${o.normalizeIdentifiers ? 'ids' : 'raw'} ${o.weighting} [${start}, ${end}) of ${d.length}`);
            compared++;
            if (o.weighting === 'tf') weighted++;
          }
        }
      }
      assert.ok(compared > 2000 && weighted > 1000, `${compared} ranges`);
      // The kernel's result does not depend on the calls before it (its scratch sequence is rebuilt).
      const first = sideSimhash(docs[0], 100, 300, OPTIONS[1], kernel);
      sideSimhash(docs[1], 0, docs[1].length, OPTIONS[1], kernel);
      assert.deepEqual(sideSimhash(docs[0], 100, 300, OPTIONS[1], kernel), first);
      // Ranges outside the streams are refused.
      const out = new Uint32Array(2);
      assert.throws(() => kernel!.simhashTokens!(docs[0].raw.hi, docs[0].raw.lo, 0, docs[0].length + 1, 3, false, out), /simhashTokens/);
      assert.throws(() => kernel!.simhashTokens!(docs[0].raw.hi, docs[0].raw.lo, -1, 10, 3, false, out), /simhashTokens/);
      assert.throws(() => kernel!.simhashTokens!(docs[0].raw.hi, docs[0].raw.lo, 0, 10, 3, false, new Uint32Array(1)), /out/);
    });

    it(`pairSides with the ${under.name} kernel: the same trimmed starts, content keys and distance as without`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const rnd = mulberry32(99);
      for (let i = 0; i < 200; i++) {
        const A = docs[Math.floor(rnd() * docs.length)];
        const B = docs[Math.floor(rnd() * docs.length)];
        const a = Math.floor(rnd() * (A.length - 50));
        const b = Math.floor(rnd() * (B.length - 50));
        const p = { a: { doc: 0, start: a, end: a + 10 + Math.floor(rnd() * 40) }, b: { doc: 1, start: b, end: b + 10 + Math.floor(rnd() * 40) } };
        const o = OPTIONS[i % OPTIONS.length];
        assert.deepEqual(pairSides(A, B, p as Parameters<typeof pairSides>[2], o, kernel), pairSides(A, B, p as Parameters<typeof pairSides>[2], o));
      }
    });
  }
});
