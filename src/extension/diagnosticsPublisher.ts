/**
 * One DiagnosticCollection ("neardup"): a diagnostic on every near-duplicate file (on its first
 * line) and section (on its lines), naming the closest twin and its distance, with related
 * information pointing at every twin. Severity from `neardup.diagnostics.severity`. Only files
 * whose items changed are re-published (the engine sends just those); files that no longer have
 * near duplicates (deleted, edited, excluded) are cleared. A large change (the first index of a
 * big workspace, a branch switch) is published by a sliced job ({@link HostTasks}), some files per
 * slice: each file goes from its old diagnostics straight to its new ones (never cleared all at
 * once and filled again). A document being edited (live/liveChecker.ts) shows its unsaved result
 * instead, each message marked "(unsaved)", until it is saved or reverted. Pairs in the folder's
 * baseline (marked by the engine) are left out, or shown apart as a dimmed hint
 * (`neardup.baseline.show`, baseline/baselineView.ts).
 */
import * as vscode from 'vscode';
import type { CloneKind } from '../core/types';
import type { ViewItem } from '../node/engine/engineProtocol';
import { cellRange } from '../core/containers/cellLines';
import { cellOf, cloneLabel, linesLabel, percent } from './duplicateLabels';
import { SLICE_MS, type HostTasks, type Slice } from './hostTasks';
import type { IndexService, ItemsChange } from './indexing/indexService';
import type { Severity } from '../node/settings/settingsSchema';
import type { Settings } from './settings';
import type { LiveChecker } from './live/liveChecker';
import { splitByBaseline } from './baseline/baselineView';

export const DIAGNOSTIC_SOURCE = 'neardup';
/** Diagnostic codes: what the quick fix looks for. */
export const FILE_CODE = 'near-duplicate-file';
export const SECTION_CODE = 'near-duplicate-section';

const FIRST_LINE = new vscode.Range(0, 0, 0, Number.MAX_SAFE_INTEGER);
/** Related information per diagnostic (the message counts the rest). */
const MAX_RELATED = 20;
/**
 * Diagnostics of one file at most, and related entries over all of them: a generated file of 900
 * near-identical functions would otherwise get 900 diagnostics with 18,000 related entries, which
 * cost the extension host (and the workbench) a quarter of a second in one piece. The rest is
 * counted by one more diagnostic on the first line; the NearDup panel lists them. A file's
 * diagnostics are made across slices; only handing them to VS Code (`collection.set`, which
 * converts and sends them) is one piece: 7–17 ms of CPU here for 101 with 400 related entries
 * (251 with 1,000 took 22–29 ms, and 50 ms on a slower machine).
 */
export const MAX_DIAGNOSTICS_PER_FILE = 100;
const MAX_RELATED_PER_FILE = 400;
/** The code of the diagnostic that counts those not shown (no quick fix). */
export const MORE_CODE = 'near-duplicate-more';
/** Files published per call to the collection (and slice) at most. */
export const PUBLISH_CHUNK = 200;
/**
 * Files per millisecond handed to VS Code at most when many change at once (after a full index of
 * a big workspace): the workbench converts and stores every file's markers too, and on a small
 * machine a burst of thousands takes the cores the extension host needs.
 */
export const PUBLISH_FILES_PER_MS = 2;

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

/** A location's lines as a range; a whole file and a notebook's cell (not lines of the JSON file): the first line. */
function twinRange(loc: { path: string; startLine?: number; endLine?: number }): vscode.Range {
  return loc.startLine === undefined || cellOf(loc) !== undefined ? FIRST_LINE : new vscode.Range(loc.startLine - 1, 0, (loc.endLine ?? loc.startLine) - 1, Number.MAX_SAFE_INTEGER);
}

