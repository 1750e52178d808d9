'use strict';
// Ground-truth tokenisers for bench/quality. Deliberately independent of src/ (the product's
// own tokeniser is what is being measured, so the truth must not share its code).
//
// Both lexers return *pieces* that concatenate back to the exact input, each with a type, so the
// mutation generator (corpus.js) and the truth (truth.js) see the same tokens.
//
//  code (.js .cjs .mjs .ts .mts .cts .jsx .tsx):
//    ident  [A-Za-z_$][\w$]*           num   numeric literal (hex/oct/bin/decimal/exponent/bigint)
//    str    '…' "…" `…` as ONE token  punct every other non-space character, one char each
//    ws / comment (// … and /* … */)   -> not tokens
//  prose (.md .markdown .txt):
//    cjk    every Han / Hiragana / Katakana character is one token (segmentation-independent)
//    word   \p{L}[\p{L}\p{N}'’]* (not containing CJK), lower-cased
//    num    \p{N}+
//    ws / other (punctuation, Markdown markup) -> not tokens

const CODE_EXT = new Set(['.js', '.cjs', '.mjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']);
const PROSE_EXT = new Set(['.md', '.markdown', '.txt']);
const TOKENIZER_VERSION = 1;
const K = 3; // shingle size (tokens)

const CODE_RE = new RegExp(
  [
    '(\\s+)', // 1 ws
    '(\\/\\/[^\\n]*|\\/\\*[\\s\\S]*?(?:\\*\\/|$))', // 2 comment
    '("(?:\\\\[\\s\\S]|[^"\\\\\\n])*"?|\'(?:\\\\[\\s\\S]|[^\'\\\\\\n])*\'?|`(?:\\\\[\\s\\S]|[^`\\\\])*`?)', // 3 string
    '([A-Za-z_$][\\w$]*)', // 4 identifier / keyword
    '((?:0[xXoObB][\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)n?)', // 5 number
    '([\\s\\S])', // 6 punctuation / operator / anything else, one char
  ].join('|'),
  'y',
);
const CODE_TYPES = [null, 'ws', 'comment', 'str', 'ident', 'num', 'punct'];

// Python (mode 'py', used by bench/quality/locate.js only; modeOf never returns it, so the quality
// corpus and truth are unchanged): `#` comments; string literals (r/b/u/f prefixes, triple quotes)
// as ONE token; otherwise as for code.
const PY_RE = new RegExp(
  [
    '(\\s+)', // 1 ws
    '(#[^\\n]*)', // 2 comment
    '((?:[rRbBuUfF]{1,2}(?=[\'"]))?(?:"""[\\s\\S]*?(?:"""|$)|\'\'\'[\\s\\S]*?(?:\'\'\'|$)|"(?:\\\\[\\s\\S]|[^"\\\\\\n])*"?|\'(?:\\\\[\\s\\S]|[^\'\\\\\\n])*\'?))', // 3 string
    '([A-Za-z_]\\w*)', // 4 identifier / keyword
    '((?:0[xXoObB][\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d*)?(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)[jJ]?)', // 5 number
    '([\\s\\S])', // 6 punctuation / operator / anything else, one char
  ].join('|'),
  'y',
);

const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}';
const PROSE_RE = new RegExp(
  [
    '(\\s+)', // 1 ws
    `([${CJK}])`, // 2 one CJK character
    `((?:(?![${CJK}])\\p{L})(?:(?![${CJK}])[\\p{L}\\p{N}'’])*)`, // 3 word
    '(\\p{N}+)', // 4 number
    '([\\s\\S])', // 5 other
  ].join('|'),
  'uy',
);
const PROSE_TYPES = [null, 'ws', 'cjk', 'word', 'num', 'other'];

function extOf(p) {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const i = base.lastIndexOf('.');
  return i < 0 ? '' : base.slice(i).toLowerCase();
}

/** 'code' | 'prose' | null (not a benchmark file type; 'py' is chosen by locate.js itself). */
function modeOf(p) {
  const e = extOf(p);
  if (CODE_EXT.has(e)) return 'code';
  if (PROSE_EXT.has(e)) return 'prose';
  return null;
}

function lex(text, mode) {
  const re = mode === 'code' ? CODE_RE : mode === 'py' ? PY_RE : PROSE_RE;
  const types = mode === 'prose' ? PROSE_TYPES : CODE_TYPES;
  const out = [];
  re.lastIndex = 0;
  let m;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    let t = 1;
    while (m[t] === undefined) t++;
    out.push({ t: types[t], s: m[0] });
  }
  return out;
}

const CODE_TOKEN = new Set(['str', 'ident', 'num', 'punct']);
const PROSE_TOKEN = new Set(['cjk', 'word', 'num']);

function isToken(piece, mode) {
  return (mode === 'prose' ? PROSE_TOKEN : CODE_TOKEN).has(piece.t);
}

/** Token strings as used by the truth (prose words lower-cased). */
function tokens(text, mode) {
  const out = [];
  for (const p of lex(text, mode)) {
    if (!isToken(p, mode)) continue;
    out.push(mode === 'prose' && p.t === 'word' ? p.s.toLowerCase() : p.s);
  }
  return out;
}

/** Exact set of token K-shingles (strings joined by U+0001; no hashing, no collisions). */
function shingleSet(toks, k = K) {
  const set = new Set();
  if (toks.length === 0) return set;
  if (toks.length < k) {
    set.add(toks.join('\u0001'));
    return set;
  }
  for (let i = 0; i + k <= toks.length; i++) {
    set.add(k === 3 ? toks[i] + '\u0001' + toks[i + 1] + '\u0001' + toks[i + 2] : toks.slice(i, i + k).join('\u0001'));
  }
  return set;
}

function jaccard(a, b) {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [s, l] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of s) if (l.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

module.exports = { lex, tokens, shingleSet, jaccard, modeOf, extOf, isToken, K, TOKENIZER_VERSION };
