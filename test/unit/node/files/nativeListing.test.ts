// The native kernel's directory listing (native/listdir.c, files/nativeListing.ts) against Node's
// calls it stands for: the same names, kinds, sizes and mtimes as readdirSync and lstatSync (a
// file, a directory, symbolic links, a FIFO, an empty file), errno for a directory it cannot read,
// and the walk's skips the same with and without it (a FIFO, a dangling link).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nativeLister } from '../../../../src/node/workers/nativeKernel';
import { LISTED_KINDS, listedNames, listedStat, type DirectoryLister } from '../../../../src/node/files/nativeListing';
import { walkFilesSync } from '../../../../src/node/files/walk';

describe('files/nativeListing: the native kernel\'s listDir', function () {
  let lister: DirectoryLister;
  let dir: string;

  before(function () {
    const l = process.env.NEARDUP_NATIVE === '0' ? undefined : nativeLister();
    if (!l) this.skip(); // (no native addon, or Windows: the walk keeps Node's calls)
    lister = l;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-listing-'));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'x'.repeat(1234));
    fs.writeFileSync(path.join(dir, 'empty.txt'), '');
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'ünï 中文.md'), 'text');
    fs.symlinkSync(path.join(dir, 'a.txt'), path.join(dir, 'link.txt'));
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists what readdirSync and lstatSync give: names, kinds, sizes, mtimes', () => {
    const listed = lister(dir);
    assert.notEqual(typeof listed, 'number');
    if (typeof listed === 'number') return;
    const names = listedNames(listed);
    assert.deepEqual([...names].sort(), fs.readdirSync(dir).sort());
    names.forEach((name, i) => {
      const abs = path.join(dir, name);
      const st = fs.lstatSync(abs);
      const kind = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
      assert.equal(LISTED_KINDS[listed.kinds[i]], kind, name);
      if (kind !== 'file') return;
      assert.equal(listed.statErrno[i], 0, name);
      assert.equal(listed.accessErrno[i], 0, name);
      const stat = listedStat(listed, i);
      assert.equal(stat.size, st.size, name);
      assert.equal(stat.mtimeMs, st.mtimeMs, name);
      assert.ok(stat.isFile() && !stat.isDirectory() && !stat.isSymbolicLink(), name);
    });
  });

  it('gives the errno of a directory it cannot list (missing, a file)', () => {
    assert.equal(lister(path.join(dir, 'missing')), os.constants.errno.ENOENT);
    assert.equal(lister(path.join(dir, 'a.txt')), os.constants.errno.ENOTDIR);
  });

  it('the walk skips the same entries for the same reasons with and without it', () => {
    const walk = (withLister: boolean) => {
      const skipped: string[] = [];
      const entries = [...walkFilesSync(dir, { onSkip: (rel, reason) => skipped.push(`${rel}: ${reason}`), ...(withLister ? { lister } : {}) })];
      return { entries, skipped };
    };
    const node = walk(false);
    const native = walk(true);
    assert.deepEqual(native, node);
    assert.deepEqual(
      native.skipped.sort(),
      ['dangling: symbolic link (not followed)', 'link.txt: symbolic link (not followed)', 'pipe: not a regular file'],
    );
    assert.deepEqual(native.entries.map((e) => e.relPath), ['a.txt', 'empty.txt', 'ünï 中文.md']);
  });
});
