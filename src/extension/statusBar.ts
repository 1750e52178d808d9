/**
 * The status bar item: indexing progress (files done / total), then the number of groups of near
 * duplicates. Clicking it opens the Near Duplicates view.
 */
import * as vscode from 'vscode';
import type { IndexService } from './indexService';

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly index: IndexService) {
    this.item = vscode.window.createStatusBarItem('neardup.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'NearDup';
    this.item.command = { command: 'neardup.duplicates.focus', title: vscode.l10n.t('Show near duplicates') };
    this.disposables.push(this.item, index.onDidChangeState(() => this.render()), index.onDidUpdate(() => this.render()));
    this.render();
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
      this.item.text = `$(copy) NearDup ${groups}`;
      this.item.tooltip = vscode.l10n.t(
        'NearDup: near-duplicate groups: {0} (of files: {1}, of sections: {2}); files indexed: {3}. Click to show them.',
        groups,
        files,
        groups - files,
        report?.files ?? 0,
      );
    }
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
