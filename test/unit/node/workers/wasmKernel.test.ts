// The WebAssembly kernel as a file and a choice: the committed wasm/neardup_kernel.wasm is what
// scripts/build-wasm.js makes from native/ (when the toolchain is here), a standalone module with no
// imports; the Node loader picks the kernel NEARDUP_KERNEL asks for; and `neardup scan` writes the
// same bytes with the native, WebAssembly and TypeScript kernels. (Its results, call by call, are
// held to the TypeScript by native*.test.ts, which run every identity test on both kernels.)
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWasmKernel, KERNEL_VERSION, writeUnits } from '../../../../src/core/wasm/wasmKernel';
import { nodeTextWriter } from '../../../../src/node/workers/nativeKernel';
import { mulberry32 } from '../../helpers/corpus';
import { CLI, runCli } from '../../helpers/cli';
import { WASM_PATH } from './kernelsUnderTest';

const REPO = path.join(__dirname, '..', '..', '..', '..');
const BUILD = path.join(REPO, 'scripts', 'build-wasm.js');

// The global WebAssembly of Node (the project's lib declares none).
const WA = (globalThis as unknown as { WebAssembly: { Module: { new (b: Uint8Array): object; imports(m: object): unknown[]; exports(m: object): { name: string; kind: string }[] } } }).WebAssembly;

/** The export names native/wasm.c marks with export_name. */
function exportsOfGlue(): string[] {
  const c = fs.readFileSync(path.join(REPO, 'native', 'wasm.c'), 'utf8');
  return [...c.matchAll(/EXPORT\("(\w+)"\)/g)].map((m) => m[1]).sort();
}

