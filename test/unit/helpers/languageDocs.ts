// The README's table "Languages", written from src/core/text/languageTable.ts: the languages
// test compares the README with it, and prints it when they differ (paste it into README.md).
import { LANGUAGES, type LanguageEntry } from '../../../src/core/text/languageTable';

/** Inline code in a Markdown table cell (`|` escaped). */
const code = (s: string): string => `\`${s.replace(/\|/g, '\\|')}\``;

/** The file names of a row: `*.ext` extensions, whole names, `Name.*` names with any other extension. */
export function filesCell(e: LanguageEntry): string {
  return [...e.extensions.map((x) => code(`*.${x}`)), ...(e.names ?? []).map(code), ...(e.prefixes ?? []).map((p) => code(`${p}.*`))].join(' ');
}

/** How a row's comments look. */
export function commentsCell(e: LanguageEntry): string {
  if (e.kind === 'prose') return 'prose: no comments, every word counts';
  const c = e.comments;
  const parts: string[] = [];
  if (c.line.length) parts.push(`${c.line.map(code).join(' ')} to the end of the line`);
  if (c.block.length) parts.push(c.block.map(([o, x]) => `${code(o)} … ${code(x)}`).join(', '));
  // ␠ stands for a space that belongs to the opener (batch `REM␠`).
  if (c.lineStart?.length) parts.push(`${c.lineStart.map((o) => code(o.replace(/ /g, '␠'))).join(' ')} first on a line`);
  const closers = [...new Set((c.lineBlock ?? []).map(([, x]) => x))];
  for (const x of closers) {
    const opens = c.lineBlock!.filter(([, y]) => y === x).map(([o]) => code(o));
    parts.push(`lines from ${opens.join(' ')} to ${code(x)} (at column 0)`);
  }
  const comments = parts.length ? parts.join('; ') : 'none';
  return !e.parts ? comments : parts.length ? `${comments}; ${e.parts}` : e.parts;
}

export function languagesTable(): string {
  const rows = LANGUAGES.map((e) => `| ${e.name} | ${filesCell(e)} | ${commentsCell(e)} | ${e.kind === 'prose' ? '' : e.singleQuoteStrings ? 'yes' : 'no'} |`);
  return ['| language | files | comments | `\'` opens a string |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
