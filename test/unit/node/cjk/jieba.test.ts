import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCjk } from '../../../../src/core/text/tokenize';
import { loadCjkSegmenter, bigramSegmenter, defaultJiebaLoader, subsetFirstJieba, type JiebaClass, type JiebaLoader } from '../../../../src/node/cjk/jieba';
import { FILLER_WORD } from '../../../../src/node/cjk/jiebaDictionary';

describe('bigramSegmenter', () => {
  it('makes overlapping bigrams', () => {
    assert.deepEqual(bigramSegmenter('abcd'), ['ab', 'bc', 'cd']);
    assert.deepEqual(bigramSegmenter('近似重复'), ['近似', '似重', '重复']);
  });

  it('returns a single character as is, and nothing for an empty run', () => {
    assert.deepEqual(bigramSegmenter('中'), ['中']);
    assert.deepEqual(bigramSegmenter(''), []);
  });

  it('works on code points (astral ideographs) and does not span whitespace', () => {
    assert.deepEqual(bigramSegmenter('𠀀𠀁中'), ['𠀀𠀁', '𠀁中']);
    assert.deepEqual(bigramSegmenter('中文 文本'), ['中文', '文本']);
  });
});

describe('loadCjkSegmenter', () => {
  it('loads jieba and segments Chinese into words', () => {
    const logs: string[] = [];
    const s = loadCjkSegmenter((m) => logs.push(m));
    assert.equal(s.name, 'jieba');
    assert.deepEqual(logs, []);
    assert.deepEqual(s.segmenter('我们中出了一个叛徒'), ['我们', '中', '出', '了', '一个', '叛徒']);
    assert.deepEqual(s.segmenter(''), []);
  });

  it('drops whitespace-only tokens', () => {
    const s = loadCjkSegmenter();
    const tokens = s.segmenter('南京市 长江大桥\n\t 近似重复');
    assert.ok(tokens.length > 0);
    assert.ok(tokens.every((t) => t.trim() !== ''), JSON.stringify(tokens));
    assert.ok(tokens.includes('近似'));
  });

  it('caches the instance per process', () => {
    assert.equal(loadCjkSegmenter(), loadCjkSegmenter(undefined, defaultJiebaLoader));
  });

  it('falls back to bigrams and logs once when the native module cannot load', () => {
    let calls = 0;
    const failing: JiebaLoader = () => {
      calls++;
      throw new Error("Cannot find module '@node-rs/jieba-linux-x64-gnu'\nRequire stack: ...");
    };
    const logs: string[] = [];
    const a = loadCjkSegmenter((m) => logs.push(m), failing);
    const b = loadCjkSegmenter((m) => logs.push(m), failing);
    assert.equal(a.name, 'bigram');
    assert.equal(b, a);
    assert.equal(calls, 1);
    assert.equal(logs.length, 1);
    assert.match(logs[0], /jieba.*could not be loaded.*jieba-linux-x64-gnu.*bigram/);
    assert.doesNotMatch(logs[0], /Require stack/);
    assert.deepEqual(a.segmenter('近似重复'), ['近似', '似重', '重复']);
  });

  it('uses an injected working loader and filters its whitespace tokens', () => {
    const fake: JiebaLoader = () => ({ cut: (s: string) => s.split(/(\s+)/) });
    const s = loadCjkSegmenter(undefined, fake);
    assert.equal(s.name, 'jieba');
    assert.deepEqual(s.segmenter('甲乙 丙丁'), ['甲乙', '丙丁']);
  });
});

/** The shipped dictionary and jieba itself, loaded whole: the reference every subset cut is held to. */
const DICT_BYTES = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Jieba } = require('@node-rs/jieba') as { Jieba: JiebaClass };

const REPO = path.join(__dirname, '..', '..', '..', '..');
const ZH_CORPUS = path.join(REPO, 'bench', '.cache', 'corpus', 'zh');

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Real Chinese: the zh quality corpus when built (bench/.cache), and always the repo's own (the
 * Chinese fixtures and translations, the variant and stop-word tables: rare and Traditional
 * characters that the dictionary lacks).
 */
function chineseTexts(): string[] {
  const repoFiles = [
    ...filesUnder(path.join(REPO, 'test', 'fixtures', 'workspace', 'docs', 'zh')),
    path.join(REPO, 'l10n', 'bundle.l10n.zh-cn.json'),
    path.join(REPO, 'package.nls.zh-cn.json'),
    path.join(REPO, 'src', 'core', 'text', 'variantFold.ts'),
    path.join(REPO, 'src', 'core', 'text', 'stopWords.ts'),
    path.join(REPO, 'README.md'),
  ];
  return [...filesUnder(ZH_CORPUS), ...repoFiles].map((f) => fs.readFileSync(f, 'utf8'));
}

