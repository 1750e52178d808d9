// Seeded pseudo-random numbers for the tests (mulberry32): the same sequence on every run.

/** Unsigned 32-bit integers. */
export function mulberry32Uint(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Numbers in [0, 1): the integers above divided by 2^32. */
export function mulberry32(seed: number): () => number {
  const next = mulberry32Uint(seed);
  return () => next() / 4294967296;
}
