/**
 * The JSON report, exactly as DESIGN.md's contract gives it (plus `truncated` when the pair cap
 * was reached).
 */
import { cellRange, memberLabel, withCell } from '../core/containers/cellLines';
import type { Location, ReportGroup } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { escapeJsonControls, hasJsonControls } from './sanitize';

const inNotebook = (loc: Location): boolean => cellRange(loc).cell !== undefined;

function membersOf(g: ReportGroup): string[] {
  return g.locations?.some(inNotebook) ? g.locations.map(memberLabel) : g.members;
}

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
        // A side in a notebook's cell also has `cell` (1-based), its lines those inside the cell.
        pairs: result.pairs.map((p) => (inNotebook(p.a) || inNotebook(p.b) ? { ...p, a: withCell(p.a), b: withCell(p.b) } : p)),
        // `located` (with --locate): a group of copies located inside files. A notebook's section
        // member reads `path:cell3:2-10`.
        groups: result.groups.map((g) => ({ kind: g.kind, members: membersOf(g), maxDistance: g.maxDistance, ...(g.located ? { located: true } : {}) })),
        // Beyond DESIGN.md's contract, present only when the pairs of a kind reached the cap: the
        // report holds only some of them (a consumer that ignores it still reads a valid report).
        ...(result.truncated ? { truncated: { files: result.truncated.files, sections: result.truncated.sections } } : {}),
      },
      null,
      2,
    ) + '\n';
  return escape ? escapeJsonControls(json) : json;
}
