import { strict as assert } from 'node:assert';
import { fmix32, fnv1a64, fnv1a64Step, FNV64_OFFSET_HI, FNV64_OFFSET_LO, hashString64, mix64, out } from '../../../../src/core/text/hash';

const hex = (hi: number, lo: number) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');

/** Reference FNV-1a 64 with BigInt (tests only; the engine never uses BigInt). */
function fnvBig(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

describe('hash', () => {
  it('FNV-1a 64 matches the published test vectors', () => {
    fnv1a64('');
    assert.equal(hex(out.hi, out.lo), 'cbf29ce484222325');
    fnv1a64('a');
    assert.equal(hex(out.hi, out.lo), 'af63dc4c8601ec8c');
    fnv1a64('foobar');
    assert.equal(hex(out.hi, out.lo), '85944171f73967e8');
  });

  it('FNV-1a 64 in two halves equals a BigInt reference on random strings', () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let t = 0; t < 500; t++) {
      const len = Math.floor(rnd() * 40);
      let s = '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(Math.floor(rnd() * (rnd() < 0.8 ? 128 : 0xd7ff)));
      fnv1a64(s);
      assert.equal(hex(out.hi, out.lo), fnvBig(s), JSON.stringify(s));
    }
  });

  it('fnv1a64Step is one step of the same hash', () => {
    fnv1a64Step(FNV64_OFFSET_HI, FNV64_OFFSET_LO, 'a'.charCodeAt(0));
    assert.equal(hex(out.hi, out.lo), 'af63dc4c8601ec8c');
  });

  it('fmix32 matches murmur3 known values', () => {
    assert.equal(fmix32(0), 0);
    assert.equal(fmix32(1), 0x514e28b7);
  });

  it('mix64 output bits are unbiased over sequential inputs (no bit far from 50%)', () => {
    const n = 20000;
    const ones = new Array(64).fill(0);
    for (let i = 0; i < n; i++) {
      fnv1a64('token' + i);
      mix64(out.hi, out.lo);
      for (let b = 0; b < 32; b++) {
        ones[b] += (out.lo >>> b) & 1;
        ones[32 + b] += (out.hi >>> b) & 1;
      }
    }
    for (let b = 0; b < 64; b++) {
      const share = ones[b] / n;
      assert.ok(Math.abs(share - 0.5) < 0.02, `bit ${b} is set in ${(share * 100).toFixed(1)}% of hashes`);
    }
  });

  it('mix64 avalanches: flipping one input bit flips about half the output bits', () => {
    let total = 0;
    let trials = 0;
    for (let i = 0; i < 200; i++) {
      fnv1a64('w' + i);
      const hi = out.hi;
      const lo = out.lo;
      mix64(hi, lo);
      const h0 = out.hi;
      const l0 = out.lo;
      for (let bit = 0; bit < 64; bit++) {
        if (bit < 32) mix64(hi, (lo ^ (1 << bit)) >>> 0);
        else mix64((hi ^ (1 << (bit - 32))) >>> 0, lo);
        let x = (out.hi ^ h0) >>> 0;
        let y = (out.lo ^ l0) >>> 0;
        let c = 0;
        while (x) { c += x & 1; x >>>= 1; }
        while (y) { c += y & 1; y >>>= 1; }
        total += c;
        trials++;
      }
    }
    const mean = total / trials;
    assert.ok(mean > 30 && mean < 34, `mean flipped bits ${mean}`);
  });

  it('hashString64 differs for different strings and is stable', () => {
    hashString64('alpha');
    const a = hex(out.hi, out.lo);
    hashString64('alpha');
    assert.equal(hex(out.hi, out.lo), a);
    hashString64('alphb');
    assert.notEqual(hex(out.hi, out.lo), a);
  });
});
