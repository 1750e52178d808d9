// Region documents through the packed wire format (src/node/workers/packing.ts): what a worker
// makes for --locate (code with identifier streams, prose, a notebook's report lines and prose
// tokens, files with none) comes back equal, as views into a few transferred arrays; packed for a
// receiver that keeps them (`ownedRegions`), the kernel's documents travel in their own buffers
// (those a worker keeps as the kernel's RegionBuffer too, without views made).
// Fingerprints too: code fingerprinted by each kernel and by the TypeScript, prose, files without
// a file item, failures, come back equal through a real transfer.
import { strict as assert } from 'node:assert';
import { MessageChannel } from 'node:worker_threads';
import { documentFromKernel, leanDocument, regionBufferOf, type RegionBuffer } from '../../../../src/core/regions/document';
import { DEFAULT_CODE_ANCHORING } from '../../../../src/core/regions/regions';
import { fingerprintText, kernelLanguage } from '../../../../src/core/fingerprint/fingerprint';
import { KERNELS } from './kernelsUnderTest';
import { idsDerived, regionDocument, regionDocumentOfParts, type RegionDocument } from '../../../../src/core/regions/document';
import { defaultAnchors } from '../../../../src/core/regions/regions';
import { languageOf } from '../../../../src/core/text/languages';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import { outcomesOfWords, packOutcomes, plainDocument, plainItem, transferablesOf, unpackOutcomes } from '../../../../src/node/workers/packing';
import { cloneKind } from '../../../../src/core/fingerprint/cloneHashes';

const ok = (relPath: string, region?: RegionDocument): FileOutcome => ({ relPath, ok: true, bytes: 10, encoding: 'utf-8', doc: { kind: 'code', file: null, sections: [] }, ...(region ? { region } : {}) });

/** A RegionDocument as plain arrays (views and copies compare equal). */
const plain = (d: RegionDocument | undefined) =>
  d && {
    kind: d.kind,
    length: d.length,
    raw: [Array.from(d.raw.hi), Array.from(d.raw.lo)],
    ids: d.ids && [Array.from(d.ids.hi), Array.from(d.ids.lo)],
    isIdent: d.isIdent && Array.from(d.isIdent),
    start: Array.from(d.start),
    lineStarts: Array.from(d.lineStarts),
    reportLines: d.reportLines && Array.from(d.reportLines),
    proseTokens: d.proseTokens && Array.from(d.proseTokens),
    anchors: d.anchors && [Array.from(d.anchors.hash), Array.from(d.anchors.pos)],
  };

