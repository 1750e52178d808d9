/**
 * Near-duplicate lines marked in the editor: a bar at each marked line's left edge (beside the
 * line numbers) and a mark in the overview ruler, in three theme colours by closeness
 * (`neardup.identicalMark`, `neardup.closeMark`, `neardup.distantMark`). Holds the marks of the
 * open documents (from {@link IndexService.itemsOf}, nothing computed here), moves them with the
 * edits of a document until the next report brings the real lines, and tells the hover and the
 * CodeLens where the marks are now. Off switch: `neardup.decorations.enabled`. Pairs in the
 * folder's baseline are not marked unless `neardup.baseline.show` is `show`.
 */
import * as vscode from 'vscode';
import type { HostTasks } from '../hostTasks';
import type { IndexService, ItemsChange } from '../indexing/indexService';
import type { Settings } from '../settings';
import type { LiveChecker } from '../live/liveChecker';
import { CLOSENESS, marksAt, marksOf, paint, shiftMarks, type Closeness, type LineChange, type Mark } from './marks';
import type { ViewItem } from '../../node/engine/engineProtocol';
import { withoutBaselineTwins } from '../baseline/baselineView';

/** Theme colour ids of the marks (contributed in package.json). */
export const MARK_COLORS: Readonly<Record<Closeness, string>> = {
  identical: 'neardup.identicalMark',
  close: 'neardup.closeMark',
  distant: 'neardup.distantMark',
};

/** What the test API reports of an editor's decorations: 1-based inclusive lines per closeness. */
export type PaintedLines = Record<Closeness, Array<[number, number]>>;

/** After an edit, when to look whether the document is back to its text on disk (reverted, undone). */
const CLEAN_CHECK_MS = 100;

interface DocState {
  marks: Mark[];
  /** Moved by edits since the items were taken (the report's lines are those on disk). */
  shifted: boolean;
}

function lineChangeOf(c: vscode.TextDocumentContentChangeEvent): LineChange {
  let newLines = 0;
  for (let i = c.text.indexOf('\n'); i !== -1; i = c.text.indexOf('\n', i + 1)) newLines++;
  return { start: c.range.start.line, end: c.range.end.line, newLines, atLineStart: c.range.start.character === 0 };
}

/** The document's lines, without the empty line after a final line break (a whole-file mark stops at the last line of text). */
export function textLines(doc: vscode.TextDocument): number {
  return doc.lineCount > 1 && doc.lineAt(doc.lineCount - 1).text === '' ? doc.lineCount - 1 : doc.lineCount;
}

export class EditorMarks implements vscode.Disposable {
  private readonly types: Record<Closeness, vscode.TextEditorDecorationType>;
  private readonly docs = new Map<string, DocState>();
  /** What was last drawn in each visible editor (for the test API), by document URI. */
  private readonly drawn = new Map<string, PaintedLines>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Per document with edits: the timer that looks whether it is back to the text on disk. */
  private readonly cleanChecks = new Map<string, NodeJS.Timeout>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** The marks of a document (undefined: of several) changed: moved, replaced or switched off. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly resetEmitter = new vscode.EventEmitter<void>();
  /**
   * Marks were replaced (a report, a revert) or switched on or off — not moved by an edit (VS Code
   * asks the CodeLens again after edits by itself).
   */
  readonly onDidReset = this.resetEmitter.event;

