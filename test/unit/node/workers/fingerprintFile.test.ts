// A prose file's region document made from what its fingerprinting already has (fingerprintText's
// proseTokenized hook: its tokens, or its marked and folded text) must be regionDocumentOf's, which
// reads the text again: the same streams, token starts, line starts and anchors, under every
// setting that changes the fingerprint's tokens (stop words, the CJK segmenter, the variant fold),
// on English, Chinese (Traditional and Simplified), Japanese and marked texts, and this
// repository's docs; the fingerprints are those made without the hook. Asked for region buffers,
// a code file the kernel fingerprints gives the kernel's buffer of that same document.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { documentFromTokens, lineStartsOf, regionBufferDocument, regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { bigramSegmenter } from '../../../../src/core/text/segmenters';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { fingerprintFileSync, regionDocumentOf } from '../../../../src/node/workers/fingerprintFile';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { chineseText, editLines, proseText } from '../../helpers/corpus';
import { mulberry32 } from '../../helpers/random';

const REPO = path.join(__dirname, '..', '..', '..', '..');

/** Prose texts: generated English and Chinese, mixed, marked, Traditional, kana; this repository's docs. */
function texts(): Array<[string, string]> {
  const rnd = mulberry32(7);
  const en = proseText(rnd, 8);
  const zh = chineseText(rnd, 4);
  const out: Array<[string, string]> = [
    ['en.md', en],
    ['edited.md', editLines(en, rnd, 0.2)],
    ['zh.md', zh],
    ['mixed.md', `${proseText(rnd, 3)}\n${zh}\nThe end of it is the system's index.\n`],
    ['traditional.txt', `${proseText(rnd, 2)}\n這個系統會讀取每個檔案並計算指紋，簡體與繁體應該一樣。\n${proseText(rnd, 2)}`],
    ['kana.md', `${proseText(rnd, 2)}\nこれはテストの文章です。カタカナもあります。\n`],
    ['marked.md', `${proseText(rnd, 3)}\n<!-- neardup-ignore-start -->\n${proseText(rnd, 2)}<!-- neardup-ignore-end -->\n${proseText(rnd, 2)}`],
    ['next.md', `${proseText(rnd, 2)}\n<!-- neardup-ignore-next -->\nThis line is not read by the system.\n${proseText(rnd, 2)}`],
    ['ignored.md', `<!-- neardup-ignore-file -->\n${proseText(rnd, 3)}`],
    ['short.md', 'A few words only.\r\nAnd a second line.'],
    ['empty.txt', ''],
  ];
  for (const name of ['README.md', 'CHANGELOG.md', 'docs/localisation.md', 'docs/architecture.md']) out.push([path.basename(name), fs.readFileSync(path.join(REPO, name), 'utf8')]);
  return out;
}

const SETTINGS: Array<[string, EngineSettings]> = [
  ['defaults', { ...DEFAULT_ENGINE_SETTINGS }],
  ['stop words', { ...DEFAULT_ENGINE_SETTINGS, stopWords: true }],
  ['bigram segmenter', { ...DEFAULT_ENGINE_SETTINGS, cjkSegmenter: 'bigram' }],
  ['no variant fold', { ...DEFAULT_ENGINE_SETTINGS, foldVariants: false }],
];

describe('fingerprintFile: prose region documents from the fingerprinting pass', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-prose-regions-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [label, settings] of SETTINGS) {
    it(`fingerprintFileSync with regions gives regionDocumentOf's document (${label})`, () => {
      let compared = 0;
      for (const [name, text] of texts()) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        const outcome = fingerprintFileSync({ path: file, relPath: name }, settings, undefined, undefined, true);
        const plain = fingerprintFileSync({ path: file, relPath: name }, settings);
        const expected = regionDocumentOf(name, text, settings);
        if (!outcome.ok) {
          assert.equal(plain.ok, false, name);
          continue;
        }
        assert.ok(plain.ok, name);
        assert.deepEqual(outcome.doc, plain.doc, `${name}: the fingerprints`);
        assert.deepEqual(outcome.region ?? null, expected, `${name}: the region document`);
        if (expected) compared++;
      }
      assert.ok(compared >= 12, `${compared} documents compared`);
    });
  }

  it('fingerprintText’s proseTokenized hook: called for prose only, the same fingerprints; `plain` exactly when the tokens are the region finder’s', () => {
    let plainSeen = 0;
    let otherSeen = 0;
    for (const [name, text] of [...texts(), ['code.ts', 'export const x = 1; // not prose\n'] as [string, string]]) {
      for (const options of [{}, { stopWords: true }, { segmenter: bigramSegmenter }, { segmenter: bigramSegmenter, stopWords: true }] as FingerprintOptions[]) {
        const withoutHook = fingerprintText(text, name, { ...options, minTokens: 5 });
        const calls: Array<{ doc: RegionDocument; text: string; plain: boolean }> = [];
        const withHook = fingerprintText(text, name, {
          ...options,
          minTokens: 5,
          proseTokenized: (tokens, kept, plain) => void calls.push({ doc: documentFromTokens('prose', tokens, null, lineStartsOf(kept)), text: kept, plain }),
        });
        assert.deepEqual(withHook, withoutHook, name);
        if (name === 'code.ts' || name === 'ignored.md') {
          assert.equal(calls.length, 0, `${name}: no call`);
          continue;
        }
        assert.equal(calls.length, 1, name);
        const [{ doc, text: kept, plain }] = calls;
        assert.equal(kept.length, text.length, `${name}: the text as tokenised keeps the offsets`);
        const regionDoc = regionDocument(kept, name);
        const cjk = /[\u3040-\u30ff\u4e00-\u9fff]/.test(kept);
        assert.equal(plain, !options.stopWords && (!cjk || !options.segmenter), `${name} ${JSON.stringify(Object.keys(options))}`);
        if (plain) {
          assert.deepEqual(doc, regionDoc, name);
          plainSeen++;
        } else otherSeen++;
      }
    }
    assert.ok(plainSeen >= 20 && otherSeen >= 20, `${plainSeen} plain, ${otherSeen} not`);
  });
});