describe('packing of region documents', () => {
  it('code, prose, a mixed notebook-like document with report lines, a file without one and a failure come back equal', () => {
    const code = regionDocument('function add(a, b) {\n  return a + b; // sum\n}\n', 'a.ts');
    const prose = regionDocument('# Title\n\nSome words here, and 中文的句子。\n', 'b.md');
    const text = 'x = 1\nprint(x)\n# Notes\n\nA paragraph of notes.\n';
    const mixed = regionDocumentOfParts(text, [
      { startOffset: 0, endOffset: 15, lang: languageOf('c.py') },
      { startOffset: 15, endOffset: text.length, lang: languageOf('c.md') },
    ]);
    mixed.reportLines = Int32Array.from([1048577, 1048578, 2097153, 2097154, 2097155, 0]);
    code.anchors = defaultAnchors(code);
    mixed.anchors = { hash: new Uint32Array(0), pos: new Int32Array(0) }; // none, but made
    assert.ok(mixed.proseTokens && mixed.proseTokens.some((x) => x === 1) && mixed.proseTokens.some((x) => x === 0), 'the mixed document marks its prose tokens');
    const outcomes: FileOutcome[] = [ok('a.ts', code), { relPath: 'bad.ts', ok: false, reason: 'binary' }, ok('none.ts'), ok('b.md', prose), ok('c.ipynb', mixed)];
    const packed = packOutcomes(outcomes);
    assert.ok(packed.regions, 'regions packed');
    assert.equal(new Set(transferablesOf(packed)).size, transferablesOf(packed).length, 'each buffer transferred once');
    const back = unpackOutcomes(structuredClone(packed), outcomes.map((o) => o.relPath));
    const regionOf = (o: FileOutcome) => (o.ok ? o.region : undefined);
    assert.deepEqual(back.map((o) => plain(regionOf(o))), outcomes.map((o) => plain(regionOf(o))));
    assert.equal(back[1].ok, false);
  });

  it('a batch without region documents packs none', () => {
    assert.equal(packOutcomes([ok('a.ts')]).regions, undefined);
  });

  for (const under of KERNELS) {
    it(`ownedRegions (${under.name} kernel): a document the kernel made in one buffer of its own is transferred in it, the others copied; all come back equal`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const made = (text: string, path: string): RegionDocument => {
        const id = kernelLanguage(kernel!, languageOf(path));
        kernel!.tokenize(text, id, false, true);
        return documentFromKernel(kernel!, DEFAULT_CODE_ANCHORING);
      };
      const textA = 'function add(a, b) {\n  return a + b; // sum\n}\n';
      const textB = 'int main(void) { return add(1, 2); }\n';
      const a = made(textA, 'a.ts');
      const b = made(textB, 'b.c');
      // The kernel's documents are lean: their normalised streams are not made for the packing.
      assert.ok(idsDerived(a) && idsDerived(b), 'lean documents');
      const prose = regionDocument('# Title\n\nSome words here.\n', 'p.md');
      const ts = regionDocument('const x = compute(1, 2);\n', 't.ts');
      ts.anchors = defaultAnchors(ts);
      const outcomes: FileOutcome[] = [ok('a.ts', a), ok('p.md', prose), ok('b.c', b), ok('t.ts', ts), { relPath: 'bad.ts', ok: false, reason: 'binary' }];
      // Expected: the same documents made again (reading a lean document's ids makes them, in arrays of their own),
      // whose normalised streams are the TypeScript tokenizer's.
      const [a2, b2] = [made(textA, 'a.ts'), made(textB, 'b.c')];
      for (const [lean, path, text] of [[a2, 'a.ts', textA], [b2, 'b.c', textB]] as const) {
        assert.deepEqual(plain(lean)!.ids, plain(regionDocument(text, path))!.ids, `${path}: the normalised stream made from isIdent is the tokenizer's`);
      }
      const expected = [a2, prose, b2, ts, undefined].map(plain);
      const ownBuffers = [a.raw.hi.buffer, b.raw.hi.buffer];
      const shared = packOutcomes(outcomes);
      assert.equal(shared.regions!.owned, undefined, 'without ownedRegions: all on shared memory');
      const packed = packOutcomes(outcomes, { ownedRegions: true });
      const transfer = transferablesOf(packed);
      assert.equal(new Set(transfer).size, transfer.length, 'each buffer transferred once');
      // Both kernels make a document's arrays in one buffer of its own (region()); the TypeScript's are copied.
      assert.deepEqual(packed.regions!.owned, ownBuffers);
      for (const buffer of ownBuffers) assert.ok(transfer.includes(buffer as ArrayBuffer), 'an owned buffer is transferred');
      // Through a real transfer (the sender's buffers are detached), the documents come back equal.
      const channel = new MessageChannel();
      const received = new Promise<typeof packed>((resolve) => channel.port2.once('message', resolve));
      channel.port1.postMessage(packed, transfer);
      return received.then((got) => {
        channel.port1.close();
        assert.equal(a.raw.hi.length, 0, "the sender's buffer is detached");
        const back = unpackOutcomes(got, outcomes.map((o) => o.relPath));
        const backRegions = back.map((o) => (o.ok ? o.region : undefined));
        assert.deepEqual([0, 1, 2, 3].map((i) => idsDerived(backRegions[i]!)), [true, false, true, false], 'the kernel documents arrive lean');
        assert.deepEqual(backRegions.map(plain), expected);
      });
    });
  }

  for (const under of KERNELS) {
    it(`a code file's RegionBuffer (${under.name} kernel, no views made by the sender): transferred as it is when owned, copied otherwise; it comes back as documentFromKernel's document`, function () {
      const kernel = under.kernel();
      if (!kernel) this.skip();
      const tokenize = (text: string, path: string) => kernel!.tokenize(text, kernelLanguage(kernel!, languageOf(path)), false, true);
      const texts: Array<[string, string]> = [['a.ts', 'function add(a, b) {\n  return a + b; // sum\n}\n'], ['e.ts', ''], ['c.c', 'int main(void) { return add(1, 2); }\n'.repeat(30)]];
      const expected = texts.map(([p, t]) => (tokenize(t, p), plain(documentFromKernel(kernel!, DEFAULT_CODE_ANCHORING))));
      const bufferOutcomes = (): { outcomes: FileOutcome[]; buffers: RegionBuffer[] } => {
        const buffers = texts.map(([p, t]) => (tokenize(t, p), regionBufferOf(kernel!, DEFAULT_CODE_ANCHORING)));
        return { outcomes: [...buffers.map((b, i) => ({ ...ok(texts[i][0]), regionBuffer: b }) as FileOutcome), ok('p.md', regionDocument('# Title\n\nSome words.\n', 'p.md'))], buffers };
      };
      const proseDoc = plain(regionDocument('# Title\n\nSome words.\n', 'p.md'));
      const paths = [...texts.map(([p]) => p), 'p.md'];
      // Not owned: copied onto the shared arrays, the normalised stream made there.
      const shared = bufferOutcomes();
      const copied = packOutcomes(shared.outcomes);
      assert.equal(copied.regions!.owned, undefined);
      assert.deepEqual(unpackOutcomes(copied, paths).map((o) => plain(o.ok ? o.region : undefined)), [...expected, proseDoc]);
      // Owned: each buffer transferred as it is (a real transfer), the document made of it on arrival.
      const { outcomes, buffers } = bufferOutcomes();
      const packed = packOutcomes(outcomes, { ownedRegions: true });
      assert.deepEqual(packed.regions!.owned, buffers.map((b) => b.buffer));
      const transfer = transferablesOf(packed);
      for (const b of buffers) assert.ok(transfer.includes(b.buffer));
      const channel = new MessageChannel();
      const received = new Promise<typeof packed>((resolve) => channel.port2.once('message', resolve));
      channel.port1.postMessage(packed, transfer);
      return received.then((got) => {
        channel.port1.close();
        assert.equal(buffers[0].buffer.byteLength, 0, "the sender's buffer is detached");
        const back = unpackOutcomes(got, paths).map((o) => (o.ok ? o.region : undefined));
        assert.deepEqual([0, 1, 2].map((i) => idsDerived(back[i]!)), [true, true, true], 'lean on arrival');
        assert.deepEqual(back.map(plain), [...expected, proseDoc]);
      });
    });
  }

  it('ownedRegions: a lean document whose arrays are not in the RegionBuffer layout (its buffer holding exactly them, in another order) is copied, and comes back equal', () => {
    const made = regionDocument('function add(a, b) {\n  return a + b;\n}\nconst total = add(1, 2);\n', 'a.ts');
    made.anchors = defaultAnchors(made);
    // rawLo before rawHi: the same arrays and bytes, another layout.
    const arrays = [made.raw.lo, made.raw.hi, made.start, made.lineStarts, made.anchors.hash, made.anchors.pos, made.isIdent!];
    const buffer = new ArrayBuffer(arrays.reduce((n, a) => n + a.byteLength, 0));
    let at = 0;
    const [lo, hi, start, lineStarts, hash, pos, isIdent] = arrays.map((a) => {
      const view = new (a.constructor as Uint8ArrayConstructor)(buffer, at, a.length);
      view.set(a as Uint8Array);
      at += a.byteLength;
      return view as unknown;
    }) as [Uint32Array, Uint32Array, Int32Array, Int32Array, Uint32Array, Int32Array, Uint8Array];
    const lean = leanDocument({ length: made.length, raw: { hi, lo }, isIdent, start, lineStarts });
    lean.anchors = { hash, pos };
    const packed = packOutcomes([ok('a.ts', lean)], { ownedRegions: true });
    assert.equal(packed.regions!.owned, undefined, 'copied onto the shared arrays');
    const back = unpackOutcomes(packed, ['a.ts'])[0];
    assert.deepEqual(plain(back.ok ? back.region : undefined), plain(made));
  });

  it('ownedRegions: only a lean document travels in its own buffer; one with its identifier stream (all in one buffer too) is copied, and comes back equal', () => {
    const made = regionDocument('function add(a, b) {\n  return a + b;\n}\nconst total = add(1, 2);\n', 'a.ts');
    made.anchors = defaultAnchors(made);
    assert.ok(made.ids && !idsDerived(made), 'a document with its own identifier stream');
    // Every array of it, identifier stream included, in one ArrayBuffer that holds nothing else.
    const arrays = [made.raw.hi, made.raw.lo, made.ids.hi, made.ids.lo, made.start, made.lineStarts, made.anchors.hash, made.anchors.pos, made.isIdent!];
    const buffer = new ArrayBuffer(arrays.reduce((n, a) => n + a.byteLength, 0));
    let at = 0;
    const moved = arrays.map((a) => {
      const view = new (a.constructor as Uint8ArrayConstructor)(buffer, at, a.length);
      view.set(a as Uint8Array);
      at += a.byteLength;
      return view as unknown as typeof a;
    });
    const [hi, lo, idsHi, idsLo, start, lineStarts, hash, pos, isIdent] = moved;
    const full: RegionDocument = { kind: 'code', length: made.length, raw: { hi, lo } as RegionDocument['raw'], ids: { hi: idsHi, lo: idsLo } as RegionDocument['raw'], isIdent: isIdent as Uint8Array, start: start as Int32Array, lineStarts: lineStarts as Int32Array, anchors: { hash: hash as Uint32Array, pos: pos as Int32Array } };
    const packed = packOutcomes([ok('a.ts', full)], { ownedRegions: true });
    assert.equal(packed.regions!.owned, undefined, 'not owned: copied onto the shared arrays');
    assert.ok(!transferablesOf(packed).includes(buffer), 'its buffer stays with the sender');
    const back = unpackOutcomes(packed, ['a.ts'])[0];
    assert.ok(back.ok && back.region && !idsDerived(back.region));
    assert.deepEqual(plain(back.ok ? back.region : undefined), plain(made));
  });
});

