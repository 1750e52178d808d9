// The clone kind of a pair (exact, renamed, edited) from the items' clone hashes, made in the pass
// that fingerprints: for code (files and sections, with and without normalised identifiers) and
// prose, in the TypeScript and in both compiled kernels (native addon, WebAssembly), which must
// give the same hashes; and on every pair of a report.
import { strict as assert } from 'node:assert';
import { cloneHashes, cloneKind } from '../../../../src/core/fingerprint/cloneHashes';
import { fmix32 } from '../../../../src/core/text/hash';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { buildReport } from '../../../../src/core/report/report';
import { TokenBuffer, tokenizeCode } from '../../../../src/core/text/tokenize';
import { languageOf } from '../../../../src/core/text/languages';
import type { CodeKernel, ItemFingerprint } from '../../../../src/core/types';
import { KERNELS } from '../../node/workers/kernelsUnderTest';
import { EDITED, EXACT, ORIGINAL, RENAMED } from '../../helpers/cloneSamples';

const fileOf = (text: string, path: string, options: FingerprintOptions): ItemFingerprint => {
  const d = fingerprintText(text, path, { minTokens: 20, ...options });
  assert.ok(d.file, `${path} has a file fingerprint`);
  return d.file;
};

const runs: Array<{ name: string; kernel: () => CodeKernel | undefined }> = [{ name: 'TypeScript', kernel: () => undefined }, ...KERNELS];

