/**
 * `neardup scan` locating copies (the default; `--locate`) as robust as the scan: bad files in the tree (binary,
 * minified, repetitive, broken encodings, empty, a FIFO, an unreadable file) are skipped by the
 * scan with one stderr line each and add none in the locate pass; files that change between the
 * scan and the locate pass (deleted, unreadable, replaced, now binary or minified…) are one skip
 * each; `--weighting tfidf`, `--no-sections` and every output format work with it; the byte limit
 * refuses a tree through the CLI (NEARDUP_LOCATE_MAX_BYTES, for tests) with one notice (with an
 * explicit `--locate` today's, at the default a shorter one naming `--no-locate`; none with -q)
 * and the report of `--no-locate`. No timing: the runs have a timeout only so a hang fails instead of stalling.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../src/node/settings/engineSettings';
import { locateCopies, withLocated } from '../../../src/node/locate/locate';
import { scanDirectory } from '../../../src/node/scan/scan';
import { CLI, lines, nobodyIds, openToAll, runCli } from '../helpers/cli';
import { codeFile, mulberry32 } from '../helpers/corpus';
import { writeLocateFixture, type LocatedPair, type LocatedReport, type PlantedCopy, type Range } from './locateFixture';

const REPO = path.join(__dirname, '..', '..', '..');
const WORKER = path.join(REPO, 'dist', 'worker.js');
const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;


const near = (x: Range, y: Range) => x.path === y.path && Math.abs(x.startLine - y.startLine) <= 1 && Math.abs(x.endLine - y.endLine) <= 1;
const reports = (p: LocatedPair, c: PlantedCopy) => (near(p.a, c.a) && near(p.b, c.b)) || (near(p.a, c.b) && near(p.b, c.a));

/** Every planted copy is reported by a section pair (located, or a SimHash pair given its kind). */
function assertPlanted(pairs: LocatedPair[], planted: PlantedCopy[], what: string): void {
  for (const c of planted) {
    const p = pairs.find((q) => q.kind === 'section' && reports(q, c));
    assert.ok(p, `${what}: ${c.what} not reported; pairs: ${JSON.stringify(pairs.map((q) => [q.a, q.b, q.clone]))}`);
    assert.equal(p.clone, c.clone, `${what}: ${c.what}`);
    assert.ok(Number.isInteger(p.distance) && p.distance >= 0 && p.distance <= 64, `${what}: distance ${p.distance}`);
    assert.ok(p.similarity > 0 && p.similarity <= 1, `${what}: similarity ${p.similarity}`);
  }
}

/** Skip lines of a run (relPath → reason), each file at most once; fails on any other line. */
function skips(stderr: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines(stderr)) {
    const m = /^neardup: skipped (.+?): (.+)$/.exec(line);
    assert.ok(m, `unexpected stderr line: ${JSON.stringify(line)}`);
    assert.ok(!out.has(m[1]), `one line per skipped file: ${m[1]}`);
    out.set(m[1], m[2]);
  }
  return out;
}

function write(root: string, rel: string, data: string | Buffer): string {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, data);
  return abs;
}

/** The report without its run time (the only field that may differ between two runs). */
const timeless = (stdout: string) => {
  const j = JSON.parse(stdout) as LocatedReport;
  return { ...j, stats: { ...j.stats, elapsedMs: 0 } };
};

/**
 * Who can be denied a chmod 000 file: this user when not root; `nobody` when root (root reads
 * anything, and only root can switch users); null when neither works.
 */
function deniedUser(): { uid?: number; gid?: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  return nobodyIds();
}

