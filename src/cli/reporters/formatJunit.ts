/**
 * The JUnit XML report (`--format junit`), which CI systems (GitLab's test reports, Jenkins, Azure
 * Pipelines, GitHub test-report actions) show beside the tests: one test suite per kind, one test
 * case per group of near duplicates, failed with one failure (the finding) naming every copy and
 * the group's figures. No group: one passing test case, so that the report says the check ran.
 * With `--baseline` only the groups holding a new pair are there. File names are untrusted: XML
 * escapes, and the characters XML 1.0 cannot hold written as \xNN.
 */
import { cellRange, describeLines } from '../../core/containers/cellLines';
import type { Location, ReportGroup } from '../../core/report/report';
import type { ScanResult } from '../../node/scan/scan';
import type { BaselineSummary } from '../baseline';
import { sanitizeForTerminal } from '../sanitize';

/** Text safe in XML 1.0 content and attribute values. */
export function xmlText(s: string): string {
  return sanitizeForTerminal(s)
    // eslint-disable-next-line no-control-regex
    .replace(/[\ud800-\udfff\ufffe\uffff]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function where(loc: Location): string {
  if (loc.startLine === undefined) return loc.path;
  const r = cellRange(loc);
  return r.cell !== undefined ? `${loc.path} ${describeLines(r)}` : `${loc.path}:${loc.startLine}-${loc.endLine}`;
}

const pct = (distance: number) => `${((1 - distance / 64) * 100).toFixed(1)}%`;

export function formatJunit(result: ScanResult, baseline?: BaselineSummary): string {
  const seconds = (result.stats.elapsedMs / 1000).toFixed(3);
  const kinds: Array<{ kind: 'file' | 'section'; name: string; groups: ReportGroup[] }> = [
    { kind: 'file', name: 'near-duplicate files', groups: result.groups.filter((g) => g.kind === 'file') },
    { kind: 'section', name: 'near-duplicate sections', groups: result.groups.filter((g) => g.kind === 'section') },
  ];
  const total = result.groups.length;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="NearDup" tests="${Math.max(1, total)}" failures="${total}" time="${seconds}">`];
  for (const k of kinds) {
    if (k.groups.length === 0) continue;
    out.push(`  <testsuite name="${k.name}" tests="${k.groups.length}" failures="${k.groups.length}" errors="0" skipped="0">`);
    for (const g of k.groups) {
      const locs = g.locations ?? g.members.map((p) => ({ path: p }));
      const first = where(locs[0]);
      const name = locs.length === 2 ? `${first} ~ ${where(locs[1])}` : `${first} and ${locs.length - 1} more copies`;
      const message = `${locs.length} near-duplicate ${k.kind === 'file' ? 'files' : 'sections'}, largest distance ${g.maxDistance} (similarity at least ${pct(g.maxDistance)})`;
      out.push(`    <testcase classname="neardup.${k.kind}" name="${xmlText(name)}" file="${xmlText(locs[0].path)}">`);
      out.push(`      <failure type="neardup/near-duplicate-${k.kind}" message="${xmlText(message)}">${xmlText([message + ':', ...locs.map((l) => '  ' + where(l))].join('\n'))}</failure>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  if (total === 0) {
    const none = baseline ? `no new near duplicates (${baseline.matched} pairs in the baseline ${baseline.file})` : 'no near duplicates';
    out.push('  <testsuite name="near duplicates" tests="1" failures="0" errors="0" skipped="0">');
    out.push(`    <testcase classname="neardup" name="${xmlText(none)}"/>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
