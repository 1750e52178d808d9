/**
 * Human-readable report: groups with their members, line ranges and Hamming distances to the
 * group's first member (its representative), closest groups first.
 */
import { hammingDistance, similarity } from '../core/index/hamming';
import type { Location, ReportGroup } from '../core/report/report';
import type { Fp64 } from '../core/types';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { sanitizeForTerminal } from './sanitize';

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function where(loc: Location): string {
  const p = sanitizeForTerminal(loc.path);
  return loc.startLine !== undefined ? `${p}:${loc.startLine}-${loc.endLine}` : p;
}

/** With a baseline, `result` holds only the new pairs; a line says how many the baseline holds. */
export function formatText(result: ScanResult, baseline?: BaselineSummary): string {
  const byPath = new Map(result.documents.map((d) => [d.path, d.doc]));
  const fingerprintOf = (loc: Location): Fp64 | undefined => {
    const doc = byPath.get(loc.path);
    if (!doc) return undefined;
    if (loc.startLine === undefined) return doc.file ?? undefined;
    return doc.sections.find((s) => s.startLine === loc.startLine && s.endLine === loc.endLine);
  };
  const locationsOf = (g: ReportGroup): Location[] => g.locations ?? g.members.map((path) => ({ path }));

  const { files, sections, bytes, elapsedMs, skipped } = result.stats;
  const fileGroups = result.groups.filter((g) => g.kind === 'file');
  const sectionGroups = result.groups.filter((g) => g.kind === 'section');
  const lines: string[] = [];
  lines.push(
    `NearDup: ${files} files, ${sections} sections, ${fmtBytes(bytes)} in ${(elapsedMs / 1000).toFixed(2)} s` +
      (skipped ? ` (${skipped} skipped)` : ''),
  );
  if (baseline) {
    lines.push(`Baseline ${sanitizeForTerminal(baseline.file)}: ${baseline.new} new pairs; ${baseline.matched} pairs already in the baseline are not shown.`);
  }
  lines.push(`${fileGroups.length} groups of near-duplicate files, ${sectionGroups.length} groups of near-duplicate sections.`);
  const section = (title: string, groups: ReportGroup[], noun: string) => {
    if (!groups.length) return;
    lines.push('', title);
    groups.forEach((g, i) => {
      const locs = locationsOf(g);
      lines.push(`  ${i + 1}. ${locs.length} ${noun}, largest distance ${g.maxDistance}`);
      const rep = fingerprintOf(locs[0]);
      lines.push(`     ${where(locs[0])}`);
      const rest = locs.slice(1).map((loc) => {
        const fp = fingerprintOf(loc);
        const d = rep && fp ? hammingDistance(rep.hi, rep.lo, fp.hi, fp.lo) : -1;
        return { loc, d };
      });
      rest.sort((x, y) => x.d - y.d);
      for (const { loc, d } of rest) {
        const info = d >= 0 ? `distance ${d} (${(similarity(d) * 100).toFixed(1)}%)` : '';
        lines.push(`     ${where(loc)}  ${info}`);
      }
    });
  };
  section('Near-duplicate files', fileGroups, 'files');
  section('Near-duplicate sections', sectionGroups, 'sections');
  return lines.join('\n') + '\n';
}
