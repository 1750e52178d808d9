/**
 * The prose tokeniser (tokenizeProse): lower-cased words, CJK runs cut by an injected segmenter
 * (or into character bigrams), stop words dropped when asked; the words found by a kernel's
 * proseTokens when one is given, the same tokens.
 */
import { FNV64_OFFSET_HI, FNV64_OFFSET_LO, FNV64_PRIME_LO, fnv1a64, fnvHi, out } from '../hash';
import type { CjkSegmenter, CodeKernel } from '../../types';
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from '../stopWords';
import { HashSet64 } from './hashSet64';
import type { TokenBuffer } from './tokenBuffer';
import { isCjk, isUnicodeWordChar } from './wordChars';

const STOP_WORDS = new HashSet64([...ENGLISH_STOP_WORDS, ...CHINESE_STOP_WORDS]);

export interface ProseTokenizeOptions {
  stopWords?: boolean;
  segmenter?: CjkSegmenter;
  /** A kernel that finds the words (CodeKernel.proseTokens): the same tokens. */
  kernel?: Pick<CodeKernel, 'proseTokens'>;
}

/**
 * Prose tokens: lower-cased words (letters, digits, inner apostrophes); CJK runs go through the
 * segmenter (one token per word). Punctuation and Markdown syntax are dropped; stop words too
 * when asked. Returns the number of CJK runs met (none: the segmenter made no token).
 */
export function tokenizeProse(text: string, options: ProseTokenizeOptions, buf: TokenBuffer): number {
  const kernel = options.kernel;
  if (kernel?.proseTokens && text.length <= KERNEL_PROSE_UNITS) return proseTokensByKernel(kernel as Required<typeof kernel>, text, options.stopWords === true, options.segmenter, buf);
  return proseTokens(text, text.length, options.stopWords === true, options.segmenter, buf);
}

/**
 * Longest text whose words a kernel finds: its entries (20 bytes a word) and its copy of the text
 * stay small; a bigger text (rare for prose) is read here, with no more memory than the tokens'.
 */
const KERNEL_PROSE_UNITS = 1 << 21;
/** Words of an entry of CodeKernel.proseTokens (kind start end hi lo), and its kinds. */
const PROSE_ENTRY = 5;
const PROSE_OTHER_WORD = 1;
const PROSE_CJK_RUN = 2;
/** Scratch of proseTokensByKernel: the kernel's entries (grown on demand, let go past PROSE_ENTRIES_KEEP). */
const PROSE_ENTRIES_KEEP = PROSE_ENTRY * 4096;
let proseEntries = new Uint32Array(PROSE_ENTRIES_KEEP);

/**
 * proseTokens through a kernel: it finds the words and CJK runs and hashes the words whose lower
 * case it knows to be JavaScript's (ASCII, Latin, Cyrillic's first block: native/tokenize.c
 * proseLower); a word with other letters is hashed here (JavaScript's lower case), a CJK run cut
 * here, stop words dropped here.
 */
function proseTokensByKernel(kernel: Required<Pick<CodeKernel, 'proseTokens'>>, text: string, stop: boolean, segmenter: CjkSegmenter | undefined, buf: TokenBuffer): number {
  let n = kernel.proseTokens(text, proseEntries);
  if (n < 0) {
    proseEntries = new Uint32Array(-n * PROSE_ENTRY);
    n = kernel.proseTokens(text, proseEntries);
  }
  const e = proseEntries;
  let runs = 0;
  for (let w = 0; w < n * PROSE_ENTRY; w += PROSE_ENTRY) {
    const kind = e[w];
    const start = e[w + 1];
    let hi: number;
    let lo: number;
    if (kind === PROSE_CJK_RUN) {
      pushCjkRun(text.slice(start, e[w + 2]), start, segmenter, stop, buf);
      runs++;
      continue;
    }
    if (kind === PROSE_OTHER_WORD) {
      fnv1a64(text.slice(start, e[w + 2]).toLowerCase().replace(/\u2019/g, "'"));
      hi = out.hi;
      lo = out.lo;
    } else {
      hi = e[w + 3];
      lo = e[w + 4];
    }
    if (stop && STOP_WORDS.has(hi, lo)) continue;
    buf.push(hi, lo, start);
  }
  if (proseEntries.length > PROSE_ENTRIES_KEEP) proseEntries = new Uint32Array(PROSE_ENTRIES_KEEP); // a long text's entries are not kept
  return runs;
}

/**
 * tokenizeProse's loop over text[0, n), in a function of its own that reads nothing before it:
 * when V8 first optimises it in the middle of a long text (its type feedback allocated there),
 * the options' reads and the length are not left without feedback (a deoptimisation and a
 * recompile on the next text).
 */
function proseTokens(text: string, n: number, stop: boolean, segmenter: CjkSegmenter | undefined, buf: TokenBuffer): number {
  let runs = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) {
        i++;
        continue;
      }
    } else if (isCjk(c)) {
      const start = i;
      do i++;
      while (i < n && isCjk(text.charCodeAt(i)));
      pushCjkRun(text.slice(start, i), start, segmenter, stop, buf);
      runs++;
      continue;
    } else if (!isUnicodeWordChar(c)) {
      i++;
      continue;
    }
    // A word: ASCII letters are lower-cased on the fly; other letters through toLowerCase.
    const start = i;
    let hi = FNV64_OFFSET_HI | 0;
    let lo = FNV64_OFFSET_LO | 0;
    let ascii = true;
    while (i < n) {
      let d = text.charCodeAt(i);
      if (d < 128) {
        if (d >= 65 && d <= 90) d |= 32;
        else if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57))) {
          // Inner apostrophe (don't, it's) stays in the word.
          if (d === 39 && i + 1 < n && isAsciiLetter(text.charCodeAt(i + 1)) && i > start) {
            // fall through and hash it
          } else break;
        }
      } else if (d === 0x2019 && i + 1 < n && isAsciiLetter(text.charCodeAt(i + 1))) {
        d = 39;
      } else if (isCjk(d) || !isUnicodeWordChar(d)) {
        break;
      } else {
        ascii = false;
      }
      const x = lo ^ d;
      hi = fnvHi(hi, x);
      lo = Math.imul(x, FNV64_PRIME_LO);
      i++;
    }
    if (!ascii) {
      fnv1a64(text.slice(start, i).toLowerCase().replace(/\u2019/g, "'"));
      hi = out.hi;
      lo = out.lo;
    }
    if (stop && STOP_WORDS.has(hi >>> 0, lo >>> 0)) continue;
    buf.push(hi, lo, start);
  }
  return runs;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function pushCjkRun(run: string, start: number, segmenter: CjkSegmenter | undefined, stop: boolean, buf: TokenBuffer): void {
  const words = segmenter ? segmenter(run) : bigrams(run);
  let offset = start;
  for (const w of words) {
    if (w.length === 0) continue;
    fnv1a64(w);
    const at = run.indexOf(w, offset - start);
    const pos = at >= 0 ? start + at : offset;
    offset = at >= 0 ? pos + (segmenter ? w.length : 1) : offset;
    if (stop && STOP_WORDS.has(out.hi, out.lo)) continue;
    buf.push(out.hi, out.lo, pos);
  }
}

/** Character bigrams of a CJK run: the segmenter-free fallback ("abcd" → ab, bc, cd). */
export function bigrams(run: string): string[] {
  if (run.length <= 1) return run.length === 1 ? [run] : [];
  const result: string[] = new Array(run.length - 1);
  for (let i = 0; i + 1 < run.length; i++) result[i] = run.slice(i, i + 2);
  return result;
}
