/**
 * Quick fixes on NearDup's diagnostics: "Compare with …" for each twin named in the
 * diagnostic's related information (runs `neardup.compare`), and "Ignore this duplicate", which
 * inserts a `neardup-ignore-*` marker in the comment syntax of the file's language
 * (core/text/ignoreMarkerEdit.ts) and saves the file, so that it is indexed again and the
 * diagnostic goes. The ignore fix is offered only on a saved document (the diagnostics' lines are
 * those of the file on disk) and writes only on this explicit request. "Add to baseline"
 * (baseline/addToBaseline.ts) on a diagnostic of new pairs, in a trusted workspace only.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMPARE_COMMAND, type CompareTarget } from './commands/compare';
import { ignoreDuplicate, ignoreEdit, IGNORE_DUPLICATE_COMMAND, MAX_IGNORE_FIX_CHARS, saveAfterIgnore, SAVE_AFTER_IGNORE_COMMAND } from './commands/ignoreDuplicate';
import { DIAGNOSTIC_SOURCE, FILE_CODE, SECTION_CODE } from './diagnosticsPublisher';
import { ADD_TO_BASELINE_COMMAND, type AddToBaselineArgs } from './baseline/addToBaseline';

/** Quick fixes offered per diagnostic. */
const MAX_ACTIONS = 5;

export class CompareCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    let text: string | undefined;
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
      if ((d.code === FILE_CODE || isSection) && document.uri.scheme === 'file' && vscode.workspace.isTrusted && !d.tags?.includes(vscode.DiagnosticTag.Unnecessary) && !(isSection && document.uri.fsPath.endsWith('.ipynb'))) {
        actions.push(baselineAction(document, d, isSection));
      }
      if ((d.code === FILE_CODE || isSection) && !document.isDirty && document.uri.scheme === 'file') {
        text ??= document.getText();
        if (text.length > MAX_IGNORE_FIX_CHARS) continue;
        const ignore = ignoreAction(document, text, d, isSection);
        if (ignore) actions.push(ignore);
      }
    }
    return actions;
  }
}

/** "Ignore this duplicate": the marker's edit, then a save; undefined when no marker would work. */
function ignoreAction(document: vscode.TextDocument, text: string, d: vscode.Diagnostic, isSection: boolean): vscode.CodeAction | undefined {
  const edit = ignoreEdit(document, text, isSection ? { startLine: d.range.start.line, endLine: d.range.end.line } : 'file');
  if (!edit) return undefined;
  const title = isSection ? vscode.l10n.t('Ignore this duplicate (insert a neardup-ignore marker)') : vscode.l10n.t('Ignore this file’s duplicates (insert neardup-ignore-file)');
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.edit = edit;
  action.diagnostics = [d];
  action.command = { command: SAVE_AFTER_IGNORE_COMMAND, title, arguments: [document.uri] };
  return action;
}

/** "Add to baseline": the diagnostic's pairs into the folder's baseline file (the item is found by its lines). */
function baselineAction(document: vscode.TextDocument, d: vscode.Diagnostic, isSection: boolean): vscode.CodeAction {
  const title = vscode.l10n.t('Add to baseline (accept this near duplicate)');
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  const args: AddToBaselineArgs = isSection ? [document.uri.toString(), 'section', d.range.start.line + 1, d.range.end.line + 1] : [document.uri.toString(), 'file'];
  action.command = { command: ADD_TO_BASELINE_COMMAND, title, arguments: args };
  action.diagnostics = [d];
  return action;
}

export function registerCompareCodeActions(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new CompareCodeActionProvider(), CompareCodeActionProvider.metadata),
    vscode.commands.registerCommand(SAVE_AFTER_IGNORE_COMMAND, saveAfterIgnore),
    vscode.commands.registerCommand(IGNORE_DUPLICATE_COMMAND, ignoreDuplicate),
  );
}
