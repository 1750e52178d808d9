/**
 * Chinese (CJK) word segmentation with @node-rs/jieba, loaded lazily and once per process, with a
 * character-bigram fallback when the native module cannot be loaded (never a crash). A little
 * Chinese is cut with a subset of the dictionary (the words met, jiebaDictionary.ts): the same cuts
 * as the whole dictionary without its load; past a budget of characters the whole one is loaded.
 */
import * as fs from 'node:fs';
import type { CjkSegmenter } from '../../core/types';
import { bigramSegmenter, cutterSegmenter } from '../../core/text/segmenters';
import { requireJiebaPlatformBinding } from './jiebaPlatform';
import { FILLER_WORD, dictionaryText, freqSum, readJiebaDictionary, wordsOfRun } from './jiebaDictionary';

export { bigramSegmenter };

export interface LoadedCjkSegmenter {
  segmenter: CjkSegmenter;
  name: 'jieba' | 'bigram';
  /** Which dictionary jieba cuts with so far (a subset-first jieba only). */
  dictionary?: () => JiebaDictionaryInUse;
  /** Loads the whole dictionary now, past the subset (a subset-first jieba only; once). */
  loadWhole?: () => void;
}

/** `subset`: every run so far cut with the subset of the dictionary; `full`: the whole one is loaded. */
export type JiebaDictionaryInUse = 'subset' | 'full';

/** The part of a Jieba instance we use. */
export interface JiebaLike {
  cut(sentence: string, hmm?: boolean): string[];
}

/** A Jieba instance that can also take more dictionary lines (a word met again takes the new frequency). */
export interface GrowingJieba extends JiebaLike {
  loadDict(dict: Uint8Array): void;
}

/** Creates a ready Jieba instance; throws when the native module is missing. */
export type JiebaLoader = () => JiebaLike;

/** The class of @node-rs/jieba that we use. */
export interface JiebaClass {
  withDict(dict: Uint8Array): GrowingJieba;
}

type JiebaBinding = { Jieba: JiebaClass };

/** A jieba that cuts with a subset of the dictionary until its budget is spent, then with the whole one. */
export interface SubsetFirstJieba extends JiebaLike {
  readonly dictionary: JiebaDictionaryInUse;
  /** Runs cut with the subset dictionary; dictionary words it holds. */
  readonly subsetRuns: number;
  readonly subsetWords: number;
  /** Loads the whole dictionary now (e.g. for much Chinese to come); a failed load keeps the subset. */
  loadWhole(): void;
}

/**
 * Characters of Chinese cut with the subset dictionary before the whole dictionary is loaded.
 * Measured cold in one thread (bench/README.md, issue 16; CPU, medians): the subset costs ≈ 7 ms
 * to start (the file read, its CRC-32), then ≈ 22 ms for the first 1,000 characters, 49 ms for
 * 5,000, 75 ms for 10,000; the whole load ≈ 115 ms (80–200). At 5,000 a tree with a little
 * Chinese saves most of the load, and one with much pays less than half of it more.
 */
export const SUBSET_BUDGET_CHARS = 5_000;

/**
 * A jieba over the dictionary file `bytes` that loads it whole only once `budgetChars` characters
 * have been cut (or a run holds the filler word). Before, it holds a subset: the words met in the
 * runs so far, each with its frequency, and a filler word (never in a run) whose frequency makes
 * up the rest of the whole dictionary's total. A jieba cut with HMM off depends only on the words
 * that are substrings of the run, their frequencies and the total, so the subset cuts every run as
 * the whole dictionary does. A dictionary whose shape the subset does not rely on
 * (readJiebaDictionary) is loaded whole at once; a failed late load keeps the subset (same words).
 */
