/**
 * Background work yields the CPU to the editor. On Linux the nice value belongs to each thread
 * (setpriority on "process" 0 is the calling thread), and threads inherit it from the thread that
 * creates them: the engine worker lowers its own priority first thing, and the fingerprint
 * workers it starts inherit it. The extension host's thread (and VS Code's processes) then get a
 * core first when they want one, instead of being suspended mid-task while indexing keeps both
 * cores of a small machine busy. Elsewhere the priority belongs to the whole process (it would
 * slow down the extension host too): nothing is done there.
 */
import * as os from 'node:os';

/** The nice value of the engine's threads on Linux (0 normal … 19 lowest). */
export const BACKGROUND_NICE = 10;

/** Lowers the calling thread's priority to `nice` (never raises it). True when it is now at least that low. */
export function lowerThreadPriority(nice = BACKGROUND_NICE, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    if (os.getPriority(0) < nice) os.setPriority(0, nice);
    return os.getPriority(0) >= nice;
  } catch {
    return false;
  }
}
