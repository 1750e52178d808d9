/**
 * What kind of text a file holds, judged by its name, and how its comments look.
 * Language-agnostic tokenising needs only the comment syntax, the quote rule and whether `/` may
 * open a regular expression; everything else is shared. The languages themselves are the rows of languageTable.ts.
 */
import type { ContentKind } from '../types';
import { C_LIKE, type CommentSyntax, LANGUAGES, type LanguageEntry, NONE } from './languageTable';

export type { CommentSyntax } from './languageTable';

export interface LanguageInfo {
  kind: ContentKind;
  comments: CommentSyntax;
  /** Whether `'` opens a string literal (false for languages where it is an apostrophe or lifetime). */
  singleQuoteStrings: boolean;
  /** Whether `/` may open a regular-expression literal (JavaScript, TypeScript: see comments.ts). */
  regexLiterals: boolean;
}

const PROSE: LanguageInfo = { kind: 'prose', comments: NONE, singleQuoteStrings: false, regexLiterals: false };
/** Files whose name says nothing known: code with C-like comments. */
const DEFAULT: LanguageInfo = { kind: 'code', comments: C_LIKE, singleQuoteStrings: true, regexLiterals: false };

const byExtension = new Map<string, LanguageInfo>();
const byName = new Map<string, LanguageInfo>();
const byPrefix = new Map<string, LanguageInfo>();
for (const entry of LANGUAGES) {
  const info: LanguageInfo =
    entry.kind === 'prose'
      ? PROSE
      : { kind: entry.kind, comments: entry.comments, singleQuoteStrings: entry.singleQuoteStrings, regexLiterals: entry.regexLiterals === true };
  for (const ext of entry.extensions) add(byExtension, ext, info, entry);
  for (const name of entry.names ?? []) add(byName, name.toLowerCase(), info, entry);
  for (const name of entry.prefixes ?? []) add(byPrefix, name.toLowerCase(), info, entry);
}

function add(map: Map<string, LanguageInfo>, key: string, info: LanguageInfo, entry: LanguageEntry): void {
  if (map.has(key)) throw new Error(`languageTable: '${key}' of ${entry.name} is already taken`);
  map.set(key, info);
}

/** The file name of a path (after the last / or \). */
export function baseNameOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(slash + 1);
}

/** The file name's extension, lower-cased, without the dot ('' when there is none). */
export function extensionOf(path: string): string {
  const base = baseNameOf(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * Classifies a file by its name (case-insensitively): a known whole file name first
 * (CMakeLists.txt, Dockerfile, .bashrc), then the extension, then a known name before an unknown
 * extension (Dockerfile.dev, Makefile.am, .env.local); anything else is code with C-like comments.
 */
export function languageOf(path: string): LanguageInfo {
  const base = baseNameOf(path).toLowerCase();
  const named = byName.get(base);
  if (named) return named;
  const dot = base.lastIndexOf('.');
  if (dot > 0) {
    const byExt = byExtension.get(base.slice(dot + 1));
    if (byExt) return byExt;
    const head = byPrefix.get(base.slice(0, base.indexOf('.', 1)));
    if (head) return head;
  }
  return DEFAULT;
}
