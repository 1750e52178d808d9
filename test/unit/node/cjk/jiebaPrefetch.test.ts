// jieba's dictionary read ahead (src/node/cjk/jiebaPrefetch.ts) and handed to jieba's loader
// (jieba.ts useJiebaDictionary): the bytes are the dictionary file's, taken once; the loader cuts
// with the bytes it is given, once, then reads the file again itself.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { defaultJiebaLoader, useJiebaDictionary } from '../../../../src/node/cjk/jieba';

describe('jiebaPrefetch', () => {
  it('reads the dictionary file once a process, off this thread; its bytes taken once (in a process of its own: the state is one a process)', () => {
    const script = [
      `const p = require(${JSON.stringify(require.resolve('../../../../src/node/cjk/jiebaPrefetch'))});`,
      `const fs = require('node:fs');`,
      `(async () => {`,
      `  const before = p.jiebaDictionaryReadAhead();`,
      `  const first = p.prefetchJiebaDictionary();`,
      `  const once = p.prefetchJiebaDictionary() === first;`,
      `  await first;`,
      `  const bytes = p.takePrefetchedJiebaDictionary();`,
      `  const same = !!bytes && bytes.equals(fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt')));`,
      `  console.log(JSON.stringify([before, once, p.jiebaDictionaryReadAhead(), same, p.takePrefetchedJiebaDictionary() === undefined]));`,
      `})();`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { encoding: 'utf8', cwd: path.join(__dirname, '..', '..', '..', '..') });
    assert.equal(run.status, 0, run.stderr);
    // not read before; one read; read ahead; the dictionary file's bytes; taken once
    assert.deepEqual(JSON.parse(run.stdout), [false, true, true, true, true]);
  });

  it('the loader cuts with the dictionary it is given (once), then with the file', () => {
    const run = '乾坤大挪移心法';
    const fromFile = defaultJiebaLoader().cut(run, false);
    useJiebaDictionary(Buffer.from('乾坤大挪移心法 1000 n\n'));
    assert.deepEqual(defaultJiebaLoader().cut(run, false), [run], 'the given one: the run is one of its words');
    assert.notDeepEqual(fromFile, [run]);
    assert.deepEqual(defaultJiebaLoader().cut(run, false), fromFile, 'the file again');
  });
});
