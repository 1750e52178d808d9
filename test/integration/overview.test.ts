import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, waitForReport, waitUntil } from './helpers';

describe('overview: the picture of the workspace', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length === 4, 'the fixture report');
  });

  after(closeAllEditors);

  /** Waits until the page drew data that satisfies `check` (what it drew is the page's own message). */
  function waitForDrawing(check: (s: ReturnType<NearDupApi['overview']['state']>) => boolean, what: string) {
    return waitUntil(
      () => {
        const s = api.overview.state();
        return s.rendered && s.data && check(s) ? s : undefined;
      },
      [api.overview.onDidRender as vscode.Event<unknown>],
      what,
      30_000,
    );
  }

  it('opens from its command and draws the treemap, the histogram of distances and the largest groups', async () => {
    await vscode.commands.executeCommand('neardup.showOverview');
    const s = await waitForDrawing(() => true, 'the Overview drawn');
    assert.ok(s.open);
    const data = s.data!;
    const report = api.index.getReport()!;
    const share = report.lineShare!;
    // The tree holds the workspace's lines, and those in near duplicates, as the status bar counts them.
    assert.strictEqual(data.roots.length, 1);
    const root = data.roots[0];
    assert.strictEqual(root.lines, share.code.lines + share.prose.lines);
    assert.strictEqual(root.duplicated, share.code.duplicated + share.prose.duplicated);
    assert.deepStrictEqual(root.children!.map((c) => c.name).sort(), ['code', 'docs', 'notes']);
    // Every pair in the histogram, at its distance.
    const pairs = data.distances.file.reduce((a, b) => a + b, 0) + data.distances.section.reduce((a, b) => a + b, 0);
    assert.strictEqual(pairs, report.pairs);
    assert.strictEqual(data.distances.section[0], 1, 'the copied parseDelimitedLine() section, identical');
    assert.deepStrictEqual(data.thresholds, report.thresholds);
    assert.strictEqual(data.groups.length, 4);
    assert.ok(data.groups.every((g, i) => i === 0 || data.groups[i - 1].lines >= g.lines), 'largest first');
    // What the page drew: a rectangle per top-level folder, bars, the groups.
    assert.strictEqual(s.rendered!.nodes, root.children!.filter((c) => c.lines > 0).length);
    assert.ok(s.rendered!.bars >= 2, `bars: ${s.rendered!.bars}`);
    assert.strictEqual(s.rendered!.groups, 4);
    assert.strictEqual(s.rendered!.folder, root.path);
  });

  it('updates live as the index changes', async () => {
    await vscode.commands.executeCommand('neardup.showOverview');
    const before = (await waitForDrawing(() => true, 'the Overview drawn')).data!.roots[0];
    const copy = fixture('notes/order-copy.ts');
    const text = await vscode.workspace.fs.readFile(fixture('code/orderService.ts'));
    await vscode.workspace.fs.writeFile(copy, text);
    try {
      const lines = new TextDecoder().decode(text).split('\n').length - 1;
      const after = await waitForDrawing((s) => s.data!.roots[0].lines === before.lines + lines, 'the Overview with the new file');
      const notes = after.data!.roots[0].children!.find((c) => c.name === 'notes')!;
      assert.ok(notes.duplicated >= lines, 'the copy is a near duplicate in notes/');
      assert.ok(after.data!.groups.some((g) => g.members.some((m) => m.path === copy.fsPath)));
    } finally {
      await vscode.workspace.fs.delete(copy);
    }
    await waitForDrawing((s) => s.data!.roots[0].lines === before.lines, 'the Overview without it');
    await waitForReport(api, (r) => r.groups.length === 4 && !r.items.some((i) => i.loc.path === copy.fsPath), 'the fixture report again');
  });
});
