import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineConfig, EngineEvent, ViewGroup, ViewItem, ViewReport } from '../../../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { EngineSupervisor } from '../../../../src/node/engine/engineSupervisor';
import { ReportAssembler, splitReport } from '../../../../src/node/engine/reportParts';
import { codeFile, editLines, mulberry32 } from '../../helpers/corpus';
import { buildEngineWorkers } from '../../helpers/engineBundle';
import { canonReport, writeFileAt } from '../../helpers/engineFixtures';

function report(groups: number, items: number, cleared: number, generation = 7, full = false): ViewReport {
  const member = (i: number, j: number) => ({ path: `/w/g${i}/m${j}.ts`, distance: j, similarity: 1 - j / 64 });
  const g: ViewGroup[] = Array.from({ length: groups }, (_, i) => ({ kind: 'file', key: `k${i}`, maxDistance: 3, members: [0, 1, 2].map((j) => member(i, j)) }));
  const it: ViewItem[] = Array.from({ length: items }, (_, i) => ({
    kind: i % 3 === 0 ? 'section' : 'file',
    loc: { path: `/w/f${Math.floor(i / 2)}.ts`, startLine: i % 2 ? 10 : undefined, endLine: i % 2 ? 40 : undefined },
    twins: [{ path: `/w/t${i}.ts`, distance: 2, similarity: 0.97 }],
    moreTwins: 0,
  }));
  return {
    generation,
    createdAt: 1,
    files: 1000,
    sections: 20,
    pairs: 5,
    groups: g,
    items: it,
    clearedPaths: Array.from({ length: cleared }, (_, i) => `/w/gone${i}.ts`),
    full,
    thresholds: { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75 },
    lastJob: null,
  };
}

const weight = (e: EngineEvent) => {
  if (e.type !== 'report' && e.type !== 'reportPart') return 0;
  const p = e.type === 'report' ? e.report : e;
  return p.groups.reduce((s, g) => s + 1 + g.members.length, 0) + p.items.reduce((s, i) => s + 1 + i.twins.length, 0) + p.clearedPaths.length;
};

