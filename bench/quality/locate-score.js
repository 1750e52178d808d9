'use strict';
// The pure parts of the planted-copy localisation benchmark (bench/quality/locate.js): which lines
// of a file count as copied lines, whether the pairs a tool reported locate a planted copy, and
// whether a reported pair's two ranges really are similar. No file system, no child processes:
// test/unit/bench/locateScore.test.ts runs these on strings.
//
// Lines are 1-based and inclusive everywhere, as in NearDup's JSON and jscpd's report.
const { lex, isToken, shingleSet, K } = require('./tokenize');
const { JS_KEYWORDS, PY_KEYWORDS } = require('./mutate');

const COVER = 0.5; // a copy is located when the linking pairs cover >= half its copied lines on both sides
const MAX_SPAN = 3; // ... and the linking ranges hold at most 3x its copied lines on each side
const SIMILAR = 0.5; // a reported pair is correct when its ranges' similarity (any of four) is >= this

const CODE_EXT = new Set(['.js', '.cjs', '.mjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']);

/** 'code' (JS/TS), 'py' or 'prose' by the file name; null when the benchmark does not know it. */
function modeOfPath(p) {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  const ext = dot < 0 ? '' : base.slice(dot).toLowerCase();
  if (CODE_EXT.has(ext)) return 'code';
  if (ext === '.py') return 'py';
  if (ext === '.md' || ext === '.markdown' || ext === '.txt') return 'prose';
  return null;
}

/**
 * Which lines of a file count as copied lines: a line counts when a truth token (tokenize.js)
 * starts on it or spans it (a multi-line string). So blank lines, comment-only lines (code) and
 * lines of pure markup (prose: a fence, a rule) do not count.
 * Returns { lineCount, countable: Uint8Array (index = line, 1-based), lines: the text's lines, mode }.
 */
function lineInfo(text, mode) {
  const lines = text.split('\n');
  const countable = new Uint8Array(lines.length + 2);
  let line = 1;
  for (const p of lex(text, mode)) {
    const nl = countNewlines(p.s);
    if (isToken(p, mode)) for (let l = line; l <= line + nl; l++) countable[l] = 1;
    line += nl;
  }
  return { lineCount: lines.length, countable, lines, mode };
}

/** The text of lines [start, end] (1-based, inclusive) of a lineInfo. */
function rangeText(info, start, end) {
  return info.lines.slice(Math.max(0, start - 1), end).join('\n');
}

function countNewlines(s) {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Merged, sorted [start, end] ranges. */
function mergeRanges(ranges) {
  const rs = ranges.map(([s, e]) => [s, e]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = [];
  for (const r of rs) {
    if (out.length && r[0] <= out[out.length - 1][1] + 1) out[out.length - 1][1] = Math.max(out[out.length - 1][1], r[1]);
    else out.push(r);
  }
  return out;
}

/** Countable lines of `info` inside the union of `ranges` (optionally clipped to [lo, hi]). */
function countableIn(info, ranges, lo = 1, hi = Infinity) {
  let n = 0;
  for (const [s, e] of mergeRanges(ranges)) {
    const a = Math.max(s, lo, 1);
    const b = Math.min(e, hi, info.lineCount);
    for (let l = a; l <= b; l++) n += info.countable[l];
  }
  return n;
}

const overlaps = (r, place) => r.start <= place.end && r.end >= place.start;

/**
 * The reported pairs that link place P to place Q: pairs between P's file and Q's file whose side
 * in P's file overlaps P and whose side in Q's file overlaps Q (either orientation; both files may
 * be one file). Returns { onP: [[s, e]…], onQ: [[s, e]…], n }.
 */
function linkingRanges(P, Q, pairs) {
  const onP = [];
  const onQ = [];
  let n = 0;
  for (const r of pairs) {
    for (const [x, y] of [
      [r.a, r.b],
      [r.b, r.a],
    ]) {
      if (x.path === P.file && y.path === Q.file && overlaps(x, P) && overlaps(y, Q)) {
        onP.push([x.start, x.end]);
        onQ.push([y.start, y.end]);
        n++;
        break;
      }
    }
  }
  return { onP, onQ, n };
}

/**
 * The located rule for one pair of places. infoP / infoQ are lineInfo of the two files.
 *   copied  = countable lines of the place;
 *   cover   = copied lines inside the union of the linking ranges on that side / copied;
 *   span    = countable lines in the union of the linking ranges on that side / copied;
 *   located = n > 0 and cover >= COVER on both sides and span <= MAX_SPAN on both sides.
 * A file pair is a range [1, lineCount] of each file, so it covers everything and its span is the
 * whole file's.
 */
function scorePlacePair(P, Q, pairs, infoP, infoQ) {
  const { onP, onQ, n } = linkingRanges(P, Q, pairs);
  const copiedP = countableIn(infoP, [[P.start, P.end]]);
  const copiedQ = countableIn(infoQ, [[Q.start, Q.end]]);
  const res = { links: n, copiedP, copiedQ, coverP: 0, coverQ: 0, spanP: null, spanQ: null, located: false, why: 'no link' };
  if (!n) return res;
  res.coverP = copiedP ? countableIn(infoP, onP, P.start, P.end) / copiedP : 0;
  res.coverQ = copiedQ ? countableIn(infoQ, onQ, Q.start, Q.end) / copiedQ : 0;
  res.spanP = copiedP ? countableIn(infoP, onP) / copiedP : Infinity;
  res.spanQ = copiedQ ? countableIn(infoQ, onQ) / copiedQ : Infinity;
  const covered = res.coverP >= COVER && res.coverQ >= COVER;
  const tight = res.spanP <= MAX_SPAN && res.spanQ <= MAX_SPAN;
  res.located = covered && tight;
  res.why = res.located ? 'located' : !covered ? 'cover' : 'span';
  return res;
}

/** Reported pairs grouped by their (unordered) pair of files, for scoreCopy. */
function indexPairs(pairs) {
  const m = new Map();
  for (const r of pairs) {
    const k = fileKey(r.a.path, r.b.path);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(r);
  }
  return m;
}
const fileKey = (a, b) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

/**
 * A planted copy with places [original, paste…] is located when every pair of its places is.
 * span = the largest span ratio over its place pairs and sides (for the median of located copies);
 * connected = the located pairs link all places (a group found as a chain or star, not pairwise).
 * infoOf(path) -> lineInfo.
 */
function scoreCopy(places, byFiles, infoOf) {
  const pairs = [];
  for (let i = 0; i < places.length; i++) {
    for (let j = i + 1; j < places.length; j++) {
      const P = places[i];
      const Q = places[j];
      const r = scorePlacePair(P, Q, byFiles.get(fileKey(P.file, Q.file)) || [], infoOf(P.file), infoOf(Q.file));
      pairs.push({ i, j, ...r });
    }
  }
  const located = pairs.every((p) => p.located);
  const connected = isConnected(places.length, pairs.filter((p) => p.located).map((p) => [p.i, p.j]));
  const span = located ? Math.max(...pairs.map((p) => Math.max(p.spanP, p.spanQ))) : null;
  const order = ['no link', 'cover', 'span', 'located'];
  const why = located ? 'located' : order[Math.min(...pairs.map((p) => order.indexOf(p.why)))];
  return { located, span, why, connected, pairsLocated: pairs.filter((p) => p.located).length, pairs };
}

/** Whether edges [i, j] connect all n nodes (a group whose places are linked, if not all pairwise). */
function isConnected(n, edges) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [i, j] of edges) parent[find(i)] = find(j);
  return new Set(parent.map((_, i) => find(i))).size === 1;
}

