import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { dictionaryText, extendsWord, FILLER_WORD, freqSum, readJiebaDictionary, searchWord, wordLine, wordsOfRun } from '../../../../src/node/workers/jiebaDictionary';

const DICT_BYTES = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** The dictionary's entries parsed the plain way (split lines and fields), to check the byte pass against. */
function plainEntries(text: string): { word: string; freq: number }[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [word, freq] = l.split(' ');
      return { word, freq: Number(freq) };
    });
}

describe('readJiebaDictionary', () => {
  it("reads @node-rs/jieba's dictionary: every line, its total and its longest word", () => {
    const dict = readJiebaDictionary(DICT_BYTES);
    assert.ok(dict, 'the shipped dictionary has the shape the subsets rely on');
    const entries = plainEntries(DICT_BYTES.toString('utf8'));
    assert.equal(dict.lines, entries.length);
    assert.equal(dict.total, entries.reduce((a, e) => a + e.freq, 0));
    assert.equal(dict.maxWordBytes, entries.reduce((m, e) => Math.max(m, utf8(e.word).length), 0));
    for (let i = 0; i < entries.length; i += 997) {
      assert.equal(DICT_BYTES.subarray(dict.wordStarts[i], DICT_BYTES.indexOf(0x20, dict.wordStarts[i])).toString('utf8'), entries[i].word);
    }
  });

  it('accepts lines without a tag and a last line without a newline', () => {
    const dict = readJiebaDictionary(utf8('一 5\n一二 7 n\n二 3'));
    assert.ok(dict);
    assert.equal(dict.total, 15);
    assert.equal(dict.lines, 3);
  });

  it('reads dictionaries of short lines (its line index grows)', () => {
    const words: string[] = [];
    for (let a = 0x61; a <= 0x7a; a++) for (let b = 0x61; b <= 0x7a; b++) words.push(String.fromCharCode(a, b));
    const dict = readJiebaDictionary(utf8(words.map((w, i) => `${w} ${i}`).join('\n')));
    assert.ok(dict);
    assert.equal(dict.lines, words.length);
    assert.equal(dict.total, (words.length * (words.length - 1)) / 2);
    for (const [i, w] of words.entries()) assert.equal(wordLine(searchWord(dict, utf8(w), 0, 2)), i, w);
  });

  it('rejects what jieba would read otherwise (or not at all): the whole dictionary is then loaded', () => {
    const bad: [string, string | Uint8Array][] = [
      ['unsorted', '二 1 n\n一 1 n\n'],
      ['duplicate word (jieba keeps the last frequency)', '一 1 n\n一 2 n\n'],
      ['no frequency', '一\n二 1 n\n'],
      ['signed frequency', '一 +1 n\n'],
      ['tab', '一\t1 n\n'],
      ['two spaces', '一  1 n\n'],
      ['CRLF', '一 1 n\r\n'],
      ['ideographic space in a word', '一\u3000二 1 n\n'],
      ['no-break space in a tag', '一 1 n\u00a0x\n'],
      ['empty line', '一 1 n\n\n二 1 n\n'],
      ['frequency too large', `一 ${'9'.repeat(16)} n\n`],
      ['empty', ''],
      ['invalid UTF-8', Uint8Array.of(0xe4, 0xb8, 0x20, 0x31, 0x0a)],
    ];
    for (const [why, text] of bad) {
      assert.equal(readJiebaDictionary(typeof text === 'string' ? utf8(text) : text), undefined, why);
    }
  });
});

describe('searchWord', () => {
  const dict = readJiebaDictionary(DICT_BYTES)!;
  const entries = plainEntries(DICT_BYTES.toString('utf8'));
  const words = new Set(entries.map((e) => e.word));

  it('finds every sampled word at its line, and says whether longer words start with it', () => {
    for (let i = 0; i < entries.length; i += 173) {
      const w = utf8(entries[i].word);
      const hit = searchWord(dict, w, 0, w.length);
      assert.equal(wordLine(hit), i, entries[i].word);
      // From the line of a prefix on, as wordsOfRun searches longer words.
      assert.equal(searchWord(dict, w, 0, w.length, Math.max(0, i - 5)), hit);
      const longer = i + 1 < entries.length && entries[i + 1].word.startsWith(entries[i].word);
      assert.equal(extendsWord(hit), longer, entries[i].word);
    }
  });

  it('does not find non-words, and finds a prefix of longer words as extending', () => {
    for (const w of ['丶丶丶', 'zzzz', FILLER_WORD, '\u4e00\u4e00\u4e00\u4e00\u4e00']) {
      assert.ok(!words.has(w));
      assert.equal(wordLine(searchWord(dict, utf8(w), 0, utf8(w).length)), -1, w);
    }
    const prefix = utf8('中华人民共和'); // not a word itself, but 中华人民共和国 is
    assert.ok(!words.has('中华人民共和') && words.has('中华人民共和国'));
    const hit = searchWord(dict, prefix, 0, prefix.length);
    assert.equal(wordLine(hit), -1);
    assert.ok(extendsWord(hit));
  });
});

describe('wordsOfRun and dictionaryText', () => {
  const dict = readJiebaDictionary(DICT_BYTES)!;
  const entries = plainEntries(DICT_BYTES.toString('utf8'));
  const byWord = new Map(entries.map((e, i) => [e.word, i]));

  it('finds exactly the dictionary words that are substrings of a run (brute force over all substrings)', () => {
    for (const run of ['南京市长江大桥', '我们中出了一个叛徒', 'iPhone手机AA制4S店', '𠀀中文𠀁', '近似重复检测', 'ひらがな한국어漢字']) {
      const expected = new Set<number>();
      const cps = Array.from(run);
      for (let s = 0; s < cps.length; s++) {
        for (let e = s + 1; e <= cps.length; e++) {
          const line = byWord.get(cps.slice(s, e).join(''));
          if (line !== undefined) expected.add(line);
        }
      }
      assert.deepEqual([...wordsOfRun(dict, run)].sort((a, b) => a - b), [...expected].sort((a, b) => a - b), run);
    }
  });

  it('writes the lines as they are, then the filler with the frequency asked for', () => {
    const lines = [...wordsOfRun(dict, '长江大桥')];
    const sum = freqSum(dict, lines);
    assert.equal(sum, lines.reduce((a, l) => a + entries[l].freq, 0));
    const text = Buffer.from(dictionaryText(dict, lines, dict.total - sum)).toString('utf8');
    const parsed = plainEntries(text);
    assert.deepEqual(
      parsed.slice(0, -1).map((e) => e.word),
      lines.map((l) => entries[l].word),
    );
    assert.deepEqual(parsed[parsed.length - 1], { word: FILLER_WORD, freq: dict.total - sum });
    assert.equal(parsed.reduce((a, e) => a + e.freq, 0), dict.total);
  });

  it("ends the dictionary's last line when it has no newline", () => {
    const small = readJiebaDictionary(utf8('一 5 n\n二 3'))!;
    assert.equal(Buffer.from(dictionaryText(small, [1, 0], 9)).toString('utf8'), `二 3\n一 5 n\n${FILLER_WORD} 9 x\n`);
  });
});
