import { strict as assert } from 'node:assert';
import { DocumentIndex } from '../../../../src/core/index/documentIndex';
import { hammingDistance } from '../../../../src/core/index/hamming';
import type { DocumentFingerprint, SectionFingerprint } from '../../../../src/core/types';
import { DocumentEntries } from '../../../../src/node/engine/documentEntries';
import { mulberry32 } from '../../helpers/corpus';

/** A random 32-bit half. */
const half = (rnd: () => number) => Math.floor(rnd() * 4294967296) >>> 0;

/** `x` with `d` random bits of its 64 flipped (some may coincide). */
function near(rnd: () => number, x: { hi: number; lo: number }, d: number): { hi: number; lo: number } {
  let { hi, lo } = x;
  for (let i = 0; i < d; i++) {
    const b = Math.floor(rnd() * 64);
    if (b >= 32) hi ^= 1 << (b - 32);
    else lo ^= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

function makeDoc(rnd: () => number, pool: Array<{ hi: number; lo: number }>): DocumentFingerprint {
  const fp = () => {
    const f = pool.length > 0 && rnd() < 0.6 ? near(rnd, pool[Math.floor(rnd() * pool.length)], Math.floor(rnd() * 12)) : { hi: half(rnd), lo: half(rnd) };
    pool.push(f);
    return f;
  };
  const sections: SectionFingerprint[] = [];
  const n = Math.floor(rnd() * 5);
  for (let i = 0; i < n; i++) sections.push({ ...fp(), tokens: 60, features: 58, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0, startLine: 10 * i + 1, endLine: 10 * i + 8 });
  return { kind: 'code', file: rnd() < 0.9 ? { ...fp(), tokens: 200, features: 190, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 } : null, sections };
}

describe('DocumentIndex', function () {
  this.timeout(60000);

  it('file and section neighbours equal brute force through sets, replacements and deletes', () => {
    const rnd = mulberry32(2024);
    const pool: Array<{ hi: number; lo: number }> = [];
    const index = new DocumentIndex({ fileRadius: 8, sectionRadius: 6 });
    const model = new Map<string, DocumentFingerprint>();
    const check = (label: string) => {
      assert.equal(index.size, model.size, label);
      assert.equal(index.sectionsIndexed, [...model.values()].reduce((n, d) => n + d.sections.length, 0), label);
      for (let q = 0; q < 4; q++) {
        const probe = pool.length > 0 ? near(rnd, pool[Math.floor(rnd() * pool.length)], Math.floor(rnd() * 9)) : { hi: 1, lo: 2 };
        const k = Math.floor(rnd() * 9);
        const files: string[] = [];
        for (const [p, d] of model) {
          if (!d.file) continue;
          const dist = hammingDistance(probe.hi, probe.lo, d.file.hi, d.file.lo);
          if (dist <= k) files.push(`${p} ${dist}`);
        }
        assert.deepEqual(index.fileNeighbours(probe, k).map((n) => `${n.path} ${n.distance}`).sort(), files.sort(), `${label}, files`);
        const ks = Math.min(k, 6);
        const sections: string[] = [];
        for (const [p, d] of model) {
          for (const s of d.sections) {
            const dist = hammingDistance(probe.hi, probe.lo, s.hi, s.lo);
            if (dist <= ks) sections.push(`${p}:${s.startLine} ${dist}`);
          }
        }
        const [found] = index.sectionNeighbours([probe], ks);
        assert.deepEqual(found.map((n) => `${n.path}:${n.section.startLine} ${n.distance}`).sort(), sections.sort(), `${label}, sections`);
        for (const n of found) assert.equal(model.get(n.path)!.sections.includes(n.section), true, 'the section object itself');
      }
    };
    for (let step = 0; step < 3000; step++) {
      const r = rnd();
      const paths = [...model.keys()];
      if (r < 0.45 || paths.length < 5) {
        const p = `/p/${Math.floor(rnd() * 400)}`;
        const d = makeDoc(rnd, pool);
        index.set(p, d);
        model.set(p, d);
      } else if (r < 0.7) {
        const p = paths[Math.floor(rnd() * paths.length)];
        const d = makeDoc(rnd, pool);
        index.set(p, d); // replace
        model.set(p, d);
      } else if (r < 0.75) {
        const p = paths[Math.floor(rnd() * paths.length)];
        index.set(p, model.get(p)!); // the same object again: nothing changes
      } else {
        const p = paths[Math.floor(rnd() * paths.length)];
        assert.equal(index.delete(p), true);
        model.delete(p);
        assert.equal(index.has(p), false);
        assert.equal(index.delete(p), false);
      }
      if (step % 50 === 0) index.prepare();
      if (step % 9 === 0) check(`step ${step}`);
    }
    check('end');
    for (const [p, d] of model) assert.equal(index.get(p), d);
  });

  it('without sections, finds no sections', () => {
    const index = new DocumentIndex({ fileRadius: 3, sectionRadius: 3, sections: false });
    const s: SectionFingerprint = { hi: 1, lo: 2, tokens: 60, features: 50, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0, startLine: 1, endLine: 9 };
    index.set('/a', { kind: 'code', file: { hi: 1, lo: 2, tokens: 60, features: 50, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 }, sections: [s] });
    assert.equal(index.sectionsIndexed, 0);
    assert.deepEqual(index.sectionNeighbours([s]), [[]]);
    assert.deepEqual(
      index.fileNeighbours({ hi: 1, lo: 3 }).map((n) => [n.path, n.distance]),
      [['/a', 1]],
    );
  });
});

describe('DocumentEntries', () => {
  it('keeps the fingerprinted documents and their section count in step with the entries', () => {
    const rnd = mulberry32(5);
    const pool: Array<{ hi: number; lo: number }> = [];
    const entries = new DocumentEntries<{ doc: DocumentFingerprint | null; n: number }>();
    for (let step = 0; step < 2000; step++) {
      const p = `/f${Math.floor(rnd() * 60)}`;
      const r = rnd();
      if (r < 0.5) entries.set(p, { doc: makeDoc(rnd, pool), n: step });
      else if (r < 0.65) entries.set(p, { doc: null, n: step });
      else if (r < 0.95) entries.delete(p);
      else entries.clear();
      const expected = new Map<string, DocumentFingerprint>();
      let sections = 0;
      for (const [q, e] of entries) {
        if (!e.doc) continue;
        expected.set(q, e.doc);
        sections += e.doc.sections.length;
      }
      assert.deepEqual(new Map([...entries.docs].sort()), new Map([...expected].sort()), `step ${step}`);
      assert.equal(entries.sections, sections, `step ${step}`);
    }
  });
});
