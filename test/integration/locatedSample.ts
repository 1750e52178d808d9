// A copied block for the tests of located copies (locatedCopies.test.ts, projectConfig.test.ts):
// a run of small functions (each under minTokens: no section of its own) pasted into a file that
// is otherwise different: only the region finder (neardup.locate, on by default) sees it.
export const BLOCK = `export function clampPercent(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

export function ratioLabel(part: number, whole: number): string {
  const pct = whole === 0 ? 0 : clampPercent((part / whole) * 100);
  return pct.toFixed(1) + ' %';
}

export function splitCsvLine(line: string): string[] {
  const cells = line.split(',').map((c) => c.trim());
  return cells.filter((c, i) => c.length > 0 || i < cells.length - 1);
}

export function weekdayName(day: number): string {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return names[((day % 7) + 7) % 7];
}`;

export const SOURCE = `// Small helpers shared by the dashboard widgets.
import { strict as assert } from 'node:assert';

${BLOCK}

export function assertPositive(n: number, what: string): void {
  assert.ok(n > 0, what + ' must be positive');
}
`;

export const HOST_TOP = `/** Inventory movements: receipts, issues and the stock they leave behind. */
export interface Movement {
  sku: string;
  quantity: number;
  at: Date;
  warehouse: 'north' | 'south';
}

export function stockAfter(movements: Movement[], sku: string): number {
  let stock = 0;
  for (const m of movements) if (m.sku === sku) stock += m.quantity;
  return stock;
}
`;

export const HOST_BOTTOM = `
const NORTH_SHARE = 0.5;

export function busiestWarehouse(movements: Movement[]): 'north' | 'south' {
  const north = movements.filter((m) => m.warehouse === 'north').length;
  return north >= NORTH_SHARE * movements.length ? 'north' : 'south';
}
`;
