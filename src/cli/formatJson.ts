/**
 * The JSON report, exactly as DESIGN.md's contract gives it (plus `truncated` when the pair cap
 * was reached).
 */
import type { ScanResult } from '../node/scan/scan';
import { escapeJsonControls, hasJsonControls } from './sanitize';

export function formatJson(result: ScanResult, rootArg: string): string {
  const { files, sections, bytes, elapsedMs } = result.stats;
  // Paths and the root are the only strings of the report that are not ours: when none has a
  // character to escape, the whole text is not scanned for them (tens of MB on a large tree).
  const escape = hasJsonControls(rootArg) || result.documents.some((d) => hasJsonControls(d.path));
  const json =
    JSON.stringify(
      {
        version: 1,
        root: rootArg,
        stats: { files, sections, bytes, elapsedMs },
        pairs: result.pairs,
        groups: result.groups.map((g) => ({ kind: g.kind, members: g.members, maxDistance: g.maxDistance })),
        // Beyond DESIGN.md's contract, present only when the pairs of a kind reached the cap: the
        // report holds only some of them (a consumer that ignores it still reads a valid report).
        ...(result.truncated ? { truncated: { files: result.truncated.files, sections: result.truncated.sections } } : {}),
      },
      null,
      2,
    ) + '\n';
  return escape ? escapeJsonControls(json) : json;
}
