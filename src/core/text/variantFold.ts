/**
 * Folding of Chinese Traditional and variant characters to one (Simplified) form, for the
 * fingerprint only: 臺灣 and 台湾, 鑑 and 鑒, 迴 and 回 are the same text to a reader.
 *
 * The fold works code unit by code unit (one UTF-16 unit in, one out), so a folded text has the
 * length, offsets and line breaks of the original and every range found in it is a range of the
 * original. It only ever maps a Han ideograph to another Han ideograph of the Basic Multilingual
 * Plane: ASCII, punctuation, kana, Hangul and line structure are never touched.
 *
 * The table is data (built here from dictionaries in OpenCC's text form, which the Node layer
 * loads from opencc-js: src/node/cjk/variants.ts); this module loads nothing.
 */

/**
 * Per UTF-16 code unit, its folded form, or 0 where it stays as it is. Only Han code units
 * (see {@link isFoldableHan}) have entries.
 */
export type VariantTable = Uint16Array;

/** Code units that may be folded: CJK ideographs, extension A and compatibility ideographs. */
export function isFoldableHan(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);
}

/** The lowest code unit that can have an entry: below it, nothing is looked up. */
const FIRST_HAN = 0x3400;

/** Whether a text holds a code unit that may be folded (a Han ideograph). */
export function hasFoldableHan(text: string): boolean {
  return firstFoldableHan(text) >= 0;
}

/** Offset of the first Han ideograph of a text, or −1. */
export function firstFoldableHan(text: string): number {
  return text.search(HAN_RE);
}

const HAN_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/** Code units converted per String.fromCharCode call (an argument list, so bounded). */
const CHUNK = 8192;
const scratch = new Uint16Array(CHUNK);

/**
 * The text with every code unit replaced by its table entry (where it has one). Returns the
 * text itself when nothing changes. `from`: no code unit before it has an entry (a caller that
 * already searched for the first Han character passes its offset).
 */
export function foldVariants(text: string, table: VariantTable, from = 0): string {
  const n = text.length;
  let i = from;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= FIRST_HAN && table[c] !== 0) break;
  }
  if (i >= n) return text;
  // Unchanged prefix as a slice; the rest converted in chunks of code units.
  let result = text.slice(0, i);
  const buf = scratch;
  while (i < n) {
    const end = Math.min(n, i + CHUNK);
    let k = 0;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      const f = c >= FIRST_HAN ? table[c] : 0;
      buf[k++] = f !== 0 ? f : c;
    }
    result += String.fromCharCode.apply(null, buf.subarray(0, k) as unknown as number[]);
  }
  return result;
}

/**
 * OpenCC's dictionaries in the text form opencc-js ships: `key value|key value|…` (one entry per
 * `|`, the key first, then one or more candidates separated by spaces; the first is used).
 */
export interface VariantDictionaries {
  /** Traditional → Simplified characters (OpenCC `TSCharacters`). */
  traditionalToSimplified: string;
  /**
   * Variant → standard Traditional characters, applied before `traditionalToSimplified`: e.g.
   * OpenCC `HKVariantsRev`, `TWVariantsRev` and `CJK_Compatibility_Ideographs`. Earlier
   * dictionaries win when two have the same key.
   */
  variants: string[];
}

const SPACE = 0x20;

/**
 * The single-unit Han → Han entries of a dictionary into `into` (by code unit; 0: none), the first
 * entry of a key kept (others cannot keep lengths: skipped), each new key pushed on `keys`. Read in
 * place, no string per entry.
 */
function parseDictionary(dict: string, into: Uint16Array, keys: number[]): void {
  const n = dict.length;
  for (let at = 0; at < n; ) {
    let end = dict.indexOf('|', at);
    if (end < 0) end = n;
    // `key value …`: a key of one UTF-16 unit (the entry's first space right after it), then a
    // first candidate of one unit (up to the next space or the entry's end)
    if (end - at >= 3 && dict.charCodeAt(at) !== SPACE && dict.charCodeAt(at + 1) === SPACE && (at + 3 === end || dict.charCodeAt(at + 3) === SPACE)) {
      const key = dict.charCodeAt(at);
      const v = dict.charCodeAt(at + 2);
      if (v !== SPACE && isFoldableHan(key) && isFoldableHan(v) && into[key] === 0) {
        into[key] = v;
        keys.push(key);
      }
    }
    at = end + 1;
  }
}

/**
 * Builds the fold table: each character goes through the variant dictionaries, then through
 * Traditional → Simplified, repeated until nothing changes (so folding twice is folding once).
 *
 * A Simplified character, i.e. a target of `traditionalToSimplified` that is not itself one of
 * its keys (台, 吃, 才, 么, 峰 …), always stays as it is: a variant dictionary that maps it to a
 * Traditional form (台 → 臺 in Hong Kong, 么 → 幺 in Taiwan) is not applied to it, so a
 * Simplified text comes out unchanged. (Tables by code unit, not maps: a few ms, made on a
 * scan's main thread when a batch first leaves a code file for its Han text.)
 */
export function buildVariantTable(dicts: VariantDictionaries): VariantTable {
  // (by code unit, over the keys alone: a loop over every unit costs ~10 ms before it is optimised)
  const toSimplified = new Uint16Array(65536);
  const keys: number[] = [];
  parseDictionary(dicts.traditionalToSimplified, toSimplified, keys);
  const target = new Uint8Array(65536);
  for (const c of keys) target[toSimplified[c]] = 1;
  const variants = new Uint16Array(65536);
  for (const d of dicts.variants) parseDictionary(d, variants, keys);

  const step = (c: number): number => {
    if (target[c] === 1 && toSimplified[c] === 0) return c; // Simplified
    const v = variants[c] || c;
    return toSimplified[v] || v;
  };
  const table = new Uint16Array(65536);
  for (const c of keys) {
    let f = c;
    let settled = false;
    for (let round = 0; round < 8; round++) {
      const g = step(f);
      if (g === f) {
        settled = true;
        break;
      }
      f = g;
    }
    if (settled && f !== c) table[c] = f;
  }
  return table;
}

/** Number of code units a table folds (for logs and tests). */
export function variantTableSize(table: VariantTable): number {
  let n = 0;
  for (let c = FIRST_HAN; c < table.length; c++) if (table[c] !== 0) n++;
  return n;
}
