// A batch's prose files (codeBatch.ts BATCH_PROSE; native/readcode.c with tokenize.c
// kernelTokenizeProse and prosesections.c) must give what the usual path gives them
// (fingerprintText: tokenizeProse, proseSections of src/core/sections/proseSections.ts): the same
// packed words and unpacked documents, kind 'prose'; with a minTokens of 1 every section with a
// word is an item, so a section found apart from proseSections' shows. Markdown of every line kind
// its regular expressions read (ATX and setext headings, fences, front matter, list items, quotes,
// blank lines of Unicode spaces, CRLF and lone CR, U+2028), hand-made and drawn at random; their
// region documents too (kind prose, no identifier stream, anchors of the words). Files with a word
// of other letters or a CJK run are left to the usual path, and with stop words no prose file is taken.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { codeBatch, codeBatchAsync } from '../../../../src/node/workers/codeBatch';
import { fingerprintFileSync } from '../../../../src/node/workers/fingerprintFile';
import type { FileToFingerprint, PackableOutcome } from '../../../../src/node/workers/fileOutcome';
import { nativeKernel } from '../../../../src/node/workers/nativeKernel';
import { packOutcomes, unpackOutcomes } from '../../../../src/node/workers/packing';
import { mulberry32 } from '../../helpers/random';

const kernel = nativeKernel() as { readCodeBatch?: unknown; readCodeBatchAsync?: unknown } | undefined;

/** Lines of every kind proseSections reads, some of them near misses of a pattern. */
const LINE_KINDS = [
  '# Title',
  '## Section two',
  '###### six',
  '####### seven is text',
  '#no space is text',
  '   ### three spaces',
  '    # four spaces is text',
  '#',
  '## closed ##',
  '#\tTab heading',
  '===',
  '==',
  '=',
  '---',
  '--  \t',
  '   ----',
  '    ----',
  '-- x',
  '```',
  '```js',
  '```js `tick`',
  '~~~',
  '~~~~ info `ok`',
  '   ```',
  '    ```',
  '``',
  '```\r',
  '``` \u2028 x',
  '- item one',
  '* item',
  '+ item',
  '-item',
  '1. first',
  '12) twelve',
  '123456789. nine digits',
  '1234567890. ten digits',
  '1.',
  '1.x',
  '> quoted text here',
  '   > quoted',
  '...',
  'Plain words of a paragraph, some more words after them.',
  "It's the user's own words, don't they? Rock’n’roll isn’t ’quoted’.",
  'Numbers 123 and 4th and v2 are words; so are x86_64 parts.',
  'A longer line of prose that goes on and on with many words in it, to reach the character limit sooner than the line limit does.',
  '',
  '   ',
  '\u00a0\u3000',
  '\t',
  '\u200b',
];

/** A random Markdown text: lines of LINE_KINDS (prose lines more often), "\n", "\r\n" or a lone "\r" between them, sometimes front matter first. */
function randomMarkdown(rnd: () => number, lines: number): string {
  const out: string[] = [];
  if (rnd() < 0.3) out.push('---', 'title: front matter', 'tags: [a, b]', rnd() < 0.5 ? '---' : '...');
  for (let i = 0; i < lines; i++) {
    const r = rnd();
    if (r < 0.45) out.push(LINE_KINDS[41 + Math.floor(rnd() * 4)]);
    else if (r < 0.6) out.push('');
    else out.push(LINE_KINDS[Math.floor(rnd() * LINE_KINDS.length)]);
  }
  let text = '';
  for (let i = 0; i < out.length; i++) {
    const r = rnd();
    text += out[i] + (i === out.length - 1 && rnd() < 0.5 ? '' : r < 0.8 ? '\n' : r < 0.95 ? '\r\n' : '\r');
  }
  return text;
}

