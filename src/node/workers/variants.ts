/**
 * Folding of Chinese Traditional and variant characters for fingerprints, with the character
 * dictionaries of opencc-js (OpenCC's data): built once per thread, on the first text that holds
 * a Han character, and never for a text without one. Only single characters are mapped (never
 * OpenCC's phrases), so a folded text keeps every offset; see src/core/text/variantFold.ts.
 */
import type { TextFold } from '../../core/types';
import { buildVariantTable, firstFoldableHan, foldVariants, type VariantDictionaries, type VariantTable } from '../../core/text/variantFold';

/**
 * Chinese variant characters that OpenCC's Chinese character tables leave alone, with their
 * standard form (from the PRC's 第一批异体字整理表, 1955): `key value|…` as OpenCC writes them.
 * OpenCC has 勅 → 敕 only in its Japanese Shinjitai table, which cannot be used for Chinese as a
 * whole (it also maps 欠 → 缺, 予 → 豫, 缶 → 罐).
 */
const EXTRA_VARIANTS = '勅 敕|勑 敕';

/** Loads the dictionaries; throws when opencc-js is missing. */
export type VariantLoader = () => VariantDictionaries;

/**
 * The character dictionaries of opencc-js: Traditional → Simplified, after compatibility
 * ideographs, Hong Kong and Taiwan variants (each to OpenCC's standard Traditional form) and
 * {@link EXTRA_VARIANTS}. Each require() names its module literally, so that esbuild bundles
 * these few small modules (not opencc-js's 1 MB of phrases) into the workers.
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

/** One table per loader per thread. */
const tables = new WeakMap<VariantLoader, VariantTable>();

/**
 * This thread's fold table (built on first use). When the dictionaries cannot be loaded, the
 * reason is logged once and the table folds nothing: fingerprints as with folding off.
 */
export function variantTable(log?: (msg: string) => void, loader: VariantLoader = defaultVariantLoader): VariantTable {
  let table = tables.get(loader);
  if (!table) {
    try {
      table = buildVariantTable(loader());
    } catch (e) {
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      log?.(`NearDup: the Chinese variant tables (opencc-js) could not be loaded (${why}); Traditional and variant characters are not folded.`);
      table = new Uint16Array(65536);
    }
    tables.set(loader, table);
  }
  return table;
}

/**
 * A fold for FingerprintOptions.fold: the text with Traditional and variant Han characters
 * replaced by their Simplified form, code unit for code unit; the text itself when it has no Han
 * character (no table is built for it).
 */
export function variantFold(log?: (msg: string) => void, loader: VariantLoader = defaultVariantLoader): TextFold {
  return (text: string) => {
    const first = firstFoldableHan(text);
    if (first < 0) return text;
    return foldVariants(text, variantTable(log, loader), first);
  };
}
