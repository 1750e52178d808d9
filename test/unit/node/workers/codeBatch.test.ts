// A worker's batch through the kernel (codeBatch.ts, native/readcode.c readCodeBatch) must pack
// what the same files give file by file (fingerprintFileSync): the same words, headers, strings
// and region documents after packOutcomes and unpackOutcomes, and the same fast-path counts, for
// a batch that mixes files it takes with files it leaves (not plain, not code, not read), under
// the settings that change what it does; and no batch where there can be none.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { codeBatch, codeBatchAsync, useKernelFoldTable } from '../../../../src/node/workers/codeBatch';
import { variantTable } from '../../../../src/node/cjk/variants';
import { fastCodeCounts, fingerprintFileSync, useFastCode } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome, FileToFingerprint, PackableOutcome } from '../../../../src/node/workers/fileOutcome';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { outcomesOfWords, packOutcomes, plainDocument, unpackOutcomes } from '../../../../src/node/workers/packing';
import { releaseRegionDocument } from '../../../../src/node/workers/regionPacking';
import { mulberry32 } from '../../helpers/random';
import { code, FAST_PATH_SETTINGS, files } from './codeFiles';

const kernel = nativeKernel() as { readCodeBatch?: unknown; readCodeBatchAsync?: unknown } | undefined;

const SETTINGS: Array<[string, EngineSettings]> = [...FAST_PATH_SETTINGS, ['a high minTokens', { ...DEFAULT_ENGINE_SETTINGS, minTokens: 400 }]];

type Counts = typeof fastCodeCounts;
const countsNow = (): Counts => ({ ...fastCodeCounts });
const countsSince = (before: Counts): Counts => Object.fromEntries(Object.entries(fastCodeCounts).map(([k, v]) => [k, v - before[k as keyof Counts]])) as Counts;

/** The batch's files packed and unpacked, with the fast path's counts they added: file by file, or through codeBatch (or `made`) first. */
function packed(batch: readonly FileToFingerprint[], settings: EngineSettings, regions: boolean, buffers: boolean, useBatch: boolean, given?: ReturnType<typeof codeBatch>) {
  const before = countsNow();
  const made = given ?? (useBatch ? codeBatch(batch, settings, undefined, regions, buffers) : undefined);
  const outcomes: PackableOutcome[] = batch.map((f, i) => made?.[i] ?? fingerprintFileSync(f, settings, undefined, undefined, regions, buffers));
  const p = packOutcomes(outcomes, { ownedRegions: buffers });
  const counts = countsSince(before);
  return { made, counts, p: structuredClone(p), unpacked: structuredClone(unpackOutcomes(p, batch.map((f) => f.relPath))) };
}

