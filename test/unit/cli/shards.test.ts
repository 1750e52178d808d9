import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { plantTree } from '../helpers/shardTree';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Side {
  path: string;
  startLine?: number;
  endLine?: number;
}
interface JsonReport {
  root: string;
  stats: { files: number; sections: number };
  pairs: Array<{ kind: string; a: Side; b: Side; distance: number; similarity: number }>;
  groups: Array<{ kind: string; members: string[]; maxDistance: number }>;
}

/** A pair as text, its sides in sorted order (a join's `shard:path` read as the scan's `shard/path`). */
function pairKey(p: JsonReport['pairs'][number], fromJoin: boolean): string {
  const side = (s: Side) => `${fromJoin ? s.path.replace(/^([^:]+):/, '$1/') : s.path}${s.startLine !== undefined ? `:${s.startLine}-${s.endLine}` : ''}`;
  const [x, y] = [side(p.a), side(p.b)].sort();
  return `${p.kind} ${x} ~ ${y} d=${p.distance}`;
}

describe('neardup fingerprints + join (CLI)', function () {
  this.timeout(120000);
  let dir: string;
  let tree: string;
  let out: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm test builds it first)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-shards-'));
    tree = path.join(dir, 'tree');
    out = path.join(dir, 'out');
    fs.mkdirSync(out);
    plantTree(tree, 1717);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('scanning a tree gives the same pairs as exporting its two halves and joining them (text, gzip)', () => {
    const scan = run(['scan', tree, '--format', 'json', '--quiet']);
    assert.equal(scan.code, 0, scan.stderr);
    const whole = JSON.parse(scan.stdout) as JsonReport;
    const a = run(['fingerprints', path.join(tree, 'alpha'), '--out', path.join(out, 'alpha.jsonl.gz'), '--quiet']);
    assert.equal(a.code, 0, a.stderr);
    const b = run(['fingerprints', path.join(tree, 'beta'), '--out', path.join(out, 'beta.jsonl'), '--quiet']);
    assert.equal(b.code, 0, b.stderr);
    // Given in either order: the shards are sorted by name.
    const join = run(['join', path.join(out, 'beta.jsonl'), path.join(out, 'alpha.jsonl.gz'), '--format', 'json']);
    assert.equal(join.code, 0, join.stderr);
    assert.match(join.stderr, /joining \d+ fingerprints of \d+ files from 2 shards/);
    const joined = JSON.parse(join.stdout) as JsonReport;
    const expected = whole.pairs.map((p) => pairKey(p, false)).sort();
    const got = joined.pairs.map((p) => pairKey(p, true)).sort();
    // The planted copies are there: across the halves (files and sections) and inside one.
    assert.ok(expected.some((k) => k.startsWith('file alpha/src/m0.ts ~ beta/lib/m0-copy.ts')), expected.join('\n'));
    assert.ok(expected.some((k) => k.startsWith('file alpha/src/m1-old.ts ~ alpha/src/m1.ts')));
    assert.ok(expected.some((k) => k.startsWith('section alpha/src/host0.ts:') && k.includes('~ beta/lib/host0.ts:')));
    assert.ok(expected.some((k) => k.startsWith('file alpha/docs/guide.md ~ beta/docs/guide.md')));
    assert.ok(expected.length >= 8, `pairs: ${expected.length}`);
    assert.deepEqual(got, expected);
    assert.equal(joined.stats.files, whole.stats.files);
    assert.equal(joined.stats.sections, whole.stats.sections);
    // Same groups (members as sets).
    const groups = (r: JsonReport, fromJoin: boolean) => r.groups.map((g) => `${g.kind} ${g.maxDistance} ${g.members.map((m) => (fromJoin ? m.replace(/^([^:]+):/, '$1/') : m)).sort().join(' | ')}`).sort();
    assert.deepEqual(groups(joined, true), groups(whole, false));
    // Paths read shard:path.
    assert.ok(joined.pairs.every((p) => /^(alpha|beta):/.test(p.a.path) && /^(alpha|beta):/.test(p.b.path)));
  });

  it('the shard holds a header, one line per file and section with 16-hex SimHash, sketch and content hash, and an end line', () => {
    const lines = zlib.gunzipSync(fs.readFileSync(path.join(out, 'alpha.jsonl.gz'))).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]);
    assert.equal(header.neardup, 'fingerprints');
    assert.equal(header.format, 1);
    assert.equal(header.shard, 'alpha', 'the shard name defaults to the folder name');
    assert.match(header.tool, /^neardup \d+\.\d+\.\d+$/);
    assert.deepEqual(Object.keys(header.settings).sort(), ['cjkSegmenter', 'foldVariants', 'minTokens', 'normalizeIdentifiers', 'sections', 'stopWords', 'weighting']);
    assert.equal(header.tokenizer.shingleSize, 3);
    const items = lines.slice(1, -1).map((l) => JSON.parse(l));
    assert.deepEqual(JSON.parse(lines[lines.length - 1]), { neardup: 'end', items: items.length });
    const m0 = items.find((i) => i.path === 'src/m0.ts' && i.kind === 'file');
    assert.ok(m0);
    const bytes = fs.readFileSync(path.join(tree, 'alpha/src/m0.ts'));
    assert.equal(m0.bytes, bytes.length);
    assert.equal(m0.hash, require('node:crypto').createHash('sha256').update(bytes).digest('hex').slice(0, 32));
    assert.deepEqual(m0.lines, [1, bytes.toString('utf8').split('\n').length - (bytes.toString('utf8').endsWith('\n') ? 1 : 0)]);
    for (const it of items) {
      assert.match(it.simhash, /^[0-9a-f]{16}$/);
      assert.ok(it.tokens >= 50);
      assert.ok(Buffer.from(it.sketch, 'base64').length % 4 === 0 && it.sketch.length > 0);
    }
    const sections = items.filter((i) => i.kind === 'section');
    assert.ok(sections.length > 0);
    // A section's content hash is the SHA-256 of the bytes of its lines.
    const host = fs.readFileSync(path.join(tree, 'alpha/src/host0.ts'), 'utf8').split(/(?<=\n)/);
    const h0 = items.filter((i) => i.path === 'src/host0.ts' && i.kind === 'section');
    assert.ok(h0.length > 0);
    for (const s of h0) {
      const text = host.slice(s.lines[0] - 1, s.lines[1]).join('');
      assert.equal(s.hash, require('node:crypto').createHash('sha256').update(text).digest('hex').slice(0, 32), `section ${s.lines}`);
    }
  });

  it('join writes SARIF and text with shard:path locations', () => {
    const sarif = run(['join', path.join(out, 'alpha.jsonl.gz'), path.join(out, 'beta.jsonl'), '--format', 'sarif', '--quiet']);
    assert.equal(sarif.code, 0, sarif.stderr);
    const log = JSON.parse(sarif.stdout);
    assert.equal(log.version, '2.1.0');
    assert.ok(log.runs[0].results.length > 0);
    const text = run(['join', path.join(out, 'alpha.jsonl.gz'), path.join(out, 'beta.jsonl'), '--quiet']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /alpha:src\/m0\.ts/);
    assert.match(text.stdout, /beta:lib\/m0-copy\.ts/);
  });

  describe('bad input: one clear message, exit code 2', () => {
    const bad = (args: string[], pattern: RegExp) => {
      const r = run(args);
      assert.equal(r.code, 2, `exit ${r.code}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    };
    const write = (name: string, data: string | Buffer) => {
      const p = path.join(out, name);
      fs.writeFileSync(p, data);
      return p;
    };
    const plain = () => fs.readFileSync(path.join(out, 'beta.jsonl'), 'utf8');

    it('a truncated gzip shard', () => {
      const gz = fs.readFileSync(path.join(out, 'alpha.jsonl.gz'));
      bad(['join', write('cut.jsonl.gz', gz.subarray(0, Math.floor(gz.length / 2))), '--quiet'], /truncated or corrupt gzip/);
    });
    it('a plain shard cut at a line end (no end line)', () => {
      const lines = plain().split('\n');
      bad(['join', write('cut.jsonl', lines.slice(0, 5).join('\n') + '\n'), '--quiet'], /truncated \(it ends after 4 fingerprints without its end line\)/);
    });
    it('a corrupt line', () => {
      const lines = plain().split('\n');
      lines[3] = lines[3].replace(/"simhash":"[0-9a-f]+"/, '"simhash":"xyz"');
      bad(['join', write('corrupt.jsonl', lines.join('\n')), '--quiet'], /line 4: simhash must be 16 hex digits/);
      bad(['join', write('garbage.jsonl', Buffer.from([0x00, 0xff, 0xfe, 0x41, 0x0a])), '--quiet'], /not (a NearDup fingerprint shard|UTF-8)/);
    });
    it('another format version', () => {
      bad(['join', write('v9.jsonl', plain().replace('"format":1', '"format":9')), '--quiet'], /shard format 9, this NearDup reads format 1/);
    });
    it('shards made with different settings, and two shards of one name', () => {
      const r = run(['fingerprints', path.join(tree, 'alpha'), '--out', path.join(out, 'alpha-norm.jsonl'), '--normalize-identifiers', '--name', 'alpha2', '--quiet']);
      assert.equal(r.code, 0, r.stderr);
      bad(['join', path.join(out, 'beta.jsonl'), path.join(out, 'alpha-norm.jsonl'), '--quiet'], /made with other settings than .*beta\.jsonl \(normalizeIdentifiers: false ≠ true\); export both with the same settings/);
      bad(['join', path.join(out, 'beta.jsonl'), path.join(out, 'beta.jsonl'), '--quiet'], /are both named "beta"; export one again with --name/);
    });
    it('an unreadable or missing file', () => {
      bad(['join', path.join(out, 'no-such.jsonl'), '--quiet'], /no-such\.jsonl: cannot read it \(ENOENT\)/);
      bad(['join', out, '--quiet'], /cannot read it \(EISDIR\)/);
    });
    it('fingerprints refuses --weighting tfidf, a bad name and an output it cannot write', () => {
      bad(['fingerprints', path.join(tree, 'alpha'), '--out', path.join(out, 'x.jsonl'), '--weighting', 'tfidf'], /tfidf .* cannot be joined/);
      bad(['fingerprints', path.join(tree, 'alpha'), '--out', path.join(out, 'x.jsonl'), '--name', 'a:b'], /holds ':'/);
      bad(['fingerprints', path.join(tree, 'alpha'), '--out', path.join(out, 'no-dir', 'x.jsonl'), '--quiet'], /cannot write .*x\.jsonl/);
      assert.ok(!fs.existsSync(path.join(out, 'x.jsonl')));
    });
  });
});
