/**
 * The project's `.neardup.json` under the command-line flags: the file is read from `<dir>` (or
 * from `--config FILE`; `--no-config` skips it) through node/settings/projectConfig.ts, and each
 * key it sets takes the place of its flag's default. A flag given on the command line always
 * wins over the file. A broken file is one error naming the file, line and key (exit code 2).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { sanitizeForTerminal } from './sanitize';
import { PROJECT_FIELDS, configErrorMessage, readFolderConfig, readProjectConfig, type ProjectConfig, type ProjectField } from '../node/settings/projectConfig';

/** The scan flag (commander's attribute name) that each project setting stands for. */
export const FLAG_OF_FIELD: Readonly<Record<ProjectField, string>> = {
  maxDistance: 'maxDistance',
  sectionMaxDistance: 'sectionMaxDistance',
  minTokens: 'minTokens',
  minSimilarity: 'minSimilarity',
  include: 'include',
  exclude: 'exclude',
  maxFileSizeKB: 'maxFileSize',
  sectionsEnabled: 'sections',
  normalizeIdentifiers: 'normalizeIdentifiers',
  cjkSegmenter: 'cjkSegmenter',
  foldVariants: 'foldVariants',
  weighting: 'weighting',
  locate: 'locate',
};

export type ProjectFlagsResult = { ok: true; config?: ProjectConfig } | { ok: false; message: string };

/**
 * Reads the configuration for a scan of `root` and writes the keys it sets into `flags` wherever
 * the flag was not given on the command line. `configOption`: the value of `--config` (a path),
 * `false` for `--no-config`, undefined for neither.
 */
export function applyProjectConfig(root: string, configOption: string | boolean | undefined, flags: Record<string, unknown>, cmd: Command): ProjectFlagsResult {
  if (configOption === false) return { ok: true };
  const explicit = typeof configOption === 'string';
  const result = explicit ? readProjectConfig(path.resolve(configOption)) : readFolderConfig(root);
  if (result.status === 'absent') {
    // A file named by --config must exist; the folder's own is optional.
    return explicit ? { ok: false, message: `${path.resolve(configOption)}: no such configuration file` } : { ok: true };
  }
  if (result.status === 'invalid') return { ok: false, message: configErrorMessage(result.file, result.problems) };
  const given = (flag: string) => cmd.getOptionValueSource(flag) === 'cli';
  const config = result.config;
  for (const field of PROJECT_FIELDS) {
    const value = config.settings[field];
    const flag = FLAG_OF_FIELD[field];
    if (value === undefined || given(flag)) continue;
    flags[flag] = Array.isArray(value) ? [...value] : value;
  }
  // The project's baseline stands for --baseline unless the command line names one to read or to write.
  if (config.baseline !== undefined && !given('baseline') && !given('writeBaseline')) {
    const rel = path.relative(process.cwd(), config.baseline);
    flags.baseline = rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? config.baseline : rel;
  }
  return { ok: true, config };
}

/** {@link applyProjectConfig} for a command: false (after one line on stderr) when the configuration cannot be used. */
export function projectConfigApplied(root: string, flags: { config?: string | boolean }, cmd: Command): boolean {
  const project = applyProjectConfig(root, flags.config, flags as unknown as Record<string, unknown>, cmd);
  if (!project.ok) process.stderr.write(`neardup: ${sanitizeForTerminal(project.message)}; fix it, or run with --no-config.\n`);
  return project.ok;
}
