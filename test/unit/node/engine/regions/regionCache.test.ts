import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCacheFile } from '../../../../../src/node/engine/fingerprintCache';
import { decodeRegionCache, encodeRegionCache, type RegionCacheState } from '../../../../../src/node/engine/regions/regionCache';

const state = (): RegionCacheState => ({
  files: [
    { path: '/w/a.ts', sig: '120:1700000000000', anchors: { hash: Uint32Array.of(7, 0xffffffff, 3), pos: Int32Array.of(0, 12, 40), prose: false } },
    { path: '/w/b.md', sig: '80:1700000000001', anchors: { hash: Uint32Array.of(3), pos: Int32Array.of(5), prose: true } },
    { path: '/w/ünïcode 文件.ts', sig: '10:1', anchors: { hash: new Uint32Array(0), pos: new Int32Array(0), prose: false } },
    { path: '/w/unread.ts', sig: '3:2' },
  ],
  pairs: [
    { kind: 'section', a: { path: '/w/a.ts', startLine: 3, endLine: 20 }, b: { path: '/w/b.md', startLine: 1, endLine: 1 }, distance: 4, similarity: 0.9321, clone: 'edited', located: true },
    { kind: 'section', a: { path: '/w/a.ts', startLine: 30, endLine: 44 }, b: { path: '/w/ünïcode 文件.ts', startLine: 2, endLine: 16 }, distance: 0, similarity: 1, clone: 'exact', located: true },
  ],
  sideKeys: [
    { path: '/w/a.ts', startLine: 3, endLine: 20, key: 'region:120:0123456789abcdef01234567' },
    { path: '/w/ünïcode 文件.ts', startLine: 2, endLine: 16, key: 'region:40:fedcba9876543210fedcba98' },
  ],
});

describe('region cache (the located copies kept between sessions)', () => {
  it('gives back what was written: signatures, anchors (prose or not, none), pairs and content keys', () => {
    const decoded = decodeRegionCache(encodeRegionCache('key', state()));
    assert.ok(decoded.ok, !decoded.ok ? decoded.reason : '');
    assert.equal(decoded.key, 'key');
    assert.deepEqual(decoded.state, state());
  });

  it('anything damaged or of another version is refused with a reason, never read in part', () => {
    const good = encodeRegionCache('key', state());
    const damaged = (f: (b: Buffer) => Buffer): string => {
      const r = decodeRegionCache(f(Buffer.from(good)));
      assert.ok(!r.ok);
      return r.reason;
    };
    assert.match(damaged((b) => b.subarray(0, 10)), /truncated header/);
    assert.match(damaged((b) => (b.write('NDFC', 0, 'latin1'), b)), /not a NearDup region cache/);
    assert.match(damaged((b) => (b.writeUInt32LE(99, 4), b)), /format version 99/);
    assert.match(damaged((b) => b.subarray(0, b.length - 1)), /truncated or padded/);
    assert.match(damaged((b) => ((b[b.length - 5] ^= 1), b)), /checksum/);
    // A body that decodes to nonsense (checksum made right): a pair's file past the list.
    const bad = state();
    bad.files = bad.files.slice(0, 1);
    assert.throws(() => encodeRegionCache('key', bad), /not indexed/);
    const lines = state();
    lines.pairs[0].a.startLine = 0;
    const r = decodeRegionCache(encodeRegionCache('key', lines));
    assert.ok(!r.ok && /bad line/.test(r.reason));
  });

  it('read as a cache file (readCacheFile): missing, other settings or damaged (the file deleted), stale temporary files of dead writers removed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-region-cache-'));
    const load = (file: string, key: string) => readCacheFile(file, key, decodeRegionCache, 'made with other settings');
    try {
      const file = path.join(dir, 'fingerprints.bin.regions');
      assert.deepEqual(await load(file, 'key'), { status: 'missing' });
      fs.writeFileSync(file, encodeRegionCache('key', state()));
      const dead = `${file}.999999999.1.0.tmp`;
      fs.writeFileSync(dead, 'half');
      const loaded = await load(file, 'key');
      assert.ok(loaded.status === 'loaded');
      assert.deepEqual(loaded.value.state, state());
      assert.ok(!fs.existsSync(dead), 'a dead writer\'s temporary file removed');
      const other = await load(file, 'other key');
      assert.ok(other.status === 'discarded' && /other settings/.test(other.reason));
      assert.ok(!fs.existsSync(file), 'a cache of other settings is deleted');
      fs.writeFileSync(file, 'NDRC garbage');
      assert.equal((await load(file, 'key')).status, 'discarded');
      assert.ok(!fs.existsSync(file));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
