/**
 * `neardup fingerprints <dir> --out FILE` (runFingerprints: the tree's fingerprints written as a
 * shard) and `neardup join SHARD...` (runJoin: the shards' pairs in the reports of `scan`), thin
 * commands over node/shards, whose code is required on first use (process/shardParts.ts).
 */
import type { Command } from 'commander';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanDirectory } from '../../node/scan/scan';
import { shardParts } from '../process/shardParts';
import { pairIdentities } from '../baseline';
import { formatJsonPieces } from '../formatJson';
import { formatSarif, truncationMessage } from '../formatSarif';
import { failureOf } from '../reporters/cloneKinds';
import { formatText } from '../formatText';
import { ProgressBar } from '../progress';
import { projectConfigApplied } from '../projectFlags';
import { sanitizeForTerminal } from '../sanitize';
import { scanOptionsOf, settingsOf, VERSION, type JoinFlags, type ScanFlags } from './commandFlags';
import { writeOut } from './cliOutput';

/** `neardup fingerprints <dir> --out FILE`: the tree's fingerprints as a shard (node/shards). */
export async function runFingerprints(dir: string, flags: ScanFlags & { out: string; name?: string }, cmd: Command): Promise<number> {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    process.stderr.write(`neardup: no such folder: ${sanitizeForTerminal(dir)}\n`);
    return 2;
  }
  if (!projectConfigApplied(root, flags, cmd)) return 2;
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
    ...scanOptionsOf(root, settings, flags, progress),
    match: false,
    onProgress: flags.progress && !flags.quiet ? (done, found) => progress.update(done, found) : undefined,
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

/** `neardup join SHARD...`: the shards' pairs, in the reports of `scan`, paths as `shard:path`. */
export async function runJoin(shards: string[], flags: JoinFlags): Promise<number> {
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
