/**
 * neardup — command-line front end of the engine.
 *   neardup scan <dir> [--format text|json|sarif|markdown|codeclimate|html|junit] [--max-distance N] …
 *   [--baseline FILE] [--write-baseline FILE] [--changed-since REF] [--no-locate] [--config FILE | --no-config]
 *   neardup fingerprints <dir> --out FILE [--name NAME] …   (a shard: node/shards, issue 17)
 *   neardup join SHARD... [--format text|json|sarif] [--engine local|dask [--scheduler ADDR]]
 * The folder's `.neardup.json` (projectFlags.ts) sets what no flag on the command line sets.
 * Exit codes: 0 done; 1 --fail-on-pairs reached (by the new pairs, with --baseline; by the pairs of
 * the kinds --fail-on-kind names, with it; --fail-on-kind alone: any such pair); 2 usage or
 * fatal error (a baseline that cannot be read or written, a broken `.neardup.json`, a
 * `--changed-since` revision git does not know among them).
 */
// First: V8's tiering for a short process (set at once, or for a scan once its workers are online).
import { applyCliV8Flags } from './process/v8Tiering';
// Second: the scan's first worker, booting while this thread sets up the rest.
import './process/earlyWorkers';
import { Command, InvalidArgumentError, Option } from 'commander';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IGNORE_FILE_REASON } from '../core/text/ignoreMarkers';
import { DEFAULT_ENGINE_SETTINGS, SETTING_RANGES, type EngineSettings } from '../node/settings/engineSettings';
import type * as Locate from '../node/locate/locate';
import type * as HtmlReport from '../node/htmlReport/fromScan';
import { scanDirectory, type ScanPool, type ScanResult } from '../node/scan/scan';
import { shardParts } from './process/shardParts';
import { changedFiles } from './changedFiles';
import { BaselineError, baselineText, changedSettings, locatedNewToBaseline, matchBaseline, onlyNewPairs, pairIdentities, readBaseline, writeBaseline, type Baseline, type BaselineSummary } from './baseline';
import { formatJunit } from './reporters/formatJunit';
import { formatCodeClimate } from './formatCodeClimate';
import { formatJsonPieces } from './formatJson';
import { formatMarkdown } from './formatMarkdown';
import { formatSarif, truncationMessage } from './formatSarif';
import { failureOf, parseKinds } from './reporters/cloneKinds';
import type { CloneKind } from '../core/types';
import { formatText } from './formatText';
import { ProgressBar } from './progress';
import { applyProjectConfig } from './projectFlags';
import { sanitizeForTerminal } from './sanitize';

const VERSION = '0.1.0';

function intIn(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}.`);
    return n;
  };
}

function numberIn(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    // Plain decimals only: Number() would also take '0x1', '0b1' and '1e0'.
    if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(value) || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} takes a number from ${min} to ${max}.`);
    }
    return n;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The scan's skip notices on stderr: one line a skipped file (none with --quiet). Files a team
 * marked `neardup-ignore-file` are counted as skipped but not named (a choice, like a gitignored
 * file, not a problem).
 */
function skipNotices(quiet: boolean, progress: ProgressBar): ((relPath: string, reason: string) => void) | undefined {
  if (quiet) return undefined;
  return (relPath, reason) => {
    if (reason === IGNORE_FILE_REASON) return;
    progress.clear();
    process.stderr.write(`neardup: skipped ${sanitizeForTerminal(relPath)}: ${sanitizeForTerminal(reason)}\n`);
  };
}

