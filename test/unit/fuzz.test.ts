/**
 * Fuzz: at least 10,000 random and mutated inputs through decode → tokenise → fingerprint (with
 * sections) → index (SimHashIndex add / remove / query, allPairs, allPairsBatch). Inputs are
 * random bytes, random Unicode, real files (node_modules, this repository) cut at random points,
 * and mutations of those (bit flips, splices, NULs, BOMs, re-encodings, pathological shapes),
 * all from a seeded PRNG. It must end with zero crashes, the invariants of every output holding,
 * the index agreeing with brute force, and identical results on a second run over the same
 * inputs in another order (a digest of every output compared input by input).
 *
 * FUZZ_SEED and FUZZ_INPUTS override the seed and the number of inputs.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as iconv from 'iconv-lite';
import { fingerprintText, type FingerprintOptions } from '../../src/core/fingerprint/fingerprint';
import { buildReport, type FingerprintedDocument } from '../../src/core/report/report';
import { hammingDistance } from '../../src/core/index/hamming';
import { SimHashIndex } from '../../src/core/index/simhashIndex';
import { allPairsBatch } from '../../src/core/index/allPairs';
import type { CodeKernel, DocumentFingerprint, ItemFingerprint, Weighting } from '../../src/core/types';
import { decodeBuffer, isMinified, isRepetitive } from '../../src/node/files/decode';
import { loadCjkSegmenter } from '../../src/node/cjk/jieba';
import { nativeKernel } from '../../src/node/workers/nativeKernel';
import { mulberry32 } from './helpers/corpus';

const SEED = Number(process.env.FUZZ_SEED ?? 20240606);
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 10000);
const MAX_REAL_BYTES = 32 * 1024;
/** Fingerprints taken into the index phase (brute force checks are quadratic). */
const INDEX_ITEMS = 8000;
const REPO = path.join(__dirname, '..', '..');

// ---------------------------------------------------------------------------------------------
// Material

/** Real files: some of node_modules and this repository, sorted, first 32 KB of each. */
function realFiles(): Buffer[] {
  const roots = [
    'node_modules/commander',
    'node_modules/iconv-lite',
    'node_modules/picomatch',
    'node_modules/ignore',
    'node_modules/ajv/lib',
    'node_modules/mocha/lib',
    'node_modules/typescript/lib/zh-cn',
    'node_modules/typescript/lib/ja',
    'node_modules/@types/node',
    'node_modules/esbuild',
    'src',
    'test/fixtures',
    'docs',
    'l10n',
  ];
  const exts = /\.(js|cjs|mjs|ts|json|md|txt|d\.ts|yml|yaml|html|css|map|py|sh|LICENSE)$|LICENSE|README/i;
  const files: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && depth < 4) visit(p, depth + 1);
      else if (e.isFile() && exts.test(e.name)) files.push(p);
    }
  };
  for (const r of roots) visit(path.join(REPO, r), 0);
  const out: Buffer[] = [];
  for (const f of files.slice(0, 400)) {
    const fd = fs.openSync(f, 'r');
    try {
      const buf = Buffer.alloc(MAX_REAL_BYTES);
      const n = fs.readSync(fd, buf, 0, MAX_REAL_BYTES, 0);
      if (n > 0) out.push(buf.subarray(0, n));
    } finally {
      fs.closeSync(fd);
    }
  }
  return out;
}

const EXTENSIONS = [
  'ts', 'js', 'py', 'c', 'go', 'rs', 'java', 'rb', 'sh', 'sql', 'lua', 'html', 'css', 'clj', 'tex', 'hs', 'md', 'txt', 'rst', 'json', 'yaml', '', 'Makefile', 'Dockerfile',
  // Every kind of comment of languageTable.ts: lines first on a line, whole-line blocks, nested-looking blocks.
  'pl', 'bat', 'ini', 'vim', 'vb', 'ps1', 'pas', 'jl', 'cmake',
];

