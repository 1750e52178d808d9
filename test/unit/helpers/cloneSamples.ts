/**
 * A function and its copies for the clone-kind tests: the same tokens (EXACT), identifiers and
 * literals changed (RENAMED), and renamed with one statement more (EDITED).
 */
export const ORIGINAL = `
export function totalOf(orders, taxRate) {
  let total = 0;
  for (const order of orders) {
    if (order.status === "paid") {
      total += order.amount * (1 + taxRate);
    } else if (order.status === "refunded") {
      total -= order.amount;
    }
  }
  return Math.round(total * 100) / 100;
}
`;

/** The same tokens: other spacing, comments, other line breaks. */
export const EXACT = `
// Copied from billing.
export function totalOf(orders,taxRate){
  let total=0;
  for (const order of orders) { if (order.status === "paid") { total += order.amount * (1 + taxRate); }
    else if (order.status === "refunded") { total -= order.amount; } }
  return Math.round(total * 100) / 100; /* rounded */
}
`;

/** Identifiers and literals changed, keywords and punctuation kept. */
export const RENAMED = ORIGINAL.replace(/orders/g, 'invoices')
  .replace(/order/g, 'invoice')
  .replace(/total/g, 'sum')
  .replace(/taxRate/g, 'vat')
  .replace(/status/g, 'state')
  .replace(/amount/g, 'value')
  .replace('"paid"', '"settled"')
  .replace('"refunded"', '"voided"')
  .replace('(1 + vat)', '(7 + vat)')
  .replace('100) / 100', '1000) / 1000');

/** Renamed and one statement more: near, not equal. */
export const EDITED = RENAMED.replace('let sum = 0;', 'let sum = 0;\n  let count = 0;');
