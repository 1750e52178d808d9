// The CLI run with V8's code cache (src/cli/process/codeCache.ts, esbuild.js): the build made the
// caches of dist/cliMain.js and dist/cliExtras.js for this Node and this build, and a start uses
// them; a cache of another build or Node, one whose bytes were damaged (V8 does not check them:
// such a cache crashed the process), one V8 refuses (other flags) or none at all is not used, and
// the run gives the same report; nothing is written unless the build asks.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { buildIdOf, cachedDataOf, cacheHeaderOf, writeCodeCache } from '../../../../src/cli/process/codeCache';

const REPO = path.join(__dirname, '..', '..', '..', '..');
const DIST = path.join(REPO, 'dist');
const FIXTURES = path.join(REPO, 'test', 'fixtures', 'workspace');
const BUNDLES = ['cli.js', 'cliMain.js', 'cliExtras.js', 'nativeKernel.js', 'worker.js'];
const CACHES = ['cliMain.js.cache', 'cliExtras.js.cache'];
/** zlib.crc32 (Node 20.15 and later): without it no cache is written nor used. */
const CRC = typeof zlib.crc32 === 'function';

/** A scan of the fixture workspace with `cli` (its JSON without the time; the trace's code cache lines). */
function scan(cli: string, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cli, 'scan', FIXTURES, '--format', 'json', '--no-progress'], {
    encoding: 'utf8',
    // (jieba from the repository's node_modules for a copy of the bundles outside it)
    env: { ...process.env, NEARDUP_TRACE: '1', NODE_PATH: path.join(REPO, 'node_modules'), ...env },
    timeout: 120000,
  });
  assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { stats: { elapsedMs?: number } };
  delete report.stats.elapsedMs;
  const caches = r.stderr.split('\n').filter((l) => l.startsWith('neardup: trace code cache ')).map((l) => l.slice('neardup: trace code cache '.length));
  return { report, caches };
}

