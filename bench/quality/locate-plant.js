'use strict';
// Where copies come from and where they go, for bench/quality/locate.js: statements of JS/TS
// (a brace scan over the truth lexer's tokens) and Python (logical lines and indentation), blocks
// of prose (paragraphs, fenced code kept whole); the regions a copy may take (a function or block
// of 15–60 lines, a run of 2–6 paragraphs) and the top-level places a copy may be pasted
// (between top-level statements / paragraphs, or at the end); consistent renaming of a copy's
// local identifiers (code) or of its frequent terms (prose); pasting into a file with a map of
// the old line numbers to the new. All line indices here are 0-based; locate.js turns them into
// the 1-based lines the tools report.
const { lex, isToken, tokens } = require('./tokenize');
const { JS_KEYWORDS, PY_KEYWORDS } = require('./mutate');

const CODE_LINES = [15, 60];
const PROSE_BLOCKS = [2, 6];
const MAX_PROSE_LINES = 60;
const MIN_REGION_TOKENS = { code: 60, py: 60, en: 80, zh: 150 };

// ------------------------------------------------------------------------------ per-line tokens

/** Per line: its significant tokens ({ s, t, depth before it }), and bracket depth at its start/end. */
function codeLines(text, mode) {
  const n = text.split('\n').length;
  const lines = Array.from({ length: n }, () => ({ toks: [], startDepth: 0, endDepth: 0, minDepth: 0, inToken: false }));
  const stack = []; // { kind: 'block' | 'obj' | 'paren', line }
  let line = 0;
  let prev = null; // previous significant token
  let ok = true;
  const frames = [{ kind: 'root', id: 0 }];
  let frameId = 1;
  const lineFrame = new Array(n).fill(0);
  const started = new Uint8Array(n);
  for (const p of lex(text, mode)) {
    if (isToken(p, mode)) {
      const L = lines[line];
      if (!started[line]) {
        started[line] = 1;
        L.startDepth = stack.length;
        L.minDepth = stack.length;
        lineFrame[line] = stack.length ? stack[stack.length - 1].frame : 0;
      }
      const tok = { s: p.s, t: p.t, depth: stack.length };
      if (p.t === 'punct' && (p.s === '{' || p.s === '(' || p.s === '[')) {
        let kind = 'paren';
        if (p.s === '{') kind = mode === 'py' ? 'obj' : braceKind(prev);
        const frame = kind === 'block' ? frameId++ : -1;
        stack.push({ kind, frame, line });
        if (frame > 0) frames.push({ kind, id: frame, open: line });
      } else if (p.t === 'punct' && (p.s === '}' || p.s === ')' || p.s === ']')) {
        if (!stack.length) ok = false;
        else {
          const top = stack.pop();
          if (top.frame > 0) frames[top.frame].close = line;
        }
        L.minDepth = Math.min(L.minDepth, stack.length);
      }
      L.toks.push(tok);
      L.endDepth = stack.length;
      prev = p;
      // a token spanning lines (template literal, triple-quoted string): the lines it covers
      // start inside it
      const nl = p.s.split('\n').length - 1;
      for (let k = 1; k <= nl; k++) if (lines[line + k]) lines[line + k].inToken = true;
    }
    line += p.s.split('\n').length - 1;
  }
  if (stack.length) ok = false;
  // carry depths over token-less lines
  let depth = 0;
  for (let i = 0; i < n; i++) {
    if (!started[i]) {
      lines[i].startDepth = lines[i].endDepth = lines[i].minDepth = depth;
      lineFrame[i] = -1;
    } else depth = lines[i].endDepth;
  }
  return { lines, ok, frames, lineFrame, raw: text.split('\n') };
}

const OBJ_PREV_KW = new Set(['return', 'typeof', 'in', 'of', 'case', 'yield', 'await', 'void', 'new', 'throw', 'delete', 'instanceof']);

/** A '{' opens a block (statement list) after ')', '=>', a keyword/identifier (class X, else, try); otherwise an object literal. */
function braceKind(prev) {
  if (!prev) return 'block';
  if (prev.t === 'punct') return prev.s === ')' || prev.s === '>' || prev.s === ';' || prev.s === '{' || prev.s === '}' ? 'block' : 'obj';
  if (prev.t === 'ident') return OBJ_PREV_KW.has(prev.s) ? 'obj' : 'block';
  return 'obj';
}