/** Code point ranges for random Unicode, with weights. */
const RANGES: Array<[number, number, number]> = [
  [0x20, 0x7e, 30], // ASCII printable
  [0x00, 0x1f, 3], // C0 controls (\n, \t, \r among them)
  [0x7f, 0x9f, 1], // DEL, C1
  [0xa0, 0x24f, 4], // Latin
  [0x300, 0x36f, 1], // combining marks
  [0x590, 0x6ff, 2], // Hebrew, Arabic
  [0x3000, 0x303f, 2], // CJK punctuation
  [0x3040, 0x30ff, 2], // kana
  [0x4e00, 0x9fff, 14], // CJK ideographs
  [0xac00, 0xd7a3, 2], // Hangul
  [0xd800, 0xdfff, 1], // lone surrogates
  [0xfe00, 0xfeff, 1], // variation selectors, BOM
  [0xfff0, 0xffff, 1], // specials, U+FFFD, non-characters
  [0x1f300, 0x1faff, 2], // emoji
  [0x20000, 0x2a6df, 1], // CJK extension B
  [0x2028, 0x202e, 1], // separators, bidi
];
const RANGE_TOTAL = RANGES.reduce((s, r) => s + r[2], 0);

interface Input {
  bytes?: Buffer;
  text?: string;
  path: string;
  options: FingerprintOptions;
  kind: string;
}

class Gen {
  constructor(
    private readonly rnd: () => number,
    private readonly real: Buffer[],
  ) {}

  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  /** Lengths skewed small: mostly short, sometimes up to `max`. */
  len(max: number): number {
    const r = this.rnd();
    return Math.floor(max * r * r * r);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  randomBytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }

