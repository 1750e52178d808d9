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
import { code, FAST_PATH_SETTINGS, files } from './codeFiles';

type ReadCode = (path: string, buffer: Uint8Array, limit: number, languageId: number, normalize: boolean, region: boolean, fold: boolean, out: Uint32Array) => number;
const kernel = nativeKernel() as { readCode?: ReadCode; defineLanguage?: unknown } | undefined;
const readCode = kernel?.readCode;

const SETTINGS = FAST_PATH_SETTINGS;

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
    for (const name of ['plain.ts', 'crlf.ts', 'no-final-newline.py', 'multibyte.js', 'few-controls.rb', 'ansi.sh', 'near-repetitive.ts', 'many-lines.ts', 'many-lines-near.ts', 'repetitive-not-spaces.ts', 'blank-lines.ts', 'short.ts', 'utf8code.c', 'workerPool.ts', 'bom.ts', 'bom-only.ts', 'empty.ts']) {
      assert.equal(reasons[name], 'fast', name);
    }
    const expected: Record<string, string> = {
      'han.ts': 'han',
      'bom-twice.ts': 'notUtf8',
      'bom-bad.ts': 'notUtf8',
      'bom-controls.rb': 'control',
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
      'many-lines-repetitive.ts': 'repetitive',
      'repetitive-wide-spaces.ts': 'han',
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
