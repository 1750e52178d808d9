import * as assert from 'assert';
import { SaveEchoes, type SavedStat } from '../../../../src/extension/live/saveEchoes';

describe('SaveEchoes (the watcher’s echo of a save already indexed)', () => {
  let now = 0;
  let disk = new Map<string, SavedStat>();
  const stat = async (p: string) => {
    const s = disk.get(p);
    if (!s) throw new Error('ENOENT');
    return s;
  };
  const make = () => new SaveEchoes(1000, stat, () => now);
  beforeEach(() => {
    now = 0;
    disk = new Map([['/w/a.ts', { size: 10, mtimeMs: 5 }]]);
  });

  it('an event for a file as the engine indexed it at the save is an echo', async () => {
    const e = make();
    e.saved('/w/a.ts', Promise.resolve({ size: 10, mtimeMs: 5 }));
    assert.ok(e.has('/w/a.ts'));
    assert.strictEqual(await e.isEcho('/w/a.ts'), true);
  });

  it('the file written again since the save (size or mtime differ) is a real change', async () => {
    const e = make();
    e.saved('/w/a.ts', Promise.resolve({ size: 10, mtimeMs: 5 }));
    disk.set('/w/a.ts', { size: 10, mtimeMs: 6 });
    assert.strictEqual(await e.isEcho('/w/a.ts'), false);
    disk.set('/w/a.ts', { size: 11, mtimeMs: 5 });
    assert.strictEqual(await e.isEcho('/w/a.ts'), false);
  });

  it('a deleted file, a save the engine read from disk or that failed, and other files are not echoes', async () => {
    const e = make();
    e.saved('/w/a.ts', Promise.resolve(undefined));
    assert.strictEqual(await e.isEcho('/w/a.ts'), false);
    e.saved('/w/a.ts', Promise.reject(new Error('engine stopped')));
    assert.strictEqual(await e.isEcho('/w/a.ts'), false);
    e.saved('/w/a.ts', Promise.resolve({ size: 10, mtimeMs: 5 }));
    disk.delete('/w/a.ts');
    assert.strictEqual(await e.isEcho('/w/a.ts'), false);
    assert.strictEqual(e.has('/w/b.ts'), false);
    assert.strictEqual(await e.isEcho('/w/b.ts'), false);
  });

  it('waits for the engine’s answer when the event comes first', async () => {
    const e = make();
    let answer!: (s: SavedStat) => void;
    e.saved('/w/a.ts', new Promise((r) => (answer = r)));
    const echo = e.isEcho('/w/a.ts');
    answer({ size: 10, mtimeMs: 5 });
    assert.strictEqual(await echo, true);
  });

  it('a save is forgotten after its window', () => {
    const e = make();
    e.saved('/w/a.ts', Promise.resolve({ size: 10, mtimeMs: 5 }));
    now = 1000;
    assert.ok(e.has('/w/a.ts'));
    now = 1001;
    assert.strictEqual(e.has('/w/a.ts'), false);
  });
});