/** Hand-made texts: each says what it checks. */
const TEXTS: Array<[string, string]> = [
  ['headings.md', '# One\n\nSome text under one.\nMore text.\n\n## Two\n\nText of two.\n\n### Three\nText of three.\n\n## Four\nText of four.\n\n# Five\nText of five.\n'],
  ['setext.md', 'Title here\n==========\n\nBody of the title, long enough.\nAnother line.\n\nSub title\n---------\nBody of sub.\n\n- list item\n---\nnot a heading above\n\n> quote\n===\n'],
  ['fences.md', '# Code\n\n```js\n# not a heading\nconst a = 1;\n```\n\nText after.\n\n~~~~\n~~~\n# still code\n~~~~~\n\n# Heading after fences\nText.\n'],
  ['front-matter.md', '---\ntitle: x\n# not a heading\n---\n# Real heading\nBody text.\n'],
  ['front-matter-unclosed.md', '---\ntitle: x\n# heading inside unclosed front matter\nBody text.\n'],
  ['long-paragraph.txt', Array.from({ length: 200 }, (_, i) => `Line ${i} of a long paragraph with words`).join('\n')],
  ['long-lines.txt', Array.from({ length: 12 }, (_, i) => `${'word '.repeat(100)}${i}`).join('\n')], // minified: left by both
  ['paragraphs.txt', Array.from({ length: 60 }, (_, i) => `Paragraph ${i} first line.\nSecond line ${i}.\n`).join('\n')],
  ['tail.md', `${Array.from({ length: 31 }, (_, i) => `Run line ${i}`).join('\n')}\n\nsmall tail\n`],
  ['crlf.md', '# Title\r\n\r\nText one.\r\nText two.\r\n\r\n## Sub\r\nMore.\r\n'],
  ['lone-cr.md', '# Title\rnot a new line\n```\r\n# inside or not\n```\nText.\n'],
  ['no-words.md', '# ---\n\n***\n\n!!! ??? ...\n'],
  ['one-word.md', 'word'],
  ['empty.md', ''],
  ['headings-only.md', '# a\n## b\n### c\n## d\n# e\n'],
  ['accents.md', '# CAFÉ Ünïcode\n\nA naïve café, Straße, Łódź, Ÿes, Привет МИР, Việt, e\u0301 sign.\n'],
  ['deep.md', Array.from({ length: 40 }, (_, i) => `${'#'.repeat((i % 6) + 1)} Heading ${i}\n\nBody ${i} words here.\n${i % 7 === 0 ? `${'more words '.repeat(300)}\n` : ''}`).join('\n')],
];

/** Left to the usual path: a word of other letters (Greek, İ: native/tokenize.c proseLower knows no lower case of theirs), a CJK run. */
const LEFT: Array<[string, string]> = [
  ['greek.md', '# Ωmega\n\nA ΣΊΣΥΦΟΣ word.\n'],
  ['dotted.txt', 'İstanbul is a city.\n'],
  ['chinese.md', '# 标题\n\n这是中文的段落。\n'],
  ['kana.txt', 'Some text then カタカナ here.\n'],
];

/** The files' outcomes packed and unpacked: file by file, or `made` by a batch first; with `regions`, their region documents too (copied, or `owned` in their buffers). */
function packed(batch: readonly FileToFingerprint[], settings: EngineSettings, made?: ReturnType<typeof codeBatch>, regions = false, owned = false) {
  const outcomes: PackableOutcome[] = batch.map((f, i) => made?.[i] ?? fingerprintFileSync(f, settings, undefined, undefined, regions, regions));
  const p = packOutcomes(outcomes, { ownedRegions: owned });
  return { p: owned ? undefined : structuredClone(p), unpacked: unpackOutcomes(p, batch.map((f) => f.relPath)) };
}