describe('neardup scan locating copies (the default) on bad input', function () {
  this.timeout(120000);
  let tmp: string;
  let root: string;
  let planted: PlantedCopy[];

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (node esbuild.js)');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-bad-'));
    root = path.join(tmp, 'tree');
    fs.mkdirSync(root);
    planted = writeLocateFixture(root);
    const rnd = mulberry32(77);
    // Broken encodings the scan decodes (so the locate pass must too): the host of the pasted
    // function as UTF-16LE with a BOM, the host of the pasted paragraphs with invalid UTF-8 in
    // its first line (U+FFFD for the bad bytes); each still holds its copy at the same lines.
    const pasted = planted.find((c) => c.what === 'function pasted')!;
    const english = planted.find((c) => c.what === 'English paragraphs pasted')!;
    write(root, 'enc/pasted-utf16le.ts', Buffer.from('\ufeff' + fs.readFileSync(path.join(root, 'src/pasted.ts'), 'utf8'), 'utf16le'));
    const notes = Buffer.from(fs.readFileSync(path.join(root, 'docs/notes.md'), 'utf8'), 'utf8');
    for (let i = 0; i < 40; i += 7) if (notes[i] !== 10) notes[i] = 0xff;
    write(root, 'enc/notes-invalid-utf8.md', notes);
    planted.push({ what: 'function pasted, host in UTF-16LE', a: pasted.a, b: { ...pasted.b, path: 'enc/pasted-utf16le.ts' }, clone: 'exact' });
    planted.push({ what: 'paragraphs pasted, host with invalid UTF-8', a: english.a, b: { ...english.b, path: 'enc/notes-invalid-utf8.md' }, clone: 'exact' });
    // Bad files.
    const bin = Buffer.alloc(4096);
    for (let i = 0; i < bin.length; i++) bin[i] = Math.floor(rnd() * 256);
    bin[100] = 0;
    write(root, 'bad/binary.bin', bin);
    write(root, 'bad/nul.txt', 'some text\0with a NUL byte\n'.repeat(20));
    write(root, 'bad/minified.js', 'var a=function(b){return b+1};'.repeat(2000));
    write(root, 'bad/repeated.txt', 'the same line again and again\n'.repeat(500));
    write(root, 'bad/empty.txt', '');
    write(root, 'bad/blank.md', ' \n\n\t\n   \n');
    write(root, 'bad/bom-only.txt', Buffer.from([0xff, 0xfe]));
    write(root, 'bad/odd-utf16.txt', Buffer.concat([Buffer.from('\ufeffabc', 'utf16le'), Buffer.from([0x41])]));
    if (hasMkfifo) spawnSync('mkfifo', [path.join(root, 'bad', 'fifo.txt')]);
    openToAll(tmp);
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  const expectedSkips = (): Record<string, RegExp> => {
    const e: Record<string, RegExp> = {
      'bad/binary.bin': /^binary file \(NUL bytes\)$/,
      'bad/nul.txt': /^binary file \(NUL bytes\)$/,
      'bad/minified.js': /^minified or generated \(very long lines\)$/,
      'bad/repeated.txt': /^repetitive content/,
    };
    if (hasMkfifo) e['bad/fifo.txt'] = /^not a regular file$/;
    return e;
  };

  function assertRun(r: { code: number; stdout: string; stderr: string }, extra: Record<string, RegExp> = {}): LocatedReport {
    assert.equal(r.code, 0, r.stderr);
    const s = skips(r.stderr);
    const expected = { ...expectedSkips(), ...extra };
    assert.deepEqual([...s.keys()].sort(), Object.keys(expected).sort(), r.stderr);
    for (const [rel, re] of Object.entries(expected)) assert.match(s.get(rel)!, re, rel);
    const j = JSON.parse(r.stdout) as LocatedReport;
    assertPlanted(j.pairs, planted, 'bad tree');
    for (const p of j.pairs) for (const x of [p.a.path, p.b.path]) assert.ok(!x.startsWith('bad/'), `a bad file in a pair: ${x}`);
    for (const g of j.groups) for (const m of g.members) assert.ok(!m.startsWith('bad/'), `a bad file in a group: ${m}`);
    return j;
  }

  it('binary, NUL, minified, repetitive, empty, BOM-only, FIFO: one scan line each, none from --locate; every copy located', () => {
    const r = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate']);
    const j = assertRun(r);
    // The fixture's 8 files, the 2 re-encoded hosts, and the 4 empty or odd ones the scan reads.
    assert.equal(j.stats.files, 14);
    // -q: nothing on stderr, the same report.
    const q = runCli(['scan', root, '--format', 'json', '-q', '--locate']);
    assert.equal(q.code, 0, q.stderr);
    assert.equal(q.stderr, '');
    assert.deepEqual(timeless(q.stdout), timeless(r.stdout));
  });

  it('an unreadable file (chmod 000) is the scan\'s one line; --locate adds none', function () {
    const user = deniedUser();
    // Root reads a chmod 000 file, and without a `nobody` user there is no one to be denied.
    if (!user) this.skip();
    const secret = write(root, 'bad/secret.ts', fs.readFileSync(path.join(root, 'src/pasted.ts')));
    fs.chmodSync(secret, 0);
    try {
      const r = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate'], user);
      assertRun(r, { 'bad/secret.ts': /^permission denied/ });
    } finally {
      fs.rmSync(secret, { force: true });
    }
  });

  it('files changed between the scan and the locate pass: one skip each with the scan\'s reason; the rest located', async () => {
    const tree = path.join(tmp, 'changing');
    fs.mkdirSync(tree);
    const fixture = writeLocateFixture(tree);
    const names = ['deleted', 'folder', 'fifo', 'link', 'binary', 'minified', 'repeated', 'ignored', 'grown', 'emptied'];
    names.forEach((n, i) => write(tree, `x/${n}.ts`, codeFile(mulberry32(300 + i), 3)));
    write(tmp, 'outside.ts', codeFile(mulberry32(399), 3));
    const settings: EngineSettings = { ...DEFAULT_ENGINE_SETTINGS, maxFileSizeBytes: 64 * 1024 };
    const result = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true });
    for (const n of names) assert.ok(result.documents.some((d) => d.path === `x/${n}.ts`), `x/${n}.ts fingerprinted by the scan`);
    const f = (n: string) => path.join(tree, 'x', `${n}.ts`);
    fs.rmSync(f('deleted'));
    fs.rmSync(f('folder'));
    fs.mkdirSync(f('folder'));
    fs.rmSync(f('fifo'));
    if (hasMkfifo) spawnSync('mkfifo', [f('fifo')]);
    else fs.mkdirSync(f('fifo'));
    fs.rmSync(f('link'));
    fs.symlinkSync(path.join(tmp, 'outside.ts'), f('link'));
    fs.writeFileSync(f('binary'), Buffer.from('text\0more text\n'.repeat(10)));
    fs.writeFileSync(f('minified'), 'var a=function(b){return b+1};'.repeat(1000));
    fs.writeFileSync(f('repeated'), 'the same line again and again\n'.repeat(500));
    fs.writeFileSync(f('ignored'), '// neardup-ignore-file\n' + fs.readFileSync(f('ignored'), 'utf8'));
    fs.writeFileSync(f('grown'), 'const x = 1;\n'.repeat(6000)); // > 64 KB
    fs.truncateSync(f('emptied'), 0);
    const skipped: Record<string, string> = {};
    const out = locateCopies(result, {
      settings,
      onSkip: (rel, reason) => {
        assert.ok(!(rel in skipped), `one skip per file: ${rel}`);
        skipped[rel] = reason;
      },
    });
    assert.deepEqual(skipped, {
      'x/deleted.ts': 'deleted before it could be read',
      'x/folder.ts': 'not a regular file',
      'x/fifo.ts': 'not a regular file',
      'x/link.ts': 'symbolic link (not followed)',
      'x/binary.ts': 'binary file (NUL bytes)',
      'x/minified.ts': 'minified or generated (very long lines)',
      'x/repeated.ts': 'repetitive content (the same few lines over and over)',
      'x/ignored.ts': 'ignored by a neardup-ignore-file marker',
      'x/grown.ts': 'larger than 64 KB',
    });
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(out.stats.files, result.documents.length - 9, 'the emptied file is read (as empty), the others left out');
    assertPlanted(withLocated(result, out).pairs as LocatedPair[], fixture, 'changed tree');
  });

  it('the scan makes region documents for the locate pass, and stops (letting go of those made) once the files pass regionsMaxBytes', async () => {
    const tree = path.join(tmp, 'limit');
    for (let i = 0; i < 12; i++) write(tree, `f${i}.ts`, codeFile(mulberry32(500 + i), 4));
    const settings: EngineSettings = DEFAULT_ENGINE_SETTINGS;
    const all = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true, regions: true, batchSize: 2 });
    assert.equal(all.regions?.size, all.documents.length, 'a region document per file');
    for (const d of all.documents) assert.ok(all.regions!.get(d.path)!.length > 0, d.path);
    const none = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true });
    assert.equal(none.regions, undefined, 'none unless asked for');
    const phases: string[] = [];
    const limited = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true, regions: true, regionsMaxBytes: Math.floor(all.stats.bytes / 3), batchSize: 2, onPhase: (p) => phases.push(p) });
    assert.equal(limited.documents.length, all.documents.length, 'the scan itself is whole');
    assert.equal(limited.regions?.size, 0, 'no region documents kept past the limit');
    assert.equal(limited.regionsNotMade, undefined, 'none to make: the text is over the limit');
    assert.ok(phases.indexOf('region documents no longer asked for') >= 0 && phases.indexOf('region documents no longer asked for') < phases.indexOf('walked'), `asked for no more once the walk passed the limit: ${phases.join(', ')}`);
    // (the whole tree walked at once, three times the limit, and the first batch back all text)
    assert.ok(phases.indexOf('region documents let go') >= 0 && phases.indexOf('region documents let go') < phases.indexOf('fingerprinted'), `let go before the files read passed the limit: ${phases.join(', ')}`);
    const out = locateCopies(limited, { settings, maxBytes: Math.floor(all.stats.bytes / 3) });
    assert.equal(out.ok, false, 'and the locate pass refuses the tree');
    assert.match(out.ok ? '' : out.reason, /^the scanned text \(\d+(\.\d)? KB\) is over the \d+(\.\d)? KB --locate takes$/);
  });

  /** The planted-copy fixture and a binary file of `size` bytes at `rel` (skipped by the scan), in tmp/`name`; and its scan with region documents, no limit. */
  async function treeWithBinary(name: string, rel: string, size: number) {
    const tree = path.join(tmp, name);
    fs.mkdirSync(tree);
    const fixture = writeLocateFixture(tree);
    const binary = Buffer.alloc(size, 7);
    for (let i = 0; i < binary.length; i += 64) binary[i] = 0; // NUL bytes: binary, skipped by the scan
    write(tree, rel, binary);
    const settings: EngineSettings = DEFAULT_ENGINE_SETTINGS;
    const all = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true, regions: true, batchSize: 2 });
    return { tree, fixture, binary, settings, all };
  }

  it('files walked over regionsMaxBytes but text under it (a large binary file walked first): no region document asked for, the locate pass reads the files again and finds the same', async () => {
    const { tree, fixture, binary, settings, all } = await treeWithBinary('walked-over', 'a-first/blob.bin', 256 * 1024);
    assert.ok(all.stats.bytes < binary.length, `the text (${all.stats.bytes} bytes) is smaller than the binary file`);
    const maxBytes = all.stats.bytes + 1024; // the text is under it, the files walked are not from the first one on
    const scanned = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true, regions: true, regionsMaxBytes: maxBytes, batchSize: 2 });
    assert.equal(scanned.regions?.size, 0, 'no region document asked for');
    assert.deepEqual([...(scanned.regionsNotMade ?? [])].sort(), scanned.documents.map((d) => d.path).sort(), 'every document fingerprinted is named');
    const skipped: string[] = [];
    const again = locateCopies(scanned, { settings, maxBytes, onSkip: (p, r) => skipped.push(`${p}: ${r}`) });
    const made = locateCopies(all, { settings, maxBytes });
    assert.ok(again.ok && made.ok);
    assert.deepEqual(skipped, []);
    assert.ok(again.pairs.length > 0);
    assert.deepEqual(again.pairs, made.pairs, 'the same located pairs');
    assert.deepEqual(again.groups, made.groups);
    assert.deepEqual({ ...again.stats, elapsedMs: 0 }, { ...made.stats, elapsedMs: 0 });
    assertPlanted(withLocated(scanned, again).pairs as LocatedPair[], fixture, 'read again');
  });

  it('text walked first, then a large binary file: the region documents made are let go (the text promised is over the limit), the locate pass reads the files again and finds the same', async () => {
    const { tree, fixture, binary, settings, all } = await treeWithBinary('walked-over-last', 'zz-last/blob.bin', 1024 * 1024);
    const maxBytes = all.stats.bytes + 1024; // the text is under it, the files walked are far over it
    assert.ok(binary.length > 2 * maxBytes, `the binary file (${binary.length} bytes) is over twice the limit (${maxBytes})`);
    // One file a batch, in the walk's order on one worker: the text's batches come back first.
    const phases: string[] = [];
    const scanned = await scanDirectory({ root: tree, settings, workers: 1, workerScript: WORKER, quiet: true, regions: true, regionsMaxBytes: maxBytes, batchSize: 1, batchBytes: 1, onPhase: (p) => phases.push(p) });
    assert.ok(phases.includes('region documents let go'), phases.join(', '));
    assert.equal(scanned.regions?.size, 0, 'none held');
    assert.deepEqual([...(scanned.regionsNotMade ?? [])].sort(), scanned.documents.map((d) => d.path).sort(), 'every document fingerprinted is named');
    const again = locateCopies(scanned, { settings, maxBytes });
    const made = locateCopies(all, { settings, maxBytes });
    assert.ok(again.ok && made.ok);
    assert.ok(again.pairs.length > 0);
    assert.deepEqual(again.pairs, made.pairs, 'the same located pairs');
    assert.deepEqual(again.groups, made.groups);
    assertPlanted(withLocated(scanned, again).pairs as LocatedPair[], fixture, 'let go, read again');
  });

  it('a file made unreadable between the scan and the locate pass is one "permission denied" skip', function () {
    const user = deniedUser();
    // Root reads a chmod 000 file, and without a `nobody` user there is no one to be denied.
    if (!user) this.skip();
    const tree = path.join(tmp, 'unreadable');
    fs.mkdirSync(tree);
    const fixture = writeLocateFixture(tree);
    write(tree, 'x/secret.ts', codeFile(mulberry32(501), 3));
    openToAll(tree);
    if (user.uid !== undefined) spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, tree]);
    // In a child process as that user (who owns the tree, so may chmod it).
    const script = path.join(tmp, 'unreadable.ts');
    const src = (p: string) => JSON.stringify(path.join(REPO, 'src', ...p.split('/')));
    fs.writeFileSync(
      script,
      `import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanDirectory } from ${src('node/scan/scan')};
import { locateCopies, withLocated } from ${src('node/locate/locate')};
import { DEFAULT_ENGINE_SETTINGS } from ${src('node/settings/engineSettings')};
const root = ${JSON.stringify(tree)};
void (async () => {
  const result = await scanDirectory({ root, settings: DEFAULT_ENGINE_SETTINGS, workers: 1, workerScript: ${JSON.stringify(WORKER)}, quiet: true });
  const scanned = result.documents.some((d) => d.path === 'x/secret.ts');
  fs.chmodSync(path.join(root, 'x', 'secret.ts'), 0);
  const skipped: Array<[string, string]> = [];
  const out = locateCopies(result, { settings: DEFAULT_ENGINE_SETTINGS, onSkip: (rel, reason) => skipped.push([rel, reason]) });
  if (!out.ok) throw new Error(out.reason);
  console.log(JSON.stringify({ scanned, skipped, pairs: withLocated(result, out).pairs }));
})();
`,
    );
    fs.chmodSync(script, 0o644);
    const r = spawnSync(process.execPath, ['-r', 'tsx/cjs', script], {
      cwd: REPO,
      uid: user.uid,
      gid: user.gid,
      encoding: 'utf8',
      env: { ...process.env, HOME: tmp },
      timeout: 60000,
    });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { scanned: boolean; skipped: Array<[string, string]>; pairs: LocatedPair[] };
    assert.ok(got.scanned, 'the scan read x/secret.ts');
    assert.deepEqual(got.skipped, [['x/secret.ts', 'permission denied']]);
    assertPlanted(got.pairs, fixture, 'unreadable tree');
  });
});

