import { strict as assert } from 'node:assert';
import { squarify, type Box } from '../../../src/webview/treemap';

const area = (b: Box) => b.w * b.h;
const overlap = (a: Box, b: Box) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

describe('treemap (Overview)', () => {
  it('areas proportional to the values, inside the box, without overlaps, close to squares', () => {
    const values = [600, 300, 200, 120, 80, 50, 20, 10, 5, 1];
    const box = { x: 10, y: 20, w: 640, h: 360 };
    const boxes = squarify(values, box);
    const total = values.reduce((a, b) => a + b, 0);
    boxes.forEach((b, i) => {
      assert.ok(Math.abs(area(b) - (values[i] / total) * box.w * box.h) < 1e-6, `area of ${i}`);
      assert.ok(b.x >= box.x - 1e-9 && b.y >= box.y - 1e-9 && b.x + b.w <= box.x + box.w + 1e-6 && b.y + b.h <= box.y + box.h + 1e-6, `box ${i} inside`);
    });
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) assert.ok(overlap(boxes[i], boxes[j]) < 1e-6, `${i} and ${j} overlap`);
    const covered = boxes.reduce((s, b) => s + area(b), 0);
    assert.ok(Math.abs(covered - box.w * box.h) < 1e-6);
    // Squarified: the large ones are not slivers.
    for (const b of boxes.slice(0, 4)) assert.ok(Math.max(b.w / b.h, b.h / b.w) < 3, JSON.stringify(b));
  });

  it('zero values get empty boxes; nothing to lay out gives empty boxes', () => {
    const boxes = squarify([5, 0], { x: 0, y: 0, w: 10, h: 10 });
    assert.deepEqual(boxes[0], { x: 0, y: 0, w: 10, h: 10 });
    assert.equal(area(boxes[1]), 0);
    assert.ok(squarify([0, 0], { x: 0, y: 0, w: 10, h: 10 }).every((b) => area(b) === 0));
    assert.deepEqual(squarify([], { x: 0, y: 0, w: 10, h: 10 }), []);
  });
});