  constructor(
    private readonly index: IndexService,
    private readonly settings: Settings,
    private readonly tasks: HostTasks,
    private readonly live?: LiveChecker,
  ) {
    const type = (c: Closeness) =>
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        borderStyle: 'solid',
        borderWidth: '0 0 0 3px',
        borderColor: new vscode.ThemeColor(MARK_COLORS[c]),
        overviewRulerColor: new vscode.ThemeColor(MARK_COLORS[c]),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      });
    this.types = { identical: type('identical'), close: type('close'), distant: type('distant') };
    this.disposables.push(
      ...Object.values(this.types),
      this.changeEmitter,
      this.resetEmitter,
      index.onDidChangeItems((c) => this.onItems(c)),
      ...(live ? [live.onDidChange((paths) => this.onLive(paths))] : []),
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.docs.delete(d.uri.toString());
        this.drawn.delete(d.uri.toString());
      }),
      // Saved: the next report brings the real lines (the engine reads the file now).
      vscode.workspace.onDidSaveTextDocument((d) => {
        const state = this.docs.get(d.uri.toString());
        if (state) state.shifted = false;
      }),
      vscode.window.onDidChangeVisibleTextEditors((editors) =>
        this.tasks.time('editor.marks', () => {
          const shown = new Set(editors.map((e) => e.document.uri.toString()));
          for (const key of this.drawn.keys()) if (!shown.has(key)) this.drawn.delete(key);
          editors.forEach((e) => this.draw(e));
        }),
      ),
      settings.onDidChange((e) => {
        if (e.change.editor) this.redrawAll();
        // neardup.baseline.show: the marks again from the items.
        if (e.change.severity) this.onItems({ full: true, paths: [] });
      }),
    );
    this.redrawAll();
  }

  /** A file's items as marked: baseline pairs left out unless `neardup.baseline.show` is `show`. */
  private itemsOf(fsPath: string): readonly ViewItem[] {
    return withoutBaselineTwins(this.index.itemsOf(fsPath), this.settings.current.baselineShow);
  }

  get enabled(): boolean {
    return this.settings.current.decorationsEnabled;
  }

  /** The marks of a document as it is now (taken from the report on first use). */
  marksOf(doc: vscode.TextDocument): readonly Mark[] {
    if (doc.uri.scheme !== 'file') return [];
    const key = doc.uri.toString();
    let state = this.docs.get(key);
    if (!state) this.docs.set(key, (state = { marks: marksOf(this.itemsOf(doc.uri.fsPath)), shifted: false }));
    return state.marks;
  }

  /** The marks covering a line of a document, innermost first. */
  marksAt(doc: vscode.TextDocument, line: number): Mark[] {
    return marksAt(this.marksOf(doc), line);
  }

  /** Test API: the lines drawn in the visible editors of a document (1-based, inclusive), or undefined when none shows it. */
  decorationsFor(uri: vscode.Uri): PaintedLines | undefined {
    return this.drawn.get(uri.toString());
  }

  private onItems(change: ItemsChange): void {
    this.tasks.time('editor.marks', () => {
      const paths = change.full ? undefined : new Set(change.paths);
      for (const doc of vscode.workspace.textDocuments) {
        const key = doc.uri.toString();
        if (doc.uri.scheme !== 'file' || (paths && !paths.has(doc.uri.fsPath))) continue;
        // A document with unsaved edits keeps its moved marks: the report's lines are those on disk.
        const state = this.docs.get(key);
        if (doc.isDirty && state?.shifted) continue;
        this.docs.set(key, { marks: marksOf(this.itemsOf(doc.uri.fsPath)), shifted: false });
        this.redraw(doc);
      }
    });
  }

  /**
   * The unsaved results of these files changed (live/liveChecker.ts): an unsaved result's lines are
   * those of the text being edited, so its marks replace the moved ones (and stay through reports
   * while the document is dirty); a dropped one gives way to the report's marks once the document
   * is back to its saved text (a save's report brings them anyway).
   */
  private onLive(paths: readonly string[]): void {
    this.tasks.time('editor.marks', () => {
      const changed = new Set(paths);
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme !== 'file' || !changed.has(doc.uri.fsPath)) continue;
        const unsaved = this.live?.completeItemsOf(doc.uri.fsPath);
        if (unsaved) this.docs.set(doc.uri.toString(), { marks: marksOf(unsaved), shifted: true });
        else if (!doc.isDirty) this.docs.set(doc.uri.toString(), { marks: marksOf(this.index.itemsOf(doc.uri.fsPath)), shifted: false });
        else continue;
        this.redraw(doc);
      }
    });
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const key = e.document.uri.toString();
    const state = this.docs.get(key);
    if (!state) return;
    if (state.marks.length > 0) {
      this.tasks.time('editor.shift', () => {
        let marks = state.marks;
        // The changes of one event do not overlap and come last-in-the-document first: each range is
        // valid after the ones before it are applied.
        for (const c of e.contentChanges) marks = shiftMarks(marks, lineChangeOf(c));
        state.marks = marks;
        this.redraw(e.document, false);
      });
    }
    state.shifted = true;
    // Reverted, or undone back to the text on disk: the report's lines are right again. The
    // document's dirty flag is not reliable during the event itself; it is looked at shortly after.
    if (this.cleanChecks.has(key)) return;
    const doc = e.document;
    this.cleanChecks.set(
      key,
      setTimeout(() => {
        this.cleanChecks.delete(key);
        const now = this.docs.get(key);
        if (!now || !now.shifted || doc.isDirty || doc.isClosed) return;
        this.tasks.time('editor.marks', () => {
          this.docs.set(key, { marks: marksOf(this.itemsOf(doc.uri.fsPath)), shifted: false });
          this.redraw(doc);
        });
      }, CLEAN_CHECK_MS),
    );
  }

  private redraw(doc: vscode.TextDocument, reset = true): void {
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === doc) this.draw(editor);
    this.changeEmitter.fire(doc.uri);
    if (reset) this.resetEmitter.fire();
  }

  private redrawAll(): void {
    this.tasks.time('editor.marks', () => {
      for (const editor of vscode.window.visibleTextEditors) this.draw(editor);
    });
    this.changeEmitter.fire(undefined);
    this.resetEmitter.fire();
  }

  private draw(editor: vscode.TextEditor): void {
    const doc = editor.document;
    if (doc.uri.scheme !== 'file') return;
    const runs = this.enabled ? paint(this.marksOf(doc), textLines(doc)) : [];
    const lines: PaintedLines = { identical: [], close: [], distant: [] };
    for (const r of runs) lines[r.closeness].push([r.start + 1, r.end + 1]);
    for (const c of CLOSENESS) editor.setDecorations(this.types[c], lines[c].map(([s, e]) => new vscode.Range(s - 1, 0, e - 1, 0)));
    this.drawn.set(doc.uri.toString(), lines);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    for (const t of this.cleanChecks.values()) clearTimeout(t);
    this.cleanChecks.clear();
    this.docs.clear();
  }
}
