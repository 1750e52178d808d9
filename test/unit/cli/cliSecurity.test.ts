/**
 * Issue 6, security: the CLI writes nothing, inside or outside the paths it is given, and what
 * it prints (text, JSON, SARIF, stderr) cannot carry control characters or terminal escape
 * sequences from file names into a terminal or a report.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { lines, nobodyIds, openToAll, runCli } from '../helpers/cli';
import { codeFile, editLines, mulberry32, proseText } from '../helpers/corpus';

interface Snapshot {
  [rel: string]: string;
}

/** Everything about a tree that a write could change: type, size, mode, mtime, content, link. */
function snapshot(root: string): Snapshot {
  const out: Snapshot = {};
  const visit = (abs: string, rel: string) => {
    const st = fs.lstatSync(abs);
    const common = `mode=${st.mode.toString(8)} uid=${st.uid} mtime=${st.mtimeMs} ctime=${st.ctimeMs}`;
    if (st.isSymbolicLink()) out[rel] = `link -> ${fs.readlinkSync(abs)} ${common}`;
    else if (st.isDirectory()) {
      const names = fs.readdirSync(abs).sort();
      out[rel] = `dir [${names.join('/')}] ${common}`;
      for (const n of names) visit(path.join(abs, n), rel === '' ? n : `${rel}/${n}`);
    } else if (st.isFile()) {
      out[rel] = `file ${st.size} ${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')} ${common}`;
    } else out[rel] = `other ${common}`;
  };
  visit(root, '');
  return out;
}

/** Characters no report or terminal line may carry raw (LF and, in text, TAB excepted). */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function firstUnsafe(s: string): string | null {
  const m = UNSAFE.exec(s);
  return m ? `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(s.slice(Math.max(0, m.index - 40), m.index + 20))}` : null;
}

describe('CLI security: writes nothing', function () {
  this.timeout(180000);
  let dir: string;
  let root: string;
  let home: string;
  let cwd: string;
  let tmp: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-sec-'));
    root = path.join(dir, 'root');
    home = path.join(dir, 'home');
    cwd = path.join(dir, 'cwd');
    tmp = path.join(dir, 'tmp');
    for (const d of [root, home, cwd, tmp]) fs.mkdirSync(d, { recursive: true });
    const rnd = mulberry32(4242);
    const w = (rel: string, data: string | Buffer) => {
      const abs = path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, data);
    };
    const code = codeFile(rnd, 8);
    w('src/a.ts', code);
    w('src/b.ts', editLines(code, mulberry32(1), 0.03));
    w('docs/guide.md', proseText(rnd, 6));
    w('docs/guide copy #%.md', editLines(proseText(mulberry32(4242 + 1), 6), mulberry32(2), 0.02));
    w('bin/blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]));
    w('ignored/x.ts', code);
    w('.gitignore', 'ignored/\n');
    w('.git/info/exclude', '*.log\n');
    w('app.log', 'log\n');
    w('node_modules/pkg/index.js', code);
    fs.symlinkSync('..', path.join(root, 'src', 'up'));
    fs.symlinkSync(path.join(dir, 'home'), path.join(root, 'home-link'));
    openToAll(dir);
    // Old timestamps, so that any rewrite (even of the same bytes) changes the mtime.
    const old = new Date('2001-02-03T04:05:06Z');
    const touch = (abs: string) => {
      for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
        const p = path.join(abs, e.name);
        if (e.isDirectory()) touch(p);
        if (!e.isSymbolicLink()) fs.utimesSync(p, old, old);
      }
      fs.utimesSync(abs, old, old);
    };
    touch(dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('leaves the scanned tree, its parent, HOME, TMPDIR and the working directory untouched, in every mode', () => {
    const before = snapshot(dir);
    const env = { ...process.env, HOME: home, TMPDIR: tmp, TMP: tmp, TEMP: tmp, XDG_CACHE_HOME: path.join(home, '.cache'), XDG_CONFIG_HOME: path.join(home, '.config') };
    const runs: string[][] = [
      ['--format', 'json'],
      ['--format', 'sarif'],
      ['--format', 'text'],
      ['--format', 'json', '--weighting', 'tfidf', '--workers', '2'],
      ['--format', 'json', '--no-gitignore', '--normalize-identifiers', '--stop-words', '--cjk-segmenter', 'bigram'],
      ['--format', 'text', '--fail-on-pairs', '1'],
      ['--format', 'markdown'],
      ['--format', 'codeclimate'],
    ];
    const ids = nobodyIds();
    for (const args of runs) {
      for (const as of ids ? [null, ids] : [null]) {
        const r = runCli(['scan', root, ...args], { cwd, env, uid: as?.uid, gid: as?.gid });
        assert.ok(r.code === 0 || (r.code === 1 && args.includes('--fail-on-pairs')), `${args.join(' ')}: exit ${r.code} ${r.stderr}`);
        assert.ok(r.stdout.length > 0);
      }
    }
    // A relative <dir> from inside the tree, too.
    assert.equal(runCli(['scan', '.', '--format', 'json', '-q'], { cwd: path.join(root, 'src'), env }).code, 0);
    const after = snapshot(dir);
    assert.deepEqual(after, before, 'no file or folder was created, changed, re-timed or removed');
    for (const d of [home, cwd, tmp]) assert.deepEqual(fs.readdirSync(d), [], `${d} stays empty`);
  });
});

