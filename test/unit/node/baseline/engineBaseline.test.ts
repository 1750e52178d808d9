/**
 * The engine's baselines (issue 15, *Add to baseline* and `neardup.baseline.show`): the keys the
 * engine makes are those `neardup scan --write-baseline` writes (one module, node/baseline), so a
 * baseline written by the CLI marks the engine's twins, and the text the engine makes for every
 * pair is byte for byte the CLI's file; a pair added later is marked; a broken file is one message.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineEvent, ViewItem } from '../../../../src/node/engine/engineProtocol';
import { EngineState, type Fingerprinter } from '../../../../src/node/engine/engineState';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { fingerprintDecoded, fingerprintFile } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint } from '../../../../src/node/workers/fileOutcome';
import { codeFile, editLines, mulberry32 } from '../../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', '..', 'dist', 'cli.js');

class InlineFingerprinter implements Fingerprinter {
  readonly size = 1;
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    return Promise.all(files.map((f) => fingerprintFile(f, settings)));
  }
  async fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    return fingerprintDecoded(relPath, text, Buffer.byteLength(text), 'utf-8', settings);
  }
  async close(): Promise<void> {}
}

/** Every (item, twin) of a report as `kind a ~ b`, relative paths, with the twin's mark. */
function twinsOf(items: readonly ViewItem[], root: string): Array<{ pair: string; baseline: boolean }> {
  const rel = (p: string, s?: number, e?: number) => path.relative(root, p).split(path.sep).join('/') + (s === undefined ? '' : `:${s}-${e}`);
  return items
    .flatMap((i) => i.twins.map((t) => ({ pair: `${i.kind} ${rel(i.loc.path, i.loc.startLine, i.loc.endLine)} ~ ${rel(t.path, t.startLine, t.endLine)}`, baseline: t.baseline === true })))
    .sort((a, b) => (a.pair < b.pair ? -1 : 1));
}