describe('neardup scan locating copies (the default) with other options and formats', function () {
  this.timeout(120000);
  let tmp: string;
  let root: string;
  let planted: PlantedCopy[];
  let renamed: PlantedCopy;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (node esbuild.js)');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-locate-opts-'));
    root = path.join(tmp, 'tree');
    fs.mkdirSync(root);
    planted = writeLocateFixture(root);
    renamed = planted.find((c) => c.what === 'function renamed')!;
  });
  after(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

  it('--weighting tfidf: every copy located, distances whole numbers in 0..64', () => {
    const r = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate', '--weighting', 'tfidf']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const j = JSON.parse(r.stdout) as LocatedReport;
    assertPlanted(j.pairs, planted, 'tfidf');
    const located = j.pairs.filter((p) => p.located);
    assert.ok(located.length > 0);
    for (const p of j.pairs) assert.ok(Number.isInteger(p.distance) && p.distance >= 0 && p.distance <= 64, JSON.stringify(p));
  });

  it('--no-sections: the scan compares whole files only, the located copies are still reported', () => {
    const r = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate', '--no-sections']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as LocatedReport;
    assert.equal(j.stats.sections, 0);
    // Every section pair and group is a located one; each planted copy among them.
    for (const p of j.pairs.filter((q) => q.kind === 'section')) assert.equal(p.located, true, JSON.stringify(p));
    for (const g of j.groups.filter((q) => q.kind === 'section')) assert.equal(g.located, true, JSON.stringify(g));
    assertPlanted(j.pairs.filter((p) => p.located), planted, '--no-sections');
    // With --no-locate: no section pair at all.
    const plain = JSON.parse(runCli(['scan', root, '--format', 'json', '-q', '--no-sections', '--no-locate']).stdout) as LocatedReport;
    assert.equal(plain.pairs.filter((p) => p.kind === 'section').length, 0);
  });

  it('--format text, markdown, codeclimate and sarif each run and show the located renamed copy', () => {
    const text = runCli(['scan', root, '-q', '--locate', '--format', 'text']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /src\/renamed\.ts:\d+-\d+ {2}renamed copy, similarity \d+\.\d%, distance \d+/);
    assert.match(text.stdout, /src\/origin\.ts:\d+-\d+/);

    const md = runCli(['scan', root, '-q', '--locate', '--format', 'markdown']);
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /`src\/renamed\.ts` lines \d+–\d+/);
    assert.match(md.stdout, /`src\/origin\.ts` lines \d+–\d+/);

    /** Whether [path, begin, end] spans name a side of the planted renamed copy (± 1 line, begin; the end may reach further). */
    const isRenamed = (sides: Array<[string, number]>) =>
      [renamed.a, renamed.b].every((s) => sides.some(([p, begin]) => p === s.path && Math.abs(begin - s.startLine) <= 1));

    const cc = runCli(['scan', root, '-q', '--locate', '--format', 'codeclimate']);
    assert.equal(cc.code, 0, cc.stderr);
    type CcLoc = { path: string; lines: { begin: number; end: number } };
    const issues = JSON.parse(cc.stdout) as Array<{ location: CcLoc; other_locations?: CcLoc[] }>;
    assert.ok(
      issues.some((i) => isRenamed([i.location, ...(i.other_locations ?? [])].map((l) => [l.path, l.lines.begin]))),
      `no Code Climate issue for the renamed copy: ${cc.stdout.slice(0, 2000)}`,
    );

    const sarif = runCli(['scan', root, '-q', '--locate', '--format', 'sarif']);
    assert.equal(sarif.code, 0, sarif.stderr);
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    const log = JSON.parse(sarif.stdout) as unknown;
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    type SLoc = { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } };
    const results = (log as { runs: Array<{ results: Array<{ locations: SLoc[]; relatedLocations?: SLoc[] }> }> }).runs[0].results;
    assert.ok(
      results.some((x) =>
        isRenamed([...x.locations, ...(x.relatedLocations ?? [])].map((l) => [decodeURIComponent(l.physicalLocation.artifactLocation.uri), l.physicalLocation.region?.startLine ?? 0])),
      ),
      'no SARIF result for the renamed copy',
    );
  });

  it('the byte limit through the CLI: one notice on stderr, the report of a run with --no-locate', () => {
    const plain = runCli(['scan', root, '--format', 'json', '--no-progress', '--no-locate']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(!plain.stdout.includes('"located"'), 'the plain report has no located pair');
    const env = (v: string) => ({ env: { ...process.env, NEARDUP_LOCATE_MAX_BYTES: v } });
    const refused = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate'], env('1024'));
    assert.equal(refused.code, 0, refused.stderr);
    assert.deepEqual(lines(refused.stderr).length, 1, refused.stderr);
    assert.match(refused.stderr, /^neardup: --locate skipped: the scanned text \(\d+(\.\d)? KB\) is over the 1 KB --locate takes\.\n$/);
    assert.deepEqual(timeless(refused.stdout), timeless(plain.stdout));
    // -q: no notice, the same report.
    const quiet = runCli(['scan', root, '--format', 'json', '-q', '--locate'], env('1024'));
    assert.equal(quiet.code, 0);
    assert.equal(quiet.stderr, '');
    assert.deepEqual(timeless(quiet.stdout), timeless(plain.stdout));
    // At the default (no --locate asked for): one shorter notice that says how to leave it out; none with -q.
    const byDefault = runCli(['scan', root, '--format', 'json', '--no-progress'], env('1024'));
    assert.equal(byDefault.code, 0, byDefault.stderr);
    assert.equal(
      byDefault.stderr,
      byDefault.stderr.match(/^neardup: copies inside files not located: the scanned text \(\d+(\.\d)? KB\) is over the 1 KB --locate takes \(--no-locate: no notice\)\.\n$/)?.[0],
      byDefault.stderr,
    );
    assert.deepEqual(timeless(byDefault.stdout), timeless(plain.stdout));
    const quietDefault = runCli(['scan', root, '--format', 'json', '-q'], env('1024'));
    assert.equal(quietDefault.stderr, '');
    assert.deepEqual(timeless(quietDefault.stdout), timeless(plain.stdout));
    // --no-locate: nothing to refuse, no notice.
    assert.equal(runCli(['scan', root, '--format', 'json', '--no-progress', '--no-locate'], env('1024')).stderr, '');
    // Over the tree's size, or not a positive whole number: ignored, the copies are located.
    for (const v of ['1000000000', '0', '-5', 'abc', '1e3', '', ' 1024']) {
      const r = runCli(['scan', root, '--format', 'json', '--no-progress', '--locate'], env(v));
      assert.equal(r.code, 0, `${JSON.stringify(v)}: ${r.stderr}`);
      assert.equal(r.stderr, '', JSON.stringify(v));
      assertPlanted((JSON.parse(r.stdout) as LocatedReport).pairs, planted, `NEARDUP_LOCATE_MAX_BYTES=${JSON.stringify(v)}`);
    }
  });
});
