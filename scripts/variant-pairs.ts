// Writes src/node/cjk/variantPairs.ts: the default variant fold table (src/node/cjk/variants.ts,
// built from opencc-js's character dictionaries) as its pairs, so that a thread takes the table
// without building it (~10–30 ms). Run it (npx tsx scripts/variant-pairs.ts) after opencc-js or
// the fold's rules change; the unit test (test/unit/node/cjk/variantPairs.test.ts) says when.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildVariantTable } from '../src/core/text/variantFold';
import { defaultVariantLoader } from '../src/node/cjk/variantDictionaries';
import { pairsOfTable } from '../src/node/cjk/variantPairs';

const file = path.join(__dirname, '..', 'src', 'node', 'cjk', 'variantPairs.ts');
const text = fs.readFileSync(file, 'utf8');
const pairs = pairsOfTable(buildVariantTable(defaultVariantLoader()));
const updated = text.replace(/export const VARIANT_PAIRS =\n  '[^']*';/, `export const VARIANT_PAIRS =\n  '${pairs}';`);
if (updated === text) console.log(`variant-pairs: ${path.relative(process.cwd(), file)} already holds the table's ${pairs.length / 2} pairs`);
else {
  fs.writeFileSync(file, updated);
  console.log(`variant-pairs: wrote the table's ${pairs.length / 2} pairs into ${path.relative(process.cwd(), file)}`);
}
