import { strict as assert } from 'node:assert';
import { loadCjkSegmenter, bigramSegmenter, defaultJiebaLoader, type JiebaLoader } from '../../../../src/node/workers/jieba';

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
