/**
 * How the pairs of a folder's baseline show (`neardup.baseline.show`), on the host: the engine
 * marks each twin its folder's baseline holds (`ViewTwin.baseline`); here an item becomes what the
 * Problems list shows — its new twins as before, its baseline twins dimmed apart, or left out — and
 * a group of the panel is a baseline group when every twin its members name inside it is marked.
 * Pure (no vscode): nothing is hashed here.
 */
import type { ViewGroup, ViewItem } from '../../node/engine/engineProtocol';

export type BaselineShow = 'hide' | 'dim' | 'show';

/** An item as shown: its twins, and whether it stands for baseline pairs (dimmed). */
export interface ShownItem {
  item: ViewItem;
  dimmed: boolean;
}

/**
 * The item's diagnostics-to-be: `show` keeps it whole; otherwise its new twins make one (with the
 * twins beyond the list still counted), and under `dim` its baseline twins another, dimmed. An
 * item whose listed twins are all in the baseline has no new diagnostic.
 */
export function splitByBaseline(item: ViewItem, show: BaselineShow): ShownItem[] {
  if (show === 'show' || !item.twins.some((t) => t.baseline)) return [{ item, dimmed: false }];
  const fresh = item.twins.filter((t) => !t.baseline);
  const known = item.twins.filter((t) => t.baseline);
  const out: ShownItem[] = [];
  // The twins beyond the listed ones are counted with the new ones (only the listed are marked).
  if (fresh.length > 0) out.push({ item: { ...item, twins: fresh, moreTwins: item.moreTwins }, dimmed: false });
  if (show === 'dim') out.push({ item: { ...item, twins: known, moreTwins: 0 }, dimmed: true });
  return out;
}

/**
 * The items as the editor's marks, hover and CodeLens show them: under `hide` and `dim` without
 * their baseline twins, and without the items left with none (a gutter bar has no dimmed look).
 */
export function withoutBaselineTwins(items: readonly ViewItem[], show: BaselineShow): readonly ViewItem[] {
  if (show === 'show' || !items.some((i) => i.twins.some((t) => t.baseline))) return items;
  return items.flatMap((i) => {
    if (!i.twins.some((t) => t.baseline)) return [i];
    const twins = i.twins.filter((t) => !t.baseline);
    return twins.length > 0 ? [{ ...i, twins }] : [];
  });
}

/** Every twin inside the group that its members' items name is in the baseline (and there is one). */
export function isBaselineGroup(group: ViewGroup, itemsOf: (path: string) => readonly ViewItem[]): boolean {
  const inGroup = new Set(group.members.map((m) => locKey(m)));
  let marked = 0;
  for (const m of group.members) {
    const item = itemsOf(m.path).find((i) => i.kind === group.kind && locKey(i.loc) === locKey(m));
    if (!item) return false;
    for (const t of item.twins) {
      if (!inGroup.has(locKey(t))) continue;
      if (!t.baseline) return false;
      marked++;
    }
  }
  return marked > 0;
}

function locKey(l: { path: string; startLine?: number; endLine?: number }): string {
  return l.startLine === undefined ? l.path : `${l.path}#${l.startLine}-${l.endLine}`;
}
