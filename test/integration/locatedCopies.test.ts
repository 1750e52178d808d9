import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import * as fs from 'fs';
import { closeAllEditors, fixture, getApi, groupNodes, relOf, waitForDiagnostics, waitForReport, waitUntil } from './helpers';
import { BLOCK, HOST_BOTTOM, HOST_TOP, SOURCE } from './locatedSample';

const ADD = 'Add to baseline (accept this near duplicate)';
const dimmed = (d: vscode.Diagnostic) => d.severity === vscode.DiagnosticSeverity.Hint && (d.tags ?? []).includes(vscode.DiagnosticTag.Unnecessary) && d.message.startsWith('(baseline) ');
const plain = (d: vscode.Diagnostic) => !d.message.startsWith('(baseline)');

/** 1-based line of the first line of `block` inside `text`. */
function lineOf(text: string, block: string): number {
  return text.slice(0, text.indexOf(block)).split('\n').length;
}

describe('located copies (neardup.locate)', function () {
  this.timeout(60_000);
  let api: NearDupApi;
  const source = fixture('code/located/dashboardHelpers.ts');
  const host = fixture('code/located/inventory.ts');
  const hostText = `${HOST_TOP}\n${BLOCK}\n${HOST_BOTTOM}`;
  const blockLines = BLOCK.split('\n').length;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  after(async () => {
    await closeAllEditors();
    // (the baseline the last test writes, gone whatever it left: the other suites start without one)
    fs.rmSync(fixture('.neardup-baseline.json').fsPath, { force: true });
    fs.rmSync(fixture('.neardup.json').fsPath, { force: true });
    await waitUntil(() => api.baseline.sources().length === 0, [api.settings.onDidReadProjectConfig], 'no baseline any more');
    await vscode.workspace.fs.delete(fixture('code/located'), { recursive: true });
    await waitForReport(api, (r) => !r.groups.some((g) => g.members.some((m) => relOf(m.path).startsWith('code/located/'))), 'the test files gone');
  });

  it('a pasted block: one diagnostic per place on its lines, each pointing at the other; a group in the tree; edited away, gone', async () => {
    await vscode.workspace.fs.writeFile(source, Buffer.from(SOURCE));
    await vscode.workspace.fs.writeFile(host, Buffer.from(hostText));
    const inSource = lineOf(SOURCE, BLOCK);
    const inHost = lineOf(hostText, BLOCK);

    // The copy's diagnostic (a SimHash section pair of one of its functions may add its own, inside it).
    const hostDiags = await waitForDiagnostics(host, (ds) => ds.some((d) => d.range.start.line === inHost - 1), 'the located copy in inventory.ts', 40_000);
    const d = hostDiags.find((x) => x.range.start.line === inHost - 1)!;
    assert.strictEqual(d.range.end.line, inHost + blockLines - 2, hostDiags.map((x) => x.message).join(' | '));
    assert.match(d.message, /dashboardHelpers\.ts/);
    const rel = d.relatedInformation?.[0];
    assert.ok(rel, 'related information');
    assert.strictEqual(relOf(rel.location.uri.fsPath), 'code/located/dashboardHelpers.ts');
    assert.strictEqual(rel.location.range.start.line, inSource - 1);
    assert.strictEqual(rel.location.range.end.line, inSource + blockLines - 2);

    // The other place has its own diagnostic, pointing back.
    const sourceDiags = await waitForDiagnostics(source, (x) => x.some((y) => y.range.start.line === inSource - 1), 'the located copy in dashboardHelpers.ts');
    const ds = sourceDiags.find((y) => y.range.start.line === inSource - 1)!;
    assert.strictEqual(ds.range.end.line, inSource + blockLines - 2);
    assert.strictEqual(relOf(ds.relatedInformation![0].location.uri.fsPath), 'code/located/inventory.ts');
    assert.strictEqual(ds.relatedInformation![0].location.range.start.line, inHost - 1);

    // Compare: a diff of the two files, revealing the copy.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(host));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', host, new vscode.Range(d.range.start, d.range.start), vscode.CodeActionKind.QuickFix.value);
    const compare = actions.find((a) => a.title.startsWith('Compare with dashboardHelpers.ts'));
    assert.ok(compare?.command, actions.map((a) => a.title).join(', '));
    const target = compare.command.arguments?.[0] as { leftRange?: vscode.Range; rightRange?: vscode.Range };
    assert.strictEqual(target.leftRange?.start.line, inHost - 1);
    assert.strictEqual(target.rightRange?.start.line, inSource - 1);

    // The tree: one group of the copied block, with its two places.
    const group = await waitUntil(
      () => groupNodes(api).find((g) => g.group.located && g.group.members.some((m) => relOf(m.path) === 'code/located/inventory.ts')),
      [api.index.onDidUpdate],
      'the located group in the tree',
    );
    const places = group.group.members.map((m) => `${relOf(m.path)}:${m.startLine}-${m.endLine}`).sort();
    assert.deepStrictEqual(places, [`code/located/dashboardHelpers.ts:${inSource}-${inSource + blockLines - 1}`, `code/located/inventory.ts:${inHost}-${inHost + blockLines - 1}`]);

    // The copy edited away: both diagnostics and the group go.
    await vscode.workspace.fs.writeFile(host, Buffer.from(`${HOST_TOP}\n${HOST_BOTTOM}`));
    await waitForDiagnostics(host, (x) => x.length === 0, 'no diagnostic left in inventory.ts', 40_000);
    await waitForDiagnostics(source, (x) => x.length === 0, 'no diagnostic left in dashboardHelpers.ts');
    await waitUntil(() => !groupNodes(api).some((g) => g.group.located && g.group.members.some((m) => relOf(m.path).startsWith('code/located/'))), [api.index.onDidUpdate], 'the group gone');
  });

  it('Add to baseline on a located copy: the pair written with its two places; both diagnostics dim', async () => {
    assert.ok(!fs.existsSync(fixture('.neardup-baseline.json').fsPath), 'no baseline before');
    await vscode.workspace.fs.writeFile(source, Buffer.from(SOURCE));
    await vscode.workspace.fs.writeFile(host, Buffer.from(hostText));
    const inSource = lineOf(SOURCE, BLOCK);
    const inHost = lineOf(hostText, BLOCK);
    const hostDiags = await waitForDiagnostics(host, (ds) => ds.some((d) => d.range.start.line === inHost - 1 && plain(d)), 'the located copy in inventory.ts', 40_000);
    const d = hostDiags.find((x) => x.range.start.line === inHost - 1)!;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(host));
    // The light bulb's providers may still be registering when the diagnostics arrive: ask until they answer.
    let actions: vscode.CodeAction[] = [];
    for (let i = 0; i < 100 && !actions.some((a) => a.title === ADD); i++) {
      actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', host, d.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
      if (!actions.some((a) => a.title === ADD)) await new Promise((r) => setTimeout(r, 100));
    }
    const fix = actions.find((a) => a.title === ADD);
    assert.ok(fix?.command, `actions: ${actions.map((a) => a.title).join(', ')}`);
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));

    // One pair, between the two files, with a key of its own.
    const text = fs.readFileSync(fixture('.neardup-baseline.json').fsPath, 'utf8');
    const baseline = JSON.parse(text) as { pairs: Array<{ kind: string; paths: string[]; key: string }> };
    assert.strictEqual(baseline.pairs.length, 1, text);
    assert.deepStrictEqual([...baseline.pairs[0].paths].sort(), ['code/located/dashboardHelpers.ts', 'code/located/inventory.ts'], text);
    assert.match(baseline.pairs[0].key, /^[0-9a-f]{32}$/);

    // Both places dim (the default of neardup.baseline.show); the file's other diagnostics as they were.
    await waitForDiagnostics(host, (ds) => ds.some((x) => x.range.start.line === inHost - 1 && dimmed(x)), 'the copy in inventory.ts dimmed');
    await waitForDiagnostics(source, (ds) => ds.some((x) => x.range.start.line === inSource - 1 && dimmed(x)), 'the copy in dashboardHelpers.ts dimmed');
  });

  it('a block repeated in the same file is said to be repeated there', async () => {
    // The block only in this file now (its other copy gone), twice.
    await vscode.workspace.fs.delete(source);
    const text = `${HOST_TOP}\n${BLOCK}\n${HOST_BOTTOM}\n${BLOCK}\n`;
    const first = lineOf(text, BLOCK);
    await vscode.workspace.fs.writeFile(host, Buffer.from(text));
    // The located copy's diagnostic (a SimHash section pair of one of its functions, repeated too, comes first).
    const diags = await waitForDiagnostics(host, (x) => x.some((d) => d.range.start.line === first - 1 && /repeated in this file/.test(d.message)), 'a same-file repeat', 40_000);
    const d = diags.find((x) => x.range.start.line === first - 1);
    assert.ok(d, diags.map((x) => `${x.range.start.line}: ${x.message}`).join(' | '));
    const second = text.slice(0, text.lastIndexOf(BLOCK)).split('\n').length;
    assert.match(d.message, new RegExp(`repeated in this file at lines ${second}–${second + blockLines - 1}`));
    assert.strictEqual(relOf(d.relatedInformation![0].location.uri.fsPath), 'code/located/inventory.ts');
  });
});
