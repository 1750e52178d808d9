// The worker's fast path for code files (fingerprintFile.ts fastCode, native/readcode.c, native/utf8code.c) must
// give the usual path's outcome, whole (bytes, encoding, fingerprints, lines, region document or
// buffer), for every file: taken by it (plain UTF-8 code) or sent back to the usual path (byte
// order marks, Latin-1, UTF-16, NUL bytes, controls, Han text, markers, minified, repetitive,
// notebooks, components, files it does not read: missing, directory, FIFO, symbolic link, over
// the size limit, unreadable); under the settings that change what it does.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { fastCodeCounts, fingerprintFileSync, READ_PLAIN_NOT, READ_UNUSUAL, useFastCode } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { mulberry32 } from '../../helpers/random';

const REPO = path.join(__dirname, '..', '..', '..', '..');
type ReadCode = (path: string, buffer: Uint8Array, limit: number, languageId: number, normalize: boolean, region: boolean, fold: boolean, out: Uint32Array) => number;
const kernel = nativeKernel() as { readCode?: ReadCode; defineLanguage?: unknown } | undefined;
const readCode = kernel?.readCode;

/** Code of n lines, all distinct. */
function code(rnd: () => number, n: number, eol = '\n'): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`  const v${i} = compute(${Math.floor(rnd() * 1000)}, "s${i}") + other${i % 7};`);
  return `function f() {${eol}${lines.join(eol)}${eol}}${eol}`;
}

/** The files, as bytes: each a case the fast path takes or must leave to the usual path. */
function files(): Array<[string, Buffer]> {
  const rnd = mulberry32(16);
  const c = code(rnd, 80);
  const u = (s: string) => Buffer.from(s, 'utf8');
  const repeated = (line: string, n: number) => Array.from({ length: n }, () => line).join('\n');
  const out: Array<[string, Buffer]> = [
    ['plain.ts', u(c)],
    ['crlf.ts', u(code(rnd, 60, '\r\n'))],
    ['no-final-newline.py', u(c.trimEnd())],
    ['multibyte.js', u(c.replace(/s1/g, 'café 😀 ü€ ñ'))],
    ['han.ts', u(`${c}// 這個系統會讀取每個檔案\n`)],
    ['bom.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), u(c)])],
    ['latin1.c', Buffer.from(c.replace(/s2/g, 'caf\u00e9'), 'latin1')],
    ['utf16le.cs', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(c, 'utf16le')])],
    ['utf16le-nobom.cs', Buffer.from(c, 'utf16le')],
    ['utf16be.java', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(c, 'utf16le').swap16()])],
    ['nul.go', Buffer.concat([u(c.slice(0, 200)), Buffer.from([0]), u(c.slice(200))])],
    ['few-controls.rb', u(c.replace('compute(', 'compute(\x01\x7f'))],
    ['controls.rb', u(`${'\x01\x02\x03\x04'.repeat(200)}\n${c}`)],
    ['ansi.sh', u(`echo "\x1b[31mred\x1b[0m"\n${c}`)],
    ['marked.ts', u(`// neardup-ignore-start\n${c}// neardup-ignore-end\n${c}`)],
    ['ignored.ts', u(`// neardup-ignore-file\n${c}`)],
    ['minified.js', u(`${'var a=1;'.repeat(800)}\n`)],
    ['long-line.js', u(`${'x'.repeat(6000)}\n${'y;\n'.repeat(10)}`)],
    ['repetitive.ts', u(repeated('x = x + 1;', 120))],
    ['repetitive-spaces.ts', u(Array.from({ length: 120 }, (_, i) => ['\u00a0x = 1;\u2000', '  x = 1;\u2028', '\u1680x = 1;\u202f', '\u205fx = 1;\u2029\u200a'][i % 4]).join('\n'))],
    // U+3000 and U+FEFF are white space too (their lead bytes also say "maybe Han": with the fold, not tried).
    ['repetitive-wide-spaces.ts', u(Array.from({ length: 120 }, (_, i) => ['\u3000x = 1;', '\ufeffx = 1;\u3000', 'x = 1;'][i % 3]).join('\n'))],
    ['repetitive-not-spaces.ts', u(Array.from({ length: 120 }, (_, i) => `x = 1;${'\u200b'.repeat(i % 3)}`).join('\n'))],
    ['near-repetitive.ts', u(`${repeated('y = 2;', 60)}\nz = 3;\nw = 4;\n`)],
    ['blank-lines.ts', u(`${'\n'.repeat(70)}${c}`)],
    ['overlong.ts', Buffer.concat([u(c), Buffer.from([0xc0, 0x80])])],
    ['surrogate.ts', Buffer.concat([u(c), Buffer.from([0xed, 0xa0, 0x80])])],
    ['above-max.ts', Buffer.concat([u(c), Buffer.from([0xf4, 0x90, 0x80, 0x80])])],
    ['truncated.ts', Buffer.concat([u(c), Buffer.from([0xe2, 0x82])])],
    ['gb18030.ts', Buffer.concat([u(c), Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7])])],
    ['empty.ts', Buffer.alloc(0)],
    ['short.ts', u('let a = 1;\n')],
    ['prose.md', u('A few words of prose.\n'.repeat(40))],
    ['notebook.ipynb', u(JSON.stringify({ cells: [{ cell_type: 'code', source: c.split('\n').map((l) => `${l}\n`) }], metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5 }))],
    ['component.vue', u(`<template><div/></template>\n<script>\n${c}</script>\n`)],
    ['unknown.xyz', u(c)],
  ];
  for (const name of ['native/utf8code.c', 'native/readcode.c', 'src/node/workers/fingerprintFile.ts', 'src/node/workers/workerPool.ts', 'src/core/text/decodeText.ts']) out.push([path.basename(name), fs.readFileSync(path.join(REPO, name))]);
  return out;
}