/** A document's fingerprints as plain values (views and copies compare equal). */
const plainDoc = (o: FileOutcome) =>
  o.ok
    ? {
        ...o,
        doc: {
          kind: o.doc.kind,
          file: o.doc.file && { ...o.doc.file, sketch: Array.from(o.doc.file.sketch) },
          sections: o.doc.sections.map((s) => ({ ...s, sketch: Array.from(s.sketch) })),
        },
      }
    : o;

describe('packing of fingerprints', () => {
  // Code long enough for sections; prose; a file under minTokens (no file item).
  const code = Array.from({ length: 12 }, (_, i) => `function f${i}(a, b) {\n  const x${i} = a * ${i} + b;\n  if (x${i} > 10) return x${i} - 1;\n  return helper(x${i}, a, b, ${i});\n}\n`).join('\n');
  const prose = '# Title\n\nSome words here, enough of them to make a fingerprint of a paragraph.\n\n## Part\n\nAnother paragraph with other words.\n';
  for (const under of [...KERNELS, { name: 'no' as const, kernel: () => undefined }]) {
    it(`${under.name} kernel: every outcome comes back equal through a real transfer`, function () {
      const kernel = under.kernel();
      if (under.name !== 'no' && !kernel) this.skip();
      const fp = (text: string, path: string): FileOutcome => ({ relPath: path, ok: true, bytes: text.length, encoding: 'utf-8', lines: 3, doc: fingerprintText(text, path, { kernel, minTokens: 20 }) });
      const a = fp(code, 'a.ts');
      assert.ok(a.ok && a.doc.sections.length > 1 && a.doc.file, 'file and sections made');
      const outcomes: FileOutcome[] = [a, fp(prose, 'p.md'), { relPath: 'bad.ts', ok: false, reason: 'binary' }, fp('x = 1\n', 'short.py'), { relPath: 'zh.md', ok: false, reason: 'deferred', retry: 'cjk', cjkChars: 321 }];
      const expected = outcomes.map(plainDoc);
      const packed = packOutcomes(outcomes);
      const transfer = transferablesOf(packed);
      const channel = new MessageChannel();
      const received = new Promise<typeof packed>((resolve) => channel.port2.once('message', resolve));
      channel.port1.postMessage(packed, transfer);
      return received.then((got) => {
        channel.port1.close();
        assert.equal(packed.items.length + packed.sketches.length, 0, "the sender's buffer is detached");
        const back = unpackOutcomes(got, outcomes.map((o) => o.relPath));
        assert.deepEqual(back.map(plainDoc), expected);
      });
    });
  }
});

