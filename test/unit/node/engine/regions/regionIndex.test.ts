import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ReportPair } from '../../../../../src/core/report/report';
import type { RegionDocument } from '../../../../../src/core/regions/document';
import { RegionIndex, capsFor } from '../../../../../src/node/engine/regions/regionIndex';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../../src/node/settings/engineSettings';
import { regionDocumentOf } from '../../../../../src/node/workers/fingerprintFile';
import { nativeKernel } from '../../../../../src/node/workers/nativeKernel';
import type { CodeKernel } from '../../../../../src/core/types';

const settings = { ...DEFAULT_ENGINE_SETTINGS };
const SRC = path.join(__dirname, '../../../../../src');

/** Real files of this repository as material. */
function source(rel: string): string {
  return fs.readFileSync(path.join(SRC, rel), 'utf8');
}

/** Lines [from, to) of a text. */
function slice(text: string, from: number, to: number): string {
  return text.split('\n').slice(from, to).join('\n');
}

/** Pastes `block` after line `at` of `host`. */
function paste(host: string, block: string, at: number): string {
  const lines = host.split('\n');
  lines.splice(at, 0, ...block.split('\n'));
  return lines.join('\n');
}

const show = (p: ReportPair) => `${path.basename(p.a.path)}:${p.a.startLine}-${p.a.endLine} ${path.basename(p.b.path)}:${p.b.startLine}-${p.b.endLine} ${p.clone} ${p.similarity} ${p.distance}`;

