/**
 * Loads the native fingerprinting kernel (native/kernel.c, built by scripts/build-native.js into
 * build/Release/ and copied next to the bundles in dist/) for this thread, and hands it what it
 * must agree on with the TypeScript: the Unicode word-character table and Math.log of counts.
 *
 * Without it (not built for this platform, or NEARDUP_NATIVE=0) fingerprinting stays in the
 * TypeScript of src/core, which gives the same results, slower.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unicodeWordTable } from '../../core/text/tokenize';
import type { CodeKernel } from '../../core/types';

export const KERNEL_FILE = 'neardup_kernel.node';
/**
 * The version of the kernel's interface this code speaks (KERNEL_VERSION of native/kernel.c): an
 * addon built from older sources would misread newer calls (say, ignore comment syntaxes it does
 * not know), so it is not used.
 */
export const KERNEL_VERSION = 3;

/** Counts below this get Math.log from the table; the kernel uses C's log above (never reached in practice). */
const LOG_TABLE_SIZE = 1 << 16;

interface NativeModule extends CodeKernel {
  version?: number;
  init(wordTable: Uint8Array, logTable: Float64Array): number;
}

/**
 * Where the kernel may be: beside the bundle (dist/), or in build/Release of this project's
 * checkout up to three folders above (dist/, src/node/, out/test/… and bench/.cache/build/) —
 * only a folder whose package.json is NearDup's, so that no other folder's addon is ever loaded.
 */
export function kernelCandidates(from: string = __dirname): string[] {
  const found: string[] = [];
  if (process.env.NEARDUP_KERNEL_PATH) found.push(process.env.NEARDUP_KERNEL_PATH);
  found.push(path.join(from, KERNEL_FILE));
  let dir = from;
  for (let up = 0; up < 3; up++) {
    dir = path.dirname(dir);
    if (isNearDupCheckout(dir)) found.push(path.join(dir, 'build', 'Release', KERNEL_FILE));
  }
  return found;
}

function isNearDupCheckout(dir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'neardup';
  } catch {
    return false;
  }
}

let state: { kernel: CodeKernel | undefined; problem: string | undefined } | undefined;

/**
 * This thread's kernel (loaded and initialised once), or undefined with the reason in
 * `nativeKernelProblem()`.
 */
export function nativeKernel(): CodeKernel | undefined {
  state ??= load();
  return state.kernel;
}

/** Why there is no kernel (undefined when there is one, or none was asked for yet). */
export function nativeKernelProblem(): string | undefined {
  return state?.problem;
}

function load(): { kernel: CodeKernel | undefined; problem: string | undefined } {
  if (process.env.NEARDUP_NATIVE === '0') return { kernel: undefined, problem: 'turned off (NEARDUP_NATIVE=0)' };
  const file = kernelCandidates().find((p) => fs.existsSync(p));
  if (!file) return { kernel: undefined, problem: `not built for this platform (${process.platform}-${process.arch})` };
  try {
    // A runtime path: the bundler leaves this require to Node, which loads the addon.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(file) as NativeModule;
    if (mod.version !== KERNEL_VERSION) {
      return { kernel: undefined, problem: `outdated (version ${mod.version ?? 1}, expected ${KERNEL_VERSION}; npm run build:native)` };
    }
    const logs = new Float64Array(LOG_TABLE_SIZE);
    for (let n = 1; n < LOG_TABLE_SIZE; n++) logs[n] = Math.log(n);
    mod.init(unicodeWordTable(), logs);
    return { kernel: mod, problem: undefined };
  } catch (e) {
    return { kernel: undefined, problem: `not loadable (${(e as Error).message.split('\n')[0]})` };
  }
}
