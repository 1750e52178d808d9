import { strict as assert } from 'node:assert';
import { fingerprintText } from '../../src/core/fingerprint';
import { buildReport, type Report, type ReportOptions } from '../../src/core/report';
import type { DocumentFingerprint } from '../../src/core/types';
import { IncrementalReport } from '../../src/node/incrementalReport';
import { buildViewReport, ReportViewBuilder } from '../../src/node/reportView';
import { codeFile, codeFunction, mulberry32, proseText } from './helpers/corpus';

function canonical(r: Report) {
  const loc = (l: { path: string; startLine?: number; endLine?: number }) => (l.startLine === undefined ? l.path : `${l.path}:${l.startLine}-${l.endLine}`);
  const pairs = r.pairs.map((p) => `${p.kind} ${loc(p.a)} ${loc(p.b)} ${p.distance}`).sort();
  const groups = r.groups.map((g) => `${g.kind} ${[...g.members].sort().join(',')} ${g.maxDistance}`).sort();
  return { pairs, groups };
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
      const incremental = inc.update(changed, docs);
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

  it('canUpdate only for the options of the last rebuild', () => {
    const inc = new IncrementalReport();
    assert.equal(inc.canUpdate(options), false);
    inc.rebuild([], options);
    assert.equal(inc.canUpdate(options), true);
    assert.equal(inc.canUpdate({ ...options, maxDistance: 3 }), false);
  });
});
