// While typing (issue 19, neardup.liveWhileTyping): the active document is re-checked after a
// short idle by the engine worker, its pairs shown marked "(unsaved)" in the panel and the
// Problems list, replaced at save, dropped when the edit is undone; a burst of keystrokes sends
// at most a handful of requests.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fileGroups, fixture, getApi, setSetting, waitForDiagnostics, waitForReport, waitUntil } from './helpers';

const read = async (rel: string) => Buffer.from(await vscode.workspace.fs.readFile(fixture(rel))).toString('utf8');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('while typing', () => {
  let api: NearDupApi;
  const rel = 'notes/unique-meeting-notes.md';
  const uri = fixture(rel);
  let original = '';
  let copied = '';
  let editor: vscode.TextEditor;
  const files = () => vscode.workspace.getConfiguration('files');
  const replaceAll = (text: string) => editor.edit((b) => b.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), text));
  const unsavedOf = (path: string) => api.live.groups().filter((g) => g.members[0].path === path);
  const waitUnsaved = (check: () => boolean, what: string) => waitUntil(() => check() || undefined, [api.live.onDidChange], what);

  before(async () => {
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    api = await getApi();
    await waitForReport(api, (r) => r.lastJob !== null && fileGroups(r).length >= 3, 'the fixture report');
    original = await read(rel);
    copied = await read('docs/en/backup-guide.md');
    editor = await vscode.window.showTextDocument(uri);
  });

  after(async () => {
    if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
    await closeAllEditors();
    await setSetting('liveWhileTyping', undefined);
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('typing 200 characters sends a handful of requests; a pasted copy shows its pair as unsaved in the panel and Problems; undoing to the saved text drops it', async () => {
    const before = api.live.requests();
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    await editor.edit((b) => b.insert(end, '\n'));
    // Quiet moments (a keystroke later than the idle time after the previous one: a loaded
    // machine makes some) may each send one request; nothing else may.
    let quiet = 0;
    let last = performance.now();
    const t0 = last;
    for (let i = 0; i < 200; i++) {
      const at = editor.document.lineAt(editor.document.lineCount - 1).range.end;
      assert.ok(await editor.edit((b) => b.insert(at, 'abcdefghij'[i % 10])));
      const now = performance.now();
      if (now - last >= 200) quiet++;
      last = now;
    }
    const typingMs = Math.round(performance.now() - t0);
    await waitUntil(() => api.live.idle() || undefined, [api.live.onDidChange], 'the checks to settle');
    await sleep(400);
    await waitUntil(() => api.live.idle() || undefined, [api.live.onDidChange], 'the checks to settle');
    const typed = api.live.requests() - before;
    console.log(`TYPING ${JSON.stringify({ keystrokes: 200, typingMs, quietMoments: quiet, requests: typed })}`);
    assert.ok(typed >= 1 && typed <= 1 + quiet && typed <= 10, `a handful of requests for 200 keystrokes: ${typed} (${quiet} quiet moments in ${typingMs} ms)`);
    assert.deepEqual(unsavedOf(uri.fsPath), [], 'unique text: no unsaved pair');

    assert.ok(await replaceAll(copied));
    const pasted = performance.now();
    await waitUnsaved(() => unsavedOf(uri.fsPath).some((g) => g.kind === 'file'), 'the unsaved pair');
    console.log(`TYPING ${JSON.stringify({ lastEditToUnsavedResultMs: Math.round(performance.now() - pasted), idleMs: 250 })}`);
    const group = unsavedOf(uri.fsPath).find((g) => g.kind === 'file')!;
    assert.ok(group.members.some((m) => m.path === fixture('docs/en/backup-guide.md').fsPath));
    // The panel lists it first, marked; the Problems list says it is unsaved.
    const [first] = api.tree.roots();
    assert.strictEqual(first.type, 'group');
    const item = api.tree.getTreeItem(first);
    assert.match(String(item.description), /unsaved|未保存/);
    const [d] = await waitForDiagnostics(uri, (ds) => ds.some((x) => /backup-guide/.test(x.message)), 'an unsaved diagnostic');
    assert.match(d.message, /^\(unsaved\)|^（未保存）/);
    assert.ok(!api.index.getReport()!.groups.some((g) => g.members.some((m) => m.path === uri.fsPath)), 'the saved result has no pair');

    for (let i = 0; i < 400 && editor.document.isDirty; i++) await vscode.commands.executeCommand('undo');
    assert.ok(!editor.document.isDirty, 'back to the saved text');
    await waitUnsaved(() => unsavedOf(uri.fsPath).length === 0, 'the unsaved pair to go');
    await waitForDiagnostics(uri, (ds) => ds.length === 0, 'the unsaved diagnostic to go');
    assert.ok(!api.tree.roots().some((n) => n.type === 'group' && api.tree.getTreeItem(n).description?.toString().match(/unsaved|未保存/)));
  });

  it('a save replaces the unsaved result by the saved one', async () => {
    assert.ok(await replaceAll(copied));
    await waitUnsaved(() => unsavedOf(uri.fsPath).length > 0, 'the unsaved pair');
    try {
      assert.ok(await editor.document.save());
      await waitUnsaved(() => unsavedOf(uri.fsPath).length === 0, 'the unsaved result to go at the save');
      await waitForReport(api, (r) => fileGroups(r).some((g) => g.includes(rel)), 'the saved pair');
      const ds = await waitForDiagnostics(uri, (x) => x.length > 0 && x.every((d) => !/^\(unsaved\)|^（未保存）/.test(d.message)), 'the saved diagnostics');
      assert.ok(ds.length > 0);
    } finally {
      assert.ok(await replaceAll(original));
      assert.ok(await editor.document.save());
    }
    await waitForReport(api, (r) => !fileGroups(r).some((g) => g.includes(rel)), 'the pair gone again');
  });

  it('neardup.liveWhileTyping off: no request, no unsaved result', async () => {
    await setSetting('liveWhileTyping', false);
    const before = api.live.requests();
    assert.ok(await replaceAll(copied));
    await sleep(800);
    assert.strictEqual(api.live.requests(), before);
    assert.deepEqual(unsavedOf(uri.fsPath), []);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!editor.document.isDirty);
  });
});