describe('report parts (a large report crosses to the host in bounded messages)', () => {
  it('a small report is one report event, unchanged', () => {
    const r = report(3, 4, 2);
    const events = splitReport(r, 100);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0], { type: 'report', report: r });
    const a = new ReportAssembler();
    assert.deepEqual(a.add(events[0]), r);
  });

  it('a large report: parts of at most the weight, in order; put together it is the same report', () => {
    const r = report(700, 1500, 300);
    const events = splitReport(r, 500);
    assert.ok(events.length > 10, `${events.length} messages`);
    for (const e of events) assert.ok(weight(e) <= 500, `a message of weight ${weight(e)}`);
    assert.equal(events.filter((e) => e.type === 'report').length, 1);
    assert.equal(events[events.length - 1].type, 'report');
    const last = events[events.length - 1] as Extract<EngineEvent, { type: 'report' }>;
    assert.equal(last.parts, events.length - 1);
    const a = new ReportAssembler();
    let whole: ReturnType<ReportAssembler['add']>;
    for (const e of events) whole = a.add(e as Extract<EngineEvent, { type: 'report' | 'reportPart' }>);
    assert.deepEqual(whole!, r);
    // A second report through the same assembler starts clean.
    const r2 = report(40, 900, 0, 8, true);
    for (const e of splitReport(r2, 500)) whole = a.add(e as Extract<EngineEvent, { type: 'report' | 'reportPart' }>);
    assert.deepEqual(whole!, r2);
  });

  it('parts of a report that never ended (the engine died) are dropped; a missing part makes the report "lost"', () => {
    const a = new ReportAssembler();
    const first = splitReport(report(300, 600, 0, 3), 200);
    const second = splitReport(report(100, 100, 0, 1, true), 200);
    for (const e of first.slice(0, 3)) assert.equal(a.add(e), undefined);
    // A new engine's report (part 0 again) replaces the unfinished one.
    let whole: ReturnType<ReportAssembler['add']>;
    for (const e of second) whole = a.add(e);
    assert.deepEqual(whole!, report(100, 100, 0, 1, true));

    // A part missing in the middle.
    const third = splitReport(report(300, 600, 0, 4), 200);
    for (const e of third.filter((_, i) => i !== 2)) whole = a.add(e);
    assert.equal(whole!, 'lost');

    // Stale parts, then a single report of changes: its base is missing too.
    for (const e of third.slice(0, 2)) a.add(e);
    assert.equal(a.add({ type: 'report', report: report(1, 1, 0, 5) }), 'lost');
    // …but a full one replaces everything.
    for (const e of third.slice(0, 2)) a.add(e);
    const full = report(1, 1, 0, 5, true);
    assert.deepEqual(a.add({ type: 'report', report: full }), full);
    // After reset() a report stands alone again.
    for (const e of third.slice(0, 2)) a.add(e);
    a.reset();
    const small = report(1, 1, 0, 6);
    assert.deepEqual(a.add({ type: 'report', report: small }), small);
  });

  describe('the real engine worker with a small part weight', function () {
    this.timeout(60_000);
    let tmp: string;
    let sup: EngineSupervisor | undefined;

    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-parts-'));
    });
    afterEach(() => {
      sup?.dispose();
      sup = undefined;
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('index, then a batch of changes: the host-side merge of the parts equals the engine\'s whole report', async () => {
      const { engineScript, workerScript } = await buildEngineWorkers();
      const root = path.join(tmp, 'ws');
      const rnd = mulberry32(5);
      const texts: string[] = [];
      for (let i = 0; i < 120; i++) {
        const text = i % 4 === 3 ? editLines(texts[i - 2], rnd, 0.05) : codeFile(rnd, 3);
        texts.push(text);
        writeFileAt(root, `src/f${i}.ts`, text);
      }
      const config: EngineConfig = { settings: { ...DEFAULT_ENGINE_SETTINGS }, include: [], exclude: [], roots: [{ path: root, exclude: [] }] };
      sup = new EngineSupervisor({ script: engineScript });
      const a = new ReportAssembler();
      const byPath = new Map<string, ViewItem[]>();
      let last: ViewReport | undefined;
      let parts = 0;
      let maxWeight = 0;
      sup.onEvent((e) => {
        if (e.type !== 'report' && e.type !== 'reportPart') return;
        maxWeight = Math.max(maxWeight, weight(e));
        if (e.type === 'reportPart') parts++;
        const whole = a.add(e);
        assert.notEqual(whole, 'lost');
        if (!whole || whole === 'lost') return;
        // What the host does with a report (ReportApplier.applyReports).
        if (whole.full) byPath.clear();
        for (const p of whole.clearedPaths) byPath.delete(p);
        const fresh = new Set<string>();
        for (const item of whole.items) {
          if (fresh.has(item.loc.path)) byPath.get(item.loc.path)!.push(item);
          else {
            fresh.add(item.loc.path);
            byPath.set(item.loc.path, [item]);
          }
        }
        last = whole;
      });
      sup.start();
      await sup.request({ type: 'init', config, cachePath: null, workerScript, poolSize: 1, tuning: { reportPartWeight: 25 } });
      await sup.request({ type: 'reindex' });
      // Changes: a pair broken, a new copy, a file removed.
      fs.writeFileSync(path.join(root, 'src/f3.ts'), codeFile(rnd, 3));
      writeFileAt(root, 'src/new.ts', editLines(texts[10], rnd, 0.05));
      fs.rmSync(path.join(root, 'src/f7.ts'));
      await sup.request({ type: 'update', upserts: [path.join(root, 'src/f3.ts'), path.join(root, 'src/new.ts')], removes: [path.join(root, 'src/f7.ts')], renames: [] });
      const engine = await sup.request({ type: 'getReport' });
      assert.ok(parts > 3, `${parts} parts`);
      assert.ok(maxWeight <= 25 + 64, `a message of weight ${maxWeight}`); // one group or item may exceed the weight alone
      assert.ok(engine.groups.length > 10);
      const sorted = (r: ViewReport) => ({ ...r, items: [...r.items].sort((x, y) => (JSON.stringify(x.loc) < JSON.stringify(y.loc) ? -1 : 1)) });
      const merged: ViewReport = { ...last!, items: [...byPath.values()].flat(), clearedPaths: [], full: true };
      assert.equal(canonReport(sorted(merged)), canonReport(sorted(engine)));
    });
  });
});
