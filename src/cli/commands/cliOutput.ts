/**
 * What the CLI's commands write: the report on stdout (writeOut: a text, or its pieces as they are
 * made; straight to fs.writeSync when stdout is a file) and the scan's skip notices on stderr.
 */
import * as fs from 'node:fs';
import { IGNORE_FILE_REASON } from '../../core/text/ignoreMarkers';
import type { ProgressBar } from '../progress';
import { sanitizeForTerminal } from '../sanitize';

/**
 * The scan's skip notices on stderr: one line a skipped file (none with --quiet). Files a team
 * marked `neardup-ignore-file` are counted as skipped but not named (a choice, like a gitignored
 * file, not a problem).
 */
export function skipNotices(quiet: boolean, progress: ProgressBar): ((relPath: string, reason: string) => void) | undefined {
  if (quiet) return undefined;
  return (relPath, reason) => {
    if (reason === IGNORE_FILE_REASON) return;
    progress.clear();
    process.stderr.write(`neardup: skipped ${sanitizeForTerminal(relPath)}: ${sanitizeForTerminal(reason)}\n`);
  };
}

/**
 * The report on stdout: a text, or its pieces in order (each written as it is made, so that a
 * large report is never one string and its copy); `made` is called once the last piece is made.
 * Into a file (or /dev/null), where Node's stdout writes synchronously anyway, the pieces go to
 * fs.writeSync as they are (no stream nor Buffer of each: a 14 MB report 15–30 → 3–8 ms).
 */
export async function writeOut(output: string | Iterable<string>, made?: () => void): Promise<void> {
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
