/**
 * Clone kinds in the CLI's reports and exit code: counting a report's pairs by kind, saying the
 * counts in words, the kinds of a group's pairs, and `--fail-on-kind`'s list.
 */
import type { ReportGroup, ReportPair } from '../../core/report/report';
import { groupOfMembers, locKey } from './pairGroups';
import type { CloneKind } from '../../core/types';

export const CLONE_KINDS: readonly CloneKind[] = ['exact', 'renamed', 'edited'];

export type KindCounts = Record<CloneKind, number>;

export function countKinds(pairs: Iterable<ReportPair>): KindCounts {
  const counts: KindCounts = { exact: 0, renamed: 0, edited: 0 };
  for (const p of pairs) counts[p.clone]++;
  return counts;
}

/** "2 exact, 1 edited" (kinds with no pair left out; '' when there is none). */
export function describeKinds(counts: KindCounts): string {
  return CLONE_KINDS.filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${k}`)
    .join(', ');
}

/**
 * The kind counts of each group's own pairs (both sides members of it: a file pair carrying its
 * regions and a located group's pairs included, as the text report counts them), parallel to `groups`.
 */
export function groupKinds(groups: readonly ReportGroup[], pairs: readonly ReportPair[]): KindCounts[] {
  const out = groups.map((): KindCounts => ({ exact: 0, renamed: 0, edited: 0 }));
  const groupOf = groupOfMembers(groups, true);
  for (const p of pairs) {
    const gi = groupOf.get(locKey(p.kind, p.a));
    if (gi !== undefined && groupOf.get(locKey(p.kind, p.b)) === gi) out[gi][p.clone]++;
  }
  return out;
}

/**
 * `--fail-on-kind`'s value: a comma-separated list of clone kinds (`exact,renamed`). The kinds,
 * or an error message.
 */
export function parseKinds(value: string): { kinds: CloneKind[] } | { error: string } {
  const kinds: CloneKind[] = [];
  for (const part of value.split(',')) {
    const k = part.trim();
    if (!(CLONE_KINDS as readonly string[]).includes(k)) return { error: `--fail-on-kind takes exact, renamed or edited (a comma-separated list), not "${k}"` };
    if (!kinds.includes(k as CloneKind)) kinds.push(k as CloneKind);
  }
  return { kinds };
}

/**
 * Whether `--fail-on-pairs` / `--fail-on-kind` fail the run: the pairs counted (all, or those of
 * the kinds named), the threshold (`--fail-on-pairs`, or 1 with `--fail-on-kind` alone) and what
 * was counted, in words; undefined when it passes.
 */
export function failureOf(pairs: readonly ReportPair[], flags: { failOnPairs?: number; failOnKind?: CloneKind[] }): { counted: number; threshold: number; what: string } | undefined {
  const kinds = flags.failOnKind;
  const threshold = flags.failOnPairs ?? (kinds ? 1 : undefined);
  if (threshold === undefined) return undefined;
  const counted = kinds ? pairs.filter((p) => kinds.includes(p.clone)).length : pairs.length;
  if (counted < threshold) return undefined;
  return { counted, threshold, what: `near-duplicate pairs${kinds ? ` of kind ${kinds.join(', ')}` : ''}` };
}
