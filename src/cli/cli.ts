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
import './process/v8Tiering';
// Second: the scan's first worker, booting while this thread sets up the rest.
import './process/earlyWorkers';
import { Command, InvalidArgumentError, Option } from 'commander';
import { runScan } from './commands/scanCommand';
import { runFingerprints, runJoin } from './commands/shardCommands';
import { VERSION, type JoinFlags, type ScanFlags } from './commands/commandFlags';
import { DEFAULT_ENGINE_SETTINGS, SETTING_RANGES, type EngineSettings } from '../node/settings/engineSettings';
import { parseKinds } from './reporters/cloneKinds';
import type { CloneKind } from '../core/types';
import { sanitizeForTerminal } from './sanitize';

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

/** Commander's parser of --fail-on-kind. */
function kindList(value: string): CloneKind[] {
  const parsed = parseKinds(value);
  if ('error' in parsed) throw new InvalidArgumentError(parsed.error);
  return parsed.kinds;
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
