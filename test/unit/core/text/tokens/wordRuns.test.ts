import { strict as assert } from 'node:assert';
import { unicodeWordTable, unicodeWordTableOf } from '../../../../../src/core/text/tokens/wordChars';
import { WORD_CHAR_RUNS, WORD_CHAR_RUNS_UNICODE, runsOfTable, tableOfRuns } from '../../../../../src/core/text/tokens/wordRuns';

describe('word runs (the word table stored per Unicode version)', () => {
  it("the stored runs are this engine's word table when its Unicode version is theirs", function () {
    if (process.versions.unicode !== WORD_CHAR_RUNS_UNICODE) {
      // Another Node: its threads make their own table (the test below); new runs: npx tsx scripts/word-runs.ts
      this.skip();
    }
    const made = unicodeWordTable();
    const stored = unicodeWordTableOf(process.versions.unicode);
    assert.equal(stored.length, 65536);
    const differ: string[] = [];
    for (let c = 0; c < 65536 && differ.length < 10; c++) if (stored[c] !== made[c]) differ.push(`U+${c.toString(16).padStart(4, '0')}`);
    assert.deepEqual(differ, [], `stored runs differ from Unicode ${WORD_CHAR_RUNS_UNICODE}'s table at ${differ.join(' ')}`);
    assert.ok(made.reduce((n, v) => n + v, 0) > 50000, 'a table of Unicode word characters');
  });

  it('an engine of another Unicode version, or none said, makes the table itself', () => {
    const made = unicodeWordTable();
    for (const version of ['1.0', undefined]) assert.deepEqual(unicodeWordTableOf(version), made);
  });

  it('runs written and read back are the same table (random tables, the ends of the range set)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
    for (let round = 0; round < 20; round++) {
      const t = new Uint8Array(65536);
      const density = random();
      for (let c = 0; c < 65536; c++) t[c] = random() < density ? 1 : 0;
      if (round % 2 === 0) t[0] = t[65535] = 1;
      assert.deepEqual(tableOfRuns(runsOfTable(t)), t);
    }
    assert.deepEqual(tableOfRuns(runsOfTable(new Uint8Array(65536))), new Uint8Array(65536));
    assert.equal(runsOfTable(tableOfRuns(WORD_CHAR_RUNS)), WORD_CHAR_RUNS);
  });
});
