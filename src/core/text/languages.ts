/**
 * What kind of text a file holds, judged by its name, and how its comments look.
 * Language-agnostic tokenising needs only the comment syntax; everything else is shared.
 */
import type { ContentKind } from '../types';

export interface CommentSyntax {
  /** Line comment openers, e.g. '//' or '#'. */
  line: string[];
  /** Block comment pairs, e.g. ['/*', '*\/']. */
  block: Array<[string, string]>;
}

export interface LanguageInfo {
  kind: ContentKind;
  comments: CommentSyntax;
  /** Whether `'` opens a string literal (false for languages where it is an apostrophe or lifetime). */
  singleQuoteStrings: boolean;
}

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
const HASH: CommentSyntax = { line: ['#'], block: [] };
const SQL: CommentSyntax = { line: ['--'], block: [['/*', '*/']] };
const LUA: CommentSyntax = { line: ['--'], block: [['--[[', ']]']] };
const MARKUP: CommentSyntax = { line: [], block: [['<!--', '-->']] };
const CSS: CommentSyntax = { line: [], block: [['/*', '*/']] };
const LISP: CommentSyntax = { line: [';'], block: [] };
const PERCENT: CommentSyntax = { line: ['%'], block: [] };
const NONE: CommentSyntax = { line: [], block: [] };

const PROSE_EXTENSIONS = new Set([
  'md', 'markdown', 'mdx', 'txt', 'text', 'rst', 'adoc', 'asciidoc', 'org', 'textile', 'wiki',
]);

const CODE_COMMENTS: Record<string, CommentSyntax> = {};
for (const ext of [
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'java', 'kt', 'kts', 'scala', 'groovy',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'cs', 'go', 'rs', 'swift', 'dart', 'php',
  'm', 'mm', 'proto', 'sol', 'zig', 'v', 'json5', 'jsonc', 'gradle', 'vue', 'svelte', 'fs',
]) {
  CODE_COMMENTS[ext] = C_LIKE;
}
for (const ext of [
  'py', 'pyw', 'pyi', 'rb', 'sh', 'bash', 'zsh', 'fish', 'pl', 'pm', 'r', 'yaml', 'yml', 'toml',
  'ini', 'cfg', 'conf', 'properties', 'cmake', 'mk', 'make', 'dockerfile', 'ps1', 'nim', 'cr',
  'ex', 'exs', 'coffee', 'tf', 'hcl', 'jl', 'awk', 'tcl', 'gitignore', 'env',
]) {
  CODE_COMMENTS[ext] = HASH;
}
for (const ext of ['sql', 'hs', 'elm', 'ada', 'adb', 'ads', 'vhd', 'vhdl']) CODE_COMMENTS[ext] = SQL;
CODE_COMMENTS.lua = LUA;
for (const ext of ['html', 'htm', 'xml', 'xhtml', 'svg', 'xsl', 'xslt', 'vue-html']) CODE_COMMENTS[ext] = MARKUP;
for (const ext of ['css', 'scss', 'less', 'sass']) CODE_COMMENTS[ext] = CSS;
for (const ext of ['clj', 'cljs', 'lisp', 'el', 'scm', 'rkt', 'asm', 's']) CODE_COMMENTS[ext] = LISP;
for (const ext of ['erl', 'hrl', 'tex', 'sty', 'matlab']) CODE_COMMENTS[ext] = PERCENT;
CODE_COMMENTS.json = NONE;
CODE_COMMENTS.csv = NONE;

const BASENAME_COMMENTS: Record<string, CommentSyntax> = {
  makefile: HASH, dockerfile: HASH, gemfile: HASH, rakefile: HASH, cmakelists: HASH,
  '.gitignore': HASH, '.npmignore': HASH, '.dockerignore': HASH, '.editorconfig': HASH,
};

/** Languages where `'` is not (only) a string delimiter. */
const NO_SINGLE_QUOTE = new Set(['rs', 'ml', 'mli', 'clj', 'cljs', 'lisp', 'el', 'scm', 'rkt', 'vhd', 'vhdl', 'hs', 'elm', 'tex']);

/** The file name's extension, lower-cased, without the dot ('' when there is none). */
export function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Classifies a file by its name: prose for Markdown/plain text, code for everything else. */
export function languageOf(path: string): LanguageInfo {
  const ext = extensionOf(path);
  if (PROSE_EXTENSIONS.has(ext)) {
    return { kind: 'prose', comments: NONE, singleQuoteStrings: false };
  }
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1).toLowerCase();
  const stem = base.replace(/\.[^.]*$/, '');
  const comments = CODE_COMMENTS[ext] ?? BASENAME_COMMENTS[base] ?? BASENAME_COMMENTS[stem] ?? C_LIKE;
  return { kind: 'code', comments, singleQuoteStrings: !NO_SINGLE_QUOTE.has(ext) };
}