export function subsetFirstJieba(Jieba: JiebaClass, bytes: Uint8Array, budgetChars = SUBSET_BUDGET_CHARS): SubsetFirstJieba {
  let dict = readJiebaDictionary(bytes);
  let full: JiebaLike | undefined;
  let subset: GrowingJieba | undefined;
  if (dict) subset = Jieba.withDict(dictionaryText(dict, [], dict.total));
  else full = Jieba.withDict(bytes);
  const held = new Set<number>();
  const runsSeen = new Set<string>();
  let heldFreq = 0;
  let lateLoadFailed = false;
  let spent = 0;
  let subsetRuns = 0;
  const loadFull = (): JiebaLike | undefined => {
    if (!full && !lateLoadFailed && dict) {
      try {
        full = Jieba.withDict(dict.bytes);
        // The file and the subset are not needed any more.
        dict = undefined;
        subset = undefined;
        runsSeen.clear();
      } catch {
        lateLoadFailed = true;
      }
    }
    return full;
  };
  return {
    get dictionary() {
      return full ? 'full' : 'subset';
    },
    get subsetRuns() {
      return subsetRuns;
    },
    get subsetWords() {
      return held.size;
    },
    loadWhole(): void {
      loadFull();
    },
    cut(run: string, hmm = false): string[] {
      let whole = full;
      if (whole) return whole.cut(run, hmm);
      const part = subset;
      const words = dict;
      if (!words || !part) throw new Error('jieba: no dictionary');
      spent += run.length;
      if ((spent > budgetChars || run.includes(FILLER_WORD)) && (whole = loadFull())) return whole.cut(run, hmm);
      if (run.includes(FILLER_WORD)) throw new Error('jieba: the whole dictionary could not be loaded');
      // A run met before has its words held already.
      if (!runsSeen.has(run)) {
        const fresh: number[] = [];
        for (const line of wordsOfRun(words, run)) if (!held.has(line)) fresh.push(line);
        if (fresh.length > 0) {
          const sum = freqSum(words, fresh);
          // The filler comes again with the new rest of the total (jieba keeps a word's last frequency).
          part.loadDict(dictionaryText(words, fresh, words.total - heldFreq - sum));
          heldFreq += sum;
          for (const line of fresh) held.add(line);
        }
        runsSeen.add(run);
      }
      subsetRuns++;
      return part.cut(run, hmm);
    },
  };
}

/** The default dictionary's bytes when they were read ahead (jiebaPrefetch.ts), for the loader's one read. */
let givenDictionary: Uint8Array | undefined;

/** Gives the default loader's next load the dictionary file's bytes, read already (by libuv's pool: jiebaPrefetch.ts). */
export function useJiebaDictionary(bytes: Uint8Array): void {
  givenDictionary = bytes;
}

/**
 * Loads @node-rs/jieba with its default dictionary (subset first): through jieba's own index.js,
 * else straight from this platform's binary package (jiebaPlatform.ts); the first error is the
 * one reported.
 */
export const defaultJiebaLoader: JiebaLoader = () => {
  let binding: JiebaBinding;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    binding = require('@node-rs/jieba') as JiebaBinding;
  } catch (e) {
    try {
      binding = requireJiebaPlatformBinding<JiebaBinding>();
    } catch {
      throw e;
    }
  }
  // The dictionary file itself: '@node-rs/jieba/dict' would also read idf.txt (6 MB, unused).
  const dict = givenDictionary ?? fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
  givenDictionary = undefined;
  return subsetFirstJieba(binding.Jieba, dict);
};

/** One result per loader per process: the default loader runs (and logs a failure) once. */
const cache = new WeakMap<JiebaLoader, LoadedCjkSegmenter>();

/**
 * Returns the jieba segmenter, or the bigram fallback (after logging once why) when jieba cannot
 * be loaded. `loader` exists for tests; results are cached per loader.
 */
export function loadCjkSegmenter(log?: (msg: string) => void, loader: JiebaLoader = defaultJiebaLoader): LoadedCjkSegmenter {
  const hit = cache.get(loader);
  if (hit) return hit;
  let result: LoadedCjkSegmenter;
  try {
    const jb = loader();
    const segmenter = cutterSegmenter((run) => jb.cut(run, false));
    const subsetFirst = 'dictionary' in jb ? (jb as SubsetFirstJieba) : undefined;
    result = {
      segmenter,
      name: 'jieba',
      dictionary: subsetFirst && (() => subsetFirst.dictionary),
      loadWhole: subsetFirst && (() => subsetFirst.loadWhole()),
    };
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    log?.(
      `NearDup: Chinese word segmentation (@node-rs/jieba) could not be loaded (${why}); ` +
        'falling back to character bigrams. Results for Chinese text may be less precise.',
    );
    result = { segmenter: bigramSegmenter, name: 'bigram' };
  }
  cache.set(loader, result);
  return result;
}
