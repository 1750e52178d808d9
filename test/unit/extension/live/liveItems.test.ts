import * as assert from 'assert';
import { isUnsavedGroup, liveGroups, liveItems } from '../../../../src/extension/live/liveItems';
import type { QueryResult } from '../../../../src/node/engine/engineProtocol';

describe('liveItems (an unsaved document’s query as items and groups)', () => {
  const result: QueryResult = {
    status: 'ok',
    matches: [
      { kind: 'section', self: { startLine: 30, endLine: 40 }, other: { path: '/w/b.ts', startLine: 1, endLine: 11 }, distance: 3, similarity: 1 - 3 / 64, clone: 'edited' },
      { kind: 'file', other: { path: '/w/c.ts' }, distance: 4, similarity: 1 - 4 / 64, clone: 'edited' },
      { kind: 'section', self: { startLine: 5, endLine: 20 }, other: { path: '/w/d.ts', startLine: 7, endLine: 22 }, distance: 2, similarity: 1 - 2 / 64, clone: 'edited' },
      { kind: 'section', self: { startLine: 30, endLine: 40 }, other: { path: '/w/a2.ts', startLine: 3, endLine: 13 }, distance: 1, similarity: 1 - 1 / 64, clone: 'edited' },
      { kind: 'file', other: { path: '/w/e.ts' }, distance: 2, similarity: 1 - 2 / 64, clone: 'edited' },
    ],
  };

  it('one item for the file and one per section of the document, file first, sections by line, twins closest first', () => {
    const items = liveItems('/w/a.ts', result);
    assert.deepEqual(
      items.map((i) => [i.kind, i.loc.startLine ?? 0, i.twins.map((t) => `${t.path}:${t.distance}`)]),
      [
        ['file', 0, ['/w/e.ts:2', '/w/c.ts:4']],
        ['section', 5, ['/w/d.ts:2']],
        ['section', 30, ['/w/a2.ts:1', '/w/b.ts:3']],
      ],
    );
    assert.ok(items.every((i) => i.loc.path === '/w/a.ts' && i.moreTwins === 0));
    assert.deepEqual(items[2].twins[1], { path: '/w/b.ts', startLine: 1, endLine: 11, distance: 3, similarity: 1 - 3 / 64 });
  });

  it('a document that was not compared (too small, excluded…) or matches nothing has no items', () => {
    assert.deepEqual(liveItems('/w/a.ts', { status: 'tooSmall', matches: [] }), []);
    assert.deepEqual(liveItems('/w/a.ts', { status: 'ok', matches: [] }), []);
  });

  it('groups: the document (or section) first at distance 0, then its twins; keys marked unsaved and distinct', () => {
    const groups = liveGroups(liveItems('/w/a.ts', result));
    assert.deepEqual(
      groups.map((g) => [g.kind, g.maxDistance, g.members.map((m) => `${m.path}:${m.startLine ?? 0}:${m.distance}`)]),
      [
        ['file', 4, ['/w/a.ts:0:0', '/w/e.ts:0:2', '/w/c.ts:0:4']],
        ['section', 2, ['/w/a.ts:5:0', '/w/d.ts:7:2']],
        ['section', 3, ['/w/a.ts:30:0', '/w/a2.ts:3:1', '/w/b.ts:1:3']],
      ],
    );
    assert.ok(groups.every(isUnsavedGroup));
    assert.equal(new Set(groups.map((g) => g.key)).size, 3);
    assert.equal(isUnsavedGroup({ kind: 'file', key: '/w/a.ts', maxDistance: 0, members: [] }), false);
  });
});
