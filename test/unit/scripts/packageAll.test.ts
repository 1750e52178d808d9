/**
 * Platform packages (scripts/package-all.js): the native-binary header reader on made-up headers
 * and on every real jieba binary, then one real run of package-all writing all ten packages
 * (from the dist/ there is), each read back: headers, exactly its own jieba, the kernels, no
 * idf.txt, the size limit; the package of this machine loads its jieba, a foreign one falls back.
 * And the plain `npm run package` file list (.vscodeignore): the host's jieba only, no idf.txt.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readBinaryHeader, binaryProblems } from '../../../scripts/lib/binaryHeader';
import { TARGETS, hostTarget, targetRow, type TargetRow } from '../../../scripts/lib/platformTargets';
import { fetchLocked, readTarball } from '../../../scripts/lib/jiebaBinaries';
import { checkPackage, extractVsix, MAX_PACKAGE_BYTES } from '../../../scripts/lib/checkPackage';

const REPO = path.join(__dirname, '..', '..', '..');
const CACHE = path.join(REPO, '.cache', 'jieba');
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const WITH_JIEBA = TARGETS.filter((t) => t.jieba !== null);

/** A PE header (DLL) for a machine type. */
function pe(machine: number, dll = true): Buffer {
  const b = Buffer.alloc(0x200);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(machine, 0x84);
  b.writeUInt16LE(dll ? 0x2022 : 0x0022, 0x80 + 22);
  return b;
}

/** A 64-bit Mach-O header for a CPU type (filetype 6: a dynamic library). */
function macho(cputype: number, filetype = 6): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cputype, 4);
  b.writeUInt32LE(filetype, 12);
  return b;
}

describe('platform packages: native binary headers', () => {
  it('reads PE machines and Mach-O CPUs from made-up headers', () => {
    assert.deepEqual(readBinaryHeader(pe(0x8664)), { format: 'pe', cpu: 'x64', library: true });
    assert.deepEqual(readBinaryHeader(pe(0xaa64)), { format: 'pe', cpu: 'arm64', library: true });
    assert.equal(readBinaryHeader(pe(0x014c)).cpu, 'ia32');
    assert.deepEqual(readBinaryHeader(macho(0x01000007)), { format: 'macho', cpu: 'x64', library: true });
    assert.deepEqual(readBinaryHeader(macho(0x0100000c)), { format: 'macho', cpu: 'arm64', library: true });
    assert.equal(readBinaryHeader(macho(0x0100000c, 2)).library, false);
  });

  it('reads garbage, truncated and non-native files as unknown, without throwing', () => {
    const truncatedPe = pe(0x8664).subarray(0, 0x70);
    for (const buf of [Buffer.alloc(0), Buffer.from('#!/usr/bin/env node\nconsole.log(1)\n'), truncatedPe, Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from('\0asm\x01\0\0\0')]) {
      assert.equal(readBinaryHeader(buf).format, 'unknown');
    }
  });

  it('refuses a binary of another format, CPU, or a program instead of a library', () => {
    const winArm = targetRow('win32-arm64').binary!;
    assert.deepEqual(binaryProblems(readBinaryHeader(pe(0xaa64)), winArm), []);
    assert.deepEqual(binaryProblems(readBinaryHeader(pe(0x8664)), winArm), ['is for CPU x64, not arm64']);
    assert.deepEqual(binaryProblems(readBinaryHeader(pe(0xaa64, false)), winArm), ['is not a shared library']);
    assert.deepEqual(binaryProblems(readBinaryHeader(macho(0x0100000c)), winArm), ['is a macho binary, not pe']);
    assert.deepEqual(binaryProblems(readBinaryHeader(Buffer.from('text')), winArm), ['is not a PE, Mach-O or ELF binary, not pe']);
    // This Node itself: an ELF (or other) program, not a library.
    if (process.platform === 'linux') {
      const self = readBinaryHeader(fs.readFileSync(process.execPath));
      assert.equal(self.format, 'elf');
      assert.equal(self.library, false);
    }
  });

  it('each real jieba binary fits its own target and no other (PE, Mach-O, ELF CPU, armhf, glibc vs musl)', function () {
    this.timeout(120_000);
    const headers = new Map<string, ReturnType<typeof readBinaryHeader>>();
    for (const row of WITH_JIEBA) {
      const files = readTarball(fetchLocked(REPO, `@node-rs/jieba-${row.jieba}`, CACHE).file);
      const binary = files.get(`jieba.${row.jieba}.node`);
      assert.ok(binary, `@node-rs/jieba-${row.jieba} holds jieba.${row.jieba}.node`);
      headers.set(row.target, readBinaryHeader(binary));
    }
    assert.equal(headers.get('alpine-arm64')!.libc, 'musl');
    assert.equal(headers.get('linux-arm64')!.libc, 'glibc');
    assert.equal(headers.get('linux-armhf')!.hardFloat, true);
    for (const binaryOf of WITH_JIEBA) {
      for (const checkedAs of WITH_JIEBA) {
        const problems = binaryProblems(headers.get(binaryOf.target)!, checkedAs.binary!);
        if (binaryOf === checkedAs) assert.deepEqual(problems, [], `${binaryOf.target}'s binary for ${checkedAs.target}`);
        else assert.notDeepEqual(problems, [], `${binaryOf.target}'s binary must be refused for ${checkedAs.target}`);
      }
    }
  });

  it('names this machine\'s target as VS Code does', () => {
    assert.equal(hostTarget('linux', 'x64', false), 'linux-x64');
    assert.equal(hostTarget('linux', 'x64', true), 'alpine-x64');
    assert.equal(hostTarget('linux', 'arm', false), 'linux-armhf');
    assert.equal(hostTarget('darwin', 'arm64', false), 'darwin-arm64');
    assert.equal(hostTarget('win32', 'x64', false), 'win32-x64');
  });
});

