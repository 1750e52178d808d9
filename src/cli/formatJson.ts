/**
 * The JSON report, exactly as DESIGN.md's contract gives it (plus `truncated` when the pair cap
 * was reached).
 */
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { escapeJsonControls, hasJsonControls } from './sanitize';

/** With a baseline, `result` holds only the new pairs and `baseline` counts both (`baseline` object). */
export function formatJson(result: ScanResult, rootArg: string, baseline?: BaselineSummary): string {
  const { files, sections, bytes, elapsedMs } = result.stats;
  // Paths and the root are the only strings of the report that are not ours: when none has a
  // character to escape, the whole text is not scanned for them (tens of MB on a large tree).
  const escape = hasJsonControls(rootArg) || (baseline !== undefined && hasJsonControls(baseline.file)) || result.documents.some((d) => hasJsonControls(d.path));
  const json =
    JSON.stringify(
      {
        version: 1,
        root: rootArg,
        stats: { files, sections, bytes, elapsedMs },
        // Beyond DESIGN.md's first contract (an addition of the same version 1): with --baseline,
        // the pairs it holds are left out and counted here.
        ...(baseline ? { baseline: { file: baseline.file, matched: baseline.matched, new: baseline.new } } : {}),
        pairs: result.pairs,
        // `located` (with --locate): a group of copies located inside files.
        groups: result.groups.map((g) => ({ kind: g.kind, members: g.members, maxDistance: g.maxDistance, ...(g.located ? { located: true } : {}) })),
        // Beyond DESIGN.md's contract, present only when the pairs of a kind reached the cap: the
        // report holds only some of them (a consumer that ignores it still reads a valid report).
        ...(result.truncated ? { truncated: { files: result.truncated.files, sections: result.truncated.sections } } : {}),
      },
      null,
      2,
    ) + '\n';
  return escape ? escapeJsonControls(json) : json;
}
