// The identical documents of a --locate search (identicalDocs.ts): each document's class is the
// first document of the same tokens as read when another holds them, else -1 — whatever their
// paths, kinds or lines; documents of as many tokens that differ in one are not identical, nor
// are empty ones. (The native kernel's classes are checked against these in regionThreads.test.ts.)
import { strict as assert } from 'node:assert';
import { regionDocument } from '../../../../src/core/regions/document';
import { identicalClasses } from '../../../../src/node/locate/identicalDocs';

describe('identicalClasses (the identical documents of a --locate search)', () => {
  it('names each document\'s first twin, -1 for a document alone', () => {
    const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
    const docs = [
      regionDocument(code, 'a.ts'),
      regionDocument('export const x = 1;\nexport const y = 2;\n', 'one.ts'),
      regionDocument('export const x = 1;\nexport const z = 2;\n', 'two.ts'), // as many tokens, one differs
      regionDocument(`\n\n${code.replace(/\n/g, '\n\n')}`, 'b.ts'), // the same tokens on other lines
      regionDocument('', 'empty1.ts'),
      regionDocument('', 'empty2.ts'),
      regionDocument('Some prose, twice.\n', 'p.md'),
      regionDocument(code, 'c.ts'),
      regionDocument('Some prose, twice.\n', 'q.md'),
    ];
    assert.deepEqual([...identicalClasses(docs)], [0, -1, -1, 0, -1, -1, 6, 0, 6]);
    assert.deepEqual([...identicalClasses([])], []);
  });
});
