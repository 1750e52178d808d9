/**
 * The Overview webview's script (bundled by esbuild into dist/overview.js; no network, no other
 * script): a treemap of the workspace's folders and files (area = lines, colour = share of lines
 * in near duplicates; click or Enter on a folder zooms in, on a file opens it; Backspace, Escape or
 * the path above zooms out), a histogram of the pairs' Hamming distances (and similarity) with the
 * thresholds drawn on it, and the largest groups with links. Draws with SVG in the theme's
 * colours. Tells the extension what it drew (`rendered`), which the tests read.
 */
/// <reference lib="dom" />
import type { OverviewData, OverviewNode } from '../node/engine/engineProtocol';
import { squarify } from './treemap';

interface Strings {
  treemap: string;
  histogram: string;
  groups: string;
  files: string;
  sections: string;
  distance: string;
  similarity: string;
  noPairs: string;
  foldersOnly: string;
  node: string;
  group: string;
  up: string;
  threshold: string;
}

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
let data: OverviewData | undefined;
let strings: Strings | undefined;
/** The folders zoomed into, from a root. */
let trail: OverviewNode[] = [];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag: string, attrs: Record<string, string | number> = {}): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function fill(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((100 * part) / whole) : 0);

function open(path: string, startLine?: number, endLine?: number): void {
  vscode.postMessage({ type: 'open', path, startLine, endLine });
}

/** The node shown: the last folder zoomed into, or the only root (several roots: a node above them). */
function current(): OverviewNode {
  if (trail.length > 0) return trail[trail.length - 1];
  const roots = data!.roots;
  if (roots.length === 1) return roots[0];
  return { name: '', path: '', lines: roots.reduce((n, r) => n + r.lines, 0), duplicated: roots.reduce((n, r) => n + r.duplicated, 0), children: roots };
}

function zoomOut(): void {
  if (trail.length === 0) return;
  trail.pop();
  render();
}

function drawTreemap(parent: HTMLElement): number {
  const s = strings!;
  const node = current();
  const section = el('section', { 'aria-label': s.treemap });
  section.append(el('h2', {}, s.treemap));
  const crumbs = el('nav', { class: 'crumbs' });
  const path = [data!.roots.length === 1 ? data!.roots[0] : undefined, ...trail].filter((n): n is OverviewNode => !!n);
  if (data!.roots.length > 1) path.unshift({ name: '⌂', path: '', lines: 0, duplicated: 0 });
  path.forEach((n, i) => {
    const b = el('button', { type: 'button' }, n.name || '⌂');
    b.addEventListener('click', () => {
      trail = trail.slice(0, Math.max(0, i - (data!.roots.length === 1 ? 0 : 1)));
      render();
    });
    crumbs.append(b);
    if (i < path.length - 1) crumbs.append(el('span', {}, ' / '));
  });
  section.append(crumbs);
  if (!data!.filesDrawn) section.append(el('p', { class: 'note' }, fill(s.foldersOnly, data!.files)));
  const width = Math.max(320, parent.clientWidth - 24);
  const height = 360;
  const box = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': s.treemap, id: 'treemap' });
  const children = (node.children ?? []).filter((c) => c.lines > 0);
  const boxes = squarify(children.map((c) => c.lines), { x: 0, y: 0, w: width, h: height });
  let drawn = 0;
  children.forEach((c, i) => {
    const b = boxes[i];
    if (b.w < 1 || b.h < 1) return;
    const share = pct(c.duplicated, c.lines);
    const g = svg('g', { tabindex: 0, role: 'button', class: c.children ? 'folder' : 'file', 'aria-label': fill(s.node, c.name, c.duplicated, c.lines, `${share}%`) });
    const rect = svg('rect', { x: b.x + 1, y: b.y + 1, width: Math.max(0, b.w - 2), height: Math.max(0, b.h - 2), rx: 2 });
    // Through the CSSOM: the Content-Security-Policy allows no style attributes.
    (rect as SVGElement).style.setProperty('fill', `color-mix(in srgb, var(--vscode-charts-red) ${share}%, var(--vscode-editorWidget-background))`);
    const title = svg('title');
    title.textContent = fill(s.node, c.name, c.duplicated, c.lines, `${share}%`);
    g.append(rect, title);
    if (b.w > 60 && b.h > 18) {
      const t = svg('text', { x: b.x + 6, y: b.y + 15 });
      t.textContent = `${c.name}${c.children ? '/' : ''} ${share}%`;
      g.append(t);
    }
    const activate = () => {
      if (c.children) {
        trail.push(c);
        render();
      } else open(c.path);
    };
    g.addEventListener('click', activate);
    g.addEventListener('keydown', (e) => {
      const k = (e as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        e.preventDefault();
        activate();
      }
    });
    box.append(g);
    drawn++;
  });
  section.append(box);
  parent.append(section);
  return drawn;
}

