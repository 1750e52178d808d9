/**
 * The answer of a query on an unsaved document (`queryFile` with its text) as the views' shapes:
 * its items (the file and each section with their twins, for the diagnostics) and groups (the
 * document with its twins, for the panel), keyed `unsaved:` so they never meet a report's.
 *
 * No vscode import: unit-tested in plain Node.
 */
import type { QueryResult, ViewGroup, ViewItem } from '../../node/engine/engineProtocol';

export const UNSAVED_KEY = 'unsaved:';

/** The items of `path` from its query: the file first, then its sections by line; twins closest first. */
export function liveItems(path: string, result: QueryResult): ViewItem[] {
  if (result.status !== 'ok') return [];
  const byPlace = new Map<string, ViewItem>();
  for (const m of result.matches) {
    const self = m.kind === 'section' ? m.self : undefined;
    const key = self ? `${self.startLine}-${self.endLine}` : 'file';
    let item = byPlace.get(key);
    if (!item) {
      item = { kind: m.kind, loc: self ? { path, startLine: self.startLine, endLine: self.endLine } : { path }, twins: [], moreTwins: 0 };
      byPlace.set(key, item);
    }
    item.twins.push({ ...m.other, distance: m.distance, similarity: m.similarity });
  }
  const items = [...byPlace.values()];
  for (const i of items) i.twins.sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.startLine ?? 0) - (b.startLine ?? 0)));
  items.sort((a, b) => (a.kind === b.kind ? (a.loc.startLine ?? 0) - (b.loc.startLine ?? 0) : a.kind === 'file' ? -1 : 1));
  return items;
}

/** One group per item: the unsaved document (or section) first, then its twins. */
export function liveGroups(items: readonly ViewItem[]): ViewGroup[] {
  return items.map((i) => ({
    kind: i.kind,
    key: `${UNSAVED_KEY}${i.kind}:${i.loc.path}:${i.loc.startLine ?? 0}`,
    maxDistance: Math.max(0, ...i.twins.map((t) => t.distance)),
    members: [{ ...i.loc, distance: 0, similarity: 1 }, ...i.twins.map((t) => ({ ...t }))],
  }));
}

export function isUnsavedGroup(g: ViewGroup): boolean {
  return g.key.startsWith(UNSAVED_KEY);
}