  randomUnicode(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) {
      let w = this.rnd() * RANGE_TOTAL;
      let r = RANGES[0];
      for (const x of RANGES) {
        if ((w -= x[2]) < 0) {
          r = x;
          break;
        }
      }
      const cp = r[0] + this.int(r[1] - r[0] + 1);
      s += cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
      if (this.rnd() < 0.08) s += this.pick(['\n', ' ', '\t', '\r\n', '  ', '{', '}', '# ', '\n\n']);
    }
    return s;
  }

  realCut(): Buffer {
    const f = this.pick(this.real);
    const a = this.int(f.length);
    const b = Math.min(f.length, a + 1 + this.len(12000));
    return this.rnd() < 0.1 ? f : f.subarray(a, b);
  }

  mutate(src: Buffer): Buffer {
    let b: Buffer = Buffer.from(src);
    const rounds = 1 + this.int(4);
    for (let r = 0; r < rounds; r++) {
      switch (this.int(12)) {
        case 0: // bit flips
          for (let i = 0, n = 1 + this.int(20); i < n && b.length > 0; i++) b[this.int(b.length)] ^= 1 << this.int(8);
          break;
        case 1: {
          // insert random bytes
          const at = this.int(b.length + 1);
          b = Buffer.concat([b.subarray(0, at), this.randomBytes(1 + this.int(64)), b.subarray(at)]);
          break;
        }
        case 2: {
          // delete a range
          const at = this.int(b.length + 1);
          b = Buffer.concat([b.subarray(0, at), b.subarray(at + this.int(256))]);
          break;
        }
        case 3: {
          // duplicate a chunk many times
          const at = this.int(b.length + 1);
          const chunk = b.subarray(at, at + 1 + this.int(200));
          b = Buffer.concat([b.subarray(0, at), ...Array.from({ length: 2 + this.int(50) }, () => chunk), b.subarray(at)]);
          break;
        }
        case 4: // splice with another real file
          b = Buffer.concat([b.subarray(0, this.int(b.length + 1)), this.realCut()]);
          break;
        case 5: // NUL bytes
          for (let i = 0, n = 1 + this.int(3); i < n && b.length > 0; i++) b[this.int(b.length)] = 0;
          break;
        case 6: // a byte order mark, maybe the wrong one
          b = Buffer.concat([this.pick([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])]), b]);
          break;
        case 7: {
          // re-encode as UTF-16 (either order, maybe odd length) or GB18030
          const text = b.toString('utf8');
          const e = this.int(3);
          if (e === 2) b = iconv.encode(text, 'gb18030');
          else {
            b = Buffer.from(text, 'utf16le');
            if (e === 1) b.swap16();
            if (this.rnd() < 0.3) b = b.subarray(0, Math.max(0, b.length - 1));
          }
          break;
        }
        case 8: // truncate in the middle of a multi-byte sequence
          b = b.subarray(0, Math.max(0, b.length - 1 - this.int(3)));
          break;
        case 9: // line endings
          b = Buffer.from(b.toString('latin1').replace(/\n/g, this.pick(['\r\n', '\r', '\n\n', '\u2028'])), 'latin1');
          break;
        case 10: // high bytes
          for (let i = 0, n = 1 + this.int(40); i < n && b.length > 0; i++) b[this.int(b.length)] = 0x80 + this.int(128);
          break;
        default: // control characters
          for (let i = 0, n = 1 + this.int(40); i < n && b.length > 0; i++) b[this.int(b.length)] = 1 + this.int(31);
      }
    }
    return b;
  }

  /** Pathological shapes for the tokenisers and sectioners. */
  nasty(): string {
    const n = 1 + this.len(12000);
    switch (this.int(14)) {
      case 0:
        return '{'.repeat(n) + '}'.repeat(this.int(n + 1));
      case 1:
        return '/*' + 'x '.repeat(n);
      case 2:
        return '"' + 'a\\'.repeat(n);
      case 3:
        return 'x'.repeat(n * 10);
      case 4:
        return '\n'.repeat(n);
      case 5:
        return ' \t'.repeat(n);
      case 6:
        return 'same line\n'.repeat(n);
      case 7:
        return '#'.repeat(n) + ' heading\n' + 'text '.repeat(n);
      case 8:
        return Array.from({ length: Math.min(n, 3000) }, (_, i) => '  '.repeat(i % 50) + `if (x${i}) {`).join('\n');
      case 9:
        return '中'.repeat(n);
      case 10:
        return Array.from({ length: Math.min(n, 5000) }, () => this.pick(['function f() {', '}', 'class A {', '# T', '', '  return 1;', '<!--', '-->', "'''", '"""', '`', '${', '*/'])).join('\n');
      case 11:
        return '\ufeff'.repeat(n % 100) + 'text';
      case 12:
        return '\r'.repeat(n) + 'a b c d e f g';
      default:
        return this.randomUnicode(n % 3000) + '\n'.repeat(3) + '}'.repeat(n % 100);
    }
  }

  options(): FingerprintOptions {
    const weighting: Weighting = this.pick(['none', 'none', 'tf', 'tfidf']);
    return {
      minTokens: this.pick([1, 5, 10, 20, 50]),
      shingleSize: this.pick([undefined, 1, 2, 3, 3, 4, 5]),
      sections: this.rnd() < 0.85,
      normalizeIdentifiers: this.rnd() < 0.3,
      stopWords: this.rnd() < 0.3,
      weighting,
      idf: weighting === 'tfidf' ? (_hi: number, lo: number) => 0.5 + (lo & 15) / 4 : undefined,
    };
  }

  input(): Input {
    const ext = this.pick(EXTENSIONS);
    const file = ext === 'Makefile' || ext === 'Dockerfile' ? ext : ext === '' ? 'NOEXT' : `f.${ext}`;
    const p = this.rnd() < 0.2 ? `dir with space/#%/中文/${file}` : `src/${file}`;
    const options = this.options();
    const k = this.int(100);
    if (k < 15) return { bytes: this.randomBytes(this.len(6000)), path: p, options, kind: 'random bytes' };
    if (k < 30) return { text: this.randomUnicode(this.len(6000)), path: p, options, kind: 'random unicode (text)' };
    if (k < 38) return { bytes: Buffer.from(this.randomUnicode(this.len(6000)), 'utf8'), path: p, options, kind: 'random unicode (utf-8)' };
    if (k < 60) return { bytes: this.realCut(), path: p, options, kind: 'real file cut' };
    if (k < 92) return { bytes: this.mutate(this.realCut()), path: p, options, kind: 'mutated real file' };
    return { text: this.nasty(), path: p, options, kind: 'pathological' };
  }
}

// ---------------------------------------------------------------------------------------------
// Pipeline

interface Outcome {
  digest: string;
  items: ItemFingerprint[];
  doc: DocumentFingerprint | null;
}

