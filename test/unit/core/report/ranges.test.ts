import { strict as assert } from 'node:assert';
import { forEachContainers } from '../../../../src/core/report/ranges';
import { mulberry32 } from '../../helpers/corpus';

describe('forEachContainers', () => {
  it('gives each range the ranges that hold it (itself included), as checking every pair would', () => {
    const rnd = mulberry32(5);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rnd() * 60);
      const starts: number[] = [];
      const ends: number[] = [];
      for (let i = 0; i < n; i++) {
        const s = 1 + Math.floor(rnd() * 40); // few lines: shared starts, equal ranges, overlaps
        starts.push(s);
        ends.push(s + Math.floor(rnd() * 20));
      }
      const wanted = (i: number) => i % 3 !== 1;
      const got = new Map<number, number[]>();
      forEachContainers(
        starts.map((_, i) => i),
        (i) => starts[i],
        (i) => ends[i],
        (i, c) => got.set(i, [...c].sort((a, b) => a - b)),
        wanted,
      );
      for (let i = 0; i < n; i++) {
        if (!wanted(i)) {
          assert.equal(got.has(i), false, `round ${round}: ${i} not wanted`);
          continue;
        }
        const want: number[] = [];
        for (let j = 0; j < n; j++) if (starts[j] <= starts[i] && ends[i] <= ends[j]) want.push(j);
        assert.deepEqual(got.get(i), want, `round ${round}, range ${i} (${starts[i]}-${ends[i]})`);
      }
    }
  });
});