export class DiagnosticsPublisher implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly disposables: vscode.Disposable[] = [];
  /** Files whose diagnostics are to be published (their current items are read then). */
  private readonly pending = new Set<string>();
  /** Lists of files still to be added to `pending` (added in slices: they may be long). */
  private readonly queued: Array<Iterable<string>> = [];
  /** Files that have diagnostics now. */
  private readonly published = new Set<string>();
  private running = false;
  /** Bumped when everything is cleared: a job of an older epoch stops. */
  private epoch = 0;
  private disposed = false;
  /**
   * What one file costs, in ms: making its diagnostics and the collection's own work on them
   * (converting and sending them to the workbench, measured at ~0.05–0.2 ms). Learnt as it goes:
   * a slice publishes as many files as fit in it.
   */
  private msPerFile = 0.1;

  constructor(
    private readonly index: IndexService,
    private readonly settings: Settings,
    private readonly tasks: HostTasks,
    private readonly live?: LiveChecker,
  ) {
    this.disposables.push(
      this.collection,
      index.onDidChangeItems((c) => this.publish(c)),
      ...(live ? [live.onDidChange((paths) => this.publish({ full: false, paths }))] : []),
      settings.onDidChange((e) => {
        if (e.change.severity) this.republish();
      }),
    );
    this.republish();
  }

  /** Re-publishes the diagnostics of the given files (when `full`, of every file too). */
  publish(change: ItemsChange): void {
    if (this.disposed) return;
    if (severityOf(this.settings.current.severity) === undefined) return this.clearAll();
    // A full change: files shown now that are not in it lose their diagnostics.
    if (change.full) this.queued.push(this.published);
    this.queued.push(change.paths);
    this.start();
  }

  /** True while a change is still being published. */
  get publishing(): boolean {
    return this.running || this.pending.size > 0 || this.queued.length > 0;
  }

  /** Publishes every file again (the severity changed). */
  private republish(): void {
    if (severityOf(this.settings.current.severity) === undefined) return this.clearAll();
    this.queued.push(this.published, this.index.pathsWithItems());
    this.start();
  }

  private clearAll(): void {
    this.epoch++;
    this.collection.clear();
    this.published.clear();
    this.pending.clear();
    this.queued.length = 0;
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    void this.tasks.run('diagnostics', (s) => this.drain(s)).finally(() => {
      this.running = false;
      // A clearAll() may have ended the job while new work was queued.
      if (this.queued.length > 0 || this.pending.size > 0) this.start();
    });
  }

  private async drain(s: Slice): Promise<void> {
    const epoch = this.epoch;
    const stopped = () => this.disposed || epoch !== this.epoch;
    while (!stopped() && (this.queued.length > 0 || this.pending.size > 0)) {
      while (this.queued.length > 0) {
        const list = this.queued.shift()!;
        for (const p of list) {
          this.pending.add(p);
          if (s.due) {
            await s.yield();
            if (stopped()) return;
          }
        }
      }
      const severity = severityOf(this.settings.current.severity);
      if (severity === undefined) return this.clearAll();
      if (this.pending.size === 0) continue;
      if (s.due) await s.yield();
      if (stopped()) return;
      const fit = Math.max(1, Math.min(PUBLISH_CHUNK, Math.floor((SLICE_MS - s.elapsedMs) / this.msPerFile)));
      const t0 = s.elapsedMs;
      const tasks0 = s.tasks;
      const entries: Array<[vscode.Uri, vscode.Diagnostic[] | undefined]> = [];
      for (const p of this.pending) {
        this.pending.delete(p);
        const unsaved = this.live?.itemsOf(p);
        const items = unsaved ?? this.index.itemsOf(p);
        if (items.length > 0) {
          entries.push([vscode.Uri.file(p), await this.diagnosticsOf(items, severity, s, unsaved !== undefined)]);
          if (stopped()) return;
          this.published.add(p);
        } else if (this.published.delete(p)) entries.push([vscode.Uri.file(p), undefined]);
        if (entries.length >= fit) break;
      }
      if (entries.length === 0) continue;
      this.collection.set(entries);
      // Learnt from batches made within one slice (a big file's diagnostics span several).
      if (s.tasks === tasks0) this.msPerFile = Math.min(5, 0.5 * this.msPerFile + (0.5 * (s.elapsedMs - t0)) / entries.length);
      await s.yield(this.pending.size > 0 || this.queued.length > 0 ? entries.length / PUBLISH_FILES_PER_MS : 0);
    }
  }

  /** A file's diagnostics: its items (in order) up to the caps, and a count of the rest. */
  private async diagnosticsOf(items: readonly ViewItem[], severity: vscode.DiagnosticSeverity, s: Slice, unsaved = false): Promise<vscode.Diagnostic[]> {
    const show = this.settings.current.baselineShow;
    const parts = items.flatMap((i) => splitByBaseline(i, show));
    if (parts.length === 0) return [];
    const shown = Math.min(parts.length, MAX_DIAGNOSTICS_PER_FILE);
    const related = Math.max(1, Math.min(MAX_RELATED, Math.floor(MAX_RELATED_PER_FILE / shown)));
    const out: vscode.Diagnostic[] = [];
    for (let i = 0; i < shown; i++) {
      const d = this.toDiagnostic(parts[i].item, parts[i].dimmed ? vscode.DiagnosticSeverity.Hint : severity, related);
      if (parts[i].dimmed) {
        d.message = vscode.l10n.t('(baseline) {0}', d.message);
        d.tags = [vscode.DiagnosticTag.Unnecessary];
      }
      if (unsaved) d.message = vscode.l10n.t('(unsaved) {0}', d.message);
      out.push(d);
      if (s.due) await s.yield();
    }
    if (parts.length > shown) {
      const more = new vscode.Diagnostic(
        FIRST_LINE,
        vscode.l10n.t('{0} more near duplicates in this file are not shown here; the NearDup panel lists them.', parts.length - shown),
        severity,
      );
      more.source = DIAGNOSTIC_SOURCE;
      more.code = MORE_CODE;
      out.push(more);
    }
    return out;
  }

  private toDiagnostic(item: ViewItem, severity: vscode.DiagnosticSeverity, maxRelated: number): vscode.Diagnostic {
    const closest = item.twins[0];
    const others = item.twins.length - 1 + item.moreTwins;
    const twinPath = vscode.workspace.asRelativePath(closest.path);
    const where = twinPath + linesLabel(closest);
    const self = cellRange(item.loc);
    const repeat = item.kind === 'section' && closest.path === item.loc.path && closest.startLine !== undefined && self.cell === undefined;
    let message = repeat
      ? vscode.l10n.t('Lines {0}–{1} are repeated in this file at lines {2}–{3} ({4} similar)', item.loc.startLine ?? 0, item.loc.endLine ?? 0, closest.startLine ?? 0, closest.endLine ?? 0, percent(closest.similarity))
      : item.kind === 'file'
        ? vscode.l10n.t('Near duplicate of {0} (distance {1}, {2} similar)', where, closest.distance, percent(closest.similarity))
        : self.cell !== undefined
          ? vscode.l10n.t('Cell {0}, lines {1}–{2} are a near duplicate of {3} (distance {4}, {5} similar)', self.cell, self.startLine ?? 0, self.endLine ?? 0, where, closest.distance, percent(closest.similarity))
          : vscode.l10n.t('Lines {0}–{1} are a near duplicate of {2} (distance {3}, {4} similar)', item.loc.startLine ?? 0, item.loc.endLine ?? 0, where, closest.distance, percent(closest.similarity));
    // How the closest twin was copied (exact, renamed, edited).
    message = withClone(message, closest.clone);
    if (others > 0) message += ' ' + vscode.l10n.t('and {0} more', others);
    const range = item.kind === 'file' ? FIRST_LINE : twinRange(item.loc);
    const d = new vscode.Diagnostic(range, message, severity);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = item.kind === 'file' ? FILE_CODE : SECTION_CODE;
    d.relatedInformation = item.twins.slice(0, maxRelated).map(
      (t) =>
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(vscode.Uri.file(t.path), twinRange(t)),
          withClone(vscode.l10n.t('distance {0} ({1} similar)', t.distance, percent(t.similarity)), t.clone),
        ),
    );
    return d;
  }

  dispose(): void {
    this.disposed = true;
    this.pending.clear();
    this.queued.length = 0;
    for (const d of this.disposables) d.dispose();
  }
}

/** `text — exact copy` (or `text` alone where the kind is not known). */
function withClone(text: string, kind: CloneKind | undefined): string {
  return kind ? vscode.l10n.t('{0} — {1}', text, cloneLabel(kind)) : text;
}
