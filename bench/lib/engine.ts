/**
 * The engine code the benchmarks measure: re-exports of src/, bundled by bench/lib/common.js
 * (loadEngine) with the product's esbuild settings into bench/.cache/build/engine.js.
 */
export { fingerprintText, FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE, DEFAULT_MIN_TOKENS } from '../../src/core/fingerprint';
export { allPairsBatch, SimHashIndex, planBlocks } from '../../src/core/simhashIndex';
export { estimateJaccard } from '../../src/core/simhash';
export { hammingDistance } from '../../src/core/hamming';
export { decodeBuffer, isMinified } from '../../src/node/decode';
export { fingerprintDecoded } from '../../src/node/fingerprintFile';
export { findTwins } from '../../src/node/twins';
export { EngineState } from '../../src/node/engineState';
export { PoolFingerprinter } from '../../src/node/poolFingerprinter';
export { DEFAULT_ENGINE_SETTINGS } from '../../src/node/engineSettings';
export { nativeKernel, nativeKernelProblem } from '../../src/node/nativeKernel';
