import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineConfig, EngineEvent, ViewItem, ViewReport } from '../../../../../src/node/engine/engineProtocol';
import { EngineState, type Fingerprinter } from '../../../../../src/node/engine/engineState';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../../src/node/settings/engineSettings';
import type { FileOutcome, FileToFingerprint } from '../../../../../src/node/workers/fileOutcome';
import { fingerprintDecoded, fingerprintFileSync } from '../../../../../src/node/workers/fingerprintFile';
import { DocumentEntries } from '../../../../../src/node/engine/documentEntries';
import { EngineRegions } from '../../../../../src/node/engine/regions/engineRegions';
import { regionsHost } from '../../../../../src/node/engine/regions/regionsHost';
import { nativeKernel } from '../../../../../src/node/workers/nativeKernel';
import type { DocumentFingerprint } from '../../../../../src/core/types';
import type { ReportPair } from '../../../../../src/core/report/report';
import { itemsOfPath } from '../../../../../src/node/engine/reportView';

/** Fingerprints (and makes region documents) on the test's thread; records what it reads for regions. */
class InlineFingerprinter implements Fingerprinter {
  readonly size = 2;
  regionReads: string[] = [];
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    return files.map((f) => fingerprintFileSync(f, settings));
  }
  async regionDocuments(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    this.regionReads.push(...files.map((f) => f.path));
    return files.map((f) => fingerprintFileSync(f, settings, undefined, undefined, true));
  }
  async fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    return fingerprintDecoded(relPath, text, Buffer.byteLength(text), 'utf-8', settings);
  }
  async close(): Promise<void> {}
}

/** InlineFingerprinter that gives the region documents with the fingerprints when asked (as PoolFingerprinter does); records the files it was asked them for. */
class EarlyFingerprinter extends InlineFingerprinter {
  withRegions: string[] = [];
  override async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings, regions?: boolean): Promise<FileOutcome[]> {
    if (regions) this.withRegions.push(...files.map((f) => f.path));
    return files.map((f) => fingerprintFileSync(f, settings, undefined, undefined, regions === true));
  }
}

const SRC = path.join(__dirname, '../../../../../src');
const source = (rel: string) => fs.readFileSync(path.join(SRC, rel), 'utf8');
const lines = (text: string, from: number, to: number) => text.split('\n').slice(from, to).join('\n');