const segmenter = loadCjkSegmenter().segmenter;

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function checkItem(what: string, fp: ItemFingerprint, options: FingerprintOptions, sketchMax: number): void {
  assert.ok(Number.isInteger(fp.hi) && fp.hi >= 0 && fp.hi <= 0xffffffff, `${what}: hi ${fp.hi}`);
  assert.ok(Number.isInteger(fp.lo) && fp.lo >= 0 && fp.lo <= 0xffffffff, `${what}: lo ${fp.lo}`);
  assert.ok(fp.tokens >= Math.max(1, options.minTokens ?? 50), `${what}: ${fp.tokens} tokens`);
  assert.ok(fp.features >= 1 && fp.features <= fp.tokens, `${what}: ${fp.features} features of ${fp.tokens} tokens`);
  assert.ok(fp.sketch instanceof Uint32Array && fp.sketch.length <= sketchMax && fp.sketch.length <= fp.features, `${what}: sketch ${fp.sketch.length}`);
  for (let i = 1; i < fp.sketch.length; i++) assert.ok(fp.sketch[i - 1] < fp.sketch[i], `${what}: sketch ascending and distinct`);
}

function runOne(input: Input, kernel?: CodeKernel): Outcome {
  const h = createHash('sha256');
  let text: string;
  if (input.bytes) {
    const d = decodeBuffer(input.bytes);
    if (!d.ok) {
      assert.ok(typeof d.reason === 'string' && d.reason.length > 0);
      h.update(`skip:${d.reason}`);
      return { digest: h.digest('hex'), items: [], doc: null };
    }
    assert.ok(typeof d.text === 'string' && typeof d.encoding === 'string');
    h.update(`enc:${d.encoding}\0`);
    text = d.text;
  } else {
    text = input.text!;
  }
  h.update(`min:${isMinified(text)} rep:${isRepetitive(text)}\0`);
  const doc: DocumentFingerprint = fingerprintText(text, input.path, { ...input.options, segmenter, kernel });
  assert.ok(doc.kind === 'code' || doc.kind === 'prose');
  const items: ItemFingerprint[] = [];
  if (doc.file) {
    checkItem('file', doc.file, input.options, 128);
    items.push(doc.file);
  }
  if (!doc.file) assert.equal(doc.sections.length, 0, 'no sections without a file fingerprint');
  const lines = lineCount(text);
  for (const s of doc.sections) {
    checkItem(`section ${s.startLine}-${s.endLine}`, s, input.options, 64);
    assert.ok(Number.isInteger(s.startLine) && s.startLine >= 1 && s.startLine <= s.endLine && s.endLine <= lines, `section ${s.startLine}-${s.endLine} of ${lines} lines`);
    items.push(s);
  }
  for (const it of items) {
    h.update(`${it.hi},${it.lo},${it.tokens},${it.features};`);
    h.update(Buffer.from(it.sketch.buffer, it.sketch.byteOffset, it.sketch.byteLength));
    const s = it as { startLine?: number; endLine?: number };
    if (s.startLine !== undefined) h.update(`@${s.startLine}-${s.endLine}`);
  }
  return { digest: h.digest('hex'), items, doc };
}

/** buildReport over the documents (sections, nesting, clusters): a digest of its pairs and groups. */
function runReport(docs: Array<DocumentFingerprint | null>): string {
  const list: FingerprintedDocument[] = [];
  docs.forEach((doc, i) => {
    if (doc) list.push({ path: `${String(i).padStart(5, '0')}.x`, doc });
  });
  const report = buildReport(list, { maxDistance: 6, sectionMaxDistance: 6, minSimilarity: 0.5, sections: true });
  for (const p of report.pairs) {
    assert.ok(p.distance >= 0 && p.distance <= 6 && p.similarity === 1 - p.distance / 64);
    assert.ok(p.a.path < p.b.path || (p.a.path === p.b.path && (p.a.startLine ?? 0) <= (p.b.startLine ?? 0)));
  }
  return createHash('sha256').update(JSON.stringify(report)).digest('hex');
}

function bruteQuery(fps: Array<[number, number] | null>, hi: number, lo: number, k: number): string {
  const out: Array<{ id: number; distance: number }> = [];
  fps.forEach((f, id) => {
    if (!f) return;
    const d = hammingDistance(hi, lo, f[0], f[1]);
    if (d <= k) out.push({ id, distance: d });
  });
  out.sort((x, y) => x.distance - y.distance || x.id - y.id);
  return JSON.stringify(out);
}

/**
 * Index phase: fingerprints into allPairsBatch and a SimHashIndex (add, remove, re-add, query,
 * allPairs). With `check`, every answer is compared with brute force. Returns a digest of all
 * answers.
 */
