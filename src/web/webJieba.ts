/**
 * jieba in the browser: jieba-wasm's web build (its dictionary inside the module), instantiated
 * from the bytes the host hands over (no fetch) on the first Chinese text met (~0.6 s), cutting
 * with HMM off as @node-rs/jieba does in Node — the same words on the texts checked. Falls back to
 * character bigrams, saying why once, when it cannot start.
 */
import { initSync, cut } from 'jieba-wasm/web';
import { bigramSegmenter, cutterSegmenter } from '../core/text/segmenters';
import type { CjkSegmenter } from '../core/types';

/** jieba's segmenter over the module's bytes (started lazily), or bigrams without bytes. */
export function webJiebaSegmenter(bytes: ArrayBuffer | undefined, log: (msg: string) => void): CjkSegmenter {
  if (!bytes) return bigramSegmenter;
  let segmenter: CjkSegmenter | undefined;
  return (run: string) => {
    if (!segmenter) {
      try {
        initSync({ module: bytes });
        segmenter = cutterSegmenter((text) => cut(text, false));
      } catch (e) {
        const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
        log(`NearDup: Chinese word segmentation (jieba-wasm) could not start (${why}); falling back to character bigrams.`);
        segmenter = bigramSegmenter;
      }
    }
    return segmenter(run);
  };
}
