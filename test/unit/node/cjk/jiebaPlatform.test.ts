/**
 * jiebaPlatform: the runtime's name for this platform's jieba binary package agrees with the
 * package that `npm run package:all` ships for each target, and loading it directly gives the
 * same words as jieba's own index.js.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { jiebaPlatformSuffix, requireJiebaPlatformBinding, runsOnMusl } from '../../../../src/node/cjk/jiebaPlatform';
import { TARGETS } from '../../../../scripts/lib/platformTargets';

/** What a VS Code target runs on: Node's process.platform and process.arch, and musl or not. */
function runtimeOf(target: string): { platform: string; arch: string; musl: boolean } {
  const [os, cpu] = target.split('-');
  return { platform: os === 'alpine' ? 'linux' : os, arch: cpu === 'armhf' ? 'arm' : cpu, musl: os === 'alpine' };
}

type Binding = { Jieba: { withDict(d: Uint8Array): { cut(s: string, hmm?: boolean): string[] } } };

describe('jiebaPlatform', () => {
  it('names, for every packaged target, the jieba package that target ships', () => {
    const rows = TARGETS.filter((t) => t.jieba !== null);
    assert.equal(rows.length, 9);
    for (const row of rows) {
      const { platform, arch, musl } = runtimeOf(row.target);
      assert.equal(jiebaPlatformSuffix(platform, arch, musl), row.jieba, row.target);
    }
  });

  it('names none where no binary is shipped', () => {
    assert.equal(jiebaPlatformSuffix('freebsd', 'x64', false), null);
    assert.equal(jiebaPlatformSuffix('linux', 'ia32', false), null);
    assert.equal(jiebaPlatformSuffix('win32', 'ia32', false), null);
    assert.equal(jiebaPlatformSuffix('linux', 'arm', true), null);
  });

  it("loads this machine's binary package directly, cutting the same words as jieba's index.js", function () {
    const suffix = jiebaPlatformSuffix(process.platform, process.arch, runsOnMusl());
    if (!suffix || !fs.existsSync(require.resolve('@node-rs/jieba/package.json').replace(/jieba[\\/]package\.json$/, `jieba-${suffix}`))) this.skip();
    const dict = fs.readFileSync(require.resolve('@node-rs/jieba/dict.txt'));
    const direct = requireJiebaPlatformBinding<Binding>().Jieba.withDict(dict);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const viaIndex = (require('@node-rs/jieba') as Binding).Jieba.withDict(dict);
    const text = '我们中出了一个叛徒，南京市长江大桥';
    assert.deepEqual(direct.cut(text, false), viaIndex.cut(text, false));
    assert.ok(direct.cut(text, false).includes('叛徒'));
  });
});
