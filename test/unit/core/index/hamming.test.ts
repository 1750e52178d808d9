import { strict as assert } from 'node:assert';
import { hammingDistance, popcount32, similarity } from '../../../../src/core/index/hamming';

/** Bit i of a 64-bit fingerprint as (hi, lo): bits 0..31 are in lo, 32..63 in hi. */
function bit(i: number): [number, number] {
  return i >= 32 ? [(1 << (i - 32)) >>> 0, 0] : [0, (1 << i) >>> 0];
}

function naivePopcount(x: number): number {
  let c = 0;
  for (let i = 0; i < 32; i++) if ((x >>> i) & 1) c++;
  return c;
}

describe('popcount32', () => {
  it('counts known values', () => {
    assert.equal(popcount32(0), 0);
    assert.equal(popcount32(1), 1);
    assert.equal(popcount32(0x80000000), 1);
    assert.equal(popcount32(0xffffffff), 32);
    assert.equal(popcount32(-1), 32); // the same 32 bits, signed
    assert.equal(popcount32(0x55555555), 16);
    assert.equal(popcount32(0x12345678), 13);
    assert.equal(popcount32(0xf0f0f0f0), 16);
  });

  it('agrees with a bit-by-bit count on pseudo-random values', () => {
    let x = 0x9e3779b9;
    for (let i = 0; i < 2000; i++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      assert.equal(popcount32(x), naivePopcount(x), `x = ${x.toString(16)}`);
      assert.equal(popcount32(x | 0), naivePopcount(x));
    }
  });
});

describe('hammingDistance', () => {
  it('is 1 for fingerprints differing in exactly bit 0, 31, 32 or 63', () => {
    for (const i of [0, 31, 32, 63]) {
      const [h, l] = bit(i);
      assert.equal(hammingDistance(0, 0, h, l), 1, `bit ${i}`);
      assert.equal(hammingDistance(0xffffffff, 0xffffffff, 0xffffffff ^ h, 0xffffffff ^ l), 1, `bit ${i} from all ones`);
    }
  });

  it('counts several known bits and all 64', () => {
    const hi = bit(32)[0] | bit(63)[0];
    const lo = bit(0)[1] | bit(31)[1];
    assert.equal(hammingDistance(0, 0, hi >>> 0, lo >>> 0), 4);
    assert.equal(hammingDistance(0, 0, 0xffffffff, 0xffffffff), 64);
    assert.equal(hammingDistance(0xffffffff, 0, 0, 0xffffffff), 64);
    assert.equal(hammingDistance(0xdeadbeef, 0x12345678, 0xdeadbeef, 0x12345678), 0);
    assert.equal(hammingDistance(0xffffffff, 0, 0xffff0000, 0), 16);
  });

  it('treats signed and unsigned forms of a half alike and is symmetric', () => {
    assert.equal(hammingDistance(-1, -1, 0xffffffff, 0xffffffff), 0);
    assert.equal(hammingDistance(0x0f0f0f0f, 3, 0xf0f0f0f0, 0), 34);
    assert.equal(hammingDistance(0xf0f0f0f0, 0, 0x0f0f0f0f, 3), 34);
  });
});

describe('similarity', () => {
  it('is 1 − d/64', () => {
    assert.equal(similarity(0), 1);
    assert.equal(similarity(64), 0);
    assert.equal(similarity(16), 0.75);
    assert.equal(similarity(2), 0.96875);
    assert.equal(similarity(4), 0.9375);
  });
});
