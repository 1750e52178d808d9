import { strict as assert } from 'node:assert';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { buildReport, type Report, type ReportOptions } from '../../../../src/core/report/report';
import type { DocumentFingerprint } from '../../../../src/core/types';
import type { QueryMatch } from '../../../../src/node/engine/engineProtocol';
import { IncrementalReport } from '../../../../src/node/engine/incrementalReport';
import { buildViewReport, itemsOfPath, MAX_TWINS_PER_ITEM, ReportViewBuilder } from '../../../../src/node/engine/reportView';
import type { ReportPair } from '../../../../src/core/report/report';
import { findTwins } from '../../../../src/node/engine/twins';
import { codeFile, codeFunction, mulberry32, proseText } from '../../helpers/corpus';

function canonical(r: Report) {
  const loc = (l: { path: string; startLine?: number; endLine?: number }) => (l.startLine === undefined ? l.path : `${l.path}:${l.startLine}-${l.endLine}`);
  const pairs = r.pairs.map((p) => `${p.kind} ${loc(p.a)} ${loc(p.b)} ${p.distance}`).sort();
  const groups = r.groups.map((g) => `${g.kind} ${[...g.members].sort().join(',')} ${g.maxDistance}`).sort();
  return { pairs, groups };
}

/** The pairs of `path` in a report, canonical (as `canonical` prints them). */
function pairsOfPath(r: Report, path: string): string[] {
  return canonical({ pairs: r.pairs.filter((p) => p.a.path === path || p.b.path === path), groups: [] }).pairs;
}

/** Twins of `path` as report pairs (canonical), to compare with `pairsOfPath`. */
function twinsAsPairs(path: string, matches: QueryMatch[]): string[] {
  const loc = (p: string, l?: { startLine?: number; endLine?: number }) => (l?.startLine === undefined ? p : `${p}:${l.startLine}-${l.endLine}`);
  return matches
    .map((m) => {
      const self = loc(path, m.kind === 'section' ? m.self : undefined);
      const other = loc(m.other.path, m.kind === 'section' ? m.other : undefined);
      const selfFirst = path < m.other.path || (path === m.other.path && (m.self?.startLine ?? 0) < (m.other.startLine ?? 0));
      return `${m.kind} ${selfFirst ? self : other} ${selfFirst ? other : self} ${m.distance}`;
    })
    .sort();
}

/** Light edits: change a few tokens of some lines. */
function mutate(text: string, rnd: () => number, rate: number): string {
  return text
    .split('\n')
    .map((l) => (rnd() < rate ? l.replace(/\d+/, String(Math.floor(rnd() * 1000))) : l))
    .join('\n');
}

