import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, relOf, setSetting, waitForReport, waitUntil } from './helpers';

type ViewReportLike = NonNullable<ReturnType<NearDupApi['index']['getReport']>>;
type Painted = NonNullable<ReturnType<NearDupApi['editor']['decorationsFor']>>;

/** Opens a fixture file in an editor and waits until NearDup has drawn its marks as `expected`. */
async function showAndWaitForMarks(api: NearDupApi, rel: string, expected: Painted, what = `the marks of ${rel}`): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(fixture(rel), { preview: false });
  await waitForMarks(api, editor.document.uri, expected, what);
  return editor;
}

async function waitForMarks(api: NearDupApi, uri: vscode.Uri, expected: Painted, what: string): Promise<Painted> {
  let last: Painted | undefined;
  try {
    return await waitUntil(
      async () => {
        last = api.editor.decorationsFor(uri);
        return last && JSON.stringify(last) === JSON.stringify(expected) ? last : undefined;
      },
      [vscode.window.onDidChangeVisibleTextEditors as vscode.Event<unknown>, api.editor.onDidChange, api.index.onDidUpdate],
      what,
      10_000,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; last drawn: ${JSON.stringify(last)}`);
  }
}

/** NearDup's hovers at a position, as markdown text. */
async function nearDupHovers(uri: vscode.Uri, line: number, character = 4): Promise<string[]> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, character))) ?? [];
  return hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
    .filter((text) => text.includes('NearDup'));
}

/** NearDup's CodeLenses of a document (those that peek at twins), resolved as VS Code resolves the visible ones. */
async function nearDupLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 1000)) ?? [];
  return lenses.filter((l) => l.command?.command === 'editor.action.peekLocations');
}

/** The arguments of the first command link to `command` in a hover's markdown. */
function linkArgs(markdown: string, command: string): unknown[] {
  const m = new RegExp(`\\(command:${command.replace('.', '\\.')}\\?([^)]+)\\)`).exec(markdown);
  assert.ok(m, `a ${command} link in: ${markdown}`);
  return JSON.parse(decodeURIComponent(m[1])) as unknown[];
}

/** Polls `check` until it returns a truthy value (for what changes on a timer, such as the status bar). */
async function poll<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const NONE: Painted = { identical: [], close: [], distant: [] };

describe('editor: marks, hover, CodeLens', () => {
  let api: NearDupApi;

  before(async () => {
    // code-server saves after a delay by default: the edits below must stay unsaved.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    await setSetting('decorations.enabled', undefined);
    await setSetting('codeLens.enabled', undefined);
    await vscode.commands.executeCommand('workbench.action.files.revertAll').then(undefined, () => undefined);
    await closeAllEditors();
  });

  it('marks the copied section (identical) and a whole near-duplicate file (close), nothing in a unique file', async () => {
    await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    await showAndWaitForMarks(api, 'code/salesReport.ts', { identical: [[11, 40]], close: [], distant: [] });
    // orderService.ts ↔ orderServiceCopy.ts: distance 1, the whole file (82 lines).
    await showAndWaitForMarks(api, 'code/orderService.ts', { identical: [], close: [[1, 82]], distant: [] });
    await showAndWaitForMarks(api, 'notes/unique-meeting-notes.md', NONE);
    const marks = api.editor.marksFor(fixture('code/logParser.ts'));
    assert.deepStrictEqual(marks, [{ kind: 'section', startLine: 15, endLine: 44, distance: 0, twins: 1 }]);
  });

  it('marks follow edits until the next report (lines inserted above, then reverted)', async () => {
    const editor = await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    const mark = api.log.count();
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(2, 0), '// one\n// two\n// three\n')));
    await waitForMarks(api, editor.document.uri, { identical: [[18, 47]], close: [], distant: [] }, 'the marks moved down by 3 lines');
    // Lines removed inside the section shrink it.
    assert.ok(await editor.edit((b) => b.delete(new vscode.Range(20, 0, 22, 0))));
    await waitForMarks(api, editor.document.uri, { identical: [[18, 45]], close: [], distant: [] }, 'the marks shrunk by 2 lines');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitForMarks(api, editor.document.uri, { identical: [[15, 44]], close: [], distant: [] }, 'the marks back after the revert');
    assert.deepStrictEqual(
      api.log.since(mark).filter((l) => /^error/.test(l)),
      [],
    );
  });

  it('marks take the real lines from the report after a save', async () => {
    const editor = await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    const isLogParser = (m: { path: string; startLine?: number }) => m.path === editor.document.uri.fsPath;
    const sectionOf = (r: ViewReportLike) => r.groups.flatMap((g) => g.members).find((m) => isLogParser(m) && m.startLine !== undefined);
    try {
      assert.ok(await editor.edit((b) => b.insert(new vscode.Position(2, 0), '// one\n// two\n// three\n')));
      assert.ok(await editor.document.save());
      await waitForReport(api, (r) => sectionOf(r)?.startLine === 18, 'the report of the saved file (section at 18–47)');
      await waitForMarks(api, editor.document.uri, { identical: [[18, 47]], close: [], distant: [] }, 'the marks from the report');
    } finally {
      // Back to the fixture's text, saved: the other tests rely on it.
      await editor.edit((b) => b.delete(new vscode.Range(2, 0, 5, 0)));
      await editor.document.save();
    }
    await waitForReport(api, (r) => sectionOf(r)?.startLine === 15, 'the report of the restored file');
    await waitForMarks(api, editor.document.uri, { identical: [[15, 44]], close: [], distant: [] }, 'the marks back at 15–44');
  });

  it('the status bar shows the share of the active file\'s lines in near duplicates, with a breakdown in the tooltip', async () => {
    await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    // 30 of logParser.ts's 70 lines.
    const workspace = /^\$\(copy\) NearDup 4 · (\d+%)/.exec(api.status().text)?.[1];
    assert.ok(workspace, `the workspace's share in ${api.status().text}`);
    await poll(() => api.status().text === `$(copy) NearDup 4 · ${workspace} · this file 43%`, `the share of logParser.ts (status: ${api.status().text})`);
    assert.match(api.status().tooltip, /code\/logParser\.ts: 30 of 70 lines are in near duplicates \(43%\)/);
    await showAndWaitForMarks(api, 'code/orderService.ts', { identical: [], close: [[1, 82]], distant: [] });
    await poll(() => api.status().text === `$(copy) NearDup 4 · ${workspace} · this file 100%`, 'the share of orderService.ts');
    await showAndWaitForMarks(api, 'notes/unique-meeting-notes.md', NONE);
    await poll(() => api.status().text === `$(copy) NearDup 4 · ${workspace}`, 'no file share for a file without near duplicates');
  });

  it('neardup.decorations.enabled switches the marks (and the hover) off and on, live', async () => {
    const editor = await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    await setSetting('decorations.enabled', false);
    await waitForMarks(api, editor.document.uri, NONE, 'no marks');
    assert.deepStrictEqual(await nearDupHovers(editor.document.uri, 20), []);
    await setSetting('decorations.enabled', true);
    await waitForMarks(api, editor.document.uri, { identical: [[15, 44]], close: [], distant: [] }, 'the marks again');
  });

  it('the hover on a copied section names the twin, its lines and distance, and links Compare and Open twin', async () => {
    const editor = await showAndWaitForMarks(api, 'code/logParser.ts', { identical: [[15, 44]], close: [], distant: [] });
    const uri = editor.document.uri;
    const [hover, ...others] = await nearDupHovers(uri, 20);
    assert.ok(hover, 'a NearDup hover on line 21');
    assert.deepStrictEqual(others, []);
    assert.match(hover, /lines 15–44/);
    assert.match(hover, /code\/salesReport\.ts:11-40/);
    assert.match(hover, /`code\/salesReport\.ts:11-40` — distance 0, 100(\.0)?% similar/);
    assert.match(hover, /are the same as these/);
    assert.deepStrictEqual(await nearDupHovers(uri, 2), [], 'no NearDup hover outside the marks');

    // Compare opens a diff of the two ranges.
    const [target] = linkArgs(hover, 'neardup.compare') as [{ leftUri: string; rightUri: string; leftLines: number[]; rightLines: number[] }];
    assert.deepStrictEqual([target.leftLines, target.rightLines], [[15, 44], [11, 40]]);
    await vscode.commands.executeCommand('neardup.compare', target);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab && tab.input instanceof vscode.TabInputTextDiff, 'a diff is open');
    assert.strictEqual(relOf(tab.input.original.fsPath), 'code/logParser.ts');
    assert.strictEqual(relOf(tab.input.modified.fsPath), 'code/salesReport.ts');

    // Open twin opens the twin at its lines.
    await vscode.commands.executeCommand('neardup.openTwin', ...linkArgs(hover, 'neardup.openTwin'));
    const active = vscode.window.activeTextEditor;
    assert.ok(active);
    assert.strictEqual(relOf(active.document.uri.fsPath), 'code/salesReport.ts');
    assert.deepStrictEqual([active.selection.start.line, active.selection.end.line], [10, 39]);
  });

  it('the hover of an edited copy shows the lines that differ, the twin\'s with +, these with -, from the hovered line on', async () => {
    const editor = await showAndWaitForMarks(api, 'code/orderService.ts', { identical: [], close: [[1, 82]], distant: [] });
    // On the first line: the differences from the top, the header comment first, then the renamed variable.
    const [top] = await nearDupHovers(editor.document.uri, 0, 2);
    assert.ok(top, 'a NearDup hover on line 1');
    assert.match(top, /this whole file/);
    assert.match(top, /`code\/orderServiceCopy\.ts` — distance 1, \d+(\.\d)?% similar/);
    assert.match(top, /```diff/);
    assert.match(top, /^- \/\/ Order handling for the fixture shop\. Planted twin: see orderServiceCopy\.ts\.$/m);
    assert.match(top, /^\+ \/\/ Order handling for the fixture shop\. Planted twin of orderService\.ts/m);
    assert.match(top, /^- {3}let subtotal = 0;$/m);
    assert.match(top, /^\+ {3}let netAmount = 0;$/m);
    assert.doesNotMatch(top, /^[-+ ] .*FREE_SHIPPING_THRESHOLD = /m, 'unchanged lines far from a difference are left out');
    assert.match(top, /and \d+ more differing lines/, 'the differences not shown are counted');
    assert.match(top, /unchanged lines/, 'unchanged runs are counted, not shown');
    // On line 53 (`const shipping = subtotal …`): the differences from there on come first.
    const [here] = await nearDupHovers(editor.document.uri, 52);
    assert.ok(here, 'a NearDup hover on line 53');
    assert.match(here, /^ {2}… \d+ lines above, \d+ of them differing$/m);
    assert.match(here, /^\+ {3}const rate = TAX_RATES\[order\.shippingCountry\.toUpperCase\(\)\] \?\? 0\.19;$/m);
    assert.match(here, /^- {3}const rate = TAX_RATES\[order\.shippingCountry\] \?\? 0\.2;$/m);
    assert.doesNotMatch(here, /Order handling for the fixture shop/, 'the header difference is above, counted');
  });

  it('the hover of a near-duplicate file names the regions where the two match (neardup.locate), each with a Compare of just those lines', async () => {
    const editor = await showAndWaitForMarks(api, 'code/orderService.ts', { identical: [], close: [[1, 82]], distant: [] });
    const region = /^ {2}- lines (\d+)–(\d+) here, (\d+)–(\d+) there: (exact|renamed|edited) copy, [\d\\.]+% similar · \[Compare\]\(command:neardup\.compare\?([^)]+)\)$/m;
    const top = await waitUntil(async () => {
      const [h] = await nearDupHovers(editor.document.uri, 0);
      return h && region.test(h) ? h : undefined;
    }, [api.index.onDidUpdate], 'a matching region under the file twin in the hover');
    const m = region.exec(top);
    assert.ok(m, top);
    const [here0, here1, there0, there1] = [m[1], m[2], m[3], m[4]].map(Number);
    assert.ok(1 <= here0 && here0 < here1 && here1 <= 82, `the region's lines here lie in the file: ${m[0]}`);
    assert.ok(1 <= there0 && there0 < there1, `the twin's lines: ${m[0]}`);
    const [link] = JSON.parse(decodeURIComponent(m[6])) as Array<{ leftUri: string; rightUri: string; leftLines: number[]; rightLines: number[] }>;
    assert.strictEqual(vscode.Uri.parse(link.leftUri).fsPath, editor.document.uri.fsPath);
    assert.match(link.rightUri, /orderServiceCopy\.ts$/);
    assert.deepStrictEqual([link.leftLines, link.rightLines], [[here0, here1], [there0, there1]], 'the Compare link carries the region, not the whole files');
  });

  it('a CodeLens above the copied section and on a near-duplicate file peeks at the twins; neardup.codeLens.enabled turns them off', async () => {
    const uri = fixture('code/logParser.ts');
    await vscode.window.showTextDocument(uri);
    const lenses = await waitUntil(async () => {
      const l = await nearDupLenses(uri);
      return l.length > 0 ? l : undefined;
    }, [api.index.onDidUpdate], 'the CodeLens of logParser.ts');
    assert.strictEqual(lenses.length, 1);
    assert.strictEqual(lenses[0].range.start.line, 14);
    assert.strictEqual(lenses[0].command?.title, '1 near duplicate (d=0)');
    const [docUri, at, locations, mode] = lenses[0].command!.arguments as [vscode.Uri, vscode.Position, vscode.Location[], string];
    assert.strictEqual(docUri.toString(), uri.toString());
    assert.strictEqual(at.line, 14);
    assert.strictEqual(mode, 'peek');
    assert.deepStrictEqual(
      locations.map((l) => [relOf(l.uri.fsPath), l.range.start.line, l.range.end.line]),
      [['code/salesReport.ts', 10, 39]],
    );

    const order = await nearDupLenses(fixture('code/orderService.ts'));
    assert.deepStrictEqual(
      order.map((l) => [l.range.start.line, l.command?.title]),
      [[0, 'Whole file: 1 near duplicate (d=1)']],
    );
    assert.deepStrictEqual(await nearDupLenses(fixture('notes/unique-meeting-notes.md')), []);

    await setSetting('codeLens.enabled', false);
    assert.deepStrictEqual(await nearDupLenses(uri), [], 'no CodeLens once the setting is off');
    await setSetting('codeLens.enabled', true);
    assert.strictEqual((await nearDupLenses(uri)).length, 1, 'back when it is on again');
  });

  it('editor work on the host stays short: 150 edits above 120 marked functions, hovers and CodeLens (prints EDITOR {…})', async () => {
    // A generated file of near-identical functions: each is a near-duplicate section.
    const fn = (i: number) =>
      [
        `export function handler${i}(input: string, options: { trim: boolean; limit: number }): string[] {`,
        `  const parts = input.split(',').map((p) => (options.trim ? p.trim() : p));`,
        `  const kept = parts.filter((p) => p.length > 0 && p.length <= options.limit);`,
        `  if (kept.length === 0) throw new Error('nothing left of ' + input + ' in handler ${i}');`,
        `  return kept.map((p, k) => p.toUpperCase() + ':' + k + ':' + kept.length);`,
        '}',
        '',
      ].join('\n');
    const uri = fixture('gen/handlers.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(Array.from({ length: 120 }, (_, i) => fn(i)).join('\n')));
    try {
      const editor = await vscode.window.showTextDocument(uri);
      const marks = await poll(() => {
        const m = api.editor.marksFor(uri);
        return m.filter((x) => x.kind === 'section').length >= 100 ? m : undefined;
      }, 'the marks of 120 near-identical functions', 30_000);
      api.timings.resetHostTasks();
      for (let i = 0; i < 150; i++) assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), i % 10 === 9 ? '\n' : 'x')));
      const moved = api.editor.marksFor(uri);
      assert.strictEqual(moved.length, marks.length);
      const sections = (ms: typeof marks) => ms.filter((m) => m.kind === 'section').map((m) => m.startLine);
      assert.ok(sections(marks).length >= 100);
      assert.deepStrictEqual(sections(moved), sections(marks).map((l) => l + 15), 'every section mark moved down by the 15 lines typed');
      for (let line = 20; line < 400; line += 40) await nearDupHovers(uri, line);
      const lenses = await nearDupLenses(uri);
      assert.strictEqual(lenses.length, marks.length);
      const f = api.timings.hostTasks();
      const editorKinds = Object.fromEntries(Object.entries(f.byKind).filter(([k]) => k.startsWith('editor.')).map(([k, v]) => [k, { count: v.count, maxMs: +v.maxMs.toFixed(2), p99Ms: v.p99Ms, cpuMaxMs: v.cpu ? +v.cpu.maxMs.toFixed(2) : undefined }]));
      console.log(`      EDITOR ${JSON.stringify({ marks: marks.length, edits: 150, ...editorKinds })}`);
      assert.ok(f.byKind['editor.shift']?.count >= 150, 'every edit moved the marks');
      for (const [k, v] of Object.entries(f.byKind)) if (k.startsWith('editor.')) assert.ok((v.cpu ?? v).maxMs < 20, `${k}: ${v.maxMs} ms`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await closeAllEditors();
      await vscode.workspace.fs.delete(fixture('gen'), { recursive: true });
      await waitForReport(api, (r) => r.groups.length === 4 && !r.items.some((i) => i.loc.path.includes('handlers')), 'the fixture report again', 30_000);
    }
  });
});
