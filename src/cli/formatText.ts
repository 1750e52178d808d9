/**
 * Human-readable report: groups with their members, line ranges and Hamming distances to the
 * group's first member (its representative) and how it was copied from it (clone kind), closest
 * groups first. Groups of located copies (`--locate`) show, for each member, the clone kind and
 * similarity of the pair that links it.
 */
import { cellRange, describeLines } from '../core/containers/cellLines';
import { hammingDistance, similarity } from '../core/index/hamming';
import type { Location, ReportGroup } from '../core/report/report';
import { cloneKind } from '../core/fingerprint/cloneHashes';
import type { ItemFingerprint } from '../core/types';
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
  if (loc.startLine === undefined) return p;
  // A notebook's section: `nb.ipynb cell 3, lines 2–10`.
  const r = cellRange(loc);
  return r.cell !== undefined ? `${p} ${describeLines(r)}` : `${p}:${loc.startLine}-${loc.endLine}`;
}

/** With a baseline, `result` holds only the new pairs; a line says how many the baseline holds. */
export function formatText(result: ScanResult, baseline?: BaselineSummary): string {
  const byPath = new Map(result.documents.map((d) => [d.path, d.doc]));
  const fingerprintOf = (loc: Location): ItemFingerprint | undefined => {
    const doc = byPath.get(loc.path);
    if (!doc) return undefined;
    if (loc.startLine === undefined) return doc.file ?? undefined;
    return doc.sections.find((s) => s.startLine === loc.startLine && s.endLine === loc.endLine);
  };
  const locationsOf = (g: ReportGroup): Location[] => g.locations ?? g.members.map((path) => ({ path }));
  // A located pair's side lies within one place of its group.
  const located = result.pairs.filter((p) => p.located);
  const within = (place: Location, s: Location) => place.path === s.path && place.startLine! <= s.startLine! && s.endLine! <= place.endLine!;
  const locatedInfo = (rep: Location, loc: Location): string => {
    const p =
      located.find((q) => (within(rep, q.a) && within(loc, q.b)) || (within(rep, q.b) && within(loc, q.a))) ??
      located.find((q) => within(loc, q.a) || within(loc, q.b));
    return p ? `${p.clone} copy, similarity ${(p.similarity * 100).toFixed(1)}%, distance ${p.distance}` : '';
  };

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
      if (g.located && g.kind === 'file') {
        // Files the located regions make up (--locate): each member with the pair that links it.
        lines.push(`  ${i + 1}. ${locs.length} files, edited copies located by their regions, largest distance ${g.maxDistance}`);
        lines.push(`     ${where(locs[0])}`);
        for (const loc of locs.slice(1)) {
          const p = located.find((q) => q.kind === 'file' && ((q.a.path === locs[0].path && q.b.path === loc.path) || (q.b.path === locs[0].path && q.a.path === loc.path))) ?? located.find((q) => q.kind === 'file' && (q.a.path === loc.path || q.b.path === loc.path));
          const regions = p?.regions ?? [];
          const shown = regions.slice(0, 3).map((r) => (p!.a.path === loc.path ? `${r.a.startLine}-${r.a.endLine}` : `${r.b.startLine}-${r.b.endLine}`));
          const info = p ? `${p.clone} copy, similarity ${(p.similarity * 100).toFixed(1)}%, distance ${p.distance}; regions at lines ${shown.join(', ')}${regions.length > 3 ? ` and ${regions.length - 3} more` : ''}` : '';
          lines.push(`     ${where(loc)}  ${info}`);
        }
        return;
      }
      if (g.located) {
        lines.push(`  ${i + 1}. ${locs.length} places of a located copy, largest distance ${g.maxDistance}`);
        lines.push(`     ${where(locs[0])}`);
        for (const loc of locs.slice(1)) lines.push(`     ${where(loc)}  ${locatedInfo(locs[0], loc)}`);
        return;
      }
      lines.push(`  ${i + 1}. ${locs.length} ${noun}, largest distance ${g.maxDistance}`);
      const rep = fingerprintOf(locs[0]);
      lines.push(`     ${where(locs[0])}`);
      const rest = locs.slice(1).map((loc) => {
        const fp = fingerprintOf(loc);
        const d = rep && fp ? hammingDistance(rep.hi, rep.lo, fp.hi, fp.lo) : -1;
        // How it was copied from the representative (the pair's clone kind when they pair).
        const kind = rep && fp ? cloneKind(rep, fp) : undefined;
        return { loc, d, kind };
      });
      rest.sort((x, y) => x.d - y.d);
      for (const { loc, d, kind } of rest) {
        const info = (d >= 0 ? `distance ${d} (${(similarity(d) * 100).toFixed(1)}%)` : '') + (kind ? `, ${kind} copy` : '');
        lines.push(`     ${where(loc)}  ${info}`);
      }
    });
  };
  section('Near-duplicate files', fileGroups, 'files');
  section('Near-duplicate sections', sectionGroups, 'sections');
  return lines.join('\n') + '\n';
}
