// Issue 15: the quick fix "Add to baseline" on a NearDup diagnostic writes the folder's baseline
// (a new `.neardup-baseline.json`, then named in `.neardup.json`), in the CLI's format; the pair's
// diagnostics dim (the default of `neardup.baseline.show`), or go (`hide`), or show as before
// (`show`), applied live; an edit of the baseline file on disk applies too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, groupNodes, relOf, setSetting, waitForDiagnostics, waitForReport, waitUntil } from './helpers';

const ADD = 'Add to baseline (accept this near duplicate)';
const dimmed = (d: vscode.Diagnostic) => d.severity === vscode.DiagnosticSeverity.Hint && (d.tags ?? []).includes(vscode.DiagnosticTag.Unnecessary) && d.message.startsWith('(baseline) ');
const plain = (d: vscode.Diagnostic) => d.severity === vscode.DiagnosticSeverity.Information && !(d.tags ?? []).length && !d.message.startsWith('(baseline)');

async function quickFixes(uri: vscode.Uri, d: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
}

/** The panel's description of the group holding this file. */
function groupDescription(api: NearDupApi, rel: string): string {
  const g = groupNodes(api).find((n) => n.group.members.some((m) => relOf(m.path) === rel));
  return g ? String(api.tree.getTreeItem(g).description ?? '') : '(no group)';
}

