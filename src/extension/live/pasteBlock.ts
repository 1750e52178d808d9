/**
 * A paste as it lands (issue 19), the pure part: which edit is a paste worth a look (one
 * insertion of at least `minLines` lines), which match the notice names (the best of the
 * engine's answer, less the place a block was just cut from: a move is not a copy), and how later
 * edits move the pasted lines (or remove them: undone, deleted).
 *
 * No vscode import: unit-tested in plain Node. Lines are 0-based here, as in the editor.
 */
import type { TextMatch } from '../../node/engine/engineProtocol';

/** One content change, as the editor reports it (its range, and the text that replaced it). */
export interface Change {
  startLine: number;
  startCharacter: number;
  endLine: number;
  /** Characters the change replaced. */
  rangeLength: number;
  text: string;
}

/** Pasted lines of a document, 0-based inclusive. */
export interface LineSpan {
  start: number;
  end: number;
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The lines a change inserted when it is a block of at least `minLines` lines, at least half of
 * them holding text, or undefined. A final line break ends the last line (the next line is not pasted).
 */
export function pastedSpan(c: Change, minLines: number): LineSpan | undefined {
  // A block put after a line's end starts with a line break: its lines begin on the next line.
  const lead = /^\r?\n/.exec(c.text)?.[0].length ?? 0;
  const text = c.text.slice(lead);
  const startLine = lead > 0 ? c.startLine + 1 : c.startLine;
  const nl = newlines(text);
  const lines = text.endsWith('\n') ? nl : nl + 1;
  if (lines < Math.max(1, minLines)) return undefined;
  let filled = 0;
  for (const l of text.split('\n')) if (l.trim() !== '') filled++;
  if (filled < Math.ceil(minLines / 2)) return undefined;
  return { start: startLine, end: startLine + lines - 1 };
}

/** The pasted lines after a later change, or undefined when the change removed them all. */
export function shiftSpan(span: LineSpan, c: Change): LineSpan | undefined {
  const added = newlines(c.text);
  const delta = added - (c.endLine - c.startLine);
  if (c.startLine > span.end) return span;
  // Ends before the span starts (or at its first column): the whole span moves.
  if (c.endLine < span.start || (c.endLine === span.start && c.rangeLength === 0 && c.startLine < span.start)) {
    return { start: span.start + delta, end: span.end + delta };
  }
  // Replaces the span whole: the pasted text is gone (undone, deleted, replaced, reverted).
  if (c.startLine <= span.start && c.endLine >= span.end && c.rangeLength > 0) return undefined;
  const start = c.startLine < span.start ? c.startLine : span.start;
  const end = Math.max(start, span.end + delta);
  return { start, end };
}

/**
 * The pasted block among one event's changes (a paste may come with small edits of its own: the
 * TypeScript extension adds the imports a pasted function needs): the one change that is a block,
 * its lines moved by the changes after it in the event (they lie before it in the document).
 * Undefined when none or several are blocks.
 */
export function pastedBlock(changes: readonly Change[], minLines: number): { span: LineSpan; text: string } | undefined {
  const blocks = changes.map((c) => pastedSpan(c, minLines));
  const at = blocks.findIndex((b) => b !== undefined);
  if (at < 0 || blocks.some((b, i) => b !== undefined && i !== at)) return undefined;
  let span = blocks[at];
  for (const c of changes.slice(at + 1)) span = span && shiftSpan(span, c);
  return span && { span, text: changes[at].text };
}

/** A block cut (deleted) a moment ago: pasting it back elsewhere moves it, it does not copy it. */
export interface Cut {
  path: string;
  chars: number;
  at: number;
}

/** A cut this long ago or less still explains a paste of the same length. */
export const CUT_MEMORY_MS = 60_000;

/**
 * The match the notice names: the engine's best, leaving out the file a block of the same size
 * was just cut from (its indexed text still holds what was moved), and the pasted lines' own place
 * (`pasted.path` and `span`): a document given its saved text again (a restore, a replace of the
 * whole text) matches that text on disk where it stands, which is no copy.
 */
export function noticeMatch(matches: readonly TextMatch[], pasted: { chars: number; at: number; path?: string; span?: LineSpan }, cut: Cut | undefined): TextMatch | undefined {
  const moved = cut && pasted.at - cut.at <= CUT_MEMORY_MS && Math.abs(cut.chars - pasted.chars) <= 2 ? cut.path : undefined;
  const itself = (m: TextMatch): boolean => {
    if (pasted.path === undefined || m.path !== pasted.path || !pasted.span) return false;
    if (m.startLine === undefined || m.endLine === undefined) return true; // the whole file
    return m.startLine <= pasted.span.end + 1 && pasted.span.start + 1 <= m.endLine;
  };
  return matches.find((m) => m.path !== moved && !itself(m));
}