/** The CJK runs the prose tokenizer hands the segmenter (tokenize.ts's isCjk). */
function cjkRuns(text: string): string[] {
  const runs: string[] = [];
  for (let i = 0; i < text.length; ) {
    if (!isCjk(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isCjk(text.charCodeAt(i))) i++;
    runs.push(text.slice(start, i));
  }
  return runs;
}

/** Sorted dictionary text from `word freq` pairs (the order readJiebaDictionary asks for). */
function dictionaryOf(entries: [string, number][]): Buffer {
  const lines = entries.map(([w, f]) => Buffer.from(`${w} ${f} n\n`, 'utf8'));
  lines.sort((a, b) => Buffer.compare(a.subarray(0, a.indexOf(0x20)), b.subarray(0, b.indexOf(0x20))));
  return Buffer.concat(lines);
}

describe('subsetFirstJieba', () => {
  const full = Jieba.withDict(DICT_BYTES);

  it('cuts every real run as the whole dictionary does (and whole lines with ASCII, spaces and punctuation, and long runs)', function () {
    this.timeout(300000);
    const texts = chineseTexts();
    const inputs: string[] = [];
    for (const text of texts) {
      const runs = cjkRuns(text);
      inputs.push(...runs);
      // A long run: the file's runs joined (thousands of characters).
      inputs.push(runs.join(''));
      // Lines as they are: jieba's own splitter meets ASCII words, digits, spaces and punctuation.
      inputs.push(...text.split('\n').filter((l) => isCjkLine(l)).slice(0, 400));
    }
    inputs.push('iPhone手机AA制4S店', '3.5寸屏幕C++程序', '𠀀中文𠀁𪚥', 'ひらがな漢字한국어', '中文\t \r\n文本', '中\ud800文\udc00人民');
    const subset = subsetFirstJieba(Jieba, DICT_BYTES, Infinity);
    let chars = 0;
    for (const run of inputs) {
      chars += run.length;
      assert.deepEqual(subset.cut(run, false), full.cut(run, false), run.slice(0, 80));
    }
    assert.equal(subset.dictionary, 'subset');
    assert.equal(subset.subsetRuns, inputs.length);
    assert.ok(chars > 10000, `only ${chars} characters of Chinese found`);
  });

  it('breaks route ties, and cuts unknown characters, as the whole dictionary does (a small dictionary)', () => {
    // 甲乙丙 ties: 甲+乙丙 and 甲乙+丙 score the same (all four words have one frequency).
    const bytes = dictionaryOf([
      ['甲', 10],
      ['乙', 10],
      ['丙', 10],
      ['甲乙', 10],
      ['乙丙', 10],
      ['丁戊', 3],
      ['丁', 1],
      ['戊', 2],
      ['甲乙丙丁', 1],
      ['己', 500],
    ]);
    const whole = Jieba.withDict(bytes);
    const subset = subsetFirstJieba(Jieba, bytes, Infinity);
    for (const run of ['甲乙丙', '甲乙丙甲乙丙', '丁戊', '甲乙丙丁', '庚辛甲乙丙庚', '庚', '己甲乙丙己', '丙乙甲', 'x甲乙y丙']) {
      assert.deepEqual(subset.cut(run, false), whole.cut(run, false), run);
    }
    assert.equal(subset.dictionary, 'subset');
  });

  it('loads the whole dictionary once its budget is spent, and cuts the same after', () => {
    const subset = subsetFirstJieba(Jieba, DICT_BYTES, 12);
    assert.deepEqual(subset.cut('南京市长江大桥'), full.cut('南京市长江大桥', false));
    assert.equal(subset.dictionary, 'subset');
    assert.deepEqual(subset.cut('我们中出了一个叛徒'), full.cut('我们中出了一个叛徒', false));
    assert.equal(subset.dictionary, 'full');
    assert.equal(subset.subsetRuns, 1);
  });

  it('loads the whole dictionary when asked (loadWhole), before any run or between runs, and cuts the same', () => {
    const first = subsetFirstJieba(Jieba, DICT_BYTES, Infinity);
    first.loadWhole();
    assert.equal(first.dictionary, 'full');
    assert.deepEqual(first.cut('南京市长江大桥'), full.cut('南京市长江大桥', false));
    assert.equal(first.subsetRuns, 0);
    const later = subsetFirstJieba(Jieba, DICT_BYTES, Infinity);
    assert.deepEqual(later.cut('南京市长江大桥'), full.cut('南京市长江大桥', false));
    assert.equal(later.dictionary, 'subset');
    later.loadWhole();
    later.loadWhole();
    assert.equal(later.dictionary, 'full');
    assert.deepEqual(later.cut('我们中出了一个叛徒'), full.cut('我们中出了一个叛徒', false));
    assert.equal(later.subsetRuns, 1);
  });

  it('loads the whole dictionary for a run that holds the filler word', () => {
    const subset = subsetFirstJieba(Jieba, DICT_BYTES, Infinity);
    const run = `长江${FILLER_WORD}大桥`;
    assert.deepEqual(subset.cut(run), full.cut(run, false));
    assert.equal(subset.dictionary, 'full');
  });

  it('keeps cutting with the subset when the late whole load fails, and throws only for a filler run', () => {
    const failsWhole: JiebaClass = {
      withDict: (dict) => {
        if (dict.length > 1_000_000) throw new Error('out of memory');
        return Jieba.withDict(dict);
      },
    };
    const subset = subsetFirstJieba(failsWhole, DICT_BYTES, 4);
    for (const run of ['南京市长江大桥', '我们中出了一个叛徒', '近似重复']) assert.deepEqual(subset.cut(run), full.cut(run, false));
    assert.equal(subset.dictionary, 'subset');
    assert.throws(() => subset.cut(FILLER_WORD), /whole dictionary could not be loaded/);
  });

  it('holds no word whose loading failed: the run fails alone and the next cuts are right', () => {
    let failNext = false;
    const flaky: JiebaClass = {
      withDict: (dict) => {
        const j = Jieba.withDict(dict);
        return {
          cut: (s, hmm) => j.cut(s, hmm),
          loadDict: (d) => {
            if (failNext) {
              failNext = false;
              throw new Error('Load dict failed');
            }
            j.loadDict(d);
          },
        };
      },
    };
    const subset = subsetFirstJieba(flaky, DICT_BYTES, Infinity);
    failNext = true;
    assert.throws(() => subset.cut('南京市长江大桥'), /Load dict failed/);
    assert.equal(subset.subsetWords, 0);
    for (const run of ['南京市长江大桥', '长江', '市长']) assert.deepEqual(subset.cut(run), full.cut(run, false), run);
  });

  it('loads a dictionary of another shape whole at once', () => {
    // A word twice: jieba keeps its last frequency, and the total is not the sum of the lines.
    const twice = Buffer.from('乙 5 n\n甲 5 n\n甲 70 n\n甲乙 1 n\n', 'utf8');
    const subset = subsetFirstJieba(Jieba, twice, Infinity);
    assert.equal(subset.dictionary, 'full');
    assert.deepEqual(subset.cut('甲乙'), Jieba.withDict(twice).cut('甲乙', false));
  });

  it('fails as the whole load would when the binding is broken (the loader then falls back to bigrams)', () => {
    const broken: JiebaClass = {
      withDict: () => {
        throw new Error('Load dict failed');
      },
    };
    assert.throws(() => subsetFirstJieba(broken, DICT_BYTES), /Load dict failed/);
    const logs: string[] = [];
    const loaded = loadCjkSegmenter((m) => logs.push(m), () => subsetFirstJieba(broken, DICT_BYTES));
    assert.equal(loaded.name, 'bigram');
    assert.equal(logs.length, 1);
  });

  it('fingerprints files with a little Chinese without loading the whole dictionary (the worker path, in a fresh process)', () => {
    const files = filesUnder(path.join(REPO, 'test', 'fixtures', 'workspace', 'docs', 'zh'));
    assert.ok(files.length >= 2);
    const script = `
      const fs = require('node:fs');
      const { fingerprintFileSync } = require('./src/node/workers/fingerprintFile');
      const { loadCjkSegmenter } = require('./src/node/cjk/jieba');
      const { DEFAULT_ENGINE_SETTINGS } = require('./src/node/settings/engineSettings');
      const files = ${JSON.stringify(files)};
      const outcomes = files.map((f) => fingerprintFileSync({ path: f, relPath: require('node:path').basename(f) }, DEFAULT_ENGINE_SETTINGS));
      const loaded = loadCjkSegmenter();
      process.stdout.write(JSON.stringify({ ok: outcomes.map((o) => o.ok), name: loaded.name, dictionary: loaded.dictionary && loaded.dictionary() }));
    `;
    const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { ok: files.map(() => true), name: 'jieba', dictionary: 'subset' });
  });

  it('is what the default loader gives', () => {
    const loaded = loadCjkSegmenter();
    assert.equal(loaded.name, 'jieba');
    assert.ok(loaded.dictionary, 'the default jieba is subset-first');
    assert.match(loaded.dictionary(), /^(subset|full)$/);
  });
});

function isCjkLine(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (isCjk(line.charCodeAt(i))) return true;
  return false;
}