interface ScanFlags {
  format: 'json' | 'sarif' | 'text' | 'markdown' | 'codeclimate' | 'html' | 'junit';
  baseline?: string;
  writeBaseline?: string;
  maxDistance: number;
  sectionMaxDistance: number;
  minTokens: number;
  minSimilarity: number;
  include?: string[];
  exclude?: string[];
  sections: boolean;
  failOnPairs?: number;
  /** `--fail-on-kind`: only pairs of these clone kinds count for --fail-on-pairs (alone: threshold 1). */
  failOnKind?: CloneKind[];
  normalizeIdentifiers: boolean;
  stopWords: boolean;
  weighting: 'none' | 'tf' | 'tfidf';
  cjkSegmenter: 'jieba' | 'bigram';
  foldVariants: boolean;
  maxFileSize: number;
  gitignore: boolean;
  workers?: number;
  progress: boolean;
  quiet: boolean;
  locate: boolean;
  /** `--changed-since REF`: only pairs with a side in a file changed since REF (git). */
  changedSince?: string;
  /** `--config FILE` (a path), `--no-config` (false), or neither (undefined). */
  config?: string | boolean;
}

/*
 * --locate's and --format html's code, required when a run asks for it: in the bundle both are
 * dist/cliExtras.js (esbuild.js), so that a plain scan does not compile them (they re-read files,
 * with opencc-js; iconv-lite is dist/iconv.js) at start-up.
 */
function locateParts(): typeof Locate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../node/locate/locate') as typeof Locate;
}
function htmlParts(): typeof HtmlReport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../node/htmlReport/fromScan') as typeof HtmlReport;
}

/**
 * The byte limit of `--locate`: NEARDUP_LOCATE_MAX_BYTES when it is a positive whole number (for
 * tests, to reach the refusal with a small tree; not a user option), else the default
 * (LOCATE_MAX_BYTES). Any other value is ignored.
 */
