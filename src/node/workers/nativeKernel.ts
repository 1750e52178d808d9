/**
 * Loads this thread's fingerprinting kernel: the native addon (native/kernel.c, built by
 * scripts/build-native.js into build/Release/ and copied next to the bundles in dist/), or else the
 * WebAssembly kernel (the same C compiled to wasm/neardup_kernel.wasm, committed, copied next to
 * the bundles; src/core/wasm), and hands it what it must agree on with the TypeScript: the Unicode
 * word-character table and Math.log of counts.
 *
 * NEARDUP_KERNEL=native|wasm|ts picks one (tests and benches); unset, the best that loads.
 * NEARDUP_NATIVE=0 (older switch) leaves the addon out: the WebAssembly kernel, else TypeScript.
 * Without any kernel fingerprinting stays in the TypeScript of src/core: same results, slower.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeKernel } from '../../core/types';
import type { DirectoryLister } from '../files/nativeListing';
import { KERNEL_VERSION, createWasmKernel, kernelTables, type TextWriter } from '../../core/wasm/wasmKernel';

export const KERNEL_FILE = 'neardup_kernel.node';
export const WASM_FILE = 'neardup_kernel.wasm';
export { KERNEL_VERSION };

/** Which kernel fingerprints: the native addon, the WebAssembly module, or none (TypeScript). */
export type KernelKind = 'native' | 'wasm' | 'ts';

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
  for (const dir of checkoutsAbove(from)) found.push(path.join(dir, 'build', 'Release', KERNEL_FILE));
  return found;
}

/** Where the WebAssembly kernel may be: beside the bundle, or in wasm/ of this project's checkout (as above). */
export function wasmCandidates(from: string = __dirname): string[] {
  const found: string[] = [];
  if (process.env.NEARDUP_WASM_PATH) found.push(process.env.NEARDUP_WASM_PATH);
  found.push(path.join(from, WASM_FILE));
  for (const dir of checkoutsAbove(from)) found.push(path.join(dir, 'wasm', WASM_FILE));
  return found;
}

