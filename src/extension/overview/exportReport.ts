/**
 * `neardup.exportReport` (*NearDup: Export Report…*): the HTML report of the index — the same
 * self-contained page as `neardup scan --format html`, written by the engine worker (never on this
 * thread) — saved where the user chooses in the save dialog, through `vscode.workspace.fs`. Nothing
 * is written without that choice.
 */
import * as vscode from 'vscode';
import type { IndexService } from '../indexing/indexService';

export const EXPORT_REPORT_COMMAND = 'neardup.exportReport';

export function registerExportReport(index: IndexService): vscode.Disposable {
  return vscode.commands.registerCommand(EXPORT_REPORT_COMMAND, async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export NearDup Report'),
      saveLabel: vscode.l10n.t('Export'),
      filters: { [vscode.l10n.t('HTML page')]: ['html'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'neardup-report.html') } : {}),
    });
    if (!target) return;
    const html = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Writing the NearDup report…') }, () => index.htmlReport());
    if (html === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('NearDup has no index of this workspace to export.'));
      return;
    }
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(html));
    const open = vscode.l10n.t('Open');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('NearDup report written to {0}.', target.fsPath || target.toString()), open);
    if (choice === open) await vscode.env.openExternal(target);
  });
}
