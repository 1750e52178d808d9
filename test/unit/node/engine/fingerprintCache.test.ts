import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import {
  CACHE_FORMAT_VERSION,
  checksum,
  decodeCache,
  encodeCache,
  loadCache,
  nodeCacheIo,
  removeStaleTemps,
  saveCache,
  type CacheIo,
  type CachedEntry,
} from '../../../../src/node/engine/fingerprintCache';
import { codeFile, mulberry32, proseText } from '../../helpers/corpus';
import { Reader, Writer } from '../../../../src/node/engine/indexing/cacheFile';
import { buildReport } from '../../../../src/core/report/report';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';

function sampleEntries(): CachedEntry[] {
  const rnd = mulberry32(7);
  return [
    { path: '/w/src/a.ts', size: 1234, mtimeMs: 1700000000123.5, doc: fingerprintText(codeFile(rnd, 6), 'a.ts'), lines: 96 },
    { path: '/w/docs/b.md', size: 999, mtimeMs: 1700000000000, doc: fingerprintText(proseText(rnd, 5), 'b.md'), lines: 0 },
    { path: '/w/tiny.txt', size: 3, mtimeMs: 1, doc: fingerprintText('hi', 'tiny.txt') },
    { path: '/w/bin.dat', size: 10, mtimeMs: 2, doc: null, reason: 'binary file' },
    { path: '/w/中文 路径.md', size: 5, mtimeMs: 3, doc: null, reason: '' },
  ];
}

