// The default variant fold table stored as pairs (src/node/cjk/variantPairs.ts) must be the table
// built from this checkout's opencc-js (variantDictionaries.ts defaultVariantLoader through
// buildVariantTable): else run `npx tsx scripts/variant-pairs.ts`. variantTable() gives it.
import { strict as assert } from 'node:assert';
import { buildVariantTable } from '../../../../src/core/text/variantFold';
import { pairsOfTable, tableOfPairs, VARIANT_PAIRS } from '../../../../src/node/cjk/variantPairs';
import { defaultVariantLoader } from '../../../../src/node/cjk/variantDictionaries';
import { variantTable } from '../../../../src/node/cjk/variants';

describe('variantPairs: the default fold table stored', () => {
  it('is the table built from opencc-js (else: npx tsx scripts/variant-pairs.ts)', () => {
    const built = buildVariantTable(defaultVariantLoader());
    const stored = tableOfPairs(VARIANT_PAIRS);
    const differ: string[] = [];
    for (let c = 0; c < 65536; c++) if (built[c] !== stored[c]) differ.push(`U+${c.toString(16)}: ${stored[c].toString(16)} stored, ${built[c].toString(16)} built`);
    assert.deepEqual(differ.slice(0, 10), [], `${differ.length} entries differ: run npx tsx scripts/variant-pairs.ts`);
    assert.ok(VARIANT_PAIRS.length / 2 > 3000, `${VARIANT_PAIRS.length / 2} pairs`);
    assert.equal(pairsOfTable(built), VARIANT_PAIRS);
  });

  it('is what variantTable() gives (its folds: 說 → 说, 乾 of U+F900 → 乾)', () => {
    const table = variantTable();
    assert.deepEqual(table, tableOfPairs(VARIANT_PAIRS));
    assert.equal(String.fromCharCode(table['說'.charCodeAt(0)]), '说');
    assert.equal(table['说'.charCodeAt(0)], 0, 'a Simplified character stays');
  });
});
