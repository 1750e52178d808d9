import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import * as OpenCC from 'opencc-js';
import { DEFAULT_ENGINE_SETTINGS } from '../../../src/node/settings/engineSettings';
import { scanDirectory } from '../../../src/node/scan/scan';
import { formatJson } from '../../../src/cli/formatJson';
import { formatSarif } from '../../../src/cli/formatSarif';
import { proseSections } from '../../../src/core/sections/proseSections';
import { chineseText, codeFile, codeFunction, editLines, mulberry32, proseText } from '../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const WORKER = path.join(__dirname, '..', '..', '..', 'dist', 'worker.js');

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface JsonReport {
  version: number;
  root: string;
  stats: { files: number; sections: number; bytes: number; elapsedMs: number };
  pairs: Array<{ kind: string; a: { path: string; startLine?: number; endLine?: number }; b: { path: string; startLine?: number; endLine?: number }; distance: number; similarity: number; located?: true }>;
  groups: Array<{ kind: string; members: string[]; maxDistance: number }>;
}

describe('neardup scan (CLI)', function () {
  this.timeout(60000);
  let dir: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm test builds it first)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-cli-'));
    const rnd = mulberry32(2024);
    const w = (rel: string, text: string | Buffer) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    const code = codeFile(rnd, 8);
    w('src/alpha.ts', code);
    w('src/alpha copy #1.ts', editLines(code, mulberry32(5), 0.03));
    w('src/unrelated.ts', codeFile(rnd, 8));
    const shared = codeFunction(rnd, 30);
    w('src/host1.ts', codeFile(rnd, 5) + '\n' + shared);
    w('src/host2.ts', shared + '\n' + codeFile(rnd, 5));
    const doc = proseText(rnd, 8);
    w('docs/guide.md', doc);
    w('docs/guide-old.md', editLines(doc, mulberry32(6), 0.05));
    const zh = chineseText(rnd, 6);
    w('docs/zh/说明.md', zh);
    w('docs/zh/说明-副本.md', zh.replace('文本', '文字'));
    w('bin/blob.bin', Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    w('ignored/copy.ts', code);
    w('.gitignore', 'ignored/\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the JSON contract with the planted file pairs, section pairs and groups', () => {
    const r = run(['scan', dir, '--format', 'json', '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as JsonReport;
    assert.equal(j.version, 1);
    assert.equal(j.root, dir);
    assert.deepEqual(Object.keys(j.stats).sort(), ['bytes', 'elapsedMs', 'files', 'sections']);
    assert.equal(j.stats.files, 10, 'nine planted text files and .gitignore; the binary and the ignored copy are skipped');
    const filePairs = j.pairs.filter((p) => p.kind === 'file').map((p) => `${p.a.path} ~ ${p.b.path}`).sort();
    assert.deepEqual(filePairs, ['docs/guide-old.md ~ docs/guide.md', 'docs/zh/说明-副本.md ~ docs/zh/说明.md', 'src/alpha copy #1.ts ~ src/alpha.ts']);
    for (const p of j.pairs) {
      assert.equal(p.similarity, 1 - p.distance / 64);
      assert.ok(p.distance <= (p.kind === 'file' ? 12 : 10));
    }
    const section = j.pairs.find((p) => p.kind === 'section' && p.a.path === 'src/host1.ts' && p.b.path === 'src/host2.ts');
    assert.ok(section, 'the function shared by host1 and host2 is a section pair');
    assert.ok(section.a.startLine! > 1 && section.a.endLine! > section.a.startLine!);
    assert.equal(section.b.startLine, 1);
    assert.ok(j.groups.some((g) => g.kind === 'file' && g.members.includes('src/alpha.ts')));
    assert.ok(!j.pairs.some((p) => p.a.path.startsWith('ignored/') || p.b.path.startsWith('ignored/')), '.gitignore honoured');
  });

  it('a report written into a file (or /dev/null) is the one written into a pipe, byte for byte (JSON in pieces, text, SARIF)', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-out-')), 'report');
    // (the time taken: JSON's elapsedMs, the text's first line, SARIF's invocation times)
    const noTime = (s: string) => s.replace(/"elapsedMs": \d+/, '"elapsedMs": 0').replace(/ in [\d.]+ s /, ' in 0 s ').replace(/"(startTimeUtc|endTimeUtc)": "[^"]*"/g, '"$1": ""');
    try {
      for (const format of ['json', 'text', 'sarif']) {
        const piped = run(['scan', dir, '--format', format, '--quiet']);
        assert.equal(piped.code, 0, piped.stderr);
        const fd = fs.openSync(out, 'w');
        const r = spawnSync(process.execPath, [CLI, 'scan', dir, '--format', format, '--quiet'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60000 });
        fs.closeSync(fd);
        assert.equal(r.status, 0, r.stderr);
        const written = fs.readFileSync(out, 'utf8');
        assert.ok(written.length > 100, format);
        assert.equal(noTime(written), noTime(piped.stdout), format);
      }
      if (fs.existsSync('/dev/null')) {
        const fd = fs.openSync('/dev/null', 'w');
        const r = spawnSync(process.execPath, [CLI, 'scan', dir, '--format', 'json', '--quiet'], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60000 });
        fs.closeSync(fd);
        assert.equal(r.status, 0, r.stderr);
      }
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });

  it('reports skipped files on stderr and still completes', () => {
    const r = run(['scan', dir, '--format', 'json', '--no-progress']);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /skipped bin\/blob\.bin: binary/);
  });

  it('--no-sections, --include and --exclude change what is compared', () => {
    const noSections = JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--no-sections']).stdout) as JsonReport;
    assert.equal(noSections.stats.sections, 0);
    // SimHash compares whole files only; the copies located inside files are still reported.
    assert.ok(noSections.pairs.some((p) => p.kind === 'file'));
    assert.ok(noSections.pairs.every((p) => p.kind === 'file' || p.located), JSON.stringify(noSections.pairs));
    const onlyDocs = JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--include', 'docs/**']).stdout) as JsonReport;
    assert.ok(onlyDocs.pairs.length >= 2 && onlyDocs.pairs.every((p) => p.a.path.startsWith('docs/')));
    const noZh = JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--exclude', 'docs/zh/**']).stdout) as JsonReport;
    assert.ok(!noZh.pairs.some((p) => p.a.path.includes('zh/')));
    assert.ok(noZh.pairs.some((p) => p.a.path === 'docs/guide-old.md'));
  });

  it('--weighting tf and tfidf (two passes) still find the planted file pairs', () => {
    for (const w of ['tf', 'tfidf']) {
      const j = JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--weighting', w]).stdout) as JsonReport;
      const files = j.pairs.filter((p) => p.kind === 'file').map((p) => p.a.path).sort();
      assert.deepEqual(files, ['docs/guide-old.md', 'docs/zh/说明-副本.md', 'src/alpha copy #1.ts'], w);
    }
  });

  it('--max-distance 0 with --min-similarity 0 keeps only identical fingerprints', () => {
    const j = JSON.parse(run(['scan', dir, '--format', 'json', '-q', '--max-distance', '0', '--min-similarity', '0', '--no-sections', '--no-locate']).stdout) as JsonReport;
    assert.ok(j.pairs.every((p) => p.distance === 0));
  });

  it('SARIF output validates against the SARIF 2.1.0 schema and locates both twins', () => {
    const r = run(['scan', dir, '--format', 'sarif', '-q']);
    assert.equal(r.code, 0, r.stderr);
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    const log = JSON.parse(r.stdout) as { runs: Array<{ results: unknown[] }> };
    const valid: boolean = validate(log);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 3)));
    const results = log.runs[0].results as Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
    assert.ok(results.length >= 4);
    const uris = results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri);
    assert.ok(uris.includes('src/alpha%20copy%20%231.ts'), 'spaces and # are percent-encoded');
  });

  it('a report cut at the pair cap says so: JSON `truncated`, a SARIF tool notification (still schema-valid); a complete one carries neither', async () => {
    const result = await scanDirectory({ root: dir, settings: DEFAULT_ENGINE_SETTINGS, workers: 1, workerScript: WORKER, quiet: true });
    assert.equal(result.truncated, undefined);
    assert.ok(!('truncated' in JSON.parse(formatJson(result, dir))));
    assert.ok(!('invocations' in JSON.parse(formatSarif(result, '0.0.0')).runs[0]));
    // buildReport's cap itself is tested in badInput.test.ts (and by a CLI run of 250,000 pairs).
    const cut = { ...result, truncated: { files: true, sections: false } };
    assert.deepEqual(JSON.parse(formatJson(cut, dir)).truncated, { files: true, sections: false });
    const log = JSON.parse(formatSarif(cut, '0.0.0')) as { runs: Array<{ invocations: Array<{ toolExecutionNotifications: Array<{ level: string; message: { text: string } }> }> }> };
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    const note = log.runs[0].invocations[0].toolExecutionNotifications[0];
    assert.equal(note.level, 'warning');
    assert.match(note.message.text, /^too many near-duplicate file pairs; the report holds only some of them/);
  });

  it('text output lists groups with distances and line ranges', () => {
    const r = run(['scan', dir, '-q']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Near-duplicate files/);
    assert.match(r.stdout, /src\/alpha copy #1\.ts\s+distance \d+ \(\d+\.\d%\)|src\/alpha\.ts\s+distance \d+/);
    assert.match(r.stdout, /src\/host[12]\.ts:\d+-\d+/);
  });

  it('--fail-on-pairs sets the exit code for CI', () => {
    assert.equal(run(['scan', dir, '-q', '--fail-on-pairs', '1']).code, 1);
    assert.equal(run(['scan', dir, '-q', '--fail-on-pairs', '1000']).code, 0);
  });

  it('a missing folder or a bad option is a one-line error with exit code 2', () => {
    const missing = run(['scan', path.join(dir, 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^neardup: no such folder: .*nope\n$/);
    const bad = run(['scan', dir, '--max-distance', 'seven']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-distance takes a whole number from 0 to 20/);
    assert.equal(run(['scan', dir, '--format', 'xml']).code, 2);
  });

  it('the report does not depend on the number of workers, nor on which one segments Chinese text', async () => {
    // Several workers: one loads jieba and gets every file with Chinese text; the others send
    // such files back to it. Batches of a few files, so that every worker sees Chinese text.
    const tree = path.join(dir, 'workers');
    const rnd = mulberry32(77);
    const zh = chineseText(rnd, 5);
    const code = codeFile(rnd, 6);
    for (let i = 0; i < 40; i++) {
      const f = path.join(tree, `d${i % 4}`, `f${String(i).padStart(2, '0')}`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      if (i % 3 === 0) fs.writeFileSync(f + '.md', i % 2 ? zh : editLines(zh, mulberry32(i), 0.05));
      else if (i % 3 === 1) fs.writeFileSync(f + '.ts', editLines(code, mulberry32(i), 0.04));
      else fs.writeFileSync(f + '.md', proseText(mulberry32(100 + i), 4) + chineseText(mulberry32(200 + i), 1));
    }
    const report = async (workers: number) => {
      const r = await scanDirectory({ root: tree, settings: DEFAULT_ENGINE_SETTINGS, workers, batchSize: 2, workerScript: WORKER, quiet: true });
      return { pairs: r.pairs, groups: r.groups, files: r.stats.files, sections: r.stats.sections, bytes: r.stats.bytes };
    };
    const one = await report(1);
    assert.ok(one.pairs.some((p) => p.kind === 'file' && p.a.path.endsWith('.md')), 'Chinese twins found');
    assert.deepEqual(await report(2), one);
    assert.deepEqual(await report(3), one);
  });

  it('scanDirectory stops with the abort reason, and reports nothing afterwards', async () => {
    const tree = path.join(dir, 'abort');
    const rnd = mulberry32(8);
    for (let i = 0; i < 120; i++) {
      const f = path.join(tree, `d${i % 6}`, `f${i}.ts`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, codeFile(rnd, 2));
    }
    const ac = new AbortController();
    let over = false;
    let late = 0;
    await assert.rejects(
      scanDirectory({
        root: tree,
        settings: DEFAULT_ENGINE_SETTINGS,
        workers: 2,
        batchSize: 3,
        workerScript: WORKER,
        signal: ac.signal,
        onProgress: () => {
          if (over) late++;
          ac.abort(new Error('stop the scan'));
        },
        onSkip: () => {
          if (over) late++;
        },
      }),
      /stop the scan/,
    );
    over = true;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(late, 0);
  });

  it('a Traditional copy of a Simplified document is a near duplicate, sections at their own lines; not with --no-fold-variants', () => {
    const tree = path.join(dir, 'variants');
    fs.mkdirSync(tree, { recursive: true });
    const rnd = mulberry32(31);
    const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' });
    const headings = ['概述', '计算方法', '数据结构', '质量评价'];
    const parts = headings.map((h) => `# ${h}\n\n${chineseText(rnd, 2)}`);
    const simplified = parts.join('\n');
    const traditional = toTraditional(simplified);
    assert.notEqual(traditional, simplified);
    // A host file whose last section is the Traditional form of the document's second section.
    const host = `# 其他\n\n${chineseText(mulberry32(33), 3)}\n${toTraditional(parts[1])}`;
    fs.writeFileSync(path.join(tree, '简体.md'), simplified);
    fs.writeFileSync(path.join(tree, '繁體.md'), traditional);
    fs.writeFileSync(path.join(tree, '合集.md'), host);
    fs.writeFileSync(path.join(tree, 'other.md'), chineseText(mulberry32(32), 8));
    const scan = (...args: string[]) => {
      const r = run(['scan', tree, '--format', 'json', '-q', ...args]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as JsonReport).pairs;
    };
    const between = (x: string, y: string) => (p: JsonReport['pairs'][number]) => [p.a.path, p.b.path].sort().join(' ~ ') === [x, y].sort().join(' ~ ');
    const twins = between('简体.md', '繁體.md');
    const shared = between('简体.md', '合集.md');

    const on = scan();
    const file = on.find((p) => p.kind === 'file' && twins(p));
    assert.ok(file, 'the Traditional copy is found');
    assert.ok(file.distance <= 3, `distance ${file.distance}`);
    assert.ok(!on.some((p) => p.a.path === 'other.md' || p.b.path === 'other.md'));
    // The shared section, at the lines the unfolded texts give it (folding moves nothing).
    const section = on.find((p) => p.kind === 'section' && shared(p));
    assert.ok(section, 'the Traditional section in 合集.md is found');
    const rangeOf = (text: string, line: number) => proseSections(text).find((r) => r.startLine === line);
    for (const end of [section.a, section.b]) {
      const r = rangeOf(end.path === '合集.md' ? host : simplified, end.startLine!);
      assert.ok(r, `${end.path}: a section starts at line ${end.startLine}`);
      assert.equal(end.endLine, r.endLine);
    }
    const hostStart = host.split('\n').indexOf(`# ${toTraditional('计算方法')}`) + 1;
    assert.equal((section.a.path === '合集.md' ? section.a : section.b).startLine, hostStart);

    const off = scan('--no-fold-variants');
    assert.ok(!off.some(twins) && !off.some(shared), 'not found without folding');
    const loose = scan('--no-fold-variants', '--max-distance', '20', '--min-similarity', '0').find((p) => p.kind === 'file' && twins(p));
    assert.ok(!loose || loose.distance > file.distance + 5, `distance without folding: ${loose?.distance}`);
  });

  it('file names with terminal escape sequences are printed escaped', () => {
    const evil = path.join(dir, 'evil');
    fs.mkdirSync(evil, { recursive: true });
    const text = codeFile(mulberry32(77), 6);
    fs.writeFileSync(path.join(evil, 'a\u001b[31mred.ts'), text);
    fs.writeFileSync(path.join(evil, 'b.ts'), text);
    const r = run(['scan', evil, '-q']);
    assert.equal(r.code, 0);
    assert.ok(!r.stdout.includes('\u001b'), 'no raw ESC in the text report');
    assert.match(r.stdout, /a\\x1b\[31mred\.ts/);
    fs.rmSync(evil, { recursive: true, force: true });
  });
});
