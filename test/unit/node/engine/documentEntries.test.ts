import { strict as assert } from 'node:assert';
import { DocumentEntries } from '../../../../src/node/engine/documentEntries';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';

describe('DocumentEntries: running totals and the paths changed since a consumer last asked', () => {
  const doc = (text: string) => fingerprintText(text, 'a.ts');
  it('bytes count the fingerprinted entries only, through set, set again, delete and clear', () => {
    const e = new DocumentEntries<{ size: number; doc: ReturnType<typeof doc> | null }>();
    e.set('a', { size: 100, doc: doc('const a = 1;\nconst b = 2;\n') });
    e.set('b', { size: 40, doc: null }); // read, skipped: no fingerprint
    e.set('c', { size: 7, doc: doc('let x = y + z;\n') });
    assert.equal(e.bytes, 107);
    e.set('a', { size: 50, doc: doc('const a = 1;\n') });
    assert.equal(e.bytes, 57);
    e.set('c', { size: 7, doc: null });
    assert.equal(e.bytes, 50);
    e.delete('a');
    assert.equal(e.bytes, 0);
    e.set('d', { size: 9, doc: doc('f(1, 2);\n') });
    e.clear();
    assert.equal(e.bytes, 0);
  });
  it('takeChanged: null at first and after clear, then the paths set or deleted since the last call', () => {
    const e = new DocumentEntries<{ size: number; doc: ReturnType<typeof doc> | null }>();
    e.set('a', { size: 1, doc: null });
    assert.equal(e.takeChanged(), null, 'first call: any path may have changed');
    assert.deepEqual([...e.takeChanged()!], []);
    e.set('b', { size: 1, doc: null });
    e.set('a', { size: 2, doc: null });
    e.delete('zz'); // not an entry: not a change
    assert.deepEqual([...e.takeChanged()!].sort(), ['a', 'b']);
    e.delete('a');
    assert.deepEqual([...e.takeChanged()!], ['a']);
    e.clear();
    e.set('c', { size: 1, doc: null });
    assert.equal(e.takeChanged(), null, 'cleared since');
    // stopChanges: nothing listed (no Set growing for a consumer that stopped asking); the next answer is null.
    assert.deepEqual([...e.takeChanged()!], []);
    e.stopChanges();
    e.set('d', { size: 1, doc: null });
    assert.equal(e.takeChanged(), null);
    e.set('f', { size: 1, doc: null });
    assert.deepEqual([...e.takeChanged()!], ['f']);
  });
});
