/**
 * `neardup.baseline.show` on the host (src/extension/baseline/baselineView.ts): an item's new and
 * baseline twins apart, and the panel's baseline groups.
 */
import { strict as assert } from 'node:assert';
import type { ViewGroup, ViewItem } from '../../../src/node/engine/engineProtocol';
import { isBaselineGroup, splitByBaseline, withoutBaselineTwins } from '../../../src/extension/baseline/baselineView';

const twin = (p: string, baseline?: boolean) => ({ path: p, distance: 2, similarity: 0.97, ...(baseline ? { baseline } : {}) });
const item = (p: string, twins: ViewItem['twins'], moreTwins = 0): ViewItem => ({ kind: 'file', loc: { path: p }, twins, moreTwins });
const group = (...paths: string[]): ViewGroup => ({ kind: 'file', key: paths[0], maxDistance: 2, members: paths.map((p) => ({ path: p, distance: 0, similarity: 1 })) });

describe('baselineView (neardup.baseline.show)', () => {
  it('an item without baseline twins stays whole under every setting', () => {
    const i = item('/w/a', [twin('/w/b'), twin('/w/c')], 3);
    for (const show of ['hide', 'dim', 'show'] as const) assert.deepEqual(splitByBaseline(i, show), [{ item: i, dimmed: false }]);
  });

  it('hide: only the new twins (the unlisted ones still counted); dim: the baseline ones apart, dimmed; show: whole', () => {
    const i = item('/w/a', [twin('/w/b', true), twin('/w/c'), twin('/w/d', true)], 4);
    assert.deepEqual(splitByBaseline(i, 'hide'), [{ item: { ...i, twins: [twin('/w/c')], moreTwins: 4 }, dimmed: false }]);
    assert.deepEqual(splitByBaseline(i, 'dim'), [
      { item: { ...i, twins: [twin('/w/c')], moreTwins: 4 }, dimmed: false },
      { item: { ...i, twins: [twin('/w/b', true), twin('/w/d', true)], moreTwins: 0 }, dimmed: true },
    ]);
    assert.deepEqual(splitByBaseline(i, 'show'), [{ item: i, dimmed: false }]);
  });

  it('every listed twin in the baseline: nothing (hide) or one dimmed item (dim)', () => {
    const i = item('/w/a', [twin('/w/b', true)]);
    assert.deepEqual(splitByBaseline(i, 'hide'), []);
    assert.deepEqual(splitByBaseline(i, 'dim'), [{ item: { ...i, moreTwins: 0 }, dimmed: true }]);
  });

  it('a group is a baseline group when each member’s twins inside it are all marked', () => {
    const items = new Map<string, ViewItem[]>([
      ['/w/a', [item('/w/a', [twin('/w/b', true), twin('/w/c', true), twin('/w/x')])]],
      ['/w/b', [item('/w/b', [twin('/w/a', true), twin('/w/c', true)])]],
      ['/w/c', [item('/w/c', [twin('/w/a', true), twin('/w/b')])]],
    ]);
    const of = (p: string) => items.get(p) ?? [];
    assert.equal(isBaselineGroup(group('/w/a', '/w/b'), of), true, 'a twin outside the group does not count');
    assert.equal(isBaselineGroup(group('/w/a', '/w/b', '/w/c'), of), false, 'c ~ b is new');
    assert.equal(isBaselineGroup(group('/w/a', '/w/y'), of), false, 'a member without its item');
    assert.equal(isBaselineGroup(group('/w/a', '/w/x'), of), false);
  });

  it('the editor’s marks: baseline twins left out (and items left with none) under hide and dim; all under show', () => {
    const mixed = item('/w/a', [twin('/w/b', true), twin('/w/c')], 2);
    const known = item('/w/a', [twin('/w/d', true)]);
    const fresh = item('/w/a', [twin('/w/e')]);
    for (const show of ['hide', 'dim'] as const) {
      assert.deepEqual(withoutBaselineTwins([mixed, known, fresh], show), [{ ...mixed, twins: [twin('/w/c')] }, fresh]);
    }
    const all = [mixed, known, fresh];
    assert.equal(withoutBaselineTwins(all, 'show'), all);
    assert.equal(withoutBaselineTwins([fresh], 'hide').length, 1);
  });
});
