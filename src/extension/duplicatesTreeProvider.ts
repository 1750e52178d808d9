/**
 * The Near Duplicates view (`neardup.duplicates`): groups of near-duplicate files and sections,
 * each member with its line range and its Hamming distance (and similarity) to the group's
 * representative; closest groups first. Shows files, sections or both (a toggle in the title).
 * Sets the context keys `neardup.state` (for the welcome content) and `neardup.viewMode`.
 * The nodes of a new report are built by a sliced job ({@link HostTasks}) and shown at once when
 * complete; a newer report makes the build of an older one stop. A category lists its first
 * {@link GROUP_PAGE} groups, then a "Show more" node: VS Code converts all the children of a node
 * in one task of the extension host (~17 µs a group, ~35 µs a member with its command: 500
 * members took 15–25 ms of CPU here, more on a slower machine). A group lists its first
 * {@link MEMBER_PAGE} members the same way (a generated file's sections, or thousands of copies
 * of one file, make groups of thousands); a member's item is made once per report. The unsaved
 * results of documents being edited (live/liveChecker.ts) come first, each group marked
 * "(unsaved)".
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ViewGroup, ViewMember, ViewReport } from '../node/engine/engineProtocol';
import { OPEN_CELL_COMMAND } from './commands/openNotebookCell';
import { threadCpuMs, type HostTasks } from './hostTasks';
import type { IndexService } from './indexing/indexService';
import type { LiveChecker } from './live/liveChecker';
import { isUnsavedGroup } from './live/liveItems';
import { isBaselineGroup, type BaselineShow } from './baseline/baselineView';
import { cellOf, cloneSuffix, linesLabel, locationLabel, percent, rangeOf } from './duplicateLabels';

export type ViewMode = 'both' | 'files' | 'sections';

export interface CategoryNode {
  type: 'category';
  kind: 'file' | 'section';
  groups: GroupNode[];
}

export interface GroupNode {
  type: 'group';
  group: ViewGroup;
  parent: CategoryNode | undefined;
  members: MemberNode[];
  /** Every pair inside it is in the folder's baseline (shown dimmed: `neardup.baseline.show`). */
  baseline?: boolean;
}

export interface MemberNode {
  type: 'member';
  member: ViewMember;
  parent: GroupNode;
  representative: boolean;
}

/** "Show N more groups": the groups of a kind after the first `shown`. */
export interface MoreNode {
  type: 'more';
  kind: 'file' | 'section';
  parent: CategoryNode | undefined;
  shown: number;
  total: number;
}

/** "Show N more members": the members of a group after the first `shown`. */
export interface MoreMembersNode {
  type: 'moreMembers';
  parent: GroupNode;
  shown: number;
  total: number;
}

export type DuplicateNode = CategoryNode | GroupNode | MemberNode | MoreNode | MoreMembersNode;

/** Groups of a kind listed at first, and added by each "Show more". */
export const GROUP_PAGE = 100;
/** Members of a group listed at first, and added by each "Show more". */
export const MEMBER_PAGE = 100;
/** Members a group's tooltip names at most. */
const TOOLTIP_MEMBERS = 50;
export const SHOW_MORE_COMMAND = 'neardup.showMoreGroups';

/** The state shown by the view's welcome content (`neardup.state`). */
export type ViewState = 'indexing' | 'empty' | 'filtered' | 'ready' | 'noFolder' | 'error';

const MODE_KEY = 'neardup.viewMode';

/** A "Show more" node's item: runs SHOW_MORE_COMMAND with `args`. */
function moreItem(label: string, id: string, page: { shown: number; total: number }, args: unknown[]): vscode.TreeItem {
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = id;
  item.description = vscode.l10n.t('{0} of {1} shown', page.shown, page.total);
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'neardup.more';
  item.command = { command: SHOW_MORE_COMMAND, title: vscode.l10n.t('Show more'), arguments: args };
  return item;
}