describe('platform packages: npm run package:all', function () {
  this.timeout(180_000);
  let out: string;
  let report: string;
  const host = hostTarget();
  const hostRow = TARGETS.find((t) => t.target === host);
  const nativeBuilt = () => fs.existsSync(path.join(REPO, 'dist', 'neardup_kernel.node'));
  const vsix = (target: string) => path.join(out, `neardup-${target}-${VERSION}.vsix`);

  before(() => {
    // `npm test` builds first; a unit run on a fresh clone builds here (bundles and native kernel).
    if (!fs.existsSync(path.join(REPO, 'dist', 'extension.js')) || !fs.existsSync(path.join(REPO, 'dist', 'neardup_kernel.wasm'))) {
      for (const script of ['scripts/build-native.js', 'esbuild.js']) {
        const b = spawnSync(process.execPath, [path.join(REPO, script)], { cwd: REPO, encoding: 'utf8' });
        assert.equal(b.status, 0, `${script}: ${b.stderr}`);
      }
    }
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-packages-'));
    const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'package-all.js'), '--no-build', '--out', out, '--cache', CACHE], {
      cwd: REPO,
      encoding: 'utf8',
    });
    report = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.status, 0, `package-all failed:\n${report.slice(-3000)}`);
  });

  after(() => {
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('writes the ten packages, named by target, and prints each size', () => {
    assert.deepEqual(
      fs.readdirSync(out).filter((f) => f.endsWith('.vsix')).sort(),
      TARGETS.map((t) => `neardup-${t.target}-${VERSION}.vsix`).sort(),
    );
    for (const t of TARGETS) assert.match(report, new RegExp(`neardup-${t.target}-${VERSION.replace(/\./g, '\\.')}\\.vsix +\\d+\\.\\d\\d MB`));
  });

  for (const row of TARGETS) {
    it(`${row.target}: every .node fits the target, exactly its own jieba, the wasm kernel, no idf.txt, under 6 MB`, async () => {
      const nativeKernel = row.target === host && nativeBuilt();
      const check = await checkPackage(vsix(row.target), row, { nativeKernel });
      assert.deepEqual(check.problems, []);
      const jieba = check.nodeFiles.filter((f) => f.path.includes('/node_modules/'));
      if (row.jieba) {
        assert.equal(jieba.length, 1);
        assert.equal(jieba[0].path, `extension/node_modules/@node-rs/jieba-${row.jieba}/jieba.${row.jieba}.node`);
        assert.equal(jieba[0].header.format, row.binary!.format);
        assert.equal(jieba[0].header.cpu, row.binary!.cpu);
      } else {
        assert.deepEqual(check.nodeFiles, [], 'the web package has no native code');
      }
      assert.ok(check.entries.includes('extension/dist/neardup_kernel.wasm'));
      assert.equal(check.entries.includes('extension/dist/neardup_kernel.node'), nativeKernel);
      assert.ok(!check.entries.some((e) => e.endsWith('idf.txt')));
      assert.ok(check.bytes < MAX_PACKAGE_BYTES, `${check.bytes} bytes`);
    });
  }

  it('the checker refuses a package read as another target (a foreign jieba binary)', async () => {
    const check = await checkPackage(vsix('alpine-x64'), targetRow('linux-x64'), { nativeKernel: false });
    assert.ok(check.problems.some((p) => /jieba\.linux-x64-musl\.node links musl/.test(p)), check.problems.join('\n'));
    assert.ok(check.problems.some((p) => /TargetPlatform is alpine-x64/.test(p)));
  });

  /** The extension folder of a package, unpacked. */
  async function unpack(target: string): Promise<string> {
    const dir = path.join(out, `x-${target}`);
    await extractVsix(vsix(target), dir);
    return path.join(dir, 'extension');
  }

  it('in every package, @node-rs/jieba resolves its platform package to the binary shipped', async () => {
    for (const row of WITH_JIEBA) {
      const ext = await unpack(row.target);
      const from = path.join(ext, 'node_modules', '@node-rs', 'jieba');
      const resolved = require.resolve(`@node-rs/jieba-${row.jieba}`, { paths: [from] });
      assert.equal(resolved, path.join(ext, 'node_modules', '@node-rs', `jieba-${row.jieba}`, `jieba.${row.jieba}.node`));
    }
  });

  it("this machine's package loads jieba in its CLI; another platform's falls back to bigrams", async function () {
    if (!hostRow || !hostRow.jieba) this.skip();
    const docs = path.join(out, 'docs');
    fs.mkdirSync(docs, { recursive: true });
    const text = '我们在这里讨论一个非常重要的问题，关于中文分词的质量和速度。\n'.repeat(20);
    fs.writeFileSync(path.join(docs, 'a.md'), text);
    fs.writeFileSync(path.join(docs, 'b.md'), `${text}另外的句子。\n`);
    const scan = (ext: string) => spawnSync(process.execPath, [path.join(ext, 'dist', 'cli.js'), 'scan', docs], { encoding: 'utf8' });
    const own = scan(await unpack(host));
    assert.equal(own.status, 0, own.stderr);
    assert.match(own.stdout, /1 groups of near-duplicate files/);
    assert.doesNotMatch(own.stderr, /could not be loaded/);
    const foreign = WITH_JIEBA.find((t) => t.target !== host)!;
    const other = scan(await unpack(foreign.target));
    assert.equal(other.status, 0, other.stderr);
    assert.match(other.stderr, /jieba\) could not be loaded .*falling back to character bigrams/);
    // jieba's index.js picking no binary (as on Windows when Node says it is a shared library):
    // the packaged workers load this platform's package directly (src/node/cjk/jiebaPlatform.ts).
    const ext = await unpack(host);
    fs.writeFileSync(path.join(ext, 'node_modules', '@node-rs', 'jieba', 'index.js'), "throw new Error('index.js picked no binding');\n");
    const direct = scan(ext);
    assert.equal(direct.status, 0, direct.stderr);
    assert.doesNotMatch(direct.stderr, /could not be loaded/);
    assert.equal(direct.stdout.replace(/ in [\d.]+ s/, ''), own.stdout.replace(/ in [\d.]+ s/, ''));
  });
});

describe('platform packages: npm run package (this machine)', function () {
  this.timeout(60_000);
  it(".vscodeignore ships jieba's dictionary and this machine's binary only, never idf.txt", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { listFiles } = require('@vscode/vsce') as { listFiles(o: object): Promise<string[]> };
    const files = await listFiles({ cwd: REPO, useYarn: false });
    assert.ok(files.includes('node_modules/@node-rs/jieba/dict.txt'));
    assert.ok(files.includes('node_modules/@node-rs/jieba/index.js'));
    assert.ok(!files.some((f) => f.endsWith('idf.txt')));
    const installed = fs
      .readdirSync(path.join(REPO, 'node_modules', '@node-rs'))
      .filter((d) => d.startsWith('jieba-'))
      .map((d) => d.slice('jieba-'.length));
    const nodeFiles = files.filter((f) => f.startsWith('node_modules/') && f.endsWith('.node'));
    assert.deepEqual(nodeFiles.sort(), installed.map((p) => `node_modules/@node-rs/jieba-${p}/jieba.${p}.node`).sort());
    const hostRow: TargetRow | undefined = TARGETS.find((t) => t.target === hostTarget());
    if (hostRow?.jieba) assert.deepEqual(installed, [hostRow.jieba]);
  });
});
