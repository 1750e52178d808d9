/**
 * jieba's dictionary file read ahead, off the scan's thread (issue 16): when a scan's batch leaves a
 * prose file for its Chinese text (native/readcode.c LEFT_PROSE_CJK) to be fingerprinted on the
 * scan's thread, the file (~5 MB) is read by libuv's pool while the walk runs on, and handed to
 * jieba's loader there (jieba.ts useJiebaDictionary) instead of a synchronous read when the first
 * Chinese text is cut. In the CLI's bundle (dist/cli.js) without jieba itself.
 */
import * as fs from 'node:fs';

let reading: Promise<void> | undefined;
let bytes: Buffer | undefined;

/** Starts reading the dictionary once a process; resolves when it is read (or could not be: the loader then reads it itself). */
export function prefetchJiebaDictionary(): Promise<void> {
  reading ??= (async () => {
    try {
      bytes = await fs.promises.readFile(require.resolve('@node-rs/jieba/dict.txt'));
    } catch {
      bytes = undefined;
    }
  })();
  return reading;
}

/** Whether this process has begun reading the dictionary ahead (tests). */
export function jiebaDictionaryReadAhead(): boolean {
  return reading !== undefined;
}

/** The dictionary's bytes read ahead, once (then let go here: the loader keeps what it needs). */
export function takePrefetchedJiebaDictionary(): Buffer | undefined {
  const b = bytes;
  bytes = undefined;
  return b;
}
