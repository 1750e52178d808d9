import { strict as assert } from 'node:assert';
import {
  buildVariantTable,
  firstFoldableHan,
  foldVariants,
  hasFoldableHan,
  isFoldableHan,
  variantTableSize,
} from '../../../../src/core/text/variantFold';

// A small dictionary in OpenCC's text form: Traditional → Simplified, and variants → Traditional.
const TS = '臺 台|灣 湾|鑑 鉴|鑒 鉴|迴 回|裡 里|裏 里|爲 为|為 为|麼 么|喫 吃|纔 才|峯 峰|鮟 𩽾|a b|說 说 説';
const HK = '台 臺|吃 喫|為 爲';
const TW = '么 幺|才 纔|著 着|峰 峯|裡 裏';
const table = buildVariantTable({ traditionalToSimplified: TS, variants: [HK, TW] });

describe('variantFold', () => {
  it('folds Traditional and variant characters to Simplified through the dictionaries', () => {
    assert.equal(foldVariants('臺灣', table), '台湾');
    assert.equal(foldVariants('鑑鑒', table), '鉴鉴');
    assert.equal(foldVariants('迴裡裏爲為著說', table), '回里里为为着说');
  });

  it('leaves Simplified characters alone, even where a variant dictionary has them (台 → 臺, 么 → 幺)', () => {
    const simplified = '台湾吃才么峰着为回里';
    assert.equal(foldVariants(simplified, table), simplified);
  });

  it('is idempotent: every folded character is a fixed point', () => {
    for (let c = 0; c < 65536; c++) {
      const f = table[c];
      if (f === 0) continue;
      assert.equal(table[f], 0, `${String.fromCharCode(c)} → ${String.fromCharCode(f)} folds again`);
      assert.ok(isFoldableHan(c) && isFoldableHan(f));
    }
    const s = '臺灣的迴響裡著';
    assert.equal(foldVariants(foldVariants(s, table), table), foldVariants(s, table));
  });

  it('keeps lengths: entries that would change them (astral targets, non-Han keys) are skipped', () => {
    assert.equal(table['鮟'.charCodeAt(0)], 0);
    assert.equal(table['a'.charCodeAt(0)], 0);
    assert.equal(variantTableSize(table), 15); // the 14 one-unit Han keys of TS, and 著
  });

  it('is the identity on ASCII, kana, Hangul and lone surrogates, and returns the same string when nothing changes', () => {
    for (const s of ['', 'const x = "a";\n', 'ひらがなとカタカナ', '한국어', 'a\ud800b\udc00c', '台湾']) {
      assert.equal(foldVariants(s, table), s);
    }
    const mixed = 'x = "臺灣";\r\n// 迴\n\ud800臺';
    const folded = foldVariants(mixed, table);
    assert.equal(folded, 'x = "台湾";\r\n// 回\n\ud800台');
    assert.equal(folded.length, mixed.length);
  });

  it('folds texts longer than one conversion chunk, with the first Han character anywhere', () => {
    const long = 'a'.repeat(10000) + '臺'.repeat(20000) + '\n' + 'b'.repeat(5);
    const folded = foldVariants(long, table);
    assert.equal(folded, 'a'.repeat(10000) + '台'.repeat(20000) + '\nbbbbb');
    assert.equal(foldVariants(long, table, firstFoldableHan(long)), folded);
  });

  it('finds the first Han character', () => {
    assert.equal(firstFoldableHan('abc'), -1);
    assert.equal(firstFoldableHan('ab臺'), 2);
    assert.equal(firstFoldableHan('かな'), -1);
    assert.ok(hasFoldableHan('\uf900'));
    assert.ok(!hasFoldableHan('한국어 ひらがな'));
  });
});
