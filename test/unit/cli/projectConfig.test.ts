/**
 * Issue 15, one project configuration: `.neardup.json` (JSON with comments) read and validated by
 * node/settings/projectConfig.ts, its JSON Schema kept in step with the settings, and the CLI
 * reading it from `<dir>` (flags win over it; `--config FILE`, `--no-config`; a broken file is one
 * line naming the file, line and key, exit code 2).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import { PROJECT_KEYS, PROJECT_CONFIG_MAX_BYTES, parseProjectConfig, readFolderConfig, readProjectConfig, type ConfigProblem } from '../../../src/node/settings/projectConfig';
import { SETTINGS_SPEC } from '../../../src/node/settings/settingsSchema';
import { codeFile, editLines, mulberry32 } from '../helpers/corpus';

const ROOT = path.join(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

function run(args: string[], cwd?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000, cwd });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Loc {
  path: string;
}
interface JsonReport {
  pairs: Array<{ kind: string; a: Loc; b: Loc }>;
  baseline?: { file: string; matched: number; new: number };
}
const pairName = (p: { kind: string; a: Loc; b: Loc }) => `${p.kind} ${[p.a.path, p.b.path].sort().join(' ~ ')}`;

/** The one problem of an invalid text (fails when it is valid or has several). */
function problemOf(text: string): ConfigProblem {
  const r = parseProjectConfig(text, '/p/.neardup.json');
  assert.equal(r.status, 'invalid', `accepted: ${text}`);
  if (r.status !== 'invalid') throw new Error('unreachable');
  assert.equal(r.problems.length, 1, JSON.stringify(r.problems));
  return r.problems[0];
}

