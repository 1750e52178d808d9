/**
 * The HTML report of a scan (`neardup scan --format html`): the Overview's data built from the
 * scan's result as the engine builds it for the extension (ReportViewBuilder, buildOverview), its
 * paths made relative to the folder scanned (no absolute path of the machine in the page), every
 * group with its pairs, and the text of the first {@link MAX_PAIRS_WITH_TEXT} pairs read from the
 * files (read-only, at most the scan's size limit, decoded as the scan decodes) as side-by-side
 * rows. What is cut is said on the page. A notebook's section is shown by cell (its lines those
 * inside the cell, as the other reports name them) with the cell's text; a whole notebook by the
 * text NearDup fingerprints (its code and Markdown cells), not its JSON.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cellRange, isNotebookPath } from '../../core/containers/cellLines';
import { notebookText, parseNotebook } from '../../core/containers/notebook';
import { sideBySide } from '../../core/report/lineDiff';
import type { FingerprintedDocument, Location, ReportGroup, ReportPair } from '../../core/report/report';
import type { DocumentFingerprint } from '../../core/types';
import type { OverviewData, OverviewNode, Thresholds } from '../engine/engineProtocol';
import { buildOverview, ReportViewBuilder } from '../engine/reportView';
import { decodeBuffer } from '../files/decode';
import { renderHtmlPage, type PageGroup, type PageLocation, type PagePair } from './htmlPage';

/** Pairs shown with their text, side by side; the others are listed by their locations. */
export const MAX_PAIRS_WITH_TEXT = 300;
/** Pairs listed in the page at all (with or without text); the rest of each group is counted. */
export const MAX_PAIRS_LISTED = 5000;
/** Lines of one side shown at most. */
export const MAX_SIDE_LINES = 400;

export interface HtmlScan {
  root: string;
  pairs: ReportPair[];
  groups: ReportGroup[];
  documents: FingerprintedDocument[];
  stats: { files: number; sections: number };
  truncated?: { files: boolean; sections: boolean };
}

export interface HtmlReportOptions {
  /** The folder as the user named it (the page's title). */
  title: string;
  thresholds: Thresholds;
  /** The Overview webview's bundled script (dist/overview.js). */
  overviewScript: string;
  /** Largest file read for its text (bytes). */
  maxFileSizeBytes: number;
  maxPairsWithText?: number;
  maxPairsListed?: number;
}

const keyOf = (l: Location) => (l.startLine === undefined ? l.path : `${l.path}#${l.startLine}-${l.endLine}`);

const splitLines = (text: string): string[] => {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** A location as the page names it: a notebook section by its cell and the lines inside it. */
function pageLocation(l: Location): PageLocation {
  const r = cellRange(l);
  return r.cell === undefined ? { ...l } : { path: l.path, cell: r.cell, startLine: r.startLine, endLine: r.endLine };
}

/**
 * The lines of a location's text, from the file's text (undefined: not readable now): a notebook
 * cell's lines, a whole notebook's fingerprinted text, any other file's lines.
 */
function rangeLines(text: string | undefined, l: Location): string[] | undefined {
  if (text === undefined) return undefined;
  if (!isNotebookPath(l.path)) return splitLines(text).slice((l.startLine ?? 1) - 1, l.endLine);
  const r = cellRange(l);
  if (r.cell === undefined) {
    const c = notebookText(text);
    return 'reason' in c ? undefined : splitLines(c.text).slice((r.startLine ?? 1) - 1, r.endLine);
  }
  const nb = parseNotebook(text);
  const cell = 'reason' in nb ? undefined : nb.cells.find((c) => c.index === r.cell);
  return cell ? splitLines(cell.source).slice((r.startLine ?? 1) - 1, r.endLine) : undefined;
}

/** The text of a file under the root (undefined: cannot be read as text now). */
function readText(root: string, rel: string, maxBytes: number): string | undefined {
  const file = path.join(root, ...rel.split('/'));
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const decoded = decodeBuffer(fs.readFileSync(file));
    return decoded.ok ? decoded.text : undefined;
  } catch {
    return undefined;
  }
}

/** The Overview's tree with paths relative to the root ('/' separators; the root itself ''). */
function relativeTree(node: OverviewNode, root: string): OverviewNode {
  const rel = node.path === root ? '' : path.relative(root, node.path).split(path.sep).join('/');
  return { ...node, path: rel, ...(node.children ? { children: node.children.map((c) => relativeTree(c, root)) } : {}) };
}

export function overviewOfScan(scan: HtmlScan, thresholds: Thresholds): OverviewData {
  const docs = new Map<string, DocumentFingerprint>(scan.documents.map((d) => [d.path, d.doc]));
  const lines = new Map(scan.documents.map((d) => [d.path, d.lines]));
  const builder = new ReportViewBuilder();
  const { groups } = builder.build(scan, docs, null, undefined, (p) => {
    const doc = docs.get(p);
    return doc ? { lines: lines.get(p), kind: doc.kind, folder: '' } : undefined;
  });
  const root = path.resolve(scan.root);
  const files = scan.documents.map((d) => ({ path: path.join(root, ...d.path.split('/')), lines: d.lines ?? 0, duplicated: builder.duplicatedOf(d.path) }));
  const data = buildOverview(files, [root], scan.pairs, groups, (p) => lines.get(p), thresholds);
  return { ...data, roots: data.roots.map((r) => relativeTree(r, root)) };
}

