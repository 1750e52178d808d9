/**
 * HashSet64: a set of words kept by their 64-bit FNV-1a hash, probed with a token's two halves
 * (the stop words of prose, the keywords before a regular expression).
 */
import { fnv1a64, out } from '../hash';

/** A set of 64-bit hashes of words (stop words, keywords), probed without allocating. */
export class HashSet64 {
  private readonly map = new Map<number, number[]>();
  constructor(words: Iterable<string>) {
    for (const w of words) {
      fnv1a64(w);
      const list = this.map.get(out.lo);
      if (list) list.push(out.hi);
      else this.map.set(out.lo, [out.hi]);
    }
  }
  has(hi: number, lo: number): boolean {
    const list = this.map.get(lo);
    return list !== undefined && list.includes(hi);
  }
}
