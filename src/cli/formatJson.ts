/**
 * The JSON report, exactly as DESIGN.md's contract gives it.
 */
import type { ScanResult } from '../node/scan';
import { escapeJsonControls } from './sanitize';

export function formatJson(result: ScanResult, rootArg: string): string {
  const { files, sections, bytes, elapsedMs } = result.stats;
  return escapeJsonControls(
    JSON.stringify(
      {
        version: 1,
        root: rootArg,
        stats: { files, sections, bytes, elapsedMs },
        pairs: result.pairs,
        groups: result.groups.map((g) => ({ kind: g.kind, members: g.members, maxDistance: g.maxDistance })),
      },
      null,
      2,
    ) + '\n',
  );
}