const CONT_FIRST = new Set(['.', ')', ']', '}', '?', ':', ',', '+', '-', '*', '/', '%', '=', '&', '|', '>', '<', '^', 'else', 'catch', 'finally', 'as', 'in', 'of', 'instanceof', 'extends', 'implements']);
const CONT_LAST = new Set(['=', '+', '-', '*', '/', '%', ',', '(', '[', '.', '?', ':', '&', '|', '>', '<', '!', '^', '~', '@']);

/**
 * Statements of JS/TS at line granularity: [{ start, end, frame, depth }], where start is the
 * first line of the statement (not its leading comments) and end its last code line; frame 0 is
 * the file's top level, other frames are block bodies ({ … } after ')', '=>', a keyword…).
 */
function jsStatements(text) {
  const info = codeLines(text, 'code');
  if (!info.ok) return { ok: false, statements: [], info };
  const { lines, lineFrame, frames } = info;
  // every line with a token (a line that starts inside a multi-line string too, but no
  // statement starts on such a line)
  const code = [];
  for (let i = 0; i < lines.length; i++) if (lines[i].toks.length) code.push(i);
  const starts = [];
  for (let k = 0; k < code.length; k++) {
    const M = code[k];
    const LM = lines[M];
    const frame = lineFrame[M];
    if (frame < 0 || LM.inToken) continue;
    if (frame > 0 && frames[frame].kind !== 'block') continue;
    const first = LM.toks[0];
    if (CONT_FIRST.has(first.s) && first.t !== 'str') continue;
    if (k === 0) {
      starts.push(M);
      continue;
    }
    const L = lines[code[k - 1]];
    const last = L.toks[L.toks.length - 1];
    if (last.t === 'punct' && last.s === '{') {
      if (frame > 0 && frames[frame].open === code[k - 1]) starts.push(M);
      continue;
    }
    if (last.t === 'punct' && (last.s === ';' || last.s === '}')) {
      starts.push(M);
      continue;
    }
    if (last.t === 'punct' && CONT_LAST.has(last.s)) continue;
    if (first.t === 'punct' && (first.s === '(' || first.s === '[')) continue;
    starts.push(M);
  }
  // statement ends: the last code line before the next start in the same frame, or before the
  // frame's closing line (which must begin with the closing brace)
  const byFrame = new Map();
  for (const s of starts) {
    const f = lineFrame[s];
    if (!byFrame.has(f)) byFrame.set(f, []);
    byFrame.get(f).push(s);
  }
  const statements = [];
  const codeIdx = new Map(code.map((l, i) => [l, i]));
  for (const [f, ss] of byFrame) {
    const closeLine = f === 0 ? lines.length : frames[f].close;
    if (closeLine === undefined) continue;
    const closeOk = f === 0 || (lines[closeLine].toks[0] && lines[closeLine].toks[0].s === '}' && lines[closeLine].toks[0].depth === lines[ss[0]].startDepth);
    for (let i = 0; i < ss.length; i++) {
      const next = i + 1 < ss.length ? ss[i + 1] : closeLine;
      if (i + 1 === ss.length && !closeOk) break;
      // last code line before `next`
      let k = codeIdx.has(next) ? codeIdx.get(next) - 1 : lastCodeBefore(code, next);
      if (k < 0) continue;
      const end = code[k];
      if (end < ss[i]) continue;
      // the statement must not leave its frame (depth never below its start)
      let fine = true;
      for (let l = ss[i]; l <= end && fine; l++) if (lines[l].toks.length && lines[l].minDepth < lines[ss[i]].startDepth) fine = false;
      if (!fine || lines[end].endDepth !== lines[ss[i]].startDepth) continue;
      statements.push({ start: ss[i], end, frame: f, depth: lines[ss[i]].startDepth });
    }
  }
  statements.sort((a, b) => a.start - b.start);
  return { ok: true, statements, info };
}

function lastCodeBefore(code, line) {
  let lo = 0;
  let hi = code.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code[mid] < line) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

const PY_CLAUSE = new Set(['elif', 'else', 'except', 'finally']);