describe('the CLI with V8 code caches (codeCache.ts)', function () {
  this.timeout(180000);
  let dir: string;
  before(function () {
    if (!fs.existsSync(path.join(DIST, 'cliMain.js'))) this.skip(); // (not built: node esbuild.js)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-code-cache-'));
  });
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  /** A copy of the built bundles (and the addon beside them) with `caches` (name → bytes; none by default). */
  function copyOfDist(name: string, caches: Record<string, Buffer> = {}): string {
    const to = path.join(dir, name);
    fs.mkdirSync(to);
    for (const f of [...BUNDLES, 'neardup_kernel.node', 'neardup_kernel.wasm']) if (fs.existsSync(path.join(DIST, f))) fs.copyFileSync(path.join(DIST, f), path.join(to, f));
    for (const [f, bytes] of Object.entries(caches)) fs.writeFileSync(path.join(to, f), bytes);
    return to;
  }

  it("the build made both caches for this Node and this build, and a start uses them", function () {
    if (!CRC) this.skip();
    for (const f of CACHES) {
      const cache = fs.readFileSync(path.join(DIST, f));
      const header = JSON.parse(cache.subarray(0, cache.indexOf(0x0a)).toString('utf8')) as Record<string, unknown>;
      const bundle = fs.readFileSync(path.join(DIST, f.replace(/\.cache$/, '')));
      assert.deepStrictEqual({ node: header.node, arch: header.arch, build: header.build }, cacheHeaderOf(bundle), f);
      assert.ok(Buffer.isBuffer(cachedDataOf(cache, cacheHeaderOf(bundle)!)), `${f}: its bytes check`);
    }
    assert.deepStrictEqual(scan(path.join(DIST, 'cli.js')).caches, ['cliMain.js used', 'cliExtras.js used']);
  });

  it('a cache of another build or Node, damaged, refused by V8 or absent is not used: the same report, nothing written', function () {
    if (!CRC) this.skip();
    const reference = scan(path.join(DIST, 'cli.js')).report;
    const real = Object.fromEntries(CACHES.map((f) => [f, fs.readFileSync(path.join(DIST, f))]));
    const withHeader = (cache: Buffer, edit: (h: Record<string, unknown>) => void) => {
      const eol = cache.indexOf(0x0a);
      const h = JSON.parse(cache.subarray(0, eol).toString('utf8')) as Record<string, unknown>;
      edit(h);
      return Buffer.concat([Buffer.from(`${JSON.stringify(h)}\n`), cache.subarray(eol + 1)]);
    };
    const damaged = (cache: Buffer) => {
      const copy = Buffer.from(cache);
      const from = copy.indexOf(0x0a) + 1 + (copy.length >> 2);
      for (let i = from; i < from + 64; i++) copy[i] ^= 0x5a; // (the same length: V8 alone would take it, and crash)
      return copy;
    };
    const cases: Array<[string, Record<string, Buffer>, string[], string]> = [
      ['another build', { 'cliMain.js.cache': withHeader(real['cliMain.js.cache'], (h) => (h.build = 'x1')), 'cliExtras.js.cache': real['cliExtras.js.cache'] }, [], 'cliMain.js stale,cliExtras.js used'],
      ['another Node', { 'cliMain.js.cache': withHeader(real['cliMain.js.cache'], (h) => (h.node = 'v0.0.0')), 'cliExtras.js.cache': withHeader(real['cliExtras.js.cache'], (h) => (h.arch = 'none')) }, [], 'cliMain.js stale,cliExtras.js stale'],
      ['damaged', { 'cliMain.js.cache': damaged(real['cliMain.js.cache']), 'cliExtras.js.cache': damaged(real['cliExtras.js.cache']) }, [], 'cliMain.js damaged,cliExtras.js damaged'],
      ['no cache file at all', { 'cliExtras.js.cache': Buffer.from('not a cache') }, [], 'cliMain.js none,cliExtras.js stale'],
      // (a V8 flag of the command line: the caches were made with V8's defaults)
      ['other V8 flags', real, ['--stack-size=2000'], 'cliMain.js rejected,cliExtras.js rejected'],
    ];
    for (const [what, caches, nodeArgs, states] of cases) {
      const copy = copyOfDist(what.replace(/\W+/g, '-'), caches);
      const before = fs.readdirSync(copy).sort();
      const run = scan(path.join(copy, 'cli.js'), {}, nodeArgs);
      assert.equal(run.caches.join(','), states, what);
      assert.deepStrictEqual(run.report, reference, `${what}: the same report`);
      assert.deepStrictEqual(fs.readdirSync(copy).sort(), before, `${what}: nothing written`);
    }
  });

  it('writes the caches only when asked (NEARDUP_CODE_CACHE_WRITE=1), for the build it runs; they are then used', function () {
    if (!CRC) this.skip();
    const copy = copyOfDist('written');
    assert.deepStrictEqual(scan(path.join(copy, 'cli.js')).caches, ['cliMain.js none', 'cliExtras.js none']);
    assert.ok(!CACHES.some((f) => fs.existsSync(path.join(copy, f))), 'none written unasked');
    scan(path.join(copy, 'cli.js'), { NEARDUP_CODE_CACHE_WRITE: '1', NEARDUP_V8_DEFAULTS: '1' });
    for (const f of CACHES) assert.ok(fs.existsSync(path.join(copy, f)), f);
    assert.deepStrictEqual(fs.readdirSync(copy).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
    assert.deepStrictEqual(scan(path.join(copy, 'cli.js')).caches, ['cliMain.js used', 'cliExtras.js used']);
  });

  it('reads the build id on the last lines; a header of other bytes, Node or no header is not the data', () => {
    assert.equal(buildIdOf(Buffer.from('code();\n//# neardupBuild=abc123\n//# sourceMappingURL=x.js.map\n')), 'abc123');
    assert.equal(buildIdOf(Buffer.from('code();\n')), '');
    assert.equal(cacheHeaderOf(Buffer.from('code();\n')), undefined, 'no build: no cache');
    const header = cacheHeaderOf(Buffer.from('x\n//# neardupBuild=b1\n'))!;
    assert.deepStrictEqual(header, { node: process.version, arch: process.arch, build: 'b1' });
    assert.equal(cachedDataOf(Buffer.from('no header line'), header), 'stale');
    assert.equal(cachedDataOf(Buffer.from('{not json\nxx'), header), 'stale');
    if (!CRC) return;
    const file = path.join(dir, 'unit.cache');
    writeCodeCache(file, header, Buffer.from([1, 2, 3, 4]));
    assert.deepStrictEqual([...(cachedDataOf(fs.readFileSync(file), header) as Buffer)], [1, 2, 3, 4]);
    assert.equal(cachedDataOf(fs.readFileSync(file), { ...header, build: 'b2' }), 'stale');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 1;
    assert.equal(cachedDataOf(bytes, header), 'damaged');
  });
});
