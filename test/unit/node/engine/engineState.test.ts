import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineConfig, EngineEvent, ViewReport } from '../../../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { EngineState, fingerprintKey, type Fingerprinter } from '../../../../src/node/engine/engineState';
import { fingerprintDecoded, fingerprintFile } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint } from '../../../../src/node/workers/fileOutcome';
import { languageOf } from '../../../../src/core/text/languages';
import { codeFile, mulberry32, proseText } from '../../helpers/corpus';
import { htmlReport } from '../../../../src/node/htmlReport/fromScan';

/** Fingerprints on the test's thread; counts the files it reads; optional delay per batch. */
class InlineFingerprinter implements Fingerprinter {
  readonly size = 2;
  read: string[] = [];
  texts = 0;
  delayMs = 0;
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const out: FileOutcome[] = [];
    for (const f of files) {
      this.read.push(f.path);
      out.push(await fingerprintFile(f, settings));
    }
    return out;
  }
  async fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    this.texts++;
    return fingerprintDecoded(relPath, text, Buffer.byteLength(text), 'utf-8', settings);
  }
  async close(): Promise<void> {}
}

function write(root: string, rel: string, content: string | Buffer): string {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  return abs;
}

/** A copy with one line changed. */
function edited(text: string): string {
  const lines = text.split('\n');
  lines[3] = lines[3] + ' + 1';
  return lines.join('\n');
}

function filePairs(r: ViewReport): string[][] {
  return r.groups.filter((g) => g.kind === 'file').map((g) => g.members.map((m) => path.basename(m.path)).sort());
}

