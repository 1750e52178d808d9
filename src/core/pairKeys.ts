/**
 * Two whole numbers below a bound as one number, x × base + y: the keys of the Maps and Sets of
 * document pairs (and of a document's token ranges). Where the bound is small enough every key is
 * a small integer, which V8 holds unboxed (a Smi: no heap number made per key, and a Map's
 * look-up about twice as fast as with doubles for keys); beyond it the base is 2^26 (bounds up to
 * 2^26). Any base above every y sorts the keys as (x, y) sorts.
 */

/** The base for bounds too large for small-integer keys (and the largest bound). */
export const WIDE_PAIR_BASE = 0x4000000;

/** The largest bound with small-integer keys: 32,767² < 2^30 (a Smi where V8 compresses pointers, as Electron's does). */
export const SMALL_PAIR_BOUND = 32767;

/** The base for numbers in [0, bound). */
export function pairKeyBase(bound: number): number {
  return bound <= SMALL_PAIR_BOUND ? Math.max(1, bound) : WIDE_PAIR_BASE;
}

/** Two numbers as one key in either order (the lower first), with `base`. */
export const eitherOrderKey =
  (base: number) =>
  (x: number, y: number): number =>
    x <= y ? x * base + y : y * base + x;
