/**
 * The shape of a container file's text: its parts, each in one language (a notebook cell, a
 * component's block), and where a line of a notebook's text is in the notebook.
 */
import type { LanguageInfo } from '../text/languages';

/** A part of a container's text in one language: a notebook cell, a component's block. */
export interface ContainerPart {
  /** 0-based, half-open UTF-16 offsets of the part in {@link ContainerText.text}. */
  startOffset: number;
  endOffset: number;
  /** The 1-based lines of `startOffset` and of the part's last character in the text. */
  startLine: number;
  endLine: number;
  lang: LanguageInfo;
  /** In a notebook: the part's cell, 1-based, counting every cell of the notebook (raw ones too). */
  cell?: number;
}

export interface ContainerText {
  /**
   * The text to fingerprint: a component's own text; a notebook's code and Markdown cells one
   * after another, each ending in a line break (lines of this text are not lines of the file:
   * see {@link notebookLineOf}).
   */
  text: string;
  /** In text order, not overlapping; text outside every part (a component's tags) is not read. */
  parts: ContainerPart[];
  /** Whether it is a notebook: section lines are then cell lines (cellLines.ts). */
  notebook: boolean;
}

/**
 * Where a line of a notebook's container text is in the notebook: its cell (1-based) and its
 * line in that cell (1-based); undefined past the end (or when the container is no notebook).
 */
export function notebookLineOf(container: ContainerText, line: number): { cell: number; line: number } | undefined {
  if (!container.notebook) return undefined;
  const parts = container.parts;
  let a = 0;
  let b = parts.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (parts[m].startLine <= line) a = m + 1;
    else b = m;
  }
  if (a === 0) return undefined;
  const part = parts[a - 1];
  return line <= part.endLine ? { cell: part.cell!, line: line - part.startLine + 1 } : undefined;
}
