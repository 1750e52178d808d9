/**
 * The engine's baselines with located copies (`neardup.locate`, issue 12 meeting issue 15): a
 * located pair's sides are keyed by their tokens as the CLI keys them (pairIdentity.ts
 * locatedSide), so a baseline written by `neardup scan --write-baseline` (which locates by
 * default) marks the engine's located twins too, *Add to baseline* on a located twin writes the
 * CLI's key and `"locate": true`, and `neardup scan --baseline` then counts that copy as known.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EngineConfig, ViewItem } from '../../../../src/node/engine/engineProtocol';
import { EngineState, type Fingerprinter } from '../../../../src/node/engine/engineState';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { fingerprintDecoded, fingerprintFileSync } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint } from '../../../../src/node/workers/fileOutcome';
import { writeLocateFixture } from '../../cli/locateFixture';

const CLI = path.join(__dirname, '..', '..', '..', '..', 'dist', 'cli.js');

/** Fingerprints and makes region documents on the test's thread (the engine then locates copies). */
class InlineFingerprinter implements Fingerprinter {
  readonly size = 1;
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    return files.map((f) => fingerprintFileSync(f, settings));
  }
  async regionDocuments(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    return files.map((f) => fingerprintFileSync(f, settings, undefined, undefined, true));
  }
  async fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    return fingerprintDecoded(relPath, text, Buffer.byteLength(text), 'utf-8', settings);
  }
  async close(): Promise<void> {}
}

/** Every (item, twin) as `kind a ~ b` (relative paths, lines), with its marks. */
function twinsOf(items: readonly ViewItem[], root: string): Array<{ pair: string; located: boolean; baseline: boolean }> {
  const rel = (p: string, s?: number, e?: number) => path.relative(root, p).split(path.sep).join('/') + (s === undefined ? '' : `:${s}-${e}`);
  return items
    .flatMap((i) => i.twins.map((t) => ({ pair: `${i.kind} ${rel(i.loc.path, i.loc.startLine, i.loc.endLine)} ~ ${rel(t.path, t.startLine, t.endLine)}`, located: t.located === true, baseline: t.baseline === true })))
    .sort((a, b) => (a.pair < b.pair ? -1 : 1));
}

describe('engine baselines with located copies: the CLI’s keys for located sides', function () {
  this.timeout(60000);
  let tmp: string;
  let root: string;
  let engine: EngineState;
  const settings = { ...DEFAULT_ENGINE_SETTINGS };
  const config = (): EngineConfig => ({ settings, include: [], exclude: [], roots: [{ path: root, exclude: [] }], locate: true });

  beforeEach(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-engine-located-baseline-'));
    root = path.join(tmp, 'ws');
    fs.mkdirSync(root);
    writeLocateFixture(root);
    engine = new EngineState(new InlineFingerprinter(), () => undefined, { saveDelayMs: 10, progressIntervalMs: 0 });
    await engine.init({ config: config(), cachePath: null });
    await engine.reindex();
  });
  afterEach(async () => {
    await engine.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a baseline written by neardup scan (locating) marks every twin, located ones included; the engine’s text for every pair is the CLI’s file', async () => {
    const before = twinsOf(engine.getReport().items, root);
    const located = before.filter((t) => t.located);
    assert.ok(located.length >= 4, `the engine located the fixture's copies: ${JSON.stringify(before)}`);
    assert.ok(before.every((t) => !t.baseline));
    const file = path.join(root, '.neardup-baseline.json');
    const r = spawnSync(process.execPath, [CLI, 'scan', root, '-q', '--write-baseline', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const cliText = fs.readFileSync(file, 'utf8');
    assert.equal(JSON.parse(cliText).settings.locate, true);
    assert.deepEqual(await engine.setBaselines([{ root, file }]), { problems: [] });
    const after = twinsOf(engine.getReport().items, root);
    assert.deepEqual(after.map((t) => t.pair), before.map((t) => t.pair));
    assert.deepEqual(
      after.filter((t) => !t.baseline),
      [],
      'every pair the CLI recorded is marked, located ones by their tokens',
    );
    // Every item's pairs added to an empty baseline elsewhere: the CLI's bytes, "locate": true with them.
    const other = path.join(tmp, 'fresh.json');
    const pairs = engine
      .getReport()
      .items.flatMap((i) => i.twins.filter((t) => i.loc.path < t.path || (i.loc.path === t.path && (i.loc.startLine ?? 0) < (t.startLine ?? 0))).map((t) => ({ kind: i.kind, a: i.loc, b: { path: t.path, startLine: t.startLine, endLine: t.endLine }, located: t.located === true })));
    const made = engine.baselines.addPairs(root, other, pairs);
    assert.ok('text' in made, JSON.stringify(made));
    assert.equal(made.text, cliText);
  });

  it('Add to baseline on a located twin: the CLI’s key and "locate": true; neardup scan then counts that copy as known, the others new', async () => {
    const item = engine.getReport().items.find((i) => i.kind === 'section' && i.twins.some((t) => t.located && t.path !== i.loc.path));
    assert.ok(item, 'a section with a located twin in another file');
    const twin = item.twins.find((t) => t.located && t.path !== item.loc.path)!;
    const file = path.join(root, '.neardup-baseline.json');
    const made = engine.baselines.addPairs(root, file, [{ kind: 'section', a: item.loc, b: twin, located: true }]);
    assert.ok('text' in made && made.added === 1, JSON.stringify(made));
    assert.equal(JSON.parse(made.text).settings.locate, true);
    fs.writeFileSync(file, made.text);
    await engine.setBaselines([{ root, file }]);
    const marked = twinsOf(engine.getReport().items, root).filter((t) => t.baseline);
    assert.equal(marked.length, 2, JSON.stringify(marked)); // the pair, from each of its two sides
    assert.ok(marked.every((t) => t.located));
    // The same pair as a plain section pair (lines, not tokens) is another key: not marked by it.
    const plain = engine.baselines.addPairs(root, path.join(tmp, 'plain.json'), [{ kind: 'section', a: item.loc, b: twin }]);
    assert.ok('text' in plain && JSON.parse(plain.text).pairs[0].key !== JSON.parse(made.text).pairs[0].key);
    // The CLI reads the engine's file: that located copy is known, the other pairs new, and no
    // notice that the baseline was written without located copies.
    const r = spawnSync(process.execPath, [CLI, 'scan', root, '--format', 'json', '--baseline', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /holds none of the/);
    const json = JSON.parse(r.stdout) as { pairs: unknown[]; baseline: { matched: number; new: number } };
    assert.equal(json.baseline.matched, 1);
    assert.equal(json.baseline.new, json.pairs.length);
  });
});