function locateMaxBytes(): number | undefined {
  const v = process.env.NEARDUP_LOCATE_MAX_BYTES;
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

async function runScan(dir: string, flags: ScanFlags, cmd: Command): Promise<number> {
  const root = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    process.stderr.write(`neardup: no such folder: ${sanitizeForTerminal(dir)}\n`);
    return 2;
  }
  if (!stat.isDirectory()) {
    process.stderr.write(`neardup: not a folder: ${sanitizeForTerminal(dir)}\n`);
    return 2;
  }
  // The project's configuration fills in what the command line does not say (before anything reads the flags).
  const project = applyProjectConfig(root, flags.config, flags as unknown as Record<string, unknown>, cmd);
  if (!project.ok) {
    process.stderr.write(`neardup: ${sanitizeForTerminal(project.message)}; fix it, or run with --no-config.\n`);
    return 2;
  }
  const settings = settingsOf(flags);
  // A baseline that cannot be used stops the run before the scan: one line, exit code 2.
  let baseline: Baseline | undefined;
  if (flags.baseline !== undefined) {
    try {
      baseline = readBaseline(flags.baseline);
    } catch (e) {
      if (!(e instanceof BaselineError)) throw e;
      process.stderr.write(`neardup: ${e.message}\n`);
      return 2;
    }
    const changed = changedSettings(baseline, settings);
    if (changed.length && !flags.quiet) {
      process.stderr.write(`neardup: baseline ${sanitizeForTerminal(flags.baseline)} was written with other settings (${changed.join(', ')}); some of its pairs may show as new.\n`);
    }
  }
  // --changed-since: git is asked before the scan (a bad revision stops the run at once).
  let changed: { files: Set<string> } | undefined;
  if (flags.changedSince !== undefined) {
    const r = await changedFiles(root, flags.changedSince);
    if (!r.ok) {
      process.stderr.write(`neardup: ${sanitizeForTerminal(r.message)}\n`);
      return 2;
    }
    changed = r;
  }
  // --format html draws with the Overview's own script, bundled beside this one (dist/overview.js).
  let overviewScript: string | undefined;
  if (flags.format === 'html') {
    try {
      overviewScript = fs.readFileSync(path.join(__dirname, 'overview.js'), 'utf8');
    } catch {
      process.stderr.write('neardup: --format html needs dist/overview.js beside the CLI (run npm run build).\n');
      return 2;
    }
  }
  const progress = new ProgressBar();
  const showProgress = flags.progress && !flags.quiet;
  // NEARDUP_TRACE=1: the time of each phase since the process started, on stderr (profiling).
  const trace = process.env.NEARDUP_TRACE === '1';
  const onPhase = trace ? (phase: string, atMs: number) => process.stderr.write(`neardup: trace ${atMs.toFixed(1)} ms ${phase}\n`) : undefined;
  onPhase?.('scan called', performance.now());
  // And per worker thread: the files it fingerprinted and what it segments Chinese with.
  const byThread = new Map<number, { files: number; cjk: string }>();
  const onBatch = trace
    ? (b: { files: number; thread: number; cjk: string }) => {
        const t = byThread.get(b.thread) ?? { files: 0, cjk: b.cjk };
        byThread.set(b.thread, { files: t.files + b.files, cjk: b.cjk });
      }
    : undefined;
  // Copies located inside files (issue 12): after the report, from the region documents the
  // scan's workers made, with the region finder's buckets worked by those workers.
  const locate = (fingerprinted: Parameters<typeof Locate.beginLocateInPool>[0], pool: ScanPool) => {
    const { beginLocateInPool, withLocated } = locateParts();
    const located = beginLocateInPool(
      fingerprinted,
      {
        settings,
        maxBytes: locateMaxBytes(),
        onSkip: flags.quiet
          ? undefined
          : (relPath, reason) => {
              if (reason === IGNORE_FILE_REASON) return;
              process.stderr.write(`neardup: copies not located in ${sanitizeForTerminal(relPath)}: ${sanitizeForTerminal(reason)}\n`);
            },
      },
      pool,
    );
    onPhase?.('locate begun', performance.now());
    return async (scanned: ScanResult): Promise<ScanResult> => {
      const outcome = await located(scanned.pairs);
      // Refused (over the byte limit) or failed: the plain report, with one line on stderr; a run
      // that did not ask for --locate (it is the default) is told how to leave the notice out.
      if (!outcome.ok && !flags.quiet) {
        const asked = cmd.getOptionValueSource('locate') === 'cli';
        process.stderr.write(asked ? `neardup: --locate skipped: ${sanitizeForTerminal(outcome.reason)}.\n` : `neardup: copies inside files not located: ${sanitizeForTerminal(outcome.reason)} (--no-locate: no notice).\n`);
      }
      onPhase?.(outcome.ok ? `located (${outcome.pairs.length} pairs, ${outcome.stats.dropped} already reported)` : 'locate refused', performance.now());
      return outcome.ok ? withLocated(scanned, outcome) : scanned;
    };
  };
  const result = await scanDirectory({
    root,
    settings,
    include: flags.include,
    exclude: flags.exclude,
    gitignore: flags.gitignore,
    workers: flags.workers,
    regions: flags.locate === true,
    regionsMaxBytes: flags.locate ? (locateMaxBytes() ?? locateParts().LOCATE_MAX_BYTES) : undefined,
    // Shared memory only when the region jobs go to the workers (locate.ts); else transferred.
    regionsSharedFrom: flags.locate ? locateParts().regionsShared : undefined,
    quiet: flags.quiet,
    onWorkersOnline: applyCliV8Flags,
    onPhase,
    onBatch,
    onProgress: showProgress ? (done, found) => progress.update(done, found) : undefined,
    onSkip: skipNotices(flags.quiet, progress),
    ...(flags.locate ? { withWorkers: locate } : {}),
  });
  progress.clear();
  if (trace) {
    // (thread 0: the addon's threads, nativeBatches.ts)
    const threads = [...byThread].sort((a, b) => a[0] - b[0]).map(([id, t]) => (id === 0 ? `the addon's threads: ${t.files} files` : `thread ${id}: ${t.files} files, Chinese: ${t.cjk}`));
    process.stderr.write(`neardup: trace workers ${threads.join('; ')}\n`);
  }
  if (result.truncated && !flags.quiet) process.stderr.write(`neardup: ${truncationMessage(result.truncated)}\n`);
  const ids = baseline || flags.writeBaseline !== undefined || flags.format === 'sarif' || flags.format === 'codeclimate' ? pairIdentities(result) : undefined;
  if (flags.writeBaseline !== undefined) {
    try {
      writeBaseline(flags.writeBaseline, baselineText(result, ids!, settings));
      if (!flags.quiet) process.stderr.write(`neardup: wrote ${result.pairs.length} pairs to the baseline ${sanitizeForTerminal(flags.writeBaseline)}.\n`);
    } catch (e) {
      if (!(e instanceof BaselineError)) throw e;
      process.stderr.write(`neardup: ${e.message}\n`);
      return 2;
    }
  }
  // The baseline is matched on the whole result (an entry is used once), then cut with the rest.
  const fullInBaseline = baseline ? matchBaseline(ids!, baseline) : undefined;
  // A baseline written without located copies (e.g. before they were the default) sees them all as new: say why, once.
  const unknownLocated = fullInBaseline && !flags.quiet ? locatedNewToBaseline(result.pairs, fullInBaseline, baseline!) : 0;
  if (unknownLocated > 0) {
    process.stderr.write(
      `neardup: baseline ${sanitizeForTerminal(flags.baseline!)} holds none of the ${unknownLocated} copies located inside files: written with --no-locate or before they were the default, it counts them as new; write it again with --write-baseline to accept them, or scan with --no-locate.\n`,
    );
  }
  // --changed-since: only the pairs with a side in a changed file (matched against the whole tree).
  const touches = changed ? result.pairs.map((p) => changed.files.has(p.a.path) || changed.files.has(p.b.path)) : undefined;
  const view = touches ? onlyNewPairs(result, touches.map((t) => !t)) : result;
  const viewIds = touches ? ids?.filter((_, i) => touches[i]) : ids;
  const inBaseline = touches ? fullInBaseline?.filter((_, i) => touches[i]) : fullInBaseline;
  if (changed && touches && !flags.quiet) {
    process.stderr.write(
      `neardup: --changed-since ${sanitizeForTerminal(flags.changedSince!)}: ${changed.files.size} changed files; ${view.pairs.length} of ${result.pairs.length} pairs touch them.\n`,
    );
  }
  const summary: BaselineSummary | undefined =
    inBaseline && flags.baseline !== undefined
      ? { file: flags.baseline, matched: inBaseline.filter(Boolean).length, new: inBaseline.filter((x) => !x).length }
      : undefined;
  // SARIF keeps every result (marked "new" or "unchanged"); the other formats show the new pairs.
  const shown = inBaseline ? onlyNewPairs(view, inBaseline) : view;
  const shownIds = inBaseline ? viewIds!.filter((_, i) => !inBaseline[i]) : viewIds;
  const output =
    flags.format === 'json'
      ? formatJsonPieces(shown, dir, summary)
      : flags.format === 'sarif'
        ? formatSarif(view, VERSION, { ids: viewIds, inBaseline, baseline: summary })
        : flags.format === 'markdown'
          ? formatMarkdown(shown, summary)
          : flags.format === 'html'
            ? htmlParts().htmlReport(shown, { title: dir, thresholds: { maxDistance: settings.maxDistance, sectionMaxDistance: settings.sectionMaxDistance, minSimilarity: settings.minSimilarity }, overviewScript: overviewScript!, maxFileSizeBytes: settings.maxFileSizeBytes })
          : flags.format === 'codeclimate'
            ? formatCodeClimate(shown, shownIds!)
            : flags.format === 'junit'
              ? formatJunit(shown, summary)
              : formatText(shown, summary);
  // The JSON report is made as it is written (pieces of it): 'formatted' then comes with 'written'.
  if (typeof output === 'string') onPhase?.('formatted', performance.now());
  await writeOut(output, () => onPhase?.('formatted', performance.now()));
  onPhase?.('written', performance.now());
  const failure = failureOf(shown.pairs, flags);
  if (failure) {
    if (!flags.quiet) process.stderr.write(`neardup: ${failure.counted} ${summary ? 'new ' : ''}${failure.what} (fail threshold ${failure.threshold}).\n`);
    return 1;
  }
  return 0;
}

