/**
 * Issue 15, for teams and CI: `--write-baseline` / `--baseline` (pair identities that survive line
 * shifts and unrelated edits; a bad baseline is one line and exit code 2), `--format markdown`
 * (a PR comment that no file name can break) and `--format codeclimate` (GitLab Code Quality with
 * stable fingerprints), and SARIF's `baselineState`.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { locatedNewToBaseline, pairIdentities, type Baseline } from '../../../src/cli/baseline';
import { markdownCode } from '../../../src/cli/formatMarkdown';
import { sanitizeForTerminal } from '../../../src/cli/sanitize';
import { codeFile, codeFunction, editLines, mulberry32 } from '../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Loc {
  path: string;
  startLine?: number;
  endLine?: number;
}
interface JsonReport {
  pairs: Array<{ kind: string; a: Loc; b: Loc; distance: number; clone: string }>;
  groups: Array<{ kind: string; members: string[]; maxDistance: number }>;
  baseline?: { file: string; matched: number; new: number };
}
interface Issue {
  type: string;
  check_name: string;
  description: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number; end?: number } };
}

function sarifValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
}

const pairName = (p: { kind: string; a: Loc; b: Loc }) => `${p.kind} ${[p.a.path, p.b.path].sort().join(' ~ ')}`;


/** A Code Climate issue's description: a pair's (one other copy) or a group's. */
const CODECLIMATE_DESCRIPTION =
  /^Near-duplicate (file|section): also at \S.* \(((exact|renamed|edited) copy, similarity \d+\.\d%, Hamming distance \d+|\d+ copies, pairs \d+ (exact|renamed|edited)(, \d+ (renamed|edited))*; lowest similarity \d+\.\d%, largest Hamming distance \d+)\)\.$/;
