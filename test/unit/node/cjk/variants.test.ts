import { strict as assert } from 'node:assert';
import * as OpenCC from 'opencc-js';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import { isFoldableHan } from '../../../../src/core/text/variantFold';
import type { DocumentFingerprint } from '../../../../src/core/types';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../src/node/settings/engineSettings';
import { fingerprintDecoded } from '../../../../src/node/workers/fingerprintFile';
import { bigramSegmenter, loadCjkSegmenter } from '../../../../src/node/cjk/jieba';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { variantFold, variantTable, variantTableBuffer, type VariantLoader } from '../../../../src/node/cjk/variants';
import { defaultVariantLoader } from '../../../../src/node/cjk/variantDictionaries';
import type { FileOutcome } from '../../../../src/node/workers/fileOutcome';
import type { FingerprintWorkerData, WorkerRequest, WorkerResponse } from '../../../../src/node/workers/messages';
import { WorkerPool } from '../../../../src/node/workers/workerPool';
import { buildEngineWorkers } from '../../helpers/engineBundle';
import { chineseText, mulberry32 } from '../../helpers/corpus';

const fold = variantFold();
const jieba = loadCjkSegmenter().segmenter;

function canon(d: DocumentFingerprint): string {
  return JSON.stringify(d, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
}

/** A Simplified document with headings, and the same words in Traditional and variant forms. */
function documentPair(): { simplified: string; traditional: string } {
  const rnd = mulberry32(12);
  const parts: string[] = [];
  for (let s = 0; s < 4; s++) parts.push(`# 第${s + 1}节 台湾的回忆\n\n${chineseText(rnd, 2)}`);
  const simplified = parts.join('\n') + '\n借鉴里面的内容，看着为什么回来。敕令。\n';
  const traditional = OpenCC.Converter({ from: 'cn', to: 'tw' })(simplified).replace('借鑑', '借鑒').replace('敕令', '勅令');
  return { simplified, traditional };
}

describe('variantFold (opencc-js tables)', () => {
  it('folds the variant pairs a reader takes for one character', () => {
    assert.equal(fold('臺灣'), '台湾');
    assert.equal(fold('臺湾'), '台湾');
    assert.equal(fold('鑑鑒'), '鉴鉴');
    assert.equal(fold('迴回'), '回回');
    assert.equal(fold('裡裏里'), '里里里');
    assert.equal(fold('著着'), '着着');
    assert.equal(fold('勅敕'), '敕敕');
    assert.equal(fold('爲為为'), '为为为');
    assert.equal(fold('\uf9b1'), '铃'); // 鈴 as a CJK compatibility ideograph: as its unified form, then Simplified
  });

  it('keeps every length and is the identity on ASCII, Simplified Chinese and kana', () => {
    const table = variantTable();
    let entries = 0;
    for (let c = 0; c < 65536; c++) {
      if (table[c] === 0) continue;
      entries++;
      assert.ok(isFoldableHan(c) && isFoldableHan(table[c]), `U+${c.toString(16)}`);
      assert.equal(table[table[c]], 0, `${String.fromCharCode(c)} folds to a character that folds again`);
    }
    assert.ok(entries > 3000, `${entries} entries`);
    let all = '';
    for (let c = 0; c < 65536; c++) all += String.fromCharCode(c);
    assert.equal(fold(all).length, all.length);
    const { simplified } = documentPair();
    for (const s of ['const x = 1;\n', simplified, '台湾吃才么峰着为回里后面干发', 'ひらがな カタカナ ｶﾀｶﾅ', '한국어']) assert.equal(fold(s), s);
  });

  it('folds a Traditional copy made by OpenCC back to the Simplified text (character conversions)', () => {
    const { simplified, traditional } = documentPair();
    assert.notEqual(traditional, simplified);
    assert.equal(traditional.length, simplified.length);
    assert.equal(fold(traditional), simplified);
  });

  for (const [name, segmenter] of [['jieba', jieba], ['bigram', bigramSegmenter]] as const) {
    it(`Traditional and Simplified texts fingerprint identically with folding, differently without (${name})`, () => {
      const { simplified, traditional } = documentPair();
      const base: FingerprintOptions = { segmenter, minTokens: 20 };
      const folded = (t: string) => canon(fingerprintText(t, 'doc.md', { ...base, fold }));
      const plain = (t: string) => canon(fingerprintText(t, 'doc.md', base));
      assert.equal(folded(traditional), folded(simplified));
      assert.notEqual(plain(traditional), plain(simplified));
      assert.equal(folded(simplified), plain(simplified), 'a Simplified text is fingerprinted as before');
      for (const [a, b] of [['臺灣', '台湾'], ['鑑', '鑒'], ['迴', '回']]) {
        const pad = chineseText(mulberry32(3), 2);
        const ta = `${pad}\n${a}${pad}\n`;
        const tb = `${pad}\n${b}${pad}\n`;
        assert.equal(folded(ta), folded(tb), `${a} / ${b}`);
        assert.notEqual(plain(ta), plain(tb), `${a} / ${b} without folding`);
      }
    });
  }

  it('keeps the sections and their line ranges', () => {
    const { traditional } = documentPair();
    const ranges = (d: DocumentFingerprint) => d.sections.map((s) => [s.startLine, s.endLine]);
    const on = fingerprintText(traditional, 'doc.md', { segmenter: jieba, minTokens: 20, fold });
    const off = fingerprintText(traditional, 'doc.md', { segmenter: jieba, minTokens: 20 });
    assert.ok(on.sections.length >= 3, JSON.stringify(ranges(on)));
    assert.deepEqual(ranges(on), ranges(off));
    const code = 'function a() {\n  return "臺灣的迴響";\n}\n\nfunction b() {\n  const s = "鑑往知來";\n  return s;\n}\n'.repeat(6);
    const codeOn = fingerprintText(code, 'a.ts', { minTokens: 10, fold });
    const codeOff = fingerprintText(code, 'a.ts', { minTokens: 10 });
    assert.ok(codeOn.sections.length > 0);
    assert.deepEqual(ranges(codeOn), ranges(codeOff));
  });

  it('reaches the native kernel: code with Traditional strings fingerprints as with Simplified ones', function () {
    const kernel = nativeKernel();
    if (!kernel) this.skip();
    const code = (s: string) => `export function greet(name) {\n  const text = "${s}" + name;\n  return text.length > 3 ? text : "${s}";\n}\n`.repeat(8);
    const trad = code('歡迎來到臺灣，請參閱說明書');
    const simp = code('欢迎来到台湾，请参阅说明书');
    const settings = { ...DEFAULT_ENGINE_SETTINGS, minTokens: 10 };
    const doc = (text: string, foldVariants: boolean) => {
      const o = fingerprintDecoded('greet.js', text, text.length, 'utf-8', { ...settings, foldVariants });
      assert.ok(o.ok);
      return canon(o.doc);
    };
    assert.equal(doc(trad, true), doc(simp, true));
    assert.notEqual(doc(trad, false), doc(simp, false));
    // The kernel and the TypeScript agree on folded text.
    assert.equal(canon(fingerprintText(trad, 'greet.js', { minTokens: 10, fold, kernel })), canon(fingerprintText(trad, 'greet.js', { minTokens: 10, fold })));
  });

  it('builds the table once per thread, only when a text has a Han character', () => {
    let loads = 0;
    const loader: VariantLoader = () => {
      loads++;
      return defaultVariantLoader();
    };
    const lazy = variantFold(undefined, loader);
    assert.equal(lazy('plain ASCII text\nひらがな'), 'plain ASCII text\nひらがな');
    assert.equal(loads, 0);
    assert.equal(lazy('臺灣'), '台湾');
    assert.equal(lazy('鑑'), '鉴');
    assert.equal(loads, 1);
  });

  it('folds nothing, and says why once, when the tables cannot be loaded', () => {
    const logs: string[] = [];
    const broken: VariantLoader = () => {
      throw new Error("Cannot find module 'opencc-js/dict/TSCharacters'");
    };
    const f = variantFold((m) => logs.push(m), broken);
    assert.equal(f('臺灣'), '臺灣');
    assert.equal(f('迴'), '迴');
    assert.equal(logs.length, 1);
    assert.match(logs[0], /variant tables \(opencc-js\) could not be loaded \(Cannot find module/);
  });
});

describe('variant table shared by a scan\'s workers (variantTableBuffer)', function () {
  this.timeout(120000);
  let workerScript: string;
  before(async () => ({ workerScript } = await buildEngineWorkers()));

  /** Each of `workers` workers fingerprints `text` (one request pinned to each slot); the canonical documents. */
  const inWorkers = async (buffer: SharedArrayBuffer, text: string, workers: number): Promise<string[]> => {
    const pool = new WorkerPool<WorkerRequest, WorkerResponse>({
      script: workerScript,
      size: workers,
      workerData: { logged: new SharedArrayBuffer(4), quiet: true, variantTable: buffer } satisfies FingerprintWorkerData,
    });
    try {
      const settings = { ...DEFAULT_ENGINE_SETTINGS, cjkSegmenter: 'bigram' as const };
      const outs = await Promise.all(Array.from({ length: workers }, (_, slot) => pool.run({ type: 'fingerprintText', relPath: 'doc.md', text, settings }, undefined, { slot })));
      return outs.map((o) => {
        const outcome = o as FileOutcome;
        assert.ok(outcome.ok);
        return canon(outcome.doc);
      });
    } finally {
      await pool.close();
    }
  };
  const local = (text: string, foldVariants: boolean): string => {
    const o = fingerprintDecoded('doc.md', text, Buffer.byteLength(text), 'utf-8', { ...DEFAULT_ENGINE_SETTINGS, cjkSegmenter: 'bigram', foldVariants });
    assert.ok(o.ok);
    return canon(o.doc);
  };

  it('is made once, by the first worker that meets Han text, and the workers fold with it as with their own', async () => {
    const { traditional } = documentPair();
    const buffer = variantTableBuffer();
    const docs = await inWorkers(buffer, traditional, 2);
    assert.deepEqual(docs, [local(traditional, true), local(traditional, true)]);
    assert.notEqual(docs[0], local(traditional, false));
    assert.equal(new Int32Array(buffer, 0, 1)[0], 2, 'ready');
    assert.deepEqual(new Uint16Array(buffer, 4), variantTable());
  });

  it('a worker folds with the shared table once it is ready, without making its own', async () => {
    const { traditional } = documentPair();
    // Ready, and folding nothing: the workers' fingerprints are those of folding off.
    const buffer = variantTableBuffer();
    new Int32Array(buffer, 0, 1)[0] = 2;
    assert.deepEqual(await inWorkers(buffer, traditional, 2), [local(traditional, false), local(traditional, false)]);
  });

  it('a worker makes its own table when the shared one failed, and a buffer of another size is ignored', async () => {
    const { traditional } = documentPair();
    const failed = variantTableBuffer();
    new Int32Array(failed, 0, 1)[0] = 3;
    assert.deepEqual(await inWorkers(failed, traditional, 1), [local(traditional, true)]);
    assert.deepEqual(await inWorkers(new SharedArrayBuffer(64), traditional, 1), [local(traditional, true)]);
  });
});
