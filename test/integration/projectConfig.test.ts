// Issue 15: the workspace folder's `.neardup.json` applies live (written on disk or saved from an
// editor), wins over the `neardup.*` settings key by key (`locate` among them), and a broken one changes nothing but
// says where it is broken (file, line, key) in one warning and the log.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { FIXTURE_FILE_GROUPS, closeAllEditors, fileGroups, fixture, getApi, relOf, setSetting, waitForReport, waitUntil } from './helpers';
import { BLOCK, HOST_BOTTOM, HOST_TOP, SOURCE } from './locatedSample';

describe('.neardup.json in the workspace folder', () => {
  let api: NearDupApi;
  const file = () => fixture('.neardup.json');
  const write = (text: string) => fs.writeFileSync(file().fsPath, text);
  const isFixture = (r: Parameters<typeof fileGroups>[0]) => JSON.stringify(fileGroups(r)) === JSON.stringify(FIXTURE_FILE_GROUPS);

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => isFixture(r), 'the fixture report');
  });

  afterEach(async () => {
    await closeAllEditors();
    fs.rmSync(file().fsPath, { force: true });
    await setSetting('maxDistance', undefined);
    await waitUntil(() => api.settings.projectConfigs().every((c) => !c.config && c.problems.length === 0), [api.settings.onDidReadProjectConfig], 'the file gone');
    await waitForReport(api, (r) => isFixture(r) && r.thresholds.maxDistance === 12, 'the fixture report again');
  });

  it('its keys apply live and win over the settings; deleting it gives the settings back', async () => {
    write('{\n  // the docs are translated twice on purpose\n  "exclude": ["docs/**"],\n}\n');
    const r = await waitForReport(api, (x) => x.lastJob !== null && fileGroups(x).length === 1, 'docs/ excluded by the file');
    assert.deepStrictEqual(fileGroups(r), [['code/orderService.ts', 'code/orderServiceCopy.ts']]);
    assert.deepStrictEqual(api.settings.current().exclude, ['docs/**']);

    // A threshold: the file says 1, a user setting says 5 — the file wins.
    await setSetting('maxDistance', 5);
    write('{ "maxDistance": 1 }');
    await waitForReport(api, (x) => x.thresholds.maxDistance === 1 && fileGroups(x).length === 1, 'maxDistance 1 from the file, docs/ back in');
    assert.strictEqual(api.settings.current().maxDistance, 1);
    // Gone: the user setting applies.
    fs.rmSync(file().fsPath);
    await waitForReport(api, (x) => x.thresholds.maxDistance === 5, 'the user setting again');
  });

  it('"locate": false turns the located copies off, as the CLI\'s --no-locate; deleting the file turns them on again', async () => {
    // A block pasted into an otherwise different file: only the region finder sees it.
    const dir = fixture('code/projectLocate');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'helpers.ts'), Buffer.from(SOURCE));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'inventory.ts'), Buffer.from(`${HOST_TOP}\n${BLOCK}\n${HOST_BOTTOM}`));
    try {
      const located = (x: Parameters<typeof fileGroups>[0]) => x.groups.filter((g) => g.located && g.members.some((m) => relOf(m.path).startsWith('code/projectLocate/'))).length;
      await waitForReport(api, (x) => located(x) === 1, 'the pasted block located', 40_000);
      write('{ "locate": false }');
      const off = await waitForReport(api, (x) => located(x) === 0, 'no located copy with "locate": false', 40_000);
      assert.strictEqual(api.settings.current().locate, false);
      assert.deepStrictEqual(fileGroups(off), FIXTURE_FILE_GROUPS, 'the SimHash groups stay');
      fs.rmSync(file().fsPath);
      await waitForReport(api, (x) => located(x) === 1, 'the located copy back', 40_000);
      assert.strictEqual(api.settings.current().locate, true);
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
      await waitForReport(api, (x) => !x.groups.some((g) => g.members.some((m) => relOf(m.path).startsWith('code/projectLocate/'))), 'the test files gone');
    }
  });

  it('an edit saved from an editor applies', async () => {
    write('{\n  "maxDistance": 12\n}\n');
    await waitUntil(() => api.settings.projectConfigs()[0]?.config, [api.settings.onDidReadProjectConfig], 'the file read');
    const doc = await vscode.workspace.openTextDocument(file());
    assert.strictEqual(doc.languageId, 'jsonc', 'comments are allowed in it');
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(file(), doc.lineAt(1).range, '  "maxDistance": 0, // only identical files');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const r = await waitForReport(api, (x) => x.thresholds.maxDistance === 0, 'maxDistance 0 from the saved file');
    assert.deepStrictEqual(fileGroups(r), []);
  });

  it('a broken file changes nothing and is named once, with its line and key; fixing it applies it', async () => {
    await setSetting('maxDistance', 3);
    await waitForReport(api, (x) => x.thresholds.maxDistance === 3, 'the user setting');
    const mark = api.log.count();
    write('{\n  "minTokens": 50,\n  "maxDistance": 64\n}\n');
    await waitUntil(() => api.settings.projectConfigs()[0]?.problems.length, [api.settings.onDidReadProjectConfig], 'the problem found');
    const [state] = api.settings.projectConfigs();
    assert.strictEqual(state.config, undefined, 'not used');
    assert.deepStrictEqual(
      state.problems.map((p) => [p.kind, p.key, p.line, p.column]),
      [['range', 'maxDistance', 3, 18]],
    );
    // The same file written again (as a create and a change event of one write may both read it): named no second time.
    let reads = 0;
    const counting = api.settings.onDidReadProjectConfig(() => reads++);
    try {
      write('{\n  "minTokens": 50,\n  "maxDistance": 64\n}\n');
      await waitUntil(() => reads > 0, [api.settings.onDidReadProjectConfig], 'the file read again');
    } finally {
      counting.dispose();
    }
    const lines = api.log.since(mark).filter((l) => l.includes('.neardup.json'));
    assert.strictEqual(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /\.neardup\.json:3:18: "maxDistance" is 64, out of bounds \(0 to 20\)/);
    assert.strictEqual(api.settings.current().maxDistance, 3, 'the user setting stays in force');
    assert.strictEqual(api.settings.current().minTokens, 50);
    assert.strictEqual(api.index.state(), 'ready');

    // A syntax error, an unknown key: the same.
    write('{ "maxDistance": 2,, }');
    await waitUntil(() => api.settings.projectConfigs()[0]?.problems[0]?.kind === 'syntax', [api.settings.onDidReadProjectConfig], 'the syntax error found');
    write('{ "maxDistanse": 2 }');
    await waitUntil(() => api.settings.projectConfigs()[0]?.problems[0]?.kind === 'unknownKey', [api.settings.onDidReadProjectConfig], 'the unknown key found');
    assert.strictEqual(api.settings.current().maxDistance, 3);

    write('{ "maxDistance": 2 }');
    await waitForReport(api, (x) => x.thresholds.maxDistance === 2, 'the fixed file applied');
  });
});