(kernel?.readCodeBatch ? describe : describe.skip)('codeBatch: a batch of code files through the kernel', function () {
  this.timeout(120000);
  let dir: string;
  let batch: FileToFingerprint[];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-code-batch-'));
    batch = [];
    for (const [name, bytes] of files()) {
      fs.writeFileSync(path.join(dir, name), bytes);
      batch.push({ path: path.join(dir, name), relPath: name });
    }
    // Not read by the batch: missing, a directory, a symbolic link; bigger than the first read buffer (grown).
    fs.mkdirSync(path.join(dir, 'dir.ts'));
    fs.symlinkSync(path.join(dir, 'plain.ts'), path.join(dir, 'link.ts'));
    fs.writeFileSync(path.join(dir, 'large.ts'), code(mulberry32(5), 12000));
    for (const name of ['missing.ts', 'dir.ts', 'link.ts', 'large.ts']) batch.push({ path: path.join(dir, name), relPath: name });
    // Files of other directories, one after another and back (the batch opens a file relative to
    // the last directory it opened): one reached through a symbolic link to a directory (followed,
    // as open(path) follows it), one missing in a directory that is there, one in a directory that is not.
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.symlinkSync(path.join(dir, 'sub'), path.join(dir, 'linked'));
    fs.writeFileSync(path.join(dir, 'sub', 'one.ts'), code(mulberry32(6), 70));
    fs.writeFileSync(path.join(dir, 'sub', 'two.ts'), code(mulberry32(7), 70));
    fs.writeFileSync(path.join(dir, 'sub', 'plain.ts'), code(mulberry32(8), 70)); // not the other plain.ts
    for (const name of ['sub/one.ts', 'plain.ts', 'sub/two.ts', 'linked/one.ts', 'sub/none.ts', 'nowhere/one.ts', 'linked/two.ts']) batch.push({ path: path.join(dir, name), relPath: name });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [label, settings] of SETTINGS) {
    for (const [regions, buffers] of [
      [false, false],
      [true, true],
    ]) {
      it(`packs what the files give one by one (${label}${regions ? ', region buffers' : ''})`, () => {
        const one = packed(batch, settings, regions, buffers, false);
        const all = packed(batch, settings, regions, buffers, true);
        assert.ok(all.made, 'a batch was made');
        const taken = all.made.filter((o) => o !== undefined).length;
        assert.ok(taken >= (settings.maxFileSizeBytes < 10000 ? 2 : 10), `${taken} files taken by the batch`);
        // The same counts by reason, but for a file bigger than the buffer of the file-by-file fast
        // path (until its usual path grew it): 'unusual' there, taken by the batch (same outcome);
        // and prose.md, which the file-by-file fast path does not try, taken by the batch.
        const prose = all.made.filter((o) => o?.prose).length;
        assert.equal(prose, 1, 'prose.md taken');
        const code = all.counts.fast - prose;
        assert.ok(code - one.counts.fast <= 1 && code >= one.counts.fast, 'the files taken by the fast path');
        assert.deepStrictEqual(
          { ...all.counts, fast: 0, unusual: code + all.counts.unusual, notTried: all.counts.notTried + prose },
          { ...one.counts, fast: 0, unusual: one.counts.fast + one.counts.unusual },
          'the fast path counts, by reason',
        );
        assert.deepStrictEqual(all.p, one.p);
        assert.deepStrictEqual(all.unpacked, one.unpacked);
        for (const name of ['plain.ts', 'sub/one.ts', 'sub/two.ts', 'linked/one.ts', 'linked/two.ts']) if (settings.maxFileSizeBytes > 10000) assert.ok(all.made[batch.findIndex((f) => f.relPath === name)], `${name} taken by the batch`);
        // A file the batch left was left by the fast path too (its reason counted by the usual path).
        for (let i = 0; i < batch.length; i++) if (!all.made[i]) assert.ok(!('words' in (all.unpacked[i] as object)), batch[i].relPath);
      });
    }
  }

  it("with the kernel's fold table, folds Han text as the usual path does (and takes those files)", async () => {
    const han = ['han.ts', 'han-identifiers.ts', 'han-lines.ts'].map((name) => batch.findIndex((f) => f.relPath === name));
    assert.ok(han.every((i) => i >= 0));
    for (const [label, settings] of SETTINGS) {
      for (const regions of [false, true]) {
        // The reference: the usual path alone (decoded and folded in JavaScript).
        useFastCode(false);
        let usual;
        try {
          usual = packed(batch, settings, regions, regions, false);
        } finally {
          useFastCode(true);
        }
        assert.ok(useKernelFoldTable(variantTable()));
        try {
          const sync = packed(batch, settings, regions, regions, true);
          const made = await codeBatchAsync(batch, settings, undefined, regions)!;
          const async = packed(batch, settings, regions, regions, true, made);
          for (const [how, got] of [['codeBatch', sync], ['codeBatchAsync', async]] as const) {
            assert.deepStrictEqual(got.p, usual.p, `${how}, ${label}${regions ? ', regions' : ''}`);
            assert.deepStrictEqual(got.unpacked, usual.unpacked, `${how}, ${label}`);
            if (settings.maxFileSizeBytes > 10000 && settings.minTokens === DEFAULT_ENGINE_SETTINGS.minTokens) {
              for (const i of han) assert.ok(got.made?.[i], `${how}: ${batch[i].relPath} taken, ${label}`);
            }
          }
        } finally {
          useKernelFoldTable(null);
        }
        // Without the table (and with the fold off) they are left to the usual path again, by the
        // threads' kernels too (kept from the jobs above, with the table: given the change).
        const left = codeBatch(batch, settings, undefined, regions, regions)!;
        const leftAsync = await codeBatchAsync(batch, settings, undefined, regions)!;
        if (settings.foldVariants !== false) assert.ok(han.every((i) => !left[i] && !leftAsync[i]), label);
      }
    }
  });

  it('gives the same words for the same file in any batch, and a file of few tokens no item', () => {
    const plain = batch.find((f) => f.relPath === 'plain.ts')!;
    const short = batch.find((f) => f.relPath === 'short.ts')!;
    const alone = codeBatch([plain], DEFAULT_ENGINE_SETTINGS, undefined, false, false)!;
    const mixed = codeBatch(batch, DEFAULT_ENGINE_SETTINGS, undefined, false, false)!;
    assert.deepStrictEqual(mixed[batch.indexOf(plain)]!.words, alone[0]!.words);
    assert.equal(alone[0]!.words[8], 128, 'the file item with its whole sketch');
    assert.equal(alone[0]!.words.length, 9 + 128, 'no section (its one function is the whole file)');
    const few = codeBatch([short], DEFAULT_ENGINE_SETTINGS, undefined, false, false)![0]!;
    assert.equal(few.words.length, 0);
    assert.equal(few.lines, 1);
  });

  it('makes no batch without code or prose to take, with the fast path off, or for region documents not as buffers', () => {
    const containers = batch.filter((f) => /\.(ipynb|vue)$/.test(f.relPath));
    assert.equal(codeBatch(containers, DEFAULT_ENGINE_SETTINGS, undefined, false, false), undefined);
    const prose = batch.filter((f) => /\.(md|ipynb|vue)$/.test(f.relPath));
    assert.deepStrictEqual(
      [...(codeBatch(prose, DEFAULT_ENGINE_SETTINGS, undefined, false, false) ?? [])].map((o) => o?.prose === true),
      prose.map((f) => f.relPath.endsWith('.md')),
      'prose.md taken (proseBatch.test.ts), the containers not',
    );
    assert.equal(codeBatch(batch, DEFAULT_ENGINE_SETTINGS, undefined, true, false), undefined);
    useFastCode(false);
    try {
      assert.equal(codeBatch(batch, DEFAULT_ENGINE_SETTINGS, undefined, false, false), undefined);
    } finally {
      useFastCode(true);
    }
    assert.ok(codeBatch(batch, DEFAULT_ENGINE_SETTINGS, undefined, false, false));
  });

  // readCodeBatchAsync: the same batch on libuv's threads, each job on a kernel of its own.
  (kernel?.readCodeBatchAsync ? describe : describe.skip)('codeBatchAsync: the batch off this thread', () => {
    for (const [label, settings] of SETTINGS) {
      for (const regions of [false, true]) {
        it(`gives what codeBatch gives (${label}${regions ? ', region buffers' : ''}), four batches at once`, async () => {
          const sync = packed(batch, settings, regions, regions, true);
          // Four at once: on as many threads (and kernels), the batch's files in four orders.
          const n = batch.length;
          const all = batch.map((_, i) => i);
          const orders = [all, [...all].reverse(), all.map((i) => (i + (n >> 1)) % n), [...all.filter((i) => i % 2 === 0), ...all.filter((i) => i % 2 === 1)]];
          assert.ok(orders.every((o) => new Set(o).size === n && o.length === n), 'orders are permutations');
          const made = await Promise.all(orders.map((o) => codeBatchAsync(o.map((i) => batch[i]), settings, undefined, regions)!));
          for (let k = 0; k < orders.length; k++) {
            const inOrder: Array<NonNullable<ReturnType<typeof codeBatch>>[number]> = new Array(batch.length);
            orders[k].forEach((i, at) => (inOrder[i] = made[k][at]));
            const taken = inOrder.filter((o) => o !== undefined).length;
            assert.ok(taken >= (settings.maxFileSizeBytes < 10000 ? 2 : 10), `${taken} files taken by the batch`);
            const async = packed(batch, settings, regions, regions, true, inOrder);
            assert.deepStrictEqual(async.p, sync.p, `order ${k}`);
            assert.deepStrictEqual(async.unpacked, sync.unpacked, `order ${k}`);
          }
        });
      }
    }

    it("one lane: batches queued one after another, each on the working memory the earlier ones grew (a big file's, small files', the big one's again), give what codeBatch gives", async () => {
      const big = batch.filter((f) => f.relPath === 'large.ts');
      const small = batch.filter((f) => f.relPath !== 'large.ts');
      for (const regions of [false, true]) {
        const runs = [big, small, big, small.slice().reverse()];
        const made = await Promise.all(runs.map((files) => codeBatchAsync(files, DEFAULT_ENGINE_SETTINGS, undefined, regions, 1)!));
        runs.forEach((files, k) => {
          const sync = packed(files, DEFAULT_ENGINE_SETTINGS, regions, regions, true);
          const async = packed(files, DEFAULT_ENGINE_SETTINGS, regions, regions, true, made[k]);
          assert.deepStrictEqual(async.p, sync.p, `batch ${k}${regions ? ', regions' : ''}`);
          assert.deepStrictEqual(async.unpacked, sync.unpacked, `batch ${k}${regions ? ', regions' : ''}`);
        });
        assert.ok(made[0].some((o) => o !== undefined) && made[1].filter((o) => o !== undefined).length >= 10, 'the big file and the small ones taken');
      }
    });

    it('gives outcomes, through outcomesOfWords, equal to those its words give packed and unpacked', async () => {
      for (const [label, settings] of SETTINGS) {
        for (const regions of [false, true]) {
          for (const owned of regions ? [true, false] : [false]) {
            const made = (await codeBatchAsync(batch, settings, undefined, regions)!).filter((o) => o !== undefined);
            assert.ok(made.length >= (settings.maxFileSizeBytes < 10000 ? 2 : 10), label);
            const direct = outcomesOfWords(made, { ownedRegions: owned });
            const viaPacking = unpackOutcomes(packOutcomes(made, { ownedRegions: owned }), made.map((o) => o.relPath));
            // (the items of words are read through getters: compared field by field, as plain objects)
            const plain = (list: FileOutcome[]) => structuredClone(list.map((o) => (o.ok ? { ...o, doc: plainDocument(o.doc) } : o)));
            assert.deepStrictEqual(plain(direct), plain(viaPacking), `${label}${regions ? `, regions ${owned ? 'owned' : 'shared'}` : ''}`);
            if (label === 'defaults') assert.ok(direct.some((o) => o.ok && o.doc.sections.length > 0), 'sections among them');
            if (regions) assert.ok(direct.every((o) => o.ok && o.region), 'a region document each');
          }
        }
      }
    });

    // (in a process of its own: a thread of libuv's pool keeps its lower priority for good)
    (process.platform === 'linux' ? it : it.skip)("`nice`: the job's thread of libuv's pool runs at that lower priority from then on, this thread as it was; without it, every thread as it was; the same outcomes", function () {
      const child = `
        const fs = require('node:fs');
        const { codeBatchAsync } = require(${JSON.stringify(path.join(__dirname, '../../../../src/node/workers/codeBatch'))});
        const { DEFAULT_ENGINE_SETTINGS } = require(${JSON.stringify(path.join(__dirname, '../../../../src/node/settings/engineSettings'))});
        // each thread's nice value (field 19 of its stat, after the name's closing parenthesis)
        const nices = () => fs.readdirSync('/proc/self/task').map((t) => Number(fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
        const self = () => Number(fs.readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
        (async () => {
          const batch = JSON.parse(process.argv[1]);
          const words = (made) => made.map((o) => (o ? Array.from(o.words) : null));
          const plain = words(await codeBatchAsync(batch, DEFAULT_ENGINE_SETTINGS, undefined, false));
          const before = nices();
          const lowered = words(await codeBatchAsync(batch, DEFAULT_ENGINE_SETTINGS, undefined, false, 0, undefined, 5));
          console.log(JSON.stringify({ before, after: nices(), self: self(), same: JSON.stringify(plain) === JSON.stringify(lowered), taken: plain.filter(Boolean).length }));
        })();`;
      const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', child, JSON.stringify(batch)], { encoding: 'utf8', cwd: path.join(__dirname, '../../../..'), timeout: 60000 });
      assert.equal(r.status, 0, r.stderr);
      const got = JSON.parse(r.stdout.trim().split('\n').pop()!) as { before: number[]; after: number[]; self: number; same: boolean; taken: number };
      assert.ok(got.before.every((n) => n === 0), `no thread lowered before: ${got.before}`);
      assert.ok(got.after.some((n) => n === 5), `a thread at nice 5 after: ${got.after}`);
      assert.ok(got.after.every((n) => n === 0 || n === 5), `${got.after}`);
      assert.equal(got.self, 0, 'the calling thread as it was');
      assert.ok(got.taken >= 10, `${got.taken} files taken`);
      assert.ok(got.same, 'the same outcomes');
    });

    it("releaseRegionDocument: a document the batch's job made (in an ArrayBuffer of its own) is freed at once through the addon's releaseBuffer; a packed one is left to the collector", async () => {
      const release = (kernel as { releaseBuffer?: (b: ArrayBuffer) => boolean }).releaseBuffer;
      assert.equal(typeof release, 'function', 'the addon has releaseBuffer where it has readCodeBatchAsync');
      const made = (await codeBatchAsync(batch, DEFAULT_ENGINE_SETTINGS, undefined, true)!).filter((o) => o !== undefined);
      // (code documents with tokens: bom-only.ts has none; prose.md's is copied, as packRegions copies any prose document)
      const own = outcomesOfWords(made, { ownedRegions: true }).filter((o) => o.ok && o.region?.kind === 'code' && o.region.length > 0);
      const shared = outcomesOfWords(made, { ownedRegions: false }).filter((o) => o.ok && o.region?.kind === 'code' && o.region.length > 0);
      assert.ok(own.length >= 10 && shared.length === own.length, `${own.length} documents`);
      for (const o of shared) {
        const g = o.ok ? o.region! : undefined;
        const before = g!.raw.hi.length;
        assert.equal(releaseRegionDocument(g!, release), false, `${o.relPath}: on arrays it shares`);
        assert.equal(g!.raw.hi.length, before, 'untouched');
      }
      for (const o of own) {
        const g = o.ok ? o.region! : undefined;
        assert.ok(g!.length > 0 && g!.raw.hi.buffer.byteLength > 0);
        assert.equal(releaseRegionDocument(g!, undefined), false, 'nothing to release with');
        assert.equal(releaseRegionDocument(g!, release), true, o.relPath);
        assert.equal(g!.raw.hi.buffer.byteLength, 0, 'its buffer detached');
        assert.equal(g!.raw.hi.length, 0);
        assert.equal(releaseRegionDocument(g!, release), false, 'once');
      }
    });

    it("region documents cut from shared blocks (native/regionblocks.c): those released leave the others whole, later batches' documents are right, a document of megabytes has a block of its own", async () => {
      const release = (kernel as { releaseBuffer?: (b: ArrayBuffer) => boolean }).releaseBuffer!;
      // A file whose region document is over half a block (~4.5 MB: 30,000 lines of ~12 tokens).
      const hugePath = path.join(dir, 'huge.ts');
      fs.writeFileSync(hugePath, code(mulberry32(9), 30000));
      const files = [...batch, { path: hugePath, relPath: 'huge.ts' }];
      try {
        const made = (await codeBatchAsync(files, DEFAULT_ENGINE_SETTINGS, undefined, true)!).filter((o) => o !== undefined);
        const docs = outcomesOfWords(made, { ownedRegions: true }).flatMap((o) => (o.ok && o.region?.kind === 'code' ? [{ relPath: o.relPath, g: o.region }] : []));
        const huge = docs.find((d) => d.relPath === 'huge.ts');
        assert.ok(huge && huge.g.raw.hi.buffer.byteLength > 4 << 20, `huge.ts's document: ${huge?.g.raw.hi.buffer.byteLength} bytes`);
        assert.ok(docs.length >= 11, `${docs.length} documents`);
        // What every document holds, copied out of its buffer (its arrays only: reading `ids` would make them).
        const copy = (g: (typeof docs)[number]['g']) => [g.raw.hi, g.raw.lo, g.start, g.lineStarts, g.anchors?.hash, g.anchors?.pos, g.isIdent].map((a) => a?.slice());
        const held = docs.map((d) => copy(d.g));
        // Every other document released: their blocks stay for the rest.
        docs.forEach((d, i) => i % 2 === 1 && assert.equal(releaseRegionDocument(d.g, release), true, d.relPath));
        // Another batch cuts its documents from blocks of its own (the first ones' are not reused while held).
        const again = (await codeBatchAsync(files, DEFAULT_ENGINE_SETTINGS, undefined, true))!;
        const sync = packed(files, DEFAULT_ENGINE_SETTINGS, true, true, true);
        assert.deepStrictEqual(packed(files, DEFAULT_ENGINE_SETTINGS, true, true, true, again).p, sync.p, 'the second batch as the synchronous one');
        docs.forEach((d, i) => i % 2 === 0 && assert.deepStrictEqual(copy(d.g), held[i], `${d.relPath}: unchanged after its neighbours were released`));
        // All released (the blocks unmapped), then a third batch: still right.
        docs.forEach((d, i) => i % 2 === 0 && assert.equal(releaseRegionDocument(d.g, release), true, d.relPath));
        for (const o of outcomesOfWords(again.filter((o) => o !== undefined), { ownedRegions: true })) if (o.ok && o.region) releaseRegionDocument(o.region, release);
        const third = (await codeBatchAsync(files, DEFAULT_ENGINE_SETTINGS, undefined, true))!;
        assert.deepStrictEqual(packed(files, DEFAULT_ENGINE_SETTINGS, true, true, true, third).p, sync.p, 'the third batch as the synchronous one');
      } finally {
        fs.rmSync(hugePath, { force: true });
      }
    });

    it('makes no batch where codeBatch makes none', () => {
      const containers = batch.filter((f) => /\.(ipynb|vue)$/.test(f.relPath));
      assert.equal(codeBatchAsync(containers, DEFAULT_ENGINE_SETTINGS, undefined, false), undefined);
      useFastCode(false);
      try {
        assert.equal(codeBatchAsync(batch, DEFAULT_ENGINE_SETTINGS, undefined, false), undefined);
      } finally {
        useFastCode(true);
      }
    });
  });
});
