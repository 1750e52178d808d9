// SectionsByFiles (src/node/locate/sectionsByFiles.ts): the section pairs offered to a region are
// every one that shares a line with its side (± 1 line) in the lower document, checked against
// all of them on random section pairs; all of them for two sides in one file.
import { strict as assert } from 'node:assert';
import { SectionsByFiles } from '../../../../src/node/locate/sectionsByFiles';
import { pairKeyBase, WIDE_PAIR_BASE } from '../../../../src/core/pairKeys';
import { mulberry32 as rng } from '../../helpers/random';

// Keyed by the two files with the base of a few documents (small integers) and with the wide one.
for (const [name, base] of [['keys of 10 documents', pairKeyBase(10)], ['wide keys', WIDE_PAIR_BASE]] as const) {
  const key = (x: number, y: number) => x * base + y;

  describe(`node/locate/sectionsByFiles (${name})`, () => {
    it('offers every section pair near a region side (few and many per pair of files, either side a), checked against all', () => {
      const r = rng(7);
      for (let t = 0; t < 200; t++) {
        const count = 1 + Math.floor(r() * 60);
        const lines = 20 + Math.floor(r() * 400);
        const sections = new SectionsByFiles(count + 3, base);
        const lower: Array<[number, number]> = [];
        for (let i = 0; i < count; i++) {
          const s = 1 + Math.floor(r() * lines);
          const e = s + Math.floor(r() * (r() < 0.1 ? lines : 20));
          const other = { startLine: 1 + Math.floor(r() * lines), endLine: lines + 5 };
          // side a in document 3 (the lower) or in 8
          if (r() < 0.5) sections.add(key(3, 8), i + 3, 3, { startLine: s, endLine: e }, other);
          else sections.add(key(3, 8), i + 3, 8, other, { startLine: s, endLine: e });
          lower.push([s, e]);
        }
        const out = { at: new Int32Array(4) };
        for (let q = 0; q < 20; q++) {
          const s = 1 + Math.floor(r() * lines);
          const e = s + Math.floor(r() * 30);
          const n = sections.near(key(3, 8), s, e, out);
          const offered = new Set(out.at.subarray(0, n));
          assert.equal(offered.size, n, 'each once');
          lower.forEach(([ls, le], i) => {
            if (ls <= e + 1 && le >= s - 1) assert.ok(offered.has(i + 3), `set ${t}: section ${i} [${ls}, ${le}] near [${s}, ${e}]`);
          });
          for (const i of offered) assert.ok(i >= 3 && i < count + 3);
        }
      }
    });

    it('from an offset: the same section pairs after it, what is before it kept, the array grown when short', () => {
      const r = rng(11);
      for (let t = 0; t < 60; t++) {
        const sections = new SectionsByFiles(80, base);
        const many = t % 2 === 0 ? 40 : 5; // sorted by lines, or all offered
        for (let i = 0; i < many; i++) {
          const s = 1 + Math.floor(r() * 300);
          sections.add(key(2, 9), i, 2, { startLine: s, endLine: s + Math.floor(r() * 25) }, { startLine: 1, endLine: 9 });
        }
        const alone = { at: new Int32Array(2) };
        const packed = { at: new Int32Array(3) };
        let offset = 0;
        const kept: number[] = [];
        for (let q = 0; q < 12; q++) {
          const s = 1 + Math.floor(r() * 300);
          const e = s + Math.floor(r() * 30);
          const n = sections.near(key(2, 9), s, e, alone);
          const m = sections.near(key(2, 9), s, e, packed, offset);
          assert.equal(m, n);
          assert.deepEqual([...packed.at.subarray(offset, offset + m)], [...alone.at.subarray(0, n)], `set ${t}, query ${q}`);
          kept.push(...alone.at.subarray(0, n));
          offset += m;
        }
        assert.deepEqual([...packed.at.subarray(0, offset)], kept, 'the earlier queries\' pairs kept');
        assert.equal(sections.near(key(1, 2), 1, 2, packed, offset), 0);
      }
    });

    it('offers all the section pairs of one file with itself, and none of files without any', () => {
      const sections = new SectionsByFiles(40, base);
      for (let i = 0; i < 30; i++) sections.add(key(5, 5), i, 5, { startLine: 10 * i + 1, endLine: 10 * i + 5 }, { startLine: 500, endLine: 510 });
      const out = { at: new Int32Array(0) };
      const n = sections.near(key(5, 5), 1, 2, out);
      assert.deepEqual([...out.at.subarray(0, n)], Array.from({ length: 30 }, (_, i) => i));
      assert.equal(sections.near(key(1, 2), 1, 2, out), 0);
      assert.ok(sections.has(key(5, 5)) && !sections.has(key(1, 2)));
    });

    it('offers no far section pair of two files with many', () => {
      const sections = new SectionsByFiles(40, base);
      for (let i = 0; i < 30; i++) sections.add(key(1, 2), i, 1, { startLine: 10 * i + 1, endLine: 10 * i + 5 }, { startLine: 10 * i + 1, endLine: 10 * i + 5 });
      const out = { at: new Int32Array(0) };
      const n = sections.near(key(1, 2), 103, 104, out);
      assert.deepEqual([...out.at.subarray(0, n)], [10], 'lines 101-105 only');
    });
  });
}
