/**
 * Sections of Markdown or plain text: heading sections (ATX and setext, outside fenced code and
 * front matter) and paragraph runs of about `maxLines` lines / `maxChars` characters. Linear in
 * the text, no recursion. Lines are 1-based and inclusive; offsets 0-based, half-open UTF-16
 * code units, newline excluded.
 */
import type { TextRange } from '../types';
import { buildLines, firstNonWs, toRanges, type Block } from './lines';

export interface ProseSectionOptions {
  /** Target size of a paragraph run, in lines (default 30). */
  maxLines?: number;
  /** Target size of a paragraph run, in characters (default 80 × maxLines). */
  maxChars?: number;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(?:={2,}|-{2,})[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const NOT_SETEXT_TEXT = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)](?:[ \t]|$)|>)/;
const FRONT_MATTER_OPEN = /^---[ \t]*$/;
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

interface Heading {
  line: number;
  /** Last line of the heading (the underline of a setext heading). */
  end: number;
  level: number;
}

/**
 * Sections of Markdown or plain text: one per heading (ATX `#` and setext `===` / `---`; outside
 * fenced code), running to just before the next heading of the same or a higher level; and
 * paragraph runs — consecutive paragraphs merged up to about `maxLines` lines / `maxChars`
 * characters — for text before the first heading, text without headings, and heading bodies too
 * long to compare as one piece. A paragraph longer than the limits (e.g. Chinese text with one
 * paragraph per line and no blank lines) is cut between lines.
 */
export function proseSections(text: string, options: ProseSectionOptions = {}): TextRange[] {
  if (!text) return [];
  const maxLines = Math.max(1, Math.floor(options.maxLines ?? 30));
  const maxChars = Math.max(1, Math.floor(options.maxChars ?? maxLines * 80));
  const lines = buildLines(text);
  const lineCount = lines.count;
  const lineText = (l: number): string => text.slice(lines.starts[l], lines.ends[l]);
  const blank = new Uint8Array(lineCount);
  for (let l = 0; l < lineCount; l++) if (firstNonWs(text, lines, l) < 0) blank[l] = 1;

  // YAML front matter is neither a heading nor text.
  let first = 0;
  if (lineCount > 1 && FRONT_MATTER_OPEN.test(lineText(0))) {
    for (let l = 1; l < lineCount; l++) {
      if (FRONT_MATTER_CLOSE.test(lineText(l))) {
        first = l + 1;
        break;
      }
    }
  }

  const headings: Heading[] = [];
  let fenceChar = '';
  let fenceLen = 0;
  let prevPara = false;
  for (let l = first; l < lineCount; l++) {
    if (blank[l]) {
      prevPara = false;
      continue;
    }
    const t = lineText(l);
    if (fenceLen) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(t);
      if (m && m[1][0] === fenceChar && m[1].length >= fenceLen) fenceLen = 0;
      continue;
    }
    const f = FENCE_OPEN.exec(t);
    if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
      fenceChar = f[1][0];
      fenceLen = f[1].length;
      prevPara = false;
      continue;
    }
    const atx = ATX.exec(t);
    if (atx) {
      headings.push({ line: l, end: l, level: atx[1].length });
      prevPara = false;
      continue;
    }
    if (prevPara && SETEXT.test(t)) {
      headings.push({ line: l - 1, end: l, level: t.trimStart()[0] === '=' ? 1 : 2 });
      prevPara = false;
      continue;
    }
    prevPara = !NOT_SETEXT_TEXT.test(t);
  }

  // prevNonBlank[l]: the last non-blank line at or before l, or -1.
  const prevNonBlank = new Int32Array(lineCount);
  for (let l = 0, last = -1; l < lineCount; l++) {
    if (!blank[l]) last = l;
    prevNonBlank[l] = last;
  }
  const lineChars = (l: number): number => lines.ends[l] - lines.starts[l];

  const out: Block[] = [];

  // One section per heading.
  const open: Heading[] = [];
  const close = (h: Heading, before: number): void => {
    const end = prevNonBlank[before];
    if (end > h.end) out.push({ start: h.line, end });
  };
  for (const h of headings) {
    while (open.length && open[open.length - 1].level >= h.level) close(open.pop()!, h.line - 1);
    open.push(h);
  }
  while (open.length) close(open.pop()!, lineCount - 1);

  // Paragraph runs.
  const runs = (a: number, b: number): void => {
    const found: { s: number; e: number; chars: number }[] = [];
    let cur: { s: number; e: number; chars: number } | null = null;
    const addUnit = (s: number, e: number, chars: number): void => {
      if (cur && (e - cur.s + 1 > maxLines || cur.chars + chars > maxChars)) {
        found.push(cur);
        cur = null;
      }
      if (cur) {
        cur.e = e;
        cur.chars += chars;
      } else cur = { s, e, chars };
    };
    let l = a;
    while (l <= b) {
      if (blank[l]) {
        l++;
        continue;
      }
      // A paragraph: consecutive non-blank lines, cut between lines when it is too long.
      let s = l;
      let chars = 0;
      for (; l <= b && !blank[l]; l++) {
        const c = lineChars(l);
        if (l > s && (l - s + 1 > maxLines || chars + c > maxChars)) {
          addUnit(s, l - 1, chars);
          s = l;
          chars = 0;
        }
        chars += c;
      }
      addUnit(s, l - 1, chars);
    }
    if (cur) found.push(cur);
    // A small tail joins the run before it rather than standing alone.
    if (found.length >= 2) {
      const last = found[found.length - 1];
      if ((last.e - last.s + 1) * 3 < maxLines && last.chars * 3 < maxChars) {
        found[found.length - 2].e = last.e;
        found.pop();
      }
    }
    for (const r of found) out.push({ start: r.s, end: r.e });
  };
  const region = (from: number, to: number, always: boolean): void => {
    let a = from;
    while (a <= to && blank[a]) a++;
    if (a > to) return;
    const b = prevNonBlank[to];
    if (!always) {
      let chars = 0;
      for (let l = a; l <= b && chars <= maxChars; l++) chars += lineChars(l);
      if (b - a + 1 <= maxLines && chars <= maxChars) return; // its heading section covers it
    }
    runs(a, b);
  };
  // Text before the first heading (or the whole text) always gets runs; heading bodies only
  // when too long to compare as one piece.
  region(first, headings.length ? headings[0].line - 1 : lineCount - 1, true);
  for (let k = 0; k < headings.length; k++) {
    region(headings[k].end + 1, k + 1 < headings.length ? headings[k + 1].line - 1 : lineCount - 1, false);
  }
  return toRanges(out, lines);
}
