/**
 * A paste recognised as it lands (`neardup.onPaste`, issue 19): one insertion of at least
 * `neardup.paste.minLines` lines in a workspace file's editor is sent to the engine worker
 * (`matchText`: fingerprinted and looked up there; this thread never tokenises or hashes). When it
 * matches a file or section elsewhere, a light notice marks the pasted lines: a dotted bar, an
 * inline note after the first line, a hover and a CodeLens — "Pasted block matches `src/x.ts`
 * lines 10–40 (distance 2)" with *Open original* and *Compare*. `notify` also says it in the
 * status bar. One notice per paste, none for text that matches nothing, never a dialog.
 *
 * A notice follows later edits of its lines and goes when they are removed (the paste undone,
 * deleted, replaced), when the document is reverted or closed, or when dismissed; a save keeps it
 * (with `files.autoSave` a paste is saved a second later: the notice would hardly be seen).
 */
import * as vscode from 'vscode';
import { COMPARE_COMMAND, type CompareLink } from '../commands/compare';
import { OPEN_TWIN_COMMAND } from '../editor/hover';
import type { IndexService } from '../indexing/indexService';
import type { Settings } from '../settings';
import type { TextMatch } from '../../node/engine/engineProtocol';
import { noticeMatch, pastedBlock, shiftSpan, type Change, type Cut, type LineSpan } from './pasteBlock';

export const DISMISS_PASTE_COMMAND = 'neardup.dismissPasteNotice';
/** Notices kept per document at most (the oldest go first). */
const MAX_PER_DOCUMENT = 20;
/** How long `notify`'s status-bar message stays. */
const STATUS_MS = 10_000;

interface Notice {
  id: number;
  span: LineSpan;
  /** Undefined while the engine's answer is awaited. */
  match?: TextMatch;
  message?: string;
}

/** What the test API reports of a notice (1-based lines). */
export interface PasteNoticeInfo {
  startLine: number;
  endLine: number;
  path: string;
  originalStart?: number;
  originalEnd?: number;
  distance: number;
  message: string;
}

const changeOf = (c: vscode.TextDocumentContentChangeEvent): Change => ({
  startLine: c.range.start.line,
  startCharacter: c.range.start.character,
  endLine: c.range.end.line,
  rangeLength: c.rangeLength,
  text: c.text,
});

