/**
 * CJK segmenters around a word cutter: a cutter's words (blank ones dropped; character bigrams
 * when it throws), and the character-bigram fallback. Pure: the cutter itself (jieba) is loaded by
 * the host — @node-rs/jieba in Node (src/node/cjk/jieba.ts), jieba-wasm in the browser (src/web).
 */
import type { CjkSegmenter } from '../types';

/** The part of a jieba instance (either build) that NearDup uses: a cut with HMM off. */
export type WordCutter = (run: string) => string[];

/** The segmenter of a word cutter: its words without blank ones; bigrams when it fails on a run. */
export function cutterSegmenter(cut: WordCutter): CjkSegmenter {
  return (run: string) => {
    if (run.length === 0) return [];
    let tokens: string[];
    try {
      tokens = cut(run);
    } catch {
      return bigramSegmenter(run);
    }
    return tokens.filter((t) => t.trim() !== '');
  };
}

/**
 * Overlapping character bigrams of a run, by code point: "abcd" → ["ab", "bc", "cd"];
 * a single character → [that character]; "" → []. Whitespace splits the run into parts that are
 * segmented separately (no bigram spans a space).
 */
export function bigramSegmenter(run: string): string[] {
  const out: string[] = [];
  for (const part of run.split(/\s+/)) {
    if (part === '') continue;
    const chars = Array.from(part);
    if (chars.length === 1) out.push(chars[0]);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
  return out;
}
