// A scan's code files fingerprinted on the addon's threads (src/node/scan/nativeBatches.ts): the
// same result as the workers give (documents, pairs, groups, skips, region documents), for a tree
// of code, prose and files the batch leaves; the code files by the addon's threads, the few others
// on the scan's thread (filesHere.ts), more of them by one worker; no worker at all for a tree of
// code alone; at most --workers batches at once; the first batches smaller (a small tree's on
// every lane); onWalked once the walk is over.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanDirectory, NATIVE_BATCH_BYTES, type ScanResult } from '../../../../src/node/scan/scan';
import { foldTableWhenReady, nativeBatchesChosen } from '../../../../src/node/scan/nativeBatches';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { codeBatch, codeBatchAsyncAvailable, useKernelFoldTable } from '../../../../src/node/workers/codeBatch';
import { variantTable } from '../../../../src/node/cjk/variants';
import { plainDocument } from '../../../../src/node/workers/packing';
import { jiebaDictionaryReadAhead } from '../../../../src/node/cjk/jiebaPrefetch';
import { mulberry32 } from '../../helpers/random';
import { code } from '../workers/codeFiles';

const WORKER = path.join(__dirname, '..', '..', '..', '..', 'dist', 'worker.js');

/** What a scan gives, comparable between runs (the region documents' words, not their buffers' form). */
function comparable(r: ScanResult, skips: string[]) {
  const words = (a: ArrayLike<number> | null | undefined) => (a ? Array.from(a) : null);
  const regions = [...(r.regions ?? new Map())].map(([p, d]) => [
    p,
    d.kind,
    d.length,
    words(d.raw.hi),
    words(d.raw.lo),
    words(d.ids?.hi),
    words(d.isIdent),
    words(d.start),
    words(d.lineStarts),
    words(d.anchors?.hash),
    words(d.anchors?.pos),
  ]);
  // (a native batch's items are read through getters: their fields compared as plain objects)
  const documents = structuredClone(r.documents.map((d) => ({ ...d, doc: plainDocument(d.doc) })));
  return { documents, pairs: r.pairs, groups: r.groups, stats: { ...r.stats, elapsedMs: 0 }, skips: [...skips].sort(), regions };
}

