import { strict as assert } from 'node:assert';
import { AnchorPostings, type HashStat, type PostingFile } from '../../../../../src/node/engine/regions/anchorPostings';

/** The answers as scans of every file's anchors give them (what regionIndex.ts did before the postings). */
function scanStats(files: ReadonlyMap<string, PostingFile>, H: ReadonlySet<number>, exclude?: ReadonlySet<string>): Map<number, HashStat> {
  const out = new Map<number, HashStat>();
  for (const [p, f] of files) {
    if (exclude?.has(p)) continue;
    for (const h of f.hash) {
      if (!H.has(h)) continue;
      const s = out.get(h);
      if (!s) out.set(h, { n: 1, first: p, prose: f.prose });
      else {
        s.n++;
        if (p < s.first) (s.first = p), (s.prose = f.prose);
      }
    }
  }
  return out;
}

function scanHolders(files: ReadonlyMap<string, PostingFile>, H: ReadonlySet<number>): Set<string> {
  const out = new Set<string>();
  for (const [p, f] of files) if (f.hash.some((h) => H.has(h))) out.add(p);
  return out;
}

function scanPartners(files: ReadonlyMap<string, PostingFile>, mine: ReadonlyMap<number, number>, dirty: ReadonlySet<string>, min: number): Set<string> {
  const out = new Set<string>();
  for (const [p, f] of files) {
    if (dirty.has(p)) continue;
    let n = 0;
    for (const h of f.hash) n += mine.get(h) ?? 0;
    if (n >= min) out.add(p);
  }
  return out;
}

const sorted = <T>(m: Map<number, T>) => [...m].sort((a, b) => a[0] - b[0]);

describe('AnchorPostings: the region index anchors by hash', () => {
  it('answers as scans of every file do, through random creations, changes and deletions (the base built again past many changes)', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // Hashes from a small range (many shared, some in dozens of files: a postings cap's boilerplate), repeats within a file.
    const anchors = (): PostingFile => ({ hash: Uint32Array.from({ length: rnd(60) }, () => (rnd(4) === 0 ? rnd(8) : 1000 + rnd(3000))), prose: rnd(3) === 0 });
    const files = new Map<string, PostingFile>();
    for (let i = 0; i < 300; i++) files.set(`dir${rnd(5)}/f${i}.ts`, anchors());
    const postings = new AnchorPostings(files);
    let checked = 0;
    for (let step = 0; step < 120; step++) {
      // A change of 1 to 12 files (sometimes 80: the base is built again): set, created or deleted.
      const D = new Set<string>();
      const paths = [...files.keys()];
      const count = step % 30 === 29 ? 80 : 1 + rnd(12);
      for (let i = 0; i < count; i++) D.add(rnd(5) === 0 ? `dir${rnd(5)}/new${step}-${i}.ts` : paths[rnd(paths.length)]);
      const old = new Map([...D].map((p) => [p, files.get(p)] as const));
      postings.changing(D);
      for (const p of D) {
        if (rnd(6) === 0) files.delete(p);
        else files.set(p, anchors());
      }
      // The questions of an update: the changed files' hashes then and now, over the others; the holders of some; the partners of the dirty ones.
      const H = new Set<number>();
      for (const p of D) for (const f of [old.get(p), files.get(p)]) if (f) for (const h of f.hash) H.add(h);
      H.add(999_999); // held by none
      assert.deepEqual(sorted(postings.stats(H, D)), sorted(scanStats(files, H, D)), `step ${step}: stats without the changed files`);
      assert.deepEqual(sorted(postings.stats(H)), sorted(scanStats(files, H)), `step ${step}: stats`);
      const some = new Set([...H].filter(() => rnd(4) === 0));
      assert.deepEqual([...postings.holders(some)].sort(), [...scanHolders(files, some)].sort(), `step ${step}: holders`);
      const dirty = new Set([...D, ...[...files.keys()].filter(() => rnd(40) === 0)]);
      const mine = new Map<number, number>();
      for (const p of dirty) for (const h of files.get(p)?.hash ?? []) if (H.has(h) || rnd(2) === 0) mine.set(h, (mine.get(h) ?? 0) + 1);
      for (const min of [1, 2, 5]) assert.deepEqual([...postings.partners(mine, dirty, min)].sort(), [...scanPartners(files, mine, dirty, min)].sort(), `step ${step}: partners (${min})`);
      checked += H.size;
    }
    assert.ok(checked > 10_000, `hashes asked about: ${checked}`);
  });

  it('empty questions, a file with no anchors, and a reset (the index rebuilt) answer as scans do', () => {
    const files = new Map<string, PostingFile>([
      ['a.ts', { hash: Uint32Array.of(5, 5, 9), prose: false }],
      ['b.md', { hash: Uint32Array.of(9, 12), prose: true }],
      ['c.ts', { hash: new Uint32Array(0), prose: false }],
    ]);
    const postings = new AnchorPostings(files);
    assert.deepEqual(sorted(postings.stats(new Set())), []);
    assert.deepEqual(sorted(postings.stats(new Set([5, 9, 12, 40]))), sorted(scanStats(files, new Set([5, 9, 12, 40]))));
    assert.deepEqual(postings.stats(new Set([9])).get(9), { n: 2, first: 'a.ts', prose: false });
    postings.changing(['a.ts']);
    files.delete('a.ts');
    assert.deepEqual(postings.stats(new Set([9])).get(9), { n: 1, first: 'b.md', prose: true }, 'the first holder gone: the next by path');
    assert.deepEqual([...postings.partners(new Map([[9, 1], [12, 1]]), new Set(), 2)], ['b.md']);
    files.clear();
    postings.reset();
    files.set('z.ts', { hash: Uint32Array.of(9), prose: false });
    assert.deepEqual(postings.stats(new Set([9])).get(9), { n: 1, first: 'z.ts', prose: false });
    assert.deepEqual([...postings.holders(new Set([9, 5]))], ['z.ts']);
  });
});