/** Commander's parser of --fail-on-kind. */
function kindList(value: string): CloneKind[] {
  const parsed = parseKinds(value);
  if ('error' in parsed) throw new InvalidArgumentError(parsed.error);
  return parsed.kinds;
}

/** The engine settings the flags (with the project's configuration applied) say; defaults for the rest. */
function settingsOf(flags: ScanFlags): EngineSettings {
  return {
    ...DEFAULT_ENGINE_SETTINGS,
    maxDistance: flags.maxDistance ?? DEFAULT_ENGINE_SETTINGS.maxDistance,
    sectionMaxDistance: flags.sectionMaxDistance ?? DEFAULT_ENGINE_SETTINGS.sectionMaxDistance,
    minTokens: flags.minTokens,
    minSimilarity: flags.minSimilarity ?? DEFAULT_ENGINE_SETTINGS.minSimilarity,
    sections: flags.sections,
    normalizeIdentifiers: flags.normalizeIdentifiers,
    stopWords: flags.stopWords,
    weighting: flags.weighting,
    cjkSegmenter: flags.cjkSegmenter,
    foldVariants: flags.foldVariants,
    maxFileSizeBytes: flags.maxFileSize * 1024,
  };
}

/** `neardup fingerprints <dir> --out FILE`: the tree's fingerprints as a shard (node/shards). */
async function runFingerprints(dir: string, flags: ScanFlags & { out: string; name?: string }, cmd: Command): Promise<number> {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    process.stderr.write(`neardup: no such folder: ${sanitizeForTerminal(dir)}\n`);
    return 2;
  }
  const project = applyProjectConfig(root, flags.config, flags as unknown as Record<string, unknown>, cmd);
  if (!project.ok) {
    process.stderr.write(`neardup: ${sanitizeForTerminal(project.message)}; fix it, or run with --no-config.\n`);
    return 2;
  }
  if (flags.weighting === 'tfidf') {
    process.stderr.write('neardup: --weighting tfidf weighs each shingle by the whole tree, so fingerprints of separate exports cannot be joined; use none or tf.\n');
    return 2;
  }
  const { checkShardName, writeShard, ShardError } = shardParts();
  const name = flags.name ?? path.basename(root);
  const bad = checkShardName(name);
  if (bad) {
    process.stderr.write(`neardup: ${sanitizeForTerminal(bad)}; give one with --name.\n`);
    return 2;
  }
  const settings = settingsOf(flags);
  const progress = new ProgressBar();
  const result = await scanDirectory({
    root,
    settings,
    include: flags.include,
    exclude: flags.exclude,
    gitignore: flags.gitignore,
    workers: flags.workers,
    quiet: flags.quiet,
    onWorkersOnline: applyCliV8Flags,
    match: false,
    onProgress: flags.progress && !flags.quiet ? (done, found) => progress.update(done, found) : undefined,
    onSkip: skipNotices(flags.quiet, progress),
  });
  progress.clear();
  try {
    const walk = { maxFileSizeBytes: settings.maxFileSizeBytes, gitignore: flags.gitignore, ...(flags.include ? { include: flags.include } : {}), ...(flags.exclude ? { exclude: flags.exclude } : {}) };
    const stats = await writeShard(result.documents, { root, out: flags.out, shard: name, settings, tool: `neardup ${VERSION}`, walk });
    if (!flags.quiet) process.stderr.write(`neardup: wrote ${stats.items} fingerprints of ${stats.files} files to ${sanitizeForTerminal(flags.out)} (shard "${sanitizeForTerminal(name)}", ${stats.bytesWritten} bytes).\n`);
  } catch (e) {
    if (!(e instanceof ShardError)) throw e;
    process.stderr.write(`neardup: ${sanitizeForTerminal(e.message)}\n`);
    return 2;
  }
  return 0;
}

