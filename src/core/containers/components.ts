/**
 * Vue and Svelte single-file components by block: each `<script>` (`<script setup>`,
 * `<script context="module">`…) as JavaScript, or TypeScript and others by its `lang`; each
 * `<style>` as CSS, or SCSS, Less, Sass, Stylus by its `lang`; the text between them (Vue's
 * `<template>` and custom blocks, Svelte's markup) as HTML. The block tags themselves are not
 * read. Lines and offsets are the file's own. A linear scan, no parser: a `<script` inside an
 * HTML comment does not open a block, and a block runs to its first closing tag.
 */
import { languageOf, type LanguageInfo } from '../text/languages';
import type { ContainerPart, ContainerText } from './parts';

/** An HTML comment (to step over) or the opening tag of a script or style block. */
const OPEN = /<!--[\s\S]*?(?:-->|$)|<(script|style)(?=[\s>/])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const LANG = /(?:^|\s)lang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

const MARKUP = languageOf('component.html');
const SCRIPT_LANGS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', jsx: 'jsx', coffee: 'coffee', coffeescript: 'coffee' };
const STYLE_LANGS: Record<string, string> = { css: 'css', postcss: 'css', pcss: 'css', scss: 'scss', sass: 'sass', less: 'less', stylus: 'styl', styl: 'styl' };

/** The language of a block by its tag and `lang` attribute (unknown `lang`: the tag's default). */
export function blockLanguage(tag: 'script' | 'style', attributes: string): LanguageInfo {
  const m = LANG.exec(attributes);
  const lang = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim().toLowerCase();
  const ext = tag === 'script' ? SCRIPT_LANGS[lang] ?? 'js' : STYLE_LANGS[lang] ?? 'css';
  return languageOf(`component.${ext}`);
}

/** The parts of a component's text: its script and style blocks and the markup around them. */
export function componentText(text: string): ContainerText {
  const parts: ContainerPart[] = [];
  // Line counting runs forward only: `line` is the line of offset `at`.
  let at = 0;
  let line = 1;
  const lineAt = (offset: number): number => {
    for (let i = text.indexOf('\n', at); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    at = offset;
    return line;
  };
  const push = (start: number, end: number, lang: LanguageInfo): void => {
    // Blank lines before and blank space after the block's text are not part of it (the first
    // line keeps its indentation: code sections go by indentation too).
    let s = start;
    while (s < end && text.charCodeAt(s) <= 32) s++;
    while (end > s && text.charCodeAt(end - 1) <= 32) end--;
    if (s === end) return;
    start = Math.max(start, text.lastIndexOf('\n', s - 1) + 1);
    const startLine = lineAt(start);
    parts.push({ startOffset: start, endOffset: end, startLine, endLine: lineAt(end - 1), lang });
  };
  let markupFrom = 0;
  OPEN.lastIndex = 0;
  for (let m = OPEN.exec(text); m; m = OPEN.exec(text)) {
    if (!m[1]) {
      if (m[0].length === 0) OPEN.lastIndex++;
      continue;
    }
    const tag = m[1].toLowerCase() as 'script' | 'style';
    const contentStart = m.index + m[0].length;
    const close = new RegExp(`</${tag}\\s*>`, 'ig');
    close.lastIndex = contentStart;
    const c = close.exec(text);
    const contentEnd = c ? c.index : text.length;
    push(markupFrom, m.index, MARKUP);
    push(contentStart, contentEnd, blockLanguage(tag, m[2]));
    markupFrom = c ? c.index + c[0].length : text.length;
    OPEN.lastIndex = markupFrom;
  }
  push(markupFrom, text.length, MARKUP);
  return { text, parts, notebook: false };
}
