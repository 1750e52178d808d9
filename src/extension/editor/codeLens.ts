/**
 * A CodeLens above each near-duplicate section ("2 near duplicates (closest: d=3)") and on the
 * first line of a file that has near-duplicate files; clicking it peeks at the twins
 * (`editor.action.peekLocations`). Reads the marks the host holds (moved with the edits), so it
 * follows the text until the next report. Lenses are listed by range only; their title and the
 * twins' locations are made when VS Code resolves them (the visible ones): a generated file of
 * hundreds of marked functions costs little per edit. Off switch: `neardup.codeLens.enabled`.
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

/** A lens not resolved yet: the mark it stands for. */
class MarkLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly uri: vscode.Uri,
    readonly mark: Mark,
  ) {
    super(range);
  }
}

export class MarksCodeLensProvider implements vscode.CodeLensProvider<MarkLens> {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(
    private readonly marks: EditorMarks,
    private readonly settings: Settings,
  ) {
    this.onDidChangeCodeLenses = marks.onDidReset;
  }

  provideCodeLenses(doc: vscode.TextDocument): MarkLens[] {
    if (!this.settings.current.codeLensEnabled) return [];
    const lenses: MarkLens[] = [];
    const lines = textLines(doc);
    for (const mark of this.marks.marksOf(doc)) {
      const span = spanOf(mark, lines);
      if (!span || mark.item.twins.length === 0) continue;
      const at = new vscode.Position(span.start, 0);
      lenses.push(new MarkLens(new vscode.Range(at, at), doc.uri, mark));
    }
    return lenses;
  }

  resolveCodeLens(lens: MarkLens): MarkLens {
    lens.command = {
      title: lensTitle(lens.mark),
      tooltip: vscode.l10n.t('Peek at the near duplicates'),
      command: 'editor.action.peekLocations',
      arguments: [lens.uri, lens.range.start, lens.mark.item.twins.map(twinLocation), 'peek'],
    };
    return lens;
  }
}

export function registerMarksCodeLens(marks: EditorMarks, settings: Settings): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider({ scheme: 'file' }, new MarksCodeLensProvider(marks, settings));
}