describe('neardup scan: baselines, Markdown and Code Climate (CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  let dir: string;
  let baseline: string;
  let shared: string;
  let host1Head: string;
  let host2Tail: string;
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const json = (...args: string[]) => {
    const r = run(['scan', dir, '--format', 'json', '-q', ...args]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return JSON.parse(r.stdout) as JsonReport;
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-baseline-'));
    dir = path.join(tmp, 'tree');
    baseline = path.join(tmp, 'ci', 'neardup-baseline.json');
    fs.mkdirSync(path.dirname(baseline), { recursive: true });
    const rnd = mulberry32(1515);
    const code = codeFile(rnd, 7);
    w('src/alpha.ts', code);
    w('src/beta.ts', editLines(code, mulberry32(3), 0.03));
    shared = codeFunction(rnd, 30);
    host1Head = codeFile(rnd, 4);
    host2Tail = codeFile(rnd, 4);
    w('src/host1.ts', host1Head + '\n' + shared);
    w('src/host2.ts', shared + '\n' + host2Tail);
    w('src/unrelated.ts', codeFile(rnd, 6));
    w('lib/other.ts', codeFile(rnd, 6));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('--write-baseline records every pair (atomically, only where asked); --baseline then reports none and passes --fail-on-pairs', () => {
    const plain = json();
    assert.ok(plain.pairs.some((p) => p.kind === 'file') && plain.pairs.some((p) => p.kind === 'section'), JSON.stringify(plain.pairs));
    const before = fs.readdirSync(dir, { recursive: true }).sort();
    const r = run(['scan', dir, '--format', 'json', '--no-progress', '--write-baseline', baseline]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`wrote ${plain.pairs.length} pairs to the baseline`));
    assert.deepEqual(JSON.parse(r.stdout).pairs, plain.pairs, 'the report is printed as usual');
    assert.deepEqual(fs.readdirSync(dir, { recursive: true }).sort(), before, 'nothing written into the scanned tree');
    assert.deepEqual(fs.readdirSync(path.dirname(baseline)), [path.basename(baseline)], 'no temporary file left beside it');
    const file = JSON.parse(fs.readFileSync(baseline, 'utf8'));
    assert.equal(file.version, 1);
    assert.equal(file.tool, 'neardup');
    assert.equal(file.settings.maxDistance, 12);
    assert.equal(file.pairs.length, plain.pairs.length);
    for (const e of file.pairs) assert.match(e.key, /^[0-9a-f]{32}$/);
    // The same pairs give the same bytes (a baseline in version control does not churn).
    const again = path.join(tmp, 'ci', 'again.json');
    assert.equal(run(['scan', dir, '-q', '--write-baseline', again]).code, 0);
    assert.equal(fs.readFileSync(again, 'utf8'), fs.readFileSync(baseline, 'utf8'));
    fs.rmSync(again);

    const b = run(['scan', dir, '--format', 'json', '-q', '--baseline', baseline, '--fail-on-pairs', '1']);
    assert.equal(b.code, 0, b.stderr);
    const j = JSON.parse(b.stdout) as JsonReport;
    assert.deepEqual(j.baseline, { file: baseline, matched: plain.pairs.length, new: 0 });
    assert.deepEqual(j.pairs, []);
    assert.deepEqual(j.groups, []);
  });

  it('a new copy fails --fail-on-pairs 1 with exit code 1, and only the new pair is reported (JSON, text)', () => {
    const all = json().pairs.length;
    fs.copyFileSync(path.join(dir, 'lib/other.ts'), path.join(dir, 'lib/other copy.ts'));
    try {
      const r = run(['scan', dir, '--format', 'json', '-q', '--baseline', baseline, '--fail-on-pairs', '1']);
      assert.equal(r.code, 1, r.stderr);
      const j = JSON.parse(r.stdout) as JsonReport;
      assert.deepEqual(j.pairs.map(pairName), ['file lib/other copy.ts ~ lib/other.ts']);
      assert.deepEqual(j.baseline, { file: baseline, matched: all, new: 1 });
      assert.deepEqual(j.groups.map((g) => g.members), [['lib/other copy.ts', 'lib/other.ts']]);
      const loud = run(['scan', dir, '--no-progress', '--baseline', baseline, '--fail-on-pairs', '1']);
      assert.equal(loud.code, 1);
      assert.match(loud.stderr, /1 new near-duplicate pairs \(fail threshold 1\)/);
      assert.match(loud.stdout, new RegExp(`Baseline .*neardup-baseline\\.json: 1 new pairs; ${all} pairs already in the baseline are not shown`));
      assert.match(loud.stdout, /lib\/other copy\.ts/);
      assert.doesNotMatch(loud.stdout, /alpha\.ts|host1\.ts/);
      assert.equal(run(['scan', dir, '-q', '--baseline', baseline, '--fail-on-pairs', '2']).code, 0, 'one new pair is below 2');
    } finally {
      fs.rmSync(path.join(dir, 'lib/other copy.ts'));
    }
  });

  it('the baseline survives lines inserted above a copied section and edits elsewhere; a renamed file’s pairs are new', () => {
    const plain = json();
    const sectionBefore = plain.pairs.find((p) => p.kind === 'section')!;
    const ccBefore = JSON.parse(run(['scan', dir, '-q', '--format', 'codeclimate']).stdout) as Issue[];
    const saved = new Map(['src/host1.ts', 'src/host2.ts', 'src/alpha.ts', 'src/unrelated.ts'].map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    try {
      // Ten lines above the copied function in host1; an edit after it in host2; edits in one
      // file of the file pair and in an unrelated file.
      w('src/host1.ts', '// a comment\n'.repeat(4) + host1Head + '\n' + codeFunction(mulberry32(9), 4) + '\n' + shared);
      w('src/host2.ts', shared + '\n' + editLines(host2Tail, mulberry32(10), 0.2));
      w('src/alpha.ts', editLines(saved.get('src/alpha.ts')!, mulberry32(11), 0.02));
      w('src/unrelated.ts', editLines(saved.get('src/unrelated.ts')!, mulberry32(12), 0.3));
      const now = json();
      const sectionNow = now.pairs.find((p) => p.kind === 'section' && pairName(p) === pairName(sectionBefore))!;
      assert.ok(sectionNow, 'the section pair is still found');
      const host1 = (p: typeof sectionNow) => (p.a.path === 'src/host1.ts' ? p.a : p.b);
      assert.ok(host1(sectionNow).startLine! > host1(sectionBefore).startLine!, 'its lines moved');
      assert.deepEqual(now.pairs.map(pairName).sort(), plain.pairs.map(pairName).sort());

      const j = json('--baseline', baseline);
      assert.deepEqual(j.baseline, { file: baseline, matched: plain.pairs.length, new: 0 });
      assert.deepEqual(j.pairs, []);
      // Code Climate fingerprints are the same identities: unchanged by the shift and the edits.
      const ccNow = JSON.parse(run(['scan', dir, '-q', '--format', 'codeclimate']).stdout) as Issue[];
      assert.deepEqual(ccNow.map((i) => i.fingerprint).sort(), ccBefore.map((i) => i.fingerprint).sort());
      assert.ok(ccNow.some((i) => i.location.path === 'src/host1.ts' && i.location.lines.begin === host1(sectionNow).startLine));
    } finally {
      for (const [f, text] of saved) w(f, text);
    }
    // Renamed: another path, so its pairs are new (documented in README).
    fs.renameSync(path.join(dir, 'src/beta.ts'), path.join(dir, 'src/gamma.ts'));
    try {
      const j = json('--baseline', baseline);
      assert.deepEqual(j.pairs.map(pairName), ['file src/alpha.ts ~ src/gamma.ts']);
      assert.equal(j.baseline!.new, 1);
    } finally {
      fs.renameSync(path.join(dir, 'src/gamma.ts'), path.join(dir, 'src/beta.ts'));
    }
  });

  it('under --weighting tfidf (where any edit moves every SimHash) the baseline still survives an unrelated edit', () => {
    const tfidf = path.join(tmp, 'ci', 'tfidf.json');
    assert.equal(run(['scan', dir, '-q', '--weighting', 'tfidf', '--write-baseline', tfidf]).code, 0);
    const saved = fs.readFileSync(path.join(dir, 'src/unrelated.ts'), 'utf8');
    try {
      w('src/unrelated.ts', editLines(saved, mulberry32(21), 0.5) + codeFile(mulberry32(22), 3));
      const j = json('--weighting', 'tfidf', '--baseline', tfidf);
      assert.equal(j.baseline!.new, 0, JSON.stringify(j.pairs));
      assert.ok(j.baseline!.matched > 0);
    } finally {
      w('src/unrelated.ts', saved);
      fs.rmSync(tfidf);
    }
  });

  it('a pair’s identity does not depend on which side is a, nor on its lines', () => {
    const sketch = Uint32Array.of(5, 9, 12);
    const doc = (startLine: number) => ({ kind: 'code' as const, file: null, sections: [{ hi: 1, lo: 2, tokens: 60, features: 40, sketch, rawHi: 0, rawLo: 0, normHi: 0, normLo: 0, startLine, endLine: startLine + 20 }] });
    const other = { kind: 'code' as const, file: null, sections: [{ hi: 3, lo: 4, tokens: 70, features: 50, sketch: Uint32Array.of(1, 2), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0, startLine: 1, endLine: 9 }] };
    const x = { path: 'x.ts', startLine: 10, endLine: 30 };
    const y = { path: 'y.ts', startLine: 1, endLine: 9 };
    const ab = pairIdentities({ pairs: [{ kind: 'section', a: x, b: y, distance: 1, similarity: 0, clone: 'edited' }], documents: [{ path: 'x.ts', doc: doc(10) }, { path: 'y.ts', doc: other }] });
    const ba = pairIdentities({ pairs: [{ kind: 'section', a: y, b: { ...x, startLine: 40, endLine: 60 }, distance: 1, similarity: 0, clone: 'edited' }], documents: [{ path: 'x.ts', doc: doc(40) }, { path: 'y.ts', doc: other }] });
    assert.equal(ab[0].key, ba[0].key);
    const files = (a: string, b: string) => pairIdentities({ pairs: [{ kind: 'file', a: { path: a }, b: { path: b }, distance: 0, similarity: 1, clone: 'edited' }], documents: [] })[0].key;
    assert.equal(files('p', 'q'), files('q', 'p'));
    assert.notEqual(files('p', 'q'), files('p', 'r'));
  });

  it('a missing, unreadable or invalid baseline is one line naming the file, exit code 2, nothing on stdout', () => {
    const bad = (name: string, content?: string) => {
      const f = path.join(tmp, name);
      if (content !== undefined) fs.writeFileSync(f, content);
      return f;
    };
    const cases: Array<[string, RegExp]> = [
      [path.join(tmp, 'missing.json'), /cannot read baseline .*missing\.json: no such file or folder/],
      [path.join(tmp, 'ci'), /cannot read baseline .*ci: is a folder/],
      [bad('garbage.json', '{ not json'), /invalid baseline .*garbage\.json: not JSON/],
      [bad('array.json', '[]'), /invalid baseline .*array\.json: not a NearDup baseline/],
      [bad('report.json', JSON.stringify({ version: 1, root: '.', pairs: [] })), /invalid baseline .*report\.json: not a NearDup baseline/],
      [bad('v2.json', JSON.stringify({ version: 2, tool: 'neardup', pairs: [] })), /invalid baseline .*v2\.json: version 2 is not supported/],
      [bad('entry.json', JSON.stringify({ version: 1, tool: 'neardup', pairs: [{ kind: 'file', paths: ['a', 'b'], key: 'nope' }] })), /invalid baseline .*entry\.json: pairs\[0\] is not a pair/],
    ];
    for (const [file, message] of cases) {
      for (const format of ['text', 'json', 'sarif', 'markdown', 'codeclimate']) {
        const r = run(['scan', dir, '--format', format, '--baseline', file]);
        assert.equal(r.code, 2, `${file} ${format}: ${r.stderr}`);
        assert.equal(r.stdout, '', 'nothing on stdout');
        assert.match(r.stderr, /^neardup: [^\n]*\n$/, `one line: ${JSON.stringify(r.stderr)}`);
        assert.match(r.stderr, message);
      }
    }
    // A baseline that cannot be written: one line, exit code 2, nothing left behind.
    const w2 = run(['scan', dir, '-q', '--write-baseline', path.join(tmp, 'no-such-folder', 'b.json')]);
    assert.equal(w2.code, 2);
    assert.match(w2.stderr, /^neardup: cannot write baseline .*b\.json: no such file or folder\n$/);
    assert.ok(!fs.existsSync(path.join(tmp, 'no-such-folder')));
  });

  it('a baseline written with other settings is used, with a warning naming them', () => {
    const r = run(['scan', dir, '--no-progress', '--format', 'json', '--baseline', baseline, '--max-distance', '8', '--normalize-identifiers']);
    assert.ok(r.code === 0, r.stderr);
    assert.match(r.stderr, /baseline .* was written with other settings \(--max-distance, --normalize-identifiers\); some of its pairs may show as new/);
    assert.equal(run(['scan', dir, '-q', '--baseline', baseline, '--max-distance', '8']).stderr, '', '-q silences it');
  });

  it('SARIF keeps every result, marked baselineState "new" or "unchanged", with stable partialFingerprints, and stays schema-valid', () => {
    const validate = sarifValidator();
    fs.copyFileSync(path.join(dir, 'lib/other.ts'), path.join(dir, 'lib/other copy.ts'));
    try {
      const r = run(['scan', dir, '--format', 'sarif', '-q', '--baseline', baseline, '--fail-on-pairs', '1']);
      assert.equal(r.code, 1, r.stderr);
      const log = JSON.parse(r.stdout) as { runs: Array<{ results: unknown[]; properties: { baseline: unknown } }> };
      assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
      const results = log.runs[0].results as Array<{ baselineState: string; partialFingerprints: Record<string, string>; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
      const fresh = results.filter((x) => x.baselineState === 'new');
      assert.equal(fresh.length, 1);
      assert.match(fresh[0].locations[0].physicalLocation.artifactLocation.uri, /^lib\/other(%20copy)?\.ts$/);
      const file = JSON.parse(fs.readFileSync(baseline, 'utf8'));
      assert.equal(results.filter((x) => x.baselineState === 'unchanged').length, file.pairs.length);
      assert.deepEqual(log.runs[0].properties.baseline, { file: baseline, matched: file.pairs.length, new: 1 });
      const keys = new Set(file.pairs.map((e: { key: string }) => e.key));
      for (const x of results) assert.equal(keys.has(x.partialFingerprints['neardupPair/v1']), x.baselineState === 'unchanged');
    } finally {
      fs.rmSync(path.join(dir, 'lib/other copy.ts'));
    }
    // Without --baseline: no baselineState, still valid.
    const plain = JSON.parse(run(['scan', dir, '--format', 'sarif', '-q']).stdout) as { runs: Array<{ results: object[] }> };
    assert.ok(validate(plain), JSON.stringify(validate.errors?.slice(0, 3)));
    assert.ok(plain.runs[0].results.every((x: object) => !('baselineState' in x)));
  });

  it('codeclimate: one issue per copy of each group, GitLab’s fields, unique fingerprints stable across runs', () => {
    const report = json();
    const r = run(['scan', dir, '-q', '--format', 'codeclimate']);
    assert.equal(r.code, 0, r.stderr);
    const issues = JSON.parse(r.stdout) as Issue[];
    assert.ok(Array.isArray(issues));
    assert.equal(issues.length, report.groups.reduce((n, g) => n + g.members.length, 0));
    for (const i of issues) {
      assert.equal(i.type, 'issue');
      assert.match(i.check_name, /^neardup\/near-duplicate-(file|section)$/);
      assert.match(i.description, CODECLIMATE_DESCRIPTION);
      assert.match(i.fingerprint, /^[0-9a-f]{32}$/);
      assert.equal(i.severity, 'minor');
      assert.ok(!path.isAbsolute(i.location.path) && !i.location.path.includes('\\'), i.location.path);
      assert.ok(fs.existsSync(path.join(dir, i.location.path)));
      assert.ok(Number.isInteger(i.location.lines.begin) && i.location.lines.begin >= 1);
      assert.ok(i.location.lines.end! >= i.location.lines.begin);
    }
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, issues.length, 'unique fingerprints');
    const alpha = issues.find((i) => i.check_name.endsWith('file') && i.location.path === 'src/alpha.ts')!;
    assert.deepEqual(alpha.location.lines, { begin: 1, end: fs.readFileSync(path.join(dir, 'src/alpha.ts'), 'utf8').split('\n').length - 1 });
    const again = JSON.parse(run(['scan', dir, '-q', '--format', 'codeclimate', '--workers', '1']).stdout) as Issue[];
    assert.deepEqual(again, issues, 'the same report, fingerprints included, on another run');
    // With a baseline: only the new pairs' issues.
    assert.equal(run(['scan', dir, '-q', '--format', 'codeclimate', '--baseline', baseline]).stdout, '[]\n');
  });

  it('codeclimate with --locate: a pair in no group (a located file pair) reads as a group of two does', () => {
    const r = run(['scan', dir, '-q', '--format', 'codeclimate', '--locate']);
    assert.equal(r.code, 0, r.stderr);
    const issues = JSON.parse(r.stdout) as Issue[];
    assert.ok(issues.length > 0);
    for (const i of issues) assert.match(i.description, CODECLIMATE_DESCRIPTION);
    const alpha = issues.find((i) => i.check_name.endsWith('file') && i.location.path === 'src/alpha.ts');
    assert.match(alpha?.description ?? '', /^Near-duplicate file: also at src\/beta\.ts \(edited copy, similarity \d+\.\d%, Hamming distance \d+\)\.$/);
  });

  it('markdown: counts, a table of the closest groups, new vs baseline', () => {
    const r = run(['scan', dir, '-q', '--format', 'markdown']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], '### NearDup: near duplicates');
    const pairs = json().pairs.length;
    // The pairs counted by clone kind (json() gives the same pairs with their kinds).
    const kinds = ['exact', 'renamed', 'edited'].map((k) => [k, json().pairs.filter((p) => p.clone === k).length] as const).filter(([, n]) => n > 0);
    const inWords = kinds.map(([k, n]) => `${n} ${k}`).join(', ');
    assert.ok(r.stdout.includes(`**6** files, `) && r.stdout.includes(` sections, **${pairs}** near-duplicate pairs (${inWords}).\n`), r.stdout);
    assert.ok(lines.includes('| # | kind | where | copies | largest distance | similarity ≥ |'));
    const rows = lines.filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, json().groups.length);
    assert.match(r.stdout, /`src\/host1\.ts` lines \d+–\d+<br>`src\/host2\.ts` lines 1–\d+/);
    const distances = rows.map((l) => Number(l.split(' | ')[4]));
    // Each group's copies: host1/host2 hold the same function (exact), alpha/beta are edited.
    assert.ok(rows.some((l) => l.includes('`src/host2.ts`') && l.includes(' | 1 exact | ')), rows.join('\n'));
    assert.deepEqual(distances, [...distances].sort((x, y) => x - y), 'closest first');

    fs.copyFileSync(path.join(dir, 'lib/other.ts'), path.join(dir, 'lib/other copy.ts'));
    try {
      const b = run(['scan', dir, '-q', '--format', 'markdown', '--baseline', baseline, '--fail-on-pairs', '1']);
      assert.equal(b.code, 1);
      assert.match(b.stdout, new RegExp(`\\*\\*1\\*\\* new near-duplicate pair \\(1 exact; ${pairs} more in the baseline \`[^\`]*neardup-baseline\\.json\`\\)\\.`));
      assert.deepEqual(b.stdout.split('\n').filter((l) => /^\| \d+ \|/.test(l)), ['| 1 | 2 files | `lib/other copy.ts`<br>`lib/other.ts` | 1 exact | 0 | 100.0% |']);
    } finally {
      fs.rmSync(path.join(dir, 'lib/other copy.ts'));
    }
    assert.match(run(['scan', dir, '-q', '--format', 'markdown', '--baseline', baseline]).stdout, /\n\nNo new near duplicates\.\n$/);
  });

  it('markdown: at most 20 groups, then "and N more"', () => {
    const many = path.join(tmp, 'many');
    for (let i = 0; i < 24; i++) {
      const text = codeFile(mulberry32(500 + i), 3);
      fs.mkdirSync(path.join(many, `g${i}`), { recursive: true });
      fs.writeFileSync(path.join(many, `g${i}`, 'a.ts'), text);
      fs.writeFileSync(path.join(many, `g${i}`, 'b.ts'), editLines(text, mulberry32(i), 0.05));
    }
    const groups = (JSON.parse(run(['scan', many, '-q', '--format', 'json']).stdout) as JsonReport).groups.length;
    assert.ok(groups >= 24, `${groups} groups`);
    const md = run(['scan', many, '-q', '--format', 'markdown']).stdout;
    assert.equal(md.split('\n').filter((l) => /^\| \d+ \|/.test(l)).length, 20);
    assert.match(md, new RegExp(`\\n…and ${groups - 20} more groups\\.\\n$`));
  });

  it('markdown: hostile file names stay inside their code span and their cell (rendered with markdown-it)', () => {
    const hostile = path.join(tmp, 'hostile');
    fs.mkdirSync(hostile);
    const names = [
      'pipe | cell | break.ts',
      'tick `code` ``two``.ts',
      '`edge.ts`',
      '<img src=x onerror=alert(1)>.ts',
      '[link](https:evil.example) ].ts',
      'new\nline | row.ts',
      '@someone #12 *bold* _it_.ts',
      'back\\|slash\\\\|.ts',
      ' spaced .ts',
    ];
    const text = codeFile(mulberry32(77), 6);
    fs.writeFileSync(path.join(hostile, 'clean.ts'), text);
    for (const n of names) fs.writeFileSync(path.join(hostile, n), text);
    const r = run(['scan', hostile, '-q', '--format', 'markdown']);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, 1, 'the newline in a name does not start a new row');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const MarkdownIt = require('markdown-it');
    // With inline HTML on, as on GitHub (which keeps <br> and drops scripts): still no element from a name.
    const html: string = new MarkdownIt({ html: true }).render(r.stdout);
    const cells = [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
    assert.equal(cells.length, 6, `one row of six cells: ${html}`);
    assert.doesNotMatch(cells[2].replace(/<\/?code>|<br>/g, ''), /<[a-z]/i, 'no element from a file name');
    const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    const codes = [...cells[2].matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]));
    const shown = (n: string) => sanitizeForTerminal(n).replace(/\\(?=\|)/g, '\\x5c');
    assert.deepEqual(codes.sort(), ['clean.ts', ...names].map(shown).sort());
    assert.equal(markdownCode('a'), '`a`');
    assert.equal(markdownCode('`a'), '`` `a ``');
  });
});

describe('locatedNewToBaseline: located copies new to a baseline written without them', () => {
  const base = (settings: Baseline['settings']): Baseline => ({ version: 1, tool: 'neardup', settings, pairs: [] });
  const pairs: Array<{ located?: true }> = [{}, { located: true }, { located: true }, {}];

  it('counts the located pairs when the baseline holds none of them and another pair, and does not record them', () => {
    assert.equal(locatedNewToBaseline(pairs, [true, false, false, false], base({})), 2);
    assert.equal(locatedNewToBaseline(pairs, [false, false, false, true], base({ sections: true })), 2);
  });

  it('is 0 when the baseline records located copies, holds one of them, holds no other pair, or nothing is located', () => {
    assert.equal(locatedNewToBaseline(pairs, [true, false, false, false], base({ locate: true })), 0);
    assert.equal(locatedNewToBaseline(pairs, [true, false, true, false], base({})), 0);
    assert.equal(locatedNewToBaseline(pairs, [false, false, false, false], base({})), 0);
    assert.equal(locatedNewToBaseline([{}, {}], [true, false], base({})), 0);
  });
});
