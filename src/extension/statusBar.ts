/**
 * The status bar item: indexing progress (files done / total), then the number of groups of near
 * duplicates, the share of the workspace's lines that lie in near-duplicate files or sections
 * (counted by the engine: `ViewReport.lineShare`) and the active file's share (from the editor's
 * marks, moved with the edits); the tooltip breaks them down (code / documents, top folders).
 * Clicking it opens the Near Duplicates view.
 */
import * as vscode from 'vscode';
import { textLines, type EditorMarks } from './editor/editorMarks';
import { markedLines, sharePercent } from './editor/marks';
import type { IndexService } from './indexing/indexService';
import type { LiveChecker } from './live/liveChecker';

/** Edits re-render the item at most this often (the share moves with them; no work per keystroke). */
const EDIT_RENDER_MS = 250;

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly index: IndexService,
    private readonly marks: EditorMarks,
    private readonly live?: LiveChecker,
  ) {
    this.item = vscode.window.createStatusBarItem('neardup.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'NearDup';
    this.item.command = { command: 'neardup.duplicates.focus', title: vscode.l10n.t('Show near duplicates') };
    this.disposables.push(
      this.item,
      index.onDidChangeState(() => this.render()),
      index.onDidUpdate(() => this.render()),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      marks.onDidChange((uri) => {
        const active = vscode.window.activeTextEditor?.document.uri;
        if (uri && active && uri.toString() !== active.toString()) return;
        if (!this.timer) this.timer = setTimeout(() => ((this.timer = undefined), this.render()), EDIT_RENDER_MS);
      }),
    );
    this.render();
  }

  /** The active file's lines in near duplicates, or undefined when no file editor is active. */
  activeShare(): { path: string; marked: number; lines: number; unsaved: boolean } | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== 'file') return undefined;
    const lines = textLines(doc);
    const unsaved = this.live?.itemsOf(doc.uri.fsPath) !== undefined;
    return { path: vscode.workspace.asRelativePath(doc.uri), marked: markedLines(this.marks.marksOf(doc), lines), lines, unsaved };
  }

  render(): void {
    const state = this.index.state;
    const p = this.index.progress;
    const report = this.index.report;
    if (state === 'noFolder') {
      this.item.hide();
      return;
    }
    if (state === 'starting' || (state === 'indexing' && !p)) {
      this.item.text = '$(sync~spin) NearDup';
      this.item.tooltip = vscode.l10n.t('NearDup: indexing the workspace…');
    } else if (state === 'indexing' && p) {
      this.item.text = p.total > 0 ? `$(sync~spin) NearDup ${p.done}/${p.total}` : `$(sync~spin) NearDup ${p.done}`;
      this.item.tooltip =
        p.phase === 'walking'
          ? vscode.l10n.t('NearDup: listing files ({0} so far)…', p.done)
          : p.phase === 'matching'
            ? vscode.l10n.t('NearDup: matching {0} files…', p.total)
            : vscode.l10n.t('NearDup: fingerprinting files, {0} of {1} done', p.done, p.total);
    } else if (state === 'error') {
      this.item.text = '$(error) NearDup';
      this.item.tooltip = vscode.l10n.t('NearDup: indexing failed (see the NearDup output)');
    } else {
      const groups = report?.groups.length ?? 0;
      const files = report?.groups.filter((g) => g.kind === 'file').length ?? 0;
      const tooltip = [
        vscode.l10n.t(
          'NearDup: near-duplicate groups: {0} (of files: {1}, of sections: {2}); files indexed: {3}. Click to show them.',
          groups,
          files,
          groups - files,
          report?.files ?? 0,
        ),
      ];
      let text = `$(copy) NearDup ${groups}`;
      const share = report?.lineShare;
      const total = share ? share.code.lines + share.prose.lines : 0;
      if (share && total > 0) {
        const dup = share.code.duplicated + share.prose.duplicated;
        text += ` · ${sharePercent(dup, total)}`;
        tooltip.push(vscode.l10n.t('Workspace: {0} of {1} lines are in near duplicates ({2}).', dup, total, sharePercent(dup, total)));
        tooltip.push(
          vscode.l10n.t(
            'Code: {0} of {1} lines ({2}); documents: {3} of {4} lines ({5}).',
            share.code.duplicated,
            share.code.lines,
            sharePercent(share.code.duplicated, share.code.lines),
            share.prose.duplicated,
            share.prose.lines,
            sharePercent(share.prose.duplicated, share.prose.lines),
          ),
        );
        if (share.folders.length > 0) {
          const folders = share.folders.map((f) => `${f.folder === '.' ? './' : `${f.folder}/`} ${f.duplicated}/${f.lines} (${sharePercent(f.duplicated, f.lines)})`);
          tooltip.push(vscode.l10n.t('Most in: {0}', folders.join(', ')));
        }
      }
      const active = this.activeShare();
      if (active && active.marked > 0) {
        const here = vscode.l10n.t('this file {0}', sharePercent(active.marked, active.lines));
        text += ` · ${active.unsaved ? `${here} ${vscode.l10n.t('(unsaved)')}` : here}`;
        const line = vscode.l10n.t('{0}: {1} of {2} lines are in near duplicates ({3}).', active.path, active.marked, active.lines, sharePercent(active.marked, active.lines));
        tooltip.push(active.unsaved ? `${line} ${vscode.l10n.t('(unsaved: checked as you type; saving checks it for good)')}` : line);
      }
      this.item.text = text;
      this.item.tooltip = tooltip.join('\n');
    }
    this.item.show();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