describe('WebAssembly kernel', function () {
  this.timeout(120000);

  it('the committed .wasm is a standalone module: no imports, the exports of native/wasm.c and its memory', () => {
    const module = new WA.Module(fs.readFileSync(WASM_PATH));
    assert.deepEqual(WA.Module.imports(module), []);
    const exported = WA.Module.exports(module);
    const glue = exportsOfGlue();
    assert.ok(glue.length >= 25, `exports found in wasm.c: ${glue.join(' ')}`);
    assert.deepEqual(exported.filter((e) => e.kind === 'function').map((e) => e.name).sort(), glue);
    assert.deepEqual(exported.filter((e) => e.kind === 'memory').map((e) => e.name), ['memory']);
  });

  it('instantiates from bytes and from a compiled module, each its own state; refuses a module that is not a kernel', () => {
    const bytes = fs.readFileSync(WASM_PATH);
    const a = createWasmKernel(bytes);
    const b = createWasmKernel(new WA.Module(bytes) as Parameters<typeof createWasmKernel>[0]);
    assert.equal(a.version, KERNEL_VERSION);
    const la = a.defineLanguage(['//'], ['/*'], ['*/'], true);
    const lb = b.defineLanguage(['#'], [], [], false);
    assert.equal(a.tokenize('const x = 1; // one\nlet y = x + 2;\n', la, false), 12);
    assert.equal(b.tokenize('x = 1 # one\n', lb, false), 3);
    // Each instance keeps its own last tokenize.
    const n = 16;
    const [hi, lo, start] = [new Uint32Array(n), new Uint32Array(n), new Int32Array(n)];
    assert.equal(a.tokens(hi, lo, start), 12);
    assert.equal(b.tokens(hi, lo, start), 3);
    assert.equal(a.tokens(new Uint32Array(2), lo, start), -12, 'too small: minus the count');
    assert.throws(() => createWasmKernel(Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])), /not a NearDup kernel/);
    assert.throws(() => a.tokenize('x', 99, false), /unknown language/);
  });

  it("Node's copy of a text into the module (Buffer, utf16le) writes the units the portable loop writes: every unit value, lone surrogates, at an offset", () => {
    const every = String.fromCharCode(...Array.from({ length: 65536 }, (_, i) => i).slice(0, 30000)) + String.fromCharCode(...Array.from({ length: 35536 }, (_, i) => 30000 + i));
    const rnd = mulberry32(13);
    const texts = [every, '', 'a', '\ud800', 'x\udc00y\ud83d\ude00\ud83d', every.split('').reverse().join('')];
    for (let i = 0; i < 200; i++) texts.push(String.fromCharCode(...Array.from({ length: Math.floor(rnd() * 300) }, () => (rnd() < 0.3 ? 0xd800 + Math.floor(rnd() * 0x800) : Math.floor(rnd() * 65536)))));
    for (const text of texts) {
      const a = new ArrayBuffer(text.length * 2 + 16);
      const b = new ArrayBuffer(text.length * 2 + 16);
      writeUnits(text, a, 6);
      nodeTextWriter(text, b, 6);
      assert.ok(Buffer.from(a).equals(Buffer.from(b)), `a text of ${text.length} units`);
    }
  });

  it('rebuilding it from native/ gives the committed bytes (skipped without the toolchain, but with NEARDUP_REQUIRE_WASM=1, as in CI)', function () {
    const check = spawnSync(process.execPath, [BUILD, '--check'], { encoding: 'utf8' });
    if (check.status === 2 && process.env.NEARDUP_REQUIRE_WASM !== '1') this.skip();
    assert.equal(check.status, 0, check.stderr);
    if (/committed \.wasm was built with/.test(check.stdout) && process.env.NEARDUP_REQUIRE_WASM !== '1') this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-wasm-'));
    try {
      const out = path.join(dir, 'rebuilt.wasm');
      const r = spawnSync(process.execPath, [BUILD, '--out', out], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const rebuilt = fs.readFileSync(out);
      const committed = fs.readFileSync(WASM_PATH);
      assert.ok(rebuilt.equals(committed), `wasm/neardup_kernel.wasm is not what native/ builds (${rebuilt.length} vs ${committed.length} bytes): run npm run build:wasm and commit it`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the Node loader gives the kernel NEARDUP_KERNEL asks for; unset the native one, NEARDUP_NATIVE=0 the WebAssembly one', () => {
    const loader = path.join(REPO, 'src', 'node', 'workers', 'nativeKernel');
    const script = `const k = require(${JSON.stringify(loader)}); const kernel = k.nativeKernel(); console.log(k.kernelKind(), kernel ? typeof kernel.fingerprint : 'none');`;
    const kindUnder = (env: Record<string, string>): string => {
      const clean = { ...process.env };
      delete clean.NEARDUP_KERNEL;
      delete clean.NEARDUP_NATIVE;
      const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: REPO, encoding: 'utf8', env: { ...clean, ...env } });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim();
    };
    assert.equal(kindUnder({ NEARDUP_KERNEL: 'wasm' }), 'wasm function');
    assert.equal(kindUnder({ NEARDUP_KERNEL: 'ts' }), 'ts none');
    assert.equal(kindUnder({ NEARDUP_NATIVE: '0' }), 'wasm function');
    assert.equal(kindUnder({ NEARDUP_KERNEL: 'native' }), 'native function');
    assert.equal(kindUnder({}), 'native function');
  });

  it('neardup scan (with --locate) writes the same bytes under NEARDUP_KERNEL=native, wasm and ts, on the test workspace and this repository’s src/', function () {
    if (!fs.existsSync(CLI)) assert.fail(`${CLI} is not built (npm run build)`);
    for (const tree of [path.join(REPO, 'test', 'fixtures', 'workspace'), path.join(REPO, 'src')]) {
      const outputs = new Map<string, string>();
      for (const kernel of ['native', 'wasm', 'ts']) {
        const r = runCli(['scan', tree, '--format', 'json', '--locate', '--no-progress'], { env: { ...process.env, NEARDUP_KERNEL: kernel } });
        assert.equal(r.code, 0, r.stderr);
        // Only the TypeScript run says it has no kernel.
        if (kernel === 'ts') assert.match(r.stderr, /fingerprinting in JavaScript/);
        else assert.equal(r.stderr, '');
        outputs.set(kernel, r.stdout.replace(/"elapsedMs": \d+/, '"elapsedMs": 0'));
      }
      const report = JSON.parse(outputs.get('native')!) as { pairs?: unknown[]; groups?: unknown[] };
      assert.ok(JSON.stringify(report).length > 1000, `a report with content for ${tree}`);
      assert.equal(outputs.get('wasm'), outputs.get('native'), `${tree}: wasm ≠ native`);
      assert.equal(outputs.get('ts'), outputs.get('native'), `${tree}: ts ≠ native`);
    }
  });
});
