/**
 * The CLI's bundles run with V8's code caches (issue 16). `dist/cli.js` is this loader;
 * `dist/cliMain.js` is the CLI and `dist/cliExtras.js` its lazy part (loaded through
 * {@link LOAD_BUNDLE}); `<bundle>.cache` holds the bytecode of the functions a scan runs, made by
 * the build (esbuild.js: one scan of the fixture workspace with V8's default flags,
 * NEARDUP_CODE_CACHE_WRITE=1) with the Node that built it. A start then compiles none of them:
 * the bundles' own compile (~7 ms for cliMain.js's ~540 KB) and every function's first call (lazy
 * compilation, the interpreted tail of a scan's main thread among them) are read instead.
 *
 * The cache is used only when its header names this Node (version and architecture) and the
 * bundle's build (the id the build writes on the bundle's last lines, esbuild.js: a bundle
 * built again without its cache finds it stale), and V8 accepts it (its version, flags and the
 * source's length: a `NODE_OPTIONS` flag, say, refuses it). Otherwise the bundle is compiled
 * as Node would; the run is the same. (A hash of the bundle's bytes would cost the start more
 * than a tenth of the gain: loading node:crypto alone takes ~2 ms, which the CLI never needs.)
 * V8's data is checked against the CRC-32 the header holds (zlib.crc32, Node 20.15 and later:
 * ~0.1 ms; zlib is loaded by every scan anyway): V8 does not check its code cache's bytes in a
 * release build, and a damaged cache of the right length crashes the process. Without
 * zlib.crc32 the cache is not used. Nothing is written except by the build (the package's own
 * folder, never a workspace), then at exit, beside the bundle, atomically.
 */
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';

/**
 * What became of a bundle's code cache: used; refused by V8; made for another build or Node, or
 * unreadable; its bytes not those it was made with, or not checkable here (no zlib.crc32); absent.
 */
export type CodeCacheState = 'used' | 'rejected' | 'stale' | 'damaged' | 'none';

/** What a cache file's first line says of the cache (the build and Node it was made for). */
interface CacheHeader {
  node: string;
  arch: string;
  build: string;
}

/** The CRC-32 of `data` (zlib's), or undefined where this Node has none (before 20.15). */
const crc32Of = (data: Buffer): number | undefined => (typeof zlib.crc32 === 'function' ? zlib.crc32(data) : undefined);

/** What names a bundle's build on its last lines (esbuild.js writes it: `//# neardupBuild=<id>`). */
const BUILD_MARK = '//# neardupBuild=';

/** The build id on the last lines of `bundle` ('' when it has none: a cache is then never used). */
export function buildIdOf(bundle: Buffer): string {
  const tail = bundle.subarray(Math.max(0, bundle.length - 512)).toString('latin1');
  const at = tail.lastIndexOf(BUILD_MARK);
  return at < 0 ? '' : /^[0-9a-z]+/.exec(tail.slice(at + BUILD_MARK.length))?.[0] ?? '';
}

/** The header a cache of `bundle` made by this Node has (undefined when the bundle names no build). */
export function cacheHeaderOf(bundle: Buffer): CacheHeader | undefined {
  const build = buildIdOf(bundle);
  return build ? { node: process.version, arch: process.arch, build } : undefined;
}

/** The cache file of a bundle. */
const cacheFileOf = (bundleFile: string): string => `${bundleFile}.cache`;

/**
 * V8's data in `cache` when its header is `want`'s and the data its CRC-32; 'stale' when it names
 * another build or another Node, or is no cache file; 'damaged' when its bytes are not those it
 * was written with (or cannot be checked here).
 */
export function cachedDataOf(cache: Buffer, want: CacheHeader): Buffer | 'stale' | 'damaged' {
  const eol = cache.indexOf(0x0a);
  if (eol < 0 || eol > 1024) return 'stale';
  let header: Partial<CacheHeader & { crc32: number }>;
  try {
    header = JSON.parse(cache.subarray(0, eol).toString('utf8')) as Partial<CacheHeader & { crc32: number }>;
  } catch {
    return 'stale';
  }
  if (header.node !== want.node || header.arch !== want.arch || header.build !== want.build) return 'stale';
  const data = cache.subarray(eol + 1);
  const crc = crc32Of(data);
  return crc !== undefined && crc === header.crc32 ? data : 'damaged';
}

/** `data` as the cache file of a bundle of header `header` (its CRC-32 added), written beside it and renamed over the old one. */
export function writeCodeCache(cacheFile: string, header: CacheHeader, data: Buffer): void {
  const crc32 = crc32Of(data);
  if (crc32 === undefined) throw new Error('this Node has no zlib.crc32 to check it with');
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, crc32 })}\n`), data]));
    fs.renameSync(tmp, cacheFile);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Where the loader's {@link loadBundle} is for the bundles it runs (their lazy parts: esbuild.js, dist/cliExtras.js). */
export const LOAD_BUNDLE = Symbol.for('neardup.loadBundle');

/** Each bundle loaded, by path: its module (one evaluation, as Node's require). */
const loaded = new Map<string, NodeJS.Module>();

/**
 * The exports of the CommonJS bundle `file`, run as Node's loader would (its own `require`,
 * `module`, `__filename`, `__dirname`; once), compiled with its code cache when that fits. With
 * NEARDUP_TRACE=1, one line says what became of the cache; with NEARDUP_CODE_CACHE_WRITE=1, the
 * cache of what the run compiled is written at exit.
 */
export function loadBundle(file: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const known = loaded.get(file);
  if (known) return known.exports;
  const bytes = fs.readFileSync(file);
  const cacheFile = cacheFileOf(file);
  let state: CodeCacheState = 'none';
  let cachedData: Buffer | undefined;
  let header: CacheHeader | undefined;
  let cache: Buffer | undefined;
  try {
    cache = fs.readFileSync(cacheFile);
  } catch {
    // none: compiled as Node would
  }
  if (cache) {
    header = cacheHeaderOf(bytes);
    const data = header ? cachedDataOf(cache, header) : 'stale';
    if (typeof data === 'string') state = data;
    else cachedData = data;
  }
  const script = new vm.Script(nodeModule.wrap(bytes.toString('utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (cachedData) state = script.cachedDataRejected ? 'rejected' : 'used';
  if (env.NEARDUP_TRACE === '1') process.stderr.write(`neardup: trace code cache ${path.basename(file)} ${state}\n`);
  if (env.NEARDUP_CODE_CACHE_WRITE === '1') {
    process.once('exit', () => {
      const made = header ?? cacheHeaderOf(bytes);
      try {
        if (!made) throw new Error('the bundle names no build (//# neardupBuild=…)');
        writeCodeCache(cacheFile, made, script.createCachedData());
      } catch (e) {
        process.stderr.write(`neardup: the code cache ${cacheFile} was not written: ${(e as Error).message}\n`);
      }
    });
  }
  const Module = nodeModule.Module as unknown as new (id: string, parent?: unknown) => NodeJS.Module & { paths: string[] };
  const m = new Module(file, require.main);
  m.filename = file;
  m.paths = (nodeModule.Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  loaded.set(file, m);
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(m.exports, m.exports, nodeModule.createRequire(file), m, file, path.dirname(file));
  m.loaded = true;
  return m.exports;
}

/** Runs the CLI's bundle `file` with {@link loadBundle}, which its lazy parts find at {@link LOAD_BUNDLE}. */
export function runCli(file: string): void {
  (globalThis as Record<symbol, unknown>)[LOAD_BUNDLE] = loadBundle;
  loadBundle(file);
}
