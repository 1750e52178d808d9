/**
 * The Markdown report (`--format markdown`), compact enough for a pull-request comment: the counts,
 * then a table of the closest groups (at most {@link MAX_GROUPS}, then "and N more"), each with the
 * clone kinds of its pairs (exact, renamed, edited).
 *
 * File names come from an untrusted workspace: each path is printed as a code span (no emphasis,
 * link, HTML, @mention or #reference can start inside one), its control characters escaped as
 * in the text report, its pipes escaped for the table (a backslash right before a pipe is shown
 * as \x5c, so no name can end the escape), fenced by more backticks than it holds.
 */
import { cellRange, describeLines } from '../core/containers/cellLines';
import type { Location, ReportGroup } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { sanitizeForTerminal } from './sanitize';
import { countKinds, describeKinds, groupKinds } from './reporters/cloneKinds';

export const MAX_GROUPS = 20;
/** Members listed in one cell; the rest are counted. */
export const MAX_MEMBERS = 10;

/** A string as an inline code span that is safe in a table cell. */
export function markdownCode(s: string): string {
  const text = sanitizeForTerminal(s).replace(/\\(?=\|)/g, '\\x5c').replace(/\|/g, '\\|');
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space at each end when both ends have one: pad when an end is a
  // backtick (it would join the fence) or a space (it would be stripped).
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function where(loc: Location): string {
  const p = markdownCode(loc.path);
  // `lines 10–40`, in a notebook `cell 3, lines 2–10`.
  return loc.startLine === undefined ? p : `${p} ${describeLines(cellRange(loc))}`;
}

const pct = (distance: number) => `${((1 - distance / 64) * 100).toFixed(1)}%`;

export function formatMarkdown(result: ScanResult, baseline?: BaselineSummary): string {
  const { files, sections } = result.stats;
  const out: string[] = ['### NearDup: near duplicates', ''];
  const pairs = result.pairs.length;
  let counts = `**${files}** files, **${sections}** sections, **${pairs}** ${baseline ? 'new ' : ''}near-duplicate pair${pairs === 1 ? '' : 's'}`;
  // By clone kind, then what the baseline holds: `(1 exact, 2 edited; 3 more in the baseline …)`.
  const notes = pairs > 0 ? [describeKinds(countKinds(result.pairs))] : [];
  if (baseline) notes.push(`${baseline.matched} more in the baseline ${markdownCode(baseline.file)}`);
  if (notes.length) counts += ` (${notes.join('; ')})`;
  out.push(counts + '.');
  if (result.truncated) out.push('', '_The report was cut at the pair cap: it holds only some of the pairs._');
  // Closest first: the groups of both kinds by their largest distance (stable, so files first).
  const groups: ReportGroup[] = [...result.groups].sort((x, y) => x.maxDistance - y.maxDistance);
  if (groups.length === 0) {
    out.push('', baseline ? 'No new near duplicates.' : 'No near duplicates.');
    return out.join('\n') + '\n';
  }
  out.push('', '| # | kind | where | copies | largest distance | similarity ≥ |', '| ---: | --- | --- | --- | ---: | ---: |');
  const shown = groups.slice(0, MAX_GROUPS);
  const kinds = groupKinds(shown, result.pairs);
  shown.forEach((g, i) => {
    const locs = g.locations ?? g.members.map((p) => ({ path: p }));
    const cells = locs.slice(0, MAX_MEMBERS).map(where);
    if (locs.length > MAX_MEMBERS) cells.push(`and ${locs.length - MAX_MEMBERS} more`);
    const kind = `${locs.length} ${g.kind === 'file' ? 'files' : 'sections'}`;
    out.push(`| ${i + 1} | ${kind} | ${cells.join('<br>')} | ${describeKinds(kinds[i]) || '—'} | ${g.maxDistance} | ${pct(g.maxDistance)} |`);
  });
  if (groups.length > MAX_GROUPS) out.push('', `…and ${groups.length - MAX_GROUPS} more group${groups.length - MAX_GROUPS === 1 ? '' : 's'}.`);
  return out.join('\n') + '\n';
}