/** Statements of Python: logical lines by indentation; frame = the line of the enclosing header (-1 = top level → frame 0). */
function pyStatements(text) {
  const info = codeLines(text, 'py');
  if (!info.ok) return { ok: false, statements: [], info };
  const { lines, raw } = info;
  // logical line starts: first token on the line, bracket depth 0, not inside a multi-line
  // string, previous code line not ending with a backslash
  const logical = [];
  let prevLast = null;
  for (let i = 0; i < lines.length; i++) {
    const L = lines[i];
    if (!L.toks.length || L.inToken) {
      if (L.toks.length) prevLast = L.toks[L.toks.length - 1];
      continue;
    }
    if (L.startDepth === 0 && !(prevLast && prevLast.s === '\\')) {
      logical.push({ line: i, indent: raw[i].length - raw[i].trimStart().length, first: L.toks[0].s });
    }
    prevLast = L.toks[L.toks.length - 1];
  }
  const code = [];
  for (let i = 0; i < lines.length; i++) if (lines[i].toks.length) code.push(i);
  const statements = [];
  const parents = []; // stack of { indent, line }
  for (let k = 0; k < logical.length; k++) {
    const g = logical[k];
    while (parents.length && parents[parents.length - 1].indent >= g.indent) parents.pop();
    const prevSame = k > 0 ? logical[k - 1] : null;
    const boundary = !PY_CLAUSE.has(g.first) && !(prevSame && prevSame.first === '@' && prevSame.indent === g.indent);
    if (boundary) {
      // end: before the next logical line with indent < ours, or == ours that is itself a boundary
      let m = k + 1;
      for (; m < logical.length; m++) {
        const h = logical[m];
        if (h.indent < g.indent) break;
        if (h.indent === g.indent && !PY_CLAUSE.has(h.first) && !(logical[m - 1].first === '@' && logical[m - 1].indent === h.indent)) break;
      }
      const nextLine = m < logical.length ? logical[m].line : lines.length;
      const ci = lastCodeBefore(code, nextLine);
      const frame = parents.length ? parents[parents.length - 1].line + 1 : 0;
      if (ci >= 0 && code[ci] >= g.line) statements.push({ start: g.line, end: code[ci], frame, depth: g.indent });
    }
    parents.push({ indent: g.indent, line: g.line });
  }
  return { ok: true, statements, info };
}

/** First line of the comment lines directly above `line` (no blank line between), or `line`. */
function withLeadingComments(info, line) {
  const isComment = (i) => info.raw[i].trim() !== '' && !info.lines[i].toks.length && !info.lines[i].inToken;
  let s = line;
  while (s > 0 && isComment(s - 1)) s--;
  return s;
}

// ------------------------------------------------------------------------------ prose blocks