describe('.neardup.json: parsing and validation (node/settings/projectConfig.ts)', () => {
  it('reads JSON with comments and trailing commas; every key of the settings, the baseline resolved against the file', () => {
    const text = `// the team's NearDup settings
{
  "$schema": "./node_modules/neardup/schemas/neardup.schema.json",
  /* thresholds */
  "maxDistance": 8,
  "sectionMaxDistance": 6,
  "minSimilarity": 0.5,
  "minTokens": 30,
  "include": ["src/**", " docs/** "],
  "exclude": ["**/generated/**"],
  "maxFileSizeKB": 512,
  "sections.enabled": false,
  "code.normalizeIdentifiers": true,
  "cjk.segmenter": "bigram",
  "cjk.foldVariants": false,
  "weighting": "tf",
  "locate": false,
  "baseline": "ci/neardup-baseline.json", // relative to this file
}
`;
    const r = parseProjectConfig(text, '/repo/.neardup.json');
    assert.equal(r.status, 'ok', JSON.stringify(r));
    if (r.status !== 'ok') return;
    assert.deepEqual(r.config.settings, {
      maxDistance: 8,
      sectionMaxDistance: 6,
      minSimilarity: 0.5,
      minTokens: 30,
      include: ['src/**', 'docs/**'],
      exclude: ['**/generated/**'],
      maxFileSizeKB: 512,
      sectionsEnabled: false,
      normalizeIdentifiers: true,
      cjkSegmenter: 'bigram',
      foldVariants: false,
      weighting: 'tf',
      locate: false,
    });
    assert.equal(r.config.baseline, path.resolve('/repo/ci/neardup-baseline.json'));
    // Every settable key is in the text above (so this test covers the whole list).
    for (const key of PROJECT_KEYS) assert.ok(text.includes(`"${key}"`), key);
  });

  it('an empty file, comments only, a BOM and an empty object set nothing', () => {
    for (const text of ['', '  \n', '// nothing yet\n', '\ufeff{}', '{ /* later */ }']) {
      const r = parseProjectConfig(text, '/p/.neardup.json');
      assert.equal(r.status, 'ok', text);
      if (r.status === 'ok') assert.deepEqual(r.config.settings, {});
    }
  });

  it('each kind of problem names the line, column and key', () => {
    const cases: Array<[string, Partial<ConfigProblem>]> = [
      ['{\n  "maxDistance": 3\n  "minTokens": 9\n}', { kind: 'syntax', line: 3, column: 3, expected: 'CommaExpected' }],
      ['{\n  "maxDistance": 3,\n  "maxDistanse": 4\n}', { kind: 'unknownKey', line: 3, column: 3, key: 'maxDistanse' }],
      ['{\n  "maxDistance": "3"\n}', { kind: 'type', line: 2, column: 18, key: 'maxDistance', given: '"3"' }],
      ['{"minTokens": 12.5}', { kind: 'integer', line: 1, column: 15, key: 'minTokens', given: '12.5' }],
      ['{\n\n  "maxDistance": 21}', { kind: 'range', line: 3, column: 18, key: 'maxDistance', given: '21', expected: '0 to 20' }],
      ['{"minSimilarity": -0.1}', { kind: 'range', key: 'minSimilarity', expected: '0 to 1' }],
      ['{"cjk.segmenter": "hmm"}', { kind: 'enum', key: 'cjk.segmenter', expected: '"jieba", "bigram"' }],
      ['{"weighting": "tfidf"}', { kind: 'enum', key: 'weighting' }],
      ['{"sections.enabled": "yes"}', { kind: 'type', key: 'sections.enabled' }],
      ['{"include": "src/**"}', { kind: 'type', key: 'include' }],
      ['{"exclude": ["a/**",\n   ""]}', { kind: 'glob', line: 2, column: 4, key: 'exclude' }],
      ['{"baseline": 7}', { kind: 'type', key: 'baseline' }],
      ['{"maxDistance": 3, "maxDistance": 4}', { kind: 'duplicateKey', key: 'maxDistance', column: 20 }],
      ['[1, 2]', { kind: 'notObject', given: 'array' }],
      ['{"diagnostics.severity": "hint"}', { kind: 'unknownKey', key: 'diagnostics.severity' }],
    ];
    for (const [text, want] of cases) {
      const p = problemOf(text);
      for (const [k, v] of Object.entries(want)) assert.deepEqual(p[k as keyof ConfigProblem], v, `${text}: ${k} of ${JSON.stringify(p)}`);
      assert.equal(p.file, '/p/.neardup.json');
    }
  });

  it('several problems are all reported (the file is not used at all)', () => {
    const r = parseProjectConfig('{"maxDistance": 99, "minTokens": 10, "nope": 1}', '/p/.neardup.json');
    assert.equal(r.status, 'invalid');
    if (r.status === 'invalid') assert.deepEqual(r.problems.map((p) => p.kind), ['range', 'unknownKey']);
  });

  it('reading: absent, a folder, an oversized file, a FIFO (no hang) — problems, never a throw', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-config-'));
    try {
      assert.deepEqual(readFolderConfig(tmp), { status: 'absent' });
      fs.mkdirSync(path.join(tmp, '.neardup.json'));
      const dir = readFolderConfig(tmp);
      assert.equal(dir.status, 'invalid');
      fs.rmdirSync(path.join(tmp, '.neardup.json'));
      fs.writeFileSync(path.join(tmp, '.neardup.json'), `{"minTokens": 10}${' '.repeat(PROJECT_CONFIG_MAX_BYTES)}`);
      const big = readFolderConfig(tmp);
      assert.equal(big.status, 'invalid');
      if (big.status === 'invalid') assert.equal(big.problems[0].kind, 'tooLarge');
      fs.writeFileSync(path.join(tmp, '.neardup.json'), '{"minTokens": 10}');
      const ok = readFolderConfig(tmp);
      assert.equal(ok.status, 'ok');
      if (ok.status === 'ok') assert.equal(ok.config.file, path.join(tmp, '.neardup.json'));
      if (process.platform !== 'win32') {
        const fifo = path.join(tmp, 'fifo.json');
        const mk = spawnSync('mkfifo', [fifo]);
        if (mk.status === 0) assert.equal(readProjectConfig(fifo).status, 'invalid');
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('.neardup.json: the JSON Schema contributed to VS Code', () => {
  const schemaFile = path.join(ROOT, 'schemas', 'neardup.schema.json');
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

  it('package.json contributes it for .neardup.json (jsonValidation, as JSON with comments) and the .vsix ships it', () => {
    const entry = pkg.contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === '.neardup.json');
    assert.ok(entry);
    assert.ok(fs.existsSync(path.join(ROOT, entry.url)), entry.url);
    assert.ok(pkg.contributes.languages.some((l: { id: string; filenames?: string[] }) => l.id === 'jsonc' && l.filenames?.includes('.neardup.json')));
    assert.match(fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!schemas\/\*\*$/m);
  });

  it('names exactly the keys the validator takes, with the settings’ types, bounds, enums and defaults', () => {
    assert.deepEqual(Object.keys(schema.properties).sort(), [...PROJECT_KEYS].sort());
    assert.equal(schema.additionalProperties, false);
    for (const spec of Object.values(SETTINGS_SPEC)) {
      if (!PROJECT_KEYS.includes(spec.key)) continue; // a personal setting (severity, editor marks, CodeLens)
      const s = schema.properties[spec.key];
      const setting = pkg.contributes.configuration.properties[`neardup.${spec.key}`];
      assert.ok(s && setting, spec.key);
      assert.equal(s.type, setting.type, spec.key);
      assert.deepEqual(s.default, setting.default, spec.key);
      if (spec.kind === 'integer' || spec.kind === 'number') {
        assert.equal(s.type, spec.kind, spec.key);
        assert.equal(s.minimum, spec.min, spec.key);
        assert.equal(s.maximum, spec.max, spec.key);
      }
      if (spec.kind === 'enum') assert.deepEqual(s.enum, spec.values, spec.key);
      if (spec.kind === 'globs') assert.equal(s.items.type, 'string');
      assert.ok(typeof s.markdownDescription === 'string' && s.markdownDescription.length > 20, spec.key);
    }
  });

  it('agrees with the validator on accepted and rejected files', () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    const texts = [
      '{"maxDistance": 0, "minSimilarity": 1, "cjk.segmenter": "bigram", "include": ["a/**"], "baseline": "b.json"}',
      '{"maxDistance": 21}',
      '{"minTokens": 4}',
      '{"minTokens": 12.5}',
      '{"weighting": "tfidf"}',
      '{"sections.enabled": 1}',
      '{"exclude": [""]}',
      '{"maxDistanse": 3}',
      '{"baseline": ""}',
      '{"maxFileSizeKB": 1048577}',
    ];
    for (const text of texts) {
      const ours = parseProjectConfig(text, '/p/.neardup.json').status === 'ok';
      assert.equal(validate(JSON.parse(text)), ours, text);
    }
  });
});

describe('neardup scan reads <dir>/.neardup.json (CLI)', function () {
  this.timeout(120000);
  let tmp: string;
  let dir: string;
  const config = (text: string) => fs.writeFileSync(path.join(dir, '.neardup.json'), text);
  const pairsOf = (...args: string[]) => {
    const r = run(['scan', dir, '--format', 'json', '-q', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as JsonReport).pairs.map(pairName).sort();
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-projcfg-'));
    dir = path.join(tmp, 'tree');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
    const rnd = mulberry32(1507);
    const code = codeFile(rnd, 6);
    fs.writeFileSync(path.join(dir, 'src/alpha.ts'), code);
    fs.writeFileSync(path.join(dir, 'src/beta.ts'), editLines(code, mulberry32(4), 0.03));
    const other = codeFile(rnd, 6);
    fs.writeFileSync(path.join(dir, 'lib/one.ts'), other);
    fs.writeFileSync(path.join(dir, 'lib/two.ts'), other);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  afterEach(() => fs.rmSync(path.join(dir, '.neardup.json'), { force: true }));

  it('its keys apply; a flag given on the command line wins over the file, key by key', () => {
    const all = pairsOf('--no-sections');
    assert.deepEqual(all, ['file lib/one.ts ~ lib/two.ts', 'file src/alpha.ts ~ src/beta.ts']);
    config('{\n  // lib is vendored\n  "exclude": ["lib/**"],\n  "sections.enabled": false,\n}\n');
    assert.deepEqual(pairsOf(), ['file src/alpha.ts ~ src/beta.ts'], 'exclude and sections.enabled from the file');
    assert.deepEqual(pairsOf('--exclude', 'src/**'), ['file lib/one.ts ~ lib/two.ts'], '--exclude replaces the file’s list; sections stay off');
    // (Copies located inside files are found under any minTokens: "locate": false leaves them out.)
    config('{"minTokens": 100000, "locate": false}');
    assert.deepEqual(pairsOf(), [], 'minTokens and locate from the file');
    assert.ok(pairsOf('--min-tokens', '50').length >= 2, '--min-tokens wins');
    assert.ok(pairsOf('--locate').includes('file lib/one.ts ~ lib/two.ts'), '--locate wins: the identical files located');
    config('{"minTokens": 100000}');
    assert.ok(pairsOf().includes('file lib/one.ts ~ lib/two.ts'), 'locating is the default');
    config('{"maxDistance": 0, "minSimilarity": 1, "sections.enabled": false, "locate": false}');
    assert.deepEqual(pairsOf(), ['file lib/one.ts ~ lib/two.ts'], 'only the identical copy at distance 0 and similarity 1');
    assert.deepEqual(pairsOf('--max-distance', '12', '--min-similarity', '0.75'), all, 'the thresholds from the flags');
  });

  it('--no-config skips it; --config FILE reads another file instead (and must exist)', () => {
    config('{"minTokens": 100000}');
    assert.ok(pairsOf('--no-config').length >= 2);
    const other = path.join(tmp, 'other.jsonc');
    fs.writeFileSync(other, '{ "exclude": ["src/**"], "sections.enabled": false }');
    assert.deepEqual(pairsOf('--config', other), ['file lib/one.ts ~ lib/two.ts']);
    // Relative to the working directory.
    const r = run(['scan', dir, '--format', 'json', '-q', '--config', 'other.jsonc'], tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as JsonReport).pairs.map(pairName), ['file lib/one.ts ~ lib/two.ts']);
    const missing = run(['scan', dir, '-q', '--config', path.join(tmp, 'nope.json')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.json: no such configuration file/);
  });

  it('a broken file: one line on stderr naming the file, line and key; exit code 2; nothing on stdout', () => {
    const file = path.join(dir, '.neardup.json');
    const cases: Array<[string, RegExp]> = [
      ['{\n  "maxDistance": 3\n  "minTokens": 9\n}', /:3:3: is not valid JSON \(CommaExpected\)/],
      ['{\n  "minTokens": 10,\n  "maxDistanse": 4\n}', /:3:3: "maxDistanse" is not a NearDup setting/],
      ['{\n  "sections.enabled": "no"\n}', /:2:23: "sections.enabled" is "no", expected true or false/],
      ['{\n\n\n  "maxDistance": 64\n}', /:4:18: "maxDistance" is 64, out of bounds \(0 to 20\)/],
      ['{"cjk.segmenter": "pkuseg", "minTokens": 1}', /:1:19: "cjk.segmenter" is "pkuseg", not one of "jieba", "bigram" \(and 1 more problem\)/],
    ];
    for (const [text, want] of cases) {
      config(text);
      const r = run(['scan', dir, '--format', 'json']);
      assert.equal(r.code, 2, text);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].startsWith(`neardup: ${file}:`), lines[0]);
      assert.match(lines[0], want);
      assert.match(lines[0], /fix it, or run with --no-config\.$/);
    }
    // The flags do not rescue a broken file (the file is wrong, not overridden), --no-config does.
    assert.equal(run(['scan', dir, '-q', '--max-distance', '3']).code, 2);
    assert.equal(run(['scan', dir, '-q', '--no-config']).code, 0);
  });

  it('a hostile key or value is printed escaped (no terminal control characters reach stderr)', () => {
    config('{"\\u001b]0;pwned\\u0007\\u001b[2J": 1}');
    const r = run(['scan', dir, '-q']);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /[\u0000-\u0009\u000b-\u001f]/);
    assert.match(r.stderr, /\\x1b\]0;pwned/);
  });

  it('"baseline" stands for --baseline (relative to the file); --write-baseline then writes where it is asked, not there', () => {
    const ci = path.join(dir, 'ci');
    fs.mkdirSync(ci, { recursive: true });
    const written = run(['scan', dir, '-q', '--write-baseline', path.join(ci, 'base.json')]);
    assert.equal(written.code, 0, written.stderr);
    config('{ "baseline": "ci/base.json" }');
    const before = fs.readFileSync(path.join(ci, 'base.json'), 'utf8');
    // --write-baseline elsewhere does not read the file's baseline (nor write it).
    const elsewhere = path.join(tmp, 'elsewhere.json');
    assert.equal(run(['scan', dir, '-q', '--write-baseline', elsewhere]).code, 0);
    assert.ok(fs.existsSync(elsewhere));
    const r = run(['scan', dir, '--format', 'json', '-q', '--fail-on-pairs', '1']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as JsonReport;
    assert.deepEqual(j.pairs, []);
    assert.ok(j.baseline && j.baseline.matched >= 2 && j.baseline.new === 0, JSON.stringify(j.baseline));
    fs.copyFileSync(path.join(dir, 'src/alpha.ts'), path.join(dir, 'src/gamma.ts'));
    try {
      const added = run(['scan', dir, '--format', 'json', '-q', '--fail-on-pairs', '1']);
      assert.equal(added.code, 1, added.stderr);
      const names = (JSON.parse(added.stdout) as JsonReport).pairs.map(pairName);
      assert.ok(names.length > 0 && names.every((n) => n.includes('src/gamma.ts')), names.join('\n'));
      // A baseline named on the command line wins over the file's.
      const empty = path.join(tmp, 'empty.json');
      fs.rmSync(path.join(dir, 'src/gamma.ts'));
      assert.equal(run(['scan', dir, '-q', '--write-baseline', empty, '--no-config']).code, 0);
      fs.copyFileSync(path.join(dir, 'src/alpha.ts'), path.join(dir, 'src/gamma.ts'));
      const own = run(['scan', dir, '--format', 'json', '-q', '--baseline', empty]);
      assert.equal((JSON.parse(own.stdout) as JsonReport).baseline?.file, empty);
    } finally {
      fs.rmSync(path.join(dir, 'src/gamma.ts'), { force: true });
    }
    assert.equal(fs.readFileSync(path.join(ci, 'base.json'), 'utf8'), before, 'the config’s baseline is never written unasked');
    // A baseline the file names that does not exist: exit code 2, naming it.
    config('{ "baseline": "ci/missing.json" }');
    const missing = run(['scan', dir, '-q']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.json/);
  });
});
