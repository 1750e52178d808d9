/**
 * The few lines a hover shows of a twin: a line diff of this range against the twin's (lines
 * compared with their whitespace collapsed), cut down to the lines that differ and one line of
 * context around them, with the gaps counted. Pure and bounded (no `vscode`): ranges longer than
 * {@link MAX_DIFF_CELLS} allow are compared by their common start and end only.
 */

import { lineDiff, MAX_DIFF_CELLS, type DiffLine } from '../../core/report/lineDiff';

export { lineDiff, MAX_DIFF_CELLS, type DiffLine };

/** A compact diff's entries: lines, and gaps of lines left out (`changed` of them differing: above the focus). */
export type CompactEntry = DiffLine | { op: '…'; skipped: number; changed?: number };

/**
 * The differing lines with `context` unchanged lines around each run of them, at most `maxLines`
 * lines (then the count of the differing lines not shown). No differences: an empty list.
 * `focus` (a 0-based line of `here`, e.g. the one under the mouse in a long range): the shown
 * lines start at the first run of differences that reaches it or comes after it (from the top
 * when none does); what is above is one gap that counts its differing lines.
 */
export function compactDiff(diff: readonly DiffLine[], context = 1, maxLines = 12, focus = 0): { entries: CompactEntry[]; hiddenChanges: number } {
  const keep = new Uint8Array(diff.length);
  let changes = 0;
  diff.forEach((d, i) => {
    if (d.op === ' ') return;
    changes++;
    for (let k = Math.max(0, i - context); k <= Math.min(diff.length - 1, i + context); k++) keep[k] = 1;
  });
  if (changes === 0) return { entries: [], hiddenChanges: 0 };
  // The first kept entry of the run that ends at or after the focus (runs are judged by their
  // lines of `here`; a '+' line sits where it would be inserted).
  let first = 0;
  if (focus > 0) {
    let hereLine = 0;
    let runStart = -1;
    first = -1;
    for (let i = 0; i < diff.length && first < 0; i++) {
      if (keep[i] && runStart < 0) runStart = i;
      if (!keep[i]) runStart = -1;
      if (diff[i].op !== '+') hereLine++;
      if (keep[i] && hereLine - 1 >= focus && runStart >= 0) first = runStart;
    }
    if (first < 0) first = 0;
  }
  const entries: CompactEntry[] = [];
  if (first > 0) {
    const changed = diff.slice(0, first).filter((d) => d.op !== ' ').length;
    entries.push(changed > 0 ? { op: '…', skipped: first, changed } : { op: '…', skipped: first });
  }
  let lines = 0;
  let shownChanges = 0;
  let skipped = 0;
  for (let i = first; i < diff.length; i++) {
    if (!keep[i]) {
      skipped++;
      continue;
    }
    if (lines >= maxLines) break;
    if (skipped > 0) entries.push({ op: '…', skipped });
    skipped = 0;
    entries.push(diff[i]);
    lines++;
    if (diff[i].op !== ' ') shownChanges++;
  }
  return { entries, hiddenChanges: changes - shownChanges };
}

/**
 * A compact diff as a fenced ```diff block (`…` lines say how many unchanged lines were left out);
 * the fence is longer than any run of backticks in the lines, so no line can close it.
 */
export function diffBlock(entries: readonly CompactEntry[], gap: (skipped: number, changed: number) => string, maxWidth = 120): string {
  const clip = (s: string) => (s.length > maxWidth ? s.slice(0, maxWidth - 1) + '…' : s);
  const body = entries
    .map((e) => (e.op === '…' ? `  ${gap(e.skipped, e.changed ?? 0)}` : `${e.op} ${clip(e.text.replace(/\t/g, '  '))}`))
    .join('\n');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}diff\n${body}\n${fence}`;
}
