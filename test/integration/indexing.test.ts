import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import type { MemberNode } from '../../src/extension/duplicatesTreeProvider';
import {
  FIXTURE_FILE_GROUPS,
  FIXTURE_SECTION_GROUPS,
  fileGroups,
  getApi,
  groupNodes,
  relOf,
  sectionGroups,
  waitForReport,
} from './helpers';

describe('indexing and the Near Duplicates view', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.lastJob !== null || r.groups.length > 0, 'the first report');
    await api.index.whenIdle();
  });

  it('activation returns in a few ms and the first index runs in the background', () => {
    // What "in the background" means, whatever the machine's load: activate() returned before the
    // first index began. Its time is only bounded loosely: on a busy 2-core machine the extension
    // host's own work around it made a few ms 110 ms once (typically 10-60 ms here), and the
    // fixture is too small for an index run inside activate() to show in time anyway.
    assert.strictEqual(api.timings.stateAtActivation, 'starting');
    assert.ok(api.timings.activateMs < 500, `activate() took ${api.timings.activateMs} ms`);
    const first = api.timings.firstIndexMs();
    assert.ok(first !== undefined && first > 0, 'first index finished');
    assert.strictEqual(api.index.state(), 'ready');
  });

  it("fingerprints code with the native kernel in the extension host's runtime", async function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    const stats = await api.index.engineStats();
    assert.strictEqual(stats?.fingerprinting, 'native', `engine: ${stats?.fingerprinting} (node ${process.versions.node})`);
  });

  it('the status bar shows the number of groups and the share of the workspace\'s lines in near duplicates', async () => {
    // Expected from the fixture's files: every line of a file with a near-duplicate file, the
    // lines of its near-duplicate sections otherwise (fixture table in test/integration/README.md).
    const r = api.index.getReport();
    assert.ok(r);
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const files = ['code/logParser.ts', 'code/orderService.ts', 'code/orderServiceCopy.ts', 'code/salesReport.ts', 'docs/en/backup-guide-2023.md', 'docs/en/backup-guide.md', 'docs/zh/tea-garden-copy.md', 'docs/zh/tea-garden.md', 'notes/unique-meeting-notes.md'];
    const linesOf = (rel: string) => {
      const t = fs.readFileSync(path.join(root, rel), 'utf8');
      return t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
    };
    const covered = new Map<string, Set<number>>();
    for (const i of r.items) {
      const rel = relOf(i.loc.path);
      const set = covered.get(rel) ?? new Set<number>();
      covered.set(rel, set);
      const [a, b] = i.loc.startLine === undefined ? [1, linesOf(rel)] : [i.loc.startLine, i.loc.endLine!];
      for (let l = a; l <= b; l++) set.add(l);
    }
    const count = (pred: (rel: string) => boolean) => ({
      lines: files.filter(pred).reduce((n, f) => n + linesOf(f), 0),
      duplicated: [...covered].filter(([f]) => pred(f)).reduce((n, [, set]) => n + set.size, 0),
    });
    const code = count((f) => f.endsWith('.ts'));
    const docs = count((f) => f.endsWith('.md'));
    const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
    const total = code.lines + docs.lines;
    const dup = code.duplicated + docs.duplicated;
    assert.strictEqual(r.files, files.length);
    assert.ok(dup > 0 && dup < total);
    assert.strictEqual(api.status().text, `$(copy) NearDup 4 · ${pct(dup, total)}`);
    const tooltip = api.status().tooltip;
    assert.match(tooltip, /near-duplicate groups: 4 \(of files: 3, of sections: 1\); files indexed: 9/);
    assert.ok(tooltip.includes(`Workspace: ${dup} of ${total} lines are in near duplicates (${pct(dup, total)}).`), tooltip);
    assert.ok(tooltip.includes(`Code: ${code.duplicated} of ${code.lines} lines (${pct(code.duplicated, code.lines)}); documents: ${docs.duplicated} of ${docs.lines} lines (${pct(docs.duplicated, docs.lines)}).`), tooltip);
    const docsFolder = count((f) => f.startsWith('docs/'));
    assert.ok(tooltip.includes(`docs/ ${docsFolder.duplicated}/${docsFolder.lines}`), tooltip);
    assert.ok(!tooltip.includes('notes/'), 'a folder without near duplicates is not listed');
  });

  it('indexes the fixture workspace: the planted file and section groups', () => {
    const r = api.index.getReport();
    assert.ok(r);
    assert.deepStrictEqual(fileGroups(r), FIXTURE_FILE_GROUPS);
    assert.deepStrictEqual(sectionGroups(r), FIXTURE_SECTION_GROUPS);
    assert.strictEqual(r.files, 9);
    assert.deepStrictEqual(r.thresholds, { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 });
  });

  it('the tree lists groups (files and sections), closest first, with distances to the representative', async () => {
    assert.strictEqual(api.tree.mode, 'both');
    const roots = api.tree.getChildren();
    assert.deepStrictEqual(
      roots.map((n) => (n.type === 'category' ? n.kind : n.type)),
      ['file', 'section'],
    );
    const catItems = roots.map((n) => api.tree.getTreeItem(n));
    assert.strictEqual(String(catItems[0].description), '3 groups');

    const groups = groupNodes(api);
    const fileGroupsInTree = groups.filter((g) => g.group.kind === 'file');
    assert.deepStrictEqual(
      fileGroupsInTree.map((g) => g.group.maxDistance),
      [...fileGroupsInTree.map((g) => g.group.maxDistance)].sort((a, b) => a - b),
      'sorted by closeness',
    );
    // orderService pair: distance 1 (98.4 %).
    const order = fileGroupsInTree.find((g) => g.members.some((m) => m.member.path.endsWith('orderService.ts')));
    assert.ok(order);
    const members = api.tree.getChildren(order) as MemberNode[];
    assert.strictEqual(members.length, 2);
    assert.strictEqual(members[0].representative, true);
    assert.strictEqual(members[0].member.distance, 0);
    assert.strictEqual(members[1].member.distance, 1);
    const repItem = api.tree.getTreeItem(members[0]);
    const twinItem = api.tree.getTreeItem(members[1]);
    assert.match(String(repItem.description), /representative/);
    assert.match(String(twinItem.description), /distance 1 · 98\.4%/);
    assert.strictEqual(twinItem.contextValue, 'neardup.member');
    assert.strictEqual(repItem.contextValue, 'neardup.representative');
    assert.strictEqual(twinItem.command?.command, 'vscode.open');
    assert.strictEqual(api.tree.getParent(members[1]), order);

    // The section group: members with line ranges.
    const section = groups.find((g) => g.group.kind === 'section');
    assert.ok(section);
    const labels = (api.tree.getChildren(section) as MemberNode[]).map((m) => String(api.tree.getTreeItem(m).label)).sort();
    assert.deepStrictEqual(labels, ['logParser.ts:15-44', 'salesReport.ts:11-40']);
  });

  it('clicking a member opens the file with the section selected', async () => {
    const section = groupNodes(api).find((g) => g.group.kind === 'section');
    assert.ok(section);
    const member = (api.tree.getChildren(section) as MemberNode[]).find((m) => m.member.path.endsWith('logParser.ts'));
    assert.ok(member);
    const item = api.tree.getTreeItem(member);
    assert.ok(item.command);
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.strictEqual(relOf(editor.document.uri.fsPath), 'code/logParser.ts');
    assert.strictEqual(editor.selection.start.line, 14);
    assert.strictEqual(editor.selection.end.line, 43);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the view toggle shows files only, sections only, or both', async () => {
    try {
      await vscode.commands.executeCommand('neardup.viewMode.files');
      assert.strictEqual(api.tree.mode, 'files');
      let roots = api.tree.getChildren();
      assert.ok(roots.length === 3 && roots.every((n) => n.type === 'group' && n.group.kind === 'file'));
      await vscode.commands.executeCommand('neardup.viewMode.sections');
      roots = api.tree.getChildren();
      assert.ok(roots.length === 1 && roots.every((n) => n.type === 'group' && n.group.kind === 'section'));
    } finally {
      await vscode.commands.executeCommand('neardup.viewMode.both');
    }
    assert.strictEqual(api.tree.getChildren().length, 2);
  });

  it('Compare on a member opens a diff with its representative', async () => {
    const group = groupNodes(api).find((g) => g.group.kind === 'file' && g.members.some((m) => m.member.path.endsWith('backup-guide.md')));
    assert.ok(group);
    const member = (api.tree.getChildren(group) as MemberNode[])[1];
    await vscode.commands.executeCommand('neardup.compare', member);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab && tab.input instanceof vscode.TabInputTextDiff, 'a diff editor is active');
    const input = tab.input as vscode.TabInputTextDiff;
    assert.strictEqual(input.original.fsPath, member.member.path);
    assert.strictEqual(input.modified.fsPath, group.group.members[0].path);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Refresh re-walks without re-reading unchanged files', async () => {
    await vscode.commands.executeCommand('neardup.refresh');
    await api.index.whenIdle();
    const stats = api.index.lastIndexStats();
    assert.ok(stats);
    assert.strictEqual(stats.reread, 0);
    assert.deepStrictEqual(fileGroups(api.index.getReport()!), FIXTURE_FILE_GROUPS);
  });
});
