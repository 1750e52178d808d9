import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import type { ViewReport } from '../../src/node/engine/engineProtocol';
import {
  FIXTURE_FILE_GROUPS,
  FIXTURE_SECTION_GROUPS,
  fileGroups,
  fixture,
  getApi,
  sectionGroups,
  setSetting,
  waitForDiagnostics,
  waitForReport,
} from './helpers';

const isFixtureReport = (r: { groups: unknown[] } & Parameters<typeof fileGroups>[0]) =>
  JSON.stringify(fileGroups(r)) === JSON.stringify(FIXTURE_FILE_GROUPS) && JSON.stringify(sectionGroups(r)) === JSON.stringify(FIXTURE_SECTION_GROUPS);

describe('settings', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, isFixtureReport, 'the fixture report');
  });

  afterEach(async () => {
    for (const key of ['maxDistance', 'sectionMaxDistance', 'sections.enabled', 'locate', 'exclude', 'include', 'diagnostics.severity', 'minTokens']) await setSetting(key, undefined);
    await vscode.commands.executeCommand('neardup.viewMode.both');
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    await waitForReport(api, (r) => isFixtureReport(r) && r.thresholds.maxDistance === 12, 'the fixture report again');
  });

  it('a threshold change re-queries without re-reading files', async () => {
    const before = api.index.lastIndexStats();
    await setSetting('maxDistance', 1);
    const r = await waitForReport(api, (x) => x.thresholds.maxDistance === 1, 'maxDistance 1 applied');
    assert.deepStrictEqual(fileGroups(r), [['code/orderService.ts', 'code/orderServiceCopy.ts']]);
    assert.strictEqual(r.lastJob, null, 'a pure re-query');
    assert.strictEqual(api.index.lastIndexStats(), before, 'no re-index');
    // The guides (distance 2) are no longer a file pair (their sections may now pair instead).
    await waitForDiagnostics(fixture('docs/en/backup-guide.md'), (d) => !d.some((x) => x.code === 'near-duplicate-file'), 'the file diagnostic of a pair now too far apart to go');
    await waitForDiagnostics(fixture('code/orderService.ts'), (d) => d.length === 1 && d[0].code === 'near-duplicate-file', 'the close pair keeps its diagnostic');

    await setSetting('sectionMaxDistance', 0);
    await setSetting('maxDistance', 0);
    const none = await waitForReport(api, (x) => x.thresholds.maxDistance === 0 && x.thresholds.sectionMaxDistance === 0, 'maxDistance 0 applied');
    assert.deepStrictEqual(fileGroups(none), []);
    // Identical sections remain (distance 0), also those of files that no longer pair as files.
    const sections = sectionGroups(none).map((g) => g.join(' '));
    assert.ok(sections.includes(FIXTURE_SECTION_GROUPS[0].join(' ')), 'the planted section pair remains');
    // Located copies (neardup.locate) are their own finder: the SimHash thresholds do not apply to them.
    assert.ok(none.groups.filter((g) => !g.located).every((g) => g.maxDistance === 0));
  });

  it('the welcome content: nothing found, or nothing of the kind shown', async () => {
    assert.strictEqual(api.tree.viewState, 'ready');
    // Copies located inside files stay with sections off (as with the CLI's --no-sections): off
    // here, so that nothing of the kind is left to show.
    await setSetting('locate', false);
    await setSetting('sections.enabled', false);
    await waitForReport(api, (x) => x.sections === 0 && x.lastJob !== null, 'no sections');
    await vscode.commands.executeCommand('neardup.viewMode.sections');
    assert.deepStrictEqual(api.tree.getChildren(), []);
    assert.strictEqual(api.tree.viewState, 'filtered');
    await setSetting('include', ['notes/**']);
    await waitForReport(api, (x) => x.groups.length === 0 && x.files === 1, 'only notes/ indexed');
    assert.strictEqual(api.tree.viewState, 'empty');
    assert.match(api.status().text, /NearDup 0/);
  });

  it('an out-of-range value is clamped, never a crash', async () => {
    await setSetting('maxDistance', 999);
    const r = await waitForReport(api, (x) => x.thresholds.maxDistance === 20, 'maxDistance clamped to 20');
    assert.ok(fileGroups(r).length >= 3);
    assert.strictEqual(api.index.state(), 'ready');
  });

  it('diagnostics.severity changes the severity, and off removes the diagnostics', async () => {
    const uri = fixture('code/orderService.ts');
    await setSetting('diagnostics.severity', 'warning');
    await waitForDiagnostics(uri, (d) => d.length === 1 && d[0].severity === vscode.DiagnosticSeverity.Warning, 'a warning');
    await setSetting('diagnostics.severity', 'off');
    await waitForDiagnostics(uri, (d) => d.length === 0, 'no diagnostics');
    assert.ok(api.index.getReport()!.groups.length >= 4, 'the view keeps its groups');
    await setSetting('diagnostics.severity', undefined);
    await waitForDiagnostics(uri, (d) => d.length === 1 && d[0].severity === vscode.DiagnosticSeverity.Information, 'information again');
  });

  it('a fingerprint setting re-indexes: sections.enabled = false', async () => {
    await setSetting('sections.enabled', false);
    // No SimHash section groups: the located copies' report that follows the job's keeps its
    // located section groups (they do not need sections), and the host may take both reports at
    // once, so a report without any section group need never be seen.
    const simhashSections = (x: ViewReport) => sectionGroups({ ...x, groups: x.groups.filter((g) => !g.located) });
    const r = await waitForReport(api, (x) => simhashSections(x).length === 0 && x.lastJob !== null && x.sections === 0, 'no sections');
    assert.deepStrictEqual(fileGroups(r), FIXTURE_FILE_GROUPS);
    const stats = api.index.lastIndexStats();
    assert.ok(stats && stats.reread >= 9, `every file re-read (${stats?.reread})`);
  });

  it('neardup.exclude and files.exclude re-walk without re-reading', async () => {
    await setSetting('exclude', ['docs/zh/**']);
    let r = await waitForReport(api, (x) => !fileGroups(x).some((g) => g[0].startsWith('docs/zh')), 'docs/zh excluded');
    assert.strictEqual(api.index.lastIndexStats()?.reread, 0);
    assert.strictEqual(fileGroups(r).length, 2);
    await setSetting('exclude', undefined);
    await waitForReport(api, (x) => fileGroups(x).length === 3, 'docs/zh back');

    await vscode.workspace.getConfiguration('files').update('exclude', { 'docs/en': true }, vscode.ConfigurationTarget.Global);
    r = await waitForReport(api, (x) => !fileGroups(x).some((g) => g[0].startsWith('docs/en')), 'docs/en hidden by files.exclude');
    assert.strictEqual(fileGroups(r).length, 2);
  });
});
