/**
 * *Add to baseline* (`neardup.addToBaseline`, the quick fix on a NearDup diagnostic): the pairs of
 * the diagnostic's file or section with each twin it names that is not in the baseline yet are
 * added to the folder's baseline file — the one `.neardup.json` names, or a new
 * `.neardup-baseline.json`, then named in `.neardup.json` (created if there is none). The engine
 * makes the file's new text (the same keys as `neardup scan --write-baseline`); this writes it
 * through `vscode.workspace.fs`, on this explicit request only, and never in an untrusted
 * (restricted) workspace. The engine then reads the file again and the diagnostic goes or dims.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyEdits, modify } from 'jsonc-parser';
import type { IndexService } from '../indexing/indexService';
import type { Settings } from '../settings';
import { DEFAULT_BASELINE_FILE, type BaselineFiles } from './baselineFiles';
import { PROJECT_CONFIG_FILE } from '../../node/settings/projectConfig';

export const ADD_TO_BASELINE_COMMAND = 'neardup.addToBaseline';

/** The command's arguments: the diagnostic's document, its kind, and for a section its lines (1-based). */
export type AddToBaselineArgs = [uri: string, kind: 'file' | 'section', startLine?: number, endLine?: number];

export function registerAddToBaseline(index: IndexService, settings: Settings, files: BaselineFiles): vscode.Disposable {
  return vscode.commands.registerCommand(ADD_TO_BASELINE_COMMAND, (...args: unknown[]) => addToBaseline(index, settings, files, args));
}

async function addToBaseline(index: IndexService, settings: Settings, files: BaselineFiles, args: unknown[]): Promise<boolean> {
  const [uri, kind, startLine, endLine] = args;
  if (typeof uri !== 'string' || (kind !== 'file' && kind !== 'section')) return false;
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(vscode.l10n.t('NearDup writes a baseline only in a trusted workspace.'));
    return false;
  }
  const target = vscode.Uri.parse(uri);
  const folder = target.scheme === 'file' ? vscode.workspace.getWorkspaceFolder(target) : undefined;
  if (!folder || folder.uri.scheme !== 'file') return false;
  const item = index.itemsOf(target.fsPath).find((i) => i.kind === kind && (kind === 'file' || (i.loc.startLine === startLine && i.loc.endLine === endLine)));
  const twins = item?.twins.filter((t) => !t.baseline && vscode.workspace.getWorkspaceFolder(vscode.Uri.file(t.path))?.uri.fsPath === folder.uri.fsPath) ?? [];
  if (!item || twins.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('NearDup has no new pair here to add to the baseline (only pairs within one workspace folder can be).'));
    return false;
  }
  const root = folder.uri.fsPath;
  const state = settings.projectConfigs.find((c) => c.folder === root);
  if (state && state.problems.length > 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('NearDup: fix {0} first; its baseline is not known while it is invalid.', PROJECT_CONFIG_FILE));
    return false;
  }
  const { file, named } = files.fileOf(root);
  const made = await index.addToBaseline(root, file, twins.map((t) => ({ kind: item.kind, a: item.loc, b: { path: t.path, startLine: t.startLine, endLine: t.endLine }, located: t.located === true })));
  if ('problem' in made) {
    void vscode.window.showWarningMessage(vscode.l10n.t('NearDup cannot add to the baseline: {0}', made.problem));
    return false;
  }
  const baselineUri = vscode.Uri.file(file);
  await vscode.workspace.fs.writeFile(baselineUri, new TextEncoder().encode(made.text));
  if (!named) await nameInConfig(folder.uri, path.relative(root, file).split(path.sep).join('/') || DEFAULT_BASELINE_FILE);
  await files.wrote(root, file);
  return true;
}

/** Records the new baseline file in the folder's `.neardup.json` (`"baseline"`), creating the file when there is none. */
async function nameInConfig(folder: vscode.Uri, relFile: string): Promise<void> {
  const configUri = vscode.Uri.joinPath(folder, PROJECT_CONFIG_FILE);
  let text: string | undefined;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(configUri));
  } catch {
    text = undefined;
  }
  const next = text === undefined || text.trim() === ''
    ? `{\n  "baseline": ${JSON.stringify(relFile)}\n}\n`
    : applyEdits(text, modify(text, ['baseline'], relFile, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: text.includes('\r\n') ? '\r\n' : '\n' } }));
  await vscode.workspace.fs.writeFile(configUri, new TextEncoder().encode(next));
}
