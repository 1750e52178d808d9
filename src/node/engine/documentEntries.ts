/**
 * The engine's entries by path: a Map that also keeps, up to date on every set / delete / clear,
 * the documents that have a fingerprint (`docs`, a live map) and their number of sections. A
 * report after a one-file change then looks at that file, not at a copy of every document.
 */
import type { DocumentFingerprint } from '../../core/types';

export class DocumentEntries<E extends { doc: DocumentFingerprint | null }> extends Map<string, E> {
  /** The fingerprinted documents, by path (live: changes with the entries; do not modify). */
  readonly docs = new Map<string, DocumentFingerprint>();
  /** Total number of sections of `docs`. */
  sections = 0;

  override set(path: string, entry: E): this {
    this.forget(path);
    if (entry.doc) {
      this.docs.set(path, entry.doc);
      this.sections += entry.doc.sections.length;
    }
    return super.set(path, entry);
  }

  override delete(path: string): boolean {
    this.forget(path);
    return super.delete(path);
  }

  override clear(): void {
    this.docs.clear();
    this.sections = 0;
    super.clear();
  }

  private forget(path: string): void {
    // `docs` is created after Map's constructor, which never calls set without an iterable.
    const doc = this.docs.get(path);
    if (doc === undefined) return;
    this.docs.delete(path);
    this.sections -= doc.sections.length;
  }
}
