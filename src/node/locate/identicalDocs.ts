/**
 * The identical documents of a `--locate` search (the same tokens as read): their pairs are not
 * searched when the scan pairs them as files (locate.ts: one exact region of the whole file). The
 * native kernel finds the same classes off the main thread with its plan (native/regionplan.c).
 */
import type { RegionDocument } from '../../core/regions/document';

/**
 * Per document: the first document holding the same tokens when another does, else -1. Looked for
 * only when another document has as many tokens: a document is compared, whole, with the first of
 * each content seen with its length and a few of its tokens — no hashing.
 */
export function identicalClasses(docs: readonly RegionDocument[]): Int32Array {
  const classOf = new Int32Array(docs.length).fill(-1);
  const byLength = new Map<number, number>(); // tokens → documents with as many
  for (const d of docs) byLength.set(d.length, (byLength.get(d.length) ?? 0) + 1);
  const firstOf = new Map<number, number[]>(); // length and sampled tokens, mixed → the first document of each content
  const members = new Int32Array(docs.length); // by a content's first document: its documents
  const firstIs = new Int32Array(docs.length).fill(-1);
  docs.forEach((r, i) => {
    const n = r.length;
    if (n === 0 || byLength.get(n)! < 2) return;
    const m = n >> 1;
    const k = (Math.imul(n, 0x9e3779b1) ^ r.raw.lo[0] ^ Math.imul(r.raw.lo[m], 0x85ebca6b) ^ Math.imul(r.raw.lo[n - 1], 0xc2b2ae35)) >>> 0;
    let firsts = firstOf.get(k);
    if (!firsts) firstOf.set(k, (firsts = []));
    let first = firsts.find((j) => sameTokens(docs[j], r));
    if (first === undefined) firsts.push((first = i));
    firstIs[i] = first;
    members[first]++;
  });
  for (let i = 0; i < docs.length; i++) if (firstIs[i] >= 0 && members[firstIs[i]] > 1) classOf[i] = firstIs[i];
  return classOf;
}

/** Whether two region documents hold the same tokens as read (a loop: Buffer views per call cost more). */
function sameTokens(x: RegionDocument, y: RegionDocument): boolean {
  if (x.length !== y.length) return false;
  const { hi: xh, lo: xl } = x.raw;
  const { hi: yh, lo: yl } = y.raw;
  for (let i = 0; i < x.length; i++) if (xl[i] !== yl[i] || xh[i] !== yh[i]) return false;
  return true;
}
