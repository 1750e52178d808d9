import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, groupNodes, relOf, waitForDiagnostics, waitForReport } from './helpers';
import type { MemberNode } from '../../src/extension/duplicatesTreeProvider';

describe('diagnostics and quick fixes', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  after(closeAllEditors);

  it('a near-duplicate file gets a diagnostic on its first line naming its twin, with related information', async () => {
    const uri = fixture('code/orderService.ts');
    const [d] = await waitForDiagnostics(uri, (ds) => ds.length > 0, 'diagnostics of orderService.ts');
    assert.strictEqual(d.source, 'neardup');
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Information);
    assert.strictEqual(d.range.start.line, 0);
    assert.strictEqual(d.range.end.line, 0);
    assert.match(d.message, /orderServiceCopy\.ts/);
    assert.match(d.message, /distance 1/);
    assert.ok(d.relatedInformation && d.relatedInformation.length === 1);
    assert.strictEqual(relOf(d.relatedInformation[0].location.uri.fsPath), 'code/orderServiceCopy.ts');
    assert.match(d.relatedInformation[0].message, /distance 1/);
  });

  it('a near-duplicate section gets a diagnostic on its lines, pointing at the twin section', async () => {
    const uri = fixture('code/logParser.ts');
    const [d] = await waitForDiagnostics(uri, (ds) => ds.length > 0, 'diagnostics of logParser.ts');
    assert.strictEqual(d.range.start.line, 14);
    assert.strictEqual(d.range.end.line, 43);
    assert.match(d.message, /salesReport\.ts:11-40/);
    const rel = d.relatedInformation?.[0];
    assert.ok(rel);
    assert.strictEqual(relOf(rel.location.uri.fsPath), 'code/salesReport.ts');
    assert.strictEqual(rel.location.range.start.line, 10);
    assert.strictEqual(rel.location.range.end.line, 39);
  });

  it('the message and the related information say how the copy was made: the section is verbatim, the file twins edited', async () => {
    const [section] = await waitForDiagnostics(fixture('code/logParser.ts'), (ds) => ds.length > 0, 'diagnostics of logParser.ts');
    assert.match(section.message, /\(distance 0, 100\.0% similar\) — exact copy$/);
    assert.match(section.relatedInformation?.[0].message ?? '', / — exact copy$/);
    // orderServiceCopy.ts: identifiers renamed and lines edited, so neither exact nor renamed.
    const [file] = await waitForDiagnostics(fixture('code/orderService.ts'), (ds) => ds.length > 0, 'diagnostics of orderService.ts');
    assert.match(file.message, /orderServiceCopy\.ts \(distance 1, 98\.4% similar\) — edited copy$/);
    assert.match(file.relatedInformation?.[0].message ?? '', /distance 1 \(98\.4% similar\) — edited copy$/);
  });

  it('the duplicates panel shows the kind of each twin in its description and tooltip', async () => {
    const groups = groupNodes(api);
    const memberOf = (path: string) => {
      for (const g of groups) {
        const m = (api.tree.getChildren(g) as MemberNode[]).find((n) => !n.representative && n.member.path.endsWith(path));
        if (m) return m;
      }
      return undefined;
    };
    const twin = memberOf('salesReport.ts') ?? memberOf('logParser.ts');
    assert.ok(twin, 'the section twin in the panel');
    assert.strictEqual(twin.member.clone, 'exact');
    assert.match(String(api.tree.getTreeItem(twin).description), /^distance 0 · 100\.0% · exact copy/);
    const resolved = api.tree.resolveTreeItem(api.tree.getTreeItem(twin), twin);
    assert.match(String(resolved.tooltip), / · exact copy$/);
    const edited = memberOf('orderServiceCopy.ts') ?? memberOf('orderService.ts');
    assert.ok(edited);
    assert.match(String(api.tree.getTreeItem(edited).description), /^distance 1 · 98\.4% · edited copy/);
  });

  it('files without near duplicates have no diagnostics; every twin of a group has one', async () => {
    assert.deepStrictEqual(vscode.languages.getDiagnostics(fixture('notes/unique-meeting-notes.md')), []);
    for (const rel of ['code/orderServiceCopy.ts', 'docs/en/backup-guide.md', 'docs/en/backup-guide-2023.md', 'docs/zh/tea-garden.md', 'docs/zh/tea-garden-copy.md', 'code/salesReport.ts']) {
      await waitForDiagnostics(fixture(rel), (ds) => ds.length === 1, `one diagnostic on ${rel}`);
    }
  });

  it('offers a "Compare with …" quick fix that opens a diff', async () => {
    const uri = fixture('code/orderService.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.length > 0, 'diagnostics of orderService.ts');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const compare = actions.find((a) => a.title === 'Compare with orderServiceCopy.ts');
    assert.ok(compare, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(compare.kind && vscode.CodeActionKind.QuickFix.contains(compare.kind));
    assert.ok(compare.command);
    assert.strictEqual(compare.command.command, 'neardup.compare');
    await vscode.commands.executeCommand(compare.command.command, ...(compare.command.arguments ?? []));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab && tab.input instanceof vscode.TabInputTextDiff);
    assert.strictEqual(relOf((tab.input as vscode.TabInputTextDiff).modified.fsPath), 'code/orderServiceCopy.ts');
    assert.strictEqual(relOf((tab.input as vscode.TabInputTextDiff).original.fsPath), 'code/orderService.ts');
  });
});
