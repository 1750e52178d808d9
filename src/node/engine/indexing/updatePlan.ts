/**
 * What a batch of file events asks of the engine's index (updateJob.ts: EngineState's `update`),
 * before any file is read: renames move their entries (checked again by size and mtime), removals
 * drop a file or a whole folder, and each upsert is stat'ed — the files to read (new, or changed
 * in size or mtime), those to forget (gone, no longer eligible, not a regular file, too large:
 * skipped with a reason), and whether the batch needs a walk instead (an ignore file changed, a
 * folder appeared). The entries are changed in place; nothing is read here.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** A file to read: its path (absolute), and the size and mtime it had when stat'ed. */
export interface Candidate {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the plan needs of an index entry. */
export interface PlannedEntry {
  size: number;
  mtimeMs: number;
  transient?: boolean;
}

/** What the plan needs of the engine. */
export interface UpdatePlanHost<E extends PlannedEntry> {
  entries: {
    keys(): IterableIterator<string>;
    [Symbol.iterator](): IterableIterator<[string, E]>;
    get(p: string): E | undefined;
    set(p: string, e: E): void;
    delete(p: string): boolean;
  };
  /** Whether a path is one the index takes (inside a root, not excluded). */
  eligible(abs: string): Promise<{ ok: boolean }>;
  /** A file left out, with the reason. */
  skip(abs: string, reason: string): void;
  maxFileSizeBytes: number;
}

export interface UpdatePlan {
  /** Files to read, in the order found. */
  toRead: Candidate[];
  /** Every path whose entry changed (moved, dropped, to be read). */
  changed: Set<string>;
  /** The files the batch names (after renames and removals). */
  upserts: Set<string>;
  /** An ignore file changed or a folder appeared: walk again instead. */
  needsWalk: boolean;
  removed: number;
  skipped: number;
}

export const isRuleFile = (p: string): boolean => path.basename(p) === '.gitignore' || p.endsWith(path.join('.git', 'info', 'exclude'));

/** The plan of one batch of file events (paths absolute or relative to the process's folder). */
export async function planUpdate<E extends PlannedEntry>(
  h: UpdatePlanHost<E>,
  batch: { upserts: string[]; removes: string[]; renames: Array<{ from: string; to: string }> },
): Promise<UpdatePlan> {
  let needsWalk = false;
  let removed = 0;
  let skipped = 0;
  const upserts = new Set<string>();
  const changed = new Set<string>();
  const entries = h.entries;
  const deleteTree = (p: string) => {
    const prefix = p + path.sep;
    for (const k of [...entries.keys()]) {
      if (k === p || k.startsWith(prefix)) {
        entries.delete(k);
        changed.add(k);
        removed++;
      }
    }
  };
  const forget = (abs: string) => {
    if (entries.delete(abs)) {
      changed.add(abs);
      removed++;
    }
  };
  for (const { from, to } of batch.renames) {
    const a = path.resolve(from);
    const b = path.resolve(to);
    if (isRuleFile(a) || isRuleFile(b)) needsWalk = true;
    const prefix = a + path.sep;
    let n = 0;
    for (const [k, e] of [...entries]) {
      if (k !== a && !k.startsWith(prefix)) continue;
      entries.delete(k);
      const target = b + k.slice(a.length);
      entries.set(target, e); // validated below by size and mtime
      changed.add(k).add(target);
      upserts.add(target);
      n++;
    }
    if (n === 0) upserts.add(b);
  }
  for (const p of batch.removes) {
    const abs = path.resolve(p);
    if (isRuleFile(abs)) needsWalk = true;
    upserts.delete(abs);
    deleteTree(abs);
  }
  for (const p of batch.upserts) upserts.add(path.resolve(p));

  const toRead: Candidate[] = [];
  for (const abs of upserts) {
    if (isRuleFile(abs)) {
      needsWalk = true;
      continue;
    }
    if (!(await h.eligible(abs)).ok) {
      forget(abs);
      continue;
    }
    let st;
    try {
      st = await fsp.lstat(abs);
    } catch {
      deleteTree(abs);
      continue;
    }
    if (st.isDirectory()) {
      needsWalk = true; // a folder appeared (created, moved in, renamed): walk it with the rules
      continue;
    }
    if (!st.isFile()) {
      forget(abs);
      if (st.isSymbolicLink()) {
        skipped++;
        h.skip(abs, 'symbolic link (not followed)');
      }
      continue;
    }
    if (st.size > h.maxFileSizeBytes) {
      forget(abs);
      skipped++;
      h.skip(abs, `file too large (${st.size} bytes > limit ${h.maxFileSizeBytes} bytes)`);
      continue;
    }
    const e = entries.get(abs);
    if (e && e.size === st.size && e.mtimeMs === st.mtimeMs && !e.transient) continue;
    toRead.push({ path: abs, size: st.size, mtimeMs: st.mtimeMs });
    changed.add(abs);
  }
  return { toRead, changed, upserts, needsWalk, removed, skipped };
}