const SETTINGS: Array<[string, EngineSettings]> = [
  ['defaults', { ...DEFAULT_ENGINE_SETTINGS }],
  ['normalized identifiers', { ...DEFAULT_ENGINE_SETTINGS, normalizeIdentifiers: true }],
  ['no variant fold', { ...DEFAULT_ENGINE_SETTINGS, foldVariants: false }],
  ['no sections, tf', { ...DEFAULT_ENGINE_SETTINGS, sections: false, weighting: 'tf' }],
  ['tfidf (without its table: tf)', { ...DEFAULT_ENGINE_SETTINGS, weighting: 'tfidf' }],
  ['a small size limit', { ...DEFAULT_ENGINE_SETTINGS, maxFileSizeBytes: 3000 }],
];

/** An outcome with its region buffer's views copied (the kernel's scratch is reused by the next file). */
function settled(o: FileOutcome): FileOutcome {
  return structuredClone(o);
}

function both(file: { path: string; relPath: string }, settings: EngineSettings, regions: boolean, buffers: boolean): [FileOutcome, FileOutcome] {
  useFastCode(false);
  try {
    const usual = settled(fingerprintFileSync(file, settings, undefined, undefined, regions, buffers));
    useFastCode(true);
    return [usual, settled(fingerprintFileSync(file, settings, undefined, undefined, regions, buffers))];
  } finally {
    useFastCode(true);
  }
}