function runIndex(items: ItemFingerprint[], rnd: () => number, check: boolean): string {
  const h = createHash('sha256');
  // Many inputs share fingerprints (cuts of the same file): kept, copies are a hard case.
  const n = items.length;
  const fp = new Uint32Array(2 * n);
  items.forEach((it, i) => {
    fp[2 * i] = it.hi;
    fp[2 * i + 1] = it.lo;
  });
  const pairKeys = (a: ArrayLike<number>, b: ArrayLike<number>, d: ArrayLike<number>, len: number): Float64Array => {
    const keys = new Float64Array(len);
    for (let i = 0; i < len; i++) keys[i] = (Math.min(a[i], b[i]) * n + Math.max(a[i], b[i])) * 32 + d[i];
    return keys.sort();
  };
  // allPairsBatch at k = 3 and 6, and its cap.
  for (const k of [3, 6]) {
    const batch = allPairsBatch(fp, k);
    const got = pairKeys(batch.a, batch.b, batch.distance, batch.length);
    h.update(Buffer.from(got.buffer));
    if (check) {
      const a: number[] = [];
      const b: number[] = [];
      const ds: number[] = [];
      for (let x = 0; x < n; x++) {
        const xh = fp[2 * x];
        const xl = fp[2 * x + 1];
        for (let y = x + 1; y < n; y++) {
          const d = hammingDistance(xh, xl, fp[2 * y], fp[2 * y + 1]);
          if (d <= k) {
            a.push(x);
            b.push(y);
            ds.push(d);
          }
        }
      }
      const want = pairKeys(a, b, ds, a.length);
      assert.equal(got.length, want.length, `allPairsBatch k=${k}: pair count equals brute force`);
      assert.ok(got.every((v, i) => v === want[i]), `allPairsBatch k=${k} equals brute force`);
      const cap = Math.floor(want.length / 2);
      const capped = allPairsBatch(fp, k, { maxPairs: cap });
      assert.equal(capped.length, cap);
      assert.equal(capped.truncated, want.length > cap);
    }
  }

  // SimHashIndex: add all, query, remove some, re-add some changed, query again, allPairs.
  const index = new SimHashIndex({ maxDistance: 8 });
  const live: Array<[number, number] | null> = [];
  for (let i = 0; i < n; i++) {
    index.add(i, fp[2 * i], fp[2 * i + 1]);
    live.push([fp[2 * i], fp[2 * i + 1]]);
  }
  const queries = (count: number, tag: string) => {
    for (let q = 0; q < count; q++) {
      const i = Math.floor(rnd() * n);
      const qk = Math.floor(rnd() * 9);
      // Near an existing fingerprint (a few bits flipped), or anywhere.
      let hi = fp[2 * i];
      let lo = fp[2 * i + 1];
      for (let f = Math.floor(rnd() * 6); f > 0; f--) {
        const bit = Math.floor(rnd() * 64);
        if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
        else lo = (lo ^ (1 << (bit - 32))) >>> 0;
      }
      if (rnd() < 0.2) {
        hi = Math.floor(rnd() * 2 ** 32);
        lo = Math.floor(rnd() * 2 ** 32);
      }
      const res = JSON.stringify(index.query(hi, lo, qk));
      if (check) assert.equal(res, bruteQuery(live, hi, lo, qk), `${tag}: query ${q} at k=${qk}`);
      h.update(res);
    }
  };
  queries(300, 'after adds');
  for (let i = 0; i < n; i += 7) {
    assert.equal(index.remove(i), true);
    live[i] = null;
  }
  for (let i = 0; i < n; i += 21) {
    const hi = (fp[2 * i] ^ 0x10001) >>> 0;
    index.add(i, hi, fp[2 * i + 1]);
    live[i] = [hi, fp[2 * i + 1]];
  }
  assert.equal(index.size, live.filter(Boolean).length);
  queries(300, 'after removes and re-adds');
  const pairs = index.allPairs(4);
  h.update(JSON.stringify(pairs));
  if (check) {
    const brute: Array<{ a: number; b: number; distance: number }> = [];
    const ids = live.map((f, id) => (f ? id : -1)).filter((id) => id >= 0);
    for (let x = 0; x < ids.length; x++) {
      const [ah, al] = live[ids[x]]!;
      for (let y = x + 1; y < ids.length; y++) {
        const [bh, bl] = live[ids[y]]!;
        const d = hammingDistance(ah, al, bh, bl);
        if (d <= 4) brute.push({ a: ids[x], b: ids[y], distance: d });
      }
    }
    brute.sort((p, q) => p.distance - q.distance || p.a - q.a || p.b - q.b);
    assert.deepEqual(pairs, brute, 'SimHashIndex.allPairs equals brute force');
  }
  return h.digest('hex');
}

