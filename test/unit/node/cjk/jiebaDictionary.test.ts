import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { checkJiebaDictionary, dictionaryText, extendsWord, FILLER_WORD, freqSum, KNOWN_DICTIONARIES, readJiebaDictionary, searchWord, wordLine, wordsOfRun } from '../../../../src/node/cjk/jiebaDictionary';

const DICT_BYTES = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** The dictionary's entries parsed the plain way (split lines and fields), each with the offset of its line. */
function plainEntries(text: string): { word: string; freq: number; offset: number }[] {
  const out: { word: string; freq: number; offset: number }[] = [];
  let offset = 0;
  for (const l of text.split('\n')) {
    if (l !== '') {
      const [word, freq] = l.split(' ');
      out.push({ word, freq: Number(freq), offset });
    }
    offset += Buffer.byteLength(l, 'utf8') + 1;
  }
  return out;
}

describe('readJiebaDictionary', () => {
  const entries = plainEntries(DICT_BYTES.toString('utf8'));

  it("checks @node-rs/jieba's dictionary in one pass: its total and its longest word", () => {
    const dict = checkJiebaDictionary(DICT_BYTES);
    assert.ok(dict, 'the shipped dictionary has the shape the subsets rely on');
    assert.equal(dict.total, entries.reduce((a, e) => a + e.freq, 0));
    assert.equal(dict.maxWordBytes, entries.reduce((m, e) => Math.max(m, utf8(e.word).length), 0));
  });

  it('knows the shipped dictionary by its size and CRC-32, with the figures of the pass', function () {
    const crc32 = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
    if (!crc32) this.skip();
    const known = KNOWN_DICTIONARIES.find((k) => k.size === DICT_BYTES.length && k.crc32 === crc32(DICT_BYTES));
    assert.ok(known, `@node-rs/jieba ships another dict.txt (${DICT_BYTES.length} bytes, CRC-32 ${crc32(DICT_BYTES)}): add its figures (checkJiebaDictionary) to KNOWN_DICTIONARIES`);
    const checked = checkJiebaDictionary(DICT_BYTES)!;
    assert.deepEqual(known, { size: DICT_BYTES.length, crc32: crc32(DICT_BYTES), total: checked.total, maxWordBytes: checked.maxWordBytes });
    assert.deepEqual(readJiebaDictionary(DICT_BYTES), checked);
  });

  it('checks a file of the same size that differs (a frequency changed) in full, not by the known figures', () => {
    const changed = Buffer.from(DICT_BYTES);
    const line = entries[1000];
    const digit = line.offset + utf8(line.word).length + 1;
    changed[digit] = changed[digit] === 0x39 ? 0x38 : changed[digit] + 1;
    const dict = readJiebaDictionary(changed);
    assert.ok(dict);
    assert.notEqual(dict.total, checkJiebaDictionary(DICT_BYTES)!.total);
    assert.equal(dict.total, checkJiebaDictionary(changed)!.total);
  });

  it('accepts lines without a tag and a last line without a newline', () => {
    const dict = readJiebaDictionary(utf8('一 5\n一二 7 n\n二 3'));
    assert.ok(dict);
    assert.equal(dict.total, 15);
  });

  it('finds every word of a dictionary of short lines', () => {
    const words: string[] = [];
    for (let a = 0x61; a <= 0x7a; a++) for (let b = 0x61; b <= 0x7a; b++) words.push(String.fromCharCode(a, b));
    const dict = readJiebaDictionary(utf8(words.map((w, i) => `${w} ${i}`).join('\n')));
    assert.ok(dict);
    assert.equal(dict.total, (words.length * (words.length - 1)) / 2);
    // Line i starts at offset 5 i ("ab 0\n" and so on; the offsets grow by one byte a digit).
    const offsets = plainEntries(words.map((w, i) => `${w} ${i}`).join('\n')).map((e) => e.offset);
    for (const [i, w] of words.entries()) assert.equal(wordLine(searchWord(dict, utf8(w), 0, 2)), offsets[i], w);
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
      assert.equal(wordLine(hit), entries[i].offset, entries[i].word);
      const longer = i + 1 < entries.length && entries[i + 1].word.startsWith(entries[i].word);
      assert.equal(extendsWord(hit), longer, entries[i].word);
      // From the line of a word before it on, as wordsOfRun searches longer words.
      assert.equal(searchWord(dict, w, 0, w.length, entries[Math.max(0, i - 5)].offset), hit);
    }
  });

  it('does not find non-words, and finds a prefix of longer words as extending', () => {
    for (const w of ['丶丶丶', 'zzzz', FILLER_WORD, '\u4e00\u4e00\u4e00\u4e00\u4e00', '中 ', '\t']) {
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
  const byWord = new Map(entries.map((e) => [e.word, e]));
  const byOffset = new Map(entries.map((e) => [e.offset, e]));

  it('finds exactly the dictionary words that are substrings of a run (brute force over all substrings)', () => {
    for (const run of ['南京市长江大桥', '我们中出了一个叛徒', 'iPhone手机AA制4S店', '𠀀中文𠀁', '近似重复检测', 'ひらがな한국어漢字', '中\ud800文 人民']) {
      const expected = new Set<number>();
      const cps = Array.from(run);
      for (let s = 0; s < cps.length; s++) {
        for (let e = s + 1; e <= cps.length; e++) {
          const entry = byWord.get(cps.slice(s, e).join(''));
          if (entry) expected.add(entry.offset);
        }
      }
      assert.deepEqual([...wordsOfRun(dict, run)].sort((a, b) => a - b), [...expected].sort((a, b) => a - b), run);
    }
  });

  it('writes the lines as they are, then the filler with the frequency asked for', () => {
    const lines = [...wordsOfRun(dict, '长江大桥')];
    assert.ok(lines.length >= 4);
    const sum = freqSum(dict, lines);
    assert.equal(sum, lines.reduce((a, l) => a + byOffset.get(l)!.freq, 0));
    const text = Buffer.from(dictionaryText(dict, lines, dict.total - sum)).toString('utf8');
    const parsed = plainEntries(text);
    assert.deepEqual(
      parsed.slice(0, -1).map((e) => e.word),
      lines.map((l) => byOffset.get(l)!.word),
    );
    assert.deepEqual(parsed[parsed.length - 1].word, FILLER_WORD);
    assert.equal(parsed[parsed.length - 1].freq, dict.total - sum);
    assert.equal(parsed.reduce((a, e) => a + e.freq, 0), dict.total);
  });

  it("ends the dictionary's last line when it has no newline", () => {
    const small = readJiebaDictionary(utf8('一 5 n\n二 3'))!;
    const lines = [...wordsOfRun(small, '二一')];
    assert.equal(Buffer.from(dictionaryText(small, lines, 9)).toString('utf8'), `二 3\n一 5 n\n${FILLER_WORD} 9 x\n`);
  });
});
