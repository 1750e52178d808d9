import * as assert from 'assert';
import * as fs from 'fs';
import type { NearDupApi } from '../../src/extension/extension';
import { FIXTURE_FILE_GROUPS, fileGroups, getApi, waitForReport } from './helpers';

describe('fingerprint cache (workspace storage)', () => {
  let api: NearDupApi;

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
  });

  it('a warm start re-reads no file', async () => {
    const path = api.index.cachePath();
    assert.ok(path, 'the workspace has storage');
    const stats = await api.index.restart();
    assert.ok(fs.existsSync(path), 'the cache file exists');
    assert.strictEqual(api.index.cacheStatus()?.cacheStatus, 'loaded');
    assert.ok(stats);
    assert.strictEqual(stats.reread, 0, 're-read files on a warm start');
    assert.ok(stats.cacheHits >= 9, `cache hits ${stats.cacheHits}`);
    assert.deepStrictEqual(fileGroups(api.index.getReport()!), FIXTURE_FILE_GROUPS);
  });

  it('a corrupt cache is discarded and rebuilt', async () => {
    const path = api.index.cachePath()!;
    fs.writeFileSync(path, 'NDFC this is not a valid cache');
    const stats = await api.index.restart();
    assert.strictEqual(api.index.cacheStatus()?.cacheStatus, 'discarded');
    assert.ok(stats && stats.reread >= 9, `every file re-read (${stats?.reread})`);
    assert.deepStrictEqual(fileGroups(api.index.getReport()!), FIXTURE_FILE_GROUPS);
    const again = await api.index.restart();
    assert.strictEqual(api.index.cacheStatus()?.cacheStatus, 'loaded');
    assert.strictEqual(again?.reread, 0);
  });
});
