/**
 * Quick fixes on NearDup's diagnostics: "Compare with …" for each twin named in the
 * diagnostic's related information; runs `neardup.compare`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMPARE_COMMAND, type CompareTarget } from './commands/compare';
import { DIAGNOSTIC_SOURCE, SECTION_CODE } from './diagnosticsPublisher';

/** Quick fixes offered per diagnostic. */
const MAX_ACTIONS = 5;

export class CompareCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE) continue;
      const isSection = d.code === SECTION_CODE;
      for (const rel of (d.relatedInformation ?? []).slice(0, MAX_ACTIONS)) {
        const r = rel.location.range;
        const twinIsSection = !(r.start.line === 0 && r.end.line === 0);
        const name = twinIsSection ? `${path.basename(rel.location.uri.fsPath)}:${r.start.line + 1}-${r.end.line + 1}` : path.basename(rel.location.uri.fsPath);
        const action = new vscode.CodeAction(vscode.l10n.t('Compare with {0}', name), vscode.CodeActionKind.QuickFix);
        const target: CompareTarget = {
          left: document.uri,
          leftRange: isSection ? d.range : undefined,
          right: rel.location.uri,
          rightRange: twinIsSection ? r : undefined,
        };
        action.command = { command: COMPARE_COMMAND, title: action.title, arguments: [target] };
        action.diagnostics = [d];
        actions.push(action);
      }
    }
    return actions;
  }
}

export function registerCompareCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new CompareCodeActionProvider(), CompareCodeActionProvider.metadata);
}
