/**
 * The comment lines that the quick fix *Ignore this duplicate* inserts: a `neardup-ignore-*`
 * marker in the comment syntax of the file's language (languageTable.ts), checked against the
 * very rules that read markers (ignoreMarkers.ts) before it is offered.
 *
 * - A whole file: `neardup-ignore-file` on the first line (after a `#!` line).
 * - A section (lines a–b): `neardup-ignore-next` before line a, indented as line a, when the block
 *   that marker ignores covers lines a–b; else `neardup-ignore-start` before a and
 *   `neardup-ignore-end` after b. When neither would blank the section (a language without
 *   comments, Markdown's fenced code), there is no edit.
 *
 * Pure: no tokenising or hashing (the extension host may import this module; the layering test
 * checks what it pulls in).
 */
import { blankIgnoredRegions, hasIgnoreFileMarker } from './ignoreMarkers';
import { languageOf, type LanguageInfo } from './languages';

/** Insert `text` (and a line break) before the 0-based line `line`; `line` = the line count means after the last line. */
export interface MarkerInsertion {
  line: number;
  text: string;
}

type Kind = 'file' | 'next' | 'start' | 'end';

/** `neardup-ignore-<kind>` as a comment of the language, or null when it has no usable comment. */
export function markerComment(lang: LanguageInfo, kind: Kind): string | null {
  const word = `neardup-ignore-${kind}`;
  if (lang.kind === 'prose') return `<!-- ${word} -->`;
  const c = lang.comments;
  const line = c.line[0] ?? c.lineStart?.[0];
  if (line !== undefined) return `${line.trim()} ${word}`;
  const block = c.block[0];
  if (block) return `${block[0]} ${word} ${block[1]}`;
  return null;
}

function splitLines(text: string): string[] {
  return text.split('\n');
}

function insertLines(lines: string[], insertions: MarkerInsertion[]): string[] {
  const out = [...lines];
  // From the last, so earlier line numbers stay right.
  for (const ins of [...insertions].sort((x, y) => y.line - x.line)) out.splice(ins.line, 0, ins.text);
  return out;
}

/**
 * Whether, after the markers are applied, lines [from, to] of the text are all blank and line
 * `after` (the first non-blank line after them, −1 for none) is not: the section and no more.
 */
function blanksExactly(text: string, lang: LanguageInfo, from: number, to: number, after: number): boolean {
  const lines = splitLines(blankIgnoredRegions(text, lang));
  for (let i = from; i <= to && i < lines.length; i++) if (lines[i].trim() !== '') return false;
  return after < 0 || (lines[after] ?? '').trim() !== '';
}

/** The first non-blank line after `line`, or −1. */
function nextNonBlank(lines: string[], line: number): number {
  for (let i = line + 1; i < lines.length; i++) if (lines[i].trim() !== '') return i;
  return -1;
}

/**
 * The insertions that make NearDup ignore lines `startLine`–`endLine` (0-based, inclusive) of a
 * file, or the whole file (`'file'`); null when no marker of its language would do it.
 */
export function ignoreMarkerEdit(path: string, text: string, target: { startLine: number; endLine: number } | 'file'): MarkerInsertion[] | null {
  const lang = languageOf(path);
  const lines = splitLines(text);
  if (target === 'file') {
    const comment = markerComment(lang, 'file');
    if (comment === null) return null;
    const at = lines[0]?.startsWith('#!') ? 1 : 0;
    const ins = [{ line: at, text: comment }];
    return hasIgnoreFileMarker(insertLines(lines, ins).join('\n'), lang) ? ins : null;
  }
  const { startLine, endLine } = target;
  if (startLine < 0 || endLine < startLine || startLine >= lines.length) return null;
  const last = Math.min(endLine, lines.length - 1);
  const indent = /^[ \t]*/.exec(lines[startLine])![0];
  // Prose markers stand alone (an indented `<!--` in Markdown may be code).
  const pad = lang.kind === 'prose' ? '' : indent;
  const following = nextNonBlank(lines, last);
  const next = markerComment(lang, 'next');
  if (next !== null) {
    const ins = [{ line: startLine, text: pad + next }];
    if (blanksExactly(insertLines(lines, ins).join('\n'), lang, startLine + 1, last + 1, following < 0 ? -1 : following + 1)) return ins;
  }
  const start = markerComment(lang, 'start');
  const end = markerComment(lang, 'end');
  if (start === null || end === null) return null;
  const ins = [
    { line: startLine, text: pad + start },
    { line: last + 1, text: pad + end },
  ];
  return blanksExactly(insertLines(lines, ins).join('\n'), lang, startLine + 1, last + 1, following < 0 ? -1 : following + 2) ? ins : null;
}
