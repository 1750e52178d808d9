/**
 * The character dictionaries of opencc-js (OpenCC's data) from which the default variant fold
 * table is built: by scripts/variant-pairs.ts into variantPairs.ts (the table the fold uses), and
 * by the tests that hold the stored table equal to it. Not in the bundles: a thread takes the
 * stored table.
 */
import type { VariantLoader } from './variants';

/**
 * Chinese variant characters that OpenCC's Chinese character tables leave alone, with their
 * standard form (from the PRC's 第一批异体字整理表, 1955): `key value|…` as OpenCC writes them.
 * OpenCC has 勅 → 敕 only in its Japanese Shinjitai table, which cannot be used for Chinese as a
 * whole (it also maps 欠 → 缺, 予 → 豫, 缶 → 罐).
 */
const EXTRA_VARIANTS = '勅 敕|勑 敕';

/**
 * The character dictionaries of opencc-js: Traditional → Simplified, after compatibility
 * ideographs, Hong Kong and Taiwan variants (each to OpenCC's standard Traditional form) and
 * {@link EXTRA_VARIANTS}. Each require() names one small module (not opencc-js's 1 MB of phrases).
 */
export const defaultVariantLoader: VariantLoader = () => {
  const pick = (m: { default?: unknown }, name: string): string => {
    if (typeof m.default !== 'string') throw new Error(`opencc-js/dict/${name} is not a dictionary`);
    return m.default;
  };
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    traditionalToSimplified: pick(require('opencc-js/dict/TSCharacters'), 'TSCharacters'),
    variants: [
      pick(require('opencc-js/dict/CJK_Compatibility_Ideographs'), 'CJK_Compatibility_Ideographs'),
      pick(require('opencc-js/dict/HKVariantsRev'), 'HKVariantsRev'),
      pick(require('opencc-js/dict/TWVariantsRev'), 'TWVariantsRev'),
      EXTRA_VARIANTS,
    ],
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
};

