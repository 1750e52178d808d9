/**
 * Issue 15, findings people can act on: N copies are one finding. `--format junit` (one test case
 * per group, failed with the finding; parsed by a strict XML parser; hostile names stay text) and
 * SARIF's one result per group (the copies as related locations, new when one of its pairs is).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { codeFile, editLines, mulberry32 } from '../helpers/corpus';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
// xml2js (with its strict sax parser) comes with @vscode/vsce, a devDependency.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseStringPromise } = require('xml2js') as { parseStringPromise: (xml: string, o?: object) => Promise<JunitDoc> };

interface JunitCase {
  $: { classname: string; name: string; file?: string };
  failure?: Array<{ _: string; $: { type: string; message: string } }>;
}
interface JunitDoc {
  testsuites: { $: { tests: string; failures: string }; testsuite: Array<{ $: { name: string; tests: string; failures: string }; testcase: JunitCase[] }> };
}

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('groups as one finding: --format junit and SARIF results per group (CLI)', function () {
  this.timeout(120000);
  let dir: string;
  const hostile = 'evil<&>"\'\u0007\u202e.ts';

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-junit-'));
    const a = codeFile(mulberry32(31), 6);
    // Three copies of one file (one group of 3, 3 pairs), two of another (one pair).
    fs.writeFileSync(path.join(dir, 'one.ts'), a);
    fs.writeFileSync(path.join(dir, 'two.ts'), editLines(a, mulberry32(2), 0.02));
    fs.writeFileSync(path.join(dir, hostile), editLines(a, mulberry32(3), 0.02));
    const b = codeFile(mulberry32(32), 6);
    fs.writeFileSync(path.join(dir, 'b1.ts'), b);
    fs.writeFileSync(path.join(dir, 'b2.ts'), b);
    fs.writeFileSync(path.join(dir, 'alone.ts'), codeFile(mulberry32(33), 6));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('junit: one test case per group, each failed once with every copy named; a strict parser reads it; names stay text', async () => {
    const r = run(['scan', dir, '--no-sections', '--format', 'junit', '-q']);
    assert.equal(r.code, 0, r.stderr);
    const doc = await parseStringPromise(r.stdout, { strict: true });
    assert.deepEqual([doc.testsuites.$.tests, doc.testsuites.$.failures], ['2', '2']);
    const [suite] = doc.testsuites.testsuite;
    assert.equal(suite.$.name, 'near-duplicate files');
    assert.equal(suite.testcase.length, 2);
    for (const c of suite.testcase) {
      assert.equal(c.$.classname, 'neardup.file');
      assert.equal(c.failure?.length, 1);
      assert.equal(c.failure![0].$.type, 'neardup/near-duplicate-file');
    }
    const three = suite.testcase.find((c) => /3 near-duplicate files/.test(c.failure![0].$.message))!;
    assert.ok(three, JSON.stringify(suite.testcase.map((c) => c.failure![0].$.message)));
    const named = three.failure![0]._;
    for (const f of ['one.ts', 'two.ts']) assert.ok(named.includes(f), named);
    // The hostile name: its markup characters as text, its controls shown as escapes.
    assert.ok(named.includes('evil<&>"\'\\x07\\u{202e}.ts'), named);
    assert.doesNotMatch(r.stdout, /[\u0007\u202e]/);
    const two = suite.testcase.find((c) => c !== three)!;
    assert.match(two.$.name, /^b1\.ts ~ b2\.ts$/);
  });

  it('junit: no near duplicate is one passing test case; with a baseline holding everything, "no new near duplicates"', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-junit-empty-'));
    try {
      fs.writeFileSync(path.join(empty, 'alone.ts'), codeFile(mulberry32(33), 6));
      const doc = await parseStringPromise(run(['scan', empty, '--format', 'junit', '-q']).stdout, { strict: true });
      assert.deepEqual([doc.testsuites.$.tests, doc.testsuites.$.failures], ['1', '0']);
      assert.equal(doc.testsuites.testsuite[0].testcase[0].failure, undefined);
      const base = path.join(empty, 'base.json');
      assert.equal(run(['scan', dir, '-q', '--write-baseline', base]).code, 0);
      const r = run(['scan', dir, '--format', 'junit', '-q', '--baseline', base, '--fail-on-pairs', '1']);
      assert.equal(r.code, 0, r.stderr);
      const d2 = await parseStringPromise(r.stdout, { strict: true });
      assert.match(d2.testsuites.testsuite[0].testcase[0].$.name, /^no new near duplicates/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  // The plain report's groups (--no-locate): a file pair carrying its located regions stays one result.
  it('SARIF: the group of three copies is one result with two related locations (3 pairs in it, --fail-on-pairs still counts pairs); a group of two is its pair; schema-valid', () => {
    const r = run(['scan', dir, '--no-sections', '--no-locate', '--format', 'sarif', '-q', '--fail-on-pairs', '4']);
    assert.equal(r.code, 1, 'four pairs reach --fail-on-pairs 4');
    const log = JSON.parse(r.stdout) as { runs: Array<{ results: unknown[] }> };
    const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
    addFormats(ajv);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
    type R = { message: { text: string }; relatedLocations: Array<{ id: number }>; properties: { copies?: number; pairs?: number }; partialFingerprints: Record<string, string> };
    const results = log.runs[0].results as R[];
    assert.equal(results.length, 2);
    const group = results.find((x) => x.properties.copies === 3)!;
    assert.ok(group, JSON.stringify(results.map((x) => x.message.text)));
    assert.equal(group.properties.pairs, 3);
    assert.deepEqual(group.relatedLocations.map((l) => l.id), [1, 2]);
    assert.match(group.message.text, /^3 near-duplicate files \(3 pairs, largest Hamming distance \d+, lowest similarity [\d.]+%\): this one and /);
    assert.match(group.partialFingerprints['neardupGroup/v1'], /^[0-9a-f]{32}$/);
    const pair = results.find((x) => x !== group)!;
    assert.equal(pair.relatedLocations.length, 1);
    assert.match(pair.partialFingerprints['neardupPair/v1'], /^[0-9a-f]{32}$/);
    // The group's fingerprint is stable across runs.
    const again = JSON.parse(run(['scan', dir, '--no-sections', '--no-locate', '--format', 'sarif', '-q']).stdout).runs[0].results as R[];
    assert.equal(again.find((x) => x.properties.copies === 3)!.partialFingerprints['neardupGroup/v1'], group.partialFingerprints['neardupGroup/v1']);
  });

  it('at the default (copies located): the file pairs carry one region each and still make one SARIF result and one Code Climate issue per copy of their group', () => {
    const j = JSON.parse(run(['scan', dir, '--no-sections', '--format', 'json', '-q']).stdout) as { pairs: Array<{ kind: string; regions?: unknown[] }> };
    assert.equal(j.pairs.length, 4);
    assert.ok(j.pairs.every((p) => p.kind === 'file' && p.regions?.length === 1), JSON.stringify(j.pairs));
    const results = JSON.parse(run(['scan', dir, '--no-sections', '--format', 'sarif', '-q']).stdout).runs[0].results as Array<{ properties: { copies?: number; pairs?: number } }>;
    assert.deepEqual(results.map((x) => x.properties.copies ?? 2).sort(), [2, 3]);
    assert.equal(results.find((x) => x.properties.copies === 3)!.properties.pairs, 3);
    const issues = JSON.parse(run(['scan', dir, '--no-sections', '--format', 'codeclimate', '-q']).stdout) as Array<{ other_locations?: unknown[] }>;
    assert.deepEqual(issues.map((x) => x.other_locations?.length ?? 0).sort(), [1, 1, 2, 2, 2]);
  });

  it('SARIF with a baseline: the group is "unchanged" while all its pairs are known, "new" once a fourth copy joins it', () => {
    const base = path.join(dir, '..', path.basename(dir) + '-base.json');
    try {
      assert.equal(run(['scan', dir, '--no-sections', '--no-locate', '-q', '--write-baseline', base]).code, 0);
      const states = () => {
        const r = run(['scan', dir, '--no-sections', '--no-locate', '--format', 'sarif', '-q', '--baseline', base]);
        const res = JSON.parse(r.stdout).runs[0].results as Array<{ baselineState: string; properties: { copies?: number } }>;
        return res.map((x) => `${x.properties.copies ?? 2}:${x.baselineState}`).sort();
      };
      assert.deepEqual(states(), ['2:unchanged', '3:unchanged']);
      fs.copyFileSync(path.join(dir, 'one.ts'), path.join(dir, 'four.ts'));
      assert.deepEqual(states(), ['2:unchanged', '4:new']);
    } finally {
      fs.rmSync(path.join(dir, 'four.ts'), { force: true });
      fs.rmSync(base, { force: true });
    }
  });
});