describe('EngineState', function () {
  this.timeout(30000);
  let tmp: string;
  let root: string;
  let root2: string;
  let cachePath: string;
  let settings: EngineSettings;
  const rnd = mulberry32(42);
  const codeA = codeFile(rnd, 6);
  const codeB = codeFile(rnd, 6);
  const proseA = proseText(rnd, 6);
  const proseB = proseText(rnd, 6);
  const unique = codeFile(rnd, 5);

  function config(over: Partial<EngineConfig> = {}): EngineConfig {
    return { settings, include: [], exclude: ['excluded/**'], roots: [{ path: root, exclude: ['**/hidden'] }], ...over };
  }

  function makeEngine(fp = new InlineFingerprinter()): { engine: EngineState; fp: InlineFingerprinter; events: EngineEvent[] } {
    const events: EngineEvent[] = [];
    const engine = new EngineState(fp, (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0 });
    return { engine, fp, events };
  }

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-engine-'));
    root = path.join(tmp, 'ws');
    root2 = path.join(tmp, 'ws2');
    cachePath = path.join(tmp, 'storage', 'fingerprints.bin');
    settings = { ...DEFAULT_ENGINE_SETTINGS };
    write(root, 'src/a.ts', codeA);
    write(root, 'src/a-copy.ts', edited(codeA));
    write(root, 'src/b.ts', codeB);
    write(root, 'docs/guide.md', proseA);
    write(root, 'docs/guide-old.md', edited(proseA));
    write(root, 'docs/other.md', proseB);
    write(root, 'unique.ts', unique);
    write(root, 'tiny.txt', 'just a few words');
    write(root, 'image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0]));
    write(root, '.gitignore', 'ignored/\n');
    write(root, 'ignored/a.ts', codeA);
    write(root, 'excluded/a.ts', codeA);
    write(root, 'lib/hidden/a.ts', codeA);
    write(root, 'node_modules/x/a.ts', codeA);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('indexes a folder with its rules, reports pairs and skip notices', async () => {
    const { engine, fp, events } = makeEngine();
    const init = await engine.init({ config: config(), cachePath });
    assert.equal(init.cacheStatus, 'missing');
    const stats = await engine.reindex();
    assert.equal(stats.cancelled, false);
    assert.equal(stats.cacheHits, 0);
    // The job ends with its live index built (its report was posted before it): the next change needs no build.
    assert.equal((engine as unknown as { report: { matcher: { indexPending: boolean } } }).report.matcher.indexPending, false);
    // Not read: .gitignore'd, neardup.exclude'd, files.exclude'd, node_modules.
    const readRel = fp.read.map((p) => path.relative(root, p).split(path.sep).join('/')).sort();
    assert.deepEqual(readRel, ['.gitignore', 'docs/guide-old.md', 'docs/guide.md', 'docs/other.md', 'image.png', 'src/a-copy.ts', 'src/a.ts', 'src/b.ts', 'tiny.txt', 'unique.ts']);
    assert.equal(stats.reread, readRel.length);
    const report = engine.getReport();
    assert.deepEqual(filePairs(report), [['a-copy.ts', 'a.ts'], ['guide-old.md', 'guide.md']].sort((x, y) => (x[0] < y[0] ? -1 : 1)).sort());
    for (const g of report.groups) {
      assert.equal(g.members[0].distance, 0);
      assert.ok(g.members.slice(1).every((m) => m.distance <= g.maxDistance && m.similarity === 1 - m.distance / 64));
    }
    const item = report.items.find((i) => i.kind === 'file' && i.loc.path.endsWith('a.ts') && !i.loc.path.endsWith('copy.ts'));
    assert.ok(item);
    assert.equal(path.basename(item.twins[0].path), 'a-copy.ts');
    const skipped = events.flatMap((e) => (e.type === 'skipped' ? e.items : []));
    assert.ok(skipped.some((s) => s.path.endsWith('image.png')), JSON.stringify(skipped));
    assert.ok(events.some((e) => e.type === 'progress' && e.phase === 'reading' && e.done === e.total && e.total === readRel.length));
    assert.ok(events.some((e) => e.type === 'report'));
    assert.deepEqual(events.filter((e) => e.type === 'indexing').map((e) => (e as { active: boolean }).active), [true, false]);
  });

  it('holds the pair cap (maxPairs) through live updates: a report over it is cut and says so, through later changes, until it is complete again', async () => {
    const events: EngineEvent[] = [];
    const engine = new EngineState(new InlineFingerprinter(), (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0, maxPairs: 4 });
    await engine.init({ config: config(), cachePath });
    await engine.reindex();
    assert.equal(engine.getReport().pairs, 2);
    assert.equal(engine.getReport().truncated, undefined);
    // Three more copies of a.ts: 10 file pairs among the five, over the cap of 4.
    // One at a time: each change is matched incrementally; the second goes over the cap (null),
    // and the engine matches from scratch, which cuts.
    const copies = [1, 2, 3].map((i) => path.join(root, `src/a-copy${i}.ts`));
    for (const c of copies) {
      write(root, path.relative(root, c).split(path.sep).join('/'), edited(codeA));
      await engine.update({ upserts: [c], removes: [], renames: [] });
    }
    let r = engine.getReport();
    // File pairs cut at 4; section pairs (4 at most) where files no longer pair as files.
    assert.ok(r.pairs >= 4 && r.pairs <= 8, `${r.pairs} pairs`);
    const fileTwins = r.items.filter((i) => i.kind === 'file').reduce((n, i) => n + i.twins.length, 0);
    assert.equal(fileTwins, 2 * 4, 'file pairs cut at 4 (each pair is a twin of both ends)');
    assert.equal(r.truncated?.files, true);
    const last = events.filter((e): e is Extract<EngineEvent, { type: 'report' }> => e.type === 'report').at(-1)!;
    assert.deepEqual(last.report.truncated, r.truncated, 'the report event carries it');
    // A change while cut: matched from scratch, still cut.
    write(root, 'src/b.ts', codeB + '\n// edited\n');
    await engine.update({ upserts: [path.join(root, 'src/b.ts')], removes: [], renames: [] });
    assert.equal(engine.getReport().truncated?.files, true);
    // Copies gone: complete again.
    for (const c of copies) fs.rmSync(c);
    await engine.update({ upserts: [], removes: copies, renames: [] });
    r = engine.getReport();
    assert.equal(r.pairs, 2);
    assert.equal(r.truncated, undefined);
    await engine.shutdown();
  });

  it('a warm start from the cache re-reads nothing; changed files only', async () => {
    const first = makeEngine();
    await first.engine.init({ config: config(), cachePath });
    const cold = await first.engine.reindex();
    await first.engine.shutdown();
    assert.ok(fs.existsSync(cachePath));

    const second = makeEngine();
    const init = await second.engine.init({ config: config(), cachePath });
    assert.equal(init.cacheStatus, 'loaded');
    assert.equal(init.cacheEntries, cold.reread);
    const warm = await second.engine.reindex();
    assert.equal(warm.reread, 0);
    assert.equal(second.fp.read.length, 0);
    assert.equal(warm.cacheHits, cold.reread);
    assert.deepEqual(filePairs(second.engine.getReport()), filePairs(first.engine.getReport()));
    await second.engine.shutdown();

    // One file changed while closed (size changes): only it is read.
    fs.appendFileSync(path.join(root, 'src/b.ts'), '\n// more\n');
    const third = makeEngine();
    await third.engine.init({ config: config(), cachePath });
    const after = await third.engine.reindex();
    assert.equal(after.reread, 1);
    assert.deepEqual(third.fp.read, [path.join(root, 'src/b.ts')]);
  });

  it('lineShare: lines of the fingerprinted files by kind, those in near duplicates, top folders; through an update and a warm start', async () => {
    const linesOfFile = (abs: string) => {
      const t = fs.readFileSync(abs, 'utf8');
      return t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
    };
    // Expected, from the files and the report's items (a file item: every line; sections: the lines they cover).
    const expected = (r: ViewReport, read: string[]) => {
      const docs = read.filter((p) => !p.endsWith('image.png'));
      const kindOf = (p: string) => languageOf(p).kind;
      const lines = { code: 0, prose: 0 };
      for (const p of docs) lines[kindOf(p)] += linesOfFile(p);
      const covered = new Map<string, Set<number>>();
      for (const i of r.items) {
        const set = covered.get(i.loc.path) ?? new Set<number>();
        covered.set(i.loc.path, set);
        const [a, b] = i.loc.startLine === undefined ? [1, linesOfFile(i.loc.path)] : [i.loc.startLine, i.loc.endLine!];
        for (let l = a; l <= b; l++) set.add(l);
      }
      const dup = { code: 0, prose: 0 };
      const byFolder = new Map<string, number>();
      for (const [p, set] of covered) {
        dup[kindOf(p)] += set.size;
        const rel = path.relative(root, p).split(path.sep);
        const f = rel.length > 1 ? rel[0] : '.';
        byFolder.set(f, (byFolder.get(f) ?? 0) + set.size);
      }
      const folderLines = (f: string) => docs.filter((p) => { const rel = path.relative(root, p).split(path.sep); return (rel.length > 1 ? rel[0] : '.') === f; }).reduce((n, p) => n + linesOfFile(p), 0);
      const folders = [...byFolder].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([folder, d]) => ({ folder, lines: folderLines(folder), duplicated: d }));
      return { code: { lines: lines.code, duplicated: dup.code }, prose: { lines: lines.prose, duplicated: dup.prose }, folders };
    };
    const { engine, fp } = makeEngine();
    await engine.init({ config: config(), cachePath });
    await engine.reindex();
    const report = engine.getReport();
    const share = report.lineShare;
    assert.ok(share);
    assert.ok(share.code.duplicated >= 2 * linesOfFile(path.join(root, 'src/a.ts')) - 1, 'a.ts and its copy count whole');
    assert.ok(share.prose.duplicated > 0 && share.prose.duplicated < share.prose.lines);
    assert.deepEqual(share, expected(report, fp.read));
    assert.deepEqual(share.folders.map((f) => f.folder).slice(0, 2).sort(), ['docs', 'src']);

    // The copy deleted: its lines leave the totals, a.ts is no longer duplicated.
    const copy = path.join(root, 'src/a-copy.ts');
    const copyLines = linesOfFile(copy);
    fs.rmSync(copy);
    await engine.update({ upserts: [], removes: [copy], renames: [] });
    const after = engine.getReport();
    assert.equal(after.lineShare!.code.lines, share.code.lines - copyLines);
    assert.deepEqual(after.lineShare, expected(after, fp.read.filter((p) => p !== copy)));
    await engine.shutdown();

    // A warm start (lines from the cache, nothing read): the same share.
    const warm = makeEngine();
    await warm.engine.init({ config: config(), cachePath });
    await warm.engine.reindex();
    assert.equal(warm.fp.read.length, 0);
    assert.deepEqual(warm.engine.getReport().lineShare, after.lineShare);
    await warm.engine.shutdown();
  });

  it('a corrupt cache is discarded and rebuilt', async () => {
    fs.mkdirSync(path.dirname(cachePath), { recursive: true });
    fs.writeFileSync(cachePath, 'garbage that is not a cache');
    const { engine, events } = makeEngine();
    const init = await engine.init({ config: config(), cachePath });
    assert.equal(init.cacheStatus, 'discarded');
    assert.ok(events.some((e) => e.type === 'log' && /discarded/.test(e.message)));
    const stats = await engine.reindex();
    assert.ok(stats.reread > 0);
    await engine.shutdown();
    const again = makeEngine();
    assert.equal((await again.engine.init({ config: config(), cachePath })).cacheStatus, 'loaded');
  });

  it('a fingerprint setting invalidates the cache; a threshold does not re-read', async () => {
    const { engine, fp } = makeEngine();
    await engine.init({ config: config(), cachePath });
    const first = await engine.reindex();
    const before = fp.read.length;

    // Thresholds: re-query only.
    await engine.setThresholds({ maxDistance: 0, sectionMaxDistance: 0, minSimilarity: 0.75 });
    const strict = engine.getReport();
    assert.equal(fp.read.length, before);
    assert.ok(strict.groups.every((g) => g.maxDistance === 0));
    assert.deepEqual(strict.thresholds, { maxDistance: 0, sectionMaxDistance: 0, minSimilarity: 0.75 });
    await engine.setThresholds({ maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 });
    const loose = engine.getReport();
    assert.equal(filePairs(loose).length, 2);

    // A changed include/exclude re-walks but re-reads nothing.
    const narrowed = await engine.reindex(config({ include: ['src/**'] }));
    assert.equal(narrowed.reread, 0);
    assert.deepEqual(filePairs(engine.getReport()), [['a-copy.ts', 'a.ts']]);

    // minTokens changes every fingerprint: everything is read again.
    settings = { ...settings, minTokens: 30 };
    const refp = await engine.reindex(config());
    assert.equal(refp.reread, first.reread);
    await engine.shutdown();
    const again = makeEngine();
    assert.equal((await again.engine.init({ config: config(), cachePath })).cacheStatus, 'loaded');
    settings = { ...settings, minTokens: 50 };
    assert.equal((await again.engine.init({ config: config(), cachePath })).cacheStatus, 'discarded');
    assert.notEqual(fingerprintKey(settings), fingerprintKey({ ...settings, sections: false }));
    assert.notEqual(fingerprintKey(settings), fingerprintKey({ ...settings, foldVariants: !settings.foldVariants }));
  });

  it('updates: save (upsert), create, delete, rename, ignored and excluded paths', async () => {
    const { engine, fp } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const copy = path.join(root, 'src/a-copy.ts');

    // Save a file with different content: its pair disappears; only it is read.
    fp.read = [];
    fs.writeFileSync(copy, codeB.replace(/export/g, 'function'));
    let r = await engine.update({ upserts: [copy], removes: [], renames: [] });
    assert.deepEqual(fp.read, [copy]);
    assert.equal(r.reread, 1);
    assert.ok(!filePairs(engine.getReport()).some((p) => p.includes('a.ts')));
    assert.deepEqual(filePairs(engine.getReport()).find((p) => p.includes('b.ts')), ['a-copy.ts', 'b.ts']);

    // Create: a third copy of a.ts.
    const third = write(root, 'src/deep/a3.ts', edited(codeA));
    r = await engine.update({ upserts: [third], removes: [], renames: [] });
    assert.deepEqual(filePairs(engine.getReport()).find((p) => p.includes('a.ts')), ['a.ts', 'a3.ts']);

    // Rename: moved without reading.
    fp.read = [];
    const renamed = path.join(root, 'src/deep/a4.ts');
    fs.renameSync(third, renamed);
    r = await engine.update({ upserts: [renamed], removes: [third], renames: [{ from: third, to: renamed }] });
    assert.equal(r.reread, 0);
    assert.deepEqual(fp.read, []);
    assert.deepEqual(filePairs(engine.getReport()).find((p) => p.includes('a.ts')), ['a.ts', 'a4.ts']);

    // Rename of a folder.
    const deep2 = path.join(root, 'src/deeper');
    fs.renameSync(path.join(root, 'src/deep'), deep2);
    r = await engine.update({ upserts: [], removes: [], renames: [{ from: path.join(root, 'src/deep'), to: deep2 }] });
    assert.equal(r.reread, 0);
    assert.ok(engine.getReport().items.some((i) => i.loc.path === path.join(deep2, 'a4.ts')));

    // Delete: gone from groups and items.
    fs.rmSync(path.join(deep2, 'a4.ts'));
    await engine.update({ upserts: [], removes: [path.join(deep2, 'a4.ts')], renames: [] });
    assert.ok(!engine.getReport().items.some((i) => i.loc.path.includes('a4.ts')));
    assert.ok(!filePairs(engine.getReport()).some((p) => p.includes('a.ts')));

    // Created in an ignored / excluded / files.exclude'd place: not indexed.
    fp.read = [];
    const ign = write(root, 'ignored/new.ts', codeA);
    const exc = write(root, 'excluded/new.ts', codeA);
    const hid = write(root, 'x/hidden/new.ts', codeA);
    const nm = write(root, 'node_modules/y/new.ts', codeA);
    await engine.update({ upserts: [ign, exc, hid, nm, path.join(tmp, 'outside.ts')], removes: [], renames: [] });
    assert.deepEqual(fp.read, []);

    // A new .gitignore rule re-walks and drops the newly ignored file.
    fs.appendFileSync(path.join(root, '.gitignore'), 'docs/guide-old.md\n');
    r = await engine.update({ upserts: [path.join(root, '.gitignore')], removes: [], renames: [] });
    assert.equal(r.rewalked, true);
    assert.ok(!engine.getReport().items.some((i) => i.loc.path.endsWith('guide-old.md')));

    // A folder that appears (moved in from outside) is walked.
    const outside = path.join(tmp, 'incoming');
    write(outside, 'b2.ts', edited(codeB));
    fs.renameSync(outside, path.join(root, 'incoming'));
    r = await engine.update({ upserts: [path.join(root, 'incoming')], removes: [], renames: [] });
    assert.equal(r.rewalked, true);
    assert.ok(filePairs(engine.getReport()).some((p) => p.includes('b2.ts')));
  });

  it('saveText: a saved document is indexed from its text (not read again); the watcher\'s echo changes nothing; odd files go the way of a file event', async () => {
    const { engine, fp, events } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const copy = path.join(root, 'src/a-copy.ts');
    const reports = () => events.filter((e) => e.type === 'report').length;

    // The pair leaves: only the text is fingerprinted, the file is not read; one report.
    fp.read = [];
    const other = codeB.replace(/export/g, 'function');
    fs.writeFileSync(copy, other);
    let before = reports();
    const saved = await engine.saveText(copy, other);
    assert.deepEqual(fp.read, []);
    assert.equal(fp.texts, 1);
    assert.equal(saved.reread, 1);
    assert.equal(reports(), before + 1);
    const st = fs.statSync(copy);
    assert.deepEqual([saved.size, saved.mtimeMs, saved.fromDisk], [st.size, st.mtimeMs, undefined]);
    assert.ok(!filePairs(engine.getReport()).some((p) => p.includes('a.ts')));
    assert.deepEqual(filePairs(engine.getReport()).find((p) => p.includes('b.ts')), ['a-copy.ts', 'b.ts']);

    // The watcher's event for the same write: nothing read, no report.
    before = reports();
    const echo = await engine.update({ upserts: [copy], removes: [], renames: [] });
    assert.deepEqual([echo.reread, fp.read.length, reports()], [0, 0, before]);

    // Two saves in a row (both may see the second one's mtime): the later text wins.
    const back = edited(codeA);
    fs.writeFileSync(copy, back);
    await Promise.all([engine.saveText(copy, other), engine.saveText(copy, back)]);
    assert.deepEqual(filePairs(engine.getReport()).find((p) => p.includes('a.ts')), ['a-copy.ts', 'a.ts']);
    assert.deepEqual(fp.read, []);

    // An excluded file and a file that is gone: as file events (read from disk, or removed).
    const excluded = write(root, 'excluded/b.ts', codeB);
    const r = await engine.saveText(excluded, codeB);
    assert.equal(r.fromDisk, true);
    assert.ok(!filePairs(engine.getReport()).some((p) => p.includes('b.ts') && p.length > 2));
    fs.rmSync(copy);
    const gone = await engine.saveText(copy, back);
    assert.equal(gone.fromDisk, true);
    assert.ok(!filePairs(engine.getReport()).some((p) => p.includes('a-copy.ts')));
  });

  it('report events carry only the items that changed; updates are matched incrementally', async () => {
    const { engine, events } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const reports = () => events.flatMap((e) => (e.type === 'report' ? [e.report] : []));
    const first = reports()[0];
    assert.equal(first.full, true);
    assert.equal(first.items.length, engine.getReport().items.length);
    const a = path.join(root, 'src/a.ts');
    const copy = path.join(root, 'src/a-copy.ts');
    fs.writeFileSync(copy, codeB.replace(/export/g, 'function'));
    const stats = await engine.update({ upserts: [copy], removes: [], renames: [] });
    assert.ok(stats.matchMs >= 0);
    const last = reports()[reports().length - 1];
    assert.equal(last.full, false);
    assert.ok(last.clearedPaths.includes(a), 'a.ts lost its twin');
    const paths = new Set(last.items.map((i) => i.loc.path));
    assert.ok(!paths.has(path.join(root, 'docs/guide.md')), 'unchanged files are not re-sent');
    assert.ok(paths.has(copy) && paths.has(path.join(root, 'src/b.ts')), 'a-copy.ts now pairs with b.ts');
    // A batch with no change sends no report.
    const n = reports().length;
    await engine.update({ upserts: [copy], removes: [], renames: [] });
    assert.equal(reports().length, n);
  });

  it('queryFile: twins of a file, of unsaved text, and clear statuses', async () => {
    const { engine, fp } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const a = path.join(root, 'src/a.ts');

    let q = await engine.query(a);
    assert.equal(q.status, 'ok');
    assert.equal(q.matches[0].kind, 'file');
    assert.equal(q.matches[0].other.path, path.join(root, 'src/a-copy.ts'));

    q = await engine.query(path.join(root, 'unique.ts'));
    assert.equal(q.status, 'ok');
    assert.deepEqual(q.matches.filter((m) => m.kind === 'file'), []);

    // Unsaved text of unique.ts that is now a copy of guide.md (a .md path would be prose; the
    // text is fingerprinted by the pool, not read from disk).
    const textsBefore = fp.texts;
    q = await engine.query(path.join(root, 'docs/other.md'), edited(proseA));
    assert.equal(fp.texts, textsBefore + 1);
    assert.equal(q.status, 'ok');
    assert.deepEqual(q.matches.filter((m) => m.kind === 'file').map((m) => path.basename(m.other.path)).sort(), ['guide-old.md', 'guide.md']);

    assert.equal((await engine.query(path.join(root, 'tiny.txt'))).status, 'tooSmall');
    assert.equal((await engine.query(path.join(root, 'excluded/a.ts'))).status, 'excluded');
    assert.equal((await engine.query(path.join(root, 'ignored/a.ts'))).status, 'excluded');
    assert.equal((await engine.query(path.join(tmp, 'elsewhere.ts'))).status, 'outside');
    assert.equal((await engine.query(path.join(root, 'image.png'))).status, 'skipped');
    await engine.reindex(config({ settings: { ...settings, maxFileSizeBytes: 1024 } }));
    assert.equal((await engine.query(a)).status, 'tooLarge');
    assert.equal((await engine.query(a, 'x'.repeat(2000))).status, 'tooLarge');
  });

  it('section twins in the query match the report', async () => {
    const rnd2 = mulberry32(9);
    const shared = codeFile(rnd2, 1);
    write(root, 'src/s1.ts', codeFile(rnd2, 3) + '\n' + shared);
    write(root, 'src/s2.ts', shared + '\n' + codeFile(rnd2, 3));
    const { engine } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const sectionGroup = engine.getReport().groups.find((g) => g.kind === 'section' && g.members.some((m) => m.path.endsWith('s1.ts')));
    assert.ok(sectionGroup, 'section group s1/s2');
    const q = await engine.query(path.join(root, 'src/s1.ts'));
    const m = q.matches.find((x) => x.kind === 'section' && x.other.path.endsWith('s2.ts'));
    assert.ok(m);
    const other = sectionGroup.members.find((x) => x.path.endsWith('s2.ts'))!;
    assert.deepEqual([m.other.startLine, m.other.endLine], [other.startLine, other.endLine]);
  });

  it('queryFile (live index) agrees with the report through a series of updates', async () => {
    const rnd2 = mulberry32(17);
    const shared = codeFile(rnd2, 1);
    const made: string[] = [];
    for (let i = 0; i < 12; i++) made.push(write(root, `gen/g${i}.ts`, codeFile(rnd2, 2) + (i % 3 === 0 ? '\n' + shared : '')));
    const { engine } = makeEngine();
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    /** The pairs of one file: from the report's items, and from a query. */
    const pairKey = (kind: string, a: string, b: string, d: number) => `${kind} ${a < b ? a : b} ${a < b ? b : a} ${d}`;
    const loc = (p: string, l: { startLine?: number; endLine?: number }) => (l.startLine === undefined ? p : `${p}:${l.startLine}-${l.endLine}`);
    const fromReport = (file: string) => {
      const out = new Set<string>();
      for (const item of engine.getReport().items) {
        if (item.loc.path !== file) continue;
        assert.equal(item.moreTwins, 0);
        for (const t of item.twins) out.add(pairKey(item.kind, loc(file, item.loc), loc(t.path, t), t.distance));
      }
      return [...out].sort();
    };
    const fromQuery = async (file: string) => {
      const q = await engine.query(file);
      assert.equal(q.status, 'ok');
      return q.matches.map((m) => pairKey(m.kind, loc(file, m.kind === 'section' ? m.self! : {}), loc(m.other.path, m.other), m.distance)).sort();
    };
    for (let round = 0; round < 8; round++) {
      // Edit one generated file into a near copy of another (or of a.ts), create or delete one.
      const target = made[Math.floor(rnd2() * made.length)];
      const src = round % 2 === 0 ? codeA : fs.readFileSync(made[(made.indexOf(target) + 1) % made.length], 'utf8');
      fs.writeFileSync(target, edited(src) + '\n' + codeFile(rnd2, 1));
      const created = write(root, `gen/new${round}.ts`, round % 3 === 0 ? shared + '\n' + codeFile(rnd2, 1) : edited(src));
      const gone = round > 0 ? path.join(root, `gen/new${round - 1}.ts`) : null;
      if (gone) fs.rmSync(gone);
      await engine.update({ upserts: [target, created], removes: gone ? [gone] : [], renames: [] });
      let nonEmpty = 0;
      for (const file of [path.join(root, 'src/a.ts'), path.join(root, 'src/a-copy.ts'), target, created, ...made.slice(0, 4)]) {
        const expected = fromReport(file);
        if (expected.length > 0) nonEmpty++;
        assert.deepEqual(await fromQuery(file), expected, `round ${round}: ${path.relative(root, file)}`);
      }
      assert.ok(nonEmpty >= 2, `round ${round}: some files have twins`);
    }
  });

  it('multi-root: pairs across folders; a file in two nested roots counts once', async () => {
    write(root2, 'copy-of-a.ts', edited(codeA));
    const { engine } = makeEngine();
    await engine.init({ config: config({ roots: [{ path: root, exclude: ['**/hidden'] }, { path: root2, exclude: [] }, { path: path.join(root, 'src'), exclude: [] }] }), cachePath: null });
    await engine.reindex();
    const group = engine.getReport().groups.find((g) => g.kind === 'file' && g.members.some((m) => m.path.endsWith('a.ts')));
    assert.ok(group);
    assert.deepEqual(group.members.map((m) => path.basename(m.path)).sort(), ['a-copy.ts', 'a.ts', 'copy-of-a.ts']);
  });

  it("multi-root: a folder's own include / exclude (its .neardup.json) replace the config's for that folder only, on the walk and on updates", async () => {
    write(root2, 'copy-of-a.ts', edited(codeA));
    write(root2, 'vendor/a.ts', codeA);
    const { engine, fp } = makeEngine();
    await engine.init({
      config: config({ roots: [{ path: root, exclude: ['**/hidden'], project: { include: ['src/**'] } }, { path: root2, exclude: [], project: { exclude: ['vendor/**'] } }] }),
      cachePath: null,
    });
    await engine.reindex();
    const read = fp.read.map((p) => path.relative(tmp, p).split(path.sep).join('/')).sort();
    // ws: only src/ (its include); ws2: everything but vendor/ (its exclude replaces 'excluded/**').
    assert.deepEqual(read, ['ws/src/a-copy.ts', 'ws/src/a.ts', 'ws/src/b.ts', 'ws2/copy-of-a.ts']);
    // A new file in ws2's excluded/ (excluded by the config, not by ws2's own list) is indexed on update.
    write(root2, 'excluded/a.ts', codeA);
    write(root, 'docs/new.md', proseA);
    await engine.update({ upserts: [path.join(root2, 'excluded/a.ts'), path.join(root, 'docs/new.md')], removes: [], renames: [] });
    const paths = new Set(engine.getReport().groups.flatMap((g) => g.members.map((m) => path.relative(tmp, m.path).split(path.sep).join('/'))));
    assert.ok(paths.has('ws2/excluded/a.ts'), [...paths].join(', '));
    assert.ok(!paths.has('ws/docs/new.md'), 'outside ws’s include');
  });

  it('cancel stops a running index; what was read is kept', async () => {
    for (let i = 0; i < 40; i++) write(root, `many/f${i}.ts`, codeFile(mulberry32(100 + i), 3));
    const fp = new InlineFingerprinter();
    fp.delayMs = 20;
    let cancelled: boolean | undefined;
    const engine: EngineState = new EngineState(
      fp,
      (e) => {
        // Cancel as soon as the first files are read.
        if (cancelled === undefined && e.type === 'progress' && e.phase === 'reading' && e.done > 0) cancelled = engine.cancel();
      },
      // (batches of 8 files: the 50 files are several batches, and cancel stops between them)
      { progressIntervalMs: 0, batchSize: 8 },
    );
    await engine.init({ config: config(), cachePath: null });
    const stats = await engine.reindex();
    assert.equal(cancelled, true);
    assert.equal(stats.cancelled, true);
    assert.ok(stats.reread > 0 && stats.reread < 50, `read ${stats.reread}`);
    assert.equal(engine.cancel(), false);
    fp.delayMs = 0;
    const resumed = await engine.reindex();
    assert.equal(resumed.cancelled, false);
    assert.equal(resumed.cacheHits, stats.reread);
  });

  it('a cancel after the reads stops nothing and says so: the job ends with its report, not cancelled', async () => {
    for (let i = 0; i < 20; i++) write(root, `late/f${i}.ts`, codeFile(mulberry32(300 + i), 3));
    const fp = new InlineFingerprinter();
    let cancelled: boolean | undefined;
    const engine: EngineState = new EngineState(
      fp,
      (e) => {
        // The reads are over once the job says it is matching.
        if (cancelled === undefined && e.type === 'progress' && e.phase === 'matching') cancelled = engine.cancel();
      },
      { progressIntervalMs: 0, batchSize: 8 },
    );
    await engine.init({ config: config(), cachePath: null });
    const stats = await engine.reindex();
    assert.equal(cancelled, false);
    assert.equal(stats.cancelled, false);
    assert.equal(stats.reread, fp.read.length);
    assert.ok(stats.reread >= 20, `read ${stats.reread}`);
  });

  it('a new reindex supersedes a running one', async () => {
    for (let i = 0; i < 30; i++) write(root, `many/f${i}.ts`, codeFile(mulberry32(200 + i), 3));
    const fp = new InlineFingerprinter();
    fp.delayMs = 20;
    let reading!: () => void;
    const started = new Promise<void>((r) => (reading = r));
    const engine = new EngineState(fp, (e) => e.type === 'progress' && e.phase === 'reading' && e.done > 0 && reading(), { progressIntervalMs: 0 });
    await engine.init({ config: config(), cachePath: null });
    const first = engine.reindex();
    await started;
    const second = engine.reindex(config({ include: ['src/**'] }));
    const third = engine.reindex(config({ include: ['docs/**'] })); // absorbed by the queued one
    assert.equal((await first).cancelled, true);
    assert.strictEqual(second, third);
    await second;
    assert.deepEqual(filePairs(engine.getReport()), [['guide-old.md', 'guide.md']]);
  });
  it('htmlScan (Export Report…): the index as a scan, paths relative to the folder — two folders: to their common parent — and its page holds every group with every pair side by side', async () => {
    write(root2, 'lib/b-copy.ts', edited(codeB));
    const { engine } = makeEngine();
    await engine.init({ config: config({ roots: [{ path: root, exclude: ['**/hidden'] }, { path: root2, exclude: [] }] }), cachePath });
    await engine.reindex();
    const report = engine.getReport();
    const { scan, thresholds, maxFileSizeBytes } = engine.htmlScan();
    assert.equal(scan.root, tmp);
    assert.equal(scan.pairs.length, report.pairs);
    assert.equal(scan.groups.length, report.groups.length);
    const paths = new Set(scan.pairs.flatMap((p) => [p.a.path, p.b.path]));
    assert.ok(paths.has('ws/src/a.ts') && paths.has('ws/src/a-copy.ts') && paths.has('ws2/lib/b-copy.ts'), [...paths].join(', '));
    assert.ok(scan.documents.every((d) => !path.isAbsolute(d.path) && !d.path.includes('\\')));
    assert.deepEqual(thresholds, { maxDistance: settings.maxDistance, sectionMaxDistance: settings.sectionMaxDistance, minSimilarity: settings.minSimilarity });
    const html = htmlReport(scan, { title: 'ws', thresholds, overviewScript: '', maxFileSizeBytes });
    assert.equal((html.match(/<details class="group"/g) ?? []).length, report.groups.length);
    assert.equal((html.match(/<table class="sbs">/g) ?? []).length, report.pairs, 'every pair read again and shown side by side');
    assert.ok(!html.includes(tmp), 'no absolute path in the page');
    // One folder: relative to it.
    const single = makeEngine();
    await single.engine.init({ config: config(), cachePath: path.join(tmp, 'storage2', 'fp.bin') });
    await single.engine.reindex();
    const one = single.engine.htmlScan().scan;
    assert.equal(one.root, root);
    assert.ok(one.pairs.some((p) => p.a.path === 'src/a.ts' || p.b.path === 'src/a.ts'));
  });
});