describe('RegionIndex (the engine\'s located copies)', function () {
  this.timeout(60000);
  let dir: string;
  let reads: string[];
  const load = async (paths: string[]): Promise<Map<string, RegionDocument>> => {
    const out = new Map<string, RegionDocument>();
    for (const p of paths) {
      reads.push(p);
      if (!fs.existsSync(p)) continue;
      const doc = regionDocumentOf(p, fs.readFileSync(p, 'utf8'), settings);
      if (doc) out.set(p, doc);
    }
    return out;
  };
  const files = () => fs.readdirSync(dir).map((f) => path.join(dir, f)).sort();
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  /** The pairs of a fresh index built over the files as they are now. */
  const full = async () => {
    const fresh = new RegionIndex();
    await fresh.rebuild(files(), load, settings);
    return fresh.pairs().map(show);
  };

  const align = source('core/regions/align.ts');
  const chain = source('core/regions/chain.ts');
  const anchors = source('core/regions/anchors.ts');
  const groups = source('core/regions/groups.ts');
  const doc = source('core/regions/document.ts');
  const prose = fs.readFileSync(path.join(__dirname, '../../../../../docs/localisation.md'), 'utf8');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-regions-'));
    reads = [];
    write('align.ts', align);
    write('chain.ts', paste(chain, slice(groups, 20, 50), 40)); // the union-find of groups.ts pasted
    write('anchors.ts', anchors);
    write('groups.ts', groups);
    write('notes.md', slice(prose, 0, 60));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  (nativeKernel()?.regionPlanAsync ? it : it.skip)("with the native kernel: the full build is its plan job's, off this thread (its sides too), and gives what the build here gives", async () => {
    const kernel = nativeKernel()!;
    let planned = 0;
    // The kernel's functions, its plan job counted.
    const counted: Record<string, unknown> = {};
    for (const name of Object.getOwnPropertyNames(kernel)) {
      const v = (kernel as unknown as Record<string, unknown>)[name];
      counted[name] = typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(kernel) : v;
    }
    const plan = counted.regionPlanAsync as (...a: unknown[]) => unknown;
    let sides: Int32Array | undefined;
    counted.regionPlanAsync = (...args: unknown[]) => {
      planned++;
      return (plan(...args) as Promise<{ found: { sides?: Int32Array } }>).then((r) => ((sides = r.found.sides), r));
    };
    const keys = (index: RegionIndex) => index.pairs().flatMap((p) => [p.a, p.b].map((l) => `${show(p)} ${index.sideKey(l.path, l.startLine!, l.endLine!)}`));
    for (const o of [settings, { ...settings, normalizeIdentifiers: false, weighting: 'tf' as const }]) {
      const here = new RegionIndex();
      await here.rebuild(files(), load, o);
      const byJob = new RegionIndex(counted as unknown as CodeKernel, 2);
      planned = 0;
      await byJob.rebuild(files(), load, o);
      assert.equal(planned, 1, 'one plan job');
      assert.ok(sides && sides.length > 0 && sides.every((v) => v >= 0), 'the sides of every region made by the job');
      assert.ok(here.pairs().length > 0);
      assert.deepEqual(byJob.pairs().map(show), here.pairs().map(show));
      assert.deepEqual(keys(byJob), keys(here), 'the same content keys of the sides');
    }
  });

  it('builds what a full run finds: the pasted block, one pair of line ranges', async () => {
    const index = new RegionIndex();
    await index.rebuild(files(), load, settings);
    const pairs = index.pairs();
    const span = (p: ReportPair) => p.a.endLine! - p.a.startLine!;
    const pasted = pairs.filter((p) => path.basename(p.a.path) === 'chain.ts' && path.basename(p.b.path) === 'groups.ts').sort((x, y) => span(y) - span(x))[0];
    assert.ok(pasted, pairs.map(show).join('\n'));
    assert.equal(pasted.clone, 'exact');
    assert.equal(pasted.located, true);
    // The block is groups.ts lines 21–50, pasted after line 40 of chain.ts (its lines 41–70).
    assert.ok(pasted.b.startLine! >= 21 && pasted.b.startLine! <= 23 && pasted.b.endLine! >= 48 && pasted.b.endLine! <= 50, show(pasted));
    assert.equal(pasted.a.startLine! - 40, pasted.b.startLine! - 20, show(pasted));
    assert.ok(index.stats().anchors > 0 && index.stats().anchorBytes === 8 * index.stats().anchors);
  });

  it('after a file is created, changed or deleted: the same pairs as a full recompute, reading only the files involved', async () => {
    const index = new RegionIndex();
    await index.rebuild(files(), load, settings);
    const before = index.pairs().map(show);

    // Created: a file holding a block of align.ts and a repeat of its own block (a same-file repeat).
    const own = slice(doc, 60, 100);
    write('new.ts', paste(paste(slice(anchors, 0, 30), slice(align, 100, 140), 10), own, 5) + '\n' + own);
    reads = [];
    let touched = await index.update([path.join(dir, 'new.ts')], fs.existsSync, load, settings, files);
    const readByUpdate = reads.slice();
    assert.deepEqual(index.pairs().map(show), await full());
    const created = index.pairs().map(show);
    assert.ok(created.length > before.length, 'the new copies are found');
    assert.ok(created.some((s) => /^new\.ts:\d+-\d+ new\.ts:/.test(s)), `a same-file repeat: ${created.join('\n')}`);
    assert.ok(touched.has(path.join(dir, 'new.ts')) && touched.has(path.join(dir, 'align.ts')));
    assert.ok(!touched.has(path.join(dir, 'notes.md')), 'an unrelated file is not touched');
    assert.ok(!readByUpdate.includes(path.join(dir, 'notes.md')), 'an unrelated file is not read again');

    // Changed: the copy in chain.ts edited away.
    write('chain.ts', chain);
    touched = await index.update([path.join(dir, 'chain.ts')], fs.existsSync, load, settings, files);
    assert.deepEqual(index.pairs().map(show), await full());
    assert.ok(!index.pairs().some((p) => path.basename(p.a.path) === 'chain.ts' && path.basename(p.b.path) === 'groups.ts' && p.a.endLine! - p.a.startLine! > 20));
    assert.ok(touched.has(path.join(dir, 'groups.ts')), 'the other side of a removed pair is touched');

    // Deleted.
    fs.rmSync(path.join(dir, 'new.ts'));
    await index.update([path.join(dir, 'new.ts')], fs.existsSync, load, settings, files);
    assert.deepEqual(index.pairs().map(show), await full());
    assert.equal(index.pairsOf(path.join(dir, 'new.ts')).length, 0);
  });

  it('a hash crossing the postings cap: its holders are recomputed too (the same as a full run)', async () => {
    // 23 copies of a block of align.ts, then 24: its anchors become boilerplate (over 24 postings)
    // and the pairs of the copies disappear; they come back when the last copy goes.
    const block = slice(align, 200, 240);
    for (let i = 0; i < 23; i++) write(`copy${String(i).padStart(2, '0')}.ts`, paste(slice(chain, i * 3, i * 3 + 30), block, 10));
    const index = new RegionIndex();
    await index.rebuild(files(), load, settings);
    assert.equal(capsFor(files().length).code, 24);
    const copies = () => index.pairs().filter((p) => /^copy/.test(path.basename(p.a.path)) && /^copy/.test(path.basename(p.b.path))).length;
    const before = copies();
    assert.ok(before >= 23 * 22 / 2, `${before} pairs of copies`);
    write('copy99.ts', block);
    await index.update([path.join(dir, 'copy99.ts')], fs.existsSync, load, settings, files);
    assert.deepEqual(index.pairs().map(show), await full());
    assert.ok(copies() < before, `${copies()} pairs of copies left of ${before}`);
    fs.rmSync(path.join(dir, 'copy99.ts'));
    await index.update([path.join(dir, 'copy99.ts')], fs.existsSync, load, settings, files);
    assert.deepEqual(index.pairs().map(show), await full());
    assert.equal(copies(), before);
  });
});