describe('clone hashes and clone kinds', () => {
  for (const run of runs) {
    describe(`with ${run.name}`, () => {
      let kernel: CodeKernel | undefined;
      before(function () {
        kernel = run.kernel();
        if (run.name !== 'TypeScript' && !kernel) this.skip();
      });

      for (const normalizeIdentifiers of [false, true]) {
        it(`code${normalizeIdentifiers ? ' (identifiers normalised)' : ''}: exact, renamed and edited copies of a function`, () => {
          const o = { kernel, normalizeIdentifiers };
          const a = fileOf(ORIGINAL, 'a.ts', o);
          assert.equal(cloneKind(a, fileOf(EXACT, 'b.ts', o)), 'exact');
          assert.equal(cloneKind(a, fileOf(RENAMED, 'c.ts', o)), 'renamed');
          assert.equal(cloneKind(a, fileOf(EDITED, 'd.ts', o)), 'edited');
          assert.equal(cloneKind(fileOf(RENAMED, 'c.ts', o), fileOf(EDITED, 'd.ts', o)), 'edited');
          // The raw hash differs between the renamed copy and the original; the normalised is one.
          const r = fileOf(RENAMED, 'c.ts', o);
          assert.notDeepEqual([a.rawHi, a.rawLo], [r.rawHi, r.rawLo]);
          assert.deepEqual([a.normHi, a.normLo], [r.normHi, r.normLo]);
        });
      }

      it('code sections: each section pair has its own kind', () => {
        const text = `${ORIGINAL}\n${RENAMED}\n${EDITED}\n${EXACT}`;
        const d = fingerprintText(text, 'all.ts', { kernel, minTokens: 20 });
        // The four functions (the sections no other section holds).
        const outer = d.sections.filter((s) => !d.sections.some((t) => t !== s && t.startLine <= s.startLine && s.endLine <= t.endLine));
        assert.equal(outer.length, 4);
        const [orig, renamed, edited, exact] = outer;
        assert.equal(cloneKind(orig, exact), 'exact');
        assert.equal(cloneKind(orig, renamed), 'renamed');
        assert.equal(cloneKind(orig, edited), 'edited');
        // A section and the same function alone in a file: the same tokens.
        assert.equal(cloneKind(orig, fileOf(ORIGINAL, 'a.ts', { kernel })), 'exact');
      });
    });
  }

  it('the kernels give the TypeScript hashes (of files and sections) on these texts', function () {
    const ts = (t: string) => fingerprintText(t, 'x.ts', { minTokens: 20 });
    let compared = 0;
    for (const { kernel } of KERNELS) {
      const k = kernel();
      if (!k) continue;
      for (const t of [ORIGINAL, EXACT, RENAMED, EDITED, `${ORIGINAL}\n${EDITED}`]) {
        const a = ts(t);
        const b = fingerprintText(t, 'x.ts', { minTokens: 20, kernel: k });
        const pick = (d: typeof a) => [d.file, ...d.sections].map((i) => i && [i.rawHi, i.rawLo, i.normHi, i.normLo]);
        assert.deepEqual(pick(b), pick(a));
        compared++;
      }
    }
    if (compared === 0) this.skip();
  });

  it('prose: exact or edited, never renamed (its two hashes are one)', () => {
    const para = 'The backup runs every night at two. It copies the database and the uploaded files to the archive server, then checks the copy and sends a report to the operators. ';
    const original = `# Backups\n\n${para.repeat(3)}`;
    const o = { minTokens: 20 };
    const a = fileOf(original, 'a.md', o);
    assert.deepEqual([a.rawHi, a.rawLo], [a.normHi, a.normLo]);
    // Case and punctuation are not prose tokens: the same words are an exact copy.
    assert.equal(cloneKind(a, fileOf(original.toUpperCase().replace(/\./g, ';'), 'b.md', o)), 'exact');
    // Other words in the same places: edited, not renamed.
    assert.equal(cloneKind(a, fileOf(original.replace(/backup/gi, 'snapshot').replace(/night/g, 'evening'), 'c.md', o)), 'edited');
  });

  it('keywords stay themselves in the normalised stream: `if` and `while` are not a rename', () => {
    const hash = (text: string) => {
      const buf = new TokenBuffer(16);
      tokenizeCode(text, languageOf('x.ts'), {}, buf);
      return cloneHashes(buf.lo, buf.alt, 0, buf.length, false);
    };
    const x = hash('if (a) { b(c, 1); }');
    assert.deepEqual([x.normHi, x.normLo], [hash('if (z) { y(w, 2); }').normHi, hash('if (z) { y(w, 2); }').normLo]);
    assert.notDeepEqual([x.normHi, x.normLo], [hash('while (a) { b(c, 1); }').normHi, hash('while (a) { b(c, 1); }').normLo]);
    // Numbers and strings are literals of their own kinds.
    assert.notDeepEqual([x.normHi, x.normLo], [hash('if (a) { b(c, "s"); }').normHi, hash('if (a) { b(c, "s"); }').normLo]);
  });

  it('every pair of a report carries its kind', () => {
    // Identifiers normalised, so that the renamed copy is at distance 0 and pairs.
    const o = { minTokens: 20, normalizeIdentifiers: true };
    const texts: Record<string, string> = { 'a.ts': ORIGINAL, 'b.ts': EXACT, 'c.ts': RENAMED, 'd.ts': EDITED };
    const docs = Object.entries(texts).map(([path, text]) => ({ path, doc: fingerprintText(text, path, o) }));
    const report = buildReport(docs, { maxDistance: 20, sectionMaxDistance: 20, minSimilarity: 0, sections: false });
    const kinds = Object.fromEntries(report.pairs.map((p) => [`${p.a.path}~${p.b.path}`, p.clone]));
    assert.equal(kinds['a.ts~b.ts'], 'exact');
    assert.equal(kinds['a.ts~c.ts'], 'renamed');
    assert.equal(kinds['b.ts~c.ts'], 'renamed');
    const withD = report.pairs.filter((p) => p.b.path === 'd.ts');
    assert.ok(withD.length > 0, 'the edited copy pairs');
    for (const p of withD) assert.equal(p.clone, 'edited');
  });
  it('every range length and start: the four chains fold token i into chain i mod 4 (ranges ending 1, 2 or 3 tokens past a multiple of four included)', () => {
    // The algorithm as its comment states it, one token at a time (the constants of native/fingerprint.c).
    const reference = (s: Uint32Array, from: number, to: number): [number, number] => {
      const chain = [0x811c9dc5, 0x9747b28c, 0x2545f491, 0x6c8e9cf5];
      for (let i = from; i < to; i++) {
        const c = (i - from) % 4;
        chain[c] = Math.imul(chain[c] ^ s[i], 0x85ebca6b);
        chain[c] ^= chain[c] >>> 15;
      }
      const hi = fmix32((chain[0] ^ Math.imul(chain[2], 0x9e3779b1) ^ (to - from)) >>> 0);
      return [hi, fmix32((chain[1] ^ Math.imul(chain[3], 0xc2b2ae35) ^ hi) >>> 0)];
    };
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const lo = Uint32Array.from({ length: 40 }, next);
    const alt = Uint32Array.from({ length: 40 }, next);
    // Long ranges first (a warm, optimised body), then every short one: the results must not depend on the order.
    const ranges: Array<[number, number]> = [];
    for (let n = 0; n < 200; n++) ranges.push([n % 3, 36 + (n % 4)]);
    for (let from = 0; from < 5; from++) for (let len = 0; len <= 13; len++) ranges.push([from, from + len]);
    for (const [from, to] of ranges) {
      const h = cloneHashes(lo, alt, from, to, false);
      assert.deepEqual([h.rawHi, h.rawLo], reference(lo, from, to), `raw [${from}, ${to})`);
      assert.deepEqual([h.normHi, h.normLo], reference(alt, from, to), `normalised [${from}, ${to})`);
      const swapped = cloneHashes(lo, alt, from, to, true);
      assert.deepEqual([swapped.rawHi, swapped.rawLo, swapped.normHi, swapped.normLo], [h.normHi, h.normLo, h.rawHi, h.rawLo]);
    }
  });
});