describe('IncrementalReport', function () {
  this.timeout(60000);
  const options: ReportOptions = { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75, sections: true };

  it('updates after changes agree with a full buildReport', () => {
    const rnd = mulberry32(1234);
    const texts = new Map<string, string>();
    const shared = Array.from({ length: 6 }, () => codeFunction(rnd, 14));
    const path = (i: number, ext: string) => `/w/${String.fromCharCode(97 + (i % 5))}/f${i}.${ext}`;
    for (let i = 0; i < 60; i++) {
      const ext = i % 4 === 0 ? 'md' : 'ts';
      let t = ext === 'md' ? proseText(rnd, 5) : codeFile(rnd, 4);
      if (ext === 'ts' && rnd() < 0.5) t += '\n' + shared[Math.floor(rnd() * shared.length)]; // shared sections
      texts.set(path(i, ext), t);
    }
    // Planted file copies at various distances.
    const keys = [...texts.keys()];
    for (let i = 0; i < 15; i++) texts.set(`/w/copies/c${i}.${keys[i].endsWith('md') ? 'md' : 'ts'}`, mutate(texts.get(keys[i])!, rnd, 0.1 * (i % 4)));

    const fp = (p: string, t: string) => fingerprintText(t, p, { minTokens: 50 });
    const docs = new Map<string, DocumentFingerprint>();
    for (const [p, t] of texts) docs.set(p, fp(p, t));
    const sorted = () => [...docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([p, doc]) => ({ path: p, doc }));

    const inc = new IncrementalReport();
    const views = new ReportViewBuilder();
    const first = inc.rebuild(sorted(), options);
    views.build(first, docs, null);
    assert.ok(first.pairs.some((p) => p.kind === 'file') && first.pairs.some((p) => p.kind === 'section'), 'material has both kinds');
    assert.deepEqual(canonical(inc.report()), canonical(first));

    for (let round = 0; round < 25; round++) {
      const changed: string[] = [];
      const all = [...docs.keys()];
      const n = 1 + Math.floor(rnd() * 4);
      for (let k = 0; k < n; k++) {
        const action = rnd();
        if (action < 0.4) {
          // Edit an existing file (sometimes into a copy of another one).
          const p = all[Math.floor(rnd() * all.length)];
          const src = rnd() < 0.5 ? texts.get(all[Math.floor(rnd() * all.length)])! : texts.get(p)!;
          const t = mutate(src, rnd, 0.15);
          texts.set(p, t);
          docs.set(p, fp(p, t));
          changed.push(p);
        } else if (action < 0.7) {
          const p = `/w/new/r${round}-${k}.ts`;
          const t = rnd() < 0.6 ? mutate(texts.get(all[Math.floor(rnd() * all.length)])!, rnd, 0.05) : codeFile(rnd, 3) + '\n' + shared[0];
          texts.set(p, t);
          docs.set(p, fp(p.replace(/\.ts$/, '.ts'), t));
          changed.push(p);
        } else {
          const p = all[Math.floor(rnd() * all.length)];
          texts.delete(p);
          docs.delete(p);
          changed.push(p);
        }
      }
      const incremental = inc.update(changed, docs)!;
      assert.ok(incremental, `round ${round}: under the cap`);
      const full = buildReport(sorted(), options);
      assert.deepEqual(canonical(incremental), canonical(full), `round ${round}`);
      // The views built incrementally equal views built from scratch.
      const { groups } = views.build(incremental, docs, inc.touched, (p) => inc.pairsOf(p));
      const fresh = buildViewReport(full, docs, 0, { ...options }, null);
      assert.deepEqual(views.allItems(), fresh.items, `items, round ${round}`);
      const asSet = (gs: typeof groups) => gs.map((g) => JSON.stringify(g)).sort();
      assert.deepEqual(asSet(groups), asSet(fresh.groups), `groups, round ${round}`);
    }
  });

  // Random sequences of adds, edits, copies, renames and removals, in batches of 1–8 (a path
  // may be listed twice, or listed without a change): after each batch the incremental report
  // equals a from-scratch buildReport, its views equal views built from scratch, and the twins of
  // a few documents (the live index's query) equal their pairs in the report and a linear scan.
  const variants: Array<[string, ReportOptions]> = [
    ['defaults', options],
    ['small radii, no sketch check', { maxDistance: 5, sectionMaxDistance: 4, minSimilarity: 0, sections: true }],
    ['files only', { maxDistance: 12, sectionMaxDistance: 10, minSimilarity: 0.75, sections: false }],
  ];
  for (const [label, opts] of variants) {
    it(`random change sequences equal a rebuild (${label}); twins equal the report`, () => {
      const rnd = mulberry32(label.length * 7919);
      const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
      const shared = Array.from({ length: 5 }, () => codeFunction(rnd, 12));
      const texts = new Map<string, string>();
      const fresh = (p: string): string => {
        if (p.endsWith('.md')) return proseText(rnd, 2 + Math.floor(rnd() * 4));
        let t = codeFile(rnd, 1 + Math.floor(rnd() * 4));
        if (rnd() < 0.5) t += '\n' + pick(shared); // a shared section
        if (rnd() < 0.3) t = `export class K${Math.floor(rnd() * 1e6)} {\n${t}\n}\n`; // nested sections
        if (rnd() < 0.08) t = 'const tiny = 1;\n'; // no fingerprint at all
        return t;
      };
      let serial = 0;
      const newPath = () => `/w/${pick(['a', 'b', 'c'])}/n${serial++}.${rnd() < 0.2 ? 'md' : 'ts'}`;
      for (let i = 0; i < 40; i++) {
        const p = newPath();
        texts.set(p, fresh(p));
      }
      // Identical copies (a group of four) and near copies.
      const base = [...texts.keys()].find((p) => p.endsWith('.ts'))!;
      for (let c = 0; c < 4; c++) texts.set(`/w/same/s${c}.ts`, texts.get(base)!);
      const fp = (p: string, t: string) => fingerprintText(t, p, { minTokens: 50 });
      const docs = new Map<string, DocumentFingerprint>();
      for (const [p, t] of texts) docs.set(p, fp(p, t));
      const sorted = () => [...docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([p, doc]) => ({ path: p, doc }));
      const twinOptions = { maxDistance: opts.maxDistance, sectionMaxDistance: opts.sectionMaxDistance, minSimilarity: opts.minSimilarity, sections: opts.sections };

      const inc = new IncrementalReport();
      const views = new ReportViewBuilder();
      let before = views.build(inc.rebuild(sorted(), opts), docs, null).groups;
      let sawGroups = 0;
      let reused = 0;
      for (let round = 0; round < 40; round++) {
        const changed: string[] = [];
        const n = 1 + Math.floor(rnd() * (round % 10 === 9 ? 8 : 3));
        for (let k = 0; k < n; k++) {
          const all = [...texts.keys()];
          const action = rnd();
          const set = (p: string, t: string) => {
            texts.set(p, t);
            docs.set(p, fp(p, t));
            changed.push(p);
          };
          if (action < 0.3) {
            const p = pick(all);
            set(p, mutate(texts.get(p)!, rnd, 0.1 + rnd() * 0.3)); // edit
          } else if (action < 0.45) {
            const p = pick(all);
            const src = pick(all);
            set(p, rnd() < 0.5 ? texts.get(src)! : mutate(texts.get(src)!, rnd, 0.05)); // becomes a (near) copy
          } else if (action < 0.6) {
            const p = newPath();
            set(p, rnd() < 0.5 ? mutate(texts.get(pick(all))!, rnd, 0.05) : fresh(p)); // create
          } else if (action < 0.72) {
            const p = pick(all); // rename
            const q = newPath().replace(/\.\w+$/, p.slice(p.lastIndexOf('.')));
            const t = texts.get(p)!;
            texts.delete(p);
            docs.delete(p);
            changed.push(p);
            set(q, t);
          } else if (action < 0.87) {
            const p = pick(all); // delete
            texts.delete(p);
            docs.delete(p);
            changed.push(p);
          } else if (action < 0.94) {
            changed.push(pick(all)); // listed, unchanged
          } else if (changed.length > 0) {
            changed.push(changed[0]); // listed twice
          }
        }
        const incremental = inc.update(changed, docs)!;
      assert.ok(incremental, `round ${round}: under the cap`);
        const full = buildReport(sorted(), opts);
        assert.deepEqual(canonical(incremental), canonical(full), `round ${round}`);
        sawGroups += full.groups.length;

        const { groups } = views.build(incremental, docs, inc.touched, (p) => inc.pairsOf(p));
        const fresh2 = buildViewReport(full, docs, 0, { ...opts }, null);
        assert.deepEqual(views.allItems(), fresh2.items, `items, round ${round}`);
        assert.deepEqual(groups, fresh2.groups, `groups (in order), round ${round}`);
        // A group none of whose files changed keeps its view object (no new medoid search),
        // from the first update after the rebuild on.
        const changedSet = new Set(changed);
        const previous = new Set(before);
        for (const g of groups) {
          if (g.members.some((m) => changedSet.has(m.path))) continue;
          const same = before.find((b) => JSON.stringify(b) === JSON.stringify(g));
          if (same && inc.touched && !g.members.some((m) => inc.touched!.has(m.path))) {
            assert.ok(previous.has(g), `round ${round}: the view of an untouched group is kept`);
            reused++;
          }
        }
        before = groups;

        const paths = [...docs.keys()];
        for (let q = 0; q < 3; q++) {
          const p = q === 0 && changed.length > 0 && docs.has(changed[0]) ? changed[0] : pick(paths);
          const doc = docs.get(p)!;
          const indexed = inc.twins(p, doc, twinOptions)!;
          assert.deepEqual(twinsAsPairs(p, indexed), pairsOfPath(full, p), `twins of ${p}, round ${round}`);
          assert.deepEqual(indexed, findTwins(p, doc, docs, twinOptions), `twins = linear scan, ${p}, round ${round}`);
          // Unsaved text: a near copy of another document, queried under p's path.
          const other = pick(paths);
          const unsaved = fp(p, mutate(texts.get(other)!, rnd, 0.05));
          assert.deepEqual(inc.twins(p, unsaved, twinOptions), findTwins(p, unsaved, docs, twinOptions), `unsaved text at ${p}, round ${round}`);
        }
      }
      assert.ok(sawGroups > 0, 'the material has groups');
      assert.ok(reused > 0, 'some views were kept');
      assert.equal(inc.twins(base, docs.get(base) ?? fp(base, texts.get(base) ?? ''), { ...twinOptions, maxDistance: opts.maxDistance + 1 }), null, 'other thresholds: no index');
    });
  }

  it('holds the pair cap: an update that would exceed it answers null (rebuild); a cut report is updated while it stays near the cap', () => {
    const item = { hi: 1, lo: 2, tokens: 60, features: 60, sketch: new Uint32Array(0), rawHi: 0, rawLo: 0, normHi: 0, normLo: 0 };
    const doc: DocumentFingerprint = { kind: 'code', file: item, sections: [] };
    const name = (i: number) => `f${String(i).padStart(3, '0')}.ts`;
    const docs = new Map<string, DocumentFingerprint>();
    for (let i = 0; i < 30; i++) docs.set(name(i), doc); // 435 pairs of identical files
    const capped = { ...options, maxPairs: 500 };
    const inc = new IncrementalReport();
    const list = () => [...docs].map(([path, d]) => ({ path, doc: d })).sort((a, b) => (a.path < b.path ? -1 : 1));
    const first = inc.rebuild(list(), capped);
    assert.equal(first.pairs.length, 435);
    assert.equal(first.truncated, undefined);
    assert.ok(inc.canUpdate(capped));
    // One more: 465 pairs, under the cap, updated.
    docs.set(name(30), doc);
    const second = inc.update([name(30)], docs);
    assert.ok(second);
    assert.equal(second.pairs.length, 465);
    // Two more: 528 pairs, over it: null, and no update until a rebuild.
    docs.set(name(31), doc).set(name(32), doc);
    assert.equal(inc.update([name(31), name(32)], docs), null);
    assert.equal(inc.canUpdate(capped), false);
    const cut = inc.rebuild(list(), capped);
    assert.equal(cut.pairs.length, 500);
    assert.deepEqual(cut.truncated, { files: true, sections: false });
    // A cut report is updated too: f000 becomes unique; its kept pairs go, the rest stay (cut).
    assert.ok(inc.canUpdate(capped));
    const involved = (r: Report, p: string) => r.pairs.filter((x) => x.a.path === p || x.b.path === p).length;
    const rnd = mulberry32(7);
    const unique = (): DocumentFingerprint => ({ kind: 'code', file: { ...item, hi: (rnd() * 2 ** 32) >>> 0, lo: (rnd() * 2 ** 32) >>> 0 }, sections: [] });
    // Updates of a cut report may go 1 % over the cap (505): a new pair elsewhere is taken in.
    const far = unique();
    docs.set('x1.ts', far).set('x2.ts', far);
    const slack = inc.update(['x1.ts', 'x2.ts'], docs);
    assert.ok(slack, 'within the slack');
    assert.equal(slack.pairs.length, 501);
    assert.deepEqual(slack.truncated, { files: true, sections: false });
    let current: Report = slack;
    let updated = 0;
    for (let i = 0; ; i++) {
      const expected = current.pairs.length - involved(current, name(i));
      docs.set(name(i), unique()); // far from everything (random 64 bits: ~32 apart)
      const next = inc.update([name(i)], docs);
      if (expected >= 450) {
        assert.ok(next, `update ${i}: ${expected} pairs, still at least 90 % of the cap`);
        assert.equal(next.pairs.length, expected);
        assert.deepEqual(next.truncated, { files: true, sections: false }, 'still says it is cut');
        current = next;
        updated++;
      } else {
        // Below 90 % of the cap: matched from scratch, which tells whether pairs were left out.
        assert.equal(next, null, `update ${i}: ${expected} pairs`);
        const fresh = inc.rebuild(list(), capped);
        assert.equal(fresh.pairs.length, ((33 - i - 1) * (33 - i - 2)) / 2 + 1);
        assert.equal(fresh.truncated, undefined, 'complete again');
        break;
      }
    }
    assert.ok(updated >= 1, 'the cut report was updated before it fell below 90 %');
    assert.ok(inc.canUpdate(capped));
  });

  it('a generated file of 300 near-identical functions: twins = the report (~45,000 section pairs, nested ones dropped in linear time); a TwinLimit cuts the query', () => {
    let text = '';
    for (let i = 0; i < 300; i++) {
      text += `export function getValue${i}(input: number, table: number[]): number {\n  const base = table[7] + input * 3;\n  if (base > 10) {\n    return base - 1;\n  }\n  const next = helper(base, 5);\n  return next + table.length * 2;\n}\n\n`;
    }
    const doc = fingerprintText(text, 'generated.ts');
    assert.equal(doc.sections.length, 300);
    const docs = new Map<string, DocumentFingerprint>([['generated.ts', doc]]);
    const report = buildReport([{ path: 'generated.ts', doc }], options);
    assert.ok(report.pairs.length > 40_000, `${report.pairs.length} pairs`);
    const twins = findTwins('generated.ts', doc, docs, options);
    assert.deepEqual(twinsAsPairs('generated.ts', twins), pairsOfPath(report, 'generated.ts'));
    const limit = { maxPairs: 1000, truncated: false };
    const cut = findTwins('generated.ts', doc, docs, options, limit);
    assert.ok(limit.truncated);
    assert.ok(cut.length <= 1000 && cut.length > 0, `${cut.length}`);
    const roomy = { maxPairs: 100_000, truncated: false };
    assert.equal(findTwins('generated.ts', doc, docs, options, roomy).length, twins.length);
    assert.equal(roomy.truncated, false);
  });

  it('itemsOfPath: the closest twins of each item, as sorting all of them would list them (ties, caps, files and sections)', () => {
    const rnd = mulberry32(99);
    type Loc = { path: string; startLine?: number; endLine?: number };
    const cmp = (a: Loc, b: Loc) => (a.path !== b.path ? (a.path < b.path ? -1 : 1) : (a.startLine ?? 0) - (b.startLine ?? 0) || (a.endLine ?? 0) - (b.endLine ?? 0));
    /** The plain rule: every twin made, all sorted by distance then location, the first 50 kept. */
    const reference = (path: string, pairs: ReportPair[]) => {
      const byKey = new Map<string, { kind: string; loc: Loc; twins: Array<Loc & { distance: number; similarity: number; clone: string }> }>();
      const add = (kind: string, self: Loc, other: Loc, distance: number, similarity: number, clone: string) => {
        const key = self.startLine === undefined ? self.path : `${self.path}#${self.startLine}-${self.endLine}`;
        let it = byKey.get(key);
        if (!it) byKey.set(key, (it = { kind, loc: { ...self }, twins: [] }));
        it.twins.push({ ...other, distance, similarity, clone });
      };
      for (const p of pairs) {
        if (p.a.path === path) add(p.kind, p.a, p.b, p.distance, p.similarity, p.clone);
        if (p.b.path === path) add(p.kind, p.b, p.a, p.distance, p.similarity, p.clone);
      }
      return [...byKey.values()]
        .map((it) => {
          it.twins.sort((x, y) => x.distance - y.distance || cmp(x, y));
          return { kind: it.kind, loc: it.loc, twins: it.twins.slice(0, MAX_TWINS_PER_ITEM), moreTwins: Math.max(0, it.twins.length - MAX_TWINS_PER_ITEM) };
        })
        .sort((a, b) => cmp(a.loc, b.loc));
    };
    let big = 0;
    for (let round = 0; round < 40; round++) {
      const pairs: ReportPair[] = [];
      const files = 5 + Math.floor(rnd() * 300);
      const spread = 1 + Math.floor(rnd() * 12); // few distinct distances: many ties
      const name = (i: number) => `/ws/f${String(i).padStart(3, '0')}.ts`;
      for (let i = 1; i < files; i++) {
        const d = Math.floor(rnd() * spread);
        pairs.push({ kind: 'file', a: { path: name(0) }, b: { path: name(i) }, distance: d, similarity: 1 - d / 64, clone: 'edited' });
        for (let k = 0; k < 3; k++) {
          const s = 1 + Math.floor(rnd() * 5) * 10;
          const t = 1 + Math.floor(rnd() * 5) * 10;
          const e = Math.floor(rnd() * 3); // same start, other ends: ordered by their end
          const ds = Math.floor(rnd() * spread);
          pairs.push({ kind: 'section', a: { path: name(0), startLine: s, endLine: s + 5 }, b: { path: name(i), startLine: t, endLine: t + 5 + e }, distance: ds, similarity: 1 - ds / 64, clone: 'edited' });
        }
      }
      // Shuffled: an incremental report's pairs come in any order.
      for (let i = pairs.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
      }
      const got = itemsOfPath(name(0), pairs);
      assert.deepEqual(got, reference(name(0), pairs), `round ${round}`);
      big += got.filter((it) => it.moreTwins > 0).length;
      assert.deepEqual(itemsOfPath(name(1), pairs), reference(name(1), pairs), `round ${round}, the other side`);
    }
    assert.ok(big > 20, 'items over the cap were compared');
  });

  it('the live index is built after the rebuild, at its first use or when asked: the same updates and twins as built at once', () => {
    const rnd = mulberry32(77);
    const fp = (p: string, t: string) => fingerprintText(t, p, { minTokens: 50 });
    const docs = new Map<string, DocumentFingerprint>();
    const base = Array.from({ length: 12 }, () => codeFile(rnd, 4));
    base.forEach((t, i) => docs.set(`/w/f${i}.ts`, fp(`/w/f${i}.ts`, t)));
    docs.set('/w/copy.ts', fp('/w/copy.ts', mutate(base[3], rnd, 0.05)));
    const sorted = () => [...docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, doc]) => ({ path, doc }));
    const reference = new IncrementalReport();
    reference.rebuild(sorted(), options);
    reference.prepareIndex();
    assert.equal(reference.indexPending, false);
    const lazy = new IncrementalReport();
    lazy.rebuild(sorted(), options);
    assert.equal(lazy.indexPending, true, 'not built by the rebuild');
    // A query first: it builds the index.
    const q = docs.get('/w/f3.ts')!;
    assert.deepEqual(lazy.twins('/w/f3.ts', q, options), reference.twins('/w/f3.ts', q, options));
    assert.equal(lazy.indexPending, false);
    // Changes made before the first update, on a rebuild whose index is still to be built.
    const later = new IncrementalReport();
    later.rebuild(sorted(), options);
    docs.set('/w/f5.ts', fp('/w/f5.ts', mutate(base[3], rnd, 0.08)));
    docs.delete('/w/f7.ts');
    const changed = ['/w/f5.ts', '/w/f7.ts'];
    assert.deepEqual(canonical(later.update(changed, docs)!), canonical(buildReport(sorted(), options)));
    assert.deepEqual(canonical(reference.update(changed, docs)!), canonical(buildReport(sorted(), options)));
    assert.ok(later.indexBuildMs > 0, 'its build time noted');
  });

  it('canUpdate only for the options of the last rebuild', () => {
    const inc = new IncrementalReport();
    assert.equal(inc.canUpdate(options), false);
    inc.rebuild([], options);
    assert.equal(inc.canUpdate(options), true);
    assert.equal(inc.canUpdate({ ...options, maxDistance: 3 }), false);
  });
});
