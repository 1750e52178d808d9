/**
 * The few files a scan's native batches leave (prose, notebooks, components, code that is not
 * plain UTF-8: nativeBatches.ts), fingerprinted on the scan's own thread instead of by a worker
 * started for them alone (issue 16): a worker's boot and its bundle's compile cost ~0.17 s of CPU
 * and ~25 MB of fresh memory, for the ~20 Markdown files of the small bench tree (210 files, 2.5 MB
 * of the large one). filesHereBudget (nativeBatches.ts) runs them once the walk is over, one list
 * a turn. The outcomes are a worker's (src/worker/worker.ts, 'fingerprintFiles'), packed and
 * unpacked the same way, so the report is the same byte for byte. In the CLI's bundle this module
 * is dist/cliExtras.js's (esbuild.js), required on the first file left.
 */
import type { EngineSettings } from '../settings/engineSettings';
import { useVariantTableBuffer } from '../cjk/variants';
import { useJiebaDictionary } from '../cjk/jieba';
import { cjkSegmenterInUse, fingerprintFileSync, setEngineLog } from '../workers/fingerprintFile';
import type { CjkSegmenterInUse, FileOutcome, FileToFingerprint } from '../workers/fileOutcome';
import type { CjkMode, SharedFrequencies } from '../workers/messages';
import { packOutcomes, unpackOutcomes } from '../workers/packing';

/** What a scan hands this thread's fingerprinting, once (the same for every call of one scan). */
export interface FilesHereSetup {
  /** Drop the one-time notices (a missing jieba, say), as the workers do when quiet. */
  quiet: boolean;
  /** The scan's shared fold table (its workers' workerData.variantTable), made by whoever first needs it. */
  variantTable?: SharedArrayBuffer;
  /** jieba's dictionary file read ahead (node/cjk/jiebaPrefetch.ts), once: for jieba's loader here. */
  jiebaDictionary?: () => Uint8Array | undefined;
}

const said = new Set<string>();
let setUp: FilesHereSetup | undefined;

function setUpOnce(setup: FilesHereSetup): void {
  if (setUp === setup) return;
  setUp = setup;
  if (setup.variantTable) useVariantTableBuffer(setup.variantTable);
  // Each notice once a process, on stderr (the workers' rule: scanWorkers.ts), none when quiet.
  setEngineLog((msg) => {
    if (setup.quiet || said.has(msg)) return;
    said.add(msg);
    console.error(msg);
  });
}

/**
 * The files' outcomes, by their order, as a worker would give them for the same request
 * (`cjk` 'defer' is taken as 'load': this thread cuts its own Chinese text), and what this thread
 * segments Chinese with after them.
 */
export function fingerprintFilesHere(
  files: readonly FileToFingerprint[],
  settings: EngineSettings,
  df: SharedFrequencies | undefined,
  cjk: CjkMode,
  regions: { asked: boolean; owned: boolean },
  setup: FilesHereSetup,
): { outcomes: FileOutcome[]; cjk: CjkSegmenterInUse } {
  setUpOnce(setup);
  // (taken once; kept for jieba's load only while this thread has not loaded it)
  const dictionary = setup.jiebaDictionary?.();
  if (dictionary && cjkSegmenterInUse() === 'none') useJiebaDictionary(dictionary);
  const mode: CjkMode = cjk === 'defer' ? 'load' : cjk;
  const buffers = regions.asked && regions.owned;
  const results = files.map((f) => fingerprintFileSync(f, settings, df, mode, regions.asked, buffers));
  const packed = packOutcomes(results, { ownedRegions: buffers });
  return { outcomes: unpackOutcomes(packed, files.map((f) => f.relPath)), cjk: cjkSegmenterInUse() };
}
