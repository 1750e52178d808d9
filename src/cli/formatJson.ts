/**
 * The JSON report, exactly as DESIGN.md's contract gives it (plus `truncated` when the pair cap
 * was reached): as one text, or as the pieces of that text in order, made as they are written.
 */
import { CELL_LINE_STRIDE, isNotebookPath, memberLabel, withCell } from '../core/containers/cellLines';
import type { Location, ReportGroup, ReportPair } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { escapeJsonControls, hasJsonControls } from './sanitize';

/** cellRange(loc).cell !== undefined, without its object (twice a pair in the report). */
const inNotebook = (loc: Location): boolean => !(loc.startLine === undefined || loc.startLine < CELL_LINE_STRIDE) && isNotebookPath(loc.path);

function membersOf(g: ReportGroup): string[] {
  return g.locations?.some(inNotebook) ? g.locations.map(memberLabel) : g.members;
}

// A side in a notebook's cell also has `cell` (1-based), its lines those inside the cell.
const shownPair = (p: ReportPair) => (inNotebook(p.a) || inNotebook(p.b) ? { ...p, a: withCell(p.a), b: withCell(p.b) } : p);

// `located` (the default; not with --no-locate): a group of copies located inside files. A
// notebook's section member reads `path:cell3:2-10`.
const shownGroup = (g: ReportGroup) => ({ kind: g.kind, members: membersOf(g), maxDistance: g.maxDistance, ...(g.located ? { located: true } : {}) });

/** Pairs or groups per piece: pieces of ~100 KB, which die young (one text of tens of MB and its copy were most of the tail's garbage collection). */
const PER_PIECE = 300;

/** With a baseline, `result` holds only the new pairs and `baseline` counts both (`baseline` object). */
export function formatJson(result: ScanResult, rootArg: string, baseline?: BaselineSummary): string {
  return [...formatJsonPieces(result, rootArg, baseline)].join('');
}

/**
 * The text of {@link formatJson}, piece by piece (joined, the same text): the pairs and the groups
 * are stringified a few hundred at a time, each inside an object of the report's depth so that
 * JSON.stringify indents them as it indents the whole report.
 */
export function* formatJsonPieces(result: ScanResult, rootArg: string, baseline?: BaselineSummary): Generator<string> {
  const { files, sections, bytes, elapsedMs } = result.stats;
  // Paths and the root are the only strings of the report that are not ours: when none has a
  // character to escape, the text is not scanned for them (tens of MB on a large tree).
  const escape = hasJsonControls(rootArg) || (baseline !== undefined && hasJsonControls(baseline.file)) || result.documents.some((d) => hasJsonControls(d.path));
  const safe = escape ? escapeJsonControls : (s: string) => s;
  const outline = JSON.stringify(
    {
      version: 1,
      root: rootArg,
      stats: { files, sections, bytes, elapsedMs },
      // Beyond DESIGN.md's first contract (an addition of the same version 1): with --baseline,
      // the pairs it holds are left out and counted here.
      ...(baseline ? { baseline: { file: baseline.file, matched: baseline.matched, new: baseline.new } } : {}),
      pairs: [],
      groups: [],
      // Beyond DESIGN.md's contract, present only when the pairs of a kind reached the cap: the
      // report holds only some of them (a consumer that ignores it still reads a valid report).
      ...(result.truncated ? { truncated: { files: result.truncated.files, sections: result.truncated.sections } } : {}),
    },
    null,
    2,
  );
  // No string holds a raw line break, so this is where the two lists go.
  const lists = '\n  "pairs": [],\n  "groups": []';
  const at = outline.indexOf(lists);
  yield safe(outline.slice(0, at));
  yield* listPieces('pairs', result.pairs, shownPair, safe);
  yield ',';
  yield* listPieces('groups', result.groups, shownGroup, safe);
  yield safe(outline.slice(at + lists.length)) + '\n';
}

/** `\n  "name": [ … ]` of the report, as JSON.stringify(report, null, 2) writes it, in pieces. */
function* listPieces<T>(name: string, items: readonly T[], shown: (item: T) => unknown, safe: (s: string) => string): Generator<string> {
  if (items.length === 0) {
    yield `\n  "${name}": []`;
    return;
  }
  // {"name": [...]} at two spaces: the items at the depth they have in the report.
  const open = `{\n  "${name}": [`;
  const close = '\n  ]\n}';
  // (the items' text as a slice of JSON.stringify's, its separator a piece of its own: a text
  // joined to it would be copied whole to be written)
  yield open.slice(1);
  for (let from = 0; from < items.length; from += PER_PIECE) {
    const text = JSON.stringify({ [name]: items.slice(from, from + PER_PIECE).map(shown) }, null, 2);
    if (from > 0) yield ',';
    yield safe(text.slice(open.length, text.length - close.length));
  }
  yield '\n  ]';
}
