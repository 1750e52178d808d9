/**
 * The JSON report's pairs as text: each pair as the report shows it (a notebook side with its
 * cell), a list's items at the report's depth, and the scan's own pairs packed as numbers for
 * another thread, which makes their text (the CLI's --locate: node/scan/pairTexts.ts), one text
 * with each pair's end, that the CLI's JSON (cli/formatJson.ts) takes its pieces from.
 */
import { CELL_LINE_STRIDE, isNotebookPath, withCell } from '../containers/cellLines';
import { escapeJsonControls, hasJsonControls } from './jsonEscape';
import type { Location, ReportPair } from './report';

/** cellRange(loc).cell !== undefined, without its object (twice a pair in the report). */
export const inNotebook = (loc: Location): boolean => !(loc.startLine === undefined || loc.startLine < CELL_LINE_STRIDE) && isNotebookPath(loc.path);

/** A pair as the report shows it: a side in a notebook's cell also has `cell` (1-based), its lines those inside the cell. */
export const shownPair = (p: ReportPair) => (inNotebook(p.a) || inNotebook(p.b) ? { ...p, a: withCell(p.a), b: withCell(p.b) } : p);

/**
 * The items' text inside `"name": [ … ]` of the report as JSON.stringify(report, null, 2) writes
 * it (each item `\n    {…}`, a comma between two), without escaping.
 */
export function listItemsText(name: string, shown: readonly unknown[]): string {
  // {"name": [...]} at two spaces: the items at the depth they have in the report.
  const text = JSON.stringify({ [name]: shown }, null, 2);
  return text.slice(`{\n  "${name}": [`.length, text.length - '\n  ]\n}'.length);
}

/** The text of some pairs in the report: item i is text.slice(i === 0 ? 0 : ends[i − 1] + 1, ends[i]) (a comma between two). */
export interface PairsText {
  text: string;
  ends: Int32Array;
}

/** {@link PairsText} in UTF-8 (written as it is, no text to encode): `ends` in bytes. */
export interface PairsBytes {
  bytes: Uint8Array;
  ends: Int32Array;
}

/** A {@link PairsBytes} of `pairs` (these objects: a pair made anew is not among them). */
export interface PairTexts extends PairsBytes {
  pairs: readonly ReportPair[];
  /** For the report's pairs (`shown.pairs`, that very array), each one's number in `pairs` or −1. */
  shown?: { pairs: readonly ReportPair[]; at: Int32Array };
}

/** Integers per packed pair: kind, a's path, start and end line (−1: none), b's, distance, clone kind. */
const PAIR_INTS = 9;
const CLONES = ['exact', 'renamed', 'edited'] as const;

/** Report pairs as numbers and the paths they name (a few arrays to send, not thousands of objects). */
export interface PackedReportPairs {
  ints: Int32Array;
  similarity: Float64Array;
  paths: string[];
}

/** The pairs' paths, each once, and a path's number among them. */
class PathTable {
  readonly paths: string[] = [];
  private readonly ids = new Map<string, number>();
  idOf(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.paths.length;
      this.paths.push(path);
      this.ids.set(path, id);
    }
    return id;
  }
}

/** A side's lines packed at ints[o], ints[o + 1] (−1: none); false when not of the scan's shape (both lines or none, whole numbers). */
function packLines(ints: Int32Array, o: number, loc: Location): boolean {
  const { startLine, endLine } = loc;
  if (startLine === undefined) {
    ints[o] = ints[o + 1] = -1;
    return endLine === undefined;
  }
  ints[o] = startLine;
  ints[o + 1] = endLine!;
  return ints[o] === startLine && ints[o + 1] === endLine && startLine >= 0;
}

/**
 * The pairs packed, or undefined when one is not of the scan's own shape (kind, a, b, distance,
 * similarity, clone: no located or regions) — then their text is made as before. (On the main
 * thread, once, cold: few operations a pair.)
 */
