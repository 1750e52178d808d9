// pairKeys (src/core/pairKeys.ts): the base of two numbers' key — the bound itself while
// every key stays a small integer (under 2^30, V8's Smi where it compresses pointers), else 2^26 —
// and keys that sort as their pairs do, either base.
import { strict as assert } from 'node:assert';
import { eitherOrderKey, pairKeyBase, SMALL_PAIR_BOUND, WIDE_PAIR_BASE } from '../../../src/core/pairKeys';
import { mulberry32 as rng } from '../helpers/random';

describe('core/pairKeys', () => {
  it('takes the bound for a base up to SMALL_PAIR_BOUND (at least 1), 2^26 beyond', () => {
    assert.equal(pairKeyBase(0), 1);
    assert.equal(pairKeyBase(1), 1);
    assert.equal(pairKeyBase(5584), 5584);
    assert.equal(pairKeyBase(SMALL_PAIR_BOUND), SMALL_PAIR_BOUND);
    assert.equal(pairKeyBase(SMALL_PAIR_BOUND + 1), WIDE_PAIR_BASE);
    assert.equal(pairKeyBase(WIDE_PAIR_BASE), WIDE_PAIR_BASE);
  });

  it('keeps every key of the largest small bound under 2^30, and the wide keys exact', () => {
    const b = pairKeyBase(SMALL_PAIR_BOUND);
    const largest = (SMALL_PAIR_BOUND - 1) * b + (SMALL_PAIR_BOUND - 1);
    assert.ok(largest < 2 ** 30, `${largest}`);
    const w = (WIDE_PAIR_BASE - 1) * WIDE_PAIR_BASE + (WIDE_PAIR_BASE - 1);
    assert.ok(Number.isSafeInteger(w));
    assert.equal(Math.floor(w / WIDE_PAIR_BASE), WIDE_PAIR_BASE - 1);
  });

  it('gives keys that sort as (x, y) and decode to their pair, and one key for either order, either base', () => {
    const r = rng(5);
    for (const bound of [2, 7, 1000, SMALL_PAIR_BOUND, SMALL_PAIR_BOUND + 1, 1_000_000]) {
      const base = pairKeyBase(bound);
      const pairs = Array.from({ length: 500 }, () => [Math.floor(r() * bound), Math.floor(r() * bound)] as const);
      const byPair = [...pairs].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      const byKey = Float64Array.from(pairs, ([x, y]) => x * base + y).sort();
      assert.deepEqual([...byKey], byPair.map(([x, y]) => x * base + y), `bound ${bound}`);
      const either = eitherOrderKey(base);
      for (const [x, y] of pairs) {
        const k = x * base + y;
        assert.deepEqual([Math.floor(k / base), k - Math.floor(k / base) * base], [x, y]);
        assert.equal(either(x, y), either(y, x));
        assert.equal(either(x, y), Math.min(x, y) * base + Math.max(x, y));
      }
    }
  });
});