/** Blocks of prose separated by blank lines (fenced code kept whole): [{ start, end, kind: text|heading|fence }]. */
function proseBlocks(text) {
  const raw = text.split('\n');
  const blocks = [];
  let cur = null;
  let fence = null;
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i].trim();
    const isFence = /^(```|~~~)/.test(t);
    if (fence) {
      cur.end = i;
      if (isFence && t.startsWith(fence)) fence = null;
      continue;
    }
    if (!t) {
      if (cur) blocks.push(cur);
      cur = null;
      continue;
    }
    if (!cur) cur = { start: i, end: i, kind: isFence ? 'fence' : /^#{1,6}\s/.test(t) ? 'heading' : i === 0 && t === '---' ? 'meta' : 'text' };
    else cur.end = i;
    if (isFence) fence = t.slice(0, 3);
  }
  if (cur) blocks.push(cur);
  return { blocks, raw };
}

// ------------------------------------------------------------------------------ candidates

/**
 * What a file offers: regions a copy may take ({ start, end, weight, tokens }, 0-based lines,
 * start including leading comments) and positions a copy may be pasted at (insert before line p;
 * lines.length - (text ends with '\n' ? 1 : 0) is the end of the file).
 * lang: 'code' (JS/TS), 'py', 'en', 'zh'.
 */
function analyse(text, lang) {
  const raw = text.split('\n');
  const eof = raw.length - (raw[raw.length - 1] === '' ? 1 : 0);
  const mode = lang === 'code' ? 'code' : lang === 'py' ? 'py' : 'prose';
  const minTok = MIN_REGION_TOKENS[lang];
  const regions = [];
  const positions = [];
  const tokCount = (s, e) => tokens(raw.slice(s, e + 1).join('\n'), mode).length;
  if (mode === 'prose') {
    const { blocks } = proseBlocks(text);
    for (let i = 1; i < blocks.length; i++) if (blocks[i].kind !== 'meta') positions.push(blocks[i].start);
    positions.push(eof);
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i].kind === 'meta') continue;
      for (let j = i + PROSE_BLOCKS[0] - 1; j < Math.min(blocks.length, i + PROSE_BLOCKS[1]); j++) {
        const run = blocks.slice(i, j + 1);
        const lines = run[run.length - 1].end - run[0].start + 1;
        if (lines > MAX_PROSE_LINES) break;
        if (run.filter((b) => b.kind === 'text').length < 2 || run[run.length - 1].kind === 'heading') continue;
        const n = tokCount(run[0].start, run[run.length - 1].end);
        if (n < minTok) continue;
        regions.push({ start: run[0].start, end: run[run.length - 1].end, weight: 1, tokens: n, blocks: run.length });
      }
    }
    return { regions, positions: uniq(positions), mode };
  }
  const seg = mode === 'py' ? pyStatements(text) : jsStatements(text);
  if (!seg.ok) return { regions, positions: [eof], mode, broken: true };
  const st = seg.statements;
  const top = st.filter((s) => s.frame === 0);
  for (let i = 1; i < top.length; i++) positions.push(withLeadingComments(seg.info, top[i].start));
  positions.push(eof);
  // regions: runs of consecutive statements of one frame
  const byFrame = new Map();
  for (const s of st) {
    if (!byFrame.has(s.frame)) byFrame.set(s.frame, []);
    byFrame.get(s.frame).push(s);
  }
  for (const [frame, ss] of byFrame) {
    for (let i = 0; i < ss.length; i++) {
      const start = withLeadingComments(seg.info, ss[i].start);
      for (let j = i; j < ss.length; j++) {
        const lines = ss[j].end - start + 1;
        if (lines > CODE_LINES[1]) break;
        if (lines < CODE_LINES[0]) continue;
        const n = tokCount(start, ss[j].end);
        if (n < minTok) continue;
        // a function or block: one statement preferred, top level preferred
        const weight = (j === i ? 4 : j - i < 3 ? 1 : 0.3) * (frame === 0 ? 2 : 1);
        regions.push({ start, end: ss[j].end, weight, tokens: n, statements: j - i + 1, depth: ss[i].depth });
      }
    }
  }
  return { regions, positions: uniq(positions), mode };
}

const uniq = (xs) => [...new Set(xs)].sort((a, b) => a - b);

/**
 * Common leading whitespace removed (a nested block pasted at top level); lines that start
 * inside a multi-line string or template literal stay as they are (their text is the token's).
 */
function dedent(lines, mode = null) {
  const keep = new Set();
  if (mode && mode !== 'prose') {
    let line = 0;
    for (const p of lex(lines.join('\n'), mode)) {
      const nl = p.s.split('\n').length - 1;
      if (isToken(p, mode)) for (let k = 1; k <= nl; k++) keep.add(line + k);
      line += nl;
    }
  }
  let pre = null;
  for (const [i, l] of lines.entries()) {
    if (!l.trim() || keep.has(i)) continue;
    const w = l.match(/^[ \t]*/)[0];
    if (pre === null || !w.startsWith(pre)) {
      let k = 0;
      while (pre !== null && k < pre.length && k < w.length && pre[k] === w[k]) k++;
      pre = pre === null ? w : pre.slice(0, k);
    }
  }
  if (!pre) return lines.slice();
  return lines.map((l, i) => (keep.has(i) ? l : l.startsWith(pre) ? l.slice(pre.length) : l.trimStart()));
}

// ------------------------------------------------------------------------------ renaming

const JS_NO_RENAME = new Set(['require', 'module', 'exports', 'arguments', 'undefined', 'console', 'process', 'constructor', 'prototype', 'window', 'global', 'globalThis', 'Symbol', 'Object', 'Array', 'Promise', 'Error', 'JSON', 'Math', 'String', 'Number', 'Boolean']);
const NAME_A = ['cur', 'next', 'tmp', 'my', 'new', 'old', 'base', 'raw', 'main', 'local', 'inner', 'outer', 'first', 'last', 'prev', 'src', 'dst', 'top', 'own', 'work'];
const NAME_B = ['Item', 'Value', 'Node', 'Entry', 'Data', 'Info', 'Ref', 'Key', 'List', 'Map', 'Count', 'Index', 'Result', 'State', 'Spec', 'Obj', 'Arg', 'Opt', 'Part', 'Unit'];

/** Identifiers declared in a copy of code (variables, parameters, functions, classes), in order of first declaration. */
function declaredNames(pieces, mode) {
  const sig = pieces.filter((p) => isToken(p, mode));
  const kw = mode === 'py' ? PY_KEYWORDS : JS_KEYWORDS;
  const names = [];
  const add = (t) => {
    if (t && t.t === 'ident' && !kw.has(t.s) && !JS_NO_RENAME.has(t.s) && !names.includes(t.s)) names.push(t.s);
  };
  const matchClose = (i) => {
    const open = sig[i].s;
    const close = open === '(' ? ')' : open === '[' ? ']' : '}';
    let d = 0;
    for (let k = i; k < sig.length; k++) {
      if (sig[k].t !== 'punct') continue;
      if (sig[k].s === open) d++;
      else if (sig[k].s === close && --d === 0) return k;
    }
    return sig.length - 1;
  };
  const params = (i) => {
    // i: index of '('; identifiers at depth 1 preceded by '(' ',' '...' '*'
    const j = matchClose(i);
    let d = 0;
    for (let k = i; k <= j; k++) {
      const t = sig[k];
      if (t.t === 'punct' && '([{'.includes(t.s)) d++;
      else if (t.t === 'punct' && ')]}'.includes(t.s)) d--;
      else if (t.t === 'ident' && d === 1) {
        const p = sig[k - 1];
        if (p.s === '(' || p.s === ',' || p.s === '.' || p.s === '*') {
          if (p.s === '.' && !(sig[k - 2] && sig[k - 2].s === '.')) continue;
          if (mode === 'py' && (t.s === 'self' || t.s === 'cls')) continue;
          add(t);
        }
      }
    }
  };
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    const n1 = sig[i + 1];
    if (mode === 'py') {
      if ((t.s === 'def' || t.s === 'class') && n1) {
        add(n1);
        if (t.s === 'def' && sig[i + 2] && sig[i + 2].s === '(') params(i + 2);
      } else if ((t.s === 'for' || t.s === 'as') && n1) {
        for (let k = i + 1; k < sig.length && sig[k].s !== 'in' && sig[k].s !== ':' && sig[k].s !== ')'; k++) if (sig[k].t === 'ident') add(sig[k]);
      } else if (t.t === 'ident' && n1 && n1.s === '=' && !(sig[i + 2] && sig[i + 2].s === '=') && (i === 0 || lineStart(pieces, t))) {
        add(t);
      }
      continue;
    }
    if ((t.s === 'const' || t.s === 'let' || t.s === 'var') && n1) {
      if (n1.t === 'ident') add(n1);
      else if (n1.s === '{' || n1.s === '[') {
        const j = matchClose(i + 1);
        for (let k = i + 2; k < j; k++) if (sig[k].t === 'ident' && [',', '}', ']', '='].includes(sig[k + 1].s) && sig[k - 1].s !== '.') add(sig[k]);
      }
    } else if (t.s === 'function' || t.s === 'class') {
      let k = i + 1;
      if (sig[k] && sig[k].s === '*') k++;
      if (sig[k] && sig[k].t === 'ident') add(sig[k++]);
      if (t.s === 'function' && sig[k] && sig[k].s === '(') params(k);
    } else if (t.s === 'catch' && n1 && n1.s === '(') params(i + 1);
    else if (t.s === '=' && n1 && n1.s === '>' && i > 0) {
      const p = sig[i - 1];
      if (p.t === 'ident') add(p);
      else if (p.s === ')') {
        let d = 0;
        for (let k = i - 1; k >= 0; k--) {
          if (sig[k].s === ')') d++;
          else if (sig[k].s === '(' && --d === 0) {
            params(k);
            break;
          }
        }
      }
    } else if (t.s === '{' && i > 0 && sig[i - 1].s === ')') {
      // method definition: name ( params ) {
      let d = 0;
      for (let k = i - 1; k >= 0; k--) {
        if (sig[k].s === ')') d++;
        else if (sig[k].s === '(' && --d === 0) {
          const name = sig[k - 1];
          if (name && name.t === 'ident' && !kw.has(name.s)) params(k);
          break;
        }
      }
    }
  }
  return names;
}

/** Whether a piece is the first token of its line. */
function lineStart(pieces, tok) {
  const i = pieces.indexOf(tok);
  if (i <= 0) return true;
  const p = pieces[i - 1];
  return p.t === 'ws' && (p.s.includes('\n') || i === 1);
}

/**
 * Consistent renaming of a copy's local identifiers: every declared name (declaredNames) gets a
 * new name, at every occurrence that is not a property (`.name`, `{ name: … }`).
 * Returns { text, renamed: [[old, new]…], occurrences } or null when fewer than 2 names.
 */
function renameCode(text, mode, rng) {
  const pieces = lex(text, mode);
  const names = declaredNames(pieces, mode);
  if (names.length < 2) return null;
  const taken = new Set(pieces.filter((p) => p.t === 'ident').map((p) => p.s));
  const map = new Map();
  for (const old of names) {
    let nn;
    for (let t = 0; t < 50; t++) {
      const a = NAME_A[Math.floor(rng() * NAME_A.length)];
      const b = NAME_B[Math.floor(rng() * NAME_B.length)];
      nn = mode === 'py' ? `${a}_${b.toLowerCase()}` : a + b;
      if (!taken.has(nn)) break;
    }
    taken.add(nn);
    map.set(old, nn);
  }
  let occ = 0;
  let prev = null;
  const out = pieces.map((p, i) => {
    if (!isToken(p, mode)) return p.s;
    let s = p.s;
    if (p.t === 'ident' && map.has(p.s)) {
      const isProp = prev && prev.s === '.' && !(mode !== 'py' && pieces[i - 2] && pieces[i - 2].s === '.');
      const next = nextSig(pieces, i, mode);
      const isKey = mode !== 'py' && next && next.s === ':' && prev && (prev.s === '{' || prev.s === ',');
      if (!isProp && !isKey) {
        s = map.get(p.s);
        occ++;
      }
    }
    prev = p;
    return s;
  });
  if (occ < 4) return null;
  return { text: out.join(''), renamed: [...map], occurrences: occ };
}

function nextSig(pieces, i, mode) {
  for (let k = i + 1; k < pieces.length; k++) if (isToken(pieces[k], mode)) return pieces[k];
  return null;
}

const EN_STOP = new Set(
  ('the a an and or but if then else of to in on at by for with from into onto that this these those is are was were be been being it its ' +
    'as not no can will would should could may might must do does did have has had you your we our they their them he she his her i me my ' +
    'there here what which who whom when where why how all any each some such more most other than so very just also only about over ' +
    'under after before between through while because until use used using file files').split(' '),
);
const EN_NEW = ('anchor badge cable canvas cargo cedar cipher comet delta ember fabric falcon garnet harbor ingot jasper kernel ' +
  'lantern maple meadow nectar orbit pepper quartz raven saddle tablet timber umber velvet walnut willow yonder zephyr').split(' ');
const ZH_STOP = new Set(Array.from('的了是在和与或一不这那个们也就都而及着把被对为以上下中有你我他它到说要会可能就从用'));
const ZH_NEW = ['对象', '变量', '方法', '模块', '程序', '数据', '系统', '结构', '参数', '属性', '服务', '接口', '请求', '组件', '实例', '类型', '字段', '节点', '集合', '任务'];

/** Prose renaming changes at most ~10 % of the tokens (a term in every URL of a changelog would be far more). */
const renameBudget = (n) => Math.max(4, Math.round(0.1 * n));

/**
 * Consistent renaming of terms in prose (the prose counterpart of renamed identifiers): the most
 * frequent content words (en, ≥ 4 letters, not stop words) or two-character Han words (zh, no
 * function characters), up to 4 terms that occur at least twice and ~10 % of the tokens in all,
 * each replaced everywhere.
 * Returns { text, renamed, occurrences } or null when no term occurs twice.
 */
function renameProse(text, flavour, rng) {
  const pieces = lex(text, 'prose');
  if (flavour === 'en') {
    const count = new Map();
    for (const p of pieces) {
      if (p.t !== 'word') continue;
      const w = p.s.toLowerCase();
      if (w.length < 4 || EN_STOP.has(w) || /\d/.test(w)) continue;
      count.set(w, (count.get(w) || 0) + 1);
    }
    const budget = renameBudget(pieces.filter((p) => isToken(p, 'prose')).length);
    const terms = [];
    let used = 0;
    for (const [w, c] of [...count].filter(([, c]) => c >= 2).sort((a, b) => b[1] - a[1])) {
      if (terms.length >= 4) break;
      if (used + c > budget) continue;
      terms.push(w);
      used += c;
    }
    if (!terms.length) return null;
    const free = EN_NEW.filter((w) => !count.has(w));
    const map = new Map(terms.map((w) => [w, free.splice(Math.floor(rng() * free.length), 1)[0]]));
    let occ = 0;
    const out = pieces.map((p) => {
      if (p.t !== 'word' || !map.has(p.s.toLowerCase())) return p.s;
      occ++;
      const n = map.get(p.s.toLowerCase());
      if (p.s === p.s.toUpperCase() && p.s.length > 1) return n.toUpperCase();
      return p.s[0] === p.s[0].toUpperCase() ? n[0].toUpperCase() + n.slice(1) : n;
    });
    return { text: out.join(''), renamed: [...map], occurrences: occ };
  }
  // zh: bigrams of adjacent Han characters
  const count = new Map();
  for (let i = 0; i + 1 < pieces.length; i++) {
    if (pieces[i].t !== 'cjk' || pieces[i + 1].t !== 'cjk') continue;
    const w = pieces[i].s + pieces[i + 1].s;
    if (ZH_STOP.has(pieces[i].s) || ZH_STOP.has(pieces[i + 1].s)) continue;
    count.set(w, (count.get(w) || 0) + 1);
  }
  const ranked = [...count].filter(([, c]) => c >= 2).sort((a, b) => b[1] - a[1]);
  const budget = renameBudget(pieces.filter((p) => isToken(p, 'prose')).length);
  const terms = [];
  let used = 0;
  for (const [w, c] of ranked) {
    if (terms.length >= 4) break;
    if (terms.some((t) => t.includes(w[0]) || t.includes(w[1]))) continue; // no overlapping terms
    if (used + 2 * c > budget) continue;
    terms.push(w);
    used += 2 * c;
  }
  if (!terms.length) return null;
  const free = ZH_NEW.filter((w) => !text.includes(w));
  const map = new Map(terms.map((w) => [w, free.splice(Math.floor(rng() * free.length), 1)[0]]));
  let occ = 0;
  const out = [];
  for (let i = 0; i < pieces.length; i++) {
    if (pieces[i].t === 'cjk' && pieces[i + 1] && pieces[i + 1].t === 'cjk' && map.has(pieces[i].s + pieces[i + 1].s)) {
      out.push(map.get(pieces[i].s + pieces[i + 1].s));
      occ++;
      i++;
    } else out.push(pieces[i].s);
  }
  return { text: out.join(''), renamed: [...map], occurrences: occ };
}

// ------------------------------------------------------------------------------ pasting

/**
 * Pastes blocks into a text. inserts: [{ at (0-based line: insert before it), lines, id }].
 * Returns { text, map: old 0-based line -> new 0-based line, at: id -> new 0-based first line of
 * the pasted lines }. Each paste is surrounded by blank lines.
 */
function applyInsertions(text, inserts) {
  const raw = text.split('\n');
  const sorted = inserts.slice().sort((a, b) => a.at - b.at || String(a.id).localeCompare(String(b.id)));
  const out = [];
  const map = new Array(raw.length);
  const at = new Map();
  let k = 0;
  for (let i = 0; i <= raw.length; i++) {
    while (k < sorted.length && sorted[k].at === i) {
      const ins = sorted[k++];
      out.push('');
      at.set(ins.id, out.length);
      out.push(...ins.lines);
      if (i < raw.length - 1 || (i === raw.length - 1 && raw[i] !== '')) out.push(''); // not before the final newline
    }
    if (i < raw.length) {
      map[i] = out.length;
      out.push(raw[i]);
    }
  }
  if (k !== sorted.length) throw new Error('insertion beyond the end of the text');
  return { text: out.join('\n'), map, at };
}

module.exports = { analyse, jsStatements, pyStatements, proseBlocks, dedent, renameCode, renameProse, declaredNames, applyInsertions, CODE_LINES, MIN_REGION_TOKENS };