interface JoinFlags {
  format: 'json' | 'sarif' | 'text';
  maxDistance: number;
  sectionMaxDistance: number;
  minSimilarity: number;
  sections: boolean;
  failOnPairs?: number;
  failOnKind?: CloneKind[];
  engine: 'local' | 'dask';
  scheduler?: string;
  progress: boolean;
  quiet: boolean;
}

/**
 * The report on stdout: a text, or its pieces in order (each written as it is made, so that a
 * large report is never one string and its copy); `made` is called once the last piece is made.
 * Into a file (or /dev/null), where Node's stdout writes synchronously anyway, the pieces go to
 * fs.writeSync as they are (no stream nor Buffer of each: a 14 MB report 15–30 → 3–8 ms).
 */
async function writeOut(output: string | Iterable<string>, made?: () => void): Promise<void> {
  if (stdoutIsFile()) {
    for (const piece of typeof output === 'string' ? [output] : output) fs.writeSync(1, piece);
    if (typeof output !== 'string') made?.();
    return;
  }
  const write = (text: string) => new Promise<void>((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
  if (typeof output === 'string') return write(output);
  for (const piece of output) await write(piece);
  made?.();
}

/** Whether stdout is what Node writes to synchronously (libuv's "file": a regular file, or a character device that is no terminal). */
function stdoutIsFile(): boolean {
  try {
    const s = fs.fstatSync(1);
    return s.isFile() || (s.isCharacterDevice() && !process.stdout.isTTY);
  } catch {
    return false;
  }
}

/** `neardup join SHARD...`: the shards' pairs, in the reports of `scan`, paths as `shard:path`. */
async function runJoin(shards: string[], flags: JoinFlags): Promise<number> {
  const say = (text: string) => {
    if (!flags.quiet) process.stderr.write(`neardup: ${text}\n`);
  };
  if (flags.scheduler !== undefined && flags.engine !== 'dask') {
    process.stderr.write('neardup: --scheduler goes with --engine dask.\n');
    return 2;
  }
  const settings = { maxDistance: flags.maxDistance, sectionMaxDistance: flags.sectionMaxDistance, minSimilarity: flags.minSimilarity, sections: flags.sections };
  const { joinShards, runDaskJoin, ShardError } = shardParts();
  let result;
  try {
    result = await joinShards(shards, {
      settings,
      onProgress: flags.progress ? (items, s) => say(`read ${items} fingerprints (shard ${s + 1} of ${shards.length}: ${sanitizeForTerminal(shards[s])})`) : undefined,
      onLoaded: (l) => say(`joining ${l.items} fingerprints of ${l.documents.length} files from ${l.names.length} shards${flags.engine === 'dask' ? ' on Dask' : ''}`),
      engine: flags.engine === 'dask' ? (loaded, plan, options) => runDaskJoin(shards, loaded, plan, options, { scheduler: flags.scheduler, onLine: flags.progress ? say : undefined }) : undefined,
    });
  } catch (e) {
    if (!(e instanceof ShardError)) throw e;
    process.stderr.write(`neardup: ${sanitizeForTerminal(e.message)}\n`);
    return 2;
  }
  say(`${result.pairs.length} pairs (read ${Math.round(result.readMs)} ms, matched ${Math.round(result.matchMs)} ms)`);
  if (result.truncated) say(truncationMessage(result.truncated));
  const output =
    flags.format === 'json'
      ? formatJsonPieces(result, result.root)
      : flags.format === 'sarif'
        ? formatSarif(result, VERSION, { ids: pairIdentities(result) })
        : formatText(result);
  await writeOut(output);
  const failure = failureOf(result.pairs, flags);
  if (failure) {
    say(`${failure.counted} ${failure.what} (fail threshold ${failure.threshold}).`);
    return 1;
  }
  return 0;
}

/**
 * The options of the commands that read a folder's files (`scan`, `fingerprints`): how Chinese is
 * cut and folded, which files are read and by how many threads, the project configuration, and
 * what goes to stderr.
 */
function readingOptions(cmd: Command, d: EngineSettings): Command {
  return cmd
    .addOption(new Option('--cjk-segmenter <s>', 'Chinese word segmentation').choices(['jieba', 'bigram']).default(d.cjkSegmenter))
    .option('--no-fold-variants', 'do not fold Traditional and variant Chinese characters to Simplified before fingerprinting')
    .option('--max-file-size <kb>', 'skip files larger than this many KB', intIn('--max-file-size', 1, 1024 * 1024), Math.round(d.maxFileSizeBytes / 1024))
    .option('--no-gitignore', 'do not honour .gitignore files')
    .option('--workers <n>', 'threads fingerprinting at once (default: one per core)', intIn('--workers', 1, 64))
    .option('--config <file>', 'read the project configuration from this file instead of <dir>/.neardup.json')
    .option('--no-config', 'do not read <dir>/.neardup.json')
    .option('--no-progress', 'no progress bar on stderr')
    .option('-q, --quiet', 'print nothing on stderr but errors', false);
}

export function buildProgram(): Command {
  const d = DEFAULT_ENGINE_SETTINGS;
  const program = new Command('neardup')
    .description('Find near-duplicate files and sections (functions, blocks, document sections) with SimHash.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (str, write) => write(str.replace(/^error: /, 'neardup: ')) });
  const scan = program
    .command('scan')
    .description('scan a folder and report near duplicates')
    .argument('<dir>', 'folder to scan')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['json', 'sarif', 'text', 'markdown', 'codeclimate', 'html', 'junit']).default('text'))
    .option('--max-distance <n>', 'largest Hamming distance (of 64 bits) between two files', intIn('--max-distance', SETTING_RANGES.maxDistance.min, SETTING_RANGES.maxDistance.max), d.maxDistance)
    .option('--section-max-distance <n>', 'largest Hamming distance between two sections', intIn('--section-max-distance', SETTING_RANGES.sectionMaxDistance.min, SETTING_RANGES.sectionMaxDistance.max), d.sectionMaxDistance)
    .option('--min-tokens <n>', 'files and sections with fewer tokens are not compared', intIn('--min-tokens', SETTING_RANGES.minTokens.min, SETTING_RANGES.minTokens.max), d.minTokens)
    .option('--min-similarity <x>', 'confirm candidates whose estimated Jaccard similarity of shingles is at least x (0 = plain SimHash)', numberIn('--min-similarity', 0, 1), d.minSimilarity)
    .option('--include <glob>', 'only files matching this glob (repeatable)', collect)
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect)
    .option('--no-sections', 'compare whole files only')
    .option('--fail-on-pairs <n>', 'exit with code 1 when at least n pairs are found (new pairs, with --baseline)', intIn('--fail-on-pairs', 1, Number.MAX_SAFE_INTEGER))
    .option('--fail-on-kind <kinds>', 'count for --fail-on-pairs only pairs of these clone kinds (exact, renamed, edited; comma-separated); alone: exit with code 1 when any such pair is found', kindList)
    .option('--baseline <file>', 'report (and count for --fail-on-pairs) only the pairs not in this baseline file')
    .option('--changed-since <ref>', 'report only pairs with at least one side in a file changed since this git revision (committed, staged, modified or untracked), matched against the whole tree')
    .option('--write-baseline <file>', 'record the pairs found in this file (JSON), to pass to --baseline later')
    .option('--normalize-identifiers', 'treat renamed identifiers and changed literals as equal', d.normalizeIdentifiers)
    .option('--stop-words', 'drop English and Chinese stop words from prose', d.stopWords)
    .addOption(new Option('--weighting <w>', 'feature weighting: none (each shingle once), tf (1 + ln count), tfidf (tf × corpus IDF, two passes)').choices(['none', 'tf', 'tfidf']).default(d.weighting))
    .option('--locate', 'locate copied blocks inside files (verbatim, renamed, edited) as section pairs', true)
    .option('--no-locate', 'SimHash file and section pairs only, no located blocks: about 0.6x the time and memory of the default (for a quick check, a tight CI budget, or to compare with earlier reports)');
  readingOptions(scan, d)
    .action(async (dir: string, flags: ScanFlags, cmd: Command) => {
      await exitWhenFlushed(await runScan(dir, flags, cmd));
    });
  const fingerprints = program
    .command('fingerprints')
    .description('write the fingerprints of a folder as a shard (JSON Lines, gzip when FILE ends in .gz), to join with others')
    .argument('<dir>', 'folder to fingerprint')
    .requiredOption('--out <file>', 'the shard to write (.jsonl, or .jsonl.gz)')
    .option('--name <name>', 'the shard name, before each path in joined reports (default: the folder name)')
    .option('--min-tokens <n>', 'files and sections with fewer tokens are not fingerprinted', intIn('--min-tokens', SETTING_RANGES.minTokens.min, SETTING_RANGES.minTokens.max), d.minTokens)
    .option('--include <glob>', 'only files matching this glob (repeatable)', collect)
    .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect)
    .option('--no-sections', 'whole files only')
    .option('--normalize-identifiers', 'treat renamed identifiers and changed literals as equal', d.normalizeIdentifiers)
    .option('--stop-words', 'drop English and Chinese stop words from prose', d.stopWords)
    .addOption(new Option('--weighting <w>', 'feature weighting: none or tf (tfidf depends on the whole tree: refused)').choices(['none', 'tf', 'tfidf']).default(d.weighting));
  readingOptions(fingerprints, d)
    .action(async (dir: string, flags: ScanFlags & { out: string; name?: string }, cmd: Command) => {
      process.exitCode = await runFingerprints(dir, flags, cmd);
    });
  program
    .command('join')
    .description('join shards written by `neardup fingerprints` and report their near duplicates (paths as shard:path)')
    .argument('<shards...>', 'shard files')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['json', 'sarif', 'text']).default('text'))
    .option('--max-distance <n>', 'largest Hamming distance (of 64 bits) between two files', intIn('--max-distance', SETTING_RANGES.maxDistance.min, SETTING_RANGES.maxDistance.max), d.maxDistance)
    .option('--section-max-distance <n>', 'largest Hamming distance between two sections', intIn('--section-max-distance', SETTING_RANGES.sectionMaxDistance.min, SETTING_RANGES.sectionMaxDistance.max), d.sectionMaxDistance)
    .option('--min-similarity <x>', 'confirm candidates whose estimated Jaccard similarity of shingles is at least x (0 = plain SimHash)', numberIn('--min-similarity', 0, 1), d.minSimilarity)
    .option('--no-sections', 'compare whole files only')
    .option('--fail-on-pairs <n>', 'exit with code 1 when at least n pairs are found', intIn('--fail-on-pairs', 1, Number.MAX_SAFE_INTEGER))
    .option('--fail-on-kind <kinds>', 'count for --fail-on-pairs only pairs of these clone kinds (exact, renamed, edited; comma-separated); alone: exit with code 1 when any such pair is found', kindList)
    .addOption(new Option('--engine <engine>', 'where the join runs: here, or as a Dask job (python3 with dask and distributed)').choices(['local', 'dask']).default('local'))
    .option('--scheduler <addr>', 'with --engine dask: the address of a running Dask scheduler (default: a local cluster of 2 worker processes)')
    .option('--no-progress', 'no progress lines on stderr')
    .option('-q, --quiet', 'print nothing on stderr but errors', false)
    .action(async (shards: string[], flags: JoinFlags) => {
      process.exitCode = await runJoin(shards, flags);
    });
  return program;
}

/**
 * Ends the process with `code` once what it wrote on stdout and stderr is handed to the system
 * (an asynchronous pipe, as on macOS, drained first): a scan's workers are gone and its output
 * written, and at a natural exit Node tears its heap down piece by piece — with `--locate` several
 * hundred MB of objects and typed arrays, tens of ms of CPU after the last byte (bench/README.md).
 */
async function exitWhenFlushed(code: number): Promise<void> {
  const flushed = (s: NodeJS.WriteStream) => new Promise<void>((resolve) => (s.writableLength > 0 ? s.write('', () => resolve()) : resolve()));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    // 'commander.help' is help shown because no command was given: a usage error (exit 2).
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
      process.exitCode = 0;
      return;
    }
    if (err.code?.startsWith('commander.')) {
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`neardup: ${sanitizeForTerminal(err.message ?? String(e))}\n`);
    process.exitCode = 2;
  }
}

// A closed pipe (`neardup scan . | head`) ends the output quietly instead of crashing.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

void main(process.argv);