(kernel?.readCodeBatch ? describe : describe.skip)('codeBatch: prose files through the kernel', function () {
  this.timeout(120000);
  let dir: string;
  let batch: FileToFingerprint[];
  const names = new Set<string>();
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-prose-batch-'));
    const rnd = mulberry32(29);
    const texts: Array<[string, string]> = [...TEXTS, ...LEFT];
    for (let i = 0; i < 120; i++) texts.push([`random-${i}.${i % 3 ? 'md' : 'txt'}`, randomMarkdown(rnd, 5 + Math.floor(rnd() * (i % 10 === 0 ? 400 : 60)))]);
    batch = texts.map(([name, text]) => {
      fs.writeFileSync(path.join(dir, name), text);
      names.add(name);
      return { path: path.join(dir, name), relPath: name };
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const settingsList: Array<[string, EngineSettings]> = [
    ['defaults', { ...DEFAULT_ENGINE_SETTINGS }],
    ['minTokens 1 (every section with a word an item)', { ...DEFAULT_ENGINE_SETTINGS, minTokens: 1 }],
    ['minTokens 1, normalised identifiers, tf', { ...DEFAULT_ENGINE_SETTINGS, minTokens: 1, normalizeIdentifiers: true, weighting: 'tf' }],
    ['no sections', { ...DEFAULT_ENGINE_SETTINGS, sections: false, minTokens: 1 }],
  ];
  for (const [label, settings] of settingsList) {
    it(`gives what the files give one by one (${label}), kind prose, on this thread and off it`, async () => {
      const one = packed(batch, settings);
      const made = codeBatch(batch, settings, undefined, false, false);
      assert.ok(made, 'a batch was made');
      const all = packed(batch, settings, made);
      assert.deepStrictEqual(all.p, one.p);
      assert.deepStrictEqual(all.unpacked, one.unpacked);
      const async = packed(batch, settings, await codeBatchAsync(batch, settings, undefined, false)!);
      assert.deepStrictEqual(async.p, one.p);
      // Which it took: the hand-made texts (not the one of long lines, minified to both paths), most
      // random ones (not those plainCodeText leaves: a U+3000 may be Han to fold), no file with
      // other words or CJK.
      const taken = new Set(batch.filter((_, i) => made[i]).map((f) => f.relPath));
      for (const [name] of TEXTS) assert.equal(taken.has(name), name !== 'long-lines.txt', name);
      for (const [name] of LEFT) assert.ok(!taken.has(name), name);
      const random = [...taken].filter((n) => n.startsWith('random-')).length;
      assert.ok(random >= 40, `${random} random texts taken`);
      for (const i of batch.keys()) {
        const o = one.unpacked[i];
        if (made[i]) assert.ok(o.ok && o.doc.kind === 'prose', batch[i].relPath);
      }
      if (settings.minTokens === 1 && settings.sections !== false) {
        const sections = one.unpacked.reduce((n, o) => n + (o.ok ? o.doc.sections.length : 0), 0);
        assert.ok(sections > 300, `${sections} sections compared`);
      }
    });
  }

  for (const [label, settings] of settingsList.slice(0, 2)) {
    it(`with region documents: the same documents (prose, their words, lines and anchors) and words as file by file (${label})`, async () => {
      const one = packed(batch, settings, undefined, true);
      const made = codeBatch(batch, settings, undefined, true, true)!;
      const async = await codeBatchAsync(batch, settings, undefined, true)!;
      for (const given of [made, async]) {
        assert.ok(given.filter((o) => o?.prose && o.regionBuffer?.prose).length >= 60, 'prose files with their region documents taken');
        assert.deepStrictEqual(packed(batch, settings, given, true).p, one.p, 'copied');
        const own = packed(batch, settings, given, true, true).unpacked;
        let docs = 0;
        own.forEach((o, i) => {
          const u = one.unpacked[i];
          assert.deepStrictEqual({ ...o, region: undefined }, { ...u, region: undefined }, batch[i].relPath);
          if (o.ok && u.ok && u.region) {
            assert.deepStrictEqual({ ...o.region }, { ...u.region }, `${batch[i].relPath}: its document in its own buffer`);
            docs += o.region!.kind === 'prose' && o.region!.anchors!.hash.length > 0 ? 1 : 0;
          }
        });
        assert.ok(docs >= 60, `${docs} documents with anchors compared`);
      }
    });
  }

  it('says which prose files it left for their CJK text (jieba\'s to cut: its dictionary may be read ahead), not those left for other letters', async () => {
    // (with the variant fold on and no fold table in the kernel, they are left for their Han first: nativeBatches.ts runs them again with one)
    const named = batch.filter((f) => !f.relPath.startsWith('random-')); // (a random text's U+3000 may be Han too)
    let han: number[] = [];
    let cjk: number[] = [];
    await codeBatchAsync(named, DEFAULT_ENGINE_SETTINGS, undefined, false, 0, (h, c) => ((han = h), (cjk = c)))!;
    assert.deepStrictEqual([han.map((i) => named[i].relPath), cjk], [['chinese.md', 'kana.txt'], []]);
    await codeBatchAsync(named, { ...DEFAULT_ENGINE_SETTINGS, foldVariants: false }, undefined, false, 0, (h, c) => ((han = h), (cjk = c)))!;
    assert.deepStrictEqual([han, cjk.map((i) => named[i].relPath)], [[], ['chinese.md', 'kana.txt']]);
  });

  it('takes no prose file with stop words dropped', () => {
    const prose = batch.filter((f) => f.relPath.endsWith('.md'));
    assert.equal(codeBatch(prose, { ...DEFAULT_ENGINE_SETTINGS, stopWords: true }, undefined, false, false), undefined);
    assert.ok(codeBatch(prose, DEFAULT_ENGINE_SETTINGS, undefined, false, false));
  });
});
