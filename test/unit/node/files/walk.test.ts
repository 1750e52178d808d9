import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkFiles as walkFilesAsync, walkFilesSliced, walkFilesSync, fileMatcher, isDefaultExcluded, type WalkOptions, type WalkEntry, DEFAULT_MAX_FILE_SIZE_BYTES } from '../../../../src/node/files/walk';
import { nativeLister } from '../../../../src/node/workers/nativeKernel';
import type { DirectoryLister } from '../../../../src/node/files/nativeListing';

type Walker = (root: string, options?: WalkOptions) => AsyncGenerator<WalkEntry>;

/** The synchronous walk behind the asynchronous interface, so every test runs on both. */
async function* viaSync(root: string, options?: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkFilesSync(root, options);
}

/** The native kernel's listing (native/listdir.c), where the addon is built (not on Windows). */
const lister: DirectoryLister | undefined = process.env.NEARDUP_NATIVE === '0' ? undefined : nativeLister();
let listerWrap: ((l: DirectoryLister) => DirectoryLister) | undefined; // (a test's look at the listings)

/** The synchronous walk with the native kernel's listing: every test again, the same entries, skips and order. */
async function* viaNativeListing(root: string, options?: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkFilesSync(root, { ...options, lister: listerWrap ? listerWrap(lister!) : lister });
}

/** The engine's walk: the native listing's, giving the event loop a turn after every entry (slices of 0 ms). */
function viaSliced(root: string, options?: WalkOptions): AsyncGenerator<WalkEntry> {
  return walkFilesSliced(root, { ...options, lister: listerWrap ? listerWrap(lister!) : lister! }, 0);
}

const WALKERS: Array<[string, Walker]> = [
  ['walkFiles', walkFilesAsync],
  ['walkFilesSync', viaSync],
  ...(lister
    ? [
        ['walkFilesSync with the native listing', viaNativeListing] as [string, Walker],
        ['walkFilesSliced', viaSliced] as [string, Walker],
      ]
    : []),
];

interface Result {
  entries: WalkEntry[];
  rels: string[];
  skipped: Map<string, string>;
}

