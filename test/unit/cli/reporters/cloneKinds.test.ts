// The clone kind of every pair in the CLI's reports (JSON, SARIF, text, Markdown) and
// --fail-on-kind's exit codes, on a tree of a function and its exact, renamed and edited copies.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../helpers/cli';
import { countKinds, describeKinds, failureOf, groupKinds, parseKinds } from '../../../../src/cli/reporters/cloneKinds';
import type { ReportPair } from '../../../../src/core/report/report';
import { EDITED, EXACT, ORIGINAL, RENAMED } from '../../helpers/cloneSamples';

interface Pair {
  a: { path: string };
  b: { path: string };
  clone: string;
}

describe('clone kinds in the CLI (reports and --fail-on-kind)', function () {
  this.timeout(60000);
  let dir: string;
  let twoDir: string;
  // The plain report's clone kinds (--no-locate): each pair's own, not that of the regions located in it.
  const scan = (root: string, ...args: string[]) => runCli(['scan', root, '-q', '--no-config', '--no-sections', '--no-locate', '--normalize-identifiers', ...args]);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-kinds-'));
    for (const [name, text] of Object.entries({ 'a.ts': ORIGINAL, 'b.ts': EXACT, 'c.ts': RENAMED, 'd.ts': EDITED })) fs.writeFileSync(path.join(dir, name), text);
    twoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'neardup-kinds-two-'));
    fs.writeFileSync(path.join(twoDir, 'a.ts'), ORIGINAL);
    fs.writeFileSync(path.join(twoDir, 'c.ts'), RENAMED);
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(twoDir, { recursive: true, force: true });
  });

  it('JSON: every pair has "clone": exact, renamed or edited', () => {
    const r = scan(dir, '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const kinds = Object.fromEntries((JSON.parse(r.stdout).pairs as Pair[]).map((p) => [`${p.a.path}~${p.b.path}`, p.clone]));
    assert.equal(kinds['a.ts~b.ts'], 'exact');
    assert.equal(kinds['a.ts~c.ts'], 'renamed');
    assert.equal(kinds['b.ts~c.ts'], 'renamed');
    assert.equal(kinds['c.ts~d.ts'], 'edited');
    assert.equal(kinds['a.ts~d.ts'], 'edited');
  });

  it('SARIF: a pair says its kind (property and message); a group counts its pairs by kind', () => {
    const one = JSON.parse(scan(twoDir, '--format', 'sarif').stdout).runs[0].results;
    assert.equal(one.length, 1);
    assert.equal(one[0].properties.clone, 'renamed');
    assert.match(one[0].message.text, /A renamed copy\.$/);
    const group = JSON.parse(scan(dir, '--format', 'sarif').stdout).runs[0].results;
    assert.equal(group.length, 1, 'four copies: one result');
    assert.deepEqual(group[0].properties.clones, { exact: 1, renamed: 2, edited: 3 });
    assert.equal(group[0].properties.clone, undefined, 'no single kind');
    assert.match(group[0].message.text, /Copies: 1 exact, 2 renamed, 3 edited\.$/);
  });

  it('text and Markdown: the kind of each member and of each group', () => {
    const text = scan(dir).stdout;
    assert.match(text, /b\.ts {2}distance 0 \(100\.0%\), exact copy/);
    assert.match(text, /c\.ts {2}distance 0 \(100\.0%\), renamed copy/);
    assert.match(text, /d\.ts {2}distance \d+ \(\d+\.\d%\), edited copy/);
    const md = scan(dir, '--format', 'markdown').stdout;
    assert.match(md, /\*\*6\*\* near-duplicate pairs \(1 exact, 2 renamed, 3 edited\)\./);
    assert.match(md, /\| 1 exact, 2 renamed, 3 edited \|/);
  });

  it('Code Climate: a group of four copies is four issues, each naming the three others; fingerprints per copy, unchanged when a copy joins', () => {
    interface Issue {
      description: string;
      fingerprint: string;
      location: { path: string };
      other_locations: Array<{ path: string }>;
    }
    const issues = JSON.parse(scan(dir, '--format', 'codeclimate').stdout) as Issue[];
    assert.equal(issues.length, 4);
    for (const i of issues) {
      assert.deepEqual(i.other_locations.map((o) => o.path).sort(), ['a.ts', 'b.ts', 'c.ts', 'd.ts'].filter((p) => p !== i.location.path));
      assert.match(i.description, /^Near-duplicate file: also at .* \(4 copies, pairs 1 exact, 2 renamed, 3 edited; lowest similarity/);
    }
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, 4);
    fs.writeFileSync(path.join(dir, 'e.ts'), ORIGINAL);
    try {
      const more = JSON.parse(scan(dir, '--format', 'codeclimate').stdout) as Issue[];
      assert.equal(more.length, 5);
      const before = new Map(issues.map((i) => [i.location.path, i.fingerprint]));
      for (const i of more) if (before.has(i.location.path)) assert.equal(i.fingerprint, before.get(i.location.path), i.location.path);
    } finally {
      fs.rmSync(path.join(dir, 'e.ts'));
    }
  });

  it('--fail-on-kind: alone, fails on any pair of the kinds; with --fail-on-pairs, counts only them', () => {
    assert.equal(scan(dir, '--fail-on-kind', 'exact').code, 1);
    const renamed = scan(twoDir, '--fail-on-kind', 'exact');
    assert.equal(renamed.code, 0, 'a renamed pair is not exact');
    assert.equal(scan(twoDir, '--fail-on-kind', 'exact,renamed').code, 1);
    // Six pairs, two renamed: the threshold counts the renamed ones only.
    assert.equal(scan(dir, '--fail-on-kind', 'renamed', '--fail-on-pairs', '2').code, 1);
    const three = runCli(['scan', dir, '--no-config', '--no-sections', '--no-locate', '--normalize-identifiers', '--no-progress', '--fail-on-kind', 'renamed', '--fail-on-pairs', '3']);
    assert.equal(three.code, 0, three.stderr);
    const failing = runCli(['scan', dir, '--no-config', '--no-sections', '--no-locate', '--normalize-identifiers', '--no-progress', '--fail-on-kind', 'edited, renamed', '--fail-on-pairs', '5']);
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /5 near-duplicate pairs of kind edited, renamed \(fail threshold 5\)/);
    const bad = runCli(['scan', dir, '--fail-on-kind', 'verbatim']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--fail-on-kind takes exact, renamed or edited/);
  });

  it('the helpers: counts, words, group kinds, failures', () => {
    const pair = (a: string, b: string, clone: ReportPair['clone']): ReportPair => ({ kind: 'file', a: { path: a }, b: { path: b }, distance: 0, similarity: 1, clone });
    const pairs = [pair('a', 'b', 'exact'), pair('a', 'c', 'edited'), pair('x', 'y', 'edited')];
    assert.deepEqual(countKinds(pairs), { exact: 1, renamed: 0, edited: 2 });
    assert.equal(describeKinds(countKinds(pairs)), '1 exact, 2 edited');
    const groups = [
      { kind: 'file' as const, members: ['a', 'b', 'c'], maxDistance: 0 },
      { kind: 'file' as const, members: ['x', 'y'], maxDistance: 0 },
    ];
    assert.deepEqual(groupKinds(groups, pairs), [
      { exact: 1, renamed: 0, edited: 1 },
      { exact: 0, renamed: 0, edited: 1 },
    ]);
    // A file pair carrying its regions (the default, locating scan) and a located group's pairs count too.
    const withRegions: ReportPair = { ...pair('x', 'y', 'exact'), regions: [{ a: { startLine: 1, endLine: 9 }, b: { startLine: 1, endLine: 9 }, clone: 'exact', similarity: 1 }] };
    const sec = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine });
    const located: ReportPair = { kind: 'section', a: sec('p', 3, 9), b: sec('q', 5, 11), distance: 0, similarity: 1, clone: 'renamed', located: true };
    const locatedGroup = { kind: 'section' as const, members: ['p:3-9', 'q:5-11'], locations: [sec('p', 3, 9), sec('q', 5, 11)], maxDistance: 0, located: true as const };
    assert.deepEqual(groupKinds([groups[1], locatedGroup], [withRegions, located]), [
      { exact: 1, renamed: 0, edited: 0 },
      { exact: 0, renamed: 1, edited: 0 },
    ]);
    assert.deepEqual(parseKinds('edited,exact,edited'), { kinds: ['edited', 'exact'] });
    assert.ok('error' in parseKinds('exact,'));
    assert.equal(failureOf(pairs, {}), undefined);
    assert.equal(failureOf(pairs, { failOnKind: ['renamed'] }), undefined);
    assert.deepEqual(failureOf(pairs, { failOnKind: ['exact'] }), { counted: 1, threshold: 1, what: 'near-duplicate pairs of kind exact' });
    assert.equal(failureOf(pairs, { failOnKind: ['edited'], failOnPairs: 3 }), undefined);
    assert.deepEqual(failureOf(pairs, { failOnPairs: 3 }), { counted: 3, threshold: 3, what: 'near-duplicate pairs' });
  });
});