export class DuplicatesTreeProvider implements vscode.TreeDataProvider<DuplicateNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<DuplicateNode | undefined | void>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private _mode: ViewMode;
  private report: ViewReport | undefined;
  private fileGroups: GroupNode[] = [];
  private sectionGroups: GroupNode[] = [];
  private categories: CategoryNode[] = [];
  private view: vscode.TreeView<DuplicateNode> | undefined;
  private lastState: ViewState | undefined;
  /** Bumped by every new report: the build of an older one stops. */
  private builds = 0;
  private disposed = false;
  /** Groups of each kind listed (the rest behind a "Show more" node). */
  private readonly limits = { file: GROUP_PAGE, section: GROUP_PAGE };
  /** Members listed of the groups whose "Show more" was used, by group key. */
  private readonly memberLimits = new Map<string, number>();
  /** Groups of the unsaved results (listed first, in every mode). */
  private unsavedGroups: GroupNode[] = [];
  /** Member nodes' items, and their folders as the description names them (` · src/app`), per report. */
  private readonly memberItems = new WeakMap<MemberNode, vscode.TreeItem>();
  private readonly whereOf = new Map<string, string>();
  private readonly likenessOf = new Map<string, string>();

  constructor(
    private readonly index: IndexService,
    private readonly memento: vscode.Memento,
    private readonly tasks: HostTasks,
    private readonly live?: LiveChecker,
    private readonly baselineShow: () => BaselineShow = () => 'show',
  ) {
    const saved = memento.get<ViewMode>(MODE_KEY);
    this._mode = saved === 'files' || saved === 'sections' ? saved : 'both';
    void vscode.commands.executeCommand('setContext', MODE_KEY, this._mode);
    this.disposables.push(
      this.changeEmitter,
      index.onDidUpdate((r) => this.setReport(r)),
      index.onDidChangeState(() => this.updateState()),
      ...(live ? [live.onDidChange(() => this.setUnsaved())] : []),
    );
    if (index.report) this.setReport(index.report);
    this.updateState();
  }

  /** Gives the provider its view (for reveal, the title's description and its message). */
  attach(view: vscode.TreeView<DuplicateNode>): void {
    this.view = view;
    this.updateDescription();
  }

  get mode(): ViewMode {
    return this._mode;
  }

  setMode(mode: ViewMode): void {
    if (mode === this._mode) return;
    this._mode = mode;
    void this.memento.update(MODE_KEY, mode);
    void vscode.commands.executeCommand('setContext', MODE_KEY, mode);
    this.changeEmitter.fire();
    this.updateState();
    this.updateDescription();
  }

  /** The top-level nodes in the current mode. */
  roots(): DuplicateNode[] {
    const unsaved = this._mode === 'both' ? this.unsavedGroups : this.unsavedGroups.filter((g) => g.group.kind === (this._mode === 'files' ? 'file' : 'section'));
    if (this._mode === 'files') return [...unsaved, ...this.page('file', this.fileGroups, undefined)];
    if (this._mode === 'sections') return [...unsaved, ...this.page('section', this.sectionGroups, undefined)];
    return [...unsaved, ...this.categories];
  }

  /** The groups of the unsaved results, as the panel lists them (tests). */
  get unsaved(): readonly GroupNode[] {
    return this.unsavedGroups;
  }

  /** Lists more groups of a kind, or more members of the group `groupKey` (the "Show more" nodes' command). */
  showMore(kind: 'file' | 'section', groupKey?: string): void {
    if (groupKey !== undefined) {
      const node = this.visibleGroups().find((g) => g.group.key === groupKey);
      if (!node) return;
      this.memberLimits.set(groupKey, this.memberLimit(node) + MEMBER_PAGE);
      this.changeEmitter.fire(node);
      return;
    }
    this.limits[kind] += GROUP_PAGE;
    this.changeEmitter.fire(this._mode === 'both' ? this.categories.find((c) => c.kind === kind) : undefined);
  }

  getChildren(element?: DuplicateNode): DuplicateNode[] {
    // VS Code asks for the children, then for each child's tree item, and converts them all in
    // the same task of the extension host (in its promise continuations): time that task to the
    // end of its microtasks. A microtask queued now runs among them, and the tick it queues runs
    // once they are all done — before the event loop's next callback, which may be any other
    // work (a turn of the event loop, as setImmediate waits for, counted that too).
    const t0 = performance.now();
    const c0 = threadCpuMs();
    queueMicrotask(() => process.nextTick(() => this.tasks.record('tree.fetch', performance.now() - t0, threadCpuMs() - c0)));
    if (!element) return this.roots();
    if (element.type === 'category') return this.page(element.kind, element.groups, element);
    if (element.type === 'group') return this.memberPage(element);
    return [];
  }

  getParent(element: DuplicateNode): DuplicateNode | undefined {
    if (element.type === 'member' || element.type === 'moreMembers') return element.parent;
    if (element.type === 'group' || element.type === 'more') return this._mode === 'both' ? element.parent : undefined;
    return undefined;
  }

  getTreeItem(element: DuplicateNode): vscode.TreeItem {
    if (element.type === 'moreMembers') {
      const { group } = element.parent;
      const label = vscode.l10n.t('Show {0} more members', Math.min(MEMBER_PAGE, element.total - element.shown));
      return moreItem(label, `more:${group.key}`, element, [group.kind, group.key]);
    }
    if (element.type === 'more') {
      const label = vscode.l10n.t('Show {0} more groups', Math.min(GROUP_PAGE, element.total - element.shown));
      return moreItem(label, `more:${element.kind}`, element, [element.kind]);
    }
    if (element.type === 'category') {
      const item = new vscode.TreeItem(
        element.kind === 'file' ? vscode.l10n.t('Files') : vscode.l10n.t('Sections'),
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `category:${element.kind}`;
      item.description = groupCount(element.groups.length);
      item.iconPath = new vscode.ThemeIcon(element.kind === 'file' ? 'files' : 'symbol-method');
      item.contextValue = 'neardup.category';
      return item;
    }
    if (element.type === 'group') {
      const g = element.group;
      const rep = g.members[0];
      const item = new vscode.TreeItem(locationLabel(rep), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${g.key}`;
      item.description =
        g.kind === 'file'
          ? vscode.l10n.t('{0} files · max distance {1}', g.members.length, g.maxDistance)
          : vscode.l10n.t('{0} sections · max distance {1}', g.members.length, g.maxDistance);
      item.iconPath = new vscode.ThemeIcon(g.kind === 'file' ? 'files' : 'symbol-method');
      item.contextValue = 'neardup.group';
      if (element.baseline) item.description = `${vscode.l10n.t('(baseline)')} · ${item.description as string}`;
      if (isUnsavedGroup(g)) {
        item.description = `${vscode.l10n.t('(unsaved)')} · ${item.description as string}`;
        item.iconPath = new vscode.ThemeIcon('edit');
      }
      return item;
    }
    // A member's item is made once per report: "Show more" asks for the items listed before too.
    const made = this.memberItems.get(element);
    if (made) return made;
    const m = element.member;
    const uri = vscode.Uri.file(m.path);
    const item = new vscode.TreeItem(locationLabel(m), vscode.TreeItemCollapsibleState.None);
    item.id = `member:${element.parent.group.key}|${m.path}#${m.startLine ?? 0}`;
    item.resourceUri = uri;
    // asRelativePath (~25 µs) once per folder; a label with arguments (~9 µs) once per likeness.
    const folder = path.dirname(m.path);
    let where = this.whereOf.get(folder);
    if (where === undefined) {
      const dir = path.dirname(vscode.workspace.asRelativePath(uri));
      this.whereOf.set(folder, (where = dir === '.' ? '' : ` · ${dir}`));
    }
    item.description = element.representative ? `${vscode.l10n.t('representative')}${where}` : `${this.likeness(m)}${where}`;
    item.contextValue = element.representative ? 'neardup.representative' : 'neardup.member';
    const options: vscode.TextDocumentShowOptions = { selection: rangeOf(m), preview: true };
    const cell = cellOf(m);
    item.command =
      cell === undefined
        ? { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri, options] }
        : { command: OPEN_CELL_COMMAND, title: vscode.l10n.t('Open'), arguments: [uri, cell] };
    this.memberItems.set(element, item);
    return item;
  }

  /** `distance 3 · 95.3% · edited copy`, kept (the distinct ones are few). */
  private likeness(m: ViewMember): string {
    const key = `${m.distance}|${m.similarity}|${m.clone ?? ''}`;
    let text = this.likenessOf.get(key);
    if (text === undefined) {
      if (this.likenessOf.size >= 4096) this.likenessOf.clear();
      this.likenessOf.set(key, (text = `${vscode.l10n.t('distance {0} · {1}', m.distance, percent(m.similarity))}${cloneSuffix(m.clone)}`));
    }
    return text;
  }

  /**
   * Tooltips are made when one is shown, not for every item of a big tree (a group's lists all its
   * members).
   */
  resolveTreeItem(item: vscode.TreeItem, element: DuplicateNode): vscode.TreeItem {
    if (element.type === 'group') {
      const members = element.group.members;
      const more = members.length - TOOLTIP_MEMBERS;
      item.tooltip = new vscode.MarkdownString(
        members
          .slice(0, TOOLTIP_MEMBERS)
          .map(
            (m, i) =>
              `- \`${vscode.workspace.asRelativePath(m.path)}${linesLabel(m)}\`` +
              (i === 0 ? ` — ${vscode.l10n.t('representative')}` : ` — ${vscode.l10n.t('distance {0} ({1})', m.distance, percent(m.similarity))}${cloneSuffix(m.clone)}`),
          )
          .join('\n') + (more > 0 ? `\n- ${vscode.l10n.t('and {0} more', more)}` : ''),
      );
    } else if (element.type === 'member') {
      const m = element.member;
      const rel = vscode.workspace.asRelativePath(vscode.Uri.file(m.path));
      item.tooltip = element.representative
        ? vscode.l10n.t('{0}: the representative of this group', rel)
        : vscode.l10n.t('{0}: Hamming distance {1} to the representative ({2} similar)', rel, m.distance, percent(m.similarity)) + cloneSuffix(m.clone);
    }
    return item;
  }

  /** Member nodes at `fsPath` (any of its sections too), in tree order. */
  findMembers(fsPath: string): MemberNode[] {
    const out: MemberNode[] = [];
    for (const g of this.visibleGroups()) for (const m of g.members) if (m.member.path === fsPath) out.push(m);
    return out;
  }

  /** Reveals (and selects) the first node of `fsPath` in the view; no-op when it has none. */
  async reveal(fsPath: string): Promise<boolean> {
    const [first] = this.findMembers(fsPath);
    if (!first || !this.view) return false;
    // A group behind "Show more" is listed first.
    const kind = first.parent.group.kind;
    const at = (kind === 'file' ? this.fileGroups : this.sectionGroups).indexOf(first.parent);
    if (at >= this.limits[kind]) {
      this.limits[kind] = Math.ceil((at + 1) / GROUP_PAGE) * GROUP_PAGE;
      this.changeEmitter.fire(this._mode === 'both' ? first.parent.parent : undefined);
    }
    // So is a member behind its group's "Show more".
    const index = first.parent.members.indexOf(first);
    if (index >= this.memberLimit(first.parent)) {
      this.memberLimits.set(first.parent.group.key, Math.ceil((index + 1) / MEMBER_PAGE) * MEMBER_PAGE);
      this.changeEmitter.fire(first.parent);
    }
    try {
      await this.view.reveal(first, { select: true, focus: false, expand: true });
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.disposables) d.dispose();
  }

  // ---------------------------------------------------------------------------------- internals

  /** The first groups of a kind, then a "Show more" node if there are more. */
  private page(kind: 'file' | 'section', groups: GroupNode[], parent: CategoryNode | undefined): DuplicateNode[] {
    const limit = this.limits[kind];
    if (groups.length <= limit) return groups;
    const more: MoreNode = { type: 'more', kind, parent, shown: limit, total: groups.length };
    return [...groups.slice(0, limit), more];
  }

  private memberLimit(group: GroupNode): number {
    return this.memberLimits.get(group.group.key) ?? MEMBER_PAGE;
  }

  /** The first members of a group, then a "Show more" node if there are more. */
  private memberPage(group: GroupNode): DuplicateNode[] {
    const limit = this.memberLimit(group);
    if (group.members.length <= limit) return group.members;
    const more: MoreMembersNode = { type: 'moreMembers', parent: group, shown: limit, total: group.members.length };
    return [...group.members.slice(0, limit), more];
  }

  private visibleGroups(): GroupNode[] {
    if (this._mode === 'files') return this.fileGroups;
    if (this._mode === 'sections') return this.sectionGroups;
    return [...this.fileGroups, ...this.sectionGroups];
  }

  /** The unsaved results changed: their groups are few (one document's), made at once. */
  private setUnsaved(): void {
    if (!this.live) return;
    this.unsavedGroups = this.live.groups().map((g) => {
      const node: GroupNode = { type: 'group', group: g, parent: undefined, members: [] };
      node.members = g.members.map((m, i) => ({ type: 'member', member: m, parent: node, representative: i === 0 }));
      return node;
    });
    this.changeEmitter.fire();
    this.updateState();
  }

  /** `neardup.baseline.show` changed: the groups again. */
  rebuild(): void {
    if (this.report) this.setReport(this.report);
  }

  private setReport(report: ViewReport): void {
    const build = ++this.builds;
    const show = this.index.baselinesInUse ? this.baselineShow() : 'show';
    void this.tasks.run('tree', async (s) => {
      const fileCat: CategoryNode = { type: 'category', kind: 'file', groups: [] };
      const sectionCat: CategoryNode = { type: 'category', kind: 'section', groups: [] };
      for (const g of report.groups) {
        const cat = g.kind === 'file' ? fileCat : sectionCat;
        const baseline = show !== 'show' && isBaselineGroup(g, (p) => this.index.itemsOf(p));
        if (baseline && show === 'hide') continue;
        const node: GroupNode = { type: 'group', group: g, parent: cat, members: [], baseline };
        node.members = g.members.map((m, i) => ({ type: 'member', member: m, parent: node, representative: i === 0 }));
        cat.groups.push(node);
        if (s.due) {
          await s.yield();
          if (build !== this.builds || this.disposed) return;
        }
      }
      if (build !== this.builds || this.disposed) return;
      this.show(report, fileCat, sectionCat);
    });
  }

  private show(report: ViewReport, fileCat: CategoryNode, sectionCat: CategoryNode): void {
    this.report = report;
    this.whereOf.clear();
    this.fileGroups = fileCat.groups;
    this.sectionGroups = sectionCat.groups;
    this.categories = [fileCat, sectionCat].filter((c) => c.groups.length > 0);
    this.changeEmitter.fire();
    this.updateState();
    this.updateDescription();
  }

  private computeState(): ViewState {
    const s = this.index.state;
    if (s === 'noFolder') return 'noFolder';
    if (s === 'error' && !this.report) return 'error';
    if (!this.report) return 'indexing';
    if (this.roots().length > 0) return 'ready';
    if (s === 'indexing' || s === 'starting') return 'indexing';
    return this.fileGroups.length + this.sectionGroups.length > 0 ? 'filtered' : 'empty';
  }

  private updateState(): void {
    const state = this.computeState();
    if (state !== this.lastState) {
      this.lastState = state;
      void vscode.commands.executeCommand('setContext', 'neardup.state', state);
    }
    if (this.view) this.view.message = this.message();
  }

  /** The line above the tree: indexing progress, or that the report holds only some pairs. */
  private message(): string | undefined {
    const p = this.index.progress;
    if (this.index.state === 'indexing' && this.roots().length > 0 && p && p.total > 0) return vscode.l10n.t('Indexing: {0}/{1} files…', p.done, p.total);
    const cut = this.report?.truncated;
    if (cut && (cut.files || cut.sections)) {
      return cut.files && !cut.sections
        ? vscode.l10n.t('Too many near-duplicate file pairs: only some are shown. Exclude generated files with the neardup.exclude setting.')
        : vscode.l10n.t('Too many near-duplicate section pairs: only some are shown. Exclude generated files with the neardup.exclude setting.');
    }
    return undefined;
  }

  /** The message above the tree (exposed for tests). */
  get viewMessage(): string | undefined {
    return this.view?.message;
  }

  /** The state of the welcome content (exposed for tests). */
  get viewState(): ViewState {
    return this.computeState();
  }

  private updateDescription(): void {
    if (!this.view) return;
    const n = this.visibleGroups().length;
    this.view.description = this.report ? groupCount(n) : undefined;
  }
}

/** "1 group", "N groups" (localised). */
function groupCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 group') : vscode.l10n.t('{0} groups', n);
}
