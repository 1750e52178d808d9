'use strict';
// Seeded token-level mutation of real files (for the "edit rate" part of bench/quality).
//
// mutate(text, mode, flavour, rate, rng) edits about rate × N tokens (N = truth tokens of the
// original, see tokenize.js). Edits are spent in two phases:
//   1. whole-line edits (delete a line / insert a copy of another line at a random place)
//      take up to LINE_SHARE of the budget; a line costs the number of tokens on it;
//   2. token edits take the rest; per flavour:
//      code: replace an identifier, rename an identifier everywhere (costs its occurrence count),
//            change a literal, delete a token, insert a token;
//      en:   replace / insert / delete a word (or number);
//      zh:   replace / insert / delete 1–2 CJK characters (Latin words as for en).
// The rate is nominal (edited tokens / original tokens); the measured truth is the Jaccard.
// mode 'py' (Python, for locate.js) is edited like code, with Python's keywords kept.
const { lex, isToken } = require('./tokenize');

function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a32(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const LINE_SHARE = { code: 0.3, en: 0.2, zh: 0.2 };

const JS_KEYWORDS = new Set(
  ('break case catch class const continue debugger default delete do else export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while ' +
    'with yield let static enum await implements package protected interface private public async of get set ' +
    'undefined type readonly declare as from any string number boolean unknown never object symbol').split(' '),
);

// Python keywords and builtins (mode 'py', bench/quality/locate.js): never renamed or replaced.
const PY_KEYWORDS = new Set(
  ('False None True and as assert async await break class continue def del elif else except finally for from ' +
    'global if import in is lambda nonlocal not or pass raise return try while with yield self cls print len ' +
    'str int float bool list dict set tuple object type isinstance range open super Exception').split(' '),
);

const EN_WORDS = (
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by ' +
  'word but what some we can out other were all there when up use your how said an each she which do their ' +
  'time if will way about many then them write would like so these her long make thing see him two has look ' +
  'more day could go come did number sound no most people my over know water than call first who may down ' +
  'side been now find any new work part take get place made live where after back little only round man year ' +
  'came show every good me give our under name very through just form sentence great think say help low line ' +
  'differ turn cause much mean before move right boy old too same tell does set three want air well also play'
).split(' ');

const ZH_CHARS = Array.from(
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定' +
    '行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由' +
    '其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问' +
    '意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图',
);

function pick(rng, arr) {
  return arr[Math.floor(rng() * arr.length)];
}

function weighted(rng, table) {
  let total = 0;
  for (const [, w] of table) total += w;
  let r = rng() * total;
  for (const [name, w] of table) {
    r -= w;
    if (r < 0) return name;
  }
  return table[table.length - 1][0];
}

/** Lines of the text, each with the number of truth tokens that start on it. */
function linesWithCounts(text, mode) {
  const raw = text.split('\n');
  const counts = new Array(raw.length).fill(0);
  let line = 0;
  for (const p of lex(text, mode)) {
    if (isToken(p, mode)) counts[line]++;
    for (let i = p.s.indexOf('\n'); i >= 0; i = p.s.indexOf('\n', i + 1)) line++;
  }
  return raw.map((s, i) => ({ s, n: counts[i] }));
}

function mutate(text, mode, flavour, rate, rng) {
  const pieces0 = lex(text, mode);
  const keywords = mode === 'py' ? PY_KEYWORDS : JS_KEYWORDS;
  const N = pieces0.filter((p) => isToken(p, mode)).length;
  let budget = Math.max(1, Math.round(rate * N));
  const ops = {};
  const count = (op, c) => {
    ops[op] = (ops[op] || 0) + 1;
    budget -= c;
    edited += c;
  };
  let edited = 0;

  // Phase 1: whole lines.
  let lineBudget = Math.floor(budget * LINE_SHARE[flavour]);
  const lines = linesWithCounts(text, mode);
  for (let guard = 0; lineBudget > 0 && guard < 10000; guard++) {
    let found = -1;
    for (let tries = 0; tries < 30; tries++) {
      const i = Math.floor(rng() * lines.length);
      if (lines[i].n > 0 && lines[i].n <= lineBudget) {
        found = i;
        break;
      }
    }
    if (found < 0) break;
    const c = lines[found].n;
    if (rng() < 0.5) {
      lines.splice(found, 1);
      count('deleteLine', c);
    } else {
      const at = Math.floor(rng() * (lines.length + 1));
      lines.splice(at, 0, { s: lines[found].s, n: c });
      count('insertLine', c);
    }
    lineBudget -= c;
  }

  // Phase 2: tokens.
  const pieces = lex(lines.map((l) => l.s).join('\n'), mode);
  const vocab = { ident: [], num: [], str: [], punct: [], word: [], cjk: [] };
  for (const p of pieces0) if (vocab[p.t]) vocab[p.t].push(p.s);
  for (const k of Object.keys(vocab)) vocab[k] = [...new Set(vocab[k])];
  if (flavour === 'en') vocab.word.push(...EN_WORDS);
  if (flavour === 'zh') vocab.cjk.push(...ZH_CHARS);
  if (vocab.word.length === 0) vocab.word.push(...EN_WORDS);
  if (vocab.ident.length < 2) vocab.ident.push('value', 'result', 'options', 'index', 'item');

  const tokenIdx = (pred) => {
    const out = [];
    for (let i = 0; i < pieces.length; i++) if (isToken(pieces[i], mode) && (!pred || pred(pieces[i]))) out.push(i);
    return out;
  };
  const other = (arr, s) => {
    for (let t = 0; t < 10; t++) {
      const x = pick(rng, arr);
      if (x !== s) return x;
    }
    return s + (mode !== 'prose' ? '2' : 'x');
  };

  const codeOps = [
    ['replaceIdent', 25],
    ['rename', 10],
    ['literal', 15],
    ['deleteTok', 15],
    ['insertTok', 15],
  ];
  const proseOps = [
    ['replaceTok', 45],
    ['insertTok', 25],
    ['deleteTok', 30],
  ];

  for (let guard = 0; budget > 0 && guard < 100000; guard++) {
    const op = weighted(rng, mode !== 'prose' ? codeOps : proseOps);
    if (mode !== 'prose') {
      if (op === 'replaceIdent' || op === 'rename') {
        const idx = tokenIdx((p) => p.t === 'ident' && !keywords.has(p.s));
        if (!idx.length) continue;
        const i = pick(rng, idx);
        const name = pieces[i].s;
        if (op === 'rename') {
          const occ = idx.filter((j) => pieces[j].s === name);
          if (occ.length > 1 && occ.length <= budget) {
            const nn = name + pick(rng, ['2', 'Tmp', 'Value', 'Next', 'Ref', '_']);
            for (const j of occ) pieces[j] = { t: 'ident', s: nn };
            count('rename', occ.length);
            continue;
          }
        }
        pieces[i] = { t: 'ident', s: other(vocab.ident, name) };
        count('replaceIdent', 1);
      } else if (op === 'literal') {
        const idx = tokenIdx((p) => p.t === 'num' || p.t === 'str');
        if (!idx.length) continue;
        const i = pick(rng, idx);
        const p = pieces[i];
        if (p.t === 'num') pieces[i] = { t: 'num', s: String(Math.floor(rng() * 1000)) };
        else {
          const q = p.s[0];
          pieces[i] = { t: 'str', s: q + pick(rng, vocab.ident) + (rng() < 0.5 ? ' ' + pick(rng, vocab.ident) : '') + q };
        }
        count('literal', 1);
      } else if (op === 'deleteTok') {
        const idx = tokenIdx();
        if (!idx.length) break;
        pieces.splice(pick(rng, idx), 1);
        count('deleteTok', 1);
      } else {
        const idx = tokenIdx();
        const i = idx.length ? pick(rng, idx) : 0;
        const isId = rng() < 0.6 || !vocab.punct.length;
        const tok = isId ? { t: 'ident', s: pick(rng, vocab.ident) } : { t: 'punct', s: pick(rng, vocab.punct) };
        pieces.splice(i, 0, tok, { t: 'ws', s: ' ' });
        count('insertTok', 1);
      }
      continue;
    }
    // prose (en / zh)
    const idx = tokenIdx();
    if (!idx.length && op !== 'insertTok') break;
    const i = idx.length ? pick(rng, idx) : 0;
    const p = pieces[i] || { t: flavour === 'zh' ? 'cjk' : 'word', s: '' };
    const cjk = p.t === 'cjk' || (flavour === 'zh' && !idx.length);
    if (op === 'replaceTok') {
      if (cjk) pieces[i] = { t: 'cjk', s: other(vocab.cjk, p.s) };
      else if (p.t === 'num') pieces[i] = { t: 'num', s: String(Math.floor(rng() * 1000)) };
      else pieces[i] = { t: 'word', s: other(vocab.word, p.s.toLowerCase()) };
      count('replaceTok', 1);
    } else if (op === 'insertTok') {
      if (cjk) {
        const n = Math.min(budget, rng() < 0.5 ? 1 : 2);
        const ins = [];
        for (let k = 0; k < n; k++) ins.push({ t: 'cjk', s: pick(rng, vocab.cjk) });
        pieces.splice(i, 0, ...ins);
        count('insertTok', n);
      } else {
        pieces.splice(i, 0, { t: 'word', s: pick(rng, vocab.word) }, { t: 'ws', s: ' ' });
        count('insertTok', 1);
      }
    } else {
      if (cjk && budget >= 2 && rng() < 0.5 && pieces[i + 1] && pieces[i + 1].t === 'cjk') {
        pieces.splice(i, 2);
        count('deleteTok', 2);
      } else {
        // drop a following space too, so prose stays readable
        const n = !cjk && pieces[i + 1] && pieces[i + 1].t === 'ws' && pieces[i + 1].s === ' ' ? 2 : 1;
        pieces.splice(i, n);
        count('deleteTok', 1);
      }
    }
  }
  return { text: pieces.map((p) => p.s).join(''), tokens: N, edited, ops };
}

module.exports = { mutate, mulberry32, fnv1a32, JS_KEYWORDS, PY_KEYWORDS };