/** The page. */
export function htmlReport(scan: HtmlScan, options: HtmlReportOptions): string {
  const maxText = options.maxPairsWithText ?? MAX_PAIRS_WITH_TEXT;
  const maxListed = options.maxPairsListed ?? MAX_PAIRS_LISTED;
  const root = path.resolve(scan.root);
  // Groups closest first (then the larger), as the other reports; each pair goes to the group of its first side.
  const order = scan.groups.map((g, i) => i).sort((x, y) => scan.groups[x].maxDistance - scan.groups[y].maxDistance || scan.groups[y].members.length - scan.groups[x].members.length || x - y);
  const groupOf = new Map<string, number>();
  // A located group's members join overlapping copies: a located pair's side lies inside one, not always on it.
  const locatedMembers = new Map<string, Array<{ startLine: number; endLine: number; pos: number }>>();
  const pageGroups: PageGroup[] = order.map((gi, pos) => {
    const g = scan.groups[gi];
    const locs: Location[] = g.locations ?? g.members.map((p) => ({ path: p }));
    for (const l of locs) {
      groupOf.set(`${g.kind}:${g.located ? 'L' : ''}:${keyOf(l)}`, pos);
      if (!g.located || l.startLine === undefined) continue;
      const at = `${g.kind}:${l.path}`;
      const list = locatedMembers.get(at) ?? [];
      list.push({ startLine: l.startLine, endLine: l.endLine ?? l.startLine, pos });
      locatedMembers.set(at, list);
    }
    return { kind: g.kind, ...(g.located ? { located: true } : {}), maxDistance: g.maxDistance, members: locs.map(pageLocation), pairs: [], morePairs: 0 };
  });
  const cache = new Map<string, string | undefined>();
  const textOf = (rel: string) => {
    if (!cache.has(rel)) cache.set(rel, readText(root, rel, options.maxFileSizeBytes));
    return cache.get(rel);
  };
  const ungrouped: PagePair[] = [];
  let listed = 0;
  let withText = 0;
  let unlisted = 0;
  // Pairs in page order: by group, then as the report has them.
  // The located group member that shares most lines with a located side (the first group on a tie).
  const overlapping = (kind: string, l: Location): number | undefined => {
    if (l.startLine === undefined) return undefined;
    let best: number | undefined;
    let most = 0;
    for (const m of locatedMembers.get(`${kind}:${l.path}`) ?? []) {
      const shared = Math.min(m.endLine, l.endLine ?? l.startLine) - Math.max(m.startLine, l.startLine) + 1;
      if (shared > most || (shared === most && best !== undefined && m.pos < best)) [best, most] = [m.pos, shared];
    }
    return best;
  };
  const byGroup = scan.pairs.map(
    (p) =>
      groupOf.get(`${p.kind}:${p.located ? 'L' : ''}:${keyOf(p.a)}`) ??
      groupOf.get(`${p.kind}:${p.located ? 'L' : ''}:${keyOf(p.b)}`) ??
      (p.located ? (overlapping(p.kind, p.a) ?? overlapping(p.kind, p.b)) : undefined) ??
      -1,
  );
  const pairOrder = scan.pairs.map((_, i) => i).sort((x, y) => (byGroup[x] === -1 ? Infinity : byGroup[x]) - (byGroup[y] === -1 ? Infinity : byGroup[y]) || x - y);
  for (const i of pairOrder) {
    const p = scan.pairs[i];
    const target = byGroup[i] >= 0 ? pageGroups[byGroup[i]] : undefined;
    if (listed >= maxListed) {
      if (target) target.morePairs++;
      else unlisted++;
      continue;
    }
    listed++;
    const page: PagePair = {
      kind: p.kind,
      a: pageLocation(p.a),
      b: pageLocation(p.b),
      distance: p.distance,
      similarity: p.similarity,
      ...(p.clone ? { clone: p.clone } : {}),
      ...(p.located ? { located: true } : {}),
      ...(p.regions ? { regions: p.regions } : {}),
    };
    if (withText < maxText) {
      const sa = rangeLines(textOf(p.a.path), p.a);
      const sb = rangeLines(textOf(p.b.path), p.b);
      if (sa && sb) {
        withText++;
        page.rows = sideBySide(sa.slice(0, MAX_SIDE_LINES), sb.slice(0, MAX_SIDE_LINES));
        if (sa.length > MAX_SIDE_LINES || sb.length > MAX_SIDE_LINES) page.note = `Only the first ${MAX_SIDE_LINES} lines of each side are shown.`;
      } else page.note = 'The text could not be read again (changed, removed or not text).';
    } else page.note = 'Text not shown (see the note at the top).';
    if (target) target.pairs.push(page);
    else ungrouped.push(page);
  }
  if (ungrouped.length || unlisted) pageGroups.push({ kind: 'section', maxDistance: Math.max(0, ...ungrouped.map((p) => p.distance)), members: [], pairs: ungrouped, morePairs: unlisted });
  const notes: string[] = [];
  if (scan.pairs.length > withText) {
    notes.push(`${withText} of ${scan.pairs.length} pairs are shown with their text (at most ${maxText}); ${scan.pairs.length > maxListed ? `${maxListed} are listed, the other ${scan.pairs.length - maxListed} counted in their groups` : 'the others are listed by their lines'}.`);
  }
  if (scan.truncated?.files || scan.truncated?.sections) notes.push('The scan reached its pair cap: the report holds only some of the pairs.');
  return renderHtmlPage({
    title: options.title,
    files: scan.stats.files,
    sections: scan.stats.sections,
    pairs: scan.pairs.length,
    overview: overviewOfScan(scan, options.thresholds),
    groups: pageGroups,
    notes,
    overviewScript: options.overviewScript,
  });
}
