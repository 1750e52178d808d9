/**
 * `neardup.findNearDuplicates` — "Find near duplicates of this file": the near duplicates of a
 * file and of its sections, closest first, in a quick pick. Accepting an item opens it at its
 * lines; an item's button compares it with this file. The file's groups are revealed in the
 * Near Duplicates view. An unsaved editor's current text is sent to the engine as is.
 *
 * Returns what it found (tests read it): the quick pick stays open after the command returns.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { QueryMatch, QueryResult } from '../../node/engine/engineProtocol';
import { cellRange } from '../../core/containers/cellLines';
import { cellOf, linesLabel, percent, rangeOf } from '../duplicateLabels';
import type { DuplicateNode, DuplicatesTreeProvider } from '../duplicatesTreeProvider';
import type { IndexService } from '../indexing/indexService';
import { compare } from './compare';
import { openNotebookCell } from './openNotebookCell';

export const FIND_COMMAND = 'neardup.findNearDuplicates';

export interface FindResult extends QueryResult {
  uri?: string;
  /** The quick pick items' labels, in order. */
  items: string[];
}

interface MatchItem extends vscode.QuickPickItem {
  match: QueryMatch;
}

function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const node = arg as DuplicateNode | undefined;
  if (node?.type === 'member') return vscode.Uri.file(node.member.path);
  return vscode.window.activeTextEditor?.document.uri;
}

function describe(status: QueryResult['status'], name: string, reason: string | undefined): string {
  switch (status) {
    case 'outside':
      return vscode.l10n.t('{0} is not in a workspace folder on disk: NearDup only compares files of the workspace.', name);
    case 'excluded':
      return vscode.l10n.t('{0} is excluded (neardup.include / neardup.exclude, files.exclude or .gitignore).', name);
    case 'tooLarge':
      return vscode.l10n.t('{0} is too large ({1}); see neardup.maxFileSizeKB.', name, reason ?? '');
    case 'tooSmall':
      return vscode.l10n.t('{0} is too small to compare ({1}); see neardup.minTokens.', name, reason ?? '');
    default:
      return vscode.l10n.t('{0} was skipped: {1}.', name, reason ?? '');
  }
}

export class FindNearDuplicatesCommand {
  /** The open quick pick, if any (one at a time). */
  private picker: vscode.QuickPick<MatchItem> | undefined;

  constructor(
    private readonly index: IndexService,
    private readonly tree: DuplicatesTreeProvider,
  ) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.commands.registerCommand(FIND_COMMAND, (arg?: unknown) => this.run(arg)),
      { dispose: () => this.picker?.dispose() },
    );
  }

  async run(arg?: unknown): Promise<FindResult> {
    const uri = uriOf(arg);
    if (!uri) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a file to find its near duplicates.'));
      return { status: 'outside', matches: [], items: [] };
    }
    const name = vscode.workspace.asRelativePath(uri);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const text = doc && (doc.isDirty || doc.isUntitled) ? doc.getText() : undefined;
    let result: QueryResult;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('NearDup: comparing {0}…', name) },
        () => this.index.query(uri, text),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('NearDup could not compare {0}: {1}', name, (e as Error).message));
      return { status: 'skipped', reason: (e as Error).message, matches: [], items: [] };
    }
    if (result.status !== 'ok') {
      void vscode.window.showInformationMessage(describe(result.status, name, result.reason));
      return { ...result, uri: uri.toString(), items: [] };
    }
    if (result.matches.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No near duplicates of {0} were found.', name));
      return { ...result, uri: uri.toString(), items: [] };
    }
    await this.tree.reveal(uri.fsPath);
    const items = result.matches.map((m) => this.toItem(m, uri.fsPath));
    this.show(uri, name, items, !!text, result.total);
    return { ...result, uri: uri.toString(), items: items.map((i) => i.label) };
  }

  /** `queried`: the path of the file whose near duplicates these are. */
  private toItem(m: QueryMatch, queried: string): MatchItem {
    const other = m.other;
    const rel = vscode.workspace.asRelativePath(other.path);
    const base = path.basename(other.path);
    const twin = cellRange(other);
    const self = m.self ? cellRange({ path: queried, ...m.self }) : {};
    const score = vscode.l10n.t('distance {0} · {1}', m.distance, percent(m.similarity));
    if (m.kind === 'file') {
      return {
        label: `$(file) ${base}`,
        description: score,
        detail: vscode.l10n.t('Whole file: {0}', rel),
        match: m,
        buttons: [{ iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Compare with this file') }],
      };
    }
    return {
      label: `$(symbol-method) ${base}${linesLabel(other)}`,
      description: score,
      // (In a notebook: the lines inside the cell; the label names the cell.)
      detail: vscode.l10n.t('Lines {0}–{1} of this file ≈ {2}:{3}-{4}', self.startLine ?? 0, self.endLine ?? 0, rel, twin.startLine ?? 0, twin.endLine ?? 0),
      match: m,
      buttons: [{ iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Compare with this section') }],
    };
  }

  /** `total`: how many were found when more than `items` (the engine sends the closest only). */
  private show(uri: vscode.Uri, name: string, items: MatchItem[], unsaved: boolean, total?: number): void {
    this.picker?.dispose();
    const qp = vscode.window.createQuickPick<MatchItem>();
    this.picker = qp;
    qp.title = unsaved
      ? vscode.l10n.t('Near duplicates of {0} (unsaved changes)', name)
      : vscode.l10n.t('Near duplicates of {0}', name);
    qp.placeholder =
      total !== undefined && total > items.length
        ? vscode.l10n.t('{0} of {1} found shown, closest first. Enter opens; the button compares.', items.length, total)
        : vscode.l10n.t('{0} found, closest first. Enter opens; the button compares.', items.length);
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.items = items;
    qp.onDidAccept(() => {
      const [choice] = qp.selectedItems;
      qp.hide();
      if (!choice) return;
      const target = vscode.Uri.file(choice.match.other.path);
      const cell = cellOf(choice.match.other);
      if (cell !== undefined) void openNotebookCell(target, cell);
      else void vscode.window.showTextDocument(target, { selection: rangeOf(choice.match.other), preview: true });
    });
    qp.onDidTriggerItemButton((e) => {
      const m = e.item.match;
      qp.hide();
      void compare({
        left: uri,
        leftRange: m.self ? rangeOf({ path: uri.fsPath, ...m.self }) : undefined,
        right: vscode.Uri.file(m.other.path),
        rightRange: m.other.startLine !== undefined ? rangeOf(m.other) : undefined,
      });
    });
    qp.onDidHide(() => {
      if (this.picker === qp) this.picker = undefined;
      qp.dispose();
    });
    qp.show();
  }
}
