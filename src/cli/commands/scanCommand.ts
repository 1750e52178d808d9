/**
 * `neardup scan <dir>` (runScan): the folder checked, the project's configuration applied, the
 * baseline and `--changed-since` read first, the scan (copies located inside files unless
 * `--no-locate`; that code and `--format html`'s required only when asked for), the baseline
 * written or matched, and the report in the format asked for; the exit code.
 */
import type { Command } from 'commander';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IGNORE_FILE_REASON } from '../../core/text/ignoreMarkers';
import type * as Locate from '../../node/locate/locate';
import type * as HtmlReport from '../../node/htmlReport/fromScan';
import { scanDirectory, type ScanPool, type ScanResult } from '../../node/scan/scan';
import { changedFiles } from '../changedFiles';
import { BaselineError, baselineText, changedSettings, locatedNewToBaseline, matchBaseline, onlyNewPairs, pairIdentities, readBaseline, writeBaseline, type Baseline, type BaselineSummary } from '../baseline';
import { formatJunit } from '../reporters/formatJunit';
import { formatCodeClimate } from '../formatCodeClimate';
import { formatJsonPieces } from '../formatJson';
import { formatMarkdown } from '../formatMarkdown';
import { formatSarif, truncationMessage } from '../formatSarif';
import { failureOf } from '../reporters/cloneKinds';
import { formatText } from '../formatText';
import { ProgressBar } from '../progress';
import { projectConfigApplied } from '../projectFlags';
import { sanitizeForTerminal } from '../sanitize';
import { scanOptionsOf, settingsOf, VERSION, type ScanFlags } from './commandFlags';
import { writeOut } from './cliOutput';
import { LOCATE_MAX_BYTES, MIN_WORKERS_FOR_REGION_JOBS } from '../../node/locate/locateLimits';
import { hugePagesState } from '../../node/scan/nativeBatches';

/*
 * --locate's and --format html's code, required when a run asks for it: in the bundle both are
 * dist/cliExtras.js (esbuild.js), so that a plain scan does not compile them (they re-read files,
 * with opencc-js; iconv-lite is dist/iconv.js) at start-up.
 */
function locateParts(): typeof Locate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../node/locate/locate') as typeof Locate;
}
function htmlParts(): typeof HtmlReport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../node/htmlReport/fromScan') as typeof HtmlReport;
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

export async function runScan(dir: string, flags: ScanFlags, cmd: Command): Promise<number> {
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
  if (!projectConfigApplied(root, flags, cmd)) return 2;
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
    ...scanOptionsOf(root, settings, flags, progress),
    regions: flags.locate === true,
    // (the limits from this bundle: locate.ts, in dist/cliExtras.js, is loaded once the walk is
    // over, while the fingerprints are made, not at the start, which this thread has to itself)
    regionsMaxBytes: flags.locate ? (locateMaxBytes() ?? LOCATE_MAX_BYTES) : undefined,
    // Shared memory only when the region jobs go to the workers (locate.ts); else transferred.
    regionsSharedFrom: flags.locate ? (workers) => workers >= MIN_WORKERS_FOR_REGION_JOBS && locateParts().regionsShared(workers) : undefined,
    onPhase,
    onBatch,
    onProgress: showProgress ? (done, found) => progress.update(done, found) : undefined,
    ...(flags.locate ? { withWorkers: locate } : {}),
    // Locating needs dist/cliExtras.js (~15 ms to compile and run): loaded while the addon's
    // threads fingerprint, not after them (and the files left to this thread find it loaded).
    ...(flags.locate ? { onWalked: () => void locateParts() } : {}),
  });
  progress.clear();
  if (trace) {
    // (thread 0: the addon's threads, nativeBatches.ts; -1: this thread, filesHere.ts)
    const threads = [...byThread]
      .sort((a, b) => a[0] - b[0])
      .map(([id, t]) => (id === 0 ? `the addon's threads: ${t.files} files` : `${id < 0 ? 'this thread' : `thread ${id}`}: ${t.files} files, Chinese: ${t.cjk}`));
    process.stderr.write(`neardup: trace workers ${threads.join('; ')}\n`);
    const pages = hugePagesState();
    if (pages) {
      const figures = pages.verdict >= 0 ? ` (CPU ms a MB of region documents first written: huge pages ${pages.hugeMsPerMb.toFixed(2)}, 4 KB pages ${pages.smallMsPerMb.toFixed(2)})` : '';
      process.stderr.write(`neardup: trace huge pages ${pages.inUse ? 'in use' : 'not in use'}${figures}\n`);
    }
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
