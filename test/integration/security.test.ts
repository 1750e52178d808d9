// What the extension writes: nothing inside the workspace folder (the fingerprint cache lives in
// VS Code's workspace storage), whatever it does — index, refresh, warm start, crash and restart,
// live updates after a save.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { canonReport, closeAllEditors, fixture, getApi, relOf, snapshotTree, waitForReport, workspaceRoot } from './helpers';

describe('security: nothing is written into the workspace', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
    await api.index.whenIdle();
  });

  after(async () => {
    await closeAllEditors();
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a full index, a refresh, a warm start, an engine crash and a save cycle leave every other file of the workspace as it was', async () => {
    const root = workspaceRoot().fsPath;
    const cache = api.index.cachePath();
    assert.ok(cache, 'the workspace has storage');
    assert.ok(path.relative(root, cache).startsWith('..'), `the cache ${cache} is outside the workspace ${root}`);
    const before = snapshotTree(root);
    const baseline = canonReport(api.index.getReport()!);

    await api.index.refresh();
    await api.index.restart(); // writes the cache, loads it again
    assert.ok(await api.index.debugKillEngine('kill'));
    await api.index.refresh(); // answered by the restarted engine
    // A save cycle of one file (the only file the test itself changes).
    const saved = fixture('code/orderServiceCopy.ts');
    const editor = await vscode.window.showTextDocument(saved);
    const original = editor.document.getText();
    const unique = Buffer.from(await vscode.workspace.fs.readFile(fixture('notes/unique-meeting-notes.md'))).toString('utf8');
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), unique)));
    assert.ok(await editor.document.save());
    await waitForReport(api, (r) => canonReport(r) !== baseline, 'the saved change in the report');
    assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), original)));
    assert.ok(await editor.document.save());
    await waitForReport(api, (r) => canonReport(r) === baseline, 'the report as before');
    await api.index.whenIdle();

    const after = snapshotTree(root);
    after.delete(relOf(saved.fsPath));
    before.delete(relOf(saved.fsPath));
    assert.deepStrictEqual([...after].sort(), [...before].sort(), 'files created, changed or deleted in the workspace');
    assert.ok(before.size >= 9, 'the snapshot sees the fixture');
  });
});
