/**
 * What VS Code for the Web shows of a report: a diagnostic on each near-duplicate file (first
 * line) and section (its lines), with its closest twin in the message and every twin as related
 * information — the desktop's messages and codes (src/extension/diagnosticsPublisher.ts) — and
 * the NearDup view's groups (files, then sections; each member opens its file at its lines).
 */
import * as vscode from 'vscode';
import type { Location, ReportGroup } from '../../core/report/report';
import type { CloneKind } from '../../core/types';
import type { Severity } from '../../node/settings/settingsSchema';
import type { WebReport } from '../../web/webProtocol';

// The desktop's source and codes (diagnosticsPublisher.ts), so quick fixes and filters agree.
const DIAGNOSTIC_SOURCE = 'neardup';
const FILE_CODE = 'near-duplicate-file';
const SECTION_CODE = 'near-duplicate-section';
/** Related locations listed per diagnostic at most. */
const MAX_RELATED = 20;

interface Twin {
  loc: Location;
  distance: number;
  similarity: number;
  clone: CloneKind;
}

/** How a copy was made, in the desktop's words (cloneLabel of duplicatesTreeProvider.ts, which this bundle cannot import). */
const cloneWords = (kind: CloneKind): string =>
  kind === 'exact' ? vscode.l10n.t('exact copy') : kind === 'renamed' ? vscode.l10n.t('renamed copy') : vscode.l10n.t('edited copy');

const percent = (similarity: number): string => `${(similarity * 100).toFixed(1)}%`;
const linesLabel = (loc: Location): string => (loc.startLine === undefined ? '' : `:${loc.startLine}-${loc.endLine}`);
const rangeOf = (loc: Location): vscode.Range =>
  loc.startLine === undefined ? new vscode.Range(0, 0, 0, Number.MAX_SAFE_INTEGER) : new vscode.Range(loc.startLine - 1, 0, Math.max(loc.startLine, loc.endLine ?? loc.startLine) - 1, Number.MAX_SAFE_INTEGER);

function severityOf(s: Severity): vscode.DiagnosticSeverity | undefined {
  if (s === 'hint') return vscode.DiagnosticSeverity.Hint;
  if (s === 'information') return vscode.DiagnosticSeverity.Information;
  if (s === 'warning') return vscode.DiagnosticSeverity.Warning;
  return undefined;
}

/** The report's diagnostics, file by file (replacing the previous report's). */
export function publishDiagnostics(collection: vscode.DiagnosticCollection, report: WebReport, severity: Severity, uriOf: (relPath: string) => vscode.Uri | undefined): void {
  collection.clear();
  const level = severityOf(severity);
  if (level === undefined) return;
  const items = new Map<string, { loc: Location; kind: 'file' | 'section'; twins: Twin[] }>();
  const add = (self: Location, other: Location, kind: 'file' | 'section', distance: number, similarity: number, clone: CloneKind) => {
    const key = `${self.path}\0${self.startLine ?? ''}\0${self.endLine ?? ''}`;
    let item = items.get(key);
    if (!item) items.set(key, (item = { loc: self, kind, twins: [] }));
    item.twins.push({ loc: other, distance, similarity, clone });
  };
  for (const p of report.pairs) {
    add(p.a, p.b, p.kind, p.distance, p.similarity, p.clone);
    add(p.b, p.a, p.kind, p.distance, p.similarity, p.clone);
  }
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const item of items.values()) {
    item.twins.sort((x, y) => x.distance - y.distance || y.similarity - x.similarity || (x.loc.path < y.loc.path ? -1 : 1));
    const closest = item.twins[0];
    const where = closest.loc.path + linesLabel(closest.loc);
    let message =
      item.kind === 'file'
        ? vscode.l10n.t('Near duplicate of {0} (distance {1}, {2} similar)', where, closest.distance, percent(closest.similarity))
        : vscode.l10n.t('Lines {0}–{1} are a near duplicate of {2} (distance {3}, {4} similar)', item.loc.startLine ?? 0, item.loc.endLine ?? 0, where, closest.distance, percent(closest.similarity));
    message = vscode.l10n.t('{0} — {1}', message, cloneWords(closest.clone));
    if (item.twins.length > 1) message += ' ' + vscode.l10n.t('and {0} more', item.twins.length - 1);
    const d = new vscode.Diagnostic(rangeOf(item.loc), message, level);
    d.source = DIAGNOSTIC_SOURCE;
    d.code = item.kind === 'file' ? FILE_CODE : SECTION_CODE;
    d.relatedInformation = [];
    for (const t of item.twins.slice(0, MAX_RELATED)) {
      const uri = uriOf(t.loc.path);
      if (uri) d.relatedInformation.push(new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, rangeOf(t.loc)), vscode.l10n.t('{0} — {1}', vscode.l10n.t('distance {0} ({1} similar)', t.distance, percent(t.similarity)), cloneWords(t.clone))));
    }
    const list = byFile.get(item.loc.path) ?? [];
    list.push(d);
    byFile.set(item.loc.path, list);
  }
  for (const [relPath, list] of byFile) {
    const uri = uriOf(relPath);
    if (uri) collection.set(uri, list);
  }
}

type Node = { kind: 'heading'; groups: ReportGroup[]; label: string } | { kind: 'group'; group: ReportGroup } | { kind: 'member'; loc: Location; first: boolean };

/** The NearDup view: groups of the last report. */
export class WebDuplicatesTree implements vscode.TreeDataProvider<Node> {
  private report: WebReport | undefined;
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly uriOf: (relPath: string) => vscode.Uri | undefined) {}

  show(report: WebReport): void {
    this.report = report;
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    const groups = this.report?.groups ?? [];
    if (!node) {
      const files = groups.filter((g) => g.kind === 'file');
      const sections = groups.filter((g) => g.kind === 'section');
      const out: Node[] = [];
      if (files.length) out.push({ kind: 'heading', groups: files, label: vscode.l10n.t('Files') });
      if (sections.length) out.push({ kind: 'heading', groups: sections, label: vscode.l10n.t('Sections') });
      return out;
    }
    if (node.kind === 'heading') return node.groups.map((group) => ({ kind: 'group', group }));
    if (node.kind === 'group') return node.group.members.map((m, i) => ({ kind: 'member', loc: node.group.locations?.[i] ?? { path: m }, first: i === 0 }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'heading') return new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
    if (node.kind === 'group') {
      const g = node.group;
      const item = new vscode.TreeItem(g.members[0].split('/').pop() ?? g.members[0], vscode.TreeItemCollapsibleState.Collapsed);
      item.description =
        g.kind === 'file'
          ? vscode.l10n.t('{0} files · max distance {1}', g.members.length, g.maxDistance)
          : vscode.l10n.t('{0} sections · max distance {1}', g.members.length, g.maxDistance);
      return item;
    }
    const item = new vscode.TreeItem(node.loc.path.split('/').pop() + linesLabel(node.loc), vscode.TreeItemCollapsibleState.None);
    item.description = node.loc.path;
    const uri = this.uriOf(node.loc.path);
    if (uri) {
      item.resourceUri = uri;
      item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri, { selection: rangeOf(node.loc) }] };
    }
    return item;
  }
}
