import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chineseText, codeFile, codeFunction, editLines, mulberry32, proseText } from '../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface JsonReport {
  stats: { files: number };
  pairs: Array<{ kind: string; a: { path: string; startLine?: number }; b: { path: string; startLine?: number } }>;
}

describe('neardup scan: neardup-ignore markers (CLI)', function () {
  this.timeout(60000);
  let dir: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm test builds it first)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-ignore-'));
    const rnd = mulberry32(77);
    const w = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    const code = codeFile(rnd, 8);
    w('src/alpha.ts', code);
    w('src/alpha-copy.ts', editLines(code, mulberry32(5), 0.03));
    w('src/alpha-accepted.ts', '// Generated from alpha.ts on purpose.\n// neardup-ignore-file\n' + code);
    const shared = codeFunction(rnd, 30);
    w('src/host1.ts', codeFile(rnd, 5) + '\n' + shared);
    w('src/host2.ts', shared + '\n' + codeFile(rnd, 5));
    w('src/host3.ts', codeFile(rnd, 5) + '\n// neardup-ignore-start (accepted copy)\n' + shared + '// neardup-ignore-end\n' + codeFile(rnd, 4));
    const py = codeFunction(rnd, 30).replace(/^export function/, 'def').replace(/[{};]/g, '');
    w('py/one.py', py);
    w('py/two.py', '# neardup-ignore-file\n' + py);
    const zh = chineseText(rnd, 5);
    w('docs/zh/原文.md', `# 原文\n\n${zh}`);
    w('docs/zh/副本.md', `# 副本\n\n${zh}`);
    w('docs/zh/接受.md', `# 接受\n\n${proseText(rnd, 4)}\n<!-- neardup-ignore-start -->\n${zh}<!-- neardup-ignore-end -->\n\n${proseText(rnd, 4)}`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('ignored text neither pairs nor is matched against, while un-ignored copies still pair; marked files drop out quietly', () => {
    const r = run(['scan', dir, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as JsonReport;
    const pairs = j.pairs.map((p) => `${p.kind} ${p.a.path} ~ ${p.b.path}`);
    const involving = (name: string) => pairs.filter((p) => p.includes(name));
    assert.deepEqual(involving('alpha-accepted'), [], 'neardup-ignore-file removes the file\'s pairs');
    assert.deepEqual(involving('py/two.py'), [], 'the Python file marked with # neardup-ignore-file');
    assert.deepEqual(involving('host3'), [], 'the region between start and end markers');
    assert.deepEqual(involving('接受'), [], 'the Chinese paragraphs between HTML-comment markers');
    assert.ok(pairs.includes('file src/alpha-copy.ts ~ src/alpha.ts'), pairs.join('\n'));
    assert.ok(pairs.some((p) => p.startsWith('section src/host1.ts ~ src/host2.ts')), 'the un-ignored copies of the shared function still pair');
    assert.ok(pairs.includes('file docs/zh/副本.md ~ docs/zh/原文.md'), pairs.join('\n'));
    assert.equal(j.stats.files, 9, 'the two files marked whole are not counted as fingerprinted');
    assert.ok(!/alpha-accepted|two\.py/.test(r.stderr), `no skip notice for a file marked whole: ${r.stderr}`);
  });

  it('the text report counts the files marked whole as skipped', () => {
    const r = run(['scan', dir, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(2 skipped\)/);
  });
});
