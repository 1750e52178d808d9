/**
 * The items the extension host was last sent, per file: a report event carries a file's items
 * only when they differ from these (EngineReport.delta). Items are compared as their JSON would
 * be (`sameJson`: the same values, properties set to undefined as absent), walking both lists
 * instead of writing each file's items out as text at every report (~170 ms and ~36 MB of strings
 * for a full index's located report on the small bench tree).
 */
import type { ViewItem } from '../engineProtocol';

/** Whether `a` and `b` give the same JSON (key order aside): plain values, arrays and objects. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] === undefined ? null : a[i], b[i] === undefined ? null : b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined || typeof v === 'function') continue;
    n++;
    if (!sameJson(v, y[k])) return false;
  }
  let m = 0;
  for (const k in y) if (y[k] !== undefined && typeof y[k] !== 'function') m++;
  return n === m;
}

/** The items last sent, by file. */
export class SentItems {
  private readonly byPath = new Map<string, readonly ViewItem[]>();

  /** Notes `list` as the file's items sent; true when they differ from those sent before (or none were). */
  offer(path: string, list: readonly ViewItem[]): boolean {
    const last = this.byPath.get(path);
    this.byPath.set(path, list);
    return last === undefined || !sameJson(last, list);
  }

  /** The file has no items now; true when it had some sent. */
  delete(path: string): boolean {
    return this.byPath.delete(path);
  }

  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }
}
