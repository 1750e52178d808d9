/**
 * Which @node-rs/jieba platform package holds the binary for the running process, and loading it
 * directly: the second way to jieba when its own `index.js` picks nothing (e.g. on Windows it
 * chooses the `-gnu` build whenever Node reports itself built as a shared library, as an embedded
 * Node may, and our packages ship the `-msvc` one). The packages of `npm run package:all` put
 * exactly this package beside `@node-rs/jieba` (scripts/lib/platformTargets.js; a unit test
 * holds the two tables together).
 */

/** The suffix of `@node-rs/jieba-<suffix>` for a platform, CPU and C library; null where none is shipped. */
export function jiebaPlatformSuffix(platform: string, arch: string, musl: boolean): string | null {
  if (platform === 'win32' && (arch === 'x64' || arch === 'arm64')) return `win32-${arch}-msvc`;
  if (platform === 'darwin' && (arch === 'x64' || arch === 'arm64')) return `darwin-${arch}`;
  if (platform === 'linux' && (arch === 'x64' || arch === 'arm64')) return `linux-${arch}-${musl ? 'musl' : 'gnu'}`;
  if (platform === 'linux' && arch === 'arm' && !musl) return 'linux-arm-gnueabihf';
  return null;
}

/** Whether this Linux process runs on musl (no glibc version in Node's diagnostic report). */
export function runsOnMusl(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
}

/** The Jieba class straight from this platform's binary package; throws when it is not there. */
export function requireJiebaPlatformBinding<T>(): T {
  const suffix = jiebaPlatformSuffix(process.platform, process.arch, runsOnMusl());
  if (!suffix) throw new Error(`no @node-rs/jieba binary for ${process.platform}-${process.arch}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`@node-rs/jieba-${suffix}`) as T;
}
