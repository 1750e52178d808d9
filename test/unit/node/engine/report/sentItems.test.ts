import * as assert from 'node:assert/strict';
import { sameJson, SentItems } from '../../../../../src/node/engine/report/sentItems';
import type { ViewItem } from '../../../../../src/node/engine/engineProtocol';

const item = (path: string, startLine: number, twins: Array<{ path: string; distance: number; located?: boolean; regions?: unknown[] }>): ViewItem =>
  ({ kind: 'section', loc: { path, startLine, endLine: startLine + 9 }, twins: twins.map((t) => ({ similarity: 1 - t.distance / 64, ...t })), moreTwins: 0 }) as ViewItem;

describe('engine/report/sentItems', () => {
  it('sameJson agrees with comparing JSON.stringify texts (key order aside) on values of every shape', () => {
    const values: unknown[] = [
      0, 1, -1, 1.5, '', 'a', 'b', true, false, null, [], [1], [1, 2], [2, 1], [null], [undefined], {}, { a: 1 }, { a: 1, b: undefined }, { a: 2 }, { b: 1 }, { a: [1, { c: 'x' }] },
      { a: [1, { c: 'y' }] }, { a: { b: { c: [] } } }, { a: { b: { c: [0] } } }, [{}], [{ a: undefined }], { a: null }, { a: 1, f: () => 1 },
    ];
    for (const x of values) for (const y of values) assert.equal(sameJson(x, y), JSON.stringify(x) === JSON.stringify(y), `${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  });

  it('SentItems: a file is sent when its items are new or differ in any figure, not when they are equal objects made again', () => {
    const sent = new SentItems();
    const one = () => [item('/w/a.ts', 10, [{ path: '/w/b.ts', distance: 3 }]), item('/w/a.ts', 40, [{ path: '/w/c.ts', distance: 0, located: true, regions: [{ self: 1 }] }])];
    assert.equal(sent.offer('/w/a.ts', one()), true, 'first time');
    assert.equal(sent.offer('/w/a.ts', one()), false, 'the same items, made again');
    const moved = one();
    (moved[1].twins[0] as { regions: unknown[] }).regions = [{ self: 2 }];
    assert.equal(sent.offer('/w/a.ts', moved), true, 'a region moved');
    assert.equal(sent.offer('/w/a.ts', moved.slice(0, 1)), true, 'an item gone');
    const marked = moved.slice(0, 1).map((i) => ({ ...i, twins: i.twins.map((t) => ({ ...t, baseline: true })) }));
    assert.equal(sent.offer('/w/a.ts', marked), true, 'a twin marked as in the baseline');
    assert.deepEqual([...sent.paths()], ['/w/a.ts']);
    assert.equal(sent.delete('/w/a.ts'), true);
    assert.equal(sent.delete('/w/a.ts'), false);
    assert.equal(sent.offer('/w/a.ts', marked), true, 'sent again after it had none');
  });
});
