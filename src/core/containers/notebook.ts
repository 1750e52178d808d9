/**
 * Jupyter notebooks (nbformat 4, and 3's worksheets): the JSON text parsed into cells, and the
 * container text NearDup fingerprints — code cells in the notebook's language (a cell's own
 * `metadata.vscode.languageId` first, then `metadata.kernelspec.language`,
 * `metadata.language_info.name`, else Python), Markdown cells as prose; outputs, raw cells and
 * metadata left out. A text that is not a notebook gives a reason, never an exception.
 */
import { languageOf, type LanguageInfo } from '../text/languages';
import type { ContainerPart, ContainerText } from './parts';

export interface NotebookCell {
  /** 1-based, counting every cell of the notebook (as editors number them). */
  index: number;
  kind: 'code' | 'markdown' | 'raw';
  /** The cell's text (a source given as a list of strings is joined). */
  source: string;
  /** A code cell's own language, when its metadata names one. */
  language?: string;
}

export interface Notebook {
  /** The notebook's language, lower case ('python' when it names none). */
  language: string;
  cells: NotebookCell[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a cell's `source` (or nbformat 3's `input`): a string or a list of strings. */
function sourceText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v.join('');
  return null;
}

/** A name from metadata: `o.key` when it is a non-empty string, lower case. */
function nameAt(o: unknown, key: string): string | undefined {
  const v = isObject(o) ? o[key] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim().toLowerCase() : undefined;
}

/** Parses a notebook's JSON text; `{ reason }` says why it is not a notebook NearDup can read. */
export function parseNotebook(json: string): Notebook | { reason: string } {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch (e) {
    return { reason: `not a readable notebook: invalid JSON (${(e as Error).message})` };
  }
  if (!isObject(root)) return { reason: 'not a readable notebook: the JSON is not an object' };
  let rawCells: unknown;
  if (Array.isArray(root.cells)) rawCells = root.cells;
  else if (Array.isArray(root.worksheets)) {
    // nbformat 3: cells in worksheets.
    const sheets = root.worksheets as unknown[];
    if (!sheets.every((w) => isObject(w) && Array.isArray(w.cells))) return { reason: 'not a readable notebook: a worksheet without a "cells" list' };
    rawCells = sheets.flatMap((w) => (w as Json).cells as unknown[]);
  } else return { reason: 'not a readable notebook: no "cells" list (not nbformat)' };
  const meta = root.metadata;
  const language = nameAt(isObject(meta) ? meta.kernelspec : undefined, 'language') ?? nameAt(isObject(meta) ? meta.language_info : undefined, 'name') ?? nameAt(meta, 'language') ?? 'python';
  const cells: NotebookCell[] = [];
  const list = rawCells as unknown[];
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (!isObject(c)) return { reason: `not a readable notebook: cell ${i + 1} is not an object` };
    const type = c.cell_type;
    const kind = type === 'code' ? 'code' : type === 'markdown' || type === 'heading' ? 'markdown' : 'raw';
    const source = sourceText(c.source !== undefined ? c.source : c.input);
    if (source === null) {
      if (kind === 'raw' && c.source === undefined && c.input === undefined) {
        cells.push({ index: i + 1, kind, source: '' });
        continue;
      }
      return { reason: `not a readable notebook: cell ${i + 1}'s source is neither a string nor a list of strings` };
    }
    const cellMeta = c.metadata;
    const own = kind === 'code' ? nameAt(isObject(cellMeta) ? cellMeta.vscode : undefined, 'languageId') : undefined;
    cells.push(own ? { index: i + 1, kind, source, language: own } : { index: i + 1, kind, source });
  }
  return { language, cells };
}

/** File extensions of the languages notebooks name (kernelspec, language_info, VS Code's ids). */
const LANGUAGE_FILES: Record<string, string> = {
  python: 'py', python3: 'py', ipython: 'py', ipython3: 'py', r: 'r', julia: 'jl', javascript: 'js', typescript: 'ts',
  scala: 'scala', sql: 'sql', bash: 'sh', sh: 'sh', shellscript: 'sh', zsh: 'sh', ruby: 'rb', 'c++': 'cpp', cpp: 'cpp',
  c: 'c', csharp: 'cs', 'c#': 'cs', fsharp: 'fs', 'f#': 'fs', java: 'java', kotlin: 'kt', go: 'go', rust: 'rs',
  powershell: 'ps1', perl: 'pl', haskell: 'hs', lua: 'lua', groovy: 'groovy', clojure: 'clj', elixir: 'ex',
  erlang: 'erl', ocaml: 'ml', swift: 'swift', dart: 'dart', php: 'php', nim: 'nim', fortran: 'f90',
};

/** The language of a code cell by the name a notebook gives it (unknown names: a file extension, else Python). */
export function cellLanguage(name: string): LanguageInfo {
  const ext = LANGUAGE_FILES[name];
  if (ext) return languageOf(`cell.${ext}`);
  // A name that is an extension NearDup knows ('py', 'rb'), else the notebook default.
  const byExt = languageOf(`cell.${name}`);
  return /^[a-z0-9+#_-]+$/.test(name) && byExt !== languageOf('cell.neardup-unknown') ? byExt : languageOf('cell.py');
}

const PROSE = languageOf('cell.md');

/**
 * The container text of a notebook: its code and Markdown cells with any text, one after
 * another, each ending in a line break; `{ reason }` when the JSON is not a notebook.
 */
export function notebookText(json: string): ContainerText | { reason: string } {
  const nb = parseNotebook(json);
  if ('reason' in nb) return nb;
  const notebookLang = cellLanguage(nb.language);
  const pieces: string[] = [];
  const parts: ContainerPart[] = [];
  let offset = 0;
  let line = 1;
  for (const cell of nb.cells) {
    if (cell.kind === 'raw' || cell.source.length === 0) continue;
    const text = cell.source.endsWith('\n') ? cell.source : `${cell.source}\n`;
    let breaks = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks++;
    const lang = cell.kind === 'markdown' ? PROSE : cell.language ? cellLanguage(cell.language) : notebookLang;
    parts.push({ startOffset: offset, endOffset: offset + text.length, startLine: line, endLine: line + breaks - 1, lang, cell: cell.index });
    pieces.push(text);
    offset += text.length;
    line += breaks;
  }
  return { text: pieces.join(''), parts, notebook: true };
}