describe('CLI security: file names cannot inject into a terminal or a report', function () {
  this.timeout(120000);
  let dir: string;
  let root: string;
  /** Hostile names (each a twin of clean.ts, so each is printed), by what they try. */
  const EVIL = [
    'red \u001b[31mALERT\u001b[0m.ts', // SGR colour
    'title \u001b]0;pwned\u0007.ts', // OSC: set the window title
    'clear \u001b[2J\u001b[H.ts', // clear the screen
    'csi8bit \u009b31m.ts', // C1 CSI, 8-bit form
    'bell \u0007 back\u0008\u0008\u0008.ts',
    'cr \roverwritten.ts',
    'newline \nfake line.ts',
    'del \u007f.ts',
    'bidi \u202egnp.ts', // right-to-left override: shows as "…png.ts"
    'isolate \u2066x\u2069.ts',
    'separator \u2028 line.ts',
    'tab\there.ts',
  ];
  const evilDir = 'dir \u001b[1mbold\u001b[0m';

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-esc-'));
    // The root's own name is hostile too (it is echoed in JSON and SARIF).
    root = path.join(dir, 'root \u001b[7m\u009b7m\u202e');
    fs.mkdirSync(path.join(root, evilDir), { recursive: true });
    const code = codeFile(mulberry32(99), 7);
    fs.writeFileSync(path.join(root, 'clean.ts'), code);
    for (const name of EVIL) fs.writeFileSync(path.join(root, name), code);
    fs.writeFileSync(path.join(root, evilDir, 'nested \u001b[5mblink.ts'), code);
    fs.writeFileSync(path.join(root, 'skipped \u001b[31m\u009b\u202e.bin'), Buffer.from([0, 1, 2, 0]));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const allNames = () => ['clean.ts', ...EVIL, `${evilDir}/nested \u001b[5mblink.ts`].sort();

  it('text output and stderr show them escaped', () => {
    const r = runCli(['scan', root, '--format', 'text', '--no-progress']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(firstUnsafe(r.stdout.replace(/\t/g, ' ')), null, 'stdout');
    assert.equal(firstUnsafe(r.stderr), null, 'stderr');
    assert.ok(!r.stdout.includes('\t'), 'a TAB in a name is escaped too');
    assert.match(r.stdout, /red \\x1b\[31mALERT\\x1b\[0m\.ts/);
    assert.match(r.stdout, /csi8bit \\x9b31m\.ts/);
    assert.match(r.stdout, /bidi \\u\{202e\}gnp\.ts/);
    assert.match(r.stdout, /newline \\x0afake line\.ts/);
    assert.match(r.stdout, /dir \\x1b\[1mbold\\x1b\[0m\/nested \\x1b\[5mblink\.ts/);
    assert.deepEqual(lines(r.stderr), ['neardup: skipped skipped \\x1b[31m\\x9b\\u{202e}.bin: binary file (NUL bytes)']);
    // Every name is listed once, on its own line: nothing was swallowed or split.
    assert.equal(r.stdout.split('\n').filter((l) => /^\s{5}\S/.test(l)).length, allNames().length);
  });

  it('JSON output has no raw control characters and parses back to the exact names', () => {
    const r = runCli(['scan', root, '--format', 'json', '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(firstUnsafe(r.stdout), null);
    const j = JSON.parse(r.stdout) as { root: string; groups: Array<{ kind: string; members: string[] }> };
    assert.equal(j.root, root);
    const group = j.groups.find((g) => g.kind === 'file');
    assert.deepEqual(group?.members.slice().sort(), allNames());
  });

  it('SARIF output has no raw control characters, plain message text, exact percent-encoded URIs, and validates', () => {
    const r = runCli(['scan', root, '--format', 'sarif', '-q']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(firstUnsafe(r.stdout), null);
    const log = JSON.parse(r.stdout) as {
      runs: Array<{
        originalUriBaseIds: Record<string, { uri: string }>;
        results: Array<{
          message: { text: string };
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
          relatedLocations: Array<{ message: { text: string }; physicalLocation: { artifactLocation: { uri: string } } }>;
        }>;
      }>;
    };
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    const run = log.runs[0];
    // One group of every hostile name: one result, its copies the related locations (issue 15).
    assert.ok(run.results.length >= 1);
    const base = run.originalUriBaseIds['%SRCROOT%'].uri;
    assert.match(base, /^file:\/\/[A-Za-z0-9\-._~%/!$&'()*+,;=:@]+\/$/);
    assert.equal(decodeURIComponent(new URL(base).pathname), root + '/');
    const uris = new Set<string>();
    for (const res of run.results) {
      // After JSON parsing, message text is what a viewer shows: it must be free of controls.
      assert.equal(firstUnsafe(res.message.text), null, res.message.text);
      for (const rl of res.relatedLocations) assert.equal(firstUnsafe(rl.message.text), null);
      for (const loc of [res.locations[0], ...res.relatedLocations]) {
        const uri = loc.physicalLocation.artifactLocation.uri;
        assert.match(uri, /^[A-Za-z0-9\-._~%/!$&'()*+,;=:@]+$/, `only URI characters: ${uri}`);
        uris.add(uri.split('/').map(decodeURIComponent).join('/'));
      }
    }
    assert.deepEqual([...uris].sort(), allNames());
  });

  it('a hostile <dir> argument is escaped in error messages', () => {
    const r = runCli(['scan', path.join(dir, 'missing \u001b[31m\u009b\u202e')]);
    assert.equal(r.code, 2);
    assert.equal(firstUnsafe(r.stderr), null);
    assert.match(r.stderr, /^neardup: no such folder: .*missing \\x1b\[31m\\x9b\\u\{202e\}\n$/);
  });
});
