// Issue 15: the quick fix "Ignore this duplicate" on a NearDup diagnostic inserts the marker in
// the file's comment syntax, saves the file, and the diagnostic (and its twin's) goes once the
// file is indexed again. Each test puts the fixture file back and waits for the diagnostics.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, waitForDiagnostics, waitForReport } from './helpers';

const IGNORE = /^Ignore this/;

async function quickFixes(uri: vscode.Uri, d: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
}

/** Applies a code action as the light bulb does: its edit, then its command. */
async function apply(action: vscode.CodeAction): Promise<void> {
  assert.ok(action.edit, 'the fix carries an edit');
  assert.ok(await vscode.workspace.applyEdit(action.edit));
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

describe('quick fix: Ignore this duplicate', () => {
  let api: NearDupApi;
  const originals = new Map<string, string>();
  const keep = (rel: string) => originals.set(rel, fs.readFileSync(fixture(rel).fsPath, 'utf8'));

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  afterEach(async () => {
    await closeAllEditors();
    for (const [rel, text] of originals) fs.writeFileSync(fixture(rel).fsPath, text);
    for (const rel of originals.keys()) await waitForDiagnostics(fixture(rel), (d) => d.length > 0, `the diagnostics of ${rel} back`);
    originals.clear();
  });

  it('on a section (TypeScript): `// neardup-ignore-next` above it; saved; its diagnostic and its twin’s go', async () => {
    const uri = fixture('code/logParser.ts');
    keep('code/logParser.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.some((x) => x.code === 'near-duplicate-section'), 'the section diagnostic');
    const actions = await quickFixes(uri, d);
    const fix = actions.find((a) => IGNORE.test(a.title));
    assert.ok(fix, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.strictEqual(fix.title, 'Ignore this duplicate (insert a neardup-ignore marker)');
    assert.ok(fix.kind && vscode.CodeActionKind.QuickFix.contains(fix.kind));
    const entries = fix.edit!.get(uri);
    assert.strictEqual(entries.length, 1);
    assert.strictEqual(entries[0].range.start.line, d.range.start.line);
    assert.match(entries[0].newText, /^\s*\/\/ neardup-ignore-next\r?\n$/);
    await apply(fix);
    assert.strictEqual(doc.isDirty, false, 'saved by the fix');
    const lines = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
    assert.match(lines[d.range.start.line], /^\s*\/\/ neardup-ignore-next\r?$/);
    await waitForDiagnostics(uri, (ds) => !ds.some((x) => x.code === 'near-duplicate-section'), 'the section diagnostic gone');
    await waitForDiagnostics(fixture('code/salesReport.ts'), (ds) => ds.length === 0, 'the twin’s diagnostic gone');
  });

  it('on a file (Chinese Markdown): `<!-- neardup-ignore-file -->` on the first line; both twins lose their diagnostic', async () => {
    const uri = fixture('docs/zh/tea-garden-copy.md');
    keep('docs/zh/tea-garden-copy.md');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.some((x) => x.code === 'near-duplicate-file'), 'the file diagnostic');
    const fix = (await quickFixes(uri, d)).find((a) => IGNORE.test(a.title));
    assert.ok(fix);
    assert.strictEqual(fix.title, 'Ignore this file’s duplicates (insert neardup-ignore-file)');
    await apply(fix);
    assert.strictEqual(fs.readFileSync(uri.fsPath, 'utf8').split('\n')[0].trimEnd(), '<!-- neardup-ignore-file -->');
    await waitForDiagnostics(uri, (ds) => ds.length === 0, 'the diagnostic gone');
    await waitForDiagnostics(fixture('docs/zh/tea-garden.md'), (ds) => ds.length === 0, 'the twin’s diagnostic gone');
  });

  it('is not offered on a document with unsaved changes (its lines may no longer be the indexed ones)', async () => {
    const uri = fixture('code/orderService.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.length > 0, 'the diagnostic');
    assert.ok((await quickFixes(uri, d)).some((a) => IGNORE.test(a.title)), 'offered while saved');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), '\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const actions = await quickFixes(uri, d);
      assert.ok(!actions.some((a) => IGNORE.test(a.title)), actions.map((a) => a.title).join(', '));
      assert.ok(actions.some((a) => /^Compare with/.test(a.title)), 'Compare is still offered');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
  it('the hover’s Ignore… link: on a marked section of a saved file, it names neardup.ignoreDuplicate with the section’s lines; running it inserts the marker, saves, and the diagnostic goes', async () => {
    const uri = fixture('code/logParser.ts');
    keep('code/logParser.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.some((x) => x.code === 'near-duplicate-section'), 'the section diagnostic');
    const line = d.range.start.line + 1;
    let link: RegExpMatchArray | null = null;
    for (let i = 0; i < 100 && !link; i++) {
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 2))) ?? [];
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
      link = text.match(/\[Ignore…\]\(command:neardup\.ignoreDuplicate\?([^)]+)\)/);
      if (!link) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(link, 'the hover has the Ignore… link');
    const args = JSON.parse(decodeURIComponent(link[1])) as [string, number, number];
    assert.strictEqual(args[0], uri.toString());
    assert.deepStrictEqual([args[1], args[2]], [d.range.start.line + 1, d.range.end.line + 1], 'the marked section’s lines');
    await vscode.commands.executeCommand('neardup.ignoreDuplicate', ...args);
    assert.strictEqual(doc.isDirty, false, 'saved by the command');
    assert.match(fs.readFileSync(uri.fsPath, 'utf8').split('\n')[d.range.start.line], /^\s*\/\/ neardup-ignore-next\r?$/);
    await waitForDiagnostics(uri, (ds) => !ds.some((x) => x.code === 'near-duplicate-section'), 'the section diagnostic gone');
  });
});