for (const [walkerName, walkFiles] of WALKERS) {
async function walk(root: string, options: WalkOptions = {}): Promise<Result> {
  const skipped = new Map<string, string>();
  const entries: WalkEntry[] = [];
  for await (const e of walkFiles(root, { ...options, onSkip: (rel, reason) => skipped.set(rel, reason) })) entries.push(e);
  return { entries, rels: entries.map((e) => e.relPath), skipped };
}

function write(root: string, rel: string, content: string | Buffer = `content of ${rel}\n`): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const WEIRD = ['with space.txt', 'hash#1.txt', 'pct%20.txt', 'ünïcödé 中文.txt', 'dir with space/inner #%.txt'];

describe(walkerName, () => {
  let root: string;
  let canTestPermissions = false;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-walk-'));
    write(root, '.gitignore', '*.log\n!keep.log\nbuild/\nsecret.txt\n');
    write(root, 'a.txt');
    write(root, 'a-b.txt');
    write(root, 'a/x.txt');
    write(root, 'a0.txt');
    write(root, 'debug.log');
    write(root, 'keep.log');
    write(root, 'build/out.js');
    write(root, 'secret.txt');
    write(root, 'dist/bundle.js');
    write(root, 'sub/.gitignore', '!secret.txt\n*.md\n!README.md\n');
    write(root, 'sub/secret.txt');
    write(root, 'sub/notes.md');
    write(root, 'sub/README.md');
    write(root, 'sub/deep/notes.md');
    write(root, 'sub/deep/x.log');
    write(root, 'sub/deep/code.ts');
    write(root, 'node_modules/pkg/index.js');
    write(root, 'sub/node_modules/pkg/index.js');
    write(root, '.git/config', '[core]\n');
    write(root, '.git/info/exclude', 'excluded-by-info.txt\n');
    write(root, 'excluded-by-info.txt');
    write(root, '.github/workflow.yml');
    for (const w of WEIRD) write(root, w);
    write(root, 'big.txt', 'x'.repeat(5000));
    fs.symlinkSync(path.join(root, 'a.txt'), path.join(root, 'link-to-file.txt'));
    fs.symlinkSync('..', path.join(root, 'sub', 'loop'), 'dir');
    write(root, 'noread.txt');
    fs.chmodSync(path.join(root, 'noread.txt'), 0o000);
    try {
      fs.readFileSync(path.join(root, 'noread.txt'));
      canTestPermissions = false; // running as root (or similar): chmod 000 does not block reading
    } catch {
      canTestPermissions = true;
    }
  });

  after(() => {
    fs.chmodSync(path.join(root, 'noread.txt'), 0o644);
    fs.rmSync(root, { recursive: true, force: true });
  });

  const EXPECTED_DEFAULT = [
    '.github/workflow.yml',
    '.gitignore',
    'a-b.txt',
    'a.txt',
    'a/x.txt',
    'a0.txt',
    'big.txt',
    'dir with space/inner #%.txt',
    'dist/bundle.js',
    'hash#1.txt',
    'keep.log',
    'pct%20.txt',
    'sub/.gitignore',
    'sub/README.md',
    'sub/deep/code.ts',
    'sub/secret.txt',
    'with space.txt',
    'ünïcödé 中文.txt',
  ];

  it('yields the expected files, sorted by relPath, honouring nested .gitignore and negations', async function () {
    const r = await walk(root, { maxFileSizeBytes: 1000 });
    const expected = EXPECTED_DEFAULT.filter((p) => p !== 'big.txt');
    if (!canTestPermissions) expected.push('noread.txt');
    expected.sort(byCodeUnits);
    assert.deepEqual(r.rels, expected);
    assert.deepEqual([...r.rels].sort(byCodeUnits), r.rels, 'sorted by relPath');
  });

  it('reports symlinks (file and directory loop) and oversized files via onSkip', async () => {
    const r = await walk(root, { maxFileSizeBytes: 1000 });
    assert.equal(r.skipped.get('link-to-file.txt'), 'symbolic link (not followed)');
    assert.equal(r.skipped.get('sub/loop'), 'symbolic link (not followed)');
    assert.match(r.skipped.get('big.txt') ?? '', /too large \(5000 bytes > limit 1000 bytes\)/);
    // Nothing ignored by rules is reported.
    for (const rel of ['debug.log', 'build', 'build/out.js', 'node_modules', '.git', 'sub/notes.md']) {
      assert.equal(r.skipped.has(rel), false, rel);
    }
  });

  it('uses a 2 MiB default size limit', async () => {
    assert.equal(DEFAULT_MAX_FILE_SIZE_BYTES, 2 * 1024 * 1024);
    const r = await walk(root);
    assert.ok(r.rels.includes('big.txt'));
  });

  it('reports an unreadable file instead of yielding it', async function () {
    if (!canTestPermissions) this.skip(); // root can read a chmod 000 file
    const r = await walk(root);
    assert.equal(r.rels.includes('noread.txt'), false);
    assert.match(r.skipped.get('noread.txt') ?? '', /permission denied/);
  });

  it('reports an unreadable directory and carries on', async function () {
    if (!canTestPermissions) this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-walk-perm-'));
    try {
      write(dir, 'ok.txt');
      write(dir, 'locked/inside.txt');
      fs.chmodSync(path.join(dir, 'locked'), 0o000);
      const r = await walk(dir);
      assert.deepEqual(r.rels, ['ok.txt']);
      assert.match(r.skipped.get('locked') ?? '', /permission denied/);
    } finally {
      fs.chmodSync(path.join(dir, 'locked'), 0o755);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives absolute paths, sizes and mtimes', async () => {
    const r = await walk(root);
    const e = r.entries.find((x) => x.relPath === 'ünïcödé 中文.txt')!;
    assert.equal(e.path, path.join(root, 'ünïcödé 中文.txt'));
    assert.equal(e.size, Buffer.byteLength('content of ünïcödé 中文.txt\n'));
    assert.ok(Math.abs(e.mtimeMs - fs.statSync(e.path).mtimeMs) < 1);
    for (const w of WEIRD) {
      const x = r.entries.find((y) => y.relPath === w)!;
      assert.ok(x, w);
      assert.equal(fs.readFileSync(x.path, 'utf8'), `content of ${w}\n`);
    }
  });

  it('can turn off .gitignore handling', async () => {
    const r = await walk(root, { gitignore: false });
    for (const rel of ['debug.log', 'build/out.js', 'secret.txt', 'sub/notes.md', 'sub/deep/x.log', 'excluded-by-info.txt']) {
      assert.ok(r.rels.includes(rel), rel);
    }
    assert.equal(r.rels.includes('node_modules/pkg/index.js'), false);
  });

  it('can turn off the default excludes (node_modules, .git), never dist', async () => {
    const on = await walk(root);
    assert.ok(on.rels.includes('dist/bundle.js'));
    assert.equal(on.rels.some((p) => p.includes('node_modules') || p.startsWith('.git/')), false);
    const off = await walk(root, { defaultExcludes: false });
    for (const rel of ['node_modules/pkg/index.js', 'sub/node_modules/pkg/index.js', '.git/config', '.git/info/exclude']) {
      assert.ok(off.rels.includes(rel), rel);
    }
  });

  it('applies include and exclude globs to relPath (dot files included)', async () => {
    const txt = await walk(root, { include: ['**/*.txt'] });
    assert.deepEqual(
      txt.rels,
      EXPECTED_DEFAULT.filter((p) => p.endsWith('.txt')).concat(canTestPermissions ? [] : ['noread.txt']).sort(byCodeUnits),
    );
    // Symlinks not matching include are not even reported.
    const ts = await walk(root, { include: ['**/*.ts'] });
    assert.deepEqual(ts.rels, ['sub/deep/code.ts']);
    assert.equal(ts.skipped.has('link-to-file.txt'), false);

    const dot = await walk(root, { include: ['**/*.yml'] });
    assert.deepEqual(dot.rels, ['.github/workflow.yml']);

    const ex = await walk(root, { exclude: ['sub', '**/*#*', 'a'] });
    assert.equal(ex.rels.some((p) => p.startsWith('sub/')), false, 'directory pattern excludes its subtree');
    assert.equal(ex.rels.includes('a/x.txt'), false);
    assert.ok(ex.rels.includes('a.txt'));
    assert.equal(ex.rels.includes('hash#1.txt'), false);
    assert.equal(ex.rels.includes('dir with space/inner #%.txt'), false);
    assert.ok(ex.rels.includes('pct%20.txt'));
    assert.equal(ex.skipped.has('sub/loop'), false, 'excluded directories are not read');

    const both = await walk(root, { include: ['sub/**'], exclude: ['**/deep/**'] });
    assert.deepEqual(both.rels, ['sub/.gitignore', 'sub/README.md', 'sub/secret.txt']);
  });

  it('is deterministic', async () => {
    const a = await walk(root);
    const b = await walk(root);
    assert.deepEqual(a.rels, b.rels);
  });

  it('throws for a missing root or a file root', async () => {
    await assert.rejects(walk(path.join(root, 'does-not-exist')), /ENOENT/);
    await assert.rejects(walk(path.join(root, 'a.txt')), /Not a directory/);
  });

  it('stops with the abort reason when the signal is aborted', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of walkFiles(root, { signal: ac.signal })) {
          seen.push(e.relPath);
          ac.abort(new Error('stop now'));
        }
      })(),
      /stop now/,
    );
    assert.equal(seen.length, 1);
  });

  it('reports files that vanish between listing and stat', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-walk-vanish-'));
    try {
      const names = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
      for (const n of names) write(dir, n);
      const skipped = new Map<string, string>();
      const seen: string[] = [];
      if (walkFiles === viaSync) {
        // The synchronous walk stats a whole directory before yielding: delete at the first lstat.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const nodeFs = require('node:fs') as { lstatSync: typeof fs.lstatSync };
        const lstatSync = nodeFs.lstatSync;
        let first = true;
        nodeFs.lstatSync = ((...args: Parameters<typeof fs.lstatSync>) => {
          if (first) fs.unlinkSync(path.join(dir, 'f250.txt')); // listed, not yet stat'ed
          first = false;
          return lstatSync(...args);
        }) as typeof fs.lstatSync;
        try {
          for await (const e of walkFiles(dir, { onSkip: (rel, reason) => skipped.set(rel, reason) })) seen.push(e.relPath);
        } finally {
          nodeFs.lstatSync = lstatSync;
        }
      } else if (walkFiles === viaNativeListing || walkFiles === viaSliced) {
        // The native listing stats each file as it lists it (one C loop): the file deleted once
        // listed and stat'ed, and lstat's ENOENT as the listing would carry it had it vanished
        // in between (native/listdir.c statErrno).
        listerWrap = (l) => (absDir) => {
          const listed = l(absDir);
          if (typeof listed === 'number') return listed;
          fs.unlinkSync(path.join(dir, 'f250.txt'));
          const i = listed.names.split('\0').indexOf('f250.txt');
          listed.statErrno[i] = 2; // ENOENT
          return listed;
        };
        try {
          for await (const e of walkFiles(dir, { onSkip: (rel, reason) => skipped.set(rel, reason) })) seen.push(e.relPath);
        } finally {
          listerWrap = undefined;
        }
      } else {
        for await (const e of walkFiles(dir, { onSkip: (rel, reason) => skipped.set(rel, reason) })) {
          if (seen.length === 0) fs.unlinkSync(path.join(dir, 'f250.txt')); // listed, not yet stat'ed
          seen.push(e.relPath);
        }
      }
      assert.deepEqual(seen, names.filter((n) => n !== 'f250.txt'));
      assert.match(skipped.get('f250.txt') ?? '', /vanished/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('walks a wide and deep tree in relPath order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-walk-wide-'));
    try {
      const expected: string[] = [];
      for (let d = 0; d < 40; d++) {
        for (let f = 0; f < 50; f++) {
          const rel = `d${d}/${f % 2 ? 'x' : 'x-'}${f}.txt`;
          write(dir, rel, '');
          expected.push(rel);
        }
        write(dir, `d${d}/deeper/${d}.md`, '');
        expected.push(`d${d}/deeper/${d}.md`);
        write(dir, `d${d}.txt`, '');
        expected.push(`d${d}.txt`);
      }
      expected.sort(byCodeUnits);
      const r = await walk(dir);
      assert.equal(r.skipped.size, 0);
      assert.deepEqual(r.rels, expected);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

}

describe('fileMatcher', () => {
  it('matches everything without globs', () => {
    const m = fileMatcher({});
    assert.equal(m('a/b.ts'), true);
    assert.equal(m('.hidden/x'), true);
  });

  it('applies include to the path and exclude to the path and its ancestors', () => {
    const m = fileMatcher({ include: ['src/**/*.ts', '**/*.md'], exclude: ['src/generated', '**/*.test.ts'] });
    assert.equal(m('src/a.ts'), true);
    assert.equal(m('src/deep/b.ts'), true);
    assert.equal(m('src/generated/c.ts'), false);
    assert.equal(m('src/a.test.ts'), false);
    assert.equal(m('lib/a.ts'), false);
    assert.equal(m('.github/README.md'), true);
    assert.equal(m('README.md'), true);
  });

  it('accepts backslashes and a leading ./', () => {
    const m = fileMatcher({ include: ['src/**'], exclude: ['src/x/**'] });
    assert.equal(m('.\\src\\a.ts'), true);
    assert.equal(m('./src/x/b.ts'), false);
  });

  it('isDefaultExcluded spots VCS folders and node_modules at any depth', () => {
    assert.equal(isDefaultExcluded('node_modules/a/b.js'), true);
    assert.equal(isDefaultExcluded('pkg/node_modules/a.js'), true);
    assert.equal(isDefaultExcluded('.git/config'), true);
    assert.equal(isDefaultExcluded('dist/a.js'), false);
    assert.equal(isDefaultExcluded('src/node_modules_helper.ts'), false);
    // Jupyter's autosaved copies of notebooks.
    assert.equal(isDefaultExcluded('analysis/.ipynb_checkpoints/survey-checkpoint.ipynb'), true);
    assert.equal(isDefaultExcluded('analysis/survey.ipynb'), false);
  });
});

(lister ? describe : describe.skip)('walkFilesSliced: a turn for the event loop', () => {
  it('lets a task queued before the walk run while it walks (slices of 0 ms), not only after it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-walk-sliced-'));
    try {
      for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), 'x');
      let ran = false;
      setImmediate(() => (ran = true));
      let ranDuring = false;
      let n = 0;
      for await (const e of walkFilesSliced(dir, { lister: lister! }, 0)) {
        ranDuring ||= ran && n < 19;
        if (e.relPath) n++;
      }
      assert.equal(n, 20);
      assert.ok(ranDuring, 'the queued task ran between two entries');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
