/**
 * One DiagnosticCollection ("neardup"): a diagnostic on every near-duplicate file (on its first
 * line) and section (on its lines), naming the closest twin and its distance, with related
 * information pointing at every twin. Severity from `neardup.diagnostics.severity`. Only files
 * whose items changed are re-published (the engine sends just those); files that no longer have
 * near duplicates (deleted, edited, excluded) are cleared. A large change (the first index of a
 * big workspace, a branch switch) is published in chunks, one per event-loop turn, so that no
 * single extension-host task takes long.
 */
import * as vscode from 'vscode';
import type { ViewItem } from '../node/engineProtocol';
import { percent } from './duplicatesTreeProvider';
import type { IndexService, ItemsChange } from './indexService';
import type { Severity } from '../node/settingsSchema';
import type { Settings } from './settings';

export const DIAGNOSTIC_SOURCE = 'neardup';
/** Diagnostic codes: what the quick fix looks for. */
export const FILE_CODE = 'near-duplicate-file';
export const SECTION_CODE = 'near-duplicate-section';

const FIRST_LINE = new vscode.Range(0, 0, 0, Number.MAX_SAFE_INTEGER);
/** Related information per diagnostic (the message counts the rest). */
const MAX_RELATED = 20;
/** Files published per event-loop turn (a few ms of work each). */
export const PUBLISH_CHUNK = 200;

function severityOf(s: Severity): vscode.DiagnosticSeverity | undefined {
  switch (s) {
    case 'hint':
      return vscode.DiagnosticSeverity.Hint;
    case 'information':
      return vscode.DiagnosticSeverity.Information;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    default:
      return undefined;
  }
}

function twinRange(loc: { startLine?: number; endLine?: number }): vscode.Range {
  return loc.startLine === undefined ? FIRST_LINE : new vscode.Range(loc.startLine - 1, 0, (loc.endLine ?? loc.startLine) - 1, Number.MAX_SAFE_INTEGER);
}

export class DiagnosticsPublisher implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly disposables: vscode.Disposable[] = [];
  /** Files whose diagnostics are still to be published (their current items are read then). */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly index: IndexService,
    private readonly settings: Settings,
  ) {
    this.disposables.push(
      this.collection,
      index.onDidChangeItems((c) => this.publish(c)),
      settings.onDidChange((e) => {
        if (e.change.severity) this.publish({ full: true, paths: this.index.pathsWithItems() });
      }),
    );
    this.publish({ full: true, paths: index.pathsWithItems() });
  }

  /** Re-publishes the diagnostics of the given files (of all files when `full`). */
  publish(change: ItemsChange): void {
    const severity = severityOf(this.settings.current.severity);
    if (change.full || severity === undefined) {
      this.collection.clear();
      this.pending.clear();
    }
    if (severity === undefined) return;
    for (const p of change.paths) this.pending.add(p);
    this.publishChunk();
  }

  /** True while a large change is still being published. */
  get publishing(): boolean {
    return this.pending.size > 0;
  }

  private publishChunk(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const severity = severityOf(this.settings.current.severity);
    if (severity === undefined) return this.pending.clear();
    const entries: Array<[vscode.Uri, vscode.Diagnostic[] | undefined]> = [];
    for (const p of this.pending) {
      this.pending.delete(p);
      const items = this.index.itemsOf(p);
      entries.push([vscode.Uri.file(p), items.length ? items.map((i) => this.toDiagnostic(i, severity)) : undefined]);
      if (entries.length >= PUBLISH_CHUNK) break;
    }
    if (entries.length > 0) this.collection.set(entries);
    if (this.pending.size > 0) this.timer = setTimeout(() => this.publishChunk(), 0);
  }

  private toDiagnostic(item: ViewItem, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
    const closest = item.twins[0];
    const others = item.twins.length - 1 + item.moreTwins;
    const twinPath = vscode.workspace.asRelativePath(closest.path);
    const where = closest.startLine === undefined ? twinPath : `${twinPath}:${closest.startLine}-${closest.endLine}`;
    let message =
      item.kind === 'file'
        ? vscode.l10n.t('Near duplicate of {0} (distance {1}, {2} similar)', where, closest.distance, percent(closest.similarity))
        : vscode.l10n.t('Lines {0}–{1} are a near duplicate of {2} (distance {3}, {4} similar)', item.loc.startLine ?? 0, item.loc.endLine ?? 0, where, closest.distance, percent(closest.similarity));
    if (others > 0) message += ' ' + vscode.l10n.t('and {0} more', others);
    const range = item.kind === 'file' ? FIRST_LINE : twinRange(item.loc);
    const d = new vscode.Diagnostic(range, message, severity);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = item.kind === 'file' ? FILE_CODE : SECTION_CODE;
    d.relatedInformation = item.twins.slice(0, MAX_RELATED).map(
      (t) =>
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(vscode.Uri.file(t.path), twinRange(t)),
          vscode.l10n.t('distance {0} ({1} similar)', t.distance, percent(t.similarity)),
        ),
    );
    return d;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.pending.clear();
    for (const d of this.disposables) d.dispose();
  }
}
