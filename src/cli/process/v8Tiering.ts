/**
 * The CLI's one V8 setting, made before anything else runs (or, for a scan, once its workers are
 * online: {@link applyCliV8Flags}): a longer interrupt budget (how much
 * bytecode a function runs before V8 considers optimising it). A scan is a short process of
 * several isolates (this thread and one worker per core, each compiling its own code): with V8's
 * default (67,584) a quarter of a scan's CPU went to TurboFan optimising functions that had little
 * left to run; at 1,000,000 the hot loops are still optimised (the kernel's callers, the matching)
 * and the process's CPU is ~0.85x (bench/README.md, "V8's compiles"). Only the CLI sets it: V8's
 * flags are the whole process's, and the extension's engine and its workers are threads of VS
 * Code's extension host, a process shared with other extensions. A budget the user gives node (`--interrupt-budget` in its
 * arguments or NODE_OPTIONS) is kept; NEARDUP_V8_DEFAULTS=1 keeps V8's own.
 */
import * as v8 from 'node:v8';

/** The interrupt budget the CLI runs with. */
export const CLI_INTERRUPT_BUDGET = 1_000_000;

/** The V8 flags the CLI sets, given node's arguments, NODE_OPTIONS and the environment's opt-out (none: undefined). */
export function cliV8Flags(execArgv: readonly string[], nodeOptions: string | undefined, keepDefaults: string | undefined): string | undefined {
  if (keepDefaults === '1') return undefined;
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((a) => /^--interrupt[-_]budget(=|$)/.test(a));
  return given ? undefined : `--interrupt-budget=${CLI_INTERRUPT_BUDGET}`;
}

let applied = false;

/**
 * Sets the CLI's V8 flags (once). A flag set changes V8's flag hash, so every code cache made
 * under the old flags is rejected from then on, Node's own among them: each built-in module
 * loaded later, in this thread or in a worker booting, is compiled from its source (a worker's
 * bootstrap then costs ~30 ms more of CPU, `require('node:crypto')` 13 ms instead of 3). So a
 * scan sets them once its workers are online (earlyWorkers.ts), every other command at once.
 */
export function applyCliV8Flags(): void {
  if (applied) return;
  applied = true;
  const flags = cliV8Flags(process.execArgv, process.env.NODE_OPTIONS, process.env.NEARDUP_V8_DEFAULTS);
  if (flags) v8.setFlagsFromString(flags);
}
