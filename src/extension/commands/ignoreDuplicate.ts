/**
 * Ignoring a near duplicate where it stands: the edit that inserts a `neardup-ignore-*` marker in
 * the comment syntax of the file's language (core/text/ignoreMarkerEdit.ts), used by the quick fix
 * "Ignore this duplicate" (compareCodeActionProvider.ts) and by the hover's *Ignore…* link
 * (`neardup.ignoreDuplicate`), then a save so that the file is indexed again and the diagnostic
 * goes. Writes only on an explicit request, and only into a saved file document.
 */
import * as vscode from 'vscode';
import { ignoreMarkerEdit } from '../../core/text/ignoreMarkerEdit';

/** Runs after the ignore fix's edit: saves the document (internal, not in the command palette). */
export const SAVE_AFTER_IGNORE_COMMAND = 'neardup.saveAfterIgnore';
/** The hover's *Ignore…* link: inserts the marker for a range (internal, not in the command palette). */
export const IGNORE_DUPLICATE_COMMAND = 'neardup.ignoreDuplicate';
/** Larger documents get no ignore fix (the marker check reads the whole text on each request). */
export const MAX_IGNORE_FIX_CHARS = 4 * 1024 * 1024;

/**
 * The edit that inserts the ignore marker for lines [startLine, endLine] (0-based) of a document,
 * or for the whole file; undefined when no marker would work there.
 */
export function ignoreEdit(document: vscode.TextDocument, text: string, target: { startLine: number; endLine: number } | 'file'): vscode.WorkspaceEdit | undefined {
  const insertions = ignoreMarkerEdit(document.uri.fsPath, text, target);
  if (!insertions) return undefined;
  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  for (const ins of insertions) {
    if (ins.line >= document.lineCount) edit.insert(document.uri, document.lineAt(document.lineCount - 1).range.end, eol + ins.text);
    else edit.insert(document.uri, new vscode.Position(ins.line, 0), ins.text + eol);
  }
  return edit;
}

/** Saves the document the ignore fix edited, so the index reads it again (saves re-index). */
export async function saveAfterIgnore(uri: unknown): Promise<void> {
  if (!(uri instanceof vscode.Uri)) return;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (doc?.isDirty) await doc.save();
}

/**
 * The hover's *Ignore…* link (`neardup.ignoreDuplicate`, args: document URI, first and last line
 * 1-based, or no lines for the whole file): the quick fix's marker and save, on an explicit click,
 * for a saved file document only (its lines are those the marks show); a message when no marker
 * would work there or the document has unsaved changes.
 */
export async function ignoreDuplicate(uri: unknown, startLine?: unknown, endLine?: unknown): Promise<void> {
  if (typeof uri !== 'string') return;
  const target = vscode.Uri.parse(uri);
  if (target.scheme !== 'file') return;
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
  if (!document) return;
  if (document.isDirty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Save the file first: NearDup marks a duplicate on the lines of the saved file.'));
    return;
  }
  const whole = startLine === undefined || startLine === null;
  const s = Number(startLine);
  const e = Number(endLine);
  if (!whole && !(Number.isInteger(s) && Number.isInteger(e) && s >= 1 && e >= s && e <= document.lineCount)) return;
  const text = document.getText();
  const edit = text.length > MAX_IGNORE_FIX_CHARS ? undefined : ignoreEdit(document, text, whole ? 'file' : { startLine: s - 1, endLine: e - 1 });
  if (!edit) {
    void vscode.window.showInformationMessage(vscode.l10n.t('NearDup cannot mark this duplicate as ignored here (no comment marker fits this file).'));
    return;
  }
  if (await vscode.workspace.applyEdit(edit)) await saveAfterIgnore(document.uri);
}
