// The compiled kernels the identity tests (native*.test.ts) hold to the TypeScript: the native
// addon when it is built here, and always the WebAssembly kernel, instantiated from the committed
// wasm/neardup_kernel.wasm (not through the Node loader's choice, so that both are tested in one run).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeKernel } from '../../../../src/core/types';
import { createWasmKernel } from '../../../../src/core/wasm/wasmKernel';
import { kernelKind, nativeKernel, nativeKernelProblem, nodeTextWriter } from '../../../../src/node/workers/nativeKernel';
import { threadedKernelOf, type ThreadedBucketKernel } from '../../../../src/node/locate/regionThreads';

export const WASM_PATH = path.join(__dirname, '..', '..', '..', '..', 'wasm', 'neardup_kernel.wasm');

let wasm: CodeKernel | undefined;

/** The WebAssembly kernel of the committed .wasm, one per thread, with Node's text copy (as the loader makes it). */
export function committedWasmKernel(): CodeKernel {
  wasm ??= createWasmKernel(fs.readFileSync(WASM_PATH), nodeTextWriter);
  return wasm;
}

export const KERNELS: { name: 'native' | 'wasm'; kernel: () => CodeKernel | undefined }[] = [
  { name: 'native', kernel: () => (kernelKind() === 'native' ? nativeKernel() : undefined) },
  { name: 'wasm', kernel: committedWasmKernel },
];

/**
 * The native kernel with its threaded bucket search (and with `plan`, its plan job, regionPlanAsync)
 * for the tests of its threads; fails naming why it is not loaded.
 */
export function threadedNativeKernel(plan = false): ThreadedBucketKernel & NonNullable<ReturnType<typeof nativeKernel>> {
  const k = threadedKernelOf(nativeKernel());
  assert.ok(k && (!plan || k.regionPlanAsync), `the native kernel with ${plan ? 'its plan job' : 'threads'}: ${nativeKernelProblem() ?? `loaded without ${plan ? 'regionPlanAsync' : 'regionBucketsAsync'}`}`);
  return k;
}