// ------------------------------------------------------------------------------ precision judge

/**
 * Tokens of a reported range's text (its lines, lexed on their own: a range that starts inside a
 * multi-line string is compared by what it shows), and the same tokens parameterised for code
 * (Baker's p-strings: an identifier becomes the distance, in tokens, to its previous occurrence
 * in the range, 0 for the first; keywords stay), so consistently renamed copies have equal p-tokens.
 */
function rangeTokens(text, mode) {
  const raw = [];
  for (const p of lex(text, mode)) if (isToken(p, mode)) raw.push(p);
  const toks = raw.map((t) => (mode === 'prose' && t.t === 'word' ? t.s.toLowerCase() : t.s));
  if (mode === 'prose') return { toks, ptoks: null };
  const kw = mode === 'py' ? PY_KEYWORDS : JS_KEYWORDS;
  const last = new Map();
  const ptoks = raw.map((t, i) => {
    if (t.t !== 'ident' || kw.has(t.s)) return t.s;
    const prev = last.get(t.s);
    last.set(t.s, i);
    return prev === undefined ? '\u0002$0' : `\u0002$${i - prev}`;
  });
  return { toks, ptoks };
}

/** |A ∩ B| / |A ∪ B| and |A ∩ B| / min(|A|, |B|) of two shingle sets. */
function similarity(a, b) {
  if (a.size === 0 || b.size === 0) return { jaccard: 0, containment: 0 };
  let inter = 0;
  const [s, l] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of s) if (l.has(x)) inter++;
  return { jaccard: inter / (a.size + b.size - inter), containment: inter / s.size };
}

/**
 * Is a reported pair correct? Token 3-shingle sets (tokenize.js, the truth of bench/quality) of
 * the two ranges: Jaccard >= SIMILAR or containment of the smaller in the larger >= SIMILAR; for
 * code also the same on p-tokens (a consistently renamed copy). ta, tb: rangeTokens of the two ranges.
 */
function judge(ta, tb) {
  const raw = similarity(shingleSet(ta.toks, K), shingleSet(tb.toks, K));
  const p = ta.ptoks && tb.ptoks ? similarity(shingleSet(ta.ptoks, K), shingleSet(tb.ptoks, K)) : { jaccard: 0, containment: 0 };
  const best = Math.max(raw.jaccard, raw.containment, p.jaccard, p.containment);
  return { jaccard: raw.jaccard, containment: raw.containment, pJaccard: p.jaccard, pContainment: p.containment, correct: best >= SIMILAR };
}

module.exports = {
  COVER,
  MAX_SPAN,
  SIMILAR,
  modeOfPath,
  lineInfo,
  rangeText,
  mergeRanges,
  countableIn,
  linkingRanges,
  scorePlacePair,
  indexPairs,
  scoreCopy,
  isConnected,
  rangeTokens,
  similarity,
  judge,
};