(readCode ? describe : describe.skip)('fastCode: the worker fast path for code files', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-fast-code-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [label, settings] of SETTINGS) {
    for (const [regions, buffers] of [
      [false, false],
      [true, false],
      [true, true],
    ]) {
      it(`gives the usual path's outcomes (${label}${regions ? (buffers ? ', region buffers' : ', regions') : ''})`, () => {
        const before = fastCodeCounts.fast;
        for (const [name, bytes] of files()) {
          const file = { path: path.join(dir, name), relPath: name };
          fs.writeFileSync(file.path, bytes);
          const [usual, fast] = both(file, settings, regions, buffers);
          assert.deepStrictEqual(fast, usual, name);
        }
        assert.ok(fastCodeCounts.fast - before >= (settings.maxFileSizeBytes < 10000 ? 2 : 8), `${fastCodeCounts.fast - before} files taken by the fast path`);
      });
    }
  }

  it('takes plain UTF-8 code and leaves the rest to the usual path, with the reason', () => {
    const reasons: Record<string, string> = {};
    for (const [name, bytes] of files()) {
      const file = { path: path.join(dir, name), relPath: name };
      fs.writeFileSync(file.path, bytes);
      const before = { ...fastCodeCounts };
      fingerprintFileSync(file, DEFAULT_ENGINE_SETTINGS, undefined, undefined, true, true);
      reasons[name] = Object.keys(fastCodeCounts).find((k) => fastCodeCounts[k as keyof typeof fastCodeCounts] !== before[k as keyof typeof before]) ?? '?';
    }
    for (const name of ['plain.ts', 'crlf.ts', 'no-final-newline.py', 'multibyte.js', 'few-controls.rb', 'ansi.sh', 'near-repetitive.ts', 'repetitive-not-spaces.ts', 'blank-lines.ts', 'short.ts', 'utf8code.c', 'workerPool.ts']) {
      assert.equal(reasons[name], 'fast', name);
    }
    const expected: Record<string, string> = {
      'han.ts': 'han',
      'bom.ts': 'notUtf8',
      'latin1.c': 'notUtf8',
      'utf16le.cs': 'notUtf8',
      'utf16le-nobom.cs': 'notUtf8',
      'nul.go': 'notUtf8',
      'overlong.ts': 'notUtf8',
      'surrogate.ts': 'notUtf8',
      'above-max.ts': 'notUtf8',
      'truncated.ts': 'notUtf8',
      'controls.rb': 'control',
      'marked.ts': 'marked',
      'ignored.ts': 'marked',
      'minified.js': 'minified',
      'long-line.js': 'minified',
      'repetitive.ts': 'repetitive',
      'repetitive-spaces.ts': 'repetitive',
      'repetitive-wide-spaces.ts': 'han',
      'empty.ts': 'unusual',
      'prose.md': 'notTried',
      'notebook.ipynb': 'notTried',
      'component.vue': 'notTried',
      'unknown.xyz': 'fast', // unknown extensions are code (languages.ts)
    };
    for (const [name, why] of Object.entries(expected)) assert.equal(reasons[name], why, name);
  });

  it("leaves files it does not read to the usual path, which gives its reasons", () => {
    const real = path.join(dir, 'real.ts');
    fs.writeFileSync(real, code(mulberry32(3), 60));
    const cases: Array<[string, string]> = [['missing.ts', path.join(dir, 'missing.ts')], ['dir.ts', path.join(dir, 'dir.ts')], ['link.ts', path.join(dir, 'link.ts')], ['big.ts', real], ['fifo.ts', path.join(dir, 'fifo.ts')], ['unreadable.ts', path.join(dir, 'unreadable.ts')]];
    fs.mkdirSync(path.join(dir, 'dir.ts'));
    fs.symlinkSync(real, path.join(dir, 'link.ts'));
    fs.writeFileSync(path.join(dir, 'unreadable.ts'), 'let a = 1;\n');
    fs.chmodSync(path.join(dir, 'unreadable.ts'), 0);
    let fifo = true;
    try {
      execFileSync('mkfifo', [path.join(dir, 'fifo.ts')]);
    } catch {
      fifo = false;
    }
    const small = { ...DEFAULT_ENGINE_SETTINGS, maxFileSizeBytes: 100 };
    const out = new Uint32Array(2);
    const buffer = Buffer.alloc(1 << 16);
    for (const [name, file] of cases) {
      if (name === 'fifo.ts' && !fifo) continue;
      const settings = name === 'big.ts' ? small : DEFAULT_ENGINE_SETTINGS;
      const [usual, fast] = both({ path: file, relPath: name }, settings, true, true);
      assert.deepStrictEqual(fast, usual, name);
      const status = readCode!.call(kernel, file, buffer, settings.maxFileSizeBytes, 0, false, false, true, out);
      // Root reads a file of mode 0: the usual path does too.
      if (name === 'unreadable.ts' && usual.ok) continue;
      assert.equal(usual.ok, false, name);
      assert.equal(status, READ_UNUSUAL, name);
    }
    // A file the buffer cannot hold: read by the usual path.
    assert.equal(readCode!.call(kernel, real, Buffer.alloc(16), 1 << 20, 0, false, false, true, out), READ_UNUSUAL);
    assert.equal(readCode!.call(kernel, real, buffer, 1 << 20, 0, false, false, true, out) >= 0, true);
    fs.writeFileSync(path.join(dir, 'latin.ts'), Buffer.from('caf\u00e9\n', 'latin1'));
    assert.equal(readCode!.call(kernel, path.join(dir, 'latin.ts'), buffer, 1 << 20, 0, false, false, true, out), READ_PLAIN_NOT);
    assert.equal(out[0], 5, 'the bytes read');
  });
});