function checkoutsAbove(from: string): string[] {
  const found: string[] = [];
  let dir = from;
  for (let up = 0; up < 3; up++) {
    dir = path.dirname(dir);
    if (isNearDupCheckout(dir)) found.push(dir);
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

/** Entries of the log table handed to the kernel (LOG_TABLE_SIZE of core/wasm/wasmKernel.ts). */
const LOG_ENTRIES = 1 << 16;
const WORD_ENTRIES = 1 << 16;
/** Layout of the shared tables: a state word (0 being made, 1 ready, 2 make your own), the log table, the word table. */
const LOG_AT = 8;
const WORD_AT = LOG_AT + LOG_ENTRIES * 8;
const TABLE_WAIT_MS = 5000;

/** This thread's tables for the kernel, once made or received. */
let tables: { wordTable: Uint8Array; logTable: Float64Array } | undefined;
/** Shared tables another thread is filling (useKernelTables). */
let sharedTables: SharedArrayBuffer | undefined;

/**
 * Room for the kernel's tables, to hand to worker threads (workerData) before they start; the
 * starting thread then fills it once ({@link fillKernelTables}) while they boot, instead of every
 * thread making its own (~10 ms of cold JavaScript each for 65,536 Math.log, and ~13 ms more for
 * the Unicode classes where the engine's version is not the stored runs': wordRuns.ts).
 */
export function kernelTablesBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(WORD_AT + WORD_ENTRIES);
}

/**
 * Loads this thread's kernel and, when it is the addon, fills a {@link kernelTablesBuffer} with
 * its tables; wakes the threads waiting for them (told to make their own otherwise).
 */
export function fillKernelTables(buffer: SharedArrayBuffer): void {
  const state = new Int32Array(buffer, 0, 1);
  try {
    nativeKernel(); // this thread's kernel: made with `tables` when it is the addon
    const own = tables;
    if (!own) throw new Error('no native kernel');
    if (own.logTable.length !== LOG_ENTRIES || own.wordTable.length !== WORD_ENTRIES) throw new Error('kernel table sizes');
    new Float64Array(buffer, LOG_AT, LOG_ENTRIES).set(own.logTable);
    new Uint8Array(buffer, WORD_AT, WORD_ENTRIES).set(own.wordTable);
    Atomics.store(state, 0, 1);
  } catch {
    Atomics.store(state, 0, 2);
  }
  Atomics.notify(state, 0);
}

/** This worker's kernel takes its tables from `buffer`, which the thread that started it fills ({@link fillKernelTables}). */
export function useKernelTables(buffer: SharedArrayBuffer): void {
  if (buffer.byteLength === WORD_AT + WORD_ENTRIES) sharedTables = buffer;
}

/** The tables for this thread's kernel: the shared ones when ready (waited for a few seconds at most), else its own. */
function kernelTablesOfThread(): { wordTable: Uint8Array; logTable: Float64Array } {
  if (tables) return tables;
  if (sharedTables) {
    const state = new Int32Array(sharedTables, 0, 1);
    if (Atomics.load(state, 0) === 0) Atomics.wait(state, 0, 0, TABLE_WAIT_MS);
    if (Atomics.load(state, 0) === 1) {
      return (tables = { wordTable: new Uint8Array(sharedTables, WORD_AT, WORD_ENTRIES), logTable: new Float64Array(sharedTables, LOG_AT, LOG_ENTRIES) });
    }
  }
  return (tables = kernelTables(process.versions.unicode));
}

let state: { kernel: CodeKernel | undefined; kind: KernelKind; native?: string; wasm?: string } | undefined;

/**
 * This thread's kernel (loaded and initialised once): the addon or the WebAssembly module, or
 * undefined (TypeScript) with the reasons in `nativeKernelProblem()` and `wasmKernelProblem()`.
 */
export function nativeKernel(): CodeKernel | undefined {
  state ??= load();
  return state.kernel;
}

/**
 * The native addon's directory listing for the synchronous walk (files/walk.ts `lister`,
 * native/listdir.c), where the addon is loaded and has it (not on Windows); else undefined: the
 * walk keeps Node's calls.
 */
export function nativeLister(): DirectoryLister | undefined {
  const k = nativeKernel() as (CodeKernel & { listDir?: DirectoryLister }) | undefined;
  const listDir = k?.listDir;
  return listDir ? (absDir) => listDir.call(k, absDir) : undefined;
}

/** What the addon says of huge pages (native/hugepages.c, regionblocks.c). */
export interface HugePagesState {
  /** Whether the addon marks big arrays for huge pages now. */
  inUse: boolean;
  /** The verdict of the region documents' trial of both kinds of page (1 huge pages, 0 4 KB ones; -1 none yet). */
  verdict: number;
  /** The CPU ms a MB of region documents cost to write first in huge pages and in 4 KB ones (-1: not measured). */
  hugeMsPerMb: number;
  smallMsPerMb: number;
}

/** {@link HugePagesState} of this process, where the native addon fingerprints; else undefined. */
export function hugePagesState(): HugePagesState | undefined {
  const k = nativeKernel() as (CodeKernel & { hugePages?: () => HugePagesState }) | undefined;
  return typeof k?.hugePages === 'function' ? k.hugePages() : undefined;
}

/** Which kernel `nativeKernel()` gives: 'native', 'wasm' or 'ts' (none). */
export function kernelKind(): KernelKind {
  state ??= load();
  return state.kind;
}

/** Why the native addon is not used (undefined when it is, or none was asked for yet). */
export function nativeKernelProblem(): string | undefined {
  return state?.native;
}

/** Why the WebAssembly kernel is not used when the addon is not either (undefined otherwise). */
export function wasmKernelProblem(): string | undefined {
  return state?.wasm;
}

/** A line saying which kernel fingerprints code and, when not the addon, why. */
export function kernelSummary(): string {
  state ??= load();
  if (state.kind === 'native') return 'native';
  if (state.kind === 'wasm') return `wasm (native kernel ${state.native})`;
  return `typescript (native kernel ${state.native}${state.wasm ? `; WebAssembly kernel ${state.wasm}` : ''})`;
}

function load(): { kernel: CodeKernel | undefined; kind: KernelKind; native?: string; wasm?: string } {
  const asked = process.env.NEARDUP_KERNEL;
  if (asked === 'ts') return { kernel: undefined, kind: 'ts', native: 'turned off (NEARDUP_KERNEL=ts)' };
  let native: string;
  if (asked === 'wasm') native = 'not asked for (NEARDUP_KERNEL=wasm)';
  else if (process.env.NEARDUP_NATIVE === '0') native = 'turned off (NEARDUP_NATIVE=0)';
  else {
    const n = loadNative();
    if (n.kernel) return { kernel: n.kernel, kind: 'native' };
    native = n.problem;
    if (asked === 'native') return { kernel: undefined, kind: 'ts', native };
  }
  const w = loadWasm();
  if (w.kernel) return { kernel: w.kernel, kind: 'wasm', native };
  return { kernel: undefined, kind: 'ts', native, wasm: w.problem };
}

function loadNative(): { kernel: CodeKernel; problem?: undefined } | { kernel?: undefined; problem: string } {
  const file = kernelCandidates().find((p) => fs.existsSync(p));
  if (!file) return { problem: `not built for this platform (${process.platform}-${process.arch})` };
  try {
    // A runtime path: the bundler leaves this require to Node, which loads the addon.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(file) as NativeModule;
    if (mod.version !== KERNEL_VERSION) {
      return { problem: `outdated (version ${mod.version ?? 1}, expected ${KERNEL_VERSION}; npm run build:native)` };
    }
    const { wordTable, logTable } = kernelTablesOfThread();
    mod.init(wordTable, logTable);
    return { kernel: mod };
  } catch (e) {
    return { problem: `not loadable (${(e as Error).message.split('\n')[0]})` };
  }
}

/** A Buffer over the whole of the module's memory, made again when the memory grows (a new ArrayBuffer). */
let memoryBuffer: { memory: ArrayBuffer; buffer: Buffer } | undefined;

/**
 * Node's copy of a text into the WebAssembly kernel's memory: Buffer's 'utf16le' write copies the
 * string's units as they are (lone surrogates too; the identity tests run through it), several
 * times faster than a charCodeAt loop; through one Buffer per memory, not a new one per text.
 */
export const nodeTextWriter: TextWriter = (text, memory, byteOffset) => {
  if (memoryBuffer?.memory !== memory) memoryBuffer = { memory, buffer: Buffer.from(memory) };
  memoryBuffer.buffer.write(text, byteOffset, text.length * 2, 'utf16le');
};

function loadWasm(): { kernel: CodeKernel; problem?: undefined } | { kernel?: undefined; problem: string } {
  const file = wasmCandidates().find((p) => fs.existsSync(p));
  if (!file) return { problem: `not found (${WASM_FILE})` };
  try {
    return { kernel: createWasmKernel(fs.readFileSync(file), nodeTextWriter) };
  } catch (e) {
    return { problem: `not loadable (${(e as Error).message.split('\n')[0]})` };
  }
}