(codeBatchAsyncAvailable() ? describe : describe.skip)("a scan's code files on the addon's threads", function () {
  this.timeout(120000);
  let tree: string;
  let codeOnly: string;
  before(() => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-native-batches-'));
    const random = mulberry32(11);
    for (let d = 0; d < 6; d++) {
      const dir = path.join(tree, `pkg${d}`);
      fs.mkdirSync(dir);
      for (let f = 0; f < 30; f++) fs.writeFileSync(path.join(dir, `f${f}.ts`), code(random, 40 + (f % 5) * 20));
      // Copies across packages (pairs of files and of sections), prose, and files the batch leaves.
      fs.writeFileSync(path.join(dir, 'copy.ts'), fs.readFileSync(path.join(tree, 'pkg0', 'f1.ts')));
      fs.writeFileSync(path.join(dir, 'README.md'), `# Package ${d}\n\nThis package adds numbers and keeps the totals of each day.\n\n## 用法\n\n这个包把数字加起来并且保存每天的总数。\n`);
      fs.writeFileSync(path.join(dir, 'bom.ts'), '\ufeff' + code(random, 50));
      fs.writeFileSync(path.join(dir, 'min.js'), 'var a=1;'.repeat(4000));
      fs.writeFileSync(path.join(dir, 'bin.ts'), Buffer.from([0, 1, 2, 3, 0, 5]));
      // Han to fold: by the addon, with the fold table this thread makes when a batch first leaves one.
      fs.writeFileSync(path.join(dir, 'han.ts'), `${code(random, 30)}// 這個系統會讀取每個檔案 ${d}\nconst 總數 = 計算(${d});\n`);
    }
    codeOnly = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-native-code-'));
    for (let f = 0; f < 40; f++) fs.writeFileSync(path.join(codeOnly, `f${f}.ts`), code(random, 60));
    fs.writeFileSync(path.join(codeOnly, 'copy.ts'), fs.readFileSync(path.join(codeOnly, 'f3.ts')));
  });
  after(() => {
    fs.rmSync(tree, { recursive: true, force: true });
    fs.rmSync(codeOnly, { recursive: true, force: true });
  });

  async function scan(root: string, nativeBatches: boolean, workers: number, regions: boolean, filesHereMax?: number) {
    const skips: string[] = [];
    const threads = new Map<number, number>();
    const events: string[] = [];
    const result = await scanDirectory({
      root,
      settings: DEFAULT_ENGINE_SETTINGS,
      workers,
      batchSize: 16,
      workerScript: WORKER,
      quiet: true,
      nativeBatches,
      regions,
      regionsSharedFrom: 3,
      filesHereMax,
      onSkip: (p, why) => skips.push(`${p}: ${why}`),
      onBatch: (b) => {
        threads.set(b.thread, (threads.get(b.thread) ?? 0) + b.files);
        if (b.thread === -1) events.push('here');
      },
      onPhase: (name) => events.push(name),
      onWalked: () => events.push('onWalked'),
    });
    return { result, skips, threads, events };
  }

  for (const workers of [1, 2]) {
    for (const regions of [false, true]) {
      it(`gives what the workers give (${workers} worker${workers > 1 ? 's' : ''}${regions ? ', region documents' : ''})`, async () => {
        const off = await scan(tree, false, workers, regions);
        const on = await scan(tree, true, workers, regions);
        const inWorker = await scan(tree, true, workers, regions, 0);
        assert.deepStrictEqual(comparable(on.result, on.skips), comparable(off.result, off.skips));
        assert.deepStrictEqual(comparable(inWorker.result, inWorker.skips), comparable(off.result, off.skips));
        assert.ok(on.result.pairs.length > 0 && on.skips.length >= 12, `${on.result.pairs.length} pairs, ${on.skips.length} skips`);
        if (regions) assert.equal(on.result.regions!.size, on.result.documents.length, 'a region document per file');
        // The code files by the addon's threads (thread 0), those with Han text to fold too (the
        // first batch that leaves one has this thread make the fold table, and runs it again), the
        // BOM's too; the others (prose with Chinese, the minified and binary files) on the scan's
        // thread (-1): no worker. For the Chinese, jieba's dictionary was read ahead (jiebaPrefetch.ts).
        const codeFiles = 6 * 32 + 6;
        const others = 6 * 3;
        assert.deepStrictEqual([...on.threads].sort((a, b) => a[0] - b[0]), [[-1, others], [0, codeFiles]]);
        assert.ok(on.events.indexOf('walked') < on.events.indexOf('here'), `this thread's files once the walk is over: ${on.events.join(', ')}`);
        assert.ok(jiebaDictionaryReadAhead(), "jieba's dictionary read ahead for the README's Chinese");
        // With filesHereMax 0, one worker takes them.
        assert.equal(inWorker.threads.get(0), codeFiles);
        const workerThreads = [...inWorker.threads.keys()].filter((t) => t !== 0);
        assert.equal(workerThreads.length, 1, `one worker for the other files: ${[...inWorker.threads].join(' ')}`);
        assert.ok(workerThreads[0] > 0 && inWorker.threads.get(workerThreads[0]) === others);
        assert.ok(!off.threads.has(0) && !off.threads.has(-1), 'none by the addon nor this thread with nativeBatches off');
      });
    }
  }

  it("leaves the thread's kernel without the scan's fold table", async () => {
    await scan(tree, true, 2, false);
    const han = { path: path.join(tree, 'pkg5', 'han.ts'), relPath: 'pkg5/han.ts' };
    assert.equal(codeBatch([han], DEFAULT_ENGINE_SETTINGS, undefined, false, false)?.[0], undefined, 'left to the usual path');
    assert.ok(useKernelFoldTable(variantTable()));
    try {
      assert.ok(codeBatch([han], DEFAULT_ENGINE_SETTINGS, undefined, false, false)?.[0], 'taken with a table');
    } finally {
      useKernelFoldTable(null);
    }
  });

  it('gives the addon a fold table made here when asked (makeNow), none when the fold is off, and takes it back', () => {
    const han = { path: path.join(tree, 'pkg5', 'han.ts'), relPath: 'pkg5/han.ts' };
    const taken = () => codeBatch([han], DEFAULT_ENGINE_SETTINGS, undefined, false, false)?.[0] !== undefined;
    assert.equal(taken(), false, 'left without a table');
    const off = foldTableWhenReady({ ...DEFAULT_ENGINE_SETTINGS, foldVariants: false }, undefined);
    assert.equal(off.makeNow(), false);
    assert.equal(taken(), false, 'no table when the fold is off');
    const on = foldTableWhenReady(DEFAULT_ENGINE_SETTINGS, undefined);
    try {
      assert.equal(on.makeNow(), true);
      assert.equal(taken(), true, 'taken with the table made here');
    } finally {
      on.release();
    }
    assert.equal(taken(), false, 'the table taken back');
  });

  it('fingerprints the files left on its own thread up to the limit, then starts a worker for the rest', async () => {
    const on = await scan(tree, true, 2, true, 5);
    const here = on.threads.get(-1) ?? 0;
    const workerThreads = [...on.threads.keys()].filter((t) => t > 0);
    assert.ok(here > 0 && here <= 5, `${here} files on this thread`);
    assert.equal(workerThreads.length, 1, [...on.threads].join(' '));
    assert.equal(here + on.threads.get(workerThreads[0])!, 6 * 3, 'every file left taken once');
    const off = await scan(tree, false, 2, true);
    assert.deepStrictEqual(comparable(on.result, on.skips), comparable(off.result, off.skips));
  });

  it('a scan stopped at the end of its walk fingerprints none of the files left for its thread', async () => {
    const stop = new AbortController();
    const threads: number[] = [];
    await assert.rejects(
      scanDirectory({
        root: tree,
        settings: DEFAULT_ENGINE_SETTINGS,
        workers: 2,
        batchSize: 16,
        workerScript: WORKER,
        quiet: true,
        nativeBatches: true,
        signal: stop.signal,
        onPhase: (name) => name === 'walked' && stop.abort(),
        onBatch: (b) => threads.push(b.thread),
      }),
      (e: Error) => e.name === 'AbortError',
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // (a list left for this thread would have run by now)
    assert.ok(!threads.includes(-1), threads.join(' '));
  });

  it('starts no worker for a tree of code alone', async () => {
    const on = await scan(codeOnly, true, 2, false);
    assert.deepStrictEqual([...on.threads], [[0, 41]]);
    // onWalked: once, when the walk is over, before the fingerprints are all in
    assert.deepStrictEqual(
      on.events.filter((e) => ['walked', 'onWalked', 'fingerprinted'].includes(e)),
      ['walked', 'onWalked', 'fingerprinted'],
    );
    assert.equal(on.result.pairs.filter((p) => p.kind === 'file').length, 1, 'the copy found');
    const off = await scan(codeOnly, false, 2, false);
    assert.deepStrictEqual(comparable(on.result, on.skips), comparable(off.result, off.skips));
  });

  it('folds code with Han text on the addon\'s threads: no worker for a tree of code alone, Han text or not', async () => {
    const han = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-native-han-'));
    try {
      const random = mulberry32(12);
      for (let f = 0; f < 20; f++) fs.writeFileSync(path.join(han, `f${f}.ts`), `${code(random, 40)}// 這個系統會讀取每個檔案 ${f}\nconst 總數 = 計算(${f});\n`);
      // The same file in Simplified characters: a copy once folded.
      fs.writeFileSync(path.join(han, 'simplified.ts'), fs.readFileSync(path.join(han, 'f2.ts'), 'utf8').replace('這個系統會讀取每個檔案', '这个系统会读取每个档案').replace('總數 = 計算', '总数 = 计算'));
      const on = await scan(han, true, 2, true);
      assert.deepStrictEqual([...on.threads], [[0, 21]]);
      assert.ok(on.result.pairs.some((p) => p.kind === 'file' && [p.a.path, p.b.path].sort().join() === 'f2.ts,simplified.ts' && p.distance === 0), 'the Simplified copy found');
      const off = await scan(han, false, 2, true);
      assert.deepStrictEqual(comparable(on.result, on.skips), comparable(off.result, off.skips));
    } finally {
      fs.rmSync(han, { recursive: true, force: true });
    }
  });

  it('sends smaller first batches (1/8, 1/4, 1/2 of the bytes), so that a tree under one batch keeps every lane busy', async () => {
    // ~1.4 MB of code in 48 files: under one batch's 2 MB, which without the ramp went whole to one lane
    const small = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-native-ramp-'));
    try {
      const random = mulberry32(13);
      let biggest = 0;
      let total = 0;
      for (let f = 0; f < 48; f++) {
        const text = code(random, 900);
        fs.writeFileSync(path.join(small, `f${String(f).padStart(2, '0')}.ts`), text);
        biggest = Math.max(biggest, Buffer.byteLength(text));
        total += Buffer.byteLength(text);
      }
      assert.ok(total < NATIVE_BATCH_BYTES && total > NATIVE_BATCH_BYTES / 2, `${total} bytes`);
      const batches: number[] = [];
      const result = await scanDirectory({ root: small, settings: DEFAULT_ENGINE_SETTINGS, workers: 2, workerScript: WORKER, quiet: true, nativeBatches: true, onBatch: (b) => b.thread === 0 && batches.push(b.files) });
      assert.equal(result.stats.files, 48);
      assert.equal(batches.reduce((a, b) => a + b, 0), 48, batches.join(' '));
      // (a walk slice that ends early sends a partial batch: more, smaller batches, never fewer;
      // onBatch comes as batches end, not in their order)
      assert.ok(batches.length >= 3, `batches of ${batches.join(', ')} files`);
      const perFile = total / 48;
      const first = Math.min(...batches);
      assert.ok(first * perFile <= NATIVE_BATCH_BYTES / 8 + biggest + perFile, `the smallest batch: ${first} files of ~${Math.round(perFile)} bytes`);
    } finally {
      fs.rmSync(small, { recursive: true, force: true });
    }
  });

  it('is chosen only where it can run, and not for tf-idf weighting (its first pass needs every file)', () => {
    assert.equal(nativeBatchesChosen(undefined, DEFAULT_ENGINE_SETTINGS), process.env.NEARDUP_NATIVE_BATCHES !== '0');
    assert.equal(nativeBatchesChosen(true, DEFAULT_ENGINE_SETTINGS), true);
    assert.equal(nativeBatchesChosen(false, DEFAULT_ENGINE_SETTINGS), false);
    assert.equal(nativeBatchesChosen(true, { ...DEFAULT_ENGINE_SETTINGS, weighting: 'tfidf' }), false);
  });
});
