/**
 * A CodeLens above each near-duplicate section ("2 near duplicates (closest: d=3)") and on the
 * first line of a file that has near-duplicate files; clicking it peeks at the twins
 * (`editor.action.peekLocations`). Reads the marks the host holds (moved with the edits), so it
 * follows the text until the next report. Off switch: `neardup.codeLens.enabled`.
 */
import * as vscode from 'vscode';
import type { Settings } from '../settings';
import { textLines, type EditorMarks } from './editorMarks';
import { spanOf, type Mark } from './marks';

function twinLocation(t: Mark['item']['twins'][number]): vscode.Location {
  const uri = vscode.Uri.file(t.path);
  return t.startLine === undefined ? new vscode.Location(uri, new vscode.Position(0, 0)) : new vscode.Location(uri, new vscode.Range(t.startLine - 1, 0, (t.endLine ?? t.startLine) - 1, 0));
}

/** The lens's title: how many twins, and the closest distance. */
export function lensTitle(mark: Mark): string {
  const count = mark.item.twins.length + mark.item.moreTwins;
  const d = mark.distance;
  if (mark.kind === 'file') return count === 1 ? vscode.l10n.t('Whole file: 1 near duplicate (d={0})', d) : vscode.l10n.t('Whole file: {0} near duplicates (closest: d={1})', count, d);
  return count === 1 ? vscode.l10n.t('1 near duplicate (d={0})', d) : vscode.l10n.t('{0} near duplicates (closest: d={1})', count, d);
}

export class MarksCodeLensProvider implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(
    private readonly marks: EditorMarks,
    private readonly settings: Settings,
  ) {
    this.onDidChangeCodeLenses = (listener, thisArgs, disposables) => marks.onDidChange(() => listener.call(thisArgs, undefined), undefined, disposables);
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.settings.current.codeLensEnabled) return [];
    const lenses: vscode.CodeLens[] = [];
    for (const mark of this.marks.marksOf(doc)) {
      const span = spanOf(mark, textLines(doc));
      if (!span || mark.item.twins.length === 0) continue;
      const at = new vscode.Position(span.start, 0);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(at, at), {
          title: lensTitle(mark),
          tooltip: vscode.l10n.t('Peek at the near duplicates'),
          command: 'editor.action.peekLocations',
          arguments: [doc.uri, at, mark.item.twins.map(twinLocation), 'peek'],
        }),
      );
    }
    return lenses;
  }
}

export function registerMarksCodeLens(marks: EditorMarks, settings: Settings): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider({ scheme: 'file' }, new MarksCodeLensProvider(marks, settings));
}
