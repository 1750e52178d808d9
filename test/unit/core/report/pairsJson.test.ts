/**
 * The report's pairs as text (core/report/pairsJson.ts): packed and unpacked to the same objects
 * (keys in the same order), and one text whose item slices are the text the report gives each.
 */
import { strict as assert } from 'node:assert';
import { escapeJsonControls } from '../../../../src/core/report/jsonEscape';
import { listItemsText, packReportPairs, pairsBytes, pairsText, shownPair, unpackReportPairs } from '../../../../src/core/report/pairsJson';
import type { ReportPair } from '../../../../src/core/report/report';
import { scanLikePairs } from '../../helpers/reportPairs';

/** Item i of a PairsText. */
const item = (t: { text: string; ends: Int32Array }, i: number) => t.text.slice(i === 0 ? 0 : t.ends[i - 1] + 1, t.ends[i]);

describe('pairsJson: the report pairs packed and as text', () => {
  it('unpacks to the pairs packed, keys in the same order (the same JSON), paths once each', () => {
    const pairs = scanLikePairs(101);
    const packed = packReportPairs(pairs)!;
    assert.ok(packed);
    assert.equal(JSON.stringify(unpackReportPairs(packed)), JSON.stringify(pairs));
    assert.equal(new Set(packed.paths).size, packed.paths.length);
    assert.deepEqual(unpackReportPairs(packReportPairs([])!), []);
  });

  it('packs only pairs of the scan\'s own shape (no located pairs, regions, other keys or half lines)', () => {
    const [p] = scanLikePairs(2).slice(1);
    assert.ok(packReportPairs([p]));
    const regions = [{ a: { startLine: 1, endLine: 2 }, b: { startLine: 1, endLine: 2 }, clone: 'exact' as const, similarity: 1 }];
    for (const odd of [{ ...p, located: true as const }, { ...p, regions }, { ...p, note: 'x' }, { ...p, a: { path: 'x', startLine: 3 } }, { ...p, distance: 1.5 }, { ...p, clone: undefined }]) {
      assert.equal(packReportPairs([p, odd as ReportPair]), undefined, JSON.stringify(odd));
    }
  });

  for (const count of [1, 299, 300, 301, 907]) {
    it(`makes the text of ${count} pairs: item by item the report's own, joined the report's list`, () => {
      const pairs = scanLikePairs(count);
      const made = pairsText(pairs);
      assert.equal(made.ends.length, count);
      assert.equal(made.ends[count - 1], made.text.length);
      for (const i of [0, 1, 2, 3, 4, 298, 299, 300, 301, count - 1].filter((k) => k < count)) {
        assert.equal(item(made, i), escapeJsonControls(listItemsText('pairs', [shownPair(pairs[i])])), `pair ${i}`);
      }
      assert.equal(made.text, escapeJsonControls(listItemsText('pairs', pairs.map(shownPair))));
      if (count > 4) {
        assert.ok(!/[\u0085\u202e]/.test(made.text) && made.text.includes('\\u202eodd\\u0085'), 'controls escaped');
        assert.ok(made.text.includes('"cell": 2'), 'a notebook side shows its cell');
      }
    });
  }

  it('leaves a text without controls as JSON.stringify writes it', () => {
    const pairs = scanLikePairs(40).filter((_, i) => i % 4 !== 3);
    assert.equal(pairsText(pairs).text, listItemsText('pairs', pairs.map(shownPair)));
  });

  it('in UTF-8 (names in Chinese, escaped controls, ASCII alone): each item\'s bytes are its text', () => {
    const utf8 = new TextDecoder();
    for (const pairs of [scanLikePairs(650), scanLikePairs(650).filter((_, i) => i % 4 === 0)]) {
      const made = pairsText(pairs);
      const { bytes, ends } = pairsBytes(made);
      assert.equal(utf8.decode(bytes), made.text);
      assert.equal(ends[ends.length - 1], bytes.length);
      for (let i = 0; i < pairs.length; i++) assert.equal(utf8.decode(bytes.subarray(i === 0 ? 0 : ends[i - 1] + 1, ends[i])), item(made, i), `pair ${i}`);
    }
    assert.ok(/\u4e2d/.test(pairsText(scanLikePairs(3)).text), 'a name in Chinese among them');
  });
});
