/**
 * How the NearDup panel, the diagnostics, the hover and the commands name a near duplicate's
 * place and likeness: its lines (`:10-40`, a notebook's ` cell 3:2-10`), its editor range, its
 * similarity in percent, and how it was copied (exact, renamed, edited).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cellRange } from '../core/containers/cellLines';
import type { CloneKind } from '../core/types';

type Place = { path?: string; startLine?: number; endLine?: number };

/** The cell (1-based) of a section of a Jupyter notebook (core/containers/cellLines.ts), else undefined. */
export function cellOf(loc: Place): number | undefined {
  return loc.path === undefined ? undefined : cellRange({ path: loc.path, startLine: loc.startLine, endLine: loc.endLine }).cell;
}

/**
 * The lines of a location as an editor range (a whole file: its first line; a notebook's cell
 * too: its lines are not lines of the JSON file).
 */
export function rangeOf(loc: Place): vscode.Range {
  if (loc.startLine === undefined || cellOf(loc) !== undefined) return new vscode.Range(0, 0, 0, 0);
  return new vscode.Range(loc.startLine - 1, 0, (loc.endLine ?? loc.startLine) - 1, Number.MAX_SAFE_INTEGER);
}

/** What follows a file name for a location's lines: `:10-40`, in a notebook ` cell 3:2-10`; '' for a whole file. */
export function linesLabel(loc: Place): string {
  if (loc.startLine === undefined) return '';
  const r = cellRange({ path: loc.path ?? '', startLine: loc.startLine, endLine: loc.endLine });
  return r.cell === undefined ? `:${loc.startLine}-${loc.endLine}` : ` ${vscode.l10n.t('cell {0}:{1}-{2}', r.cell, r.startLine ?? 0, r.endLine ?? 0)}`;
}

export function locationLabel(loc: { path: string; startLine?: number; endLine?: number }): string {
  return path.basename(loc.path) + linesLabel(loc);
}

export function percent(similarity: number): string {
  return `${(similarity * 100).toFixed(1)}%`;
}

/** How a copy was made, in words ("exact copy", "renamed copy", "edited copy"). */
export function cloneLabel(kind: CloneKind): string {
  return kind === 'exact' ? vscode.l10n.t('exact copy') : kind === 'renamed' ? vscode.l10n.t('renamed copy') : vscode.l10n.t('edited copy');
}

/** " · exact copy" (or nothing, for a member whose kind is not known: the representative). */
export function cloneSuffix(kind: CloneKind | undefined): string {
  return kind ? ` · ${cloneLabel(kind)}` : '';
}
