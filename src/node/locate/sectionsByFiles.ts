/**
 * The scan's SimHash section pairs of each two files, by their lines (node/locate/locatedReport.ts):
 * the ones a located region of those files may repeat (regionPlaces.ts samePlace: they share
 * lines) or split (withinSection: it lies inside, ± 1 line). Two large look-alike files hold
 * many section pairs and many regions; each region is offered only the section pairs near it
 * (those of a pair of files with many are sorted by their lines in the lower document), not all.
 */

/** From this many section pairs of two files on, they are sorted by lines (fewer: all offered). */
const SORTED_FROM = 12;

/** Section pairs of two files sorted by the first line of their side in the lower document. */
interface SortedSections {
  /** Indices of the section pairs, by that first line. */
  order: Int32Array;
  /** Their first and last line in the lower document, in that order. */
  start: Int32Array;
  end: Int32Array;
  /** The most lines any holds there. */
  longest: number;
}

export class SectionsByFiles {
  /** A section pair's document of side a, and the lines of its sides a and b (4 a pair), by its index. */
  readonly docA: Int32Array;
  readonly lines: Int32Array;
  private readonly lists = new Map<number, number[]>();
  private readonly sorted = new Map<number, SortedSections>();

  /** For section pairs indexed below `size`, keyed by their two files as pairKeys.ts with `base`. */
  constructor(
    size: number,
    private readonly base: number,
  ) {
    this.docA = new Int32Array(size);
    this.lines = new Int32Array(4 * size);
  }

  /** Section pair `i` of files `k` (= x × base + y, x ≤ y), its side a in document `docA`. */
  add(k: number, i: number, docA: number, a: { startLine: number; endLine: number }, b: { startLine: number; endLine: number }): void {
    this.docA[i] = docA;
    this.lines[4 * i] = a.startLine;
    this.lines[4 * i + 1] = a.endLine;
    this.lines[4 * i + 2] = b.startLine;
    this.lines[4 * i + 3] = b.endLine;
    const list = this.lists.get(k);
    if (list) list.push(i);
    else this.lists.set(k, [i]);
  }

  has(k: number): boolean {
    return this.lists.has(k);
  }

  /**
   * The section pairs of files `k` a region may repeat or split whose side in the lower document
   * of the two is lines [start, end]: every one that shares a line with [start − 1, end + 1] there
   * (and maybe others), into `out` from `offset` on (grown when short, what is before `offset`
   * kept); how many. Any order. Two sides in one file (x = y): all of them.
   */
  near(k: number, start: number, end: number, out: { at: Int32Array }, offset = 0): number {
    const list = this.lists.get(k);
    if (!list) return 0;
    const x = Math.floor(k / this.base);
    if (list.length < SORTED_FROM || x === k - x * this.base) return this.all(list, out, offset);
    let s = this.sorted.get(k);
    if (!s) this.sorted.set(k, (s = this.sort(list, x)));
    // The first whose first line could lie within `longest` lines before start − 1.
    const from = start - 1 - s.longest;
    let lo = 0;
    let hi = s.start.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s.start[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    let n = offset;
    for (let j = lo; j < s.start.length && s.start[j] <= end + 1; j++) {
      if (s.end[j] < start - 1) continue;
      if (n === out.at.length) out.at = grown(out.at);
      out.at[n++] = s.order[j];
    }
    return n - offset;
  }

  private all(list: number[], out: { at: Int32Array }, offset: number): number {
    while (out.at.length < offset + list.length) out.at = grown(out.at);
    for (let j = 0; j < list.length; j++) out.at[offset + j] = list[j];
    return list.length;
  }

  private sort(list: number[], lower: number): SortedSections {
    const n = list.length;
    const firstLine = (i: number) => (this.docA[i] === lower ? this.lines[4 * i] : this.lines[4 * i + 2]);
    const order = Int32Array.from(list).sort((p, q) => firstLine(p) - firstLine(q) || p - q);
    const start = new Int32Array(n);
    const end = new Int32Array(n);
    let longest = 0;
    for (let j = 0; j < n; j++) {
      const i = order[j];
      const q = this.docA[i] === lower ? 4 * i : 4 * i + 2;
      start[j] = this.lines[q];
      end[j] = this.lines[q + 1];
      longest = Math.max(longest, end[j] - start[j]);
    }
    return { order, start, end, longest };
  }
}

const grown = (a: Int32Array): Int32Array => {
  const b = new Int32Array(Math.max(16, 2 * a.length));
  b.set(a);
  return b;
};
