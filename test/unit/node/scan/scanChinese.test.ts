// Chinese text in a scan's workers (node/scan/scan.ts, CjkMode): a tree without Han text never
// loads jieba in any worker; a little Chinese is cut by one worker (a subset of the dictionary);
// a Chinese-heavy tree (past the scan's cjkEveryWorkerChars: by default scan.ts's
// CJK_EVERY_WORKER_CHARS, here less so that the trees stay small) is fingerprinted by every worker, each with the whole dictionary; the
// report is the same as with one worker. Real workers (bundled from the
// sources), observed through the scan's onBatch (each batch's thread and what it cuts Chinese with).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { scanDirectory } from '../../../../src/node/scan/scan';
import type { CjkSegmenterInUse } from '../../../../src/node/workers/fileOutcome';
import { buildEngineWorkers } from '../../helpers/engineBundle';
import { chineseText, codeFile, editLines, mulberry32, proseText } from '../../helpers/corpus';

interface Batches {
  /** Files per thread id. */
  files: Map<number, number>;
  /** What each thread cut Chinese with after its last batch. */
  cjk: Map<number, CjkSegmenterInUse>;
}

describe('scan: Chinese text on the workers', function () {
  this.timeout(120000);
  let dir: string;
  let workerScript: string;

  before(async () => {
    ({ workerScript } = await buildEngineWorkers());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-scan-zh-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes `count` files made by `text(i)` under `tree`; their bytes. */
  const write = (tree: string, count: number, text: (i: number) => string, ext = '.md'): number => {
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const f = path.join(tree, `d${i % 3}`, `f${String(i).padStart(3, '0')}${ext}`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      const t = text(i);
      fs.writeFileSync(f, t);
      bytes += Buffer.byteLength(t);
    }
    return bytes;
  };

  const scan = async (tree: string, workers: number, cjkEveryWorkerChars?: number) => {
    const seen: Batches = { files: new Map(), cjk: new Map() };
    const r = await scanDirectory({
      root: tree,
      settings: DEFAULT_ENGINE_SETTINGS,
      workers,
      batchSize: 4,
      cjkEveryWorkerChars,
      workerScript,
      quiet: true,
      nativeBatches: false, // (how the workers share the files: every file to them)
      onBatch: (b) => {
        seen.files.set(b.thread, (seen.files.get(b.thread) ?? 0) + b.files);
        seen.cjk.set(b.thread, b.cjk);
      },
    });
    return { report: { pairs: r.pairs, groups: r.groups, stats: { ...r.stats, elapsedMs: 0 } }, seen };
  };

  it('a Chinese-heavy tree is fingerprinted by every worker, each with the whole dictionary, with the report of one worker', async () => {
    const tree = path.join(dir, 'heavy');
    const rnd = mulberry32(16);
    const zh = chineseText(rnd, 12);
    const bytes = write(tree, 120, (i) => (i % 2 ? chineseText(mulberry32(300 + i), 12) : editLines(zh, mulberry32(i), 0.05)));
    const every = 32 * 1024;
    assert.ok(bytes / 3 > 4 * every, `${bytes} bytes of Chinese`);
    const two = await scan(tree, 2, every);
    const threads = [...two.seen.cjk].filter(([, cjk]) => cjk === 'whole').map(([t]) => t);
    assert.equal(threads.length, 2, `threads and what they cut with: ${JSON.stringify([...two.seen.cjk])}`);
    for (const t of threads) assert.ok(two.seen.files.get(t)! >= 8, `files per thread: ${JSON.stringify([...two.seen.files])}`);
    const one = await scan(tree, 1);
    assert.ok(one.report.pairs.some((p) => p.kind === 'file'), 'Chinese twins found');
    assert.deepEqual(two.report, one.report);
  });

  it('a little Chinese is cut by one worker only, with a subset of the dictionary (large English files with a Chinese name too)', async () => {
    const tree = path.join(dir, 'little');
    const rnd = mulberry32(17);
    const code = codeFile(rnd, 4);
    write(tree, 40, (i) => editLines(code, mulberry32(i), 0.05), '.ts');
    write(path.join(tree, 'docs'), 2, (i) => proseText(mulberry32(i), 2) + chineseText(mulberry32(400 + i), 1));
    const english = write(path.join(tree, 'changes'), 30, (i) => `# Changes\n\nThanks to 陈若枫 for the fix.\n\n${proseText(mulberry32(600 + i), 60)}`);
    // Counted in CJK characters, not bytes: far more bytes than the mark, a few names.
    const every = 32 * 1024;
    assert.ok(english > 4 * every, `${english} bytes of English`);
    const { seen } = await scan(tree, 2, every);
    assert.equal(seen.files.size, 2, 'both workers fingerprinted files');
    const cut = [...seen.cjk.values()].sort();
    assert.deepEqual(cut, ['none', 'subset']);
  });

  it('a tree without Han text never loads jieba in any worker', async () => {
    const tree = path.join(dir, 'none');
    const rnd = mulberry32(18);
    const code = codeFile(rnd, 4);
    write(tree, 20, (i) => proseText(mulberry32(500 + i), 3));
    write(path.join(tree, 'src'), 20, (i) => editLines(code, mulberry32(i), 0.05), '.ts');
    for (const workers of [1, 2]) {
      const { seen } = await scan(tree, workers);
      assert.ok(seen.cjk.size >= 1);
      assert.deepEqual([...new Set(seen.cjk.values())], ['none'], `${workers} worker(s)`);
    }
  });
});