describe('EngineState: located copies (neardup.locate)', function () {
  this.timeout(60000);
  let root: string;
  const settings = { ...DEFAULT_ENGINE_SETTINGS };
  const config = (over: Partial<EngineConfig> = {}): EngineConfig => ({ settings, include: [], exclude: [], roots: [{ path: root, exclude: [] }], ...over });
  // Real code of this repository: a block of groups.ts pasted into a host that is otherwise different.
  const host = source('core/regions/anchors.ts');
  const block = lines(source('core/regions/groups.ts'), 20, 50);
  const pasted = () => {
    const l = host.split('\n');
    l.splice(30, 0, ...block.split('\n'));
    return l.join('\n');
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-engine-'));
    fs.writeFileSync(path.join(root, 'groups.ts'), source('core/regions/groups.ts'));
    fs.writeFileSync(path.join(root, 'host.ts'), pasted());
    fs.writeFileSync(path.join(root, 'other.ts'), source('core/regions/chain.ts'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The located twins of host.ts's items: [host lines, other file and lines]. */
  const locatedOf = (items: ViewItem[]) =>
    items
      .filter((i) => path.basename(i.loc.path) === 'host.ts')
      .flatMap((i) => i.twins.filter((t) => t.clone && path.basename(t.path) === 'groups.ts' && t.endLine! - t.startLine! > 20).map((t) => `${i.loc.startLine}-${i.loc.endLine} ${path.basename(t.path)}:${t.startLine}-${t.endLine} ${t.clone}`));

  it('a pasted block: one item per place with the other place as twin, a group; editing the copy away removes it', async () => {
    const fp = new InlineFingerprinter();
    const events: EngineEvent[] = [];
    const engine = new EngineState(fp, (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    let report: ViewReport = engine.getReport();
    assert.deepEqual(locatedOf(report.items), ['31-60 groups.ts:21-50 exact'], JSON.stringify(report.items.map((i) => [i.loc, i.twins])));
    const group = report.groups.find((g) => g.located && g.members.some((m) => path.basename(m.path) === 'host.ts' && m.startLine === 31));
    assert.ok(group, 'a group of the copied block');
    const places = group.members.map((m) => `${path.basename(m.path)}:${m.startLine}-${m.endLine}`);
    // Shorter look-alikes inside a place join its group (core/regions/groups.ts), as in the CLI.
    assert.ok(places.includes('groups.ts:21-50') && places.includes('host.ts:31-60'), places.join(' '));
    // The other side has the mirror item.
    assert.ok(report.items.some((i) => path.basename(i.loc.path) === 'groups.ts' && i.loc.startLine === 21 && i.twins.some((t) => path.basename(t.path) === 'host.ts' && t.startLine === 31)));

    // The copy edited away: a file event; only the changed file and its partners are read again.
    fp.regionReads = [];
    fs.writeFileSync(path.join(root, 'host.ts'), host);
    await engine.update({ upserts: [path.join(root, 'host.ts')], removes: [], renames: [] });
    report = engine.getReport();
    assert.deepEqual(locatedOf(report.items), []);
    assert.ok(!report.groups.some((g) => g.located && g.members.some((m) => path.basename(m.path) === 'host.ts' && m.startLine === 31)));
    assert.ok(fp.regionReads.includes(path.join(root, 'host.ts')));

    // Pasted again: back (the events carried the change too).
    const before = events.length;
    fs.writeFileSync(path.join(root, 'host.ts'), pasted());
    await engine.update({ upserts: [path.join(root, 'host.ts')], removes: [], renames: [] });
    assert.deepEqual(locatedOf(engine.getReport().items), ['31-60 groups.ts:21-50 exact']);
    const sent = events.slice(before).flatMap((e) => (e.type === 'report' ? e.report.items : []));
    assert.deepEqual(locatedOf(sent), ['31-60 groups.ts:21-50 exact'], 'the report event carries the new items');

    // neardup.locate off: gone; on again: back.
    await engine.reindex(config({ locate: false }));
    assert.deepEqual(locatedOf(engine.getReport().items), []);
    assert.ok(!engine.getReport().groups.some((g) => g.located));
    await engine.reindex(config({ locate: true }));
    assert.deepEqual(locatedOf(engine.getReport().items), ['31-60 groups.ts:21-50 exact']);
    await engine.shutdown();
  });

  it('a save: its SimHash report at once, the located copies in a second report; nothing stale shows alone in between', async () => {
    const events: EngineEvent[] = [];
    const engine = new EngineState(new InlineFingerprinter(), (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0 });
    const copy = path.join(root, 'copy.ts');
    fs.writeFileSync(copy, source('core/regions/chain.ts')); // other.ts's twin
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const reports = (from: number) => events.slice(from).flatMap((e) => (e.type === 'report' ? [e.report] : []));
    // A located group linking copy.ts with another file (other.ts) — not a repeat inside copy.ts
    // itself: the test's files are this repository's sources, which may repeat themselves.
    const aloneWithCopy = (r: ViewReport) => r.groups.some((g) => g.located && g.members.some((m) => m.path === copy) && g.members.some((m) => m.path !== copy));
    const filePair = (r: ViewReport) => r.groups.some((g) => !g.located && g.members.some((m) => m.path === copy));
    assert.ok(filePair(engine.getReport()) && !aloneWithCopy(engine.getReport()), JSON.stringify(engine.getReport().groups.map((g) => [g.located, g.members.map((m) => [m.path, m.startLine])])));

    // A line added above the pasted block: the first report keeps the located copy where it was
    // (not lost while the partners are read again), the second one moves it.
    const groupsOf = (r: ViewReport) => r.groups.map((g) => `${g.located ? 'located ' : ''}${g.members.map((m) => `${path.basename(m.path)}:${m.startLine}-${m.endLine}`).join(' ')}`);
    const groupsBefore = groupsOf(engine.getReport());
    let from = events.length;
    const host = path.join(root, 'host.ts');
    const moved = `// one line more\n${pasted()}`;
    fs.writeFileSync(host, moved);
    await engine.saveText(host, moved);
    let sent = reports(from);
    assert.equal(sent.length, 2, 'two reports');
    assert.equal(sent[0].lastJob?.reread, 1);
    assert.equal(sent[1].lastJob?.reread, 0, 'the located copies read no file more');
    assert.deepEqual(locatedOf(sent[0].items), ['31-60 groups.ts:21-50 exact'], 'the first report: as it was');
    const locatedGroups = (g: string[]) => g.filter((x) => x.startsWith('located '));
    assert.deepEqual(locatedGroups(groupsOf(sent[0])), locatedGroups(groupsBefore), 'its located groups as they were (kept, not made again)');
    assert.ok(groupsOf(sent[0]).includes('groups.ts:21-39 host.ts:32-50'), 'its SimHash groups new');
    assert.ok(groupsOf(sent[1]).some((g) => g.startsWith('located ') && g.includes('host.ts:32-61')), groupsOf(sent[1]).join(' | '));
    assert.deepEqual(locatedOf(sent[1].items), ['32-61 groups.ts:21-50 exact'], 'the second: found again');

    // The copy's text replaced: its file pair leaves in the first report, and its located pair
    // (whole-file, shown on the file pair) does not show as a group of its own in between.
    from = events.length;
    const unique = Array.from({ length: 60 }, (_, i) => `export const entry${i} = table${i % 7}.lookup('${(i * 7919) % 1000}', ${i * 31});`).join('\n');
    fs.writeFileSync(copy, unique);
    await engine.saveText(copy, unique);
    sent = reports(from);
    assert.ok(sent.length >= 1);
    for (const r of sent) assert.ok(!filePair(r) && !aloneWithCopy(r), JSON.stringify(r.groups.filter((g) => g.members.some((m) => m.path === copy))));
    assert.ok(!aloneWithCopy(engine.getReport()) && !filePair(engine.getReport()));

    // The groups kept from report to report (only the touched files' located pairs placed again)
    // are those of a fresh index of the same files; after a copy's file pair comes back too.
    fs.writeFileSync(copy, source('core/regions/chain.ts'));
    await engine.saveText(copy, source('core/regions/chain.ts'));
    const fresh = new EngineState(new InlineFingerprinter(), () => undefined, { saveDelayMs: 10, progressIntervalMs: 0 });
    await fresh.init({ config: config(), cachePath: null });
    await fresh.reindex();
    assert.ok(filePair(engine.getReport()));
    assert.deepEqual(groupsOf(engine.getReport()), groupsOf(fresh.getReport()));
    await fresh.shutdown();
    await engine.shutdown();
  });

  it("the first full build takes the documents read with the fingerprints: no file read twice, the view of reading them again", async () => {
    const viewOf = async (fp: InlineFingerprinter, regionsMaxBytes?: number) => {
      const engine = new EngineState(fp, () => undefined, { saveDelayMs: 10, progressIntervalMs: 0, ...(regionsMaxBytes ? { regionsMaxBytes } : {}) });
      await engine.init({ config: config(), cachePath: null });
      await engine.reindex();
      const view = JSON.stringify(engine.getReport(), (k, v) => (k === 'elapsedMs' || k === 'matchMs' || k === 'createdAt' ? 0 : v));
      return { engine, view };
    };
    const files = ['groups.ts', 'host.ts', 'other.ts'].map((f) => path.join(root, f)).sort();
    const again = new InlineFingerprinter();
    const reference = await viewOf(again);
    assert.deepEqual([...again.regionReads].sort(), files, 'read again for the region index');
    await reference.engine.shutdown();

    const early = new EarlyFingerprinter();
    const { engine, view } = await viewOf(early);
    assert.deepEqual([...early.withRegions].sort(), files, 'asked with the fingerprints');
    assert.equal(early.regionReads.length, 0, 'none read again');
    assert.equal(view, reference.view);
    assert.deepEqual(locatedOf(engine.getReport().items), ['31-60 groups.ts:21-50 exact']);
    // Built: the next index (nothing changed) asks for no document; a change reads its file again.
    early.withRegions = [];
    await engine.reindex();
    assert.equal(early.withRegions.length + early.regionReads.length, 0, 'nothing asked for, nothing read again');
    fs.writeFileSync(path.join(root, 'host.ts'), `// moved\n${pasted()}`);
    await engine.reindex();
    assert.equal(early.withRegions.length, 0, 'not asked for an update of the index');
    assert.ok(early.regionReads.includes(path.join(root, 'host.ts')));
    assert.deepEqual(locatedOf(engine.getReport().items), ['32-61 groups.ts:21-50 exact']);
    await engine.shutdown();

    // Text over the limit (no index): none asked for.
    const over = new EarlyFingerprinter();
    const small = await viewOf(over, 1000);
    assert.equal(over.withRegions.length + over.regionReads.length, 0, 'nothing asked for, nothing read');
    await small.engine.shutdown();
  });

  it("a full build of files the job does not read (a warm start): their documents read while the job's thread makes its SimHash report", async () => {
    const fp = new EarlyFingerprinter();
    const events: EngineEvent[] = [];
    const reports = () => events.filter((e) => e.type === 'report').length;
    const readAt: number[] = [];
    const read = fp.regionDocuments.bind(fp);
    fp.regionDocuments = (files, s) => {
      readAt.push(reports());
      return read(files, s);
    };
    const engine = new EngineState(fp, (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: config({ locate: false }), cachePath: null });
    await engine.reindex();
    assert.equal(fp.withRegions.length + fp.regionReads.length, 0, 'located copies off: no documents');
    // Turned on: the files are fingerprinted already (not read by the job), their documents are.
    const before = reports();
    await engine.reindex(config({ locate: true }));
    assert.equal(fp.withRegions.length, 0);
    assert.deepEqual([...fp.regionReads].sort(), ['groups.ts', 'host.ts', 'other.ts'].map((f) => path.join(root, f)));
    assert.ok(readAt.length > 0 && readAt.every((n) => n === before), `read before the job's first report: ${readAt.join(' ')} (${before} before)`);
    assert.ok(reports() >= before + 2, 'its SimHash report, then its located copies');
    assert.deepEqual(locatedOf(engine.getReport().items), ['31-60 groups.ts:21-50 exact']);
    await engine.shutdown();
  });

  it('an update reads a partner again only when it changed: the partners read for one save are kept for the next (a bounded cache)', async () => {
    const fp = new InlineFingerprinter();
    const engine = new EngineState(fp, () => undefined, { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    const host = path.join(root, 'host.ts');
    const partner = path.join(root, 'groups.ts');
    const save = async (file: string, text: string) => {
      fs.writeFileSync(file, text);
      fp.regionReads = [];
      await engine.saveText(file, text);
      return fp.regionReads.map((p) => path.basename(p)).sort();
    };
    const first = await save(host, `// 1\n${pasted()}`);
    assert.ok(first.includes('groups.ts') && first.includes('host.ts'), `the first save reads its partners: ${first.join(' ')}`);
    assert.deepEqual(await save(host, `// 2\n${pasted()}`), ['host.ts'], 'the next one does not');
    assert.deepEqual(locatedOf(engine.getReport().items), ['32-61 groups.ts:21-50 exact']);
    // The partner changed on disk (size and mtime): read again.
    const grown = `${source('core/regions/groups.ts')}\n// grown\n`;
    fs.writeFileSync(partner, grown);
    await engine.update({ upserts: [partner], removes: [], renames: [] });
    assert.ok(fp.regionReads.some((p) => path.basename(p) === 'groups.ts'));
    const stats = (engine as unknown as { regions: { stats(): { keptDocs: number; keptDocBytes: number } } }).regions.stats();
    assert.ok(stats.keptDocs >= 2 && stats.keptDocBytes > 0 && stats.keptDocBytes <= 24 * 1024 * 1024, JSON.stringify(stats));
    await engine.shutdown();
  });

  it('regionThreads: the kernel\'s bucket search on 1 or 3 threads gives the same view, full build and update', async () => {
    const views: string[] = [];
    for (const regionThreads of [1, 3]) {
      const engine = new EngineState(new InlineFingerprinter(), () => undefined, { saveDelayMs: 10, progressIntervalMs: 0, regionThreads });
      await engine.init({ config: config(), cachePath: null });
      await engine.reindex();
      const built = engine.getReport();
      fs.writeFileSync(path.join(root, 'host2.ts'), pasted());
      await engine.update({ upserts: [path.join(root, 'host2.ts')], removes: [], renames: [] });
      const updated = engine.getReport();
      fs.rmSync(path.join(root, 'host2.ts'));
      const view = (r: ViewReport) => JSON.stringify({ items: r.items.map((i) => [path.basename(i.loc.path), i.loc.startLine, i.loc.endLine, i.twins.map((t) => [path.basename(t.path), t.startLine, t.endLine, t.clone])]), groups: r.groups.length });
      assert.ok(locatedOf(built.items).length > 0);
      views.push(`${view(built)}\n${view(updated)}`);
      await engine.shutdown();
    }
    assert.equal(views[1], views[0]);
  });

  it('over regionsMaxBytes: none located, and the host told once', async () => {
    const events: EngineEvent[] = [];
    const engine = new EngineState(new InlineFingerprinter(), (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0, regionsMaxBytes: 1000 });
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
    await engine.reindex();
    assert.deepEqual(locatedOf(engine.getReport().items), []);
    const off = events.filter((e) => e.type === 'regionsOff');
    assert.equal(off.length, 1);
    assert.equal((off[0] as Extract<EngineEvent, { type: 'regionsOff' }>).maxBytes, 1000);
    await engine.shutdown();
  });
  it('a SimHash section pair two located copies split leaves the view with its group, as in the CLI (neighbouring copies)', async () => {
    // test/fixtures/split-section: b.md holds the two paragraph runs of a.md's "Notes" section
    // without the sentence a.md has between them: one look-alike section pair (a.md 26-52 ~
    // b.md 37-61), two copies (26-36 ~ 37-47, 40-52 ~ 49-61); `neardup scan --locate` reports the two.
    const fixture = path.join(__dirname, '../../../../fixtures/split-section');
    for (const f of ['a.md', 'b.md']) fs.copyFileSync(path.join(fixture, f), path.join(root, f));
    for (const f of ['groups.ts', 'host.ts', 'other.ts']) fs.rmSync(path.join(root, f));
    const twinsOf = (report: ViewReport) =>
      report.items
        .filter((i) => path.basename(i.loc.path) === 'a.md')
        .flatMap((i) => i.twins.map((t) => `${i.loc.startLine}-${i.loc.endLine} ${path.basename(t.path)}:${t.startLine}-${t.endLine}${t.clone ? ` ${t.clone}` : ''}`))
        .sort();
    const sectionGroups = (report: ViewReport) =>
      report.groups.filter((g) => g.kind === 'section').map((g) => `${g.located ? 'located ' : ''}${g.members.map((m) => `${path.basename(m.path)}:${m.startLine}-${m.endLine}`).join(' ')}`);
    const engine = new EngineState(new InlineFingerprinter(), () => {}, { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: config({ locate: false }), cachePath: null });
    await engine.reindex();
    // Without located copies: the SimHash section pair and its group.
    assert.deepEqual(twinsOf(engine.getReport()), ['26-52 b.md:37-61 edited']);
    assert.deepEqual(sectionGroups(engine.getReport()), ['a.md:26-52 b.md:37-61']);
    await engine.reindex(config({ locate: true }));
    let report = engine.getReport();
    assert.deepEqual(twinsOf(report), ['26-36 b.md:37-47 exact', '40-52 b.md:49-61 exact'], JSON.stringify(report.items));
    assert.deepEqual(sectionGroups(report).sort(), ['located a.md:26-36 b.md:37-47', 'located a.md:40-52 b.md:49-61']);

    // A save of a.md (the incremental placing): the same; the sentence removed, one copy that the section says.
    await engine.update({ upserts: [path.join(root, 'a.md')], removes: [], renames: [] });
    assert.deepEqual(twinsOf(engine.getReport()), ['26-36 b.md:37-47 exact', '40-52 b.md:49-61 exact']);
    assert.deepEqual(sectionGroups(engine.getReport()).sort(), ['located a.md:26-36 b.md:37-47', 'located a.md:40-52 b.md:49-61']);
    const text = fs.readFileSync(path.join(root, 'a.md'), 'utf8').split('\n');
    fs.writeFileSync(path.join(root, 'a.md'), [...text.slice(0, 36), ...text.slice(38)].join('\n'));
    await engine.update({ upserts: [path.join(root, 'a.md')], removes: [], renames: [] });
    report = engine.getReport();
    assert.ok(!twinsOf(report).some((t) => t.startsWith('40-52')), twinsOf(report).join(' | '));
    assert.ok(sectionGroups(report).every((g) => g.split(' ').length === 2 && !g.includes('40-52')), sectionGroups(report).join(' | '));
    await engine.shutdown();
  });
});

describe('EngineState: the located copies kept between sessions (regions/regionCache.ts)', function () {
  this.timeout(60000);
  it('a warm start reads no file for them and shows what the last session did; a file changed meanwhile is read again with its partners, as a cold start over the new files shows', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-region-cache-engine-'));
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-region-cache-storage-'));
    try {
      const block = lines(source('core/regions/groups.ts'), 20, 50);
      const host = source('core/regions/anchors.ts');
      const pasted = () => {
        const l = host.split('\n');
        l.splice(30, 0, ...block.split('\n'));
        return l.join('\n');
      };
      fs.writeFileSync(path.join(root, 'groups.ts'), source('core/regions/groups.ts'));
      fs.writeFileSync(path.join(root, 'host.ts'), pasted());
      fs.writeFileSync(path.join(root, 'other.ts'), `${source('core/regions/chain.ts')}\n${lines(source('core/regions/anchors.ts'), 60, 90)}\n`);
      for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(root, `unit${i}.ts`), `export function unit${i}(v: number): number {\n  return v * ${i + 3} + ${i * 7};\n}\n`);
      const cachePath = path.join(storage, 'fingerprints.bin');
      const config: EngineConfig = { settings: { ...DEFAULT_ENGINE_SETTINGS }, include: [], exclude: [], roots: [{ path: root, exclude: [] }] };
      const view = (r: ViewReport) => JSON.stringify({ items: r.items, groups: r.groups, pairs: r.pairs });
      const session = async (cache: string | null) => {
        const fp = new InlineFingerprinter();
        const logs: string[] = [];
        const engine = new EngineState(fp, (e) => e.type === 'log' && logs.push(e.message), { saveDelayMs: 3600e3, progressIntervalMs: 0 });
        await engine.init({ config, cachePath: cache });
        await engine.reindex();
        const report = engine.getReport();
        await engine.shutdown(); // (the caches written)
        return { reads: fp.regionReads.map((p) => path.basename(p)), report, logs };
      };

      const cold = await session(cachePath);
      assert.ok(cold.report.groups.some((g) => g.located), 'located copies found');
      assert.ok(fs.existsSync(`${cachePath}.regions`), 'the region cache written at shutdown');
      const warm = await session(cachePath);
      assert.deepEqual(warm.reads, [], 'a warm start reads no file for its located copies');
      assert.equal(view(warm.report), view(cold.report));
      assert.deepEqual(warm.logs.filter((m) => /region cache/.test(m)), []);

      // The copy edited away while no session ran: that file and its partners read, the rest not.
      const t = Date.now() / 1000 + 100;
      fs.writeFileSync(path.join(root, 'host.ts'), host);
      fs.utimesSync(path.join(root, 'host.ts'), t, t);
      const changed = await session(cachePath);
      assert.ok(changed.reads.includes('host.ts'), changed.reads.join(' '));
      assert.ok(!changed.reads.some((p) => p.startsWith('unit')), `files sharing nothing with it are not read: ${changed.reads.join(' ')}`);
      const fresh = await session(null);
      assert.equal(view(changed.report), view(fresh.report), 'the same as a start without caches');
      const joins = (r: ViewReport, x: string, y: string) => r.groups.some((g) => g.located && g.members.some((m) => path.basename(m.path) === x) && g.members.some((m) => path.basename(m.path) === y));
      assert.ok(joins(cold.report, 'host.ts', 'groups.ts') && !joins(changed.report, 'host.ts', 'groups.ts'), 'its copy is gone');

      // A damaged region cache: told once, the index built from the files, the same view.
      fs.writeFileSync(`${cachePath}.regions`, 'NDRC damaged');
      const damaged = await session(cachePath);
      assert.ok(damaged.logs.some((m) => /region cache discarded \(/.test(m)), damaged.logs.join(' | '));
      assert.ok(damaged.reads.length >= 15, 'every file read for the index');
      assert.equal(view(damaged.report), view(fresh.report));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});

describe("EngineReport: a located step's view of many files takes their pairs from one merge of every located pair", function () {
  this.timeout(60000);
  it('each file then has the items its own merge gives (file pairs with regions, split section pairs, copies that stand alone), after a full build and after saves', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-merged-view-'));
    try {
      // 48 files of this repository's code with blocks of one another pasted in (located section
      // pairs), some whole copies with a block added (file pairs that carry regions), and
      // neighbouring blocks pasted together (SimHash section pairs the located ones split).
      const sources = ['core/regions/groups.ts', 'core/regions/chain.ts', 'core/regions/anchors.ts', 'core/regions/align.ts', 'core/report/compare.ts', 'core/report/report.ts'].map(source);
      const block = (k: number) => lines(sources[k % sources.length], 10 + ((k * 13) % 40), 40 + ((k * 13) % 40));
      const files: string[] = [];
      for (let i = 0; i < 48; i++) {
        const f = path.join(root, `f${i}.ts`);
        const host = sources[i % sources.length].split('\n');
        const text = i % 8 === 0 ? [...host, block(i + 1)] : [...host.slice(0, 30), block(i + 2), block(i + 3), ...host.slice(30 + (i % 5) * 7)];
        fs.writeFileSync(f, text.join('\n'));
        files.push(f);
      }
      const engine = new EngineState(new InlineFingerprinter(), () => undefined, { saveDelayMs: 3600e3, progressIntervalMs: 0 });
      await engine.init({ config: { settings: { ...DEFAULT_ENGINE_SETTINGS }, include: [], exclude: [], roots: [{ path: root, exclude: [] }] }, cachePath: null });
      type Inside = {
        regions: EngineRegions & { pairsOf: EngineRegions['pairsOf'] };
        report: { matcher: { pairsOf(p: string): ReportPair[] }; views: { itemsOf(p: string): ViewItem[] | undefined } };
      };
      const inside = engine as unknown as Inside;
      // (the files' own merges counted: a located step of many files makes none)
      const ownMerge = inside.regions.pairsOf.bind(inside.regions);
      let ownMerges = 0;
      inside.regions.pairsOf = (p, simhash) => (ownMerges++, ownMerge(p, simhash));
      const check = (what: string) => {
        let located = 0;
        for (const f of files) {
          const own = itemsOfPath(f, ownMerge(f, inside.report.matcher.pairsOf(f)));
          assert.deepEqual(inside.report.views.itemsOf(f) ?? [], own, `${what}: ${path.basename(f)}`);
          located += own.filter((i) => i.twins.some((t) => t.clone)).length;
        }
        return located;
      };
      await engine.reindex();
      assert.equal(ownMerges, 0, 'the full build: no file merged on its own');
      assert.ok(check('full build') > 48, 'located items in most files');
      const report = engine.getReport();
      assert.ok(report.groups.some((g) => g.located) && report.items.some((i) => i.kind === 'file' && i.twins.length > 0), 'located groups and file pairs');
      // Saves: one file (few touched: merged file by file) and many at once (one merge).
      let t = Date.now() / 1000;
      const save = async (list: string[], edit: (text: string, i: number) => string) => {
        t += 10;
        for (const [i, f] of list.entries()) {
          fs.writeFileSync(f, edit(fs.readFileSync(f, 'utf8'), i));
          fs.utimesSync(f, t, t);
        }
        await engine.update({ upserts: list, removes: [], renames: [] });
      };
      await save([files[3]], (text) => `${text}\n${block(7)}\n`);
      check('one save');
      await save(files.slice(0, 40), (text, i) => (i % 2 ? text.split('\n').slice(25).join('\n') : `${block(i + 5)}\n${text}`));
      check('40 files saved');
      await engine.shutdown();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('EngineRegions: a step compares the files changed since the last one, not every file', function () {
  this.timeout(60000);
  it('one save: that file looked at and read again, no list of all files; cleared entries: compared in full; a deletion and a file set again unchanged', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-regions-step-'));
    try {
      const settings = { ...DEFAULT_ENGINE_SETTINGS };
      const block = lines(source('core/regions/groups.ts'), 20, 50);
      const files = { groups: path.join(root, 'groups.ts'), host: path.join(root, 'host.ts'), other: path.join(root, 'other.ts') };
      fs.writeFileSync(files.groups, source('core/regions/groups.ts'));
      fs.writeFileSync(files.host, `${source('core/regions/anchors.ts')}\n${block}\n`);
      fs.writeFileSync(files.other, source('core/regions/chain.ts'));
      const entries = new DocumentEntries<{ size: number; mtimeMs: number; doc: DocumentFingerprint | null }>();
      const put = (file: string, mtimeMs: number) => {
        const o = fingerprintFileSync({ path: file, relPath: file }, settings);
        entries.set(file, { size: fs.statSync(file).size, mtimeMs, doc: o.ok ? o.doc : null });
      };
      const fp = new InlineFingerprinter();
      const real = regionsHost(entries, fp, () => settings, () => undefined, { files: 8 });
      let listed = 0;
      let looked = 0;
      const regions = new EngineRegions(
        { ...real, paths: () => (listed++, real.paths()), sigOf: (p) => (looked++, real.sigOf(p)) },
        nativeKernel() ?? undefined,
      );
      regions.configure(true);
      for (const f of Object.values(files)) put(f, 1);
      assert.equal(entries.bytes, Object.values(files).reduce((n, f) => n + fs.statSync(f).size, 0));
      // 200 more files, unlike each other: a step that compared every file would look at them all.
      const units: string[] = [];
      for (let i = 0; i < 200; i++) {
        const f = path.join(root, `unit${i}.ts`);
        units.push(f);
        fs.writeFileSync(f, `export function unit${i}(v${i}: number): number {\n  return v${i} * ${i + 7} + ${(i * 7919) % 1000};\n}\n`);
        put(f, 1);
      }
      assert.equal(await regions.step(), true, 'the first step builds the index');
      assert.ok(listed > 0);
      const pairs = () => regions.allPairs([]).map((x) => `${path.basename(x.a.path)} ${path.basename(x.b.path)}`);
      assert.ok(pairs().includes('groups.ts host.ts') || pairs().includes('host.ts groups.ts'), pairs().join(' | '));
      regions.takeTouched();

      // One file saved (a new mtime): looked at alone, read again; the paths of all files are not listed.
      listed = looked = 0;
      fp.regionReads = [];
      fs.writeFileSync(files.host, source('core/regions/anchors.ts'));
      put(files.host, 2);
      assert.equal(await regions.step(), true);
      assert.equal(listed, 0, 'no list of every file');
      assert.ok(looked < 20, `signatures looked at: ${looked} (of ${entries.docs.size} files)`);
      assert.ok(fp.regionReads.includes(files.host));
      assert.ok(!pairs().some((x) => x.includes('host.ts') && x.includes('groups.ts')), `the copy is gone: ${pairs().join(' | ')}`);
      assert.ok(regions.takeTouched()?.has(files.host));

      // Set again with the same size and mtime: nothing to do, nothing read.
      fp.regionReads = [];
      put(files.other, 1);
      assert.equal(await regions.step(), false);
      assert.deepEqual(fp.regionReads, []);

      // Cleared and filled again with the same signatures (a cache loaded): compared in full, nothing read.
      entries.clear();
      assert.equal(entries.bytes, 0);
      put(files.groups, 1);
      put(files.host, 2);
      put(files.other, 1);
      for (const f of units) put(f, 1);
      listed = 0;
      assert.equal(await regions.step(), false);
      assert.ok(listed > 0, 'compared in full');
      assert.deepEqual(fp.regionReads, []);

      // Pasted again, then the partner deleted: the pair comes, then goes with it.
      fs.writeFileSync(files.host, `${source('core/regions/anchors.ts')}\n${block}\n`);
      put(files.host, 3);
      await regions.step();
      assert.ok(pairs().some((x) => x.includes('host.ts') && x.includes('groups.ts')), `pasted again: ${pairs().join(' | ')}`);
      entries.delete(files.groups);
      assert.equal(await regions.step(), true);
      assert.ok(!pairs().some((x) => x.includes('groups.ts')), pairs().join(' | '));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
