// planUpdate (src/node/engine/indexing/updatePlan.ts): what a batch of file events asks of the
// engine's index before any file is read, on a real folder (lstat), the entries in a Map.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { planUpdate, type PlannedEntry, type UpdatePlanHost } from '../../../../../src/node/engine/indexing/updatePlan';

describe('planUpdate: a batch of file events into files to read, entries moved or dropped, or a walk', () => {
  let dir: string;
  const at = (rel: string) => path.join(dir, rel);
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(at(rel)), { recursive: true });
    fs.writeFileSync(at(rel), text);
  };
  const entryOf = (rel: string): PlannedEntry => {
    const st = fs.statSync(at(rel));
    return { size: st.size, mtimeMs: st.mtimeMs };
  };
  function host(entries: Map<string, PlannedEntry>, excluded: string[] = [], maxFileSizeBytes = 1000) {
    const skips: string[] = [];
    const h: UpdatePlanHost<PlannedEntry> = {
      entries,
      eligible: async (abs) => ({ ok: !excluded.includes(abs) }),
      skip: (abs, reason) => skips.push(`${path.relative(dir, abs)}: ${reason}`),
      maxFileSizeBytes,
    };
    return { h, skips };
  }
  const rels = (paths: Iterable<string>) => [...paths].map((p) => path.relative(dir, p)).sort();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-update-plan-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a new or changed file, not one of the same size and mtime (unless its entry is transient)', async () => {
    write('same.ts', 'a');
    write('grown.ts', 'b');
    write('new.ts', 'c');
    write('transient.ts', 'd');
    const entries = new Map<string, PlannedEntry>([
      [at('same.ts'), entryOf('same.ts')],
      [at('grown.ts'), { ...entryOf('grown.ts'), size: 99 }],
      [at('transient.ts'), { ...entryOf('transient.ts'), transient: true }],
    ]);
    const { h } = host(entries);
    const plan = await planUpdate(h, { upserts: ['same.ts', 'grown.ts', 'new.ts', 'transient.ts'].map(at), removes: [], renames: [] });
    assert.deepEqual(rels(plan.toRead.map((c) => c.path)), ['grown.ts', 'new.ts', 'transient.ts']);
    assert.deepEqual(rels(plan.changed), ['grown.ts', 'new.ts', 'transient.ts']);
    assert.equal(plan.toRead.find((c) => c.path === at('new.ts'))!.size, 1);
    assert.equal(plan.needsWalk, false);
    assert.equal(plan.upserts.size, 4);
  });

  it('a renamed folder moves its entries (kept when unchanged on disk); a removed folder drops every entry under it', async () => {
    write('new/a.ts', 'aa');
    write('new/sub/b.ts', 'bb');
    write('gone/c.ts', 'cc');
    const entries = new Map<string, PlannedEntry>([
      [at('old/a.ts'), entryOf('new/a.ts')],
      [at('old/sub/b.ts'), { ...entryOf('new/sub/b.ts'), mtimeMs: 1 }],
      [at('oldish.ts'), entryOf('gone/c.ts')], // a sibling whose name starts like the folder's: not moved
      [at('gone/c.ts'), entryOf('gone/c.ts')],
      [at('gone/d.ts'), entryOf('gone/c.ts')],
    ]);
    const { h } = host(entries);
    const plan = await planUpdate(h, { upserts: [], removes: [at('gone')], renames: [{ from: at('old'), to: at('new') }] });
    assert.deepEqual(rels(entries.keys()), ['new/a.ts', 'new/sub/b.ts', 'oldish.ts']);
    assert.deepEqual(rels(plan.toRead.map((c) => c.path)), ['new/sub/b.ts'], 'the moved entry whose mtime differs is read again');
    assert.deepEqual(rels(plan.changed), ['gone/c.ts', 'gone/d.ts', 'new/a.ts', 'new/sub/b.ts', 'old/a.ts', 'old/sub/b.ts']);
    assert.equal(plan.removed, 2);
  });

  it('forgets what is no longer a file it takes, with the reason where there is one; a missing file or folder drops its entries', async () => {
    write('big.ts', 'x'.repeat(2000));
    write('excluded.ts', 'e');
    write('target.ts', 't');
    fs.symlinkSync(at('target.ts'), at('link.ts'));
    const entries = new Map<string, PlannedEntry>([
      [at('big.ts'), { size: 1, mtimeMs: 1 }],
      [at('excluded.ts'), entryOf('excluded.ts')],
      [at('link.ts'), entryOf('target.ts')],
      [at('missing/x.ts'), { size: 1, mtimeMs: 1 }],
    ]);
    const { h, skips } = host(entries, [at('excluded.ts')]);
    const plan = await planUpdate(h, { upserts: ['big.ts', 'excluded.ts', 'link.ts', 'missing'].map(at), removes: [], renames: [] });
    assert.deepEqual(plan.toRead, []);
    assert.deepEqual(rels(entries.keys()), []);
    assert.equal(plan.removed, 4);
    assert.equal(plan.skipped, 2);
    assert.deepEqual(skips.sort(), ['big.ts: file too large (2000 bytes > limit 1000 bytes)', 'link.ts: symbolic link (not followed)']);
  });

  it('asks for a walk when an ignore file changes or a folder appears', async () => {
    write('.gitignore', 'dist/\n');
    fs.mkdirSync(at('appeared'));
    for (const batch of [
      { upserts: [at('.gitignore')], removes: [], renames: [] },
      { upserts: [], removes: [at('.git/info/exclude')], renames: [] },
      { upserts: [], removes: [], renames: [{ from: at('x/.gitignore'), to: at('y.txt') }] },
      { upserts: [at('appeared')], removes: [], renames: [] },
    ]) {
      const plan = await planUpdate(host(new Map()).h, batch);
      assert.equal(plan.needsWalk, true, JSON.stringify(batch));
      assert.deepEqual(plan.toRead, []);
    }
    write('plain.ts', 'p');
    assert.equal((await planUpdate(host(new Map()).h, { upserts: [at('plain.ts')], removes: [], renames: [] })).needsWalk, false);
  });
});
