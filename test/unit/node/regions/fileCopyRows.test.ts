// Unit tests of src/node/regions/fileCopyRows.ts: fileCopies of region pairs as rows gives
// fileCopies' copies of the same pairs — on random lists of pieces (either way round, a document
// with itself, many pieces of one pair of documents spread over the list, covers under and over
// both shares, an empty document, pairs skipped) and on the regions a search finds among edited
// copies of files (copies whole, copies found in pieces and searched again).
import { strict as assert } from 'node:assert';
import { regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { fileCopies, FILE_COVER } from '../../../../src/core/regions/fileCopies';
import { findRegions, type RegionPair } from '../../../../src/core/regions/regions';
import { fileCopiesOfRows } from '../../../../src/node/regions/fileCopyRows';
import { rowsOfPairs } from '../../../../src/node/regions/regionRows';
import { codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';

const piece = (a: number, as: number, ae: number, b: number, bs: number, be: number, similarity: number): RegionPair => ({
  a: { doc: a, start: as, end: ae, startLine: 1 + as, endLine: 1 + ae },
  b: { doc: b, start: bs, end: be, startLine: 1 + bs, endLine: 1 + be },
  clone: similarity === 1 ? 'exact' : 'edited',
  similarity,
  rawSimilarity: similarity,
  consistency: 1,
  renames: 0,
});

describe('node/regions/fileCopyRows: fileCopies of region pairs as rows', () => {
  it('the copies fileCopies finds in the same pairs: random lists of pieces, pairs skipped, an empty document', () => {
    const rnd = mulberry32(5);
    const docs: RegionDocument[] = [];
    for (let i = 0; i < 6; i++) docs.push(regionDocument(i % 2 ? codeFile(mulberry32(100 + i), 4) : proseText(mulberry32(100 + i), 4), `d${i}.${i % 2 ? 'ts' : 'md'}`));
    docs.push(regionDocument('', 'empty.md'));
    const n = docs.length;
    let copies = 0;
    let lists = 0;
    for (let t = 0; t < 300; t++) {
      const pairs: RegionPair[] = [];
      const count = 1 + Math.floor(rnd() * 12);
      for (let p = 0; p < count; p++) {
        const a = Math.floor(rnd() * n);
        const b = rnd() < 0.1 ? a : Math.floor(rnd() * n);
        // (a piece of up to the whole of each document: a few pieces of one pair cover it or not)
        const range = (d: number): [number, number] => {
          const len = docs[d].length;
          const s = Math.floor(rnd() * len * 0.7);
          return [s, Math.min(len, s + Math.floor(rnd() * len * (rnd() < 0.3 ? 1 : 0.4)))];
        };
        pairs.push(piece(a, ...range(a), b, ...range(b), rnd() < 0.3 ? 1 : 0.5 + rnd() / 2));
      }
      const skipped = Math.floor(rnd() * n);
      for (const options of [{ searchCover: 1 }, { searchCover: 1, skipPair: (x: number) => x === skipped }, { cover: 0.3, searchCover: 1 }]) {
        const expected = fileCopies(docs, pairs, options);
        assert.deepEqual(fileCopiesOfRows(docs, rowsOfPairs(pairs), options), expected, `list ${t}`);
        copies += expected.length;
        lists++;
      }
    }
    assert.ok(copies >= 50 && copies < lists, `${copies} copies in ${lists} lists`);
  });

  it('the copies of a search\'s regions: whole copies, and copies found in pieces searched again', () => {
    const docs: RegionDocument[] = [];
    for (let t = 0; t < 6; t++) {
      const text = t % 2 ? codeFile(mulberry32(60 + t), 8) : proseText(mulberry32(60 + t), 8);
      const ext = t % 2 ? 'ts' : 'md';
      docs.push(regionDocument(text, `f${t}.${ext}`));
      docs.push(regionDocument(editLines(text, mulberry32(80 + t), t % 3 ? 0.15 : 0.5), `g${t}.${ext}`));
    }
    const found = findRegions(docs);
    const expected = fileCopies(docs, found.pairs);
    assert.ok(expected.length >= 3, `${expected.length} copies`);
    assert.ok(expected.some((c) => c.coverA >= FILE_COVER && !c.searched), 'a copy found whole');
    assert.deepEqual(fileCopiesOfRows(docs, rowsOfPairs(found.pairs)), expected);
    // Pieces of a third of each: searched again alone.
    const thirds = [0, 2, 4].map((x) => piece(x + 1, 0, Math.floor(docs[x + 1].length / 3), x, 0, Math.floor(docs[x].length / 3), 0.9));
    const again = fileCopies(docs, thirds);
    assert.ok(again.some((c) => c.searched), 'a copy searched again');
    assert.deepEqual(fileCopiesOfRows(docs, rowsOfPairs(thirds)), again);
  });
});
