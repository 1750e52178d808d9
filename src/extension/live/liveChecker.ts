/**
 * While typing (`neardup.liveWhileTyping`): the active document is re-checked about
 * {@link IDLE_MS} after the last edit. Its text goes to the engine worker (`queryFile` with the
 * text: the worker fingerprints and matches it; this thread never tokenises or hashes), and the
 * answer is kept as the document's unsaved result: the diagnostics show it instead of the saved
 * one, the panel lists it marked "(unsaved)". At most one request per document is in flight: an
 * idle moment during one asks again once it is answered (a burst of keystrokes never queues more
 * than one). A save replaces the unsaved result by the real one (dropped when the save's report
 * arrives); undoing back to the saved text, closing the document or switching the setting off
 * drops it.
 */
import * as vscode from 'vscode';
import type { ViewGroup, ViewItem } from '../../node/engine/engineProtocol';
import type { IndexService } from '../indexing/indexService';
import type { Settings } from '../settings';
import { liveGroups, liveItems } from './liveItems';

/** Quiet time after the last edit before the document is checked. */
export const IDLE_MS = 250;
/** A save's unsaved result is dropped at the latest this long after it (if no report came). */
const SAVE_DROP_MS = 3000;

export class LiveChecker implements vscode.Disposable {
  private readonly results = new Map<string, { items: ViewItem[]; groups: ViewGroup[]; complete: boolean }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<string>();
  /** Documents that went idle again while their request was in flight. */
  private readonly again = new Set<string>();
  /** Saved documents whose unsaved result goes when the next report arrives. */
  private readonly saved = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<string[]>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The unsaved results of these files changed (to none, when dropped). */
  readonly onDidChange = this.emitter.event;
  /** Requests sent to the engine so far (tests). */
  requests = 0;

  constructor(
    private readonly index: IndexService,
    private readonly settings: Settings,
  ) {
    this.disposables.push(
      this.emitter,
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidSaveTextDocument((d) => this.onSaved(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri.fsPath)),
      index.onDidUpdate(() => {
        for (const p of [...this.saved]) this.forget(p);
      }),
      settings.onDidChange((e) => {
        if (e.change.live && !e.current.liveWhileTyping) for (const p of [...this.results.keys(), ...this.timers.keys()]) this.forget(p);
      }),
    );
  }

  /** The unsaved result's items of a file (undefined: none, the saved result holds). */
  itemsOf(fsPath: string): readonly ViewItem[] | undefined {
    return this.results.get(fsPath)?.items;
  }

  /**
   * The unsaved result's items of a file when the answer held every match (the editor's marks
   * take them; a cut answer — a generated file matching by the thousand — leaves the saved marks).
   */
  completeItemsOf(fsPath: string): readonly ViewItem[] | undefined {
    const r = this.results.get(fsPath);
    return r?.complete ? r.items : undefined;
  }

  /** The groups of every unsaved result (the panel lists them first). */
  groups(): ViewGroup[] {
    return [...this.results.values()].flatMap((r) => r.groups);
  }

  /** Nothing waiting or in flight. */
  get idle(): boolean {
    return this.timers.size === 0 && this.inFlight.size === 0;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
  }

  private get enabled(): boolean {
    return this.settings.current.liveWhileTyping;
  }

  /**
   * An edit, or a change of the dirty state (no content changes: VS Code tells it apart, after
   * the edit — so an edit's own event may still see the document clean).
   */
  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    if (doc.uri.scheme !== 'file') return;
    const p = doc.uri.fsPath;
    if (e.contentChanges.length === 0 && !doc.isDirty) {
      // Undone or reverted to the saved text (a save's result is dropped when its report comes).
      if (!this.saved.has(p)) this.forget(p);
      return;
    }
    if (e.contentChanges.length === 0 && this.timers.has(p)) return;
    if (!this.enabled || vscode.window.activeTextEditor?.document !== doc || !vscode.workspace.getWorkspaceFolder(doc.uri)) return;
    this.saved.delete(p);
    const t = this.timers.get(p);
    if (t) clearTimeout(t);
    this.timers.set(
      p,
      setTimeout(() => {
        this.timers.delete(p);
        void this.check(doc);
      }, IDLE_MS),
    );
  }

  private async check(doc: vscode.TextDocument): Promise<void> {
    const p = doc.uri.fsPath;
    if (doc.isClosed || !doc.isDirty || !this.enabled) return;
    if (this.inFlight.has(p)) {
      this.again.add(p);
      return;
    }
    this.inFlight.add(p);
    this.requests++;
    const version = doc.version;
    let items: ViewItem[] | undefined;
    let complete = false;
    try {
      const answer = await this.index.query(doc.uri, doc.getText());
      complete = answer.total === undefined;
      items = liveItems(p, answer);
    } catch {
      items = undefined; // the engine stopped: the saved result holds
    } finally {
      this.inFlight.delete(p);
    }
    // Saved, reverted or closed meanwhile: the answer is of text that is no longer unsaved.
    if (items && !doc.isClosed && doc.isDirty && this.enabled && !this.saved.has(p)) {
      this.results.set(p, { items, groups: liveGroups(items), complete });
      this.emitter.fire([p]);
    }
    if (this.again.delete(p) && doc.version !== version) void this.check(doc);
  }

  private onSaved(doc: vscode.TextDocument): void {
    const p = doc.uri.fsPath;
    const t = this.timers.get(p);
    if (t) clearTimeout(t);
    this.timers.delete(p);
    this.again.delete(p);
    if (!this.results.has(p)) return;
    // The save goes to the engine at once: its report replaces this result.
    this.saved.add(p);
    setTimeout(() => this.saved.has(p) && this.forget(p), SAVE_DROP_MS).unref?.();
  }

  private forget(p: string): void {
    const t = this.timers.get(p);
    if (t) clearTimeout(t);
    this.timers.delete(p);
    this.again.delete(p);
    this.saved.delete(p);
    if (this.results.delete(p)) this.emitter.fire([p]);
  }
}