describe('engine baselines: the CLI’s keys, marks, Add to baseline’s text', function () {
  this.timeout(60000);
  let tmp: string;
  let root: string;
  let engine: EngineState;
  let events: EngineEvent[];
  const settings = { ...DEFAULT_ENGINE_SETTINGS };
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  beforeEach(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-engine-baseline-'));
    root = path.join(tmp, 'ws');
    const rnd = mulberry32(1515);
    const a = codeFile(rnd, 6);
    w('src/a.ts', a);
    w('src/a copy.ts', editLines(a, mulberry32(3), 0.03));
    const b = codeFile(rnd, 6);
    w('lib/b.ts', b);
    w('lib/b2.ts', b);
    // A shared block of functions inside two otherwise different files: section pairs.
    const shared = codeFile(mulberry32(9), 3);
    w('mix/one.ts', codeFile(mulberry32(10), 3) + '\n' + shared);
    w('mix/two.ts', shared + '\n' + codeFile(mulberry32(11), 3));
    events = [];
    engine = new EngineState(new InlineFingerprinter(), (e) => events.push(e), { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: { settings, include: [], exclude: [], roots: [{ path: root, exclude: [] }] }, cachePath: null });
    await engine.reindex();
  });
  afterEach(async () => {
    await engine.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a baseline written by neardup scan marks every twin; the engine’s text for every pair is the CLI’s file, byte for byte', async () => {
    const before = twinsOf(engine.getReport().items, root);
    assert.ok(before.some((t) => t.pair.startsWith('section ')), JSON.stringify(before));
    assert.ok(before.some((t) => t.pair.startsWith('file ')), JSON.stringify(before));
    assert.ok(before.every((t) => !t.baseline));
    const file = path.join(root, '.neardup-baseline.json');
    // The engine here does not locate copies: the CLI's plain scan (--no-locate) to compare with.
    const r = spawnSync(process.execPath, [CLI, 'scan', root, '-q', '--no-locate', '--write-baseline', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const cliText = fs.readFileSync(file, 'utf8');
    const n = events.length;
    assert.deepEqual(await engine.setBaselines([{ root, file }]), { problems: [] });
    // The report goes again with every twin marked (the host hides or dims them).
    const sent = events.slice(n).filter((e): e is Extract<EngineEvent, { type: 'report' }> => e.type === 'report');
    assert.equal(sent.length, 1);
    const after = twinsOf(engine.getReport().items, root);
    assert.deepEqual(after.map((t) => t.pair), before.map((t) => t.pair));
    assert.deepEqual(after.filter((t) => !t.baseline), [], 'every pair the CLI recorded is marked');
    assert.deepEqual(twinsOf(sent[0].report.items, root), after);
    // Every item's pairs added to an empty baseline elsewhere: the CLI's bytes.
    const other = path.join(tmp, 'fresh.json');
    const pairs = engine.getReport().items.flatMap((i) => i.twins.filter((t) => i.loc.path < t.path).map((t) => ({ kind: i.kind, a: i.loc, b: { path: t.path, startLine: t.startLine, endLine: t.endLine } })));
    const made = engine.baselines.addPairs(root, other, pairs);
    assert.ok('text' in made, JSON.stringify(made));
    assert.equal(made.text, cliText);
    assert.equal(made.added, JSON.parse(cliText).pairs.length);
  });

  it('Add to baseline: one pair added to an empty folder’s baseline is marked, the others not; the CLI then counts it as known', async () => {
    const report = engine.getReport();
    const item = report.items.find((i) => i.kind === 'file' && path.basename(i.loc.path) === 'a.ts')!;
    assert.ok(item, 'a.ts has a file item');
    const file = path.join(root, '.neardup-baseline.json');
    const made = engine.baselines.addPairs(root, file, [{ kind: 'file', a: item.loc, b: item.twins[0] }]);
    assert.ok('text' in made && made.added === 1, JSON.stringify(made));
    fs.writeFileSync(file, made.text);
    await engine.setBaselines([{ root, file }]);
    const marked = twinsOf(engine.getReport().items, root).filter((t) => t.baseline).map((t) => t.pair);
    assert.deepEqual(marked, ['file src/a copy.ts ~ src/a.ts', 'file src/a.ts ~ src/a copy.ts']);
    // Adding it again adds nothing.
    const again = engine.baselines.addPairs(root, file, [{ kind: 'file', a: item.twins[0], b: item.loc }]);
    assert.ok('text' in again && again.added === 0 && again.text === made.text);
    // The CLI reads the engine's file: that pair is known, the others new.
    const r = spawnSync(process.execPath, [CLI, 'scan', root, '-q', '--no-sections', '--format', 'json', '--baseline', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { pairs: Array<{ a: { path: string }; b: { path: string } }>; baseline: { matched: number; new: number } };
    assert.equal(json.baseline.matched, 1);
    assert.ok(json.pairs.every((p) => !/src\/a/.test(p.a.path + p.b.path)), r.stdout);
  });

  it('a broken baseline file is one message naming it and marks nothing; a missing one is an empty baseline; a pair outside the folder is refused', async () => {
    const file = path.join(root, 'bad.json');
    fs.writeFileSync(file, '{ "tool": "neardup", "version": 1, "pairs": [ { "kind": "file" } ] }');
    const r = await engine.setBaselines([{ root, file }]);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /invalid baseline .*bad\.json: pairs\[0\] is not a pair/);
    assert.ok(events.some((e) => e.type === 'log' && e.level === 'warn' && /bad\.json/.test(e.message)));
    assert.ok(twinsOf(engine.getReport().items, root).every((t) => !t.baseline));
    assert.deepEqual(await engine.setBaselines([{ root, file: path.join(root, 'none.json') }]), { problems: [] });
    const item = engine.getReport().items[0];
    const out = engine.baselines.addPairs(root, file, [{ kind: item.kind, a: item.loc, b: { path: path.join(tmp, 'elsewhere.ts') } }]);
    assert.ok('problem' in out && /folder of the baseline/.test(out.problem));
    const broken = engine.baselines.addPairs(root, file, [{ kind: item.kind, a: item.loc, b: item.twins[0] }]);
    assert.ok('problem' in broken && /invalid baseline/.test(broken.problem), 'a broken file is not overwritten');
  });
});