describe('fingerprintFile: region buffers (a worker packing documents the receiver keeps)', function () {
  this.timeout(120000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-region-buffers-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a code file the kernel fingerprints gives the kernel's RegionBuffer (its document regionDocumentOf's), any other file its document; the fingerprints unchanged", function () {
    if (!nativeKernel()) this.skip(); // the addon is not built here
    const files: Array<[string, string]> = [
      ['a.ts', fs.readFileSync(path.join(REPO, 'src/core/regions/document.ts'), 'utf8')],
      ['b.c', fs.readFileSync(path.join(REPO, 'native/regiondoc.c'), 'utf8')],
      ['marked.ts', '// neardup-ignore-start\nconst a = 1;\n// neardup-ignore-end\nexport const b = [1, 2, 3].map((x) => x * 2);\n'],
      ['ignored.ts', '// neardup-ignore-file\nconst a = 1;\n'],
      ['p.md', proseText(mulberry32(3), 4)],
      ['n.ipynb', JSON.stringify({ cells: [{ cell_type: 'code', source: ['x = 1\n', 'print(x)\n'] }, { cell_type: 'markdown', source: ['# Notes\n', 'Some words.\n'] }], metadata: { language_info: { name: 'python' } } })],
    ];
    const kinds: string[] = [];
    // tf-idf (with its table) is weighed in TypeScript: the kernel does not fingerprint, so no hook.
    const df = { buffer: new SharedArrayBuffer(4 << 10), documents: 3 };
    const cases = [[{ ...DEFAULT_ENGINE_SETTINGS }], [{ ...DEFAULT_ENGINE_SETTINGS, normalizeIdentifiers: true }], [{ ...DEFAULT_ENGINE_SETTINGS, weighting: 'tfidf' as const }, df]] as const;
    for (const [settings, frequencies] of cases) {
      for (const [name, text] of files) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        const withBuffers = fingerprintFileSync({ path: file, relPath: name }, settings, frequencies, undefined, true, true);
        const documents = fingerprintFileSync({ path: file, relPath: name }, settings, frequencies, undefined, true);
        assert.equal(withBuffers.ok, documents.ok, name);
        if (!withBuffers.ok || !documents.ok) {
          kinds.push(`${name}:failed`);
          continue;
        }
        assert.deepEqual(withBuffers.doc, documents.doc, `${name}: the fingerprints`);
        assert.ok(!(withBuffers.region && withBuffers.regionBuffer), `${name}: one or the other`);
        const got = withBuffers.regionBuffer ? regionBufferDocument(withBuffers.regionBuffer) : withBuffers.region;
        assert.deepEqual(got ?? null, regionDocumentOf(name, text, settings), `${name}: the region document`);
        kinds.push(`${name}:${withBuffers.regionBuffer ? 'buffer' : withBuffers.region ? 'document' : 'none'}`);
      }
    }
    assert.deepEqual(kinds, [
      ...['a.ts:buffer', 'b.c:buffer', 'marked.ts:buffer', 'ignored.ts:failed', 'p.md:document', 'n.ipynb:document'],
      ...['a.ts:buffer', 'b.c:buffer', 'marked.ts:buffer', 'ignored.ts:failed', 'p.md:document', 'n.ipynb:document'],
      ...['a.ts:document', 'b.c:document', 'marked.ts:document', 'ignored.ts:failed', 'p.md:document', 'n.ipynb:document'],
    ]);
  });
});
