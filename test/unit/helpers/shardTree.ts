// A tree of two halves with planted copies, for the shard tests (test/unit/cli/shards*.test.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chineseText, codeFile, codeFunction, editLines, mulberry32, proseText } from './corpus';

/** A tree of two halves (alpha/, beta/) with copies inside each half and across them. */
export function plantTree(dir: string, seed: number): void {
  const rnd = mulberry32(seed);
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  for (let i = 0; i < 6; i++) {
    const code = codeFile(rnd, 6);
    w(`alpha/src/m${i}.ts`, code);
    if (i % 2 === 0) w(`beta/lib/m${i}-copy.ts`, editLines(code, mulberry32(seed + i), 0.04)); // across halves
    if (i === 1) w(`alpha/src/m${i}-old.ts`, editLines(code, mulberry32(seed + 50), 0.03)); // inside alpha
  }
  for (let i = 0; i < 4; i++) {
    const shared = codeFunction(rnd, 28);
    w(`alpha/src/host${i}.ts`, codeFile(rnd, 4) + '\n' + shared);
    w(`beta/lib/host${i}.ts`, shared + '\n' + codeFile(rnd, 3)); // a section across halves
  }
  const doc = proseText(rnd, 8);
  w('alpha/docs/guide.md', doc);
  w('beta/docs/guide.md', editLines(doc, mulberry32(seed + 7), 0.05));
  const zh = chineseText(rnd, 6);
  w('beta/docs/说明.md', zh);
  w('beta/docs/说明-副本.md', zh.replace('文本', '文字'));
  for (let i = 0; i < 5; i++) w(`beta/other/u${i}.ts`, codeFile(rnd, 5));
}

