/**
 * The parts of the CLI that only some runs need: `--locate`'s region finder and `--format html`'s
 * report, which re-read files (the decoding of node/files with iconv-lite, opencc-js's variant
 * tables). Bundled apart as dist/cliExtras.js (esbuild.js) and required by cli.ts when a run asks
 * for them, so that a plain scan does not compile their ~0.8 MB at start-up.
 */
export { beginLocateInPool, LOCATE_MAX_BYTES, withLocated } from '../node/scan/locate';
export { htmlReport } from '../node/htmlReport/fromScan';
