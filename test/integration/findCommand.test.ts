import * as assert from 'assert';
import * as vscode from 'vscode';
import type { FindResult } from '../../src/extension/commands/findNearDuplicates';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, relOf, waitForReport, waitUntil } from './helpers';

const COMMAND = 'neardup.findNearDuplicates';

function activeIs(rel: string): Promise<vscode.TextEditor> {
  return waitUntil(
    () => {
      const e = vscode.window.activeTextEditor;
      return e && relOf(e.document.uri.fsPath) === rel ? e : undefined;
    },
    [vscode.window.onDidChangeActiveTextEditor],
    `${rel} to become the active editor`,
  );
}

describe('command: Find near duplicates of this file', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await closeAllEditors();
  });

  it('lists the twin of the active file; accepting the pick opens it', async () => {
    await vscode.window.showTextDocument(fixture('code/orderService.ts'));
    const result = await vscode.commands.executeCommand<FindResult>(COMMAND);
    assert.strictEqual(result.status, 'ok');
    assert.strictEqual(result.matches[0].kind, 'file');
    assert.strictEqual(relOf(result.matches[0].other.path), 'code/orderServiceCopy.ts');
    assert.strictEqual(result.matches[0].distance, 1);
    assert.match(result.items[0], /orderServiceCopy\.ts/);
    // The file's group is revealed in the view.
    assert.ok(api.tree.findMembers(fixture('code/orderService.ts').fsPath).length > 0);
    const opened = activeIs('code/orderServiceCopy.ts');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await opened;
  });

  it('lists twin sections with their lines; accepting selects the twin section', async () => {
    const result = await vscode.commands.executeCommand<FindResult>(COMMAND, fixture('code/logParser.ts'));
    assert.strictEqual(result.status, 'ok');
    const m = result.matches[0];
    assert.strictEqual(m.kind, 'section');
    assert.deepStrictEqual(m.self, { startLine: 15, endLine: 44 });
    assert.strictEqual(relOf(m.other.path), 'code/salesReport.ts');
    assert.deepStrictEqual([m.other.startLine, m.other.endLine], [11, 40]);
    assert.match(result.items[0], /salesReport\.ts:11-40/);
    const opened = activeIs('code/salesReport.ts');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const editor = await opened;
    await waitUntil(() => editor.selection.start.line === 10, [vscode.window.onDidChangeTextEditorSelection], 'the twin section selected');
  });

  it('a file without near duplicates: status ok, nothing listed', async () => {
    const result = await vscode.commands.executeCommand<FindResult>(COMMAND, fixture('notes/unique-meeting-notes.md'));
    assert.strictEqual(result.status, 'ok');
    assert.deepStrictEqual(result.matches, []);
    assert.deepStrictEqual(result.items, []);
  });

  it('a file too small to compare, and an excluded file, get a clear status', async () => {
    const tiny = fixture('notes/tiny-note.md');
    const excluded = fixture('node_modules/pkg/readme.md');
    await vscode.workspace.fs.writeFile(tiny, Buffer.from('Just a few words.\n'));
    await vscode.workspace.fs.writeFile(excluded, await vscode.workspace.fs.readFile(fixture('docs/en/backup-guide.md')));
    try {
      const small = await vscode.commands.executeCommand<FindResult>(COMMAND, tiny);
      assert.strictEqual(small.status, 'tooSmall');
      assert.match(small.reason ?? '', /fewer than 50 tokens/);
      const ex = await vscode.commands.executeCommand<FindResult>(COMMAND, excluded);
      assert.strictEqual(ex.status, 'excluded');
    } finally {
      await vscode.workspace.fs.delete(tiny);
      await vscode.workspace.fs.delete(fixture('node_modules'), { recursive: true });
      await api.index.whenIdle();
    }
  });

  it('an unsaved editor is compared by its current text', async () => {
    // The web workbench saves after a delay by default: keep the edit unsaved.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const uri = fixture('notes/unique-meeting-notes.md');
    const editor = await vscode.window.showTextDocument(uri);
    const guide = Buffer.from(await vscode.workspace.fs.readFile(fixture('docs/en/backup-guide.md'))).toString('utf8');
    const full = new vscode.Range(0, 0, editor.document.lineCount, 0);
    assert.ok(await editor.edit((b) => b.replace(full, guide)));
    assert.ok(editor.document.isDirty);
    try {
      const result = await vscode.commands.executeCommand<FindResult>(COMMAND);
      assert.strictEqual(result.status, 'ok');
      const files = result.matches.filter((m) => m.kind === 'file').map((m) => relOf(m.other.path)).sort();
      assert.deepStrictEqual(files, ['docs/en/backup-guide-2023.md', 'docs/en/backup-guide.md']);
      assert.strictEqual(result.matches[0].distance, 0, 'identical text to backup-guide.md');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.window.showTextDocument(uri);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual(editor.document.isDirty, false);
    // The saved file still has no near duplicates.
    const after = await vscode.commands.executeCommand<FindResult>(COMMAND, uri);
    assert.deepStrictEqual(after.matches, []);
  });
});