describe("outcomesOfWords: a file's items read from the kernel's words", () => {
  // Kernel words as fingerprint writes them: the file's head (hi lo tokens features rawHi rawLo
  // normHi normLo n) and sketch, then per section (startLine endLine, then the same) and sketch.
  const HIGH = 0xfedcba98; // over 2^31: read back unsigned
  const fileHead = [HIGH, 2, 40, 37, HIGH - 1, 6, 7, HIGH - 2];
  const fileSketch = [11, 22, 33];
  const section = [5, 19, 9, HIGH - 3, 12, 10, 13, 14, 15, 16];
  const sectionSketch = [44, 55];
  const words = new Uint32Array([...fileHead, fileSketch.length, ...fileSketch, ...section, sectionSketch.length, ...sectionSketch]);
  const outcome = (w: Uint32Array) => outcomesOfWords([{ relPath: 'a.ts', ok: true, bytes: 100, encoding: 'utf-8', lines: 20, words: w }])[0];

  it('gives each field, the sketch and the lines as the words hold them, unsigned', () => {
    const o = outcome(words);
    assert.ok(o.ok);
    const { file, sections } = o.doc;
    assert.ok(file);
    assert.deepEqual([file.hi, file.lo, file.tokens, file.features, file.rawHi, file.rawLo, file.normHi, file.normLo], fileHead);
    assert.deepEqual(Array.from(file.sketch), fileSketch);
    assert.equal(sections.length, 1);
    const s = sections[0];
    assert.deepEqual([s.startLine, s.endLine, s.hi, s.lo, s.tokens, s.features, s.rawHi, s.rawLo, s.normHi, s.normLo], section);
    assert.deepEqual(Array.from(s.sketch), sectionSketch);
    assert.equal(s.sketch.buffer, words.buffer, "the sketch is a view into the words (no copy)");
  });

  it('equals, field by field, what packing the words and unpacking them gives', () => {
    const made = { relPath: 'a.ts', ok: true as const, bytes: 100, encoding: 'utf-8' as const, lines: 20, words };
    const direct = outcomesOfWords([made])[0];
    const unpacked = unpackOutcomes(packOutcomes([made]), ['a.ts'])[0];
    assert.ok(direct.ok && unpacked.ok);
    assert.deepStrictEqual(plainDocument(direct.doc), plainDocument(unpacked.doc));
  });

  it('is read-only, and plainItem copies it into a plain object with a sketch of its own', () => {
    const o = outcome(words);
    assert.ok(o.ok && o.doc.file);
    const file = o.doc.file;
    assert.throws(() => {
      (file as { hi: number }).hi = 1;
    }, TypeError);
    const copy = plainItem(o.doc.sections[0]);
    assert.deepStrictEqual(Object.keys(copy), ['hi', 'lo', 'tokens', 'features', 'sketch', 'rawHi', 'rawLo', 'normHi', 'normLo', 'startLine', 'endLine']);
    assert.notEqual(copy.sketch.buffer, words.buffer);
    assert.deepEqual(structuredClone(copy), copy, 'a plain copy survives a structured clone');
    assert.deepEqual(Object.keys(plainItem(file)), ['hi', 'lo', 'tokens', 'features', 'sketch', 'rawHi', 'rawLo', 'normHi', 'normLo']);
  });

  it("gives cloneKind what its getters give: each kind, between items of words, and beside plain items", () => {
    // Heads whose eight fields each take one of two values (one over 2^31), drawn apart so that
    // every field, read or not by cloneKind, agrees in some pairs and not in others; each its own words.
    let seed = 7;
    const bit = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 1;
    const heads = Array.from({ length: 24 }, () => Array.from({ length: 8 }, (_, f) => (bit() ? HIGH - f : 40 + f)));
    heads.push([...heads[0]], [...heads[1]]);
    heads.push(heads[2].map((v, f) => (f === 4 || f === 5 ? v ^ 1 : v))); // heads[2] renamed
    const items = heads.map((h) => {
      const o = outcome(new Uint32Array([...h, 1, 99]));
      assert.ok(o.ok && o.doc.file);
      return o.doc.file;
    });
    const kinds = new Set<string>();
    for (const x of items) {
      for (const y of items) {
        const expected = cloneKind(plainItem(x), plainItem(y));
        kinds.add(expected);
        assert.equal(cloneKind(x, y), expected);
        assert.equal(cloneKind(x, plainItem(y)), expected);
        assert.equal(cloneKind(plainItem(x), y), expected);
      }
    }
    assert.deepEqual([...kinds].sort(), ['edited', 'exact', 'renamed'], 'every kind met');
    // A section's head lies after its lines: its kind against the file's, by the same rule.
    const o = outcome(words);
    assert.ok(o.ok && o.doc.file);
    assert.equal(cloneKind(o.doc.sections[0], o.doc.file), cloneKind(plainItem(o.doc.sections[0]), plainItem(o.doc.file)));
  });

  it('gives no item for empty words, and a file item alone when there is no section', () => {
    const none = outcome(new Uint32Array(0));
    assert.ok(none.ok);
    assert.deepEqual([none.doc.file, none.doc.sections.length], [null, 0]);
    const fileOnly = outcome(new Uint32Array([...fileHead, fileSketch.length, ...fileSketch]));
    assert.ok(fileOnly.ok && fileOnly.doc.file);
    assert.deepEqual([fileOnly.doc.file.hi, fileOnly.doc.sections.length], [HIGH, 0]);
  });
});
