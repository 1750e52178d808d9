/**
 * `neardup.compare`: opens a diff between two near duplicates. Called from the view (a member:
 * compared with its group's representative), from the quick fix and from the quick pick (a
 * {@link CompareTarget}), and from the hover on a marked range (a {@link CompareLink}).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DuplicateNode } from '../duplicatesTreeProvider';
import { rangeOf } from '../duplicateLabels';

export const COMPARE_COMMAND = 'neardup.compare';

export interface CompareTarget {
  left: vscode.Uri;
  leftRange?: vscode.Range;
  right: vscode.Uri;
  rightRange?: vscode.Range;
}

/**
 * The target as a command link in a hover carries it (JSON: URIs as strings, 1-based inclusive
 * lines; no lines: the whole file).
 */
export interface CompareLink {
  leftUri: string;
  rightUri: string;
  leftLines?: [number, number];
  rightLines?: [number, number];
}

function linesRange(lines: unknown): vscode.Range | undefined {
  if (!Array.isArray(lines) || lines.length !== 2 || !lines.every((n) => Number.isInteger(n) && n >= 1)) return undefined;
  return new vscode.Range(lines[0] - 1, 0, lines[1] - 1, Number.MAX_SAFE_INTEGER);
}

function fromLink(arg: unknown): CompareTarget | undefined {
  const link = arg as CompareLink | undefined;
  if (!link || typeof link !== 'object' || typeof link.leftUri !== 'string' || typeof link.rightUri !== 'string') return undefined;
  try {
    return { left: vscode.Uri.parse(link.leftUri, true), leftRange: linesRange(link.leftLines), right: vscode.Uri.parse(link.rightUri, true), rightRange: linesRange(link.rightLines) };
  } catch {
    return undefined;
  }
}

function label(uri: vscode.Uri, range: vscode.Range | undefined): string {
  const base = path.basename(uri.fsPath || uri.path);
  return range && !(range.start.line === 0 && range.end.line === 0) ? `${base}:${range.start.line + 1}-${range.end.line + 1}` : base;
}

function isTarget(arg: unknown): arg is CompareTarget {
  return !!arg && typeof arg === 'object' && (arg as CompareTarget).left instanceof vscode.Uri && (arg as CompareTarget).right instanceof vscode.Uri;
}

function targetOf(arg: unknown): CompareTarget | undefined {
  if (isTarget(arg)) return arg;
  const linked = fromLink(arg);
  if (linked) return linked;
  const node = arg as DuplicateNode | undefined;
  if (node?.type === 'member') {
    const rep = node.parent.group.members[0];
    return {
      left: vscode.Uri.file(node.member.path),
      leftRange: node.member.startLine !== undefined ? rangeOf(node.member) : undefined,
      right: vscode.Uri.file(rep.path),
      rightRange: rep.startLine !== undefined ? rangeOf(rep) : undefined,
    };
  }
  return undefined;
}

export async function compare(arg: unknown): Promise<boolean> {
  const t = targetOf(arg);
  if (!t) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Choose a near duplicate in the Near Duplicates view to compare it.'));
    return false;
  }
  const title = vscode.l10n.t('{0} ↔ {1} (near duplicates)', label(t.left, t.leftRange), label(t.right, t.rightRange));
  const options: vscode.TextDocumentShowOptions = { preview: true, selection: t.rightRange ?? t.leftRange };
  await vscode.commands.executeCommand('vscode.diff', t.left, t.right, title, options);
  return true;
}

export function registerCompare(): vscode.Disposable {
  return vscode.commands.registerCommand(COMPARE_COMMAND, compare);
}
