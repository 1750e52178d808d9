/**
 * The region finder the localisation study measures (bench/quality/locate-regions.js): src/core/regions
 * with the product's tokenisers, and jieba's loader from src/node/workers, bundled by
 * bench/lib/common.js (bundleEngine) into bench/results/.build/.
 */
export { findRegions } from '../../src/core/regions/regions';
export { regionDocument } from '../../src/core/regions/document';
export { loadCjkSegmenter } from '../../src/node/cjk/jieba';
