import { strict as assert } from 'node:assert';
import { DocumentFrequencyTable } from '../../../../src/core/fingerprint/documentFrequency';
import { countDocumentShingles, fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { hammingDistance } from '../../../../src/core/index/hamming';

describe('documentFrequency (TF-IDF)', () => {
  it('counts documents and shingles; idf falls as a shingle gets common', () => {
    const t = new DocumentFrequencyTable(new ArrayBuffer(4 << 10));
    t.documents = 10;
    t.add(5);
    assert.equal(t.frequency(5), 1);
    assert.equal(t.frequency(5 + 1024), 1, 'buckets are the low bits');
    for (let i = 0; i < 9; i++) t.add(7);
    assert.ok(t.idf(0, 5) > t.idf(0, 7));
    assert.equal(t.idf(0, 99), Math.log(11) + 1);
    assert.throws(() => new DocumentFrequencyTable(new ArrayBuffer(12)), RangeError);
  });

  it('works on a SharedArrayBuffer (what the workers share)', () => {
    const t = new DocumentFrequencyTable(new SharedArrayBuffer(4 << 10));
    t.add(3);
    assert.equal(new Uint32Array(t.buffer)[3], 1);
  });

  it('countDocumentShingles counts each distinct shingle of a document once', () => {
    const t = new DocumentFrequencyTable(new ArrayBuffer(4 << 16));
    const text = Array.from({ length: 60 }, (_, i) => `word${i % 20}`).join(' ');
    assert.equal(countDocumentShingles(text, 'a.md', {}, t), true);
    assert.equal(t.documents, 1);
    let total = 0;
    for (const c of t.counts) total += c;
    assert.equal(total, 20, '20 distinct 3-shingles in a cycle of 20 words');
    assert.equal(countDocumentShingles('too short', 'a.md', {}, t), false);
    assert.equal(t.documents, 1);
  });

  it('tfidf fingerprints differ from plain ones and stay stable for equal texts', () => {
    const t = new DocumentFrequencyTable(new ArrayBuffer(4 << 16));
    const a = Array.from({ length: 200 }, (_, i) => `w${(i * 7) % 97}`).join(' ');
    countDocumentShingles(a, 'a.md', {}, t);
    const x = fingerprintText(a, 'a.md', { weighting: 'tfidf', idf: t.idf }).file!;
    const y = fingerprintText(a, 'b.md', { weighting: 'tfidf', idf: t.idf }).file!;
    assert.equal(hammingDistance(x.hi, x.lo, y.hi, y.lo), 0);
  });
});