describe('quick fix: Add to baseline, and neardup.baseline.show', () => {
  let api: NearDupApi;
  const baselineFile = () => fixture('.neardup-baseline.json');
  const configFile = () => fixture('.neardup.json');
  const guide = () => fixture('docs/en/backup-guide.md');
  const guide2023 = () => fixture('docs/en/backup-guide-2023.md');

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  after(async () => {
    await closeAllEditors();
    await setSetting('baseline.show', undefined);
    fs.rmSync(baselineFile().fsPath, { force: true });
    fs.rmSync(configFile().fsPath, { force: true });
    await waitUntil(() => api.baseline.sources().length === 0, [api.settings.onDidReadProjectConfig], 'no baseline any more');
    await waitForDiagnostics(guide(), (ds) => ds.length > 0 && ds.every(plain), 'the diagnostics back as before');
  });

  it('adds the pair to a new .neardup-baseline.json named in .neardup.json; the diagnostics of both files dim, the panel says "(baseline)"', async () => {
    assert.ok(!fs.existsSync(baselineFile().fsPath) && !fs.existsSync(configFile().fsPath), 'the fixture has neither file');
    const doc = await vscode.workspace.openTextDocument(guide());
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(guide(), (ds) => ds.some((x) => x.code === 'near-duplicate-file' && plain(x)), 'the file diagnostic');
    // The light bulb's providers may still be registering when the diagnostics arrive: ask until they answer.
    let actions: vscode.CodeAction[] = [];
    for (let i = 0; i < 100 && !actions.some((a) => a.title === ADD); i++) {
      actions = await quickFixes(guide(), d);
      if (!actions.some((a) => a.title === ADD)) await new Promise((r) => setTimeout(r, 100));
    }
    const fix = actions.find((a) => a.title === ADD);
    assert.ok(fix?.command, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(fix.kind && vscode.CodeActionKind.QuickFix.contains(fix.kind));
    assert.strictEqual(fix.edit, undefined, 'nothing is written before the fix runs');
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));

    // The CLI's format: one pair, the two paths relative to the folder, a 32-hex key.
    const baseline = JSON.parse(fs.readFileSync(baselineFile().fsPath, 'utf8'));
    assert.strictEqual(baseline.tool, 'neardup');
    assert.strictEqual(baseline.version, 1);
    assert.deepStrictEqual(baseline.pairs.map((p: { kind: string; paths: string[] }) => [p.kind, ...p.paths]), [['file', 'docs/en/backup-guide-2023.md', 'docs/en/backup-guide.md']]);
    assert.match(baseline.pairs[0].key, /^[0-9a-f]{32}$/);
    assert.strictEqual(baseline.settings.maxDistance, api.settings.current().maxDistance);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(configFile().fsPath, 'utf8')), { baseline: '.neardup-baseline.json' });

    const [mine] = await waitForDiagnostics(guide(), (ds) => ds.length === 1 && dimmed(ds[0]), 'the diagnostic dimmed');
    assert.match(mine.message, /^\(baseline\) Near duplicate of docs\/en\/backup-guide-2023\.md/);
    await waitForDiagnostics(guide2023(), (ds) => ds.length === 1 && dimmed(ds[0]), 'the twin’s diagnostic dimmed');
    await waitUntil(() => groupDescription(api, 'docs/en/backup-guide.md').startsWith('(baseline) · '), [api.index.onDidUpdate, api.tree.onDidChangeTreeData], 'the panel’s group marked');
    // The other pairs are untouched; a dimmed diagnostic offers no second Add to baseline.
    await waitForDiagnostics(fixture('code/orderService.ts'), (ds) => ds.length > 0 && ds.every(plain), 'other pairs as before');
    assert.ok(!(await quickFixes(guide(), mine)).some((a) => a.title === ADD));
    await waitUntil(() => api.settings.projectConfigs()[0]?.config?.baseline === baselineFile().fsPath, [api.settings.onDidReadProjectConfig], '.neardup.json read with its baseline');
  });

  it('neardup.baseline.show applies live: hide drops the diagnostics and the group, show brings them back undimmed, dim dims again', async () => {
    // Dimmed: no mark in the editor's gutter for it (a bar has no dimmed look).
    await waitUntil(() => api.editor.marksFor(guide()).length === 0, [api.editor.onDidChange], 'no editor mark while dimmed');
    await setSetting('baseline.show', 'hide');
    await waitForDiagnostics(guide(), (ds) => ds.length === 0, 'hidden');
    await waitForDiagnostics(guide2023(), (ds) => ds.length === 0, 'the twin hidden');
    await waitUntil(() => groupDescription(api, 'docs/en/backup-guide.md') === '(no group)', [api.tree.onDidChangeTreeData], 'the group left out of the panel');
    assert.ok(groupNodes(api).some((g) => g.group.members.some((m) => relOf(m.path) === 'code/orderService.ts')), 'other groups listed');
    await setSetting('baseline.show', 'show');
    await waitForDiagnostics(guide(), (ds) => ds.length === 1 && plain(ds[0]), 'shown as any other');
    await waitUntil(() => api.editor.marksFor(guide()).some((m) => m.kind === 'file'), [api.editor.onDidChange], 'its editor mark back');
    await waitUntil(() => /^2 files/.test(groupDescription(api, 'docs/en/backup-guide.md')), [api.tree.onDidChangeTreeData], 'the group as any other');
    await setSetting('baseline.show', undefined);
    await waitForDiagnostics(guide(), (ds) => ds.length === 1 && dimmed(ds[0]), 'dimmed again (the default)');
  });

  it('the baseline file edited on disk applies: its pair removed, the diagnostics are plain again; put back, dimmed', async () => {
    const text = fs.readFileSync(baselineFile().fsPath, 'utf8');
    const empty = JSON.parse(text);
    empty.pairs = [];
    fs.writeFileSync(baselineFile().fsPath, JSON.stringify(empty, null, 2));
    await waitForDiagnostics(guide(), (ds) => ds.length === 1 && plain(ds[0]), 'plain once the pair left the file');
    await waitForDiagnostics(guide2023(), (ds) => ds.length === 1 && plain(ds[0]), 'the twin plain');
    fs.writeFileSync(baselineFile().fsPath, text);
    await waitForDiagnostics(guide(), (ds) => ds.length === 1 && dimmed(ds[0]), 'dimmed once it is back');
  });
});
