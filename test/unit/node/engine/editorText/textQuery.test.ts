import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../../src/node/settings/engineSettings';
import { EngineState, type Fingerprinter } from '../../../../../src/node/engine/engineState';
import { blockLines } from '../../../../../src/node/engine/editorText/textQuery';
import { fingerprintDecoded, fingerprintFile } from '../../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint } from '../../../../../src/node/workers/fileOutcome';

/** Fingerprints on the test's thread. */
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

const FIXTURE = path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'workspace');
const linesOf = (rel: string, from: number, to: number) =>
  fs.readFileSync(path.join(FIXTURE, rel), 'utf8').split('\n').slice(from - 1, to).join('\n') + '\n';

describe('textQuery: where a pasted block matches the index (matchText)', function () {
  this.timeout(30000);
  let tmp: string;
  let engine: EngineState;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-textquery-'));
    fs.cpSync(FIXTURE, tmp, { recursive: true });
    engine = new EngineState(new InlineFingerprinter(), () => undefined, { saveDelayMs: 10, progressIntervalMs: 0 });
    const settings = { ...DEFAULT_ENGINE_SETTINGS };
    await engine.init({ config: { settings, include: [], exclude: [], roots: [{ path: tmp, exclude: [] }] }, cachePath: null });
    await engine.reindex();
  });
  after(async () => {
    await engine.shutdown();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('blockLines: a final line break ends the last line', () => {
    assert.equal(blockLines('a'), 1);
    assert.equal(blockLines('a\nb\n'), 2);
    assert.equal(blockLines('a\nb'), 2);
  });

  it('a copied function names the file and the function\'s lines in it', async () => {
    const r = await engine.matchText(path.join(tmp, 'notes', 'new.ts'), linesOf('code/logParser.ts', 46, 54));
    assert.equal(r.status, 'ok');
    assert.ok(r.matches.length >= 1, JSON.stringify(r));
    const best = r.matches[0];
    assert.equal(path.relative(tmp, best.path), path.join('code', 'logParser.ts'), JSON.stringify(r.matches));
    assert.deepEqual([best.startLine, best.endLine], [46, 54]);
    assert.equal(best.covered, 1);
    assert.equal(best.distance, 0);
  });

  it('a copied paragraph names the document and the paragraph\'s lines', async () => {
    // "Testing the backups": the 2023 copy's paragraph is reworded, so the guide's own is closest.
    const r = await engine.matchText(path.join(tmp, 'notes', 'new.md'), linesOf('docs/en/backup-guide.md', 50, 54));
    assert.equal(r.status, 'ok');
    assert.ok(r.matches.length >= 1, JSON.stringify(r));
    assert.equal(path.relative(tmp, r.matches[0].path), path.join('docs', 'en', 'backup-guide.md'), JSON.stringify(r.matches));
    assert.deepEqual([r.matches[0].startLine, r.matches[0].endLine, r.matches[0].distance], [50, 54, 0]);
    assert.ok(r.matches.slice(1).some((m) => path.basename(m.path) === 'backup-guide-2023.md' && m.distance > 0), JSON.stringify(r.matches));
  });

  it('an edited copy still matches, at a distance', async () => {
    const text = linesOf('code/logParser.ts', 46, 54).replace('if (line.startsWith(\'#\')) return null;', 'if (line.startsWith(\'#\') || line === \'\') return null;');
    assert.notEqual(text, linesOf('code/logParser.ts', 46, 54));
    const r = await engine.matchText(path.join(tmp, 'x.ts'), text);
    assert.equal(path.basename(r.matches[0]?.path ?? ''), 'logParser.ts', JSON.stringify(r));
    assert.ok(r.matches[0].distance > 0);
  });

  it('unique text matches nothing; a few words are too small; the block is never indexed', async () => {
    const unique = Array.from({ length: 12 }, (_, i) => `export function unrelated${i}(q: number): number { return q * ${i} + Math.floor(q / ${i + 7}) - ${i * 13}; }`).join('\n');
    const r = await engine.matchText(path.join(tmp, 'x.ts'), unique);
    assert.deepEqual({ status: r.status, matches: r.matches }, { status: 'ok', matches: [] });
    assert.equal((await engine.matchText(path.join(tmp, 'x.ts'), 'const a = 1;\n')).status, 'tooSmall');
    const before = engine.stats().documents;
    await engine.matchText(path.join(tmp, 'code', 'brandNew.ts'), linesOf('code/logParser.ts', 1, 70));
    assert.equal(engine.stats().documents, before);
    assert.ok(!engine.getReport().items.some((i) => i.loc.path.endsWith('brandNew.ts')));
  });
});
