/**
 * Which parser reads which container file (a notebook, a Vue or Svelte component).
 */
import { blankIgnoredRegions, hasIgnoreFileMarker, IGNORE_FILE_LINES } from '../text/ignoreMarkers';
import { componentText } from './components';
import { isNotebookPath } from './cellLines';
import { notebookText } from './notebook';
import type { ContainerText } from './parts';

export type { ContainerPart, ContainerText } from './parts';
export { notebookLineOf } from './parts';

/** Whether a file name is read as a container (`.ipynb`, `.vue`, `.svelte`, any letter case). */
export function isContainerPath(path: string): boolean {
  return /\.(ipynb|vue|svelte)$/i.test(path);
}

/**
 * The container text of a file by its name: parts of a notebook (from its JSON text) or of a
 * component; `{ reason }` when a notebook cannot be read; null when the name is no container's.
 */
export function containerText(path: string, text: string): ContainerText | { reason: string } | null {
  if (isNotebookPath(path)) return notebookText(text);
  if (isContainerPath(path)) return componentText(text);
  return null;
}

/**
 * A container's text with its parts' ignore markers applied, each in its part's language: null
 * when a part that starts on one of the text's first lines holds `neardup-ignore-file` there.
 */
export function applyContainerIgnoreMarkers(c: ContainerText): string | null {
  const text = c.text;
  if (text.indexOf('neardup-ignore-') < 0) return text;
  const pieces: string[] = [];
  let last = 0;
  for (const p of c.parts) {
    const part = text.slice(p.startOffset, p.endOffset);
    if (part.indexOf('neardup-ignore-') < 0) continue;
    if (p.startLine <= IGNORE_FILE_LINES) {
      let cut = -1;
      for (let n = p.startLine; n <= IGNORE_FILE_LINES && (cut = part.indexOf('\n', cut + 1)) >= 0; n++);
      if (hasIgnoreFileMarker(cut < 0 ? part : part.slice(0, cut), p.lang)) return null;
    }
    pieces.push(text.slice(last, p.startOffset), blankIgnoredRegions(part, p.lang));
    last = p.endOffset;
  }
  pieces.push(text.slice(last));
  return pieces.join('');
}
