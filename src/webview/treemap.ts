/**
 * Squarified treemap layout (Bruls, Huizing & van Wijk, 2000): rectangles for values in a box,
 * areas proportional to the values, rows laid along the shorter side so that the rectangles stay
 * close to squares. Pure: used by the Overview webview and tested in plain Node.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The worst aspect ratio of a row of areas laid along a side of length `side`. */
function worst(row: readonly number[], side: number): number {
  let sum = 0;
  let max = 0;
  let min = Infinity;
  for (const a of row) {
    sum += a;
    if (a > max) max = a;
    if (a < min) min = a;
  }
  const s2 = side * side;
  const sum2 = sum * sum;
  return Math.max((s2 * max) / sum2, sum2 / (s2 * min));
}

/**
 * One box per value (same order), inside `box`. Values must be sorted largest first; zero and
 * negative values get an empty box.
 */
export function squarify(values: readonly number[], box: Box): Box[] {
  const out: Box[] = values.map(() => ({ x: box.x, y: box.y, w: 0, h: 0 }));
  const total = values.reduce((s, v) => s + Math.max(0, v), 0);
  if (total <= 0 || box.w <= 0 || box.h <= 0) return out;
  const scale = (box.w * box.h) / total;
  const areas = values.map((v) => Math.max(0, v) * scale);
  let free = { ...box };
  let i = 0;
  while (i < areas.length && areas[i] > 0) {
    const side = Math.min(free.w, free.h);
    const row: number[] = [areas[i]];
    let j = i + 1;
    while (j < areas.length && areas[j] > 0 && worst([...row, areas[j]], side) <= worst(row, side)) row.push(areas[j++]);
    const sum = row.reduce((s, a) => s + a, 0);
    if (free.w >= free.h) {
      // A column at the left of the free box.
      const w = sum / free.h;
      let y = free.y;
      for (let k = 0; k < row.length; k++) {
        const h = row[k] / w;
        out[i + k] = { x: free.x, y, w, h };
        y += h;
      }
      free = { x: free.x + w, y: free.y, w: free.w - w, h: free.h };
    } else {
      // A row at the top of the free box.
      const h = sum / free.w;
      let x = free.x;
      for (let k = 0; k < row.length; k++) {
        const w = row[k] / h;
        out[i + k] = { x, y: free.y, w, h };
        x += w;
      }
      free = { x: free.x, y: free.y + h, w: free.w, h: free.h - h };
    }
    i = j;
  }
  return out;
}
