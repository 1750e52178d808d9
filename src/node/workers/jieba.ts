/**
 * Chinese (CJK) word segmentation with @node-rs/jieba, loaded lazily and once per process, with a
 * character-bigram fallback when the native module cannot be loaded (never a crash).
 */
import * as fs from 'node:fs';
import type { CjkSegmenter } from '../../core/types';
import { bigramSegmenter, cutterSegmenter } from '../../core/text/segmenters';
import { requireJiebaPlatformBinding } from './jiebaPlatform';

export { bigramSegmenter };

export interface LoadedCjkSegmenter {
  segmenter: CjkSegmenter;
  name: 'jieba' | 'bigram';
}

/** The part of a Jieba instance we use. */
export interface JiebaLike {
  cut(sentence: string, hmm?: boolean): string[];
}

/** Creates a ready Jieba instance; throws when the native module is missing. */
export type JiebaLoader = () => JiebaLike;

type JiebaBinding = { Jieba: { withDict(dict: Uint8Array): JiebaLike } };

/**
 * Loads @node-rs/jieba with its default dictionary: through jieba's own index.js, else straight
 * from this platform's binary package (jiebaPlatform.ts); the first error is the one reported.
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
  const { Jieba } = binding;
  // The dictionary file itself: '@node-rs/jieba/dict' would also read idf.txt (6 MB, unused).
  const dict = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
  return Jieba.withDict(dict);
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
    result = { segmenter, name: 'jieba' };
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
