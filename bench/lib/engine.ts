/**
 * The engine code the benchmarks measure: re-exports of src/, bundled by bench/lib/common.js
 * (loadEngine) with the product's esbuild settings into bench/.cache/build/engine.js.
 */
export { fingerprintText, FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE, DEFAULT_MIN_TOKENS } from '../../src/core/fingerprint/fingerprint';
export { allPairsBatch, nativeCandidates } from '../../src/core/index/allPairs';
export { codeSections } from '../../src/core/sections/codeSections';
export { proseSections } from '../../src/core/sections/proseSections';
export { buildReport } from '../../src/core/report/report';
export { SimHashIndex } from '../../src/core/index/simhashIndex';
export { planBlocks } from '../../src/core/index/blockLayout';
export { estimateJaccard } from '../../src/core/fingerprint/simhash';
export { hammingDistance } from '../../src/core/index/hamming';
export { decodeBuffer, isMinified } from '../../src/node/files/decode';
export { fingerprintDecoded } from '../../src/node/workers/fingerprintFile';
export { findTwins } from '../../src/node/engine/twins';
export { EngineState } from '../../src/node/engine/engineState';
export { PoolFingerprinter } from '../../src/node/engine/poolFingerprinter';
export { DEFAULT_ENGINE_SETTINGS } from '../../src/node/settings/engineSettings';
export { kernelKind, nativeKernel, nativeKernelProblem, nodeTextWriter } from '../../src/node/workers/nativeKernel';
export { createWasmKernel } from '../../src/core/wasm/wasmKernel';
