// A prose file's region document made from what its fingerprinting already has (fingerprintText's
// proseTokenized hook: its tokens, or its marked and folded text) must be regionDocumentOf's, which
// reads the text again: the same streams, token starts, line starts and anchors, under every
// setting that changes the fingerprint's tokens (stop words, the CJK segmenter, the variant fold),
// on English, Chinese (Traditional and Simplified), Japanese and marked texts, and this
// repository's docs; the fingerprints are those made without the hook.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { documentFromTokens, lineStartsOf, regionDocument, type RegionDocument } from '../../../../src/core/regions/document';
import { bigramSegmenter } from '../../../../src/core/text/segmenters';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { fingerprintFileSync, regionDocumentOf } from '../../../../src/node/workers/fingerprintFile';
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
