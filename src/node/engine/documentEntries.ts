/**
 * The engine's entries by path ({@link IndexEntry}: what it keeps of a file): a Map that also
 * keeps, up to date on every set / delete / clear, the documents that have a fingerprint (`docs`,
 * a live map), their number of sections, bytes and lines by kind (code, prose), and the paths set
 * or deleted since a consumer last asked ({@link takeChanged}). A report after a one-file change
 * then looks at that file, not at a copy of every document.
 */
import type { ContentKind, DocumentFingerprint } from '../../core/types';

/** What the engine keeps of an indexed file. */
export interface IndexEntry {
  size: number;
  mtimeMs: number;
  /** null: the file was read but skipped (binary, minified…), see `reason`. */
  doc: DocumentFingerprint | null;
  reason?: string;
  /** Lines of a fingerprinted document (absent: not known, e.g. from an older cache). */
  lines?: number;
  /**
   * The skip says nothing about the file: its fingerprint worker died (twice) while reading it.
   * Not written to the cache, and read again by the next walk.
   */
  transient?: boolean;
}

export class DocumentEntries<E extends { doc: DocumentFingerprint | null; lines?: number; size?: number }> extends Map<string, E> {
  /** The fingerprinted documents, by path (live: changes with the entries; do not modify). */
  readonly docs = new Map<string, DocumentFingerprint>();
  /** Total number of sections of `docs`. */
  sections = 0;
  /** Total size in bytes of the entries of `docs` (their `size`). */
  bytes = 0;
  /** Total lines of `docs` by kind (documents whose lines are not known count none). */
  readonly lines: Record<ContentKind, number> = { code: 0, prose: 0 };
  /** Total lines of `docs` by folder (see {@link setFolderOf}). */
  readonly linesByFolder = new Map<string, number>();
  private folderOf: (path: string) => string = () => '.';
  /** Paths set or deleted since the last {@link takeChanged}; null: cleared since (any path may have changed). */
  private changed: Set<string> | null = null;

  /**
   * The paths set or deleted since the last call (an entry set again unchanged is among them),
   * or null when the entries were cleared since (or on the first call): then any path may have changed.
   */
  takeChanged(): Set<string> | null {
    const c = this.changed;
    this.changed = new Set();
    return c;
  }

  /** Stops listing changed paths (a consumer that will not ask for a while); the next {@link takeChanged} answers null. */
  stopChanges(): void {
    this.changed = null;
  }

  /** How a path names its folder for {@link linesByFolder} (the roots changed): recounts them all. */
  setFolderOf(folderOf: (path: string) => string): void {
    this.folderOf = folderOf;
    this.linesByFolder.clear();
    for (const [p, e] of this) if (e.doc && e.lines) this.addFolderLines(p, e.lines);
  }

  private addFolderLines(path: string, n: number): void {
    const f = this.folderOf(path);
    const now = (this.linesByFolder.get(f) ?? 0) + n;
    if (now === 0) this.linesByFolder.delete(f);
    else this.linesByFolder.set(f, now);
  }

  override set(path: string, entry: E): this {
    this.forget(path);
    this.changed?.add(path);
    if (entry.doc) {
      this.docs.set(path, entry.doc);
      this.sections += entry.doc.sections.length;
      this.bytes += entry.size ?? 0;
      this.lines[entry.doc.kind] += entry.lines ?? 0;
      if (entry.lines) this.addFolderLines(path, entry.lines);
    }
    return super.set(path, entry);
  }

  override delete(path: string): boolean {
    this.forget(path);
    if (this.has(path)) this.changed?.add(path);
    return super.delete(path);
  }

  override clear(): void {
    this.docs.clear();
    this.sections = 0;
    this.bytes = 0;
    this.changed = null;
    this.lines.code = 0;
    this.lines.prose = 0;
    this.linesByFolder.clear();
    super.clear();
  }

  /** Lines of a fingerprinted document (undefined: not one, or not known). */
  linesOf(path: string): number | undefined {
    return this.docs.has(path) ? super.get(path)?.lines : undefined;
  }

  private forget(path: string): void {
    // `docs` is created after Map's constructor, which never calls set without an iterable.
    const doc = this.docs.get(path);
    if (doc === undefined) return;
    this.docs.delete(path);
    this.sections -= doc.sections.length;
    const entry = super.get(path);
    this.bytes -= entry?.size ?? 0;
    const lines = entry?.lines ?? 0;
    this.lines[doc.kind] -= lines;
    if (lines) this.addFolderLines(path, -lines);
  }
}