function commandLink(command: string, args: unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

/** A code span holding `s` as is. */
function codeSpan(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${s} ${fence}`;
}

export class PasteNotices implements vscode.Disposable {
  private readonly notices = new Map<string, Notice[]>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly bar: vscode.TextEditorDecorationType;
  private readonly note: vscode.TextEditorDecorationType;
  private cut: Cut | undefined;
  private nextId = 1;
  /** The notices of this document changed (shown, moved, gone). */
  readonly onDidChange = this.emitter.event;
  /** Pastes sent to the engine so far (tests). */
  requests = 0;

  constructor(
    private readonly index: IndexService,
    private readonly settings: Settings,
  ) {
    this.bar = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderStyle: 'dotted',
      borderWidth: '0 0 0 2px',
      borderColor: new vscode.ThemeColor('neardup.closeMark'),
    });
    this.note = vscode.window.createTextEditorDecorationType({
      after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' },
    });
    this.disposables.push(
      this.bar,
      this.note,
      this.emitter,
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.draw(e))),
      settings.onDidChange((e) => {
        if (e.current.onPaste === 'off') for (const key of [...this.notices.keys()]) this.clear(vscode.Uri.parse(key));
      }),
      vscode.languages.registerHoverProvider({ scheme: 'file' }, { provideHover: (doc, pos) => this.hover(doc, pos) }),
      vscode.languages.registerCodeLensProvider({ scheme: 'file' }, { onDidChangeCodeLenses: this.emitter.event as vscode.Event<unknown> as vscode.Event<void>, provideCodeLenses: (doc) => this.lenses(doc) }),
      vscode.commands.registerCommand(DISMISS_PASTE_COMMAND, (uri: unknown, id: unknown) => {
        if (typeof uri === 'string' && typeof id === 'number') this.remove(vscode.Uri.parse(uri), id);
      }),
    );
  }

  /** Test API: the shown notices of a document (answers awaited are not shown). */
  noticesOf(uri: vscode.Uri): PasteNoticeInfo[] {
    return (this.notices.get(uri.toString()) ?? [])
      .filter((n) => n.match)
      .map((n) => ({
        startLine: n.span.start + 1,
        endLine: n.span.end + 1,
        path: n.match!.path,
        originalStart: n.match!.startLine,
        originalEnd: n.match!.endLine,
        distance: n.match!.distance,
        message: n.message!,
      }));
  }

  /** Pastes waiting for the engine's answer. */
  get pending(): number {
    let n = 0;
    for (const list of this.notices.values()) n += list.filter((x) => !x.match).length;
    return n;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.notices.clear();
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    // No content change: the dirty flag changed (a save, an undo back to the saved text). A save
    // keeps the notices; a revert or an undo removed the pasted lines by a content change already.
    if (e.contentChanges.length === 0) return;
    const key = doc.uri.toString();
    // Existing notices follow the edit (changes of one event come last-in-the-document first).
    const list = this.notices.get(key);
    if (list) {
      const kept: Notice[] = [];
      for (const n of list) {
        let span: LineSpan | undefined = n.span;
        for (const c of e.contentChanges) span = span && shiftSpan(span, changeOf(c));
        if (span) kept.push({ ...n, span });
      }
      if (kept.length > 0) this.notices.set(key, kept);
      else this.notices.delete(key);
      if (kept.length !== list.length || kept.some((n, i) => n.span.start !== list[i].span.start || n.span.end !== list[i].span.end)) this.changed(doc);
    }
    const mode = this.settings.current.onPaste;
    if (mode === 'off' || doc.uri.scheme !== 'file') return;
    if (e.reason === vscode.TextDocumentChangeReason.Undo || e.reason === vscode.TextDocumentChangeReason.Redo) return;
    const changes = e.contentChanges.map(changeOf);
    const minLines = this.settings.current.pasteMinLines;
    // A block removed (cut): pasting it back elsewhere soon is a move, not a copy.
    const [only] = changes;
    if (changes.length === 1 && only.text === '' && only.endLine - only.startLine >= minLines - 1) {
      this.cut = { path: doc.uri.fsPath, chars: only.rangeLength, at: Date.now() };
      return;
    }
    if (!vscode.window.visibleTextEditors.some((ed) => ed.document === doc) || !vscode.workspace.getWorkspaceFolder(doc.uri)) return;
    if (doc.uri.fsPath.toLowerCase().endsWith('.ipynb')) return;
    const block = pastedBlock(changes, minLines);
    if (block) void this.look(doc, block.span, block.text);
  }

  private async look(doc: vscode.TextDocument, span: LineSpan, text: string): Promise<void> {
    const key = doc.uri.toString();
    const notice: Notice = { id: this.nextId++, span };
    const list = this.notices.get(key) ?? [];
    list.push(notice);
    while (list.length > MAX_PER_DOCUMENT) list.shift();
    this.notices.set(key, list);
    const pasted = { chars: text.length, at: Date.now(), path: doc.uri.fsPath, span };
    const cut = this.cut;
    this.requests++;
    let match: TextMatch | undefined;
    try {
      const r = await this.index.matchText(doc.uri, text);
      match = r?.status === 'ok' ? noticeMatch(r.matches, pasted, cut) : undefined;
    } catch {
      match = undefined; // the engine stopped: no notice
    }
    const now = this.notices.get(key);
    const alive = now?.find((n) => n.id === notice.id);
    if (!alive) return; // undone, saved or closed meanwhile
    if (!match || doc.isClosed || this.settings.current.onPaste === 'off') {
      this.remove(doc.uri, notice.id);
      return;
    }
    alive.match = match;
    alive.message = this.message(match);
    this.changed(doc);
    if (this.settings.current.onPaste === 'notify') vscode.window.setStatusBarMessage(`$(copy) NearDup: ${alive.message}`, STATUS_MS);
  }

  private message(m: TextMatch): string {
    const rel = vscode.workspace.asRelativePath(m.path);
    return m.startLine !== undefined && m.endLine !== undefined
      ? vscode.l10n.t('Pasted block matches {0} lines {1}–{2} (distance {3})', rel, m.startLine, m.endLine, m.distance)
      : vscode.l10n.t('Pasted block matches {0} (the whole file, distance {1})', rel, m.distance);
  }

  private shown(doc: vscode.TextDocument): Notice[] {
    return (this.notices.get(doc.uri.toString()) ?? []).filter((n) => n.match && n.span.start < doc.lineCount);
  }

  private changed(doc: vscode.TextDocument): void {
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === doc) this.draw(editor);
    this.emitter.fire(doc.uri);
  }

  private draw(editor: vscode.TextEditor): void {
    const shown = this.shown(editor.document);
    const last = editor.document.lineCount - 1;
    editor.setDecorations(
      this.bar,
      shown.map((n) => new vscode.Range(n.span.start, 0, Math.min(n.span.end, last), 0)),
    );
    editor.setDecorations(
      this.note,
      shown.map((n) => {
        const line = editor.document.lineAt(n.span.start);
        return { range: new vscode.Range(line.range.end, line.range.end), renderOptions: { after: { contentText: `← ${n.message}` } } };
      }),
    );
  }

  private links(doc: vscode.TextDocument, n: Notice): { open: unknown[]; compare: CompareLink } {
    const m = n.match!;
    const other = vscode.Uri.file(m.path);
    return {
      open: [other.toString(), m.startLine ?? 1, m.endLine ?? m.startLine ?? 1],
      compare: {
        leftUri: doc.uri.toString(),
        rightUri: other.toString(),
        leftLines: [n.span.start + 1, n.span.end + 1],
        rightLines: m.startLine !== undefined && m.endLine !== undefined ? [m.startLine, m.endLine] : undefined,
      },
    };
  }

  private hover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const n = this.shown(doc).find((x) => pos.line >= x.span.start && pos.line <= x.span.end);
    if (!n) return undefined;
    const { open, compare } = this.links(doc, n);
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: [COMPARE_COMMAND, OPEN_TWIN_COMMAND, DISMISS_PASTE_COMMAND] };
    const m = n.match!;
    const rel = vscode.workspace.asRelativePath(m.path);
    const where = m.startLine !== undefined ? vscode.l10n.t('{0} lines {1}–{2}', codeSpan(rel), m.startLine, m.endLine ?? m.startLine) : codeSpan(rel);
    md.appendMarkdown(`**NearDup** — ${vscode.l10n.t('pasted block matches {0} (distance {1})', where, m.distance)}\n\n`);
    md.appendMarkdown(
      `[${vscode.l10n.t('Open original')}](${commandLink(OPEN_TWIN_COMMAND, open)}) · [${vscode.l10n.t('Compare')}](${commandLink(COMPARE_COMMAND, [compare])}) · [${vscode.l10n.t('Dismiss')}](${commandLink(DISMISS_PASTE_COMMAND, [doc.uri.toString(), n.id])})`,
    );
    return new vscode.Hover(md, new vscode.Range(n.span.start, 0, n.span.end, doc.lineAt(Math.min(n.span.end, doc.lineCount - 1)).text.length));
  }

  private lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const out: vscode.CodeLens[] = [];
    for (const n of this.shown(doc)) {
      const at = new vscode.Range(n.span.start, 0, n.span.start, 0);
      const { open, compare } = this.links(doc, n);
      out.push(
        new vscode.CodeLens(at, { title: `$(copy) ${n.message}`, tooltip: vscode.l10n.t('Open original'), command: OPEN_TWIN_COMMAND, arguments: open }),
        new vscode.CodeLens(at, { title: vscode.l10n.t('Compare'), command: COMPARE_COMMAND, arguments: [compare] }),
        new vscode.CodeLens(at, { title: vscode.l10n.t('Dismiss'), command: DISMISS_PASTE_COMMAND, arguments: [doc.uri.toString(), n.id] }),
      );
    }
    return out;
  }

  private remove(uri: vscode.Uri, id: number): void {
    const key = uri.toString();
    const list = this.notices.get(key);
    if (!list) return;
    const kept = list.filter((n) => n.id !== id);
    if (kept.length > 0) this.notices.set(key, kept);
    else this.notices.delete(key);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (doc) this.changed(doc);
    else this.emitter.fire(uri);
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    if (!this.notices.delete(key)) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (doc && !doc.isClosed) this.changed(doc);
    else this.emitter.fire(uri);
  }
}
