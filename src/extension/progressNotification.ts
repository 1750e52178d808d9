/**
 * A cancellable progress notification for indexing jobs that take longer than a moment (the
 * first scan of a large workspace, a re-index after a settings change). Cancel stops the engine's
 * job; what was indexed so far stays.
 */
import * as vscode from 'vscode';
import type { IndexService } from './indexing/indexService';

/** Jobs shorter than this show no notification. */
export const NOTIFY_AFTER_MS = 1500;

export function registerProgressNotification(index: IndexService): vscode.Disposable {
  return index.onDidStartIndexing((job) => {
    let settled = false;
    void job.finally(() => (settled = true));
    const timer = setTimeout(() => {
      if (settled) return;
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('NearDup: indexing'), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => void index.cancelIndexing());
          let last = 0;
          const sub = index.onDidChangeState(() => {
            const p = index.progress;
            if (!p) return;
            if (p.phase === 'walking') {
              progress.report({ message: vscode.l10n.t('listing files ({0})…', p.done) });
            } else if (p.total > 0) {
              const pct = Math.floor((p.done / p.total) * 100);
              progress.report({ message: vscode.l10n.t('{0}/{1} files', p.done, p.total), increment: Math.max(0, pct - last) });
              last = Math.max(last, pct);
            }
          });
          try {
            await job;
          } finally {
            sub.dispose();
          }
        },
      );
    }, NOTIFY_AFTER_MS);
    void job.finally(() => clearTimeout(timer));
  });
}