function drawHistogram(parent: HTMLElement): number {
  const s = strings!;
  const d = data!;
  const section = el('section', { 'aria-label': s.histogram });
  section.append(el('h2', {}, s.histogram));
  const total = (k: 'file' | 'section') => d.distances[k].reduce((a, b) => a + b, 0);
  if (total('file') + total('section') === 0) {
    section.append(el('p', { class: 'note' }, s.noPairs));
    parent.append(section);
    return 0;
  }
  let last = Math.max(d.thresholds.maxDistance, d.thresholds.sectionMaxDistance);
  for (let i = 64; i > last; i--) if (d.distances.file[i] + d.distances.section[i] > 0) last = Math.max(last, i);
  const bins = last + 2;
  const width = Math.max(320, parent.clientWidth - 24);
  const height = 200;
  const left = 40;
  const bottom = 40;
  const barW = (width - left - 10) / bins;
  const max = Math.max(1, ...Array.from({ length: bins }, (_, i) => (d.distances.file[i] ?? 0) + (d.distances.section[i] ?? 0)));
  const chart = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', id: 'histogram', 'aria-label': s.histogram });
  const y = (n: number) => ((height - bottom - 10) * n) / max;
  let bars = 0;
  for (let i = 0; i < bins; i++) {
    const f = d.distances.file[i] ?? 0;
    const sc = d.distances.section[i] ?? 0;
    const x = left + i * barW;
    for (const [n, cls, base] of [[f, 'bar-file', 0], [sc, 'bar-section', f]] as Array<[number, string, number]>) {
      if (n === 0) continue;
      const r = svg('rect', { x: x + 1, y: height - bottom - y(base + n), width: Math.max(1, barW - 2), height: y(n), class: cls });
      const t = svg('title');
      t.textContent = `${cls === 'bar-file' ? s.files : s.sections}: ${n} · ${s.distance} ${i} · ${s.similarity} ${(100 * (1 - i / 64)).toFixed(1)}%`;
      r.append(t);
      chart.append(r);
      bars++;
    }
    if (i % 2 === 0) {
      const t = svg('text', { x: x + barW / 2, y: height - bottom + 14, 'text-anchor': 'middle', class: 'axis' });
      t.textContent = String(i);
      const t2 = svg('text', { x: x + barW / 2, y: height - bottom + 28, 'text-anchor': 'middle', class: 'axis dim' });
      t2.textContent = `${Math.round(100 * (1 - i / 64))}%`;
      chart.append(t, t2);
    }
  }
  for (const [value, cls, label] of [[d.thresholds.maxDistance, 'limit-file', s.files], [d.thresholds.sectionMaxDistance, 'limit-section', s.sections]] as Array<[number, string, string]>) {
    const x = left + (value + 1) * barW;
    chart.append(svg('line', { x1: x, x2: x, y1: 4, y2: height - bottom, class: `limit ${cls}` }));
    const nearEnd = x > width - 140;
    const t = svg('text', { x: nearEnd ? x - 3 : x + 3, y: cls === 'limit-file' ? 14 : 28, class: 'axis', 'text-anchor': nearEnd ? 'end' : 'start' });
    t.textContent = fill(s.threshold, label, value);
    chart.append(t);
  }
  const ax = svg('text', { x: 2, y: height - bottom + 14, class: 'axis' });
  ax.textContent = s.distance;
  const ax2 = svg('text', { x: 2, y: height - bottom + 28, class: 'axis dim' });
  ax2.textContent = s.similarity;
  chart.append(ax, ax2);
  section.append(chart);
  const legend = el('p', { class: 'legend' });
  legend.append(el('span', { class: 'swatch bar-file' }), document.createTextNode(` ${s.files} (${total('file')})  `), el('span', { class: 'swatch bar-section' }), document.createTextNode(` ${s.sections} (${total('section')})`));
  section.append(legend);
  parent.append(section);
  return bars;
}

function drawGroups(parent: HTMLElement): number {
  const s = strings!;
  const section = el('section', { 'aria-label': s.groups });
  section.append(el('h2', {}, s.groups));
  const list = el('ol', { id: 'groups' });
  for (const g of data!.groups) {
    const li = el('li');
    li.append(el('span', { class: 'group' }, fill(s.group, g.copies, g.lines, g.maxDistance)));
    const members = el('ul');
    for (const m of g.members) {
      const item = el('li');
      // Paths under a root are shown relative to it (the HTML report's are relative already: root '').
      const rel = data!.roots.reduce((p, r) => (r.path && p.startsWith(r.path) ? p.slice(r.path.length + 1) : p), m.path);
      const b = el('button', { type: 'button', class: 'link' }, m.startLine === undefined ? rel : `${rel}:${m.startLine}-${m.endLine}`);
      b.addEventListener('click', () => open(m.path, m.startLine, m.endLine));
      item.append(b);
      members.append(item);
    }
    li.append(members);
    list.append(li);
  }
  section.append(list);
  parent.append(section);
  return data!.groups.length;
}

function render(): void {
  if (!data || !strings) return;
  const root = document.getElementById('root')!;
  root.replaceChildren();
  const nodes = drawTreemap(root);
  const bars = drawHistogram(root);
  const groups = drawGroups(root);
  vscode.postMessage({ type: 'rendered', nodes, bars, groups, folder: current().path });
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: string; data?: OverviewData; strings?: Strings };
  if (m?.type !== 'data' || !m.data || !m.strings) return;
  data = m.data;
  strings = m.strings;
  // Keep the zoom where the same folders still exist.
  const old = trail;
  trail = [];
  const kept: OverviewNode[] = [];
  let at = current();
  for (const n of old) {
    const same = (at.children ?? []).find((c) => c.path === n.path && c.children);
    if (!same) break;
    kept.push(same);
    at = same;
  }
  trail = kept;
  render();
});

window.addEventListener('keydown', (e) => {
  if ((e.key === 'Backspace' || e.key === 'Escape') && !(e.target instanceof HTMLInputElement)) zoomOut();
});

let resizeTimer: number | undefined;
window.addEventListener('resize', () => {
  if (resizeTimer !== undefined) clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(render, 150);
});

vscode.postMessage({ type: 'ready' });