export function packReportPairs(pairs: readonly ReportPair[]): PackedReportPairs | undefined {
  const ints = new Int32Array(pairs.length * PAIR_INTS);
  const similarity = new Float64Array(pairs.length);
  const table = new PathTable();
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i];
    const o = i * PAIR_INTS;
    const clone = p.clone === 'edited' ? 2 : p.clone === 'exact' ? 0 : p.clone === 'renamed' ? 1 : -1;
    ints[o] = p.kind === 'file' ? 0 : 1;
    ints[o + 1] = table.idOf(p.a.path);
    ints[o + 4] = table.idOf(p.b.path);
    ints[o + 7] = p.distance;
    ints[o + 8] = clone;
    similarity[i] = p.similarity;
    if (clone < 0 || ints[o + 7] !== p.distance || !packLines(ints, o + 2, p.a) || !packLines(ints, o + 5, p.b) || Object.keys(p).length !== 6) return undefined;
  }
  return { ints, similarity, paths: table.paths };
}

const sideOf = (paths: readonly string[], path: number, start: number, end: number): Location =>
  start < 0 ? { path: paths[path] } : { path: paths[path], startLine: start, endLine: end };

/** The pairs of {@link packReportPairs} again (the same keys in the same order). */
export function unpackReportPairs(packed: PackedReportPairs): ReportPair[] {
  const { ints, similarity, paths } = packed;
  const pairs: ReportPair[] = new Array(similarity.length);
  for (let i = 0; i < pairs.length; i++) {
    const o = i * PAIR_INTS;
    pairs[i] = {
      kind: ints[o] === 0 ? 'file' : 'section',
      a: sideOf(paths, ints[o + 1], ints[o + 2], ints[o + 3]),
      b: sideOf(paths, ints[o + 4], ints[o + 5], ints[o + 6]),
      distance: ints[o + 7],
      similarity: similarity[i],
      clone: CLONES[ints[o + 8]],
    };
  }
  return pairs;
}

/** Pairs stringified at once (pieces of the text of ~100 KB). */
const PER_TEXT = 300;
/** Where an item of {@link listItemsText} begins: no nested line has exactly four spaces before a brace. */
const ITEM_START = '\n    {';

/** The report's text of these pairs (escaped when a path needs it), and where each ends. */
export function pairsText(pairs: readonly ReportPair[]): PairsText {
  const escape = pairs.some((p) => hasJsonControls(p.a.path) || hasJsonControls(p.b.path));
  const parts: string[] = [];
  const ends = new Int32Array(pairs.length);
  let at = 0; // where the next part begins in the whole text
  for (let from = 0; from < pairs.length; from += PER_TEXT) {
    const chunk = pairs.slice(from, from + PER_TEXT);
    let part = listItemsText('pairs', chunk.map(shownPair));
    if (escape) part = escapeJsonControls(part);
    // each item but the last ends where the next begins, less its comma
    let i = from;
    for (let next = part.indexOf(ITEM_START, 1); next >= 0; next = part.indexOf(ITEM_START, next + 1)) ends[i++] = at + next - 1;
    ends[i++] = at + part.length;
    if (i !== from + chunk.length) throw new Error(`pairsText: ${i - from} items found in a text of ${chunk.length}`);
    parts.push(part);
    at += part.length + 1;
  }
  return { text: parts.join(','), ends };
}

/** UTF-8 bytes of a JSON text's code units from..to (no lone surrogate: JSON.stringify escapes them). */
function utf8Length(text: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2; // (a surrogate pair: 2 + 2)
  }
  return n;
}

/** The text in UTF-8, each item's end in bytes. */
export function pairsBytes(made: PairsText): PairsBytes {
  const bytes = new TextEncoder().encode(made.text);
  if (bytes.length === made.text.length) return { bytes, ends: made.ends }; // ASCII: the same offsets
  const ends = new Int32Array(made.ends.length);
  let from = 0;
  let at = 0;
  for (let i = 0; i < ends.length; i++) {
    at += utf8Length(made.text, from, made.ends[i]);
    ends[i] = at;
    from = made.ends[i] + 1;
    at += 1; // the comma
  }
  return { bytes, ends };
}
