/**
 * A line diff of two ranges (lines compared with their whitespace collapsed), and the same diff as
 * rows of a side-by-side view. Pure and bounded: ranges longer than {@link MAX_DIFF_CELLS} allow
 * are compared by their common start and end only. Used by the editor's hover (compact diff) and
 * the HTML report (side by side).
 */

/** `' '` in both, `'-'` only here, `'+'` only in the twin. */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Cells of the longest-common-subsequence table at most (lines here × lines of the twin). */
export const MAX_DIFF_CELLS = 250_000;

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');

/** A line diff of `here` against `twin`: common lines, lines only here, lines only in the twin, in order. */
export function lineDiff(here: readonly string[], twin: readonly string[]): DiffLine[] {
  const a = here.map(norm);
  const b = twin.map(norm);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const out: DiffLine[] = [];
  for (let i = 0; i < pre; i++) out.push({ op: ' ', text: twin[i] });
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n * m > MAX_DIFF_CELLS) {
    for (let i = 0; i < n; i++) out.push({ op: '-', text: here[pre + i] });
    for (let j = 0; j < m; j++) out.push({ op: '+', text: twin[pre + j] });
  } else {
    // lcs[i][j]: the longest common subsequence of a[pre+i..] and b[pre+j..].
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = a[pre + i] === b[pre + j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] === b[pre + j]) {
        out.push({ op: ' ', text: twin[pre + j] });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        out.push({ op: '-', text: here[pre + i++] });
      } else out.push({ op: '+', text: twin[pre + j++] });
    }
  }
  for (let k = suf; k > 0; k--) out.push({ op: ' ', text: twin[twin.length - k] });
  return out;
}

/** A row of a side-by-side view: a line of each side (1-based within the range), or of one. */
export interface SideBySideRow {
  /** `same`: equal (whitespace aside); `changed`: both sides differ; `left` / `right`: only one side. */
  op: 'same' | 'changed' | 'left' | 'right';
  left?: { line: number; text: string };
  right?: { line: number; text: string };
}

/**
 * The side-by-side rows of `left` against `right`: common lines side by side, and each run of
 * differing lines paired up in order (the longer side's extra lines alone).
 */
export function sideBySide(left: readonly string[], right: readonly string[]): SideBySideRow[] {
  const diff = lineDiff(left, right);
  const rows: SideBySideRow[] = [];
  let i = 0;
  let j = 0;
  for (let k = 0; k < diff.length; ) {
    if (diff[k].op === ' ') {
      rows.push({ op: 'same', left: { line: i + 1, text: left[i] }, right: { line: j + 1, text: right[j] } });
      i++;
      j++;
      k++;
      continue;
    }
    let dels = 0;
    let adds = 0;
    while (k < diff.length && diff[k].op !== ' ') {
      if (diff[k].op === '-') dels++;
      else adds++;
      k++;
    }
    for (let r = 0; r < Math.max(dels, adds); r++) {
      const l = r < dels ? { line: i + r + 1, text: left[i + r] } : undefined;
      const rt = r < adds ? { line: j + r + 1, text: right[j + r] } : undefined;
      rows.push({ op: l && rt ? 'changed' : l ? 'left' : 'right', ...(l ? { left: l } : {}), ...(rt ? { right: rt } : {}) });
    }
    i += dels;
    j += adds;
  }
  return rows;
}
