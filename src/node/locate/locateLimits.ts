/**
 * `--locate`'s limits, apart from locate.ts: the CLI reads them before its scan begins, from its own
 * bundle (locate.ts lives in dist/cliExtras.js, loaded only once there is locating to do: ~20 ms at
 * a start the main thread has to itself; issue 16).
 */

/**
 * Largest tree (bytes of the fingerprinted files) `--locate` takes. Measured on 2 cores (issue
 * 16): the large bench tree (65 MB of text, 20,508 files) located in 1.6 s with a peak of 481 MB
 * (jscpd 5.3.3: 3.75 s, 1,492 MB), two copies of it (130 MB) in 3.5 s and 856 MB: ~6.5 bytes of
 * memory a byte of text. Past it a tree gets the `--no-locate` report and one notice.
 */
export const LOCATE_MAX_BYTES = 128 * 1024 * 1024;

/**
 * The scan's workers take the region finder's buckets from this many workers (cores) up, with the
 * main thread (regionJobs.ts regionSlots); with fewer the main thread does them after the report,
 * the workers let go first. Measured on 2 cores (the small bench tree, paired runs): one worker
 * and the main thread taking runs cost 1.08× the CPU of the main thread alone for the same wall
 * time (1.00×; 1.07× on a busy machine) and +17 MB (the worker receives the documents and compiles the chaining
 * code again, ~0.3 s of CPU, on the core the main thread needs). `NEARDUP_REGION_WORKERS`
 * overrides it (tests, benches).
 */
export const MIN_WORKERS_FOR_REGION_JOBS = Number(process.env.NEARDUP_REGION_WORKERS) > 0 ? Number(process.env.NEARDUP_REGION_WORKERS) : 3;
