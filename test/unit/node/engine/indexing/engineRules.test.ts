import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { folderOf, rootOf, rulesOf } from '../../../../../src/node/engine/indexing/engineRules';
import type { EngineConfig } from '../../../../../src/node/engine/engineProtocol';
import { DEFAULT_ENGINE_SETTINGS } from '../../../../../src/node/settings/engineSettings';

const config = (...roots: string[]): EngineConfig => ({ settings: DEFAULT_ENGINE_SETTINGS, include: [], exclude: [], roots: roots.map((r) => ({ path: r, exclude: [] })) });

/** folderOf as it was written first: path.relative, then the first part. */
function reference(roots: string[], abs: string): string {
  const rules = rulesOf(config(...roots));
  const root = rootOf(rules, abs);
  if (!root) return '.';
  const rel = path.relative(root.path, abs).split(path.sep);
  const first = rel.length > 1 ? rel[0] : '.';
  return rules.length > 1 ? `${path.basename(root.path)}/${first}` : first;
}

describe('engine/indexing/engineRules', () => {
  it("folderOf: a file's first folder under its workspace folder, as path.relative says, for plain and odd paths", () => {
    const a = path.resolve('/ws/app');
    const b = path.resolve('/ws/app/nested');
    const c = path.resolve('/other');
    const files = [
      'src/x.ts',
      'x.ts',
      'src/deep/er/y.ts',
      '.github/workflows/ci.yml',
      'src/.hidden/z.ts',
      'nested/n.ts',
      'nested/sub/n.ts',
      'src/../lib/w.ts',
      'src/./v.ts',
      'src//u.ts',
      '名前/ファイル.md',
      '',
    ];
    for (const roots of [[a], [a, c], [a, b], [a, b, c]]) {
      const rules = rulesOf(config(...roots));
      for (const root of roots) {
        for (const f of files) {
          const abs = f ? `${root}${path.sep}${f.split('/').join(path.sep)}` : root;
          assert.equal(folderOf(rules, abs), reference(roots, abs), `${roots.join(', ')}: ${abs}`);
        }
      }
      assert.equal(folderOf(rules, path.resolve('/elsewhere/q.ts')), '.');
    }
    const one = rulesOf(config(a));
    assert.equal(folderOf(one, path.join(a, 'src', 'x.ts')), 'src');
    assert.equal(folderOf(one, path.join(a, 'x.ts')), '.');
    assert.equal(folderOf(rulesOf(config(a, c)), path.join(c, 'lib', 'x.ts')), 'other/lib');
  });
});
