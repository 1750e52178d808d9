// A paste recognised as it lands (issue 19, neardup.onPaste): a pasted block that matches a
// region elsewhere in the workspace gets exactly one notice at the pasted lines, naming the
// original's file and lines (CodeLens, hover, the test API); unique text gets none; with
// neardup.onPaste off nothing is even asked. The unsaved result of the pasted-into document also
// shows in the editor's marks and the status bar.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fileGroups, fixture, getApi, setSetting, waitForReport, waitUntil } from './helpers';

const read = async (rel: string) => Buffer.from(await vscode.workspace.fs.readFile(fixture(rel))).toString('utf8');
const linesOf = (text: string, from: number, to: number) => text.split('\n').slice(from - 1, to).join('\n') + '\n';

describe('paste: a pasted copy recognised as it lands', () => {
  let api: NearDupApi;
  const files = () => vscode.workspace.getConfiguration('files');

  before(async () => {
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    api = await getApi();
    await waitForReport(api, (r) => r.lastJob !== null && fileGroups(r).length >= 3, 'the fixture report');
  });

  afterEach(async () => {
    for (const d of vscode.workspace.textDocuments) {
      if (d.isDirty && d.uri.scheme === 'file') {
        await vscode.window.showTextDocument(d);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    }
    await closeAllEditors();
    await setSetting('onPaste', undefined);
  });

  after(async () => {
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  /** Pastes `text` at the end of `rel` (one insertion, as a paste is) and waits for the engine's answer. */
  async function paste(rel: string, text: string): Promise<{ editor: vscode.TextEditor; line: number; asked: number }> {
    const editor = await vscode.window.showTextDocument(fixture(rel), { preview: false });
    const before = api.paste.requests();
    const liveBefore = api.live.requests();
    const line = editor.document.lineCount;
    const end = editor.document.lineAt(line - 1).range.end;
    assert.ok(await editor.edit((b) => b.insert(end, '\n' + text)));
    // The while-typing check (~250 ms later) proves the edit's event reached every listener.
    await waitUntil(() => api.live.requests() > liveBefore || undefined, [api.live.onDidChange, api.paste.onDidChange], 'the edit to be seen');
    await waitUntil(() => api.paste.pending() === 0 || undefined, [api.paste.onDidChange], 'the paste to be answered');
    return { editor, line, asked: api.paste.requests() - before };
  }

  async function pasteLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
    return lenses.filter((l) => ['neardup.openTwin', 'neardup.compare', 'neardup.dismissPasteNotice'].includes(l.command?.command ?? '') && !/near duplicate/.test(l.command?.title ?? ''));
  }

  it('a copied function: exactly one notice at the pasted lines naming code/logParser.ts lines 46–54, with Open original and Compare; the unsaved pair marks the editor and the status bar', async () => {
    const fn = linesOf(await read('code/logParser.ts'), 46, 54);
    const { editor, line, asked } = await paste('code/salesReport.ts', fn);
    assert.strictEqual(asked, 1, 'one request for one paste');
    const notices = api.paste.noticesOf(editor.document.uri);
    assert.strictEqual(notices.length, 1, JSON.stringify(notices));
    const [n] = notices;
    assert.strictEqual(n.path, fixture('code/logParser.ts').fsPath);
    assert.deepStrictEqual([n.originalStart, n.originalEnd, n.distance], [46, 54, 0]);
    assert.deepStrictEqual([n.startLine, n.endLine], [line + 1, line + 9], 'the pasted lines');
    assert.match(n.message, /logParser\.ts/);
    assert.match(n.message, /46–54/);

    const lenses = await pasteLenses(editor.document.uri);
    assert.deepStrictEqual(
      lenses.map((l) => [l.range.start.line + 1, l.command!.command]),
      [
        [line + 1, 'neardup.openTwin'],
        [line + 1, 'neardup.compare'],
        [line + 1, 'neardup.dismissPasteNotice'],
      ],
    );
    assert.strictEqual(lenses[0].command!.title.replace('$(copy) ', ''), n.message);
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(line + 2, 2))) ?? [];
    const md = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).find((t) => /pasted block|粘贴的块/.test(t));
    assert.ok(md, 'the hover names the original');
    assert.match(md, /command:neardup\.openTwin/);
    assert.match(md, /command:neardup\.compare/);

    // The while-typing result of the document: the pasted lines marked in the editor, the status bar says unsaved.
    const marks = await waitUntil(
      () => api.editor.marksFor(editor.document.uri).find((m) => m.startLine >= line + 1 && m.endLine <= line + 9) ?? undefined,
      [api.editor.onDidChange, api.live.onDidChange],
      'the unsaved mark at the pasted lines',
    );
    assert.ok(marks.twins >= 1);
    // The status bar re-renders on a short timer after the marks change: polled.
    for (let end = Date.now() + 10_000; !/unsaved|未保存/.test(api.status().text); ) {
      assert.ok(Date.now() < end, `the status bar to say unsaved: ${api.status().text}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    // Undoing the paste removes its notice.
    await vscode.commands.executeCommand('undo');
    await waitUntil(() => api.paste.noticesOf(editor.document.uri).length === 0 || undefined, [api.paste.onDidChange], 'the notice to go with the undo');
  });

  it('a copied paragraph: one notice naming docs/en/backup-guide.md lines 50–54', async () => {
    const para = linesOf(await read('docs/en/backup-guide.md'), 50, 54);
    const { editor, line, asked } = await paste('notes/unique-meeting-notes.md', para);
    assert.strictEqual(asked, 1);
    const notices = api.paste.noticesOf(editor.document.uri);
    assert.strictEqual(notices.length, 1, JSON.stringify(notices));
    assert.strictEqual(notices[0].path, fixture('docs/en/backup-guide.md').fsPath);
    assert.deepStrictEqual([notices[0].originalStart, notices[0].originalEnd, notices[0].startLine, notices[0].endLine], [50, 54, line + 1, line + 5]);
  });

  it('a save keeps the notice (files.autoSave saves a paste a second later); a revert removes it', async () => {
    const fn = linesOf(await read('code/logParser.ts'), 46, 54);
    const { editor } = await paste('code/salesReport.ts', fn);
    assert.strictEqual(api.paste.noticesOf(editor.document.uri).length, 1);
    try {
      assert.ok(await editor.document.save());
      assert.ok(!editor.document.isDirty);
      await api.index.whenIdle();
      assert.strictEqual(api.paste.noticesOf(editor.document.uri).length, 1, 'kept through the save');
      await vscode.commands.executeCommand('undo');
      await waitUntil(() => api.paste.noticesOf(editor.document.uri).length === 0 || undefined, [api.paste.onDidChange], 'the notice to go with the undo');
    } finally {
      await editor.document.save();
    }
    const again = await paste('code/salesReport.ts', fn);
    assert.strictEqual(api.paste.noticesOf(again.editor.document.uri).length, 1);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitUntil(() => api.paste.noticesOf(again.editor.document.uri).length === 0 || undefined, [api.paste.onDidChange], 'the notice to go with the revert');
  });

  it('unique text: asked, no notice', async () => {
    const unique = Array.from({ length: 8 }, (_, i) => `export function unrelated${i}(q: number): number { return q * ${i} + Math.floor(q / ${i + 7}) - ${i * 13}; }`).join('\n') + '\n';
    const { editor, asked } = await paste('code/salesReport.ts', unique);
    assert.strictEqual(asked, 1);
    assert.deepStrictEqual(api.paste.noticesOf(editor.document.uri), []);
    assert.deepStrictEqual(await pasteLenses(editor.document.uri), []);
  });

  it('neardup.onPaste off: a shown notice goes; a paste is not asked, no notice', async () => {
    const fn = linesOf(await read('code/logParser.ts'), 46, 54);
    const first = await paste('code/salesReport.ts', fn);
    assert.strictEqual(api.paste.noticesOf(first.editor.document.uri).length, 1);
    await setSetting('onPaste', 'off');
    await waitUntil(() => api.paste.noticesOf(first.editor.document.uri).length === 0 || undefined, [api.paste.onDidChange], 'the notice to go with the setting');
    const { editor, asked } = await paste('code/salesReport.ts', fn);
    assert.strictEqual(asked, 0);
    assert.deepStrictEqual(api.paste.noticesOf(editor.document.uri), []);
  });
});