describe('fingerprintCache', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-cache-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips entries exactly (fingerprints, sections, sketches, lines, skipped files)', () => {
    const entries = sampleEntries();
    assert.ok(entries[0].doc!.file && entries[0].doc!.sections.length > 0, 'sample has a file and sections');
    const decoded = decodeCache(encodeCache('key-1', entries));
    assert.ok(decoded.ok);
    assert.equal(decoded.key, 'key-1');
    assert.deepEqual(decoded.entries, entries);
    assert.ok(decoded.entries[0].doc!.file!.sketch instanceof Uint32Array);
  });

  it("reads the sketches into slabs shared by many items (few buffers), each its own values: the same report as the items written", () => {
    const rnd = mulberry32(21);
    const entries: CachedEntry[] = [];
    const texts: string[] = [];
    for (let i = 0; i < 300; i++) {
      // (every tenth file a copy of one three before it: pairs of files and of sections)
      texts.push(i % 10 === 3 ? texts[i - 3] : codeFile(rnd, 2 + (i % 4)));
      entries.push({ path: `/w/f${i}.ts`, size: i, mtimeMs: i, doc: fingerprintText(texts[i], `f${i}.ts`), lines: 10 });
    }
    const decoded = decodeCache(encodeCache('k', entries));
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.entries, entries);
    const sketches = decoded.entries.flatMap((e) => [e.doc!.file, ...e.doc!.sections].filter((x) => x !== null).map((x) => x!.sketch));
    const buffers = new Set(sketches.map((s) => s.buffer));
    assert.ok(sketches.length > 600 && buffers.size * 50 < sketches.length, `${sketches.length} sketches in ${buffers.size} buffers`);
    const docsOf = (list: CachedEntry[]) => list.map((e) => ({ path: e.path, doc: e.doc! }));
    for (const kernel of [undefined, nativeKernel() ?? undefined]) {
      const options = { maxDistance: 3, sectionMaxDistance: 3, minSimilarity: 0.5, sections: true, kernel };
      const report = buildReport(docsOf(decoded.entries), options);
      assert.ok(report.pairs.length > 0, 'copies paired');
      assert.deepEqual(report, buildReport(docsOf(entries), options), kernel ? 'native kernel' : 'TypeScript');
    }
  });

  it('Reader.u32Pooled: the values u32Array reads, in shared slabs; an array over a quarter of a slab its own', () => {
    const w = new Writer();
    const arrays = [3, 5, 0, 7, 16, 40, 2].map((n, k) => Uint32Array.from({ length: n }, (_, i) => (k * 1000 + i * 7) >>> 0));
    for (const a of arrays) w.u32Array(a);
    const r = new Reader(Buffer.from(w.bytes()));
    const read = arrays.map((a) => r.u32Pooled(a.length, 32));
    assert.deepEqual(read.map((a) => [...a]), arrays.map((a) => [...a]));
    assert.ok(r.done);
    assert.equal(read[0].buffer, read[1].buffer, 'small arrays share a slab');
    assert.notEqual(read[4].buffer, read[3].buffer, 'an array over a quarter of the slab has its own buffer');
    assert.notEqual(read[5].buffer, read[0].buffer);
    assert.equal(read[4].byteOffset, 0);
    // (a slab full: the next array starts another; none overlaps its neighbour)
    read[0][0] = 99;
    assert.deepEqual([...read[1]], [...arrays[1]]);
  });

  it('save + load: loaded with the same key; temp file renamed away', async () => {
    const file = path.join(dir, 'sub', 'fingerprints.bin');
    await saveCache(file, 'k', sampleEntries());
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['fingerprints.bin']);
    const loaded = await loadCache(file, 'k');
    assert.equal(loaded.status, 'loaded');
    assert.deepEqual(loaded.entries, sampleEntries());
  });

  it('missing file → missing', async () => {
    assert.equal((await loadCache(path.join(dir, 'none.bin'), 'k')).status, 'missing');
  });

  it('other settings key → discarded and deleted', async () => {
    const file = path.join(dir, 'c.bin');
    await saveCache(file, 'k1', sampleEntries());
    const loaded = await loadCache(file, 'k2');
    assert.equal(loaded.status, 'discarded');
    assert.equal(loaded.entries.length, 0);
    assert.ok(!fs.existsSync(file));
  });

  it('truncated at any point → discarded, never throws', async () => {
    const buf = encodeCache('k', sampleEntries());
    for (const cut of [0, 3, 15, 16, 17, 40, Math.floor(buf.length / 2), buf.length - 1]) {
      const d = decodeCache(buf.subarray(0, cut));
      assert.equal(d.ok, false, `cut at ${cut}`);
    }
    const file = path.join(dir, 't.bin');
    fs.writeFileSync(file, buf.subarray(0, buf.length - 7));
    const loaded = await loadCache(file, 'k');
    assert.equal(loaded.status, 'discarded');
    assert.match((loaded as { reason: string }).reason, /truncated/);
  });

  it('a flipped byte → discarded (checksum)', () => {
    const buf = Buffer.from(encodeCache('k', sampleEntries()));
    buf[buf.length - 20] ^= 0x40;
    const d = decodeCache(buf);
    assert.equal(d.ok, false);
    assert.match((d as { reason: string }).reason, /checksum/);
  });

  it('old format version, wrong magic, JSON or garbage → discarded', async () => {
    const buf = Buffer.from(encodeCache('k', sampleEntries()));
    const old = Buffer.from(buf);
    old.writeUInt32LE(CACHE_FORMAT_VERSION - 1 || 99, 4);
    assert.match((decodeCache(old) as { reason: string }).reason, /format version/);
    assert.equal(decodeCache(Buffer.from('{"version":1,"entries":[]}')).ok, false);
    assert.equal(decodeCache(Buffer.from('NDFC\0\0\0\0')).ok, false);
    const rnd = mulberry32(3);
    for (let i = 0; i < 50; i++) {
      const junk = Buffer.from(Array.from({ length: 16 + Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256)));
      junk.write('NDFC', 0, 'latin1');
      junk.writeUInt32LE(CACHE_FORMAT_VERSION, 4);
      junk.writeUInt32LE(junk.length - 16, 8);
      assert.equal(decodeCache(junk).ok, false);
    }
    const file = path.join(dir, 'g.bin');
    fs.writeFileSync(file, 'not a cache at all');
    assert.equal((await loadCache(file, 'k')).status, 'discarded');
  });

  it('structurally invalid body with a valid checksum → discarded', () => {
    // A valid header around a body that claims more entries than it has.
    const good = encodeCache('k', sampleEntries());
    const body = Buffer.from(good.subarray(16));
    const keyLen = body.readUInt32LE(0);
    body.writeUInt32LE(1000, 4 + keyLen); // count
    const header = Buffer.from(good.subarray(0, 16));
    header.writeUInt32LE(checksum(body), 12);
    const d = decodeCache(Buffer.concat([header, body]));
    assert.equal(d.ok, false);
    assert.match((d as { reason: string }).reason, /corrupt/);
  });

  it('a write that fails half-way (ENOSPC) or a failing rename: rejects, removes its temp file, leaves the old cache intact', async () => {
    const file = path.join(dir, 'c.bin');
    await saveCache(file, 'k', sampleEntries());
    const good = fs.readFileSync(file);
    const enospc: CacheIo = {
      ...nodeCacheIo,
      async writeFile(f, data) {
        await nodeCacheIo.writeFile(f, data.subarray(0, 10));
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    };
    await assert.rejects(saveCache(file, 'k', sampleEntries().slice(0, 2), enospc), /ENOSPC/);
    const badRename: CacheIo = { ...nodeCacheIo, rename: async () => Promise.reject(Object.assign(new Error('EXDEV'), { code: 'EXDEV' })) };
    await assert.rejects(saveCache(file, 'k', sampleEntries().slice(0, 1), badRename), /EXDEV/);
    assert.deepEqual(fs.readdirSync(dir), ['c.bin']);
    assert.ok(fs.readFileSync(file).equals(good));
    assert.equal((await loadCache(file, 'k')).status, 'loaded');
  });

  it('a storage path under a regular file: load says missing, save rejects (ENOTDIR)', async () => {
    const blocker = path.join(dir, 'blocker');
    fs.writeFileSync(blocker, 'x');
    const file = path.join(blocker, 'sub', 'c.bin');
    assert.equal((await loadCache(file, 'k')).status, 'missing');
    await assert.rejects(saveCache(file, 'k', sampleEntries()), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR' || e.code === 'EEXIST');
  });

  it('removeStaleTemps: deletes the temp files of dead writers (and of this process), keeps live ones and others', async () => {
    const file = path.join(dir, 'fingerprints.bin');
    const names = [`fingerprints.bin.999999999.1.0.tmp`, `fingerprints.bin.${process.pid}.2.3.tmp`, `fingerprints.bin.${process.ppid}.4.5.tmp`, 'fingerprints.bin', 'other.bin.999999999.1.0.tmp', 'fingerprints.bin.x.tmp'];
    for (const n of names) fs.writeFileSync(path.join(dir, n), 'x');
    assert.equal(await removeStaleTemps(file), 2);
    assert.deepEqual(fs.readdirSync(dir).sort(), [`fingerprints.bin.${process.ppid}.4.5.tmp`, 'fingerprints.bin', 'other.bin.999999999.1.0.tmp', 'fingerprints.bin.x.tmp'].sort());
    assert.equal(await removeStaleTemps(path.join(dir, 'missing-dir', 'f.bin')), 0);
  });
});
