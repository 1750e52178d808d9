/**
 * Linearity checks that hold on a loaded machine: instead of an absolute time (which a busy
 * machine can exceed), compare the best of a few runs at size n with the best at 10 n. Linear
 * work gives a ratio near 10; quadratic work near 100.
 */
export function bestOfMs(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** `work(n)` timed at n and 10 n (best of 3 each); returns both times and their ratio. */
export function growth(work: (n: number) => () => void, n: number): { smallMs: number; largeMs: number; ratio: number } {
  const small = work(n);
  const large = work(10 * n);
  small(); // warm up the code paths
  const smallMs = Math.max(bestOfMs(3, small), 0.05);
  const largeMs = bestOfMs(3, large);
  return { smallMs, largeMs, ratio: largeMs / smallMs };
}
