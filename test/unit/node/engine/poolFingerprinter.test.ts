// The extension engine's fingerprinter over real fingerprint workers (a bundle of src/worker):
// its packed answers (the kernel's batch, transferred arrays) unpacked to the outcomes the same
// files give file by file in this thread, and each document's sketches in a buffer of its own; the
// region documents asked for with the fingerprints, or alone, as this thread makes them.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PoolFingerprinter } from '../../../../src/node/engine/poolFingerprinter';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { fingerprintFileSync } from '../../../../src/node/workers/fingerprintFile';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import type { RegionDocument } from '../../../../src/core/regions/document';
import { defaultAnchors } from '../../../../src/core/regions/regions';
import { buildEngineWorkers } from '../../helpers/engineBundle';
import { mulberry32 } from '../../helpers/random';
import { code } from '../workers/codeFiles';

describe('PoolFingerprinter: packed outcomes and region documents from the workers', function () {
  this.timeout(120000);
  let dir: string;
  let workerScript: string;
  before(async () => {
    ({ workerScript } = await buildEngineWorkers());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-pool-fingerprinter-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the outcomes of fingerprintFileSync, each document holding its own sketches', async () => {
    const rnd = mulberry32(11);
    const files = [
      ['a.ts', code(rnd, 90)],
      ['b.ts', `${code(rnd, 40)}\nclass K {\n  m() {\n${code(rnd, 30)}\n  }\n}\n`],
      ['short.ts', 'let a = 1;\n'],
      ['notes.md', '# Notes\n\nSome words of prose, enough of them to be fingerprinted as a document.\n'.repeat(20)],
      ['han.ts', `${code(rnd, 40)}// 這個系統會讀取每個檔案\n`],
      ['missing.ts', null],
    ] as const;
    for (const [name, text] of files) if (text !== null) fs.writeFileSync(path.join(dir, name), text);
    const asked = files.map(([name]) => ({ path: path.join(dir, name), relPath: name }));
    const settings = { ...DEFAULT_ENGINE_SETTINGS, cjkSegmenter: 'bigram' as const };
    const pool = new PoolFingerprinter({ script: workerScript, size: 1 });
    let got: FileOutcome[];
    try {
      got = await pool.fingerprintFiles(asked, settings);
    } finally {
      await pool.close();
    }
    const expected = asked.map((f) => structuredClone(fingerprintFileSync(f, settings)));
    assert.deepStrictEqual(structuredClone(got), expected);
    const buffers = new Set<ArrayBufferLike>();
    for (const o of got) {
      if (!o.ok) continue;
      const sketches = [...(o.doc.file ? [o.doc.file.sketch] : []), ...o.doc.sections.map((s) => s.sketch)];
      const words = sketches.reduce((n, s) => n + s.length, 0);
      for (const s of sketches) assert.equal(s.buffer.byteLength, words * 4, `${o.relPath}: its sketches' buffer holds them only`);
      if (sketches.length > 0) {
        assert.ok(!buffers.has(sketches[0].buffer), `${o.relPath}: a buffer of its own`);
        buffers.add(sketches[0].buffer);
      }
    }
    assert.ok(buffers.size >= 4, `${buffers.size} documents with sketches`);
  });

  /** A region document's arrays as plain lists (a lean document's `ids` made), its anchors as the region finder takes them. */
  const shown = (d: RegionDocument | undefined) =>
    d && {
      kind: d.kind,
      length: d.length,
      raw: [[...d.raw.hi], [...d.raw.lo]],
      ids: d.ids && [[...d.ids.hi], [...d.ids.lo]],
      isIdent: d.isIdent && [...d.isIdent],
      start: [...d.start],
      lineStarts: [...d.lineStarts],
      reportLines: d.reportLines && [...d.reportLines],
      proseTokens: d.proseTokens && [...d.proseTokens],
      anchors: (({ hash, pos }) => [[...hash], [...pos]])(d.anchors ?? defaultAnchors(d)),
    };

  it("with fingerprintFiles' `regions` and regionDocuments (no fingerprints of the kernel's code files): fingerprintFileSync's documents, none left on its batch's shared memory", async () => {
    const rnd = mulberry32(12);
    const files = [
      ['a.ts', code(rnd, 90)],
      ['b.js', code(rnd, 60)],
      ['notes.md', '# Notes\n\nSome words of prose, enough of them to be located as a document of its own.\n'.repeat(20)],
      ['more.md', '# More\n\nOther words of prose, a second document in the same batch as the first.\n'.repeat(15)],
      ['nb.ipynb', JSON.stringify({ cells: [{ cell_type: 'code', source: code(rnd, 30) }, { cell_type: 'markdown', source: 'Prose in a notebook, a few words.' }], metadata: {}, nbformat: 4, nbformat_minor: 5 })],
      ['missing.ts', null],
    ] as const;
    for (const [name, text] of files) if (text !== null) fs.writeFileSync(path.join(dir, name), text);
    const asked = files.map(([name]) => ({ path: path.join(dir, name), relPath: name }));
    const settings = { ...DEFAULT_ENGINE_SETTINGS };
    const expected = asked.map((f) => {
      const o = fingerprintFileSync(f, settings, undefined, undefined, true);
      return o.ok ? shown(o.region) : undefined;
    });
    assert.ok(expected.filter((d) => d?.kind === 'prose').length === 2 && expected.filter((d) => d?.kind === 'code').length === 3, 'two prose documents, three of code');
    const pool = new PoolFingerprinter({ script: workerScript, size: 1 });
    try {
      const withFingerprints = await pool.fingerprintFiles(asked, settings, true);
      const alone = await pool.regionDocuments(asked, settings);
      // regionDocuments: the plain code files the kernel takes not fingerprinted (empty documents).
      const sectionsOf = (list: FileOutcome[], name: string) => list.map((o) => (o.ok && o.relPath === name ? o.doc.sections.length + (o.doc.file ? 1 : 0) : -1)).find((n) => n >= 0);
      assert.ok(sectionsOf(withFingerprints, 'a.ts')! > 0, 'a.ts fingerprinted with its document');
      assert.equal(sectionsOf(alone, 'a.ts'), 0, 'a.ts: its document alone');
      for (const got of [withFingerprints, alone]) {
        const docs = got.map((o) => (o.ok ? o.region : undefined));
        for (const d of docs) if (d) for (const a of [d.raw.hi, d.start, d.lineStarts]) assert.ok(!(a.buffer instanceof SharedArrayBuffer), 'in a buffer of its own');
        assert.deepStrictEqual(docs.map(shown), expected);
      }
      const plain = await pool.fingerprintFiles(asked, settings);
      assert.ok(plain.every((o) => !o.ok || o.region === undefined), 'no documents unless asked');
    } finally {
      await pool.close();
    }
  });
});