/** At most `max` items, spread evenly over the list (deterministic). */
function sample<T>(xs: T[], max: number): T[] {
  if (xs.length <= max) return xs;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(xs[Math.floor((i * xs.length) / max)]);
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('fuzz: decode → tokenise → fingerprint → index', function () {
  this.timeout(180000);

  it(`${INPUTS} seeded random and mutated inputs: no crash, invariants hold, identical on a rerun`, () => {
    const real = realFiles();
    assert.ok(real.length >= 100, `real files found: ${real.length}`);
    const gen = new Gen(mulberry32(SEED), real);
    const inputs: Input[] = [];
    for (let i = 0; i < INPUTS; i++) inputs.push(gen.input());
    const kinds = new Map<string, number>();
    for (const x of inputs) kinds.set(x.kind, (kinds.get(x.kind) ?? 0) + 1);
    let bytes = 0;
    for (const x of inputs) bytes += x.bytes ? x.bytes.length : x.text!.length;

    const crashes: string[] = [];
    const pass = (order: number[], kernel?: CodeKernel): { digests: string[]; items: ItemFingerprint[][]; docs: Array<DocumentFingerprint | null> } => {
      const digests = new Array<string>(inputs.length);
      const items = new Array<ItemFingerprint[]>(inputs.length);
      const docs = new Array<DocumentFingerprint | null>(inputs.length).fill(null);
      for (const i of order) {
        try {
          const o = runOne(inputs[i], kernel);
          digests[i] = o.digest;
          items[i] = o.items;
          docs[i] = o.doc;
        } catch (e) {
          digests[i] = 'crash';
          items[i] = [];
          if (crashes.length < 20) crashes.push(`input ${i} (${inputs[i].kind}, ${inputs[i].path}): ${(e as Error).stack?.split('\n').slice(0, 4).join(' | ')}`);
        }
      }
      return { digests, items, docs };
    };

    // Run 1 in order; run 2 in another order, so state carried from one input to the next
    // (shared token buffers, caches) would show as a difference. Run 1 is the TypeScript alone,
    // run 2 goes through the native kernel where it is built (code inputs): both must agree.
    const run1 = pass(inputs.map((_, i) => i));
    const order2 = inputs.map((_, i) => i);
    const shuffle = mulberry32(SEED ^ 0x5bd1e995);
    for (let i = order2.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [order2[i], order2[j]] = [order2[j], order2[i]];
    }
    const run2 = pass(order2, nativeKernel());
    assert.deepEqual(crashes, [], 'no crashes');
    let differing = 0;
    for (let i = 0; i < inputs.length; i++) if (run1.digests[i] !== run2.digests[i]) differing++;
    assert.equal(differing, 0, 'every input gives the same outputs on both runs');

    const all1 = run1.items.flat();
    const index1 = runIndex(sample(all1, INDEX_ITEMS), mulberry32(SEED + 1), true);
    const index2 = runIndex(sample(run2.items.flat(), INDEX_ITEMS), mulberry32(SEED + 1), false);
    assert.equal(index1, index2, 'index outputs identical on both runs');
    const report1 = runReport(run1.docs);
    assert.equal(report1, runReport(run2.docs), 'report identical on both runs');

    const total = createHash('sha256').update(run1.digests.join('\n')).update(index1).update(report1).digest('hex');
    console.log(
      `      fuzz: ${inputs.length} inputs (${[...kinds].map(([k, v]) => `${v} ${k}`).join(', ')}), ` +
        `${(bytes / 1024 / 1024).toFixed(1)} MB, ${crashes.length} crashes, ${all1.length} fingerprints (${Math.min(all1.length, INDEX_ITEMS)} indexed); ` +
        `digest ${total.slice(0, 16)}`,
    );
    assert.ok(inputs.length >= 10000 || process.env.FUZZ_INPUTS !== undefined);
  });
});
